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
  Vec6<S> apply(const Vec6<S>& m) const {
    const Vec3<S> w = ang(m);
    return join<S>(E * w, E * (lin(m) - r.cross(w)));
  }
  // X^-1 m: [E^T w; E^T v + r x E^T w].
  Vec6<S> apply_inverse(const Vec6<S>& m) const {
    const Vec3<S> w = E.transpose() * ang(m);
    return join<S>(w, E.transpose() * lin(m) + r.cross(w));
  }
  // X* f = X^-T f: [E (n - r x f); E f].
  Vec6<S> apply_force(const Vec6<S>& f) const {
    const Vec3<S> fl = lin(f);
    return join<S>(E * (ang(f) - r.cross(fl)), E * fl);
  }
  // X^T f = (X*)^-1 f: [E^T n + r x E^T f; E^T f]; carries a force from B back to A.
  Vec6<S> apply_transpose(const Vec6<S>& f) const {
    const Vec3<S> fl = E.transpose() * lin(f);
    return join<S>(E.transpose() * ang(f) + r.cross(fl), fl);
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
