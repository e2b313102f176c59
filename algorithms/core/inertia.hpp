#pragma once
// Rigid-body inertia in compact form (Featherstone App. A.2): mass m, first moment h = m c
// (c = centre of mass) and rotational inertia about the frame origin Ibar = Ic - m cx cx.
// The 6x6 form is [Ibar hx; hx^T m1] (Eq. 2.63 with h = m c).
#include "core/transform.hpp"

namespace rbd {

template <class S> struct Inertia {
  S m = S(0);
  Vec3<S> h = Vec3<S>::Zero();
  Mat3<S> Ibar = Mat3<S>::Zero();

  // From mass, centre of mass and rotational inertia about the centre of mass (Eq. 2.63).
  static Inertia from_com(const S& mass, const Vec3<S>& c, const Mat3<S>& Ic) {
    const Mat3<S> cx = skew<S>(c);
    return Inertia{mass, mass * c, Ic - mass * cx * cx};
  }

  // I v = [Ibar w + h x v; m v - h x w].
  Vec6<S> operator*(const Vec6<S>& v) const {
    const Vec3<S> w = ang(v), vl = lin(v);
    return join<S>(Ibar * w + h.cross(vl), m * vl - h.cross(w));
  }
  Inertia operator+(const Inertia& o) const { return Inertia{m + o.m, h + o.h, Ibar + o.Ibar}; }
  Inertia& operator+=(const Inertia& o) { m += o.m; h += o.h; Ibar += o.Ibar; return *this; }

  Mat6<S> matrix() const {
    Mat6<S> I;
    const Mat3<S> hx = skew<S>(h);
    I << Ibar, hx, hx.transpose(), m * Mat3<S>::Identity();
    return I;
  }

  template <class T> Inertia<T> cast() const {
    auto c = [](const S& x) { return scalar_cast<T>(x); };
    return Inertia<T>{scalar_cast<T>(m), h.unaryExpr(c), Ibar.unaryExpr(c)};
  }
};

// X^T I X with X = (E, r) = ^B X_A: an inertia given in B coordinates re-expressed in A
// coordinates (App. A, Table A.2): (m, E^T h + m r, E^T Ibar E - rx(E^T h)x - (E^T h + m r)x rx).
template <class S> inline Inertia<S> transform_transpose(const Transform<S>& X, const Inertia<S>& I) {
  const Vec3<S> Eh = X.E.transpose() * I.h;
  const Vec3<S> hA = Eh + I.m * X.r;
  const Mat3<S> rx = skew<S>(X.r);
  return Inertia<S>{I.m, hA, X.E.transpose() * I.Ibar * X.E - rx * skew<S>(Eh) - skew<S>(hA) * rx};
}

}  // namespace rbd
