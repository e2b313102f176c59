#pragma once
// Inverse dynamics of a closed-loop system, Featherstone section 8.12: the actuator forces u
// that produce a given acceleration qdd (one that satisfies the loop constraints, Eq. 8.35).
//
// The spanning tree's equation of motion with the loop joints' constraint forces,
//     tau = H qdd + C - tau^a - K^T lambda                  (Eq. 8.61)
// has two unknowns; multiplying by G^T (G spans the null space of K, Eq. 8.42, so G^T K^T = 0)
// removes lambda:
//     G^T tau = G^T tau_ID,   tau_ID = ID(q, qd, qdd) - tau^a   (Eq. 8.62)
// with ID the tree's inverse dynamics (Table 5.1) and tau^a the generalized force of the active
// loop joints' known forces (ws.loop_tau, as for the forward variants; empty: passive loops).
// As the book assumes, the loop joints carry no unknown force: u is at tree joints only. Only the actuated variables carry force,
// tau = Q [u; 0], so with G_u the rows of G at the actuated variables
//     G_u^T u = G^T tau_ID                                  (Eq. 8.63)
// which is (n - r) equations in p unknowns. Section 8.12's three cases:
//  1. rank G_u < n - r: underactuated. Most accelerations cannot be produced; if this one can
//     (the equations are consistent), u is returned, otherwise the call is refused with the
//     residual.
//  2. p > rank G_u: redundantly actuated. Infinitely many u; this returns the one of least
//     Euclidean norm (the book leaves the criterion open; least norm is the usual one, and it
//     is the unique solution in the row space of G_u^T).
//  3. p = rank G_u = n - r: properly actuated, u = G_u^-T G^T tau_ID.
// Cases 1 and 2 can hold together; the returned LoopActuation says which hold.
//
// The solve. G_u (p x (n - r)) is factored by Householder QR with column pivoting,
// G_u P = Q R, its rank decided by the same relative tolerance as K's (workspace.hpp: rank_tol,
// 1e4 n eps, relative to the largest pivot). Then G_u^T u = c reads R^T (Q^T u) = P^T c; with
// R = [R11 R12; 0 0] (R11 rank x rank), w1 = R11^-T (P^T c)_1, the remaining rows must give
// R12^T w1 = (P^T c)_2 (consistency), and u = Q [w1; 0] is the least-norm solution (any other
// solution adds components along Q's last p - rank columns, orthogonal to the first).
// Tolerances, all relative to the size of the terms they compare (no absolute floor):
//  - the rank of G_u: ws.rank_tol (1e4 n eps) of the largest pivot, as K's rank (workspace.hpp);
//  - the two consistency tests, normwise (infinity norms): |K qdd - k| against |K| |qdd| + |k|,
//    and the rows R12^T w1 = (P^T c)_2 of an underactuated system against |G| |tau_ID| + |R| |w1|,
//    the sizes of the terms whose cancellation each residual is: ws.consistency_tol, sqrt(eps) by
//    default. Normwise, not row by row: a row whose terms all vanish in exact arithmetic (a joint
//    a loop locks, whose qdd and k are pure rounding) has a residual of the same size as its terms.
//    A qdd computed by any of the closed-loop variants satisfies K qdd = k only to about
//    cond_r(K) eps (the elimination's G carries K's rounding, amplified by its conditioning),
//    which can exceed any fixed multiple of eps; sqrt(eps) accepts that while an acceleration
//    that is not consistent (random forces at missing actuators, a qdd off the constraint)
//    misses by O(1) relative, and is refused in double as in Reference.
// Storage: G_u and the QR are sized on the first call with a given number of actuators and
// mobility n - r; a later call with the same shape allocates nothing, while one where K's
// numerical rank changes (near a singular configuration) resizes them.
#include <Eigen/QR>
#include <algorithm>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "closed_loop_dynamics/elimination.hpp"
#include "closed_loop_dynamics/steps.hpp"

namespace rbd {

namespace loop_id_detail {
template <class S> std::string sci(const S& x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3e", static_cast<double>(x));
  return buf;
}
}  // namespace loop_id_detail

// How the actuators cover the mechanism's freedoms (section 8.12).
struct LoopActuation {
  int mobility = 0;   // n - r, the number of columns of G (Eq. 8.52)
  int actuators = 0;  // p
  int rank = 0;       // rank G_u
  bool underactuated() const { return rank < mobility; }                  // case 1
  bool redundant() const { return actuators > rank; }                     // case 2
  bool properly_actuated() const { return actuators == rank && rank == mobility; }  // case 3
};

template <class S> struct LoopInverseDynamicsWorkspace : ClosedLoopWorkspace<S> {
  VecX<S> tau_id;                               // ID(q, qd, qdd) of the spanning tree
  VecX<S> rhs_u;                                // G^T tau_ID, then P^T of it
  VecX<S> u;                                    // the actuator forces
  MatX<S> Gu;                                   // G_u, p x (n - r)
  std::vector<int> actuated_index;              // tree variable of each actuator
  Eigen::ColPivHouseholderQR<MatX<S>> qr;
  S consistency_tol = S(0);                     // relative tolerance of the consistency tests (header)

  LoopInverseDynamicsWorkspace() = default;
  explicit LoopInverseDynamicsWorkspace(const Model<S>& m)
      : ClosedLoopWorkspace<S>(m), tau_id(VecX<S>::Zero(m.nv)), rhs_u(VecX<S>::Zero(m.nv)), u(VecX<S>::Zero(m.nv)),
        consistency_tol(sqrt_(S(Eigen::NumTraits<S>::epsilon()))) {
    actuated_index.reserve(m.nv);
  }
};

// tau (size n: u at the actuated variables, 0 elsewhere) for the acceleration qdd at the state
// (q, qd) that closes the loops, with external forces f_ext (or none). `actuated` flags each
// tree variable (size n). Refuses, naming the problem: a wrong size, a non-finite qdd, a qdd
// that violates K qdd = k, and an acceleration the actuators cannot produce.
template <class S>
LoopActuation loop_inverse_dynamics(const Model<S>& m, const LoopJoints<S>& loops, const VecX<S>& q,
                                    const VecX<S>& qd, const VecX<S>& qdd, const ExternalForces<S>* f_ext,
                                    const std::vector<char>& actuated, VecX<S>& tau,
                                    LoopInverseDynamicsWorkspace<S>& ws) {
  using loop_id_detail::sci;
  const int n = m.nv;
  if (static_cast<int>(actuated.size()) != n || qdd.size() != n || tau.size() != n)
    throw std::invalid_argument("loop_inverse_dynamics: model '" + m.name + "' has " + std::to_string(n) +
                                " tree variables; actuated, qdd and tau must have that many entries");
  for (int i = 0; i < n; ++i)
    if (!(abs_(qdd[i]) < S(std::numeric_limits<double>::max())))
      throw std::domain_error("loop_inverse_dynamics: qdd[" + std::to_string(i) + "] is not finite");
  // K, k (Eqs. 8.19, 8.47) from the velocity-product pass, then tau_ID = ID(q, qd, qdd).
  ws.prepare(m, loops);
  RneaSpatial::run<S>(m, q, qd, ws.zero, f_ext, ws.C, ws);  // leaves v_i, a_i^vp for K and k
  loops::loop_constraints<S>(m, loops, ws);
  loops::require_finite<S>(ws.K, ws.k);
  RneaSpatial::run<S>(m, q, qd, qdd, f_ext, ws.tau_id, ws);
  // Eq. 8.61's tau^a: the known forces of active loop joints (ws.loop_tau, sized and turned into
  // forces by loop_constraints above) are subtracted, tau_ID = H qdd + C - tau^a. tau_prime is
  // free scratch here; add_active_loop_forces adds tau^a to it.
  if (ws.loop_tau.size() > 0) {
    ws.tau_prime.setZero();
    loops::add_active_loop_forces<S>(m, loops, ws);
    ws.tau_id -= ws.tau_prime;
  }
  // qdd must satisfy K qdd = k: each row to rank_tol of the size of its terms (the tolerance
  // that separates rounding from an independent constraint in section 8.8's rank test).
  S normK = S(0), normk = S(0), normq = S(0);
  for (int r = 0; r < ws.nc; ++r) {
    S row = S(0);
    for (int c = 0; c < n; ++c) row += abs_(ws.K(r, c));
    normK = std::max(normK, row);
    normk = std::max(normk, S(abs_(ws.k[r])));
  }
  for (int c = 0; c < n; ++c) normq = std::max(normq, S(abs_(qdd[c])));
  const S scale = normK * normq + normk;
  for (int r = 0; r < ws.nc; ++r) {
    const S res = abs_(S(ws.K.row(r).dot(qdd) - ws.k[r]));
    if (res > ws.consistency_tol * scale)
      throw std::domain_error("loop_inverse_dynamics: qdd violates the loop constraints (Eq. 8.35), row " +
                              std::to_string(r) + " of K qdd = k has residual " +
                              sci(res) + " against a tolerance of " + sci(S(ws.consistency_tol * scale)));
  }
  // G (Eq. 8.51) by section 8.8's elimination.
  loops::eliminate<S>(ws);
  loops::null_space_form<S>(ws);
  const int ny = n - ws.rank;
  ws.actuated_index.clear();
  for (int i = 0; i < n; ++i)
    if (actuated[i]) ws.actuated_index.push_back(i);
  const int p = static_cast<int>(ws.actuated_index.size());
  LoopActuation out;
  out.mobility = ny;
  out.actuators = p;
  tau.setZero();
  auto c = ws.rhs_u.head(ny);
  c.noalias() = ws.G.leftCols(ny).transpose() * ws.tau_id;  // G^T tau_ID
  // |G|_inf |tau_ID|_inf: the size of the terms of c = G^T tau_ID.
  S normG = S(0), normt = S(0);
  for (int j = 0; j < n; ++j) {
    S row = S(0);
    for (int i = 0; i < ny; ++i) row += abs_(ws.G(j, i));
    normG = std::max(normG, row);
    normt = std::max(normt, S(abs_(ws.tau_id[j])));
  }
  const S c_terms = S(n) * normG * normt;
  if (p == 0 || ny == 0) {  // nothing to solve: G^T tau_ID must vanish
    out.rank = 0;
    for (int i = 0; i < ny; ++i) {
      if (abs_(c[i]) > ws.consistency_tol * c_terms)
        throw std::domain_error("loop_inverse_dynamics: underactuated (no actuators, mobility " + std::to_string(ny) +
                                ") and this acceleration needs G^T tau != 0 (section 8.12, case 1)");
    }
    return out;
  }
  if (ws.Gu.rows() != p || ws.Gu.cols() != ny) ws.Gu.resize(p, ny);  // first use of this shape
  for (int a = 0; a < p; ++a) ws.Gu.row(a) = ws.G.row(ws.actuated_index[a]).head(ny);
  ws.qr.setThreshold(ws.rank_tol);
  ws.qr.compute(ws.Gu);
  const int r = static_cast<int>(ws.qr.rank());
  out.rank = r;
  // P^T c, w1 = R11^-T (P^T c)_1, then the consistency of the remaining rows.
  const auto& perm = ws.qr.colsPermutation().indices();
  auto u = ws.u.head(p);
  u.setZero();
  for (int i = 0; i < r; ++i) u[i] = c[perm[i]];
  const auto& R = ws.qr.matrixQR();  // R in its upper triangle
  for (int i = 0; i < r; ++i) {  // R11^T w1 = (P^T c)_1, forward substitution
    S s = u[i];
    for (int k = 0; k < i; ++k) s -= R(k, i) * u[k];
    u[i] = s / R(i, i);
  }
  S worst = S(0), size = c_terms;
  for (int i = r; i < ny; ++i) {  // R12^T w1 = (P^T c)_2
    S s = c[perm[i]], terms = S(0);
    for (int k = 0; k < r; ++k) {
      s -= R(k, i) * u[k];
      terms += abs_(S(R(k, i) * u[k]));
    }
    worst = std::max(worst, S(abs_(s)));
    size = std::max(size, S(c_terms + terms));
  }
  if (worst > ws.consistency_tol * size)
    throw std::domain_error("loop_inverse_dynamics: underactuated (rank G_u = " + std::to_string(r) + " < mobility " +
                            std::to_string(ny) + ") and this acceleration needs forces the " + std::to_string(p) +
                            " actuators cannot apply: G_u^T u = G^T tau_ID leaves residual " + sci(worst) +
                            " against a tolerance of " + sci(S(ws.consistency_tol * size)) + " (section 8.12, case 1)");
  // u = Q [w1; 0]: the Householder reflectors applied last to first.
  S workspace;
  for (int i = std::min(p, ny) - 1; i >= 0; --i)
    u.tail(p - i).applyHouseholderOnTheLeft(ws.qr.matrixQR().col(i).tail(p - i - 1), ws.qr.hCoeffs()(i), &workspace);
  for (int a = 0; a < p; ++a) tau[ws.actuated_index[a]] = u[a];
  return out;
}

}  // namespace rbd
