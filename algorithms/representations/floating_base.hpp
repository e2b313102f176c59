#pragma once
// The floating-base equations in the mixed representation (Traversaro & Saccon, seed 002,
// section 9): the generalised velocity nu = (B[A]_v_A,B, s_dot) = (A_o_dot_B, A_omega_A,B,
// s_dot), linear first, against rbdlab's free joint, whose qd is the body velocity
// [B_omega; B_v] (angular first, Featherstone Example 4.5). A is the model's base (world)
// frame, so R = A_R_B includes the free joint's tree transform: R = X_T(0).E^T R(quaternion).
//   qd = Y nu,  Y = diag(Y_b, 1),  Y_b = [0 R^T; R^T 0]                                   (F1)
// (the seed's B_X_B[A] = diag(R^T, R^T), Eqs. 35 and 76, followed by the swap to angular
// first). With R_dot = R omega^ (Eq. 19, omega = B_omega), d/dt R^T = -omega^ R^T, so
//   qdd = Y nu_dot + Y_dot nu,  Y_dot_b = -[0 omega^ R^T; omega^ R^T 0]                   (F2)
// rbdlab's equation of motion (body representation, C with gravity, f^x_i per body in body
// coordinates, J_i the body-i Jacobian in qd, angular first) is
//   H qdd + C(q, qd) = tau_rbd + sum_i J_i^T f^x_i.                                      (F3)
// Substituting F1-F2 and multiplying by Y^T (power is invariant: qd^T tau = nu^T Y^T tau):
//   (Y^T H Y) nu_dot + Y^T (H Y_dot nu + C(q, Y nu)) = Y^T tau_rbd + sum_i (J_i Y)^T f^x_i, (F4)
// which is the seed's Eq. 80, M nu_dot + C nu + G = S tau + sum_k J_k^T f_k, term by term:
//   M = Y^T H Y;  h = C nu + G = Y^T ID(q, Y nu, Y_dot nu) (ID = rbdlab's inverse dynamics,
//   H qdd + C(q, qd)); Y^T [0; tau] = S tau (Y's joint block is 1, the base is unactuated);
//   (J_i Y)^T f^x_i = J_k^T f_k with J_k = C_k[A]_J_A,L_i/B[A] and f_k in C_k[A] (Eqs. 81-82).
// Kinetic energy is invariant, 1/2 nu^T M nu = 1/2 qd^T H qd (the seed's M = Y^T I Y, section 9).
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Cholesky>

#include "inverse_dynamics/rnea_spatial.hpp"
#include "mass_matrix/crba.hpp"
#include "representations/jacobians.hpp"

namespace rbd::ts {

namespace fb_detail {
template <class S> void require_floating(const Model<S>& m, const char* who) {
  if (!has_floating_base(m))
    throw std::invalid_argument(std::string(who) + ": body 0 must have a free joint (a floating base)");
}
// Y (F1), or Y_dot (F2) when nu is given.
template <class S> MatX<S> make_Y(const Model<S>& m, const VecX<S>& q, const VecX<S>* nu) {
  require_floating(m, "mixed_to_rbdlab_velocity");
  const Mat3<S> Rt = base_pose(m, q).R.transpose();  // B_R_A
  MatX<S> Y = MatX<S>::Identity(m.nv, m.nv);
  Mat3<S> B = Rt;
  if (nu) {
    Y.setZero();
    B = -(hat<S>(Vec3<S>(Rt * nu->template segment<3>(3))) * Rt);  // -omega^ R^T, omega = R^T A_omega
  }
  Y.template topLeftCorner<6, 6>().setZero();
  Y.template block<3, 3>(0, 3) = B;  // B_omega = R^T A_omega
  Y.template block<3, 3>(3, 0) = B;  // B_v = R^T A_o_dot
  return Y;
}
}  // namespace fb_detail

template <class S> MatX<S> mixed_to_rbdlab_velocity(const Model<S>& m, const VecX<S>& q) {
  return fb_detail::make_Y<S>(m, q, nullptr);
}
template <class S> MatX<S> mixed_to_rbdlab_velocity_dot(const Model<S>& m, const VecX<S>& q, const VecX<S>& nu) {
  return fb_detail::make_Y<S>(m, q, &nu);
}

// M_mixed from rbdlab's joint-space inertia H (e.g. from mass_matrix/crba.hpp).
template <class S> MatX<S> mixed_mass_matrix(const Model<S>& m, const VecX<S>& q, const MatX<S>& H) {
  const MatX<S> Y = mixed_to_rbdlab_velocity(m, q);
  return Y.transpose() * H * Y;
}

// h = C(q, nu) nu + G(q) of Eq. 80 (F4): one inverse-dynamics call at qd = Y nu, qdd = Y_dot nu.
template <class S> VecX<S> mixed_bias(const Model<S>& m, const VecX<S>& q, const VecX<S>& nu, Workspace<S>& ws) {
  const MatX<S> Y = mixed_to_rbdlab_velocity(m, q);
  const VecX<S> qd = Y * nu, qdd = mixed_to_rbdlab_velocity_dot(m, q, nu) * nu;
  VecX<S> id(m.nv);
  RneaSpatial::run<S>(m, q, qd, qdd, nullptr, id, ws);
  return Y.transpose() * id;
}

// A contact k of Eq. 80: link L_i = `body`, the contact frame C_k at pose L_H_C in the link's
// frame (at this instant; C_k may move on the link, footnote 3), and the wrench f_k = C_k[A]_f.
template <class S> struct Contact {
  int body;
  Pose<S> L_H_C;
  Vec6<S> f;  // linear first [force; torque about C's origin], world-aligned axes
};

// J_k = C_k[A]_J_A,L_i/B[A] (Eq. 81): the link-fixed frame that coincides with C_k now.
template <class S> Mat6X<S> contact_jacobian(const Model<S>& m, const VecX<S>& q, const Contact<S>& c) {
  const FrameJacobian<S> L = left_jacobian(m, q, c.body, c.L_H_C);
  return jacobian_in(L, Pose<S>{Mat3<S>::Identity(), L.A_H_E.o}, Representation::Mixed);  // D = C_k[A]
}

// Forward dynamics in the mixed representation: nu_dot = M^-1 (S tau + sum_k J_k^T f_k - h)
// (Eq. 80), M from the CRBA and a dense Cholesky solve. tau holds the nv - 6 joint forces.
template <class S>
VecX<S> mixed_forward_dynamics(const Model<S>& m, const VecX<S>& q, const VecX<S>& nu, const VecX<S>& tau,
                               const std::vector<Contact<S>>& contacts, Workspace<S>& ws) {
  fb_detail::require_floating(m, "mixed_forward_dynamics");
  if (tau.size() != m.nv - 6) throw std::invalid_argument("mixed_forward_dynamics: tau must have nv - 6 entries");
  MatX<S> H = MatX<S>::Zero(m.nv, m.nv);
  Crba::run<S>(m, q, H, ws);
  VecX<S> rhs = -mixed_bias(m, q, nu, ws);
  rhs.tail(m.nv - 6) += tau;                                                     // S tau
  for (const Contact<S>& c : contacts) rhs += contact_jacobian(m, q, c).transpose() * c.f;  // J_k^T f_k
  return Eigen::LLT<MatX<S>>(mixed_mass_matrix(m, q, H)).solve(rhs);
}

}  // namespace rbd::ts
