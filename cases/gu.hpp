#pragma once
// GU(n), Featherstone section 10.3: "the unbranched kinematic chains in which all the joints
// are revolute, and all the bodies have general inertia and geometric parameters" -- the
// standard set on which Table 10.1's operation counts are quoted.
//
// rbdlab's GU(n), for a seed:
//  - bodies 0..n-1, parent[i] = i - 1 (body 0 on the fixed base);
//  - every joint revolute about the z axis of its joint frames (Table 4.1 row 1, so jcalc
//    takes the cheap rz path, as the book's counts assume);
//  - general tree transforms X_T(i) = rot(E) xlt(r): E a uniformly random rotation, r in a
//    random direction with |r| uniform in [0.1, 0.5] (also for body 0, so even the first
//    joint axis is general relative to the base);
//  - general inertias: mass uniform in [0.5, 5], centre of mass at distance uniform in
//    [0.05, 0.15] in a random direction, full rotational inertia tensor with random
//    principal axes (see random_body in cases/shapes.hpp);
//  - gravity (0, 0, -9.81) in base coordinates.
// The bodies are drawn one after the other from one Rng(seed), so GU(m) is exactly the first
// m bodies of GU(n) for m < n with the same seed.
//
// Note the book's counts assume Denavit-Hartenberg frames (section 10.3.1, optimisation 1);
// GU(n) here uses general transforms, which is what the general-purpose algorithms see.
// cases/dh.hpp builds DH chains when the DH structure is wanted.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "cases/shapes.hpp"

namespace rbd::cases {

namespace gu_detail {
// The bodies of GU(n), drawn one after the other from Rng(seed); body 0's joint is `root`.
inline Model<double> chain(const std::string& family, int n, std::uint64_t seed, JointType root) {
  if (n < 1) throw std::invalid_argument("cases::" + family + ": n must be >= 1 (got " + std::to_string(n) + ")");
  Rng rng(seed);
  ModelBuilder mb(family + ":" + std::to_string(n) + (seed == 1 ? "" : ":seed=" + std::to_string(seed)));
  mb.gravity(Vec3d(0, 0, -9.81));
  for (int i = 0; i < n; ++i) {
    const Transform<double> X = random_xtree(rng);
    const BodyInertia b = random_body(rng);
    add(mb, "link" + std::to_string(i + 1), i - 1, make_joint(i == 0 ? root : JointType::Revolute, Vec3d::UnitZ()), X, b);
  }
  return mb.finish();
}
}  // namespace gu_detail

inline Model<double> gu(int n, std::uint64_t seed = 1) { return gu_detail::chain("gu", n, seed, JointType::Revolute); }

// GU(n) as a floating-base system (Featherstone section 9.3): the same bodies, transforms and
// draws as gu(n, seed), but body 0 hangs on a free joint instead of a revolute one (nv = n + 5).
// The set on which verify/opcounts.cpp counts the floating-base variants (algorithms/
// floating_base/), which apply only to such trees. Not a registry id.
inline Model<double> gu_floating(int n, std::uint64_t seed = 1) {
  return gu_detail::chain("gu_floating", n, seed, JointType::Free);
}

}  // namespace rbd::cases
