#pragma once
// Example 9.5: the quick-and-dirty rotor model against the exact geared model (section 9.6),
// on Figure 9.2's arm (cases/geared_arm.hpp). The quick model drops the rotors as bodies of
// their own: each rotor's mass rides rigidly on the body that carries its stator, and only
// rho^2 times its axial inertia is added to H_ii of the joint it drives. On this tree that
// model's H and C are entries of the exact tree's (rotor 1 sits on the base; rotor 2, locked,
// is part of what joint 0 supports), so
//   H_quick = [H_00 + rho_1^2 I_rot, H_02; H_20, H_22 + rho_2^2 I_rot],
//   C_quick = rows 0 and 2 of C(q, qd) with the rotors not turning (qd_1 = qd_3 = 0),
// and the joint torques u are what the motors deliver through their gears, u_i = rho_i tau_motor.
// The exact model is geared_sparse on the four-body tree with tau_motor = u_i / rho_i at the
// rotors' joints. What the quick model leaves out here is the coupling rho_2 H_03 of Eq. 9.27 (the
// rotor's reaction on the upper arm) and the rotors' velocity terms, so the relative error in
// ydd should fall like 1 / rho once rho^2 I_rot dominates the diagonal.
//
// In double: the model errors measured (>= 1e-6) are far above round-off (cond2(G^T H G) < 1e4
// on this arm, so < 1e-11).
#include <Eigen/Cholesky>
#include <vector>

#include "cases/geared_arm.hpp"
#include "geared_dynamics/geared_sparse.hpp"

namespace rbd::verify {

struct ReflectedInertiaPoint {
  double ratio;     // rho_1 = rho_2
  double rel_err;   // ||ydd_quick - ydd_exact|| / ||ydd_exact||
  double diag_share;  // rho^2 I_rot / H_quick,00: how much of the shoulder's inertia is the rotor's
};

// One state for every ratio: joint angles (0.3, -0.7), joint rates (1.2, -0.8) rad/s, joint
// torques u = (5, 2) N m; so the rotors turn rho times faster as rho grows, as in a real drive.
inline ReflectedInertiaPoint reflected_inertia_point(double rho) {
  const cases::GearedArm arm = cases::geared_arm(rho, rho);
  const Model<double>& m = arm.model;
  const Eigen::Vector2d y(0.3, -0.7), yd(1.2, -0.8), u(5, 2);
  GearedWorkspace<double> ws(m);
  VecX<double> tau = VecX<double>::Zero(m.nv), ydd(2);
  tau[1] = u[0] / rho;  // the motors' torques on their rotors
  tau[3] = u[1] / rho;
  GearedSparse::run<double>(m, arm.pairs, VecX<double>(y), VecX<double>(yd), tau, nullptr, ydd, ws);

  const double Irot = cases::kGearedArmRotorAxialInertia;
  VecX<double> q = VecX<double>::Zero(m.nq), qd = VecX<double>::Zero(m.nv), zero = VecX<double>::Zero(m.nv);
  q[0] = y[0]; q[2] = y[1];  // the rotors' own angles do not enter: each is symmetric about its axis
  q[1] = rho * y[0]; q[3] = rho * y[1];
  qd[0] = yd[0]; qd[2] = yd[1];  // rotors locked: not turning relative to their stators
  Workspace<double> tws(m);
  MatX<double> H = MatX<double>::Zero(m.nv, m.nv);
  VecX<double> C(m.nv);
  Crba::run<double>(m, q, H, tws);
  RneaSpatial::run<double>(m, q, qd, zero, nullptr, C, tws);
  Eigen::Matrix2d Hq;
  Hq << H(0, 0) + rho * rho * Irot, H(0, 2), H(2, 0), H(2, 2) + rho * rho * Irot;
  const Eigen::Vector2d quick = Hq.llt().solve(Eigen::Vector2d(u[0] - C[0], u[1] - C[2]));
  const Eigen::Vector2d exact(ydd[0], ydd[1]);
  return {rho, (quick - exact).norm() / exact.norm(), rho * rho * Irot / Hq(0, 0)};
}

inline std::vector<double> reflected_inertia_ratios() { return {1, 2, 5, 10, 20, 50, 100, 200, 500}; }

}  // namespace rbd::verify
