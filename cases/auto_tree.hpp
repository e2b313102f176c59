#pragma once
// auto_tree(nb, bf, skew, taper): kinematic trees of revolute joints in the manner of
// spatial_v2's autoTree.m (Featherstone), the family used for Fig. 10.5-style studies of
// how branching changes the cost and accuracy of the tree algorithms.
//
// Exactly as autoTree.m defines them (1-based numbering i = 1..nb as in the .m file; the
// Model stores body i as index i-1 with parent index lambda(i)-1, -1 for the base):
//  - topology: lambda(i) = floor((i - 2 + ceil(bf)) / bf). bf is the average number of
//    children of a non-terminal body, bf >= 1: bf = 1 gives a chain (lambda(i) = i - 1),
//    bf = 2 a binary tree (lambda(i) = floor(i/2), i.e. children 2k and 2k+1 of body k),
//    non-integer bf alternates floor(bf) and ceil(bf) children (bf = 1.5: 1, 2, 1, 2, ...).
//    Bodies are numbered breadth-first.
//  - link i has length l(i) = taper^(i-1) and mass m(i) = taper^(3(i-1)) (computed here as
//    repeated products, m = l^3), lies on 0 <= x <= l(i) of its body frame, and its inboard
//    joint is revolute about the body z axis.
//  - tree transform: X_T(i) = rotx(skew) xlt([l(lambda(i)), 0, 0]) for lambda(i) != 0, and
//    the identity for children of the base. That is, every outboard joint of a link sits at
//    its far end (l, 0, 0) and its axis is the inboard axis turned by `skew` radians about
//    the link's x axis. skew = 0 makes the whole mechanism planar (all axes parallel to z).
//  - inertia: a thin-walled tube of radius l/20: centre of mass (l/2, 0, 0), rotational
//    inertia about the centre of mass m l^2 diag(0.0025, 1.015/12, 1.015/12)
//    (axial m r^2 = m l^2/400; transverse m (l^2/12 + r^2/2) = m l^2 (1/12 + 1/800)).
//    Its principal moments satisfy the triangle inequality strictly.
//  - gravity: autoTree.m sets none (its users choose); rbdlab uses (0, 0, -9.81) in base
//    coordinates so that the gravity terms are exercised. With skew = 0 the mechanism moves
//    in the horizontal x-y plane and gravity does no work; it still loads the joints.
// The one libm call is cos/sin(skew) (exactly 1 and 0 for skew = 0).
//
// The autoTree.m source, not a paraphrase of it, is followed: the tree transform is
// rotx(skew) xlt(...) with no other fixed rotation (see cases/README.md).
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "cases/shapes.hpp"

namespace rbd::cases {

// The parent index (0-based, -1 = base) of 0-based body k in autoTree's numbering.
inline int auto_tree_parent(int k, double bf) {
  const int i = k + 1;  // autoTree.m's 1-based body number
  const int lambda = static_cast<int>(std::floor((i - 2 + std::ceil(bf)) / bf));
  return lambda - 1;
}

inline std::string auto_tree_id(int nb, double bf, double skew = 0, double taper = 1) {
  std::string id = "tree:bf=" + id_number(bf) + ":nb=" + std::to_string(nb);
  if (skew != 0) id += ":skew=" + id_number(skew);
  if (taper != 1) id += ":taper=" + id_number(taper);
  return id;
}

inline Model<double> auto_tree(int nb, double bf, double skew = 0, double taper = 1) {
  if (nb < 1) throw std::invalid_argument("cases::auto_tree: nb must be >= 1 (got " + std::to_string(nb) + ")");
  if (!(bf >= 1) || !std::isfinite(bf))
    throw std::invalid_argument("cases::auto_tree: branching factor bf must be a finite number >= 1 (got " + id_number(bf) + ")");
  if (!std::isfinite(skew)) throw std::invalid_argument("cases::auto_tree: skew must be finite");
  if (!(taper > 0) || !std::isfinite(taper))
    throw std::invalid_argument("cases::auto_tree: taper must be a finite positive number (got " + id_number(taper) + ")");

  ModelBuilder mb(auto_tree_id(nb, bf, skew, taper));
  mb.gravity(Vec3d(0, 0, -9.81));
  const Mat3d Eskew = rx<double>(std::cos(skew), std::sin(skew));
  std::vector<double> len(nb);
  double l = 1;  // taper^(i-1)
  for (int k = 0; k < nb; ++k) {
    if (k > 0) l *= taper;
    len[k] = l;
    const int p = auto_tree_parent(k, bf);
    Transform<double> X;  // identity for children of the base
    if (p >= 0) X = Transform<double>{Eskew, Vec3d(len[p], 0, 0)};
    const double mass = l * l * l;
    Mat3d Icm = Mat3d::Zero();
    Icm(0, 0) = mass * l * l * 0.0025;
    Icm(1, 1) = mass * l * l * (1.015 / 12);
    Icm(2, 2) = Icm(1, 1);
    mb.add_body("link" + std::to_string(k + 1), p, make_joint(JointType::Revolute, Vec3d::UnitZ()), X,
                mass, Vec3d(l * 0.5, 0, 0), Icm);
  }
  return mb.finish();
}

}  // namespace rbd::cases
