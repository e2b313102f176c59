#pragma once
// Every joint type of Table 4.1 (JointType), in one branched tree and one at a time.
//
// all_joints_tree(seed): 13 bodies, a floating base (free joint) with three branches,
//   0 free ─┬─ 1 revolute z ─┬─ 2 revolute x ── 5 prismatic x
//           │                └─ 8 cylindrical (general axis) ── 12 prismatic z
//           ├─ 3 spherical ──┬─ 4 revolute y ── 9 planar ── 10 revolute (general axis)
//           │                └─ 6 helical (general axis, pitch) ── 7 prismatic (general axis)
//           └─ 11 prismatic y
// so every type appears, the x/y/z-aligned rows of Table 4.1 (jcalc's rx/ry/rz path) and the
// general-axis path both appear for revolute and prismatic joints, multi-DoF joints sit
// both at the root and mid-tree, and nq = 25 != nv = 23 (two quaternions).
//
// single_joint(t, axis, seed): that joint at the root, followed by one revolute child, so
// the joint carries a non-trivial load (the child's inertia, its motion and gravity).
// each_joint_alone(): one such model per type and axis, named "joint:<type>[_<axis>]".
//
// All geometry and inertias are random and general (cases/shapes.hpp: random_xtree,
// random_body); general axes are uniformly random unit vectors; helical pitch is uniform in
// [0.05, 0.2] (length per radian). Gravity (0, 0, -9.81) in base coordinates.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cases/shapes.hpp"

namespace rbd::cases {

// Axis choices for single_joint: 0, 1, 2 = x, y, z of the joint frames; kGeneralAxis = a
// random unit axis. Ignored by planar, spherical and free joints, which have no axis.
inline constexpr int kGeneralAxis = -1;

namespace detail {
inline Vec3d choose_axis(Rng& rng, int axis_choice) {
  if (axis_choice >= 0 && axis_choice <= 2) return Vec3d::Unit(axis_choice);
  if (axis_choice == kGeneralAxis) return rng.unit_vector();
  throw std::invalid_argument("cases: axis choice must be 0, 1, 2 (x, y, z) or kGeneralAxis (-1), got " +
                              std::to_string(axis_choice));
}
inline bool has_axis(JointType t) {
  return t == JointType::Revolute || t == JointType::Prismatic || t == JointType::Helical ||
         t == JointType::Cylindrical;
}
}  // namespace detail

inline Model<double> all_joints_tree(std::uint64_t seed = 1) {
  Rng rng(seed);
  ModelBuilder mb(seed == 1 ? "all_joints" : "all_joints:seed=" + std::to_string(seed));
  mb.gravity(Vec3d(0, 0, -9.81));
  struct Row { const char* name; int parent; JointType type; int axis; };
  const Row rows[] = {
      {"free_base", -1, JointType::Free, 2},
      {"revolute_z", 0, JointType::Revolute, 2},
      {"revolute_x", 1, JointType::Revolute, 0},
      {"spherical", 0, JointType::Spherical, 2},
      {"revolute_y", 3, JointType::Revolute, 1},
      {"prismatic_x", 2, JointType::Prismatic, 0},
      {"helical", 3, JointType::Helical, kGeneralAxis},
      {"prismatic_axis", 6, JointType::Prismatic, kGeneralAxis},
      {"cylindrical", 1, JointType::Cylindrical, kGeneralAxis},
      {"planar", 4, JointType::Planar, 2},
      {"revolute_axis", 9, JointType::Revolute, kGeneralAxis},
      {"prismatic_y", 0, JointType::Prismatic, 1},
      {"prismatic_z", 8, JointType::Prismatic, 2},
  };
  for (const Row& r : rows) {
    const Vec3d axis = detail::has_axis(r.type) ? detail::choose_axis(rng, r.axis) : Vec3d::UnitZ();
    const double pitch = r.type == JointType::Helical ? rng.uniform(0.05, 0.2) : 0.0;
    const Transform<double> X = random_xtree(rng);
    const BodyInertia b = random_body(rng);
    add(mb, r.name, r.parent, make_joint(r.type, axis, pitch), X, b);
  }
  return mb.finish();
}

inline std::string single_joint_name(JointType t, int axis_choice) {
  std::string n(joint_type_name(t));
  if (t == JointType::Revolute || t == JointType::Prismatic) {
    switch (axis_choice) {
      case 0: n += "_x"; break;
      case 1: n += "_y"; break;
      case 2: n += "_z"; break;
      default: n += "_axis"; break;
    }
  }
  return n;
}

// `t` at the root (random tree transform, random body), then one revolute child about the z
// axis of a random frame (so a general axis relative to the root body).
inline Model<double> single_joint(JointType t, int axis_choice = kGeneralAxis, std::uint64_t seed = 1) {
  Rng rng(seed);
  ModelBuilder mb("joint:" + single_joint_name(t, axis_choice) + (seed == 1 ? "" : ":seed=" + std::to_string(seed)));
  mb.gravity(Vec3d(0, 0, -9.81));
  const Vec3d axis = detail::has_axis(t) ? detail::choose_axis(rng, axis_choice) : Vec3d::UnitZ();
  const double pitch = t == JointType::Helical ? rng.uniform(0.05, 0.2) : 0.0;
  const Transform<double> X0 = random_xtree(rng);
  const BodyInertia b0 = random_body(rng);
  add(mb, "root", -1, make_joint(t, axis, pitch), X0, b0);
  const Transform<double> X1 = random_xtree(rng);
  const BodyInertia b1 = random_body(rng);
  add(mb, "child", 0, make_joint(JointType::Revolute, Vec3d::UnitZ()), X1, b1);
  return mb.finish();
}

// The joint:* cases: (type, axis choice) pairs. Helical and cylindrical use a general axis
// (their aligned forms take the same jcalc path as the revolute ones for the rotation).
struct JointCase {
  JointType type;
  int axis;
};
inline std::vector<JointCase> joint_cases() {
  using J = JointType;
  return {{J::Revolute, 0},  {J::Revolute, 1},  {J::Revolute, 2},  {J::Revolute, kGeneralAxis},
          {J::Prismatic, 0}, {J::Prismatic, 1}, {J::Prismatic, 2}, {J::Prismatic, kGeneralAxis},
          {J::Helical, kGeneralAxis}, {J::Cylindrical, kGeneralAxis}, {J::Planar, 2},
          {J::Spherical, 2}, {J::Free, 2}};
}

// "joint:<name>" for each joint case, all with seed 1.
inline std::vector<std::pair<std::string, Model<double>>> each_joint_alone() {
  std::vector<std::pair<std::string, Model<double>>> out;
  for (const JointCase& c : joint_cases())
    out.emplace_back("joint:" + single_joint_name(c.type, c.axis), single_joint(c.type, c.axis, 1));
  return out;
}

// The model of one "joint:<name>" id (name as produced by single_joint_name), seed 1.
inline Model<double> joint_alone(const std::string& name) {
  std::string known;
  for (const JointCase& c : joint_cases()) {
    const std::string n = single_joint_name(c.type, c.axis);
    if (n == name) return single_joint(c.type, c.axis, 1);
    known += (known.empty() ? "" : ", ") + n;
  }
  throw std::invalid_argument("cases: unknown joint case 'joint:" + name + "' (known: " + known + ")");
}

}  // namespace rbd::cases
