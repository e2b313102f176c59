#pragma once
// The floating-base equations in the mixed representation (Traversaro & Saccon, seed 002,
// section 9): the generalised velocity nu = (B[A]_v_A,B, s_dot) = (A_o_dot_B, A_omega_A,B,
// s_dot), linear first, against rbdlab's free joint, whose qd is the body velocity
// [B_omega; B_v] (angular first, Featherstone Example 4.5). With R = A_R_B,
//   qd = Y nu,  Y = diag(Y_b, 1),  Y_b = [0 R^T; R^T 0]
// (the seed's B_X_B[A] = diag(R^T, R^T), Eq. 35, followed by the swap to angular first).
// Kinetic energy is invariant, 1/2 nu^T M_mixed nu = 1/2 qd^T H qd, so M_mixed = Y^T H Y.
#include <stdexcept>

#include "model/joint.hpp"
#include "model/model.hpp"
#include "representations/se3.hpp"

namespace rbd::ts {

template <class S> MatX<S> mixed_to_rbdlab_velocity(const Model<S>& m, const VecX<S>& q) {
  if (m.nb == 0 || m.joint[0].type != JointType::Free)
    throw std::invalid_argument("mixed_to_rbdlab_velocity: body 0 must have a free joint (a floating base)");
  const int b = m.q_idx[0], v = m.v_idx[0];
  const Mat3<S> Rt = quat_to_matrix<S>(q[b], q[b + 1], q[b + 2], q[b + 3]).transpose();  // B_R_A
  MatX<S> Y = MatX<S>::Identity(m.nv, m.nv);
  Y.block(v, v, 6, 6).setZero();
  Y.block(v, v + 3, 3, 3) = Rt;  // B_omega = R^T A_omega
  Y.block(v + 3, v, 3, 3) = Rt;  // B_v = R^T A_o_dot
  return Y;
}

// M_mixed from rbdlab's joint-space inertia H (e.g. from mass_matrix/crba.hpp).
template <class S> MatX<S> mixed_mass_matrix(const Model<S>& m, const VecX<S>& q, const MatX<S>& H) {
  const MatX<S> Y = mixed_to_rbdlab_velocity(m, q);
  return Y.transpose() * H * Y;
}

}  // namespace rbd::ts
