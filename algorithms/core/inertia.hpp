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
  RBD_INLINE Vec6<S> operator*(const Vec6<S>& v) const {
    const Vec3<S> w = ang(v), vl = lin(v);
    return join<S>(Ibar * w + cross<S>(h, vl), m * vl - cross<S>(h, w));
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
// Cost (section 10.3 / App. A.5 style): with y = E^T h and hA = y + m r, the last two terms
// are the symmetric matrix y r^T + r hA^T - (r.y + r.hA) 1 (from ax bx = b a^T - (a.b) 1),
// so only the upper triangle is computed, as is E^T (Ibar E): 66m + 54a, and the result is
// exactly symmetric. Its diagonal uses r.y + r.hA - (y_a r_a + r_a hA_a) = u_b + u_c with
// u = r .* (y + hA) (b, c the other two indices).
namespace detail {
template <bool Accumulate, class S>
inline void transform_transpose_to(const Transform<S>& X, const Inertia<S>& I, Inertia<S>& out) {
  const Mat3<S>& E = X.E;
  const Vec3<S>& r = X.r;
  const Vec3<S> y = E.transpose() * I.h;       // E^T h
  const Vec3<S> hA = y + I.m * r;              // E^T h + m r
  const Vec3<S> u = r.cwiseProduct(y + hA);
  Mat3<S> IbarE;
  IbarE.noalias() = I.Ibar * E;
  for (int a = 0; a < 3; ++a)
    for (int b = a; b < 3; ++b) {
      const S rot = E.col(a).dot(IbarE.col(b));                          // (E^T Ibar E)_ab
      const S shift = a == b ? S(u[(a + 1) % 3] + u[(a + 2) % 3])        // -(rx yx + hAx rx)_aa
                             : S(-(y[a] * r[b] + r[a] * hA[b]));         // -(rx yx + hAx rx)_ab
      if constexpr (Accumulate) out.Ibar(a, b) += rot + shift;
      else out.Ibar(a, b) = rot + shift;
      out.Ibar(b, a) = out.Ibar(a, b);
    }
  if constexpr (Accumulate) { out.m += I.m; out.h += hA; }
  else { out.m = I.m; out.h = hA; }
}
}  // namespace detail

template <class S> inline Inertia<S> transform_transpose(const Transform<S>& X, const Inertia<S>& I) {
  Inertia<S> out;
  detail::transform_transpose_to<false>(X, I, out);
  return out;
}
// acc += X^T I X without a temporary (the I^c_lambda(i) update of Table 6.2).
template <class S> inline void add_transform_transpose(const Transform<S>& X, const Inertia<S>& I, Inertia<S>& acc) {
  detail::transform_transpose_to<true>(X, I, acc);
}

// alpha I = (alpha m, alpha h, lt(alpha Ibar)) (App. A.3, Table A.4): 10m, the upper triangle
// of Ibar copied from the lower one, so the result is exactly symmetric.
template <class S> inline Inertia<S> operator*(const S& alpha, const Inertia<S>& I) {
  Inertia<S> out{alpha * I.m, alpha * I.h, Mat3<S>::Zero()};
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b <= a; ++b) out.Ibar(b, a) = out.Ibar(a, b) = alpha * I.Ibar(a, b);
  return out;
}

}  // namespace rbd
