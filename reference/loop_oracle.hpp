#pragma once
// The independent oracle for closed-loop forward dynamics (Featherstone chapter 8; DESIGN.md
// section 11): the Lagrangian in independent coordinates. See reference/README.md.
//
//  1. Loop closure phi(x): for each loop joint, the pose (R, p) of its successor frame in its
//     predecessor frame, from the 4x4 homogeneous forward kinematics of lagrange_oracle.hpp
//     (local coordinates x, x = 0 at the state, x_dot = qd), and per joint type a set of
//     geometric conditions on (R, p) written from what the joint allows (z axis of the
//     successor frame, Table 4.1): see append_rows(). These rows are deliberately not
//     Featherstone's T^T (J_s - J_p) nor Table 8.1's delta: a different basis of the same
//     constraints.
//  2. Phi = dphi/dx by first-order duals (one column per pass), and the bias
//     phi_ddot0 = d^2/dt^2 phi(t qd) by second-order duals (x_ddot = 0 is qdd = 0 in these
//     coordinates, for the chart joints too: lagrange_oracle.hpp's header). So
//     phi_ddot = Phi qdd + phi_ddot0 = 0 is the constraint at the acceleration level.
//  3. Independent coordinates: Gauss-Jordan with complete pivoting on [Phi | -phi_ddot0]
//     gives the rank, the dependent (pivot) variables, the independent ones y, G (Phi G = 0,
//     y rows = 1) and g (Phi g = -phi_ddot0, g_y = 0), so every constrained qdd is G ydd + g.
//  4. The constraint forces do no work on null(Phi), so projecting H qdd + C = tau + Phi^T l
//     onto it: (G^T H G) ydd = G^T (tau - C - H g), with H = oracle::mass_matrix and
//     C = oracle::inverse_dynamics(q, qd, 0, f_ext), solved by partial-pivoting elimination.
//
// Nothing from algorithms/ is used beyond Model/LoopJoint/ExternalForces data (and the Eigen
// typedefs): no jcalc, no Transform methods, nothing from closed_loop_dynamics/.
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "model/loop_joint.hpp"  // LoopJoint data only
#include "reference/gepp.hpp"
#include "reference/lagrange_oracle.hpp"

namespace rbd::oracle {
namespace loop_detail {

using detail::fail;

// The plain value at the bottom of a nested dual.
template <class S> const S& value_of(const S& x) { return x; }
template <class T> const base_t<T>& value_of(const Dual<T>& x) { return value_of(x.a); }

// 1/x and atan2 on nested duals (dual.hpp has neither): d(1/x) = -dx/x^2,
// d atan2(y, x) = (x dy - y dx) / (x^2 + y^2).
template <class S> S recip(const S& x) { return S(1) / x; }
template <class T> Dual<T> recip(const Dual<T>& x) {
  const T r = recip(x.a);
  return Dual<T>(r, -(x.b * r * r));
}
template <class S> S atan2_(const S& y, const S& x) {
  using std::atan2;
  return atan2(y, x);
}
template <class T> Dual<T> atan2_(const Dual<T>& y, const Dual<T>& x) {
  return Dual<T>(atan2_(y.a, x.a), (x.a * y.b - y.a * x.b) * recip(x.a * x.a + y.a * y.a));
}

template <class S> S pi_() {
  using std::atan;
  return S(4) * atan(S(1));
}

template <class S> std::string fmt(const S& x) {
  std::ostringstream os;
  os.precision(3);
  os << x;
  return os.str();
}

template <class S> std::string loop_name(const LoopJoints<S>& loops, std::size_t l) {
  const LoopJoint<S>& L = loops[l];
  return "loop joint " + std::to_string(l) + (L.name.empty() ? "" : " '" + L.name + "'") + " (" +
         std::string(loop_joint_type_name(L.type)) + ", predecessor " + std::to_string(L.p) + ", successor " +
         std::to_string(L.s) + ")";
}

// What the loop data can be checked for without a state (as validate_loop_joints, but in S
// and with the oracle's rigidity tolerance: see lagrange_oracle.hpp, unit_tol).
template <class S> void validate(const Model<S>& m, const LoopJoints<S>& loops) {
  using std::abs;
  const S tol = detail::unit_tol<S>();
  for (std::size_t l = 0; l < loops.size(); ++l) {
    const LoopJoint<S>& L = loops[l];
    const std::string who = loop_name(loops, l);
    if (L.p < -1 || L.p >= m.nb || L.s < -1 || L.s >= m.nb)
      fail(who + ": predecessor or successor is not a body of the model (-1 .. " + std::to_string(m.nb - 1) + ")");
    if (L.p == L.s) fail(who + ": predecessor and successor are the same body");
    for (const Transform<S>* X : {&L.XP, &L.XS}) {
      const char* which = X == &L.XP ? "X_P" : "X_S";
      if (!((X->E * X->E.transpose() - Mat3<S>::Identity()).cwiseAbs().maxCoeff() <= tol) || !(X->E.determinant() > 0))
        fail(who + ": " + which + " rotation is not orthonormal to working precision (use LoopJoint::cast)");
      if (!(X->r.cwiseAbs().maxCoeff() < std::numeric_limits<S>::max()))  // also catches NaN
        fail(who + ": " + which + " translation is not finite");
    }
    if (!(abs(L.pitch) < std::numeric_limits<S>::max())) fail(who + ": helical pitch is not finite");
  }
}

// Pose [E^T r; 0 1] of a frame given by a Plucker transform (as prepare() does for Xtree).
template <class S> Pose<S> frame_of(const Transform<S>& X) {
  Pose<S> T;
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) T.R[r][c] = X.E(c, r);
    T.p[r] = X.r[r];
  }
  return T;
}

template <class D, class S> Pose<D> lift(const Pose<S>& x) {
  Pose<D> y;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) y.R[i][j] = D(x.R[i][j]);
    y.p[i] = D(x.p[i]);
  }
  return y;
}

// World poses of loop joint L's predecessor frame (first) and successor frame (second).
template <class D, class S> std::array<Pose<D>, 2> loop_frames(const std::vector<Pose<D>>& X, const LoopJoint<S>& L) {
  const Pose<D> Bp = L.p < 0 ? identity_pose<D>() : X[L.p];
  const Pose<D> Bs = L.s < 0 ? identity_pose<D>() : X[L.s];
  return {compose<D>(Bp, frame_of(L.XP)), compose<D>(Bs, frame_of(L.XS))};
}

// (R, p) of the successor frame in the predecessor frame: Tp^-1 Ts = [Rp^T Rs, Rp^T (ps - pp)].
template <class D> Pose<D> relative(const Pose<D>& Tp, const Pose<D>& Ts) {
  Pose<D> T;
  std::array<D, 3> d;
  for (int k = 0; k < 3; ++k) d[k] = Ts.p[k] - Tp.p[k];
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) T.R[i][j] = Tp.R[0][i] * Ts.R[0][j] + Tp.R[1][i] * Ts.R[1][j] + Tp.R[2][i] * Ts.R[2][j];
    T.p[i] = Tp.R[0][i] * d[0] + Tp.R[1][i] * d[1] + Tp.R[2][i] * d[2];
  }
  return T;
}

// The closure conditions of one loop joint on the relative pose (R, p), appended to out.
// e_z below is the successor frame's z axis, R e_z = (R02, R12, R22) its direction in the
// predecessor frame; skew(R) = (R21 - R12, R02 - R20, R10 - R01) / 2 vanishes at R = 1.
//   weld:        p = 0 (3), skew(R) = 0 (3)
//   revolute:    p = 0 (3), (R e_z)_x = (R e_z)_y = 0 (2)
//   prismatic:   skew(R) = 0 (3), p_x = p_y = 0 (2)
//   helical:     (R e_z)_x,y = 0 (2), p_x = p_y = 0 (2), p_z - pitch * angle = 0 (1)
//   cylindrical: (R e_z)_x,y = 0 (2), p_x = p_y = 0 (2)
//   planar:      (R e_z)_x,y = 0 (2), p_z = 0 (1)
//   spherical:   p = 0 (3)
// Each set is zero exactly on the joint's allowed relative poses near a closed one, and its
// derivative there has full rank n^c (so its rows span the same constraint space as K's).
// The helical angle is atan2(R10, R00) (R is a rotation about z when the other rows vanish);
// since a helical loop joint has no variable of its own, its closure holds only modulo a
// translation of 2 pi pitch: the branch nearest to the value is used (a constant, so it
// changes no derivative).
template <class D, class S> void append_rows(const Pose<D>& T, const LoopJoint<S>& L, std::vector<D>& out) {
  const auto& R = T.R;
  const auto& p = T.p;
  const S half = S(1) / S(2);
  auto skew = [&] {
    out.push_back((R[2][1] - R[1][2]) * half);
    out.push_back((R[0][2] - R[2][0]) * half);
    out.push_back((R[1][0] - R[0][1]) * half);
  };
  auto axis = [&] {
    out.push_back(R[0][2]);
    out.push_back(R[1][2]);
  };
  switch (L.type) {
    case LoopJointType::Weld: out.insert(out.end(), p.begin(), p.end()); skew(); break;
    case LoopJointType::Revolute: out.insert(out.end(), p.begin(), p.end()); axis(); break;
    case LoopJointType::Prismatic: skew(); out.push_back(p[0]); out.push_back(p[1]); break;
    case LoopJointType::Helical: {
      axis();
      out.push_back(p[0]);
      out.push_back(p[1]);
      const D th = atan2_(R[1][0], R[0][0]);
      S shift = S(0);
      if (L.pitch != S(0)) {
        using std::round;
        const S two_pi = S(2) * pi_<S>();
        shift = two_pi * S(round((value_of(p[2]) / L.pitch - value_of(th)) / two_pi));
      }
      out.push_back(p[2] - (th + shift) * L.pitch);
      break;
    }
    case LoopJointType::Cylindrical: axis(); out.push_back(p[0]); out.push_back(p[1]); break;
    case LoopJointType::Planar: axis(); out.push_back(p[2]); break;
    case LoopJointType::Spherical: out.insert(out.end(), p.begin(), p.end()); break;
  }
}

// phi at local coordinates dx (all loops stacked).
template <class D, class S>
std::vector<D> phi_at(const detail::Prepared<S>& P, const LoopJoints<S>& loops, const std::vector<D>& dx) {
  const std::vector<Pose<D>> X = detail::forward_kinematics<D, S>(P, dx);
  std::vector<D> rows;
  for (const LoopJoint<S>& L : loops) {
    const std::array<Pose<D>, 2> F = loop_frames<D, S>(X, L);
    append_rows<D, S>(relative<D>(F[0], F[1]), L, rows);
  }
  return rows;
}

template <class S> MatX<S> jacobian(const detail::Prepared<S>& P, const LoopJoints<S>& loops, int nc) {
  const int n = P.m.nv;
  using U = detail::D1<S>;
  MatX<S> J(nc, n);
  std::vector<U> dx(n);
  for (int j = 0; j < n; ++j) {
    for (int l = 0; l < n; ++l) dx[l] = detail::d1<S>(S(0), S(l == j ? 1 : 0));
    const std::vector<U> r = phi_at<U, S>(P, loops, dx);
    for (int i = 0; i < nc; ++i) J(i, j) = r[i].b;
  }
  return J;
}

// d^2/dt^2 phi(x(t)) at t = 0 along x(t) = t qd: two infinitesimals both seeded with qd.
template <class S> VecX<S> bias(const detail::Prepared<S>& P, const LoopJoints<S>& loops, const VecX<S>& qd, int nc) {
  const int n = P.m.nv;
  using U = detail::D2<S>;
  std::vector<U> dx(n);
  for (int l = 0; l < n; ++l) dx[l] = U(detail::d1<S>(S(0), qd[l]), detail::d1<S>(qd[l], S(0)));
  const std::vector<U> r = phi_at<U, S>(P, loops, dx);
  VecX<S> b(nc);
  for (int i = 0; i < nc; ++i) b[i] = r[i].b.b;
  return b;
}

// Tolerances (eps = numeric_limits<S>::epsilon(): ~5e-51 for Reference, 2.2e-16 for double).
// State: eps^0.8 (~6e-41 in Reference, ~3e-13 in double). A state closed by a solver in S
//   leaves residuals of a few eps times the sizes involved; eps^0.8 leaves ~10 orders of
//   margin in Reference (3 in double), while a state rounded in double (1e-16) or perturbed
//   is refused by 20+ orders in Reference.
template <class S> S state_tol() {
  using std::pow;
  return pow(std::numeric_limits<S>::epsilon(), S(4) / S(5));
}
// Rank: eps^(2/3) relative to the largest |Phi_ij| (~3e-34 in Reference, ~4e-11 in double).
//   A dependent row leaves a residue of (number of eliminations) * eps * (growth, <= 2^rank
//   with complete pivoting, O(1) in practice) times the largest entry: ~1e-48 in Reference.
//   A genuine pivot of a mechanism that is not singular (rank constant near the state, so qdd
//   is defined) is a geometric quantity, O(1) times the largest entry for ordinary
//   mechanisms and far above 1e-30 unless the configuration is within 1e-30 of a singular
//   one. eps^(2/3) sits ~15 orders above the first and ~4 below the second. It must also
//   exceed state_tol (a closure error of that size can perturb a dependent row by as much):
//   eps^(2/3) > eps^(4/5).
template <class S> S rank_tol() {
  using std::pow;
  return pow(std::numeric_limits<S>::epsilon(), S(2) / S(3));
}


}  // namespace loop_detail

// The reduction of section 3 of the header, exposed for tests.
template <class S> struct LoopReduction {
  MatX<S> Phi;                   // nc x nv, dphi/dx
  VecX<S> phi_ddot0;             // nc, d^2 phi / dt^2 at qdd = 0
  int rank = 0;                  // rank of Phi (by rank_tol)
  std::vector<int> dependent;    // pivot variables (indices into qd), size rank
  std::vector<int> independent;  // the others, ascending, size nv - rank
  MatX<S> G;                     // nv x (nv - rank): Phi G = 0, G(independent, :) = 1
  VecX<S> g;                     // nv: Phi g = -phi_ddot0, g(independent) = 0
};

template <class S> VecX<S> loop_closure_residual(const Model<S>& m, const LoopJoints<S>& loops, const VecX<S>& q) {
  const detail::Prepared<S> P = detail::prepare(m, q);
  loop_detail::validate(m, loops);
  const std::vector<S> dx(m.nv, S(0));
  const std::vector<S> r = loop_detail::phi_at<S, S>(P, loops, dx);
  return Eigen::Map<const VecX<S>>(r.data(), static_cast<Eigen::Index>(r.size()));
}

template <class S> MatX<S> loop_constraint_jacobian(const Model<S>& m, const LoopJoints<S>& loops, const VecX<S>& q) {
  const detail::Prepared<S> P = detail::prepare(m, q);
  loop_detail::validate(m, loops);
  return loop_detail::jacobian(P, loops, loop_constraint_count(loops));
}

// Checks the state (closure at position and velocity level, per loop joint), then reduces.
template <class S>
LoopReduction<S> closed_loop_reduction(const Model<S>& m, const LoopJoints<S>& loops, const VecX<S>& q,
                                       const VecX<S>& qd) {
  using std::abs;
  using std::sqrt;
  detail::check_size(qd.size(), m.nv, "qd", "nv");
  const detail::Prepared<S> P = detail::prepare(m, q);
  loop_detail::validate(m, loops);
  const int n = m.nv, nc = loop_constraint_count(loops);
  const S tol = loop_detail::state_tol<S>();
  LoopReduction<S> red;
  red.Phi = loop_detail::jacobian(P, loops, nc);

  // Position and velocity closure, loop by loop. Scales: a position residual is compared with
  // 1 + the distances |world origin| of both loop frames + |XP.r| + |XS.r| (+ |pitch angle|
  // for helical): the lengths whose rounding it inherits (rotation rows are O(1) and share
  // the loop's scale, which only loosens them by that factor). A velocity residual Phi qd is
  // compared with max over the loop's rows of sum_j |Phi_ij| times max_j |qd_j|: a qd made
  // consistent by a projection in S (cases/loops.hpp) carries rounding of eps times the whole
  // qd in every component, so the scale must be the whole qd's, not the terms of this row
  // (those can all be tiny when the loop's own joints barely move, and Sum |Phi_ij qd_j| then
  // refused consistent states at 1e-52 against 1e-92). 0 when qd = 0, where Phi qd is exactly 0.
  {
    const std::vector<S> dx(n, S(0));
    const std::vector<Pose<S>> X = detail::forward_kinematics<S, S>(P, dx);
    const VecX<S> v = red.Phi * qd;
    S qd_max = S(0);
    for (int j = 0; j < n; ++j) qd_max = std::max<S>(qd_max, abs(qd[j]));
    int row = 0;
    for (std::size_t l = 0; l < loops.size(); ++l) {
      const LoopJoint<S>& L = loops[l];
      const std::array<Pose<S>, 2> F = loop_detail::loop_frames<S, S>(X, L);
      std::vector<S> r;
      const Pose<S> T = loop_detail::relative<S>(F[0], F[1]);
      loop_detail::append_rows<S, S>(T, L, r);
      auto norm3 = [](const std::array<S, 3>& a) { return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); };
      S scale = S(1) + norm3(F[0].p) + norm3(F[1].p) + sqrt(L.XP.r.squaredNorm()) + sqrt(L.XS.r.squaredNorm());
      if (L.type == LoopJointType::Helical) scale += abs(T.p[2]) + S(4) * abs(L.pitch);  // pitch * angle ~ p_z
      S worst = S(0), vworst = S(0), vscale = S(0);
      for (int i = 0; i < L.nc(); ++i) {
        worst = std::max<S>(worst, abs(r[i]));
        vworst = std::max<S>(vworst, abs(v[row + i]));
        S s = S(0);
        for (int j = 0; j < n; ++j) s += abs(red.Phi(row + i, j));
        vscale = std::max<S>(vscale, s * qd_max);
      }
      if (!(worst <= tol * scale))
        detail::fail(loop_detail::loop_name(loops, l) + ": the state does not close the loop: closure residual " +
             loop_detail::fmt(worst) + " > tolerance " + loop_detail::fmt(S(tol * scale)));
      // The rows vanish on two branches: R e_z = -e_z (axis rows) and half-turns (skew(R) = 0
      // for R = 2 n n^T - 1, trace -1). Only the branch near the identity is the joint.
      const bool axis_rows = L.type == LoopJointType::Revolute || L.type == LoopJointType::Helical ||
                             L.type == LoopJointType::Cylindrical || L.type == LoopJointType::Planar;
      const bool skew_rows = L.type == LoopJointType::Weld || L.type == LoopJointType::Prismatic;
      if ((axis_rows && !(T.R[2][2] > S(0))) || (skew_rows && !(T.R[0][0] + T.R[1][1] + T.R[2][2] > S(1))))
        detail::fail(loop_detail::loop_name(loops, l) + ": the state does not close the loop: the frames' z axes "
                     "are opposite or the relative rotation is a half-turn");
      if (!(vworst <= tol * vscale))
        detail::fail(loop_detail::loop_name(loops, l) + ": qd is not consistent with the loop: velocity residual " +
             loop_detail::fmt(vworst) + " > tolerance " + loop_detail::fmt(S(tol * vscale)));
      row += L.nc();
    }
  }

  red.phi_ddot0 = loop_detail::bias(P, loops, qd, nc);

  // Gauss-Jordan with complete pivoting on [Phi | -phi_ddot0].
  MatX<S> A = red.Phi;
  VecX<S> b = -red.phi_ddot0;
  S amax = S(0);
  for (Eigen::Index i = 0; i < A.size(); ++i) amax = std::max<S>(amax, abs(A.data()[i]));
  const S tol_abs = loop_detail::rank_tol<S>() * amax;
  std::vector<bool> used(n, false);
  int r = 0;
  while (r < nc) {
    int bi = -1, bj = -1;
    S best = S(0);
    for (int i = r; i < nc; ++i)
      for (int j = 0; j < n; ++j)
        if (!used[j] && abs(A(i, j)) > best) { best = abs(A(i, j)); bi = i; bj = j; }
    if (bi < 0 || !(best > tol_abs)) break;
    A.row(r).swap(A.row(bi));
    std::swap(b[r], b[bi]);
    const S piv = A(r, bj);
    A.row(r) /= piv;
    b[r] /= piv;
    A(r, bj) = S(1);
    for (int i = 0; i < nc; ++i) {
      if (i == r) continue;
      const S f = A(i, bj);
      if (f == S(0)) continue;
      A.row(i) -= f * A.row(r);
      b[i] -= f * b[r];
      A(i, bj) = S(0);
    }
    used[bj] = true;
    red.dependent.push_back(bj);
    ++r;
  }
  red.rank = r;
  for (int j = 0; j < n; ++j)
    if (!used[j]) red.independent.push_back(j);
  const int ny = n - r;
  red.G = MatX<S>::Zero(n, ny);
  red.g = VecX<S>::Zero(n);
  for (int k = 0; k < ny; ++k) {
    const int c = red.independent[k];
    red.G(c, k) = S(1);
    for (int i = 0; i < r; ++i) red.G(red.dependent[i], k) = -A(i, c);
  }
  for (int i = 0; i < r; ++i) red.g[red.dependent[i]] = b[i];

  // Consistency at the acceleration level: the rows eliminated as dependent must have had a
  // consistent right-hand side. Checked a posteriori on the original system, with the same
  // tolerance as the state (same reasoning: rounding is a few eps of the terms that cancel).
  // phi_ddot0 is itself a sum of terms of size ~ max|Phi| |qd|^2 that may cancel to 0 (e.g. a
  // parallelogram, whose constraint manifold is flat in q): that size is part of the scale.
  {
    const VecX<S> res = red.Phi * red.g + red.phi_ddot0;
    const S qdmax = n > 0 ? S(qd.cwiseAbs().maxCoeff()) : S(0);
    S scale = amax * qdmax * qdmax;
    for (int i = 0; i < nc; ++i) {
      S s = abs(red.phi_ddot0[i]);
      for (int j = 0; j < n; ++j) s += abs(red.Phi(i, j) * red.g[j]);
      scale = std::max<S>(scale, s);
    }
    const S worst = nc > 0 ? S(res.cwiseAbs().maxCoeff()) : S(0);
    if (!(worst <= tol * scale))
      detail::fail("closed_loop_forward_dynamics: the loop constraints are inconsistent at the acceleration level "
           "(Phi qdd = -phi_ddot0 has no solution: residual " + loop_detail::fmt(worst) + " > tolerance " +
           loop_detail::fmt(S(tol * scale)) + "; a singular configuration?)");
  }
  return red;
}

template <class S>
VecX<S> closed_loop_forward_dynamics(const Model<S>& m, const LoopJoints<S>& loops, const VecX<S>& q,
                                     const VecX<S>& qd, const VecX<S>& tau,
                                     const std::type_identity_t<ExternalForces<S>>* f_ext) {  // nullptr works
  detail::check_size(tau.size(), m.nv, "tau", "nv");
  const LoopReduction<S> red = closed_loop_reduction(m, loops, q, qd);
  const int ny = static_cast<int>(red.G.cols());
  if (ny == 0) return red.g;  // locked: the constraints alone fix qdd
  const MatX<S> H = mass_matrix(m, q);
  const VecX<S> C = inverse_dynamics(m, q, qd, VecX<S>(VecX<S>::Zero(m.nv)), f_ext);
  const MatX<S> M = red.G.transpose() * H * red.G;
  const VecX<S> rhs = red.G.transpose() * (tau - C - H * red.g);
  const VecX<S> ydd = solve_gepp<S>(M, rhs, "closed_loop_forward_dynamics: the reduced mass matrix G^T H G");
  return red.G * ydd + red.g;
}

}  // namespace rbd::oracle
