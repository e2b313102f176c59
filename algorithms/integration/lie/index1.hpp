#pragma once
// The index-1 form of the constrained equations of motion (seed 004, Eq. 3):
//   [M J^T; J 0] [Vdot; lambda] = [Q; eta],  eta = -Jdot V,
// solved per stage by the Schur complement: M is block diagonal (Theta_i, m_i I per body), so
//   (J M^-1 J^T) lambda = J M^-1 Q - eta,   Vdot = M^-1 (Q - J^T lambda).
// The Gram matrix J M^-1 J^T is SPD when J has full row rank (the joints are independent);
// a rank-deficient J is reported, not solved through.
// Also here: constraint Jacobian and violations, kinetic/potential energy, and a velocity
// projection onto J V = 0 for building consistent initial states.
#include <Eigen/Cholesky>

#include "integration/lie/groups.hpp"

namespace rbd::integration {

// J (3 nj x 6 n) and eta = -Jdot V for the state x, in the group's velocity coordinates.
template <class G, class S>
void constraint_jacobian(const System<S>& sys, const State<S>& x, MatGV<S>& J, VecG<S>* eta) {
  J.setZero(sys.ng(), sys.nv());
  if (eta) eta->setZero(sys.ng());
  for (int k = 0; k < sys.nj; ++k) {
    const Spherical<S>& jt = sys.joint[k];
    const Vec6<S> Vi = x.V.template segment<6>(6 * jt.i);
    J.template block<3, 6>(3 * k, 6 * jt.i) = G::template point_jacobian<S>(x.C[jt.i], jt.a);
    if (eta) eta->template segment<3>(3 * k) = -G::template point_bias<S>(x.C[jt.i], Vi, jt.a);
    if (jt.j != kGround) {
      const Vec6<S> Vj = x.V.template segment<6>(6 * jt.j);
      J.template block<3, 6>(3 * k, 6 * jt.j) = -G::template point_jacobian<S>(x.C[jt.j], jt.b);
      if (eta) eta->template segment<3>(3 * k) += G::template point_bias<S>(x.C[jt.j], Vj, jt.b);
    }
  }
}

// M^-1 y, body by body.
template <class S> VecV<S> apply_inverse_mass(const System<S>& sys, const VecV<S>& y) {
  VecV<S> z(sys.nv());
  for (int i = 0; i < sys.n; ++i) {
    const Body<S>& B = sys.body[i];
    z.template segment<3>(6 * i) = B.Theta.ldlt().solve(Vec3<S>(y.template segment<3>(6 * i)));
    z.template segment<3>(6 * i + 3) = y.template segment<3>(6 * i + 3) / B.m;
  }
  return z;
}

// Vdot (and lambda, the joint reaction forces in space coordinates) at state x: Eq. 3.
template <class G, class S>
void accelerations(const System<S>& sys, const State<S>& x, VecV<S>& Vdot, VecG<S>* lambda = nullptr) {
  VecV<S> Q(sys.nv());
  for (int i = 0; i < sys.n; ++i)
    Q.template segment<6>(6 * i) = G::template bias<S>(sys.body[i], x.C[i], x.V.template segment<6>(6 * i), sys.gravity);
  const VecV<S> MiQ = apply_inverse_mass<S>(sys, Q);
  if (sys.nj == 0) { Vdot = MiQ; return; }
  MatGV<S> J;
  VecG<S> eta;
  constraint_jacobian<G, S>(sys, x, J, &eta);
  MatGV<S> JMi(sys.ng(), sys.nv());
  for (int r = 0; r < sys.ng(); ++r) JMi.row(r) = apply_inverse_mass<S>(sys, VecV<S>(J.row(r).transpose())).transpose();
  const MatGG<S> K = JMi * J.transpose();
  const Eigen::LLT<MatGG<S>> llt(K);
  if (llt.info() != Eigen::Success)
    throw std::runtime_error("integration::accelerations: J M^-1 J^T is not positive definite (dependent joints?)");
  const VecG<S> lam = llt.solve(VecG<S>(J * MiQ - eta));
  Vdot = MiQ - JMi.transpose() * lam;
  if (lambda) *lambda = lam;
}

// Removes the part of V that violates J V = 0, in the metric of M (the velocity change an
// impulse through the joints would make): V <- V - M^-1 J^T (J M^-1 J^T)^-1 J V.
template <class G, class S> void project_velocity(const System<S>& sys, State<S>& x) {
  if (sys.nj == 0) return;
  MatGV<S> J;
  constraint_jacobian<G, S>(sys, x, J, nullptr);
  MatGV<S> JMi(sys.ng(), sys.nv());
  for (int r = 0; r < sys.ng(); ++r) JMi.row(r) = apply_inverse_mass<S>(sys, VecV<S>(J.row(r).transpose())).transpose();
  const MatGG<S> K = JMi * J.transpose();
  const VecG<S> mu = K.llt().solve(VecG<S>(J * x.V));
  x.V -= JMi.transpose() * mu;
}

// Physical quantities, the same for both groups.
template <class G, class S> Vec3<S> com_velocity(const State<S>& x, int i) {
  return G::template rdot<S>(x.C[i], Vec6<S>(x.V.template segment<6>(6 * i)));
}
template <class G, class S> S kinetic_energy(const System<S>& sys, const State<S>& x) {
  S T = S(0);
  for (int i = 0; i < sys.n; ++i) {
    const Vec3<S> w = x.V.template segment<3>(6 * i), rd = com_velocity<G, S>(x, i);
    T += (w.dot(sys.body[i].Theta * w) + sys.body[i].m * rd.squaredNorm()) / S(2);
  }
  return T;
}
template <class S> S potential_energy(const System<S>& sys, const State<S>& x) {
  S U = S(0);
  for (int i = 0; i < sys.n; ++i) U -= sys.body[i].m * sys.gravity.dot(x.C[i].r);
  return U;
}
// |J_k V|: velocity-level violation of joint k (space coordinates, so group independent).
template <class G, class S> S joint_velocity_violation(const System<S>& sys, const State<S>& x, int k) {
  MatGV<S> J;
  constraint_jacobian<G, S>(sys, x, J, nullptr);
  return (J.template middleRows<3>(3 * k) * x.V).norm();
}

// Converts a state between the groups' velocity conventions (configuration unchanged).
template <class From, class To, class S> State<S> convert_state(const System<S>& sys, const State<S>& x) {
  State<S> y = x;
  for (int i = 0; i < sys.n; ++i)
    y.V.template segment<6>(6 * i) = To::template from_physical<S>(x.C[i], Vec3<S>(x.V.template segment<3>(6 * i)),
                                                                  com_velocity<From, S>(x, i));
  return y;
}

}  // namespace rbd::integration
