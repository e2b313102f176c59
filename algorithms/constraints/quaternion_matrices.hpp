#pragma once
// Quaternion products as 4x4 matrices (Tasora & Righettini, seed 001, section 4.2, Eqs.
// 55-62), scalar first [q0 q1 q2 q3] = [w x y z] like frames/quaternion.hpp:
//   p q = [p+] q = [q-] p                    (Eq. 57)
// [p+] multiplies from the left (Eq. 56), [q-] from the right (Eq. 58); both follow from the
// Hamilton product (Eq. 10) by reading off the coefficients of the other factor. The
// conjugate is linear, q* = chi q with chi = diag(1, -1, -1, -1) (Eqs. 61-62).
// Rates: with omega the angular velocity in body coordinates, dq/dt = 1/2 q S(omega)
// (S(x) = {0, x}), so q_dot = Gamma(q) omega with Gamma = 1/2 [q+](:, 1:3); and
// omega = 2 Im(q* q_dot) = Gl(q) q_dot with Gl(q) = 2 [q*+](1:3, :) (the seed's [Gl] of
// Eq. 37, whose factor 2 the seed leaves inside the symbol). Gl q_ddot is the body angular
// acceleration exactly: d/dt(Gl) q_dot = 2 Im(q_dot* q_dot) = 0.
#include "frames/quaternion.hpp"

namespace rbd {

template <class S> using Vec4 = Eigen::Matrix<S, 4, 1>;
template <class S> using Mat4 = Eigen::Matrix<S, 4, 4>;
template <class S> using Mat34 = Eigen::Matrix<S, 3, 4>;
template <class S> using Mat43 = Eigen::Matrix<S, 4, 3>;

template <class S> Vec4<S> as_vec4(const Quaternion<S>& q) { return Vec4<S>(q.w, q.v.x(), q.v.y(), q.v.z()); }
template <class S> Quaternion<S> as_quaternion(const Vec4<S>& x) { return Quaternion<S>{x[0], Vec3<S>(x[1], x[2], x[3])}; }

// [q+] (Eq. 56): p q = [p+] q. Columns are p e_k for the basis quaternions 1, i, j, k.
template <class S> Mat4<S> qplus(const Quaternion<S>& p) {
  const S w = p.w, x = p.v.x(), y = p.v.y(), z = p.v.z();
  Mat4<S> M;
  M << w, -x, -y, -z,
       x,  w, -z,  y,
       y,  z,  w, -x,
       z, -y,  x,  w;
  return M;
}

// [q-] (Eq. 58): p q = [q-] p. The same first row and column as [q+]; the 3x3 block
// carries +[v]x instead of -[v]x, because the cross product turns sign with the order.
template <class S> Mat4<S> qminus(const Quaternion<S>& q) {
  const S w = q.w, x = q.v.x(), y = q.v.y(), z = q.v.z();
  Mat4<S> M;
  M << w, -x, -y, -z,
       x,  w,  z, -y,
       y, -z,  w,  x,
       z,  y, -x,  w;
  return M;
}

// chi (Eq. 62): q* = chi q.
template <class S> Mat4<S> conjugation_matrix() {
  Mat4<S> M = Mat4<S>::Identity();
  M(1, 1) = M(2, 2) = M(3, 3) = S(-1);
  return M;
}

// Gl(q) = 2 Im rows of [q*+]: omega_body = Gl(q) q_dot (Eq. 37's [Gl]). Written out:
// 2 [-v, w I - [v]x].
template <class S> Mat34<S> gl_matrix(const Quaternion<S>& q) {
  return S(2) * qplus(q.conjugate()).template bottomRows<3>();
}

// Gamma(q) = 1/2 [q+](:, 1:3): q_dot = Gamma(q) omega_body, the tangent map of the unit sphere.
template <class S> Mat43<S> rate_matrix(const Quaternion<S>& q) {
  return qplus(q).template rightCols<3>() / S(2);
}

}  // namespace rbd
