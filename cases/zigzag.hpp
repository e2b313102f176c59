#pragma once
// The six-link planar mechanism of Featherstone section 10.2 (Figure 10.3), the book's
// example of the sensitivity problem, and chains of the same links of any length.
//
// As the book defines it: "Each link has unit length, unit mass, a centre of mass half way
// along its length, and a rotational inertia about its centre of mass of 1/12. The joints are
// revolute, and the joint angles alternate between +75 deg and -75 deg ... there are no forces
// acting on it other than the joint forces." So:
//  - link i lies along the x axis of its body frame from 0 to 1; joint i is revolute about
//    z at the link's start; X_T(1) = identity, X_T(i) = xlt([1, 0, 0]) for i > 1;
//  - mass 1, centre of mass (1/2, 0, 0);
//  - rotational inertia about the centre of mass diag(1/120, 1/12, 1/12). Only the z
//    moment, 1/12 (that of a thin uniform rod, m L^2 / 12), enters planar motion about z:
//    the book gives only that one. The other two are free; we choose those of a slender rod
//    along x (transverse 1/12, axial 1/120 > 0 so the tensor is positive definite), which
//    satisfy the triangle inequality strictly (1/12 < 1/12 + 1/120);
//  - no gravity.
// 1/12 and 1/120 are rounded to double once here; Reference sees that double exactly.
//
// With qdd = [1 1 1 1 1 1] at zigzag_q() the book quotes tau = H qdd =
// [126.4936, 97.4663, 69.9762, 43.7998, 21.9371, 6.1646] and cond(H) = 725 (verify/test_cases.cpp
// checks both).
#include <cmath>
#include <stdexcept>
#include <string>

#include "cases/shapes.hpp"

namespace rbd::cases {

// nb identical links as above (the chain of identical links of Featherstone 2004, whose
// worst-case cond(H) grows like 4 N_B^4; section 10.2).
inline Model<double> planar_chain(int nb) {
  if (nb < 1) throw std::invalid_argument("cases::planar_chain: nb must be >= 1 (got " + std::to_string(nb) + ")");
  ModelBuilder mb("planar_chain:nb=" + std::to_string(nb));
  mb.gravity(Vec3d::Zero());
  Mat3d Ic = Mat3d::Zero();
  Ic(0, 0) = 1.0 / 120;
  Ic(1, 1) = 1.0 / 12;
  Ic(2, 2) = 1.0 / 12;
  for (int i = 0; i < nb; ++i) {
    const Transform<double> X = i == 0 ? Transform<double>{} : xlt(Vec3d(1, 0, 0));
    mb.add_body("link" + std::to_string(i + 1), i - 1, make_joint(JointType::Revolute, Vec3d::UnitZ()), X,
                1.0, Vec3d(0.5, 0, 0), Ic);
  }
  return mb.finish();
}

// Figure 10.3's mechanism: the six-link planar_chain.
inline Model<double> zigzag() {
  Model<double> m = planar_chain(6);
  m.name = "zigzag";
  return m;
}

// Joint angles of a zigzag configuration of nb links: +75 deg, -75 deg, +75 deg, ...
// (75 deg = 5 pi / 12 with pi = acos(-1)). H does not depend on q1 (rotating the whole
// mechanism about the first joint axis changes nothing in body coordinates) and is the same
// for the mirror image (all angles negated), so whether the sequence starts at +75 or -75
// does not matter.
inline VecX<double> zigzag_q(int nb = 6) {
  const double pi = std::acos(-1.0);
  const double a = 5 * pi / 12;
  VecX<double> q(nb);
  for (int i = 0; i < nb; ++i) q[i] = (i % 2 == 0) ? a : -a;
  return q;
}

}  // namespace rbd::cases
