#pragma once
// The group SE(3) of proper rigid-body motions in closed form (seed 004, section 2.1,
// Eqs. 4-8, 10), angular first: a twist is X = (omega, v), its 4x4 form [w^ v; 0 0] (Eq. 6),
// ad_X = [w^ 0; v^ w^] (Eq. 7, = Featherstone's crm), C = (R, r) acts as [R r; 0 1] (Eq. 4).
//
// The SE(3) blocks are built from SO(3)'s: ad_X = [W 0; V W] (W = w^, V = v^) has the form
// A + eps B of a dual number, so for any power series f, f(ad_X) = [f(W) 0; Df(W)[V] f(W)],
// with Df(W)[V] the derivative of f(w^) in the direction v. With f(w^) = I + B(x) w^ + C(x) w^2
// (x = |w|^2, dx = 2 w.v) that derivative is
//   Q(w, v) = B v^ + C (w^ v^ + v^ w^) + 2 (w.v) (B' w^ + C' w^2),
// and likewise for dexp^-1 with I - 1/2 w^ + G w^2. Every coefficient comes with its
// small-angle branch (core/lie_coefficients.hpp), so no ad^4 term and no 1/t^4 appear
// (compare Eq. 10, checked in verify/test_lie_groups.cpp).
#include "core/so3.hpp"
#include "core/spatial.hpp"

namespace rbd::se3 {

template <class S> using Mat4 = Eigen::Matrix<S, 4, 4>;

// C = (R, r): x_space = R x_body + r. Group product as Eq. 5.
template <class S> struct Pose {
  Mat3<S> R = Mat3<S>::Identity();
  Vec3<S> r = Vec3<S>::Zero();
  Pose operator*(const Pose& o) const { return Pose{R * o.R, r + R * o.r}; }
  Pose inverse() const { return Pose{R.transpose(), -(R.transpose() * r)}; }
  Mat4<S> matrix() const {
    Mat4<S> M = Mat4<S>::Zero();
    M.template block<3, 3>(0, 0) = R;
    M.template block<3, 1>(0, 3) = r;
    M(3, 3) = S(1);
    return M;
  }
};

template <class S> inline Mat4<S> hat(const Vec6<S>& X) {
  Mat4<S> M = Mat4<S>::Zero();
  M.template block<3, 3>(0, 0) = so3::hat<S>(ang(X));
  M.template block<3, 1>(0, 3) = lin(X);
  return M;
}
template <class S> inline Vec6<S> vee(const Mat4<S>& M) {
  return join<S>(so3::vee<S>(Mat3<S>(M.template block<3, 3>(0, 0))), Vec3<S>(M.template block<3, 1>(0, 3)));
}

// Eq. 7.
template <class S> inline Mat6<S> ad(const Vec6<S>& X) {
  Mat6<S> m = Mat6<S>::Zero();
  m.template block<3, 3>(0, 0) = so3::hat<S>(ang(X));
  m.template block<3, 3>(3, 0) = so3::hat<S>(lin(X));
  m.template block<3, 3>(3, 3) = so3::hat<S>(ang(X));
  return m;
}
// Ad_C X = vee(C X^ C^-1) = [R w; r x R w + R v].
template <class S> inline Mat6<S> Ad(const Pose<S>& C) {
  Mat6<S> m = Mat6<S>::Zero();
  m.template block<3, 3>(0, 0) = C.R;
  m.template block<3, 3>(3, 0) = so3::hat<S>(C.r) * C.R;
  m.template block<3, 3>(3, 3) = C.R;
  return m;
}

// exp X = (exp w, dexp_w v): the translation of the screw motion (Eq. 8 in dexp form:
// (1/t^2)[(I - exp w^)(w x v) + (w.v) w] = (I + B w^ + C w^2) v).
template <class S> inline Pose<S> exp(const Vec6<S>& X) {
  const Vec3<S> w = ang(X);
  const lie::Coeffs<S> k = so3::coeffs_of<S>(w);
  const Mat3<S> W = so3::hat<S>(w), W2 = W * W;
  return Pose<S>{Mat3<S>::Identity() + k.A * W + k.B * W2, lin(X) + k.B * (W * lin(X)) + k.C * (W2 * lin(X))};
}
// log C for rotation angle in [0, pi]: w = log R, v = dexp_w^-1 r.
template <class S> inline Vec6<S> log(const Pose<S>& C) {
  const Vec3<S> w = so3::log<S>(C.R);
  return join<S>(w, so3::dexp_inv<S>(w) * C.r);
}

// dexp_X = sum ad_X^k/(k+1)! = [D 0; Q D] with D = so3::dexp(w) and Q as in the header.
template <class S> inline Mat6<S> dexp(const Vec6<S>& X) {
  const Vec3<S> w = ang(X), v = lin(X);
  const lie::Coeffs<S> k = so3::coeffs_of<S>(w);
  const Mat3<S> W = so3::hat<S>(w), V = so3::hat<S>(v), W2 = W * W;
  const Mat3<S> D = Mat3<S>::Identity() + k.B * W + k.C * W2;
  const Mat3<S> Q = k.B * V + k.C * (W * V + V * W) + S(2) * w.dot(v) * (k.dB * W + k.dC * W2);
  Mat6<S> m = Mat6<S>::Zero();
  m.template block<3, 3>(0, 0) = D;
  m.template block<3, 3>(3, 0) = Q;
  m.template block<3, 3>(3, 3) = D;
  return m;
}
// dexp_X^-1 = [Di 0; Qi Di], Di = I - 1/2 w^ + G w^2, Qi = -1/2 v^ + G (w^v^ + v^w^) + 2 (w.v) G' w^2.
template <class S> inline Mat6<S> dexp_inv(const Vec6<S>& X) {
  const Vec3<S> w = ang(X), v = lin(X);
  const lie::Coeffs<S> k = so3::coeffs_of<S>(w);
  const Mat3<S> W = so3::hat<S>(w), V = so3::hat<S>(v), W2 = W * W;
  const Mat3<S> Di = Mat3<S>::Identity() - W / S(2) + k.G * W2;
  const Mat3<S> Qi = -V / S(2) + k.G * (W * V + V * W) + S(2) * w.dot(v) * k.dG * W2;
  Mat6<S> m = Mat6<S>::Zero();
  m.template block<3, 3>(0, 0) = Di;
  m.template block<3, 3>(3, 0) = Qi;
  m.template block<3, 3>(3, 3) = Di;
  return m;
}

}  // namespace rbd::se3
