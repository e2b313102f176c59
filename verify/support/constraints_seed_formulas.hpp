#pragma once
// Seed 001's printed formulas (Tasora & Righettini), transcribed literally where they are
// wrong, beside their corrected forms. Only verify/test_constraints.cpp and
// verify/constraints_study.cpp use them: algorithms/constraints/ implements the corrected
// meaning and never these.
#include "constraints/lock_constraint.hpp"

namespace rbd::verify::constraints::seed {

// Eq. 3 as printed: the (2,1) entry reads 2(t1 t2 + 2 t0 t3); the diagonal uses
// 2(t0^2 + tk^2) - 1 (right for unit quaternions).
template <class S> Mat3<S> eq3_printed(const Quaternion<S>& q, bool corrected) {
  const S t0 = q.w, t1 = q.v.x(), t2 = q.v.y(), t3 = q.v.z(), two(2), one(1);
  Mat3<S> L;
  L << two * (t0 * t0 + t1 * t1) - one, two * (t1 * t2 - t0 * t3), two * (t1 * t3 + t0 * t2),
       two * (t1 * t2 + (corrected ? one : two) * t0 * t3), two * (t0 * t0 + t2 * t2) - one, two * (t2 * t3 - t0 * t1),
       two * (t1 * t3 - t0 * t2), two * (t2 * t3 + t0 * t1), two * (t0 * t0 + t3 * t3) - one;
  return L;
}

// Eq. 21: q_dot = 1/2 S(omega_W) q (omega in world coordinates). Holds.
template <class S> Quaternion<S> eq21(const Quaternion<S>& q, const Vec3<S>& omega_w) {
  return (S(1) / S(2)) * (Quaternion<S>::pure(omega_w) * q);
}
// Eq. 22 as printed: q_ddot = 1/2 S(alpha_W) q. Corrected (differentiate Eq. 21 once more):
// q_ddot = 1/2 S(alpha_W) q + 1/2 S(omega_W) q_dot = 1/2 S(alpha_W) q - 1/4 |omega_W|^2 q.
template <class S> Quaternion<S> eq22_printed(const Quaternion<S>& q, const Vec3<S>& alpha_w) {
  return (S(1) / S(2)) * (Quaternion<S>::pure(alpha_w) * q);
}
template <class S> Quaternion<S> eq22_corrected(const Quaternion<S>& q, const Vec3<S>& omega_w, const Vec3<S>& alpha_w) {
  return eq22_printed(q, alpha_w) - (omega_w.squaredNorm() / S(4)) * q;
}

// Eq. 36 as printed (markers fixed on their bodies, so u_dot = u_ddot = 0): the S side
// starts with the velocity x_dot_O2 where the acceleration x_ddot_O2 belongs. Lambda_ddot u
// = Lambda (alpha x u + omega x (omega x u)) by Eq. 37 (body-frame omega, alpha).
template <class S>
Vec3<S> eq36(const LockConstraint<S>& c, const BodyPose<S>& A, const BodyPose<S>& B, const BodyTwist<S>& vA,
             const BodyTwist<S>& aA, const BodyTwist<S>& vB, const BodyTwist<S>& aB, bool corrected) {
  auto lddu = [](const BodyPose<S>& b, const BodyTwist<S>& v, const BodyTwist<S>& a, const Vec3<S>& u) {
    return Vec3<S>(b.q.matrix() * (a.omega.cross(u) + v.omega.cross(v.omega.cross(u))));
  };
  return (aA.x_dot + lddu(A, vA, aA, c.marker_P.u)) - ((corrected ? aB.x_dot : vB.x_dot) + lddu(B, vB, aB, c.marker_S.u));
}

// Eq. 42b as printed: [C_x]_theta_O1 = -A_S^T A_O1^T A_O1 [u_P]x Gl_O1; the corrected form has
// A_O2^T in place of the first A_O1^T (as Eqs. 38-39 and the chain rule of Eq. 29 give).
template <class S> Mat34<S> eq42b(const LockConstraint<S>& c, const BodyPose<S>& A, const BodyPose<S>& B, bool corrected) {
  const Mat3<S> first = corrected ? B.q.matrix().transpose() : A.q.matrix().transpose();
  return -(c.marker_S.q.matrix().transpose() * first * A.q.matrix() * skew(c.marker_P.u)) * gl_matrix(A.q);
}

// Eq. 49 as printed: C = q_Delta^-1 q_S^-1 q_O2^-1 q_O1 q_P^-1 - 1; Eq. 48 (and Eqs. 50-53) have
// q_P, not its inverse. Vector part, as Eq. 72 keeps.
template <class S> Vec3<S> eq49(const LockConstraint<S>& c, const BodyPose<S>& A, const BodyPose<S>& B, bool corrected) {
  const Quaternion<S> qP = corrected ? c.marker_P.q : c.marker_P.q.conjugate();
  return (c.law.q.conjugate() * c.marker_S.q.conjugate() * B.q.conjugate() * A.q * qP).v;
}

// Eqs. 67 and 69 as printed: chains of product matrices (the +/- marks restored from Eqs.
// 59-63, which the extraction keeps). Im rows.
template <class S> Mat34<S> eq67(const LockConstraint<S>& c, const BodyPose<S>& B) {
  return (qplus(c.law.q.conjugate()) * qplus(c.marker_S.q.conjugate()) * qplus(B.q.conjugate()) * qminus(c.marker_P.q))
      .template bottomRows<3>();
}
template <class S> Mat34<S> eq69(const LockConstraint<S>& c, const BodyPose<S>& A) {
  return (qplus(c.law.q.conjugate()) * qplus(c.marker_S.q.conjugate()) * qminus(A.q * c.marker_P.q) * conjugation_matrix<S>())
      .template bottomRows<3>();
}

// Sections 6.1-6.4 name the rows each joint keeps (1-based, Eq. 71's order).
struct SectionRows { const char* joint; unsigned mask_from_table; std::array<int, 6> rows; int n; };
inline constexpr std::array<SectionRows, 4> kSectionRows{{
    {"spherical (6.1)", kCx | kCy | kCz, {1, 2, 3}, 3},
    {"prismatic (6.2)", kCx | kCy | kCthI | kCthJ | kCthK, {1, 2, 4, 5, 6}, 5},
    {"revolute (6.3)", kCx | kCy | kCz | kCthI | kCthJ, {1, 2, 3, 4, 5}, 5},
    {"cylindrical (6.4)", kCx | kCy | kCthI | kCthJ, {1, 2, 4, 5}, 4},
}};

}  // namespace rbd::verify::constraints::seed
