#pragma once
// The 6x6 generalised inertia in Traversaro & Saccon's linear-first ordering (seed 002,
// section 7): at the centre of mass C, C_M_C = diag(m 1, C_I_C) (Eq. 67); at a frame B,
// B_M_B = B_X^C C_M_C C_X_B = [m 1, -m c^; m c^, B_I_B] with c = B_o_C and
// B_I_B = B_R_C C_I_C C_R_B - m c^ c^ (Eqs. 68-69, Huygens-Steiner). Note c^ c^ =
// c c^T - (c.c) 1: the seed's remark that it "is sometimes written" c.c 1 + c (x) c has the
// sign of both terms wrong (verify/test_representations.cpp).
#include "representations/se3.hpp"

namespace rbd::ts {

template <class S> Mat6<S> inertia_at_com(const S& m, const Mat3<S>& I_C) {
  Mat6<S> M = Mat6<S>::Zero();
  M.template topLeftCorner<3, 3>() = m * Mat3<S>::Identity();
  M.template bottomRightCorner<3, 3>() = I_C;
  return M;
}

// B_M_B from the mass m, C_I_C and the pose C_H_B of B in the centre-of-mass frame C.
template <class S> Mat6<S> inertia_at(const S& m, const Mat3<S>& I_C, const Pose<S>& C_H_B) {
  const Pose<S> B_H_C = C_H_B.inverse();
  const Mat3<S> c = hat<S>(B_H_C.o);
  Mat6<S> M;
  M.template topLeftCorner<3, 3>() = m * Mat3<S>::Identity();
  M.template topRightCorner<3, 3>() = -m * c;
  M.template bottomLeftCorner<3, 3>() = m * c;
  M.template bottomRightCorner<3, 3>() = B_H_C.R * I_C * C_H_B.R - m * c * c;
  return M;
}

}  // namespace rbd::ts
