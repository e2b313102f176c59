#pragma once
// Planar coordinate transforms (Featherstone Eq. 2.77, Table A.1's Xpln).
// X = rot(theta) xlt(r): frame B's origin sits at r in A coordinates and B is turned by theta
// about z relative to A; X = ^B X_A carries motion vectors from A to B coordinates. The matrix
// is [1 0 0; s x - c y, c, s; c x + s y, -s, c]; the algorithms keep only (c, s, r) and apply
// the two factors in turn (6m + 4a per product instead of a dense 9m + 6a).
#include "planar/vectors.hpp"

namespace rbd::planar {

template <class S> struct Transform {
  S c = S(1), s = S(0);                 // cos and sin of theta
  Vec2<S> r = Vec2<S>::Zero();          // B's origin in A coordinates

  // Table A.1's Xpln(theta, r): the motion transform as a matrix (Eq. 2.77).
  PMat<S> matrix() const {
    PMat<S> X;
    X << S(1), S(0), S(0),
         s * r[0] - c * r[1], c, s,
         c * r[0] + s * r[1], -s, c;
    return X;
  }
  // The force transform X* = X^-T (section 2.16 notes that planar vectors keep this rule):
  // rot(theta) xlt(r)^-T, since rot is orthogonal, with xlt(r)^-T = [1 y -x; 0 1 0; 0 0 1].
  PMat<S> force_matrix() const {
    PMat<S> X;
    X << S(1), r[1], -r[0],
         S(0), c, s,
         S(0), -s, c;
    return X;
  }

  // X m: first the shift of origin to r (v_P = v_O + w z x r, i.e. [w; m_x - r_y w; m_y + r_x w]),
  // then the rotation of the linear part.
  RBD_INLINE PVec<S> apply(const PVec<S>& m) const {
    const S ux = m[1] - r[1] * m[0], uy = m[2] + r[0] * m[0];
    return PVec<S>(m[0], c * ux + s * uy, c * uy - s * ux);
  }
  // X^T f (= (X*)^-1 f): carries a force from B back to A coordinates. Rotation back, then the
  // moment about A's origin: n_A = n + r x f (2D cross product r_x f_y - r_y f_x).
  RBD_INLINE PVec<S> apply_transpose(const PVec<S>& f) const {
    const S gx = c * f[1] - s * f[2], gy = s * f[1] + c * f[2];
    return PVec<S>(f[0] + (r[0] * gy - r[1] * gx), gx, gy);
  }
  // X* f = X^-T f: the moment about B's origin, n - r x f, then the rotation.
  RBD_INLINE PVec<S> apply_force(const PVec<S>& f) const {
    return PVec<S>(f[0] - (r[0] * f[2] - r[1] * f[1]), c * f[1] + s * f[2], c * f[2] - s * f[1]);
  }
  // Only the rotation, for a vector whose angular part is zero (the gravity term a_0 = [0; -g]).
  RBD_INLINE PVec<S> apply_linear(const Vec2<S>& g) const {
    return PVec<S>(S(0), c * g[0] + s * g[1], c * g[1] - s * g[0]);
  }

  // (this) * (o) = rot(th1) xlt(r1) rot(th2) xlt(r2) = rot(th1 + th2) xlt(r2 + E2^T r1),
  // E2 = [c2 s2; -s2 c2] the 2D coordinate rotation.
  Transform operator*(const Transform& o) const {
    return Transform{c * o.c - s * o.s, s * o.c + c * o.s,
                     Vec2<S>(o.r[0] + (o.c * r[0] - o.s * r[1]), o.r[1] + (o.s * r[0] + o.c * r[1]))};
  }
  // X^-1 = rot(-theta) xlt(-E r).
  Transform inverse() const {
    return Transform{c, -s, Vec2<S>(-(c * r[0] + s * r[1]), -(c * r[1] - s * r[0]))};
  }

  template <class T> Transform<T> cast() const {
    return Transform<T>{scalar_cast<T>(c), scalar_cast<T>(s), Vec2<T>(scalar_cast<T>(r[0]), scalar_cast<T>(r[1]))};
  }
};

// Table A.1's Xpln(theta, r) in compact form.
template <class S> inline Transform<S> xpln(const S& theta, const Vec2<S>& r) {
  return Transform<S>{cos_(theta), sin_(theta), r};
}

}  // namespace rbd::planar
