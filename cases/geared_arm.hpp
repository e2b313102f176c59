#pragma once
// The two-link arm of Featherstone Figure 9.2 (section 9.6): a fixed base, an upper arm, a
// forearm, and two motors whose rotors drive the joints through gear pairs. Bodies (0-based,
// the book's body k is body k - 1 here):
//   0: upper arm, with the first large gear wheel and the second motor's stator (joint 0: shoulder);
//   1: first small gear wheel and first rotor, on the base (joint 1: the first motor's bearing);
//   2: forearm and second large gear wheel, on the upper arm (joint 2: elbow);
//   3: second small gear wheel and second rotor, on the upper arm (joint 3: the second motor's bearing).
// Gear pairs q_1 = rho_1 q_0 and q_3 = rho_2 q_2, the book's q_2 = rho_1 q_1 and q_4 = rho_2 q_3.
// Every joint turns about its z axis; the arm moves in the base's x-y plane with gravity along
// -y. The dimensions and masses are rbdlab's (the book gives none): a 0.5 m, 4 kg upper arm and
// a 0.4 m, 2.5 kg forearm; each rotor 0.3 kg with axial inertia 1e-4 kg m^2, its axis 0.06 m
// from the joint it drives (the sum of the two wheels' pitch radii).
#include <string>

#include "cases/shapes.hpp"
#include "geared_dynamics/gear_map.hpp"

namespace rbd::cases {

struct GearedArm {
  Model<double> model;
  GearPairs pairs;
};

inline constexpr double kGearedArmRotorAxialInertia = 1e-4;  // kg m^2, about the rotor's own axis

inline BodyInertia geared_arm_rotor() { return {0.3, Vec3d::Zero(), Vec3d(6e-5, 6e-5, kGearedArmRotorAxialInertia).asDiagonal()}; }

inline GearedArm geared_arm(double rho_1, double rho_2) {
  ModelBuilder mb("geared_arm");
  mb.gravity(Vec3d(0, -9.81, 0));
  auto at = [](double x) { Transform<double> X; X.r = Vec3d(x, 0, 0); return X; };
  const Joint<double> rz = make_joint(JointType::Revolute, Vec3d::UnitZ());
  add(mb, "upper_arm", -1, rz, at(0), {4.0, Vec3d(0.25, 0, 0), box_inertia(4.0, 0.5, 0.08, 0.08)});
  add(mb, "rotor_1", -1, rz, at(-0.06), geared_arm_rotor());
  add(mb, "forearm", 0, rz, at(0.5), {2.5, Vec3d(0.2, 0, 0), box_inertia(2.5, 0.4, 0.06, 0.06)});
  add(mb, "rotor_2", 0, rz, at(0.44), geared_arm_rotor());
  return {mb.finish(), {{1, 0, rho_1}, {3, 2, rho_2}}};
}

}  // namespace rbd::cases
