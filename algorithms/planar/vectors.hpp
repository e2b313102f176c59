#pragma once
// Planar motion and force vectors (Featherstone section 2.16): the three coordinates of a
// spatial vector that survive when every body moves parallel to the x-y plane, angular part
// first. A motion vector is [omega; v_Ox; v_Oy], a force vector is [n_z; f_x; f_y].
// Fixed-size Eigen types only (core/scalar.hpp's rules), so nothing here allocates.
#include "core/scalar.hpp"

namespace rbd::planar {

template <class S> using Vec2 = Eigen::Matrix<S, 2, 1>;
template <class S> using PVec = Eigen::Matrix<S, 3, 1>;  // an element of M^3 or F^3
template <class S> using PMat = Eigen::Matrix<S, 3, 3>;

// v x, the planar motion cross operator as a matrix (Eq. 2.75; Table A.1's crm).
template <class S> inline PMat<S> crm(const PVec<S>& v) {
  PMat<S> m;
  m << S(0), S(0), S(0),
       v[2], S(0), -v[0],
       -v[1], v[0], S(0);
  return m;
}

// v x*, the planar force cross operator as a matrix (Table A.1's crf): -(v x)^T.
template <class S> inline PMat<S> crf(const PVec<S>& v) {
  PMat<S> m;
  m << S(0), -v[2], v[1],
       S(0), S(0), -v[0],
       S(0), v[0], S(0);
  return m;
}

// v x m without forming the matrix (Eq. 2.76): [0; v_y m_w - w m_y; w m_x - v_x m_w]. 4m + 2a.
template <class S> RBD_INLINE PVec<S> crm(const PVec<S>& v, const PVec<S>& m) {
  return PVec<S>(S(0), v[2] * m[0] - v[0] * m[2], v[0] * m[1] - v[1] * m[0]);
}

// v x* f without forming the matrix: [v_x f_y - v_y f_x; -w f_y; w f_x]. 4m + 1a.
template <class S> RBD_INLINE PVec<S> crf(const PVec<S>& v, const PVec<S>& f) {
  return PVec<S>(v[1] * f[2] - v[2] * f[1], -(v[0] * f[2]), v[0] * f[1]);
}

}  // namespace rbd::planar
