#pragma once
// Plücker coordinate transforms in compact form (Featherstone App. A.3).
// X = rot(E) xlt(r): E rotates coordinates from frame A to frame B, r is the position of
// B's origin in A coordinates. The 6x6 matrix is [E 0; -E rx E] (Eq. 2.24) but is never
// formed in the algorithms: each product below costs one 3x3 rotation per 3D part.
#include "core/spatial.hpp"

namespace rbd {

template <class S> struct Transform {
  Mat3<S> E = Mat3<S>::Identity();
  Vec3<S> r = Vec3<S>::Zero();

  static Transform identity() { return Transform{}; }

  // X m  (App. A, Table A.1 "X v"): [E w; E (v - r x w)].
  RBD_INLINE Vec6<S> apply(const Vec6<S>& m) const {
    const Vec3<S> w = ang(m);
    return join<S>(E * w, E * (lin(m) - cross<S>(r, w)));
  }
  // X m + c by 3-vector halves: the same numbers as apply(m) + c, without a 6-vector
  // temporary written by halves and read back with packet loads (see RBD_INLINE).
  RBD_INLINE Vec6<S> apply_plus(const Vec6<S>& m, const Vec6<S>& c) const {
    const Vec3<S> w = ang(m);
    return join<S>(E * w + ang(c), E * (lin(m) - cross<S>(r, w)) + lin(c));
  }
  // X^-1 m: [E^T w; E^T v + r x E^T w].
  RBD_INLINE Vec6<S> apply_inverse(const Vec6<S>& m) const {
    const Vec3<S> w = E.transpose() * ang(m);
    return join<S>(w, E.transpose() * lin(m) + cross<S>(r, w));
  }
  // X* f = X^-T f: [E (n - r x f); E f].
  RBD_INLINE Vec6<S> apply_force(const Vec6<S>& f) const {
    const Vec3<S> fl = lin(f);
    return join<S>(E * (ang(f) - cross<S>(r, fl)), E * fl);
  }
  // X^T f = (X*)^-1 f: [E^T n + r x E^T f; E^T f]; carries a force from B back to A.
  RBD_INLINE Vec6<S> apply_transpose(const Vec6<S>& f) const {
    const Vec3<S> fl = E.transpose() * lin(f);
    return join<S>(E.transpose() * ang(f) + cross<S>(r, fl), fl);
  }
  // (this) * (other): rot(E1)xlt(r1) rot(E2)xlt(r2) = rot(E1 E2) xlt(r2 + E2^T r1).
  Transform operator*(const Transform& o) const { return Transform{E * o.E, o.r + o.E.transpose() * r}; }
  // X^-1 = rot(E^T) xlt(-E r).
  Transform inverse() const { return Transform{E.transpose(), -(E * r)}; }

  Mat6<S> matrix() const {
    Mat6<S> X = Mat6<S>::Zero();
    X.template block<3, 3>(0, 0) = E;
    X.template block<3, 3>(3, 3) = E;
    X.template block<3, 3>(3, 0) = -E * skew<S>(r);
    return X;
  }

  template <class T> Transform<T> cast() const {
    return Transform<T>{E.unaryExpr([](const S& x) { return scalar_cast<T>(x); }),
                        r.unaryExpr([](const S& x) { return scalar_cast<T>(x); })};
  }
};

// F = X^T F for the columns [c0, c0 + k) of a set of force vectors (each one as in
// apply_transpose, 24m + 18a): Table 6.2's F = ^lambda(j)X_j^* F applied to many F at once.
// Written on one row pointer per component, marked __restrict (the rows do not overlap), so
// that the compiler vectorises across columns.
namespace detail {
template <class S>
RBD_INLINE void apply_transpose_rows(const Mat3<S>& E, const Vec3<S>& r, int k, S* __restrict n0, S* __restrict n1,
                                     S* __restrict n2, S* __restrict f0, S* __restrict f1, S* __restrict f2) {
  for (int c = 0; c < k; ++c) {
    const S g0 = E(0, 0) * f0[c] + E(1, 0) * f1[c] + E(2, 0) * f2[c];  // E^T f
    const S g1 = E(0, 1) * f0[c] + E(1, 1) * f1[c] + E(2, 1) * f2[c];
    const S g2 = E(0, 2) * f0[c] + E(1, 2) * f1[c] + E(2, 2) * f2[c];
    const S m0 = E(0, 0) * n0[c] + E(1, 0) * n1[c] + E(2, 0) * n2[c] + (r[1] * g2 - r[2] * g1);  // E^T n + r x E^T f
    const S m1 = E(0, 1) * n0[c] + E(1, 1) * n1[c] + E(2, 1) * n2[c] + (r[2] * g0 - r[0] * g2);
    const S m2 = E(0, 2) * n0[c] + E(1, 2) * n1[c] + E(2, 2) * n2[c] + (r[0] * g1 - r[1] * g0);
    n0[c] = m0; n1[c] = m1; n2[c] = m2;
    f0[c] = g0; f1[c] = g1; f2[c] = g2;
  }
}
}  // namespace detail
template <class S> RBD_INLINE void apply_transpose_columns(const Transform<S>& X, Forces6<S>& F, int c0, int k) {
  detail::apply_transpose_rows<S>(X.E, X.r, k, &F(0, c0), &F(1, c0), &F(2, c0), &F(3, c0), &F(4, c0), &F(5, c0));
}

// Elementary transforms of Table 2.2 / Eq. 2.24-2.27: coordinate rotations rx, ry, rz.
template <class S> inline Mat3<S> rx(const S& c, const S& s) {
  Mat3<S> m; m << S(1), S(0), S(0), S(0), c, s, S(0), -s, c; return m;
}
template <class S> inline Mat3<S> ry(const S& c, const S& s) {
  Mat3<S> m; m << c, S(0), -s, S(0), S(1), S(0), s, S(0), c; return m;
}
template <class S> inline Mat3<S> rz(const S& c, const S& s) {
  Mat3<S> m; m << c, s, S(0), -s, c, S(0), S(0), S(0), S(1); return m;
}
// Coordinate rotation by angle theta about a unit axis a (the transpose of Rodrigues'
// rotation matrix), E = c 1 - s [a]x + (1 - c) a a^T. For a = z it equals rz.
template <class S> inline Mat3<S> rot_axis(const Vec3<S>& a, const S& c, const S& s) {
  return c * Mat3<S>::Identity() - s * skew<S>(a) + (S(1) - c) * (a * a.transpose());
}

}  // namespace rbd
