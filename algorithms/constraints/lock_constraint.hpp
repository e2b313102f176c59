#pragma once
// The "lock" constraint between two bodies (Tasora & Righettini, seed 001, sections 4-6):
// marker P on body A (O1 in the seed) and marker S on body B (O2) are held at a prescribed
// relative pose: P's origin at d(t) in S's coordinates (translational part, Eqs. 28-29)
// and P's rotation relative to S equal to q_Delta(t) (rotational part, Eqs. 46-49). Every
// body has the seven coordinates {x, q}: the origin of its frame in world coordinates and the
// unit quaternion of its orientation (A(q) maps body to world coordinates).
//
//   e       = A(q_B)^T (x_A + A(q_A) u_P - x_B)         P's origin seen from B's origin, B coords
//   C_trans = A(q_S)^T (e - u_S) - d(t)                  (Eq. 29; rows C_x, C_y, C_z)
//   q_rel   = q_S* q_B* q_A q_P                          (Eq. 48)
//   C_rot   = Im(q_Delta(t)* q_rel)                      (Eq. 49 with q_P, vector part: Eq. 72)
//
// A mask (constraints/lock_masks.hpp) selects the active rows. Derivatives:
//  - C_q, 7-coordinate form (Eqs. 41-42, 65-69): 6 x 14, columns [x_A q_A x_B q_B]. The
//    translational rows use Gl(q) (Eq. 37), so they vanish on the radial direction q and
//    apply to any tangent rate; the rotational rows are the product-matrix form of Eqs. 67/69.
//  - C_v, 6-velocity form: 6 x 12, columns [x_dot_A omega_A x_dot_B omega_B] with omega in
//    body coordinates, from the relative angular velocity of P in S,
//    omega_r = A_P^T (omega_A - A_A^T A_B omega_B), and Im(p S(omega_r))/2 = (p_w I + [p_v]x) omega_r / 2
//    for p = q_Delta* q_rel. On tangent rates C_v = C_q blockdiag(1, Gamma_A, 1, Gamma_B).
//  - C_t = dC/dt at fixed coordinates: [-d_dot; Im(q_Delta_dot* q_rel)] (Eq. 32, 51 with fixed markers).
//  - gamma (the seed's Q_c, Eq. 26): C_ddot = C_q q_ddot - gamma, so C_q q_ddot = gamma keeps
//    C_ddot = 0. gamma7 goes with q_ddot of the 7 coordinates, gamma6 with [x_ddot, omega_dot].
// Markers are fixed on their bodies; the relative motion law {d, q_Delta} may depend on time
// (the seed's section 6.5 "engines": a rheonomic lock).
#include <string>

#include "constraints/lock_masks.hpp"
#include "constraints/quaternion_matrices.hpp"

namespace rbd {

template <class S> using Mat6x14 = Eigen::Matrix<S, 6, 14>;
template <class S> using Mat6x12 = Eigen::Matrix<S, 6, 12>;
// The active rows of a lock: at most six, kept on the stack.
template <class S, int Cols> using LockRows = Eigen::Matrix<S, Eigen::Dynamic, Cols, Eigen::ColMajor, 6, Cols>;

template <class S> struct BodyPose {  // the seven coordinates of a body
  Vec3<S> x = Vec3<S>::Zero();
  Quaternion<S> q{};
};
template <class S> struct BodyRates {  // their time derivatives (x_dot, q_dot), or second derivatives
  Vec3<S> x_dot = Vec3<S>::Zero();
  Quaternion<S> q_dot{S(0), Vec3<S>::Zero()};
};
template <class S> struct BodyTwist {  // x_dot in world coordinates, omega in body coordinates
  Vec3<S> x_dot = Vec3<S>::Zero();
  Vec3<S> omega = Vec3<S>::Zero();
};
template <class S> struct Marker {  // a frame fixed on a body: origin u and rotation q in body coordinates
  Vec3<S> u = Vec3<S>::Zero();
  Quaternion<S> q{};
};
template <class S> struct MotionLaw {  // the prescribed pose of P in S and its two time derivatives
  Vec3<S> d = Vec3<S>::Zero(), d_dot = Vec3<S>::Zero(), d_ddot = Vec3<S>::Zero();
  Quaternion<S> q{}, q_dot{S(0), Vec3<S>::Zero()}, q_ddot{S(0), Vec3<S>::Zero()};
};
template <class S> struct LockConstraint {
  Marker<S> marker_P;  // on body A
  Marker<S> marker_S;  // on body B
  unsigned mask = kCx | kCy | kCz | kCthI | kCthJ | kCthK;
  MotionLaw<S> law{};
};

namespace lock_detail {

// What every term needs, computed once per call.
template <class S> struct Geometry {
  Mat3<S> LA, LB, LS, LP;  // A(q_A), A(q_B), A(q_S), A(q_P)
  Mat3<S> M;               // A(q_S)^T A(q_B)^T: world to S coordinates
  Vec3<S> e;               // A(q_B)^T (x_A + A(q_A) u_P - x_B)
  Quaternion<S> q_rel;     // q_S* q_B* q_A q_P (Eq. 48)
  Quaternion<S> p;         // q_Delta* q_rel
};

template <class S> Geometry<S> geometry(const LockConstraint<S>& c, const BodyPose<S>& A, const BodyPose<S>& B) {
  Geometry<S> g;
  g.LA = A.q.matrix();
  g.LB = B.q.matrix();
  g.LS = c.marker_S.q.matrix();
  g.LP = c.marker_P.q.matrix();
  g.M = g.LS.transpose() * g.LB.transpose();
  g.e = g.LB.transpose() * (A.x + g.LA * c.marker_P.u - B.x);
  g.q_rel = c.marker_S.q.conjugate() * B.q.conjugate() * A.q * c.marker_P.q;
  g.p = c.law.q.conjugate() * g.q_rel;
  return g;
}

// The Im rows of a 4 x n product-matrix block.
template <class Derived> auto im_rows(const Eigen::MatrixBase<Derived>& m) { return m.template bottomRows<3>(); }

// The translational velocity-product terms of C_ddot (everything but the accelerations):
// with dW_dot = x_dot_A + A_A (omega_A x u_P) - x_dot_B, differentiating e twice gives
//   e_ddot = A_B^T (x_ddot_A + A_A (alpha_A x u_P) - x_ddot_B) - alpha_B x e            (accelerations)
//          + A_B^T A_A (omega_A x (omega_A x u_P)) - 2 omega_B x (A_B^T dW_dot) + omega_B x (omega_B x e)
// (A_dot = A [omega]x for body-frame omega), and C_trans_ddot = A_S^T e_ddot - d_ddot.
template <class S>
Vec3<S> translation_rest(const LockConstraint<S>& c, const Geometry<S>& g, const Vec3<S>& xdA, const Vec3<S>& wA,
                         const Vec3<S>& xdB, const Vec3<S>& wB) {
  const Vec3<S> u = c.marker_P.u;
  const Vec3<S> wxu = cross<S>(wA, u);
  const Vec3<S> dW_dot = xdA + g.LA * wxu - xdB;
  const Vec3<S> inB = g.LB.transpose() * (g.LA * cross<S>(wA, wxu)) - S(2) * cross<S>(wB, Vec3<S>(g.LB.transpose() * dW_dot))
                      + cross<S>(wB, cross<S>(wB, g.e));
  return g.LS.transpose() * inB - c.law.d_ddot;
}

}  // namespace lock_detail

// C (Eqs. 29 and 49, vector part per Eq. 72): all six rows.
template <class S> Vec6<S> lock_c(const LockConstraint<S>& c, const BodyPose<S>& A, const BodyPose<S>& B) {
  const auto g = lock_detail::geometry(c, A, B);
  Vec6<S> C;
  C << g.LS.transpose() * (g.e - c.marker_S.u) - c.law.d, g.p.v;
  return C;
}

// C_q in the seven coordinates of each body, columns [x_A (3) q_A (4) x_B (3) q_B (4)].
//   x_A: +M (Eq. 42a)                     q_A: -M A_A [u_P]x Gl(q_A)  (Eq. 42b, corrected)
//   x_B: -M (Eq. 42c)                     q_B: +A_S^T [e]x Gl(q_B)      (Eq. 42d, derived)
//   rotational rows: Im of [(q_Delta* q_S* q_B*)+][q_P-] for q_A (Eq. 67) and of
//   [(q_Delta* q_S*)+][(q_A q_P)-] chi for q_B (Eq. 69); the chained matrices of the seed are
//   multiplied as quaternions first (the same product, one 4x4 matrix instead of three).
template <class S> Mat6x14<S> lock_cq7(const LockConstraint<S>& c, const BodyPose<S>& A, const BodyPose<S>& B) {
  using lock_detail::im_rows;
  const auto g = lock_detail::geometry(c, A, B);
  Mat6x14<S> J = Mat6x14<S>::Zero();
  J.template block<3, 3>(0, 0) = g.M;
  J.template block<3, 4>(0, 3) = -(g.M * g.LA * skew(c.marker_P.u)) * gl_matrix(A.q);
  J.template block<3, 3>(0, 7) = -g.M;
  J.template block<3, 4>(0, 10) = (g.LS.transpose() * skew(g.e)) * gl_matrix(B.q);
  const Quaternion<S> left = c.law.q.conjugate() * c.marker_S.q.conjugate();
  J.template block<3, 4>(3, 3) = im_rows(qplus(left * B.q.conjugate()) * qminus(c.marker_P.q));
  Mat4<S> QB = qplus(left) * qminus(A.q * c.marker_P.q);
  QB.template rightCols<3>() = -QB.template rightCols<3>();  // times chi (Eq. 62): d(q_B*) = chi d(q_B)
  J.template block<3, 4>(3, 10) = im_rows(QB);
  return J;
}

// C_v in body twists, columns [x_dot_A (3) omega_A (3) x_dot_B (3) omega_B (3)].
template <class S> Mat6x12<S> lock_cv(const LockConstraint<S>& c, const BodyPose<S>& A, const BodyPose<S>& B) {
  const auto g = lock_detail::geometry(c, A, B);
  Mat6x12<S> J = Mat6x12<S>::Zero();
  J.template block<3, 3>(0, 0) = g.M;
  J.template block<3, 3>(0, 3) = -(g.M * g.LA) * skew(c.marker_P.u);
  J.template block<3, 3>(0, 6) = -g.M;
  J.template block<3, 3>(0, 9) = g.LS.transpose() * skew(g.e);
  // d/dt Im(p) = Im(p S(omega_r))/2 = W omega_r, W = (p_w I + [p_v]x) / 2.
  const Mat3<S> W = (g.p.w * Mat3<S>::Identity() + skew(g.p.v)) / S(2);
  const Mat3<S> WPt = W * g.LP.transpose();
  J.template block<3, 3>(3, 3) = WPt;
  J.template block<3, 3>(3, 9) = -(WPt * g.LA.transpose()) * g.LB;
  return J;
}

// C_t = partial C / partial t (Eq. 32 and the C_t of Eq. 51, markers fixed on their bodies).
template <class S> Vec6<S> lock_ct(const LockConstraint<S>& c, const BodyPose<S>& A, const BodyPose<S>& B) {
  const auto g = lock_detail::geometry(c, A, B);
  Vec6<S> Ct;
  Ct << -c.law.d_dot, (c.law.q_dot.conjugate() * g.q_rel).v;
  return Ct;
}

// gamma for the 7-coordinate form: C_q7 [x_ddot_A q_ddot_A x_ddot_B q_ddot_B] = gamma7 (Eq. 26's Q_c).
// Rotational rows: C_rot = Im(a b c d e) with a = q_Delta*, b = q_S*, c = q_B*, d = q_A, e = q_P
// (b, e constant); the product rule gives C_ddot = Im(a b c_ddot d e + a b c d_ddot e) (= C_q q_ddot)
// + Im(a_ddot b c d e + 2 a_dot b (c_dot d + c d_dot) e + 2 a b c_dot d_dot e), the last group
// being -gamma (Eqs. 52-53 reduced to fixed markers). Translational rows: omega = Gl(q) q_dot.
template <class S>
Vec6<S> lock_gamma7(const LockConstraint<S>& c, const BodyPose<S>& A, const BodyPose<S>& B, const BodyRates<S>& rA,
                    const BodyRates<S>& rB) {
  const auto g = lock_detail::geometry(c, A, B);
  const Vec3<S> wA = gl_matrix(A.q) * as_vec4(rA.q_dot), wB = gl_matrix(B.q) * as_vec4(rB.q_dot);
  const Quaternion<S> a = c.law.q.conjugate(), ad = c.law.q_dot.conjugate(), add = c.law.q_ddot.conjugate();
  const Quaternion<S> b = c.marker_S.q.conjugate(), cc = B.q.conjugate(), cd = rB.q_dot.conjugate();
  const Quaternion<S> rest = add * b * cc * A.q + S(2) * (ad * b * (cd * A.q + cc * rA.q_dot)) + S(2) * (a * b * cd * rA.q_dot);
  Vec6<S> gamma;
  gamma << -lock_detail::translation_rest(c, g, rA.x_dot, wA, rB.x_dot, wB), -(rest * c.marker_P.q).v;
  return gamma;
}

// gamma for the 6-velocity form: C_v [x_ddot_A omega_dot_A x_ddot_B omega_dot_B] = gamma6.
// Rotational rows: p = q_Delta* q_rel, q_rel_dot = q_rel S(omega_r)/2 and
//   omega_r_dot = A_P^T (omega_dot_A - A_A^T A_B omega_dot_B + omega_A x (A_A^T A_B omega_B)),
// so p_ddot = q_Delta_ddot* q_rel + 2 q_Delta_dot* q_rel_dot + q_Delta* q_rel_dot S(omega_r)/2
//           + q_Delta* q_rel S(omega_r_dot)/2, whose acceleration-free part is -gamma.
template <class S>
Vec6<S> lock_gamma6(const LockConstraint<S>& c, const BodyPose<S>& A, const BodyPose<S>& B, const BodyTwist<S>& tA,
                    const BodyTwist<S>& tB) {
  const auto g = lock_detail::geometry(c, A, B);
  const S half = S(1) / S(2);
  const Vec3<S> wB_in_A = g.LA.transpose() * (g.LB * tB.omega);
  const Vec3<S> w_r = g.LP.transpose() * (tA.omega - wB_in_A);
  const Quaternion<S> qrel_dot = half * (g.q_rel * Quaternion<S>::pure(w_r));
  const Quaternion<S> a = c.law.q.conjugate();
  const Vec3<S> wr_dot_rest = g.LP.transpose() * cross<S>(tA.omega, wB_in_A);
  const Quaternion<S> rest = c.law.q_ddot.conjugate() * g.q_rel + S(2) * (c.law.q_dot.conjugate() * qrel_dot)
                             + half * (a * (qrel_dot * Quaternion<S>::pure(w_r) + g.q_rel * Quaternion<S>::pure(wr_dot_rest)));
  Vec6<S> gamma;
  gamma << -lock_detail::translation_rest(c, g, tA.x_dot, tA.omega, tB.x_dot, tB.omega), -rest.v;
  return gamma;
}

// The active rows of a full six-row lock term (the mask's bits, Eq. 72's order).
template <class S, int Cols>
LockRows<S, Cols> select_lock_rows(unsigned mask, const Eigen::Matrix<S, 6, Cols>& full) {
  LockRows<S, Cols> out(lock_row_count(mask), Cols);
  for (int k = 0, i = 0; k < kLockRows; ++k)
    if (lock_row_active(mask, k)) out.row(i++) = full.row(k);
  return out;
}

// Bad input gets a message, not a wrong answer: the mask must be one of the 64, every number
// finite and every quaternion unit to within sqrt(eps) (as frames' validate_frame).
template <class S>
void validate_lock(const LockConstraint<S>& c, const BodyPose<S>& A, const BodyPose<S>& B) {
  validate_lock_mask(static_cast<long long>(c.mask));
  using std::isfinite;
  const S tol = sqrt_(S(Eigen::NumTraits<S>::epsilon()));
  auto check_q = [&](const Quaternion<S>& q, const char* what) {
    if (!isfinite(q.w) || !isfinite(q.v.x()) || !isfinite(q.v.y()) || !isfinite(q.v.z()))
      throw std::invalid_argument(std::string("lock constraint: ") + what + " is not finite");
    if (abs_(S(q.squared_norm() - S(1))) > tol)
      throw std::invalid_argument(std::string("lock constraint: ") + what + " is not a unit quaternion (|q|^2 - 1 exceeds sqrt(eps))");
  };
  auto check_v = [&](const Vec3<S>& x, const char* what) {
    if (!isfinite(x.x()) || !isfinite(x.y()) || !isfinite(x.z()))
      throw std::invalid_argument(std::string("lock constraint: ") + what + " is not finite");
  };
  check_q(A.q, "body A's quaternion");
  check_q(B.q, "body B's quaternion");
  check_q(c.marker_P.q, "marker P's quaternion");
  check_q(c.marker_S.q, "marker S's quaternion");
  check_q(c.law.q, "the motion law's quaternion q_Delta");
  check_v(A.x, "body A's position");
  check_v(B.x, "body B's position");
  check_v(c.marker_P.u, "marker P's position");
  check_v(c.marker_S.u, "marker S's position");
  check_v(c.law.d, "the motion law's position d");
}

}  // namespace rbd
