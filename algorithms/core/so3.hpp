#pragma once
// The rotation group SO(3) in closed form (seed 004, Mueller & Terze, section 2, Eqs. 9, 11):
// hat/vee, exp, log, Ad, ad, dexp and dexp^-1, scalar-generic, with small-angle branches in
// core/lie_coefficients.hpp. Vectors omega in R^3 stand for the algebra so(3) (omega^ = skew).
//
// Convention (the paper's, section 2.1): dexp_X is the right-trivialised differential,
// d/dt exp(X) = dexp_X(Xdot) exp(X), so dexp_X = sum_k ad_X^k/(k+1)!; the body-fixed
// (left-trivialised) velocity of R = exp(X) is then exp(X)^T d/dt exp(X) = dexp_{-X}(Xdot),
// which is why the Munthe-Kaas stages use dexp^-1_{-Psi} (Eq. 36-37).
//
// Printed-formula note: Eq. 9 of the seed divides the w^2 term by |w| instead of |w|^2;
// verify/test_lie_groups.cpp shows the printed form is not a rotation and records it.
#include <type_traits>

#include "core/counting_scalar.hpp"
#include "core/lie_coefficients.hpp"

namespace rbd {

// atan2: double and Reference find std:: and boost's through ADL; the counting scalar
// evaluates it on its double without counting (OpCounts has no field for it, and log is not
// on any hot path). Not declared as rbd::atan2, which would hide std::atan2 in namespace rbd.
template <class S> inline S atan2_(const S& y, const S& x) {
  if constexpr (std::is_same_v<S, Counted>) {
    return Counted(std::atan2(y.value(), x.value()));
  } else {
    using std::atan2;
    return atan2(y, x);
  }
}

namespace so3 {

template <class S> inline Mat3<S> hat(const Vec3<S>& w) { return skew<S>(w); }
// vee of the skew-symmetric part, so vee(hat(w)) = w exactly and vee(M) ignores symmetric noise.
template <class S> inline Vec3<S> vee(const Mat3<S>& M) {
  return Vec3<S>(M(2, 1) - M(1, 2), M(0, 2) - M(2, 0), M(1, 0) - M(0, 1)) / S(2);
}

template <class S> inline lie::Coeffs<S> coeffs_of(const Vec3<S>& w) {
  const S x = w.squaredNorm();
  return lie::coefficients<S>(x, sqrt_(x));
}

// Rodrigues, Eq. 9 corrected: R = I + A w^ + B w^2 with B = (1 - cos t)/t^2.
template <class S> inline Mat3<S> exp(const Vec3<S>& w) {
  const S x = w.squaredNorm(), t = sqrt_(x);
  const Mat3<S> W = hat<S>(w);
  return Mat3<S>::Identity() + lie::coeff_A<S>(x, t) * W + lie::coeff_B<S>(x, t) * (W * W);
}

// log R for t in [0, pi]. Two branches: for cos t > -1/2 omega = w / A(t) with
// w = vee(R - R^T)/2 = sin(t) u (well conditioned: A >= 0.41); near t = pi, sin t -> 0 and w
// carries only absolute round-off, so the axis comes from the symmetric part
// (R + R^T)/2 - cos(t) I = (1 - cos t) u u^T, its sign from w.
template <class S> inline Vec3<S> log(const Mat3<S>& R) {
  const Vec3<S> w = vee<S>(R);
  const S c = (R.trace() - S(1)) / S(2);
  const S s = w.norm();
  const S t = atan2_(s, c);
  if (c > S(-1) / S(2)) {
    const S x = t * t;
    return w / lie::coeff_A<S>(x, t);
  }
  const Mat3<S> Sym = (R + R.transpose()) / S(2) - c * Mat3<S>::Identity();
  int i = 0;
  if (Sym(1, 1) > Sym(i, i)) i = 1;
  if (Sym(2, 2) > Sym(i, i)) i = 2;
  Vec3<S> u = Sym.col(i) / sqrt_(Sym(i, i) * (S(1) - c));
  if (u.dot(w) < S(0)) u = -u;
  return t * u;
}

// Ad_R = R and ad_w = w^ (so(3) as R^3 with the cross product, section 2.1).
template <class S> inline Mat3<S> Ad(const Mat3<S>& R) { return R; }
template <class S> inline Mat3<S> ad(const Vec3<S>& w) { return hat<S>(w); }

// dexp_w = sum ad^k/(k+1)! = I + B w^ + C w^2.
template <class S> inline Mat3<S> dexp(const Vec3<S>& w) {
  const lie::Coeffs<S> k = coeffs_of<S>(w);
  const Mat3<S> W = hat<S>(w);
  return Mat3<S>::Identity() + k.B * W + k.C * (W * W);
}
// dexp_w^-1 = I - 1/2 w^ + G w^2, G = (1 - (t/2)cot(t/2))/t^2 (Eq. 11).
template <class S> inline Mat3<S> dexp_inv(const Vec3<S>& w) {
  const lie::Coeffs<S> k = coeffs_of<S>(w);
  const Mat3<S> W = hat<S>(w);
  return Mat3<S>::Identity() - W / S(2) + k.G * (W * W);
}

}  // namespace so3
}  // namespace rbd
