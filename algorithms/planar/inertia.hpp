#pragma once
// Planar rigid-body inertia (Featherstone Eq. 2.78, Table A.1's mcI) and the congruence that
// carries an inertia from a child's coordinates to its parent's.
//
// A planar rigid-body inertia has four parameters (section 2.16): mass m, first moment
// h = m c (c the centre of mass) and the rotational inertia about the origin I_O = I_C + m |c|^2
// (the parallel-axis theorem). As a matrix it is [I_O, -h_y, h_x; -h_y, m, 0; h_x, 0, m].
#include "planar/transform.hpp"

namespace rbd::planar {

// Table A.1's mcI(m, c, I_C): the 3x3 inertia matrix of Eq. 2.78.
template <class S> inline PMat<S> mcI(const S& m, const Vec2<S>& c, const S& Ic) {
  PMat<S> I;
  I << Ic + m * (c[0] * c[0] + c[1] * c[1]), -(m * c[1]), m * c[0],
       -(m * c[1]), m, S(0),
       m * c[0], S(0), m;
  return I;
}

// The same inertia in compact form (4 numbers), as core/inertia.hpp keeps spatial ones.
template <class S> struct Inertia {
  S m = S(0);
  Vec2<S> h = Vec2<S>::Zero();  // m c
  S Io = S(0);                  // I_C + m |c|^2

  static Inertia from_com(const S& mass, const Vec2<S>& c, const S& Ic) {
    return Inertia{mass, Vec2<S>(mass * c[0], mass * c[1]), Ic + mass * (c[0] * c[0] + c[1] * c[1])};
  }
  // I v = [I_O w - h_y v_x + h_x v_y; m v_x - h_y w; m v_y + h_x w]: 6m + 4a.
  RBD_INLINE PVec<S> operator*(const PVec<S>& v) const {
    return PVec<S>(Io * v[0] - h[1] * v[1] + h[0] * v[2], m * v[1] - h[1] * v[0], m * v[2] + h[0] * v[0]);
  }
  PMat<S> matrix() const {
    PMat<S> I;
    I << Io, -h[1], h[0],
         -h[1], m, S(0),
         h[0], S(0), m;
    return I;
  }
  template <class T> Inertia<T> cast() const {
    return Inertia<T>{scalar_cast<T>(m), Vec2<T>(scalar_cast<T>(h[0]), scalar_cast<T>(h[1])), scalar_cast<T>(Io)};
  }
};

// acc += X^T I X for a rigid-body inertia I in B coordinates and X = ^B X_A (Table 6.2's
// I^c_lambda(i) update). The result is again a rigid-body inertia: the same mass, the first
// moment h_A = E^T h + m r, and I_O about A's origin = I_O + m |r|^2 + 2 r.(E^T h), written
// r.(h_A + E^T h). 10m + 10a.
template <class S> inline void add_transform_transpose(const Transform<S>& X, const Inertia<S>& I, Inertia<S>& acc) {
  const S yx = X.c * I.h[0] - X.s * I.h[1], yy = X.s * I.h[0] + X.c * I.h[1];  // E^T h
  const S hx = yx + I.m * X.r[0], hy = yy + I.m * X.r[1];                      // h_A
  acc.Io += I.Io + (X.r[0] * (hx + yx) + X.r[1] * (hy + yy));
  acc.m += I.m;
  acc.h[0] += hx;
  acc.h[1] += hy;
}

// acc += X^T M X for a symmetric 3x3 M (an articulated-body inertia, section 7.2; Table 7.1's
// ^lambda X*_i I^a_i ^i X_lambda). X = R T with R = diag(1, E) and T = [1 0; t 1], t = (-r_y, r_x).
// First N = R^T M R (n00 = M00, n0 = E^T m0, N2 = E^T M2 E), then
// T^T N T = [n00 + t.n0 + t.k, k^T; k, N2] with k = n0 + N2 t. Upper triangle only, mirrored.
template <class S> inline void add_congruence(const Transform<S>& X, const PMat<S>& M, PMat<S>& acc) {
  const S c = X.c, s = X.s;
  const S n0x = c * M(1, 0) - s * M(2, 0), n0y = s * M(1, 0) + c * M(2, 0);   // E^T m0
  const S p00 = M(1, 1) * c - M(1, 2) * s, p01 = M(1, 1) * s + M(1, 2) * c;   // P = M2 E
  const S p10 = M(1, 2) * c - M(2, 2) * s, p11 = M(1, 2) * s + M(2, 2) * c;
  const S a = c * p00 - s * p10, b = c * p01 - s * p11, d = s * p01 + c * p11; // N2 = E^T P
  const S tx = -X.r[1], ty = X.r[0];
  const S kx = n0x + (a * tx + b * ty), ky = n0y + (b * tx + d * ty);          // k = n0 + N2 t
  acc(0, 0) += M(0, 0) + (tx * (n0x + kx) + ty * (n0y + ky));
  acc(1, 0) += kx; acc(0, 1) = acc(1, 0);
  acc(2, 0) += ky; acc(0, 2) = acc(2, 0);
  acc(1, 1) += a;
  acc(2, 1) += b; acc(1, 2) = acc(2, 1);
  acc(2, 2) += d;
}

}  // namespace rbd::planar
