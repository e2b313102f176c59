#pragma once
// What every closed-loop variant computes before it solves (Featherstone sections 8.1-8.7):
//  - the spanning tree's C (RNEA with qdd = 0, Table 8.3 for passive loop joints, tau^a = 0),
//    which leaves each body's velocity v_i and velocity-product acceleration a_i^vp in the
//    workspace (Table 8.3's footnote: a_i^vp carries the offset -a_g, which cancels in
//    a_s - a_p);
//  - K, k and k_stab by Table 8.4 (Eqs. 8.19-8.20, 8.47, 8.22-8.23), everything transformed to
//    base coordinates and combined there, as the table does;
//  - H by the CRBA (Table 6.2) and tau' = tau - C + tau^a (active loop joints, Tables 8.2-8.3).
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "closed_loop_dynamics/loop_subspaces.hpp"
#include "closed_loop_dynamics/workspace.hpp"
#include "inverse_dynamics/rnea_spatial.hpp"
#include "mass_matrix/crba.hpp"
#include "model/base_coordinates.hpp"

namespace rbd::loops {

// Table 8.4 for every loop joint: rows row0[l] .. row0[l] + nc_l of K and k.
// Needs ws.Xup, ws.v, ws.a from the RNEA pass with qdd = 0. kWithK = false leaves K alone
// (section 8.13's method needs k, ^iX_0 and the S_i in base coordinates, but no K).
template <class S, bool kWithK = true>
void loop_constraints(const Model<S>& m, const LoopJoints<S>& loops, ClosedLoopWorkspace<S>& ws) {
  base_frames_and_subspaces<S>(m, ws, ws.X0, ws.S0);  // ^iX_0, and every S_i in base coordinates
  const Vec6<S> a_base = join<S>(Vec3<S>::Zero(), Vec3<S>(-m.gravity));  // a_0 = -a_g (Table 8.3's footnote)
  int dofs = 0;
  for (const auto& L : loops) dofs += loop_joint_dof(L.type);
  const bool active = ws.loop_tau.size() > 0;
  if (active && ws.loop_tau.size() != static_cast<Eigen::Index>(dofs))
    throw std::invalid_argument("closed loops: loop_tau has " + std::to_string(ws.loop_tau.size()) +
                                " values, but the loop joints have " + std::to_string(dofs) + " freedoms");
  int tau0 = 0;
  // K is not cleared here: the entries written below are those on the paths between each loop's
  // p(k) and s(k), the same set at every call with the same loops, and prepare() sets K to zero
  // whenever the loops change.
  for (std::size_t l = 0; l < loops.size(); ++l) {
    const LoopJoint<S>& L = loops[l];
    const int nc = L.nc(), r0 = ws.row0[l];
    // Xp = ^{p(k),k}X_0, Xs = ^{s(k),k}X_0; the base's ^0X_0 is the identity.
    const Transform<S> Xp = L.p < 0 ? L.XP : L.XP * ws.X0[L.p];
    const Transform<S> Xs = L.s < 0 ? L.XS : L.XS * ws.X0[L.s];
    // Velocities and velocity-product accelerations of p(k) and s(k) in base coordinates.
    const Vec6<S> vp = L.p < 0 ? Vec6<S>::Zero() : ws.X0[L.p].apply_inverse(ws.v[L.p]);
    const Vec6<S> ap = L.p < 0 ? a_base : ws.X0[L.p].apply_inverse(ws.a[L.p]);
    const Vec6<S> vs = L.s < 0 ? Vec6<S>::Zero() : ws.X0[L.s].apply_inverse(ws.v[L.s]);
    const Vec6<S> as = L.s < 0 ? a_base : ws.X0[L.s].apply_inverse(ws.a[L.s]);
    // Table 8.3's loop 2: f^a = X_S^T T^a tau_k, here carried on to base coordinates.
    if (active) ws.loop_fa[l] = Xs.apply_transpose(active_force<S>(L.type, L.pitch, &ws.loop_tau[tau0]));
    tau0 += loop_joint_dof(L.type);
    // T = Xs^T T: the constraint-force subspace carried from successor-frame to base coordinates.
    const Mat6N<S> Ts = constraint_subspace<S>(L.type, L.pitch);
    Mat6N<S>& T = ws.loop_T[l];  // kept: section 8.13's method reuses it
    T.resize(6, nc);
    for (int c = 0; c < nc; ++c) T.col(c) = Xs.apply_transpose(Vec6<S>(Ts.col(c)));
    // k_l = -T^T (a_s - a_p + v_s x v_p)   (Eq. 8.47)
    ws.k.segment(r0, nc).noalias() = -(T.transpose() * Vec6<S>(as - ap + crm<S>(vs, vp)));
    if (ws.stab.alpha != S(0) || ws.stab.beta != S(0)) {
      // k_stab = -2 alpha T^T (v_s - v_p) - beta^2 delta, delta = jcalc(type, Xs Xp^-1)  (Eqs. 8.22-8.23)
      S delta[6];
      loop_position_error<S>(L.type, L.pitch, Xs * Xp.inverse(), delta);
      const VecN<S> TvJ = T.transpose() * Vec6<S>(vs - vp);
      for (int c = 0; c < nc; ++c)
        ws.k[r0 + c] -= S(2) * ws.stab.alpha * TvJ[c] + ws.stab.beta * ws.stab.beta * delta[c];
    }
    if constexpr (!kWithK) continue;
    // K_li = -T^T ^0X_i S_i on the path from p(k), K_lj = +T^T ^0X_j S_j on the path from s(k),
    // stepping the larger body number towards the base until the two meet (Eqs. 8.18-8.20).
    // (One 6-term dot product per entry: a small dynamic-size product per column costs more in
    // dispatch than in arithmetic.)
    auto columns = [&](int b, bool minus) {
      for (int c = 0; c < m.joint[b].nv(); ++c) {
        const int col = m.v_idx[b] + c;
        const Vec6<S> s(ws.S0.col(col));
        for (int r = 0; r < nc; ++r) {
          const S e = Vec6<S>(T.col(r)).dot(s);
          ws.K(r0 + r, col) = minus ? S(-e) : e;
        }
      }
    };
    int i = L.p, j = L.s;
    while (i != j) {
      if (i > j) {
        columns(i, true);
        i = m.parent[i];
      } else {
        columns(j, false);
        j = m.parent[j];
      }
    }
  }
}

// tau' += tau^a (section 8.5's step 2): the active loop-joint forces are external forces on the
// tree, +f^a on s(k) and -f^a on p(k) (Table 8.2's e_ik), so their generalized force is
// S_i^T f^a (base coordinates) on the path from s(k) and minus that on the path from p(k), up to
// the common ancestor, beyond which the two cancel: K's walk (Eqs. 8.19-8.20) with f^a for T.
template <class S> void add_active_loop_forces(const Model<S>& m, const LoopJoints<S>& loops, ClosedLoopWorkspace<S>& ws) {
  if (ws.loop_tau.size() == 0) return;
  for (std::size_t l = 0; l < loops.size(); ++l) {
    const Vec6<S>& f = ws.loop_fa[l];
    int i = loops[l].p, j = loops[l].s;
    while (i != j) {
      if (i > j) {
        for (int c = 0; c < m.joint[i].nv(); ++c) ws.tau_prime[m.v_idx[i] + c] -= Vec6<S>(ws.S0.col(m.v_idx[i] + c)).dot(f);
        i = m.parent[i];
      } else {
        for (int c = 0; c < m.joint[j].nv(); ++c) ws.tau_prime[m.v_idx[j] + c] += Vec6<S>(ws.S0.col(m.v_idx[j] + c)).dot(f);
        j = m.parent[j];
      }
    }
  }
}

// K and k must be finite: the rank test and the pivoted solves compare magnitudes, and a
// comparison with NaN is false, so a NaN in the state would otherwise drop constraints
// silently instead of showing in qdd.
template <class S> void require_finite(const MatX<S>& K, const VecX<S>& k) {
  // The common case in one vectorised pass (x * 0 is 0 for a finite x and NaN for a NaN or an
  // inf; Eigen's allFinite tests entry by entry, a visible share of loop_lambda_first's time on
  // the Stewart platform); else find the entry.
  if constexpr (std::is_same_v<S, double>)
    if ((K.array() * 0.0).sum() + (k.array() * 0.0).sum() == 0.0) return;
  const S big = S(std::numeric_limits<double>::max());
  for (Eigen::Index c = 0; c < K.cols(); ++c)
    for (Eigen::Index r = 0; r < K.rows(); ++r)
      if (!(abs_(K(r, c)) <= big))
        throw std::domain_error("closed loops: K has a non-finite entry at row " + std::to_string(r) + ", column " +
                                std::to_string(c) + " (a NaN or inf in q or in a loop joint's frames?)");
  for (Eigen::Index r = 0; r < k.size(); ++r)
    if (!(abs_(k[r]) <= big))
      throw std::domain_error("closed loops: k has a non-finite entry at row " + std::to_string(r) +
                              " (a NaN or inf in q, qd or the model?)");
}

// C, K, k, H and tau' = tau - C + tau^a for the state.
template <class S>
void tree_and_loop_terms(const Model<S>& m, const LoopJoints<S>& loops, const VecX<S>& q, const VecX<S>& qd,
                         const VecX<S>& tau, const ExternalForces<S>* f_ext, ClosedLoopWorkspace<S>& ws) {
  ws.prepare(m, loops);
  RneaSpatial::run<S>(m, q, qd, ws.zero, f_ext, ws.C, ws);  // C = ID(q, qd, 0); leaves v_i, a_i^vp
  loop_constraints<S>(m, loops, ws);
  require_finite<S>(ws.K, ws.k);
  Crba::from_kinematics<S>(m, ws.H, ws);  // H at the RNEA's Xup
  ws.tau_prime = tau - ws.C;
  add_active_loop_forces<S>(m, loops, ws);  // + tau^a
}

}  // namespace rbd::loops
