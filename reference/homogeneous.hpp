#pragma once
// 4x4 homogeneous poses T = [R p; 0 1] for the Lagrangian oracle. R maps child-frame
// coordinates to parent-frame coordinates and p is the child origin in the parent frame, so
// poses chain by plain matrix products: T_0i = T_0,parent T_tree T_joint. Only the top three
// rows are stored; the bottom row is always (0 0 0 1) and products treat it as such.
// The element type D may be a (nested) Dual; constant factors stay in the base scalar.
#include <array>

#include "reference/dual.hpp"

namespace rbd::oracle {

template <class D> struct Pose {
  std::array<std::array<D, 3>, 3> R;
  std::array<D, 3> p;
};

template <class D> Pose<D> identity_pose() {
  using S = base_t<D>;
  Pose<D> T;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) T.R[i][j] = D(S(i == j ? 1 : 0));
    T.p[i] = D(S(0));
  }
  return T;
}

// [A a; 0 1][B b; 0 1] = [A B, A b + a; 0 1]. A and B may differ (dual times constant).
template <class D, class A, class B> Pose<D> compose(const Pose<A>& x, const Pose<B>& y) {
  Pose<D> z;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j)
      z.R[i][j] = D(x.R[i][0] * y.R[0][j] + x.R[i][1] * y.R[1][j] + x.R[i][2] * y.R[2][j]);
    z.p[i] = D(x.R[i][0] * y.p[0] + x.R[i][1] * y.p[1] + x.R[i][2] * y.p[2] + x.p[i]);
  }
  return z;
}

// [R p; 0 1]^-1 = [R^T, -R^T p; 0 1] (R orthonormal): the pose of the parent in the child.
template <class D> Pose<D> inverse_pose(const Pose<D>& x) {
  Pose<D> z;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) z.R[i][j] = x.R[j][i];
  for (int i = 0; i < 3; ++i) z.p[i] = -(z.R[i][0] * x.p[0] + z.R[i][1] * x.p[1] + z.R[i][2] * x.p[2]);
  return z;
}

// Rotation by angle th about the unit axis a (Rodrigues): c 1 + s [a]x + (1 - c) a a^T.
template <class D, class S> std::array<std::array<D, 3>, 3> axis_angle(const std::array<S, 3>& a, const D& th) {
  const SinCos<D> sc = sin_cos(th);
  const D one_c = S(1) - sc.c;
  const S ax[3][3] = {{S(0), -a[2], a[1]}, {a[2], S(0), -a[0]}, {-a[1], a[0], S(0)}};
  std::array<std::array<D, 3>, 3> R;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      R[i][j] = one_c * S(a[i] * a[j]);
      if (i == j) R[i][j] += sc.c;
      else R[i][j] += sc.s * ax[i][j];
    }
  return R;
}

// Exp of the twist xi = (w, v) in se(3), X = [[w]x v; 0 0], by the Taylor polynomial
// 1 + X + X^2/2 + X^3/6. Since X^k = [W^k, W^(k-1) v; 0 0], that is
// R = 1 + W + W^2/2 + W^3/6, p = v + W v/2 + W^2 v/6. The oracle only evaluates it at
// xi = 0 and differentiates at most twice there, where any polynomial of order >= 2 agrees
// with the true exponential (order 3 keeps one order of margin).
template <class D> Pose<D> exp_twist(const std::array<D, 3>& w, const std::array<D, 3>& v) {
  using S = base_t<D>;
  const D z = D(S(0));
  const D W[3][3] = {{z, -w[2], w[1]}, {w[2], z, -w[0]}, {-w[1], w[0], z}};
  D W2[3][3], W3[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) W2[i][j] = W[i][0] * W[0][j] + W[i][1] * W[1][j] + W[i][2] * W[2][j];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) W3[i][j] = W2[i][0] * W[0][j] + W2[i][1] * W[1][j] + W2[i][2] * W[2][j];
  const S half = S(1) / S(2), sixth = S(1) / S(6);
  Pose<D> T;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) T.R[i][j] = W[i][j] + W2[i][j] * half + W3[i][j] * sixth;
    T.R[i][i] += D(S(1));
    const D Wv = W[i][0] * v[0] + W[i][1] * v[1] + W[i][2] * v[2];
    const D W2v = W2[i][0] * v[0] + W2[i][1] * v[1] + W2[i][2] * v[2];
    T.p[i] = v[i] + Wv * half + W2v * sixth;
  }
  return T;
}

// Rotation of the unit quaternion [w x y z] (child orientation in the parent), written as
// (w^2 - |u|^2) 1 + 2 u u^T + 2 w [u]x with u = (x, y, z): for w = cos(t/2), u = sin(t/2) n
// this is Rodrigues' c 1 + (1 - c) n n^T + s [n]x.
template <class S> std::array<std::array<S, 3>, 3> quaternion_rotation(const S& w, const S& x, const S& y, const S& z) {
  const S u[3] = {x, y, z};
  const S ux[3][3] = {{S(0), -z, y}, {z, S(0), -x}, {-y, x, S(0)}};
  const S d = w * w - (x * x + y * y + z * z);
  std::array<std::array<S, 3>, 3> R;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) R[i][j] = S(2) * u[i] * u[j] + S(2) * w * ux[i][j] + (i == j ? d : S(0));
  return R;
}

}  // namespace rbd::oracle
