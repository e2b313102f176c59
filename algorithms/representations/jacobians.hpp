#pragma once
// Geometric Jacobians in Traversaro & Saccon's notation (seed 002, section 8, Eqs. 70-76),
// linear first like the rest of this folder. A is the model's base (world) frame; E a frame
// rigidly attached to body `body`, given by its constant pose b_H_E in that body's frame.
// Fixed base: q = s, and these are the seed's C_J_A,B with B := E (C = E left-trivialised,
// C = E[A] mixed, C = A inertial); the base argument is then ignored.
// Floating base (body 0 on a free joint, rbdlab's free joint = the seed's moving base B):
// q = (A_H_B, s) and the generalised velocity is (base twist, s_dot) with the base twist in
// the first 6 entries, linear first; s_dot is rbdlab's qd of every other joint (for planar
// and spherical joints the body-frame rates, as in model/joint.hpp).
//
// left_jacobian: the doubly left-trivialised E_J_A,E/B of Eq. 74, computed as a dynamics
// library does, walking from E's body to the root: joint j contributes E_X_j S_j (its motion
// subspace, jcalc, moved to E's frame), the base E_X_B (its S is 1, and Delta = B_Delta_A,B).
// jacobian / jacobian_in: the other representations by Eq. 75, D_J_A,E/C =
// D_X_E E_J_A,E/B B_Y_C with B_Y_C = diag(B_X_C, 1) (Eq. 76); D and C one of
//   Body      D = E,    C = B       left-trivialised ("body-fixed")
//   Inertial  D = A,    C = A       right-trivialised
//   Mixed     D = E[A], C = B[A]    the seed's "doubly mixed" E[A]_J_A,E/B[A]
// or, for jacobian_in, any frame D given by its pose A_H_D (the contact Jacobians of Eq. 81).
// inertial_jacobian: A_J_A,E/A by a second, independent route (root-to-body pass of world
// poses, as Pinocchio's computeJointJacobians): column j is A_X_j S_j, the base block is 1.
// It does not depend on where E sits on the body (A_v_A,E = A_v_A,b).
#include <stdexcept>
#include <string>
#include <vector>

#include "model/model.hpp"
#include "representations/conversions.hpp"

namespace rbd::ts {

template <class S> using Mat6X = Eigen::Matrix<S, 6, Eigen::Dynamic>;

enum class Representation { Body, Inertial, Mixed };

template <class S> bool has_floating_base(const Model<S>& m) {
  return m.nb > 0 && m.parent[0] < 0 && m.joint[0].type == JointType::Free;
}

namespace jac_detail {
// lambda(j)_H_j from rbdlab's ^jX_lambda(j) = X_J(q_j) X_T(j) (conversions.hpp: a Transform
// ^jX_lambda carries E = j_R_lambda, r = lambda_o_j); jcalc's motion subspace S_j left in J.
template <class S> Pose<S> parent_H(const Model<S>& m, const VecX<S>& q, int j, JointKinematics<S>& J) {
  jcalc_position(m.joint[j], q.segment(m.q_idx[j], m.joint[j].nq()), J);
  return from_transform<S>(J.XJ * m.Xtree[j]);
}
// S_j reordered linear first (rbdlab's S is angular first).
template <class S> Mat6N<S> linear_first(const Mat6N<S>& Sj) {
  Mat6N<S> P(6, Sj.cols());
  P << Sj.template bottomRows<3>(), Sj.template topRows<3>();
  return P;
}
template <class S> void check_body(const Model<S>& m, int body, const char* who) {
  if (body < 0 || body >= m.nb)
    throw std::invalid_argument(std::string(who) + ": body " + std::to_string(body) + " out of range");
}
}  // namespace jac_detail

// A_H_B of the floating base (the free joint's tree transform included: A is the world frame).
template <class S> Pose<S> base_pose(const Model<S>& m, const VecX<S>& q) {
  if (!has_floating_base(m)) throw std::invalid_argument("base_pose: body 0 must be a root on a free joint");
  JointKinematics<S> J;
  return jac_detail::parent_H(m, q, 0, J);
}

// E_J_A,E/B (Eq. 74) with the poses Eq. 75 needs.
template <class S> struct FrameJacobian {
  Mat6X<S> J;          // 6 x nv, doubly left-trivialised
  Pose<S> A_H_E;       // pose of E in the world frame A (Eq. 70)
  Pose<S> A_H_B;       // pose of the floating base B; identity for a fixed base
  bool floating = false;
};

template <class S> FrameJacobian<S> left_jacobian(const Model<S>& m, const VecX<S>& q, int body, const Pose<S>& b_H_E) {
  jac_detail::check_body(m, body, "left_jacobian");
  FrameJacobian<S> out{Mat6X<S>::Zero(6, m.nv), Pose<S>{}, Pose<S>{}, has_floating_base(m)};
  JointKinematics<S> J;
  Pose<S> E_H_j = b_H_E.inverse();
  for (int j = body; j >= 0; j = m.parent[j]) {  // E's body to the root
    const Pose<S> l_H_j = jac_detail::parent_H(m, q, j, J);
    const Mat6<S> E_X_j = velocity_transform(E_H_j);                                  // Eq. 27
    if (j == 0 && out.floating) out.J.template leftCols<6>() = E_X_j;                 // base: E_X_B B_Delta
    else out.J.middleCols(m.v_idx[j], m.joint[j].nv()) = E_X_j * jac_detail::linear_first<S>(J.S_);  // E_X_j S_j s_dot_j
    E_H_j = E_H_j * l_H_j.inverse();                                                  // E_H_lambda(j)
  }
  out.A_H_E = E_H_j.inverse();  // the walk ends in the world frame A
  if (out.floating) out.A_H_B = base_pose(m, q);
  return out;
}

// D_X_E for D = E, A, E[A] (E[A]_H_E = [A_R_E 0; 0 1], section 5.2).
template <class S> Mat6<S> output_transform(Representation r, const Pose<S>& A_H_E) {
  switch (r) {
    case Representation::Body: return Mat6<S>::Identity();
    case Representation::Inertial: return velocity_transform(A_H_E);
    case Representation::Mixed: return velocity_transform(A_H_E.mixed_from_body().inverse());
  }
  return Mat6<S>::Identity();
}
// B_X_C for C = B, A, B[A]: the base block of B_Y_C (Eq. 76).
template <class S> Mat6<S> base_transform(Representation r, const Pose<S>& A_H_B) {
  switch (r) {
    case Representation::Body: return Mat6<S>::Identity();
    case Representation::Inertial: return velocity_transform(A_H_B.inverse());
    case Representation::Mixed: return velocity_transform(A_H_B.mixed_from_body());
  }
  return Mat6<S>::Identity();
}

// Eq. 75 with D_X_E given; only the base columns see B_Y_C (its joint block is 1).
template <class S> Mat6X<S> transformed(const FrameJacobian<S>& L, const Mat6<S>& D_X_E, Representation base) {
  Mat6X<S> J = D_X_E * L.J;
  if (L.floating) J.template leftCols<6>() = Mat6<S>(J.template leftCols<6>()) * base_transform(base, L.A_H_B);
  return J;
}
template <class S> Mat6X<S> jacobian(const FrameJacobian<S>& L, Representation out, Representation base) {
  return transformed(L, output_transform(out, L.A_H_E), base);
}
template <class S> Mat6X<S> jacobian_in(const FrameJacobian<S>& L, const Pose<S>& A_H_D, Representation base) {
  return transformed(L, velocity_transform(A_H_D.inverse() * L.A_H_E), base);
}

// A_J_A,E/A by a root-to-body pass of world poses (independent of left_jacobian).
template <class S> Mat6X<S> inertial_jacobian(const Model<S>& m, const VecX<S>& q, int body) {
  jac_detail::check_body(m, body, "inertial_jacobian");
  std::vector<int> path;
  for (int j = body; j >= 0; j = m.parent[j]) path.push_back(j);
  Mat6X<S> J = Mat6X<S>::Zero(6, m.nv);
  JointKinematics<S> Jk;
  Pose<S> A_H_j;  // A_H_lambda(j) before the step, A_H_j after
  for (auto it = path.rbegin(); it != path.rend(); ++it) {
    const int j = *it;
    A_H_j = A_H_j * jac_detail::parent_H(m, q, j, Jk);
    if (j == 0 && has_floating_base(m)) J.template leftCols<6>() = Mat6<S>::Identity();  // A_v_A,B passes through
    else J.middleCols(m.v_idx[j], m.joint[j].nv()) = velocity_transform(A_H_j) * jac_detail::linear_first<S>(Jk.S_);
  }
  return J;
}

}  // namespace rbd::ts
