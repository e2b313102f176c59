#pragma once
// A ladder (Featherstone section 8.13, Figure 8.4): a connectivity graph that grows to the
// right without bound, for which the sparse-matrix method (Eq. 8.64) stays O(n) while every
// spanning tree's H has O(n^2) nonzeros.
//
// `rungs` = N cells. Bodies are numbered as the figure's text numbers its nodes (here 0-based):
// rail A holds bodies 0, 2, 4, ..., rail B bodies 1, 3, 5, ...; body 2k and 2k + 1 form rung k.
//  - Spanning tree: each rail is a chain of spherical joints, its first body on the base
//    (rail A at y = +w/2, rail B at y = -w/2), each next body at the end of the one before
//    (a rod of length l along x). So the tree has two branches of 3N variables each.
//  - Loop joints: a revolute joint per rung, predecessor 2k (rail A), successor 2k + 1 (rail B),
//    between the rods' midpoints, its axis along y (across the ladder), the closing frame solved
//    at the state's q (cases/loops.hpp's close_loops).
// Count: N_B = 2N bodies, N_J = 3N joints (2N spherical with 3 constraints each, N revolute
// with 5): n^c_tot = 11N, mobility 6N - 5N = N for independent constraints, n = 6N tree
// variables. Rods of 1 kg, radius 2 cm; dyadic lengths, so the model casts exactly.
#include <stdexcept>
#include <string>
#include <vector>

#include "cases/loops.hpp"
#include "cases/shapes.hpp"

namespace rbd::cases {

struct Ladder {
  Model<double> model;
  std::vector<LoopSpec> rungs;  // closed at any q by close_loops
};

inline Ladder ladder(int rungs, double length = 0.25, double width = 0.5) {
  if (rungs < 1) throw std::invalid_argument("cases::ladder: need at least one rung");
  ModelBuilder mb("ladder:" + std::to_string(rungs));
  mb.gravity(Vec3d(0, 0, -9.81));
  const Joint<double> ball = make_joint(JointType::Spherical, Vec3d::UnitZ());
  const BodyInertia rodb = rod(1.0, Vec3d::Zero(), Vec3d(length, 0, 0), 0.02);
  for (int k = 0; k < rungs; ++k) {
    for (int side = 0; side < 2; ++side) {
      const int body = 2 * k + side;
      const std::string name = std::string(side == 0 ? "a" : "b") + std::to_string(k);
      const Vec3d at = k == 0 ? Vec3d(0, side == 0 ? width / 2 : -width / 2, 0) : Vec3d(length, 0, 0);
      add(mb, name, k == 0 ? -1 : body - 2, ball, xlt(at), rodb);
    }
  }
  Ladder out{mb.finish(), {}};
  for (int k = 0; k < rungs; ++k) {
    LoopSpec L;
    L.type = LoopJointType::Revolute;
    L.p = 2 * k;
    L.s = 2 * k + 1;
    // X_S on rail B's rod midpoint, z (the joint axis) along the body's y: a rotation of -90
    // degrees about x, quaternion (cos 45, -sin 45, 0, 0).
    L.XS_quaternion = Eigen::Vector4d(std::sqrt(0.5), -std::sqrt(0.5), 0, 0);
    L.XS_offset = Vec3d(length / 2, 0, 0);
    out.rungs.push_back(L);
  }
  return out;
}

}  // namespace rbd::cases
