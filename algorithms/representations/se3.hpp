#pragma once
// Poses, twists and wrenches in Traversaro & Saccon's notation (seed 002, "Multibody
// dynamics notation (version 2)", sections 3-7). Their 6D vectors are LINEAR FIRST:
// a twist is [v; omega], a wrench [f; tau] (Eqs. 20, 57), unlike rbdlab's core (angular
// first, Featherstone); conversions.hpp converts explicitly. Names follow the seed:
//   A_H_B   pose of B in A: [A_R_B A_o_B; 0 1]                               (Eq. 12)
//   A_X_B   velocity (twist) transform, Ad of A_H_B: [R o^R; 0 R]            (Eq. 27)
//   A_X^B   wrench transform = (B_X_A)^T: [R 0; o^R R]                      (Eq. 59)
//   v x     cross product on R^6: [w^ v^; 0 w^]                              (Eq. 38)
//   v x*bar dual cross product = -(v x)^T: [w^ 0; v^ w^]                     (Eq. 62)
#include "core/scalar.hpp"

namespace rbd::ts {

template <class S> using Mat4 = Eigen::Matrix<S, 4, 4>;

// A_H_B: orientation A_R_B (B's coordinates to A's) and origin A_o_B.
template <class S> struct Pose {
  Mat3<S> R = Mat3<S>::Identity();
  Vec3<S> o = Vec3<S>::Zero();

  // A_H_C = A_H_B B_H_C.
  friend Pose operator*(const Pose& AB, const Pose& BC) { return Pose{AB.R * BC.R, AB.R * BC.o + AB.o}; }
  // B_H_A = A_H_B^-1 = [R^T, -R^T o; 0 1] (B_o_A = -B_R_A A_o_B).
  Pose inverse() const { return Pose{R.transpose(), -(R.transpose() * o)}; }
  Mat4<S> matrix() const {
    Mat4<S> H = Mat4<S>::Identity();
    H.template topLeftCorner<3, 3>() = R;
    H.template topRightCorner<3, 1>() = o;
    return H;
  }
  // B[A] = (o_B, [A]) seen from B: B_H_B[A] = [B_R_A 0; 0 1] (section 5.2).
  Pose mixed_from_body() const { return Pose{R.transpose(), Vec3<S>::Zero()}; }
};

// Linear and angular parts in the seed's linear-first order (named apart from the core's
// angular-first ang()/lin() on purpose).
template <class S> Vec3<S> linear(const Vec6<S>& x) { return x.template head<3>(); }
template <class S> Vec3<S> angular(const Vec6<S>& x) { return x.template tail<3>(); }
template <class S> Vec6<S> twist(const Vec3<S>& v, const Vec3<S>& w) {
  Vec6<S> x;
  x << v, w;
  return x;
}

// Eq. 5 and 6: hat and vee on R^3; Eq. 7 and 8 on R^6 (linear first).
template <class S> Mat3<S> hat(const Vec3<S>& w) { return rbd::skew<S>(w); }
template <class S> Vec3<S> vee(const Mat3<S>& W) { return Vec3<S>(W(2, 1), W(0, 2), W(1, 0)); }
template <class S> Mat4<S> hat(const Vec6<S>& x) {
  Mat4<S> X = Mat4<S>::Zero();
  X.template topLeftCorner<3, 3>() = hat<S>(angular<S>(x));
  X.template topRightCorner<3, 1>() = linear<S>(x);
  return X;
}
template <class S> Vec6<S> vee(const Mat4<S>& X) {
  return twist<S>(X.template topRightCorner<3, 1>(), vee<S>(Mat3<S>(X.template topLeftCorner<3, 3>())));
}

// Eq. 27: A_X_B of A_H_B.
template <class S> Mat6<S> velocity_transform(const Pose<S>& H) {
  Mat6<S> X = Mat6<S>::Zero();
  X.template topLeftCorner<3, 3>() = H.R;
  X.template topRightCorner<3, 3>() = hat<S>(H.o) * H.R;
  X.template bottomRightCorner<3, 3>() = H.R;
  return X;
}
// Eq. 59: A_X^B of A_H_B, the wrench transform (B's coordinates to A's).
template <class S> Mat6<S> wrench_transform(const Pose<S>& H) {
  Mat6<S> X = Mat6<S>::Zero();
  X.template topLeftCorner<3, 3>() = H.R;
  X.template bottomLeftCorner<3, 3>() = hat<S>(H.o) * H.R;
  X.template bottomRightCorner<3, 3>() = H.R;
  return X;
}
// Eq. 38 and 62.
template <class S> Mat6<S> cross(const Vec6<S>& x) {
  Mat6<S> C = Mat6<S>::Zero();
  C.template topLeftCorner<3, 3>() = hat<S>(angular<S>(x));
  C.template topRightCorner<3, 3>() = hat<S>(linear<S>(x));
  C.template bottomRightCorner<3, 3>() = hat<S>(angular<S>(x));
  return C;
}
template <class S> Mat6<S> dual_cross(const Vec6<S>& x) {
  Mat6<S> C = Mat6<S>::Zero();
  C.template topLeftCorner<3, 3>() = hat<S>(angular<S>(x));
  C.template bottomLeftCorner<3, 3>() = hat<S>(linear<S>(x));
  C.template bottomRightCorner<3, 3>() = hat<S>(angular<S>(x));
  return C;
}

// Twists of B relative to A from A_H_B and its time derivative (section 5):
// body (left-trivialised) B_v_A,B = vee(H^-1 H_dot) = [R^T o_dot; vee(R^T R_dot)]   (Eqs. 17-21)
// inertial (right-trivialised) A_v_A,B = vee(H_dot H^-1)
//                                      = [o_dot - R_dot R^T o; vee(R_dot R^T)]         (Eqs. 22-26)
// mixed B[A]_v_A,B = [o_dot; vee(R_dot R^T)]                                           (Eq. 35)
template <class S> Vec6<S> body_twist(const Pose<S>& H, const Mat3<S>& R_dot, const Vec3<S>& o_dot) {
  return twist<S>(H.R.transpose() * o_dot, vee<S>(Mat3<S>(H.R.transpose() * R_dot)));
}
template <class S> Vec6<S> inertial_twist(const Pose<S>& H, const Mat3<S>& R_dot, const Vec3<S>& o_dot) {
  const Mat3<S> W = R_dot * H.R.transpose();
  return twist<S>(o_dot - W * H.o, vee<S>(W));
}
template <class S> Vec6<S> mixed_twist(const Pose<S>& H, const Mat3<S>& R_dot, const Vec3<S>& o_dot) {
  return twist<S>(o_dot, vee<S>(Mat3<S>(R_dot * H.R.transpose())));
}

// Power, the duality pairing <f, v> (Eq. 60).
template <class S> S power(const Vec6<S>& f, const Vec6<S>& v) { return f.dot(v); }

}  // namespace rbd::ts
