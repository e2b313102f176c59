#pragma once
// The mechanism of the maximal-vs-minimal comparison (issue 7): a chain ground -revolute(z)->
// body 0 -spherical-> body 1 -prismatic(z)-> body 2, and a floating body 3 (free joint to
// the ground), under gravity. Built in double with ModelBuilder (validated) and cast exactly
// to Reference; random states from cases::Rng, quaternions normalised in the target scalar.
#include <cstdint>

#include "cases/random.hpp"
#include "constraints/maximal_coordinates.hpp"
#include "model/model.hpp"

namespace rbd::verify::constraints {

inline Model<double> lock_mechanism() {
  cases::Rng rng(2024);
  ModelBuilder b("lock_mechanism");
  b.gravity(Vec3<double>(0, 0, -9.81));
  auto tree = [&](double scale) {
    const Eigen::Vector4d q = rng.unit_quaternion();
    const Quaternion<double> u{q[0], Vec3<double>(q[1], q[2], q[3])};
    return Transform<double>{u.matrix().transpose(), Vec3<double>(rng.uniform(-scale, scale), rng.uniform(-scale, scale), rng.uniform(-scale, scale))};
  };
  auto inertia = [&]() {
    const Vec3<double> d(rng.uniform(0.5, 1), rng.uniform(0.5, 1), rng.uniform(0.5, 1));
    Mat3<double> I = d.asDiagonal();
    I(0, 1) = I(1, 0) = rng.uniform(-0.1, 0.1);
    return I;
  };
  auto com = [&]() { return Vec3<double>(rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3)); };
  auto joint = [](JointType t) { Joint<double> j; j.type = t; return j; };
  b.add_body("revolute", -1, joint(JointType::Revolute), tree(0.5), rng.uniform(1, 2), com(), inertia());
  b.add_body("spherical", 0, joint(JointType::Spherical), tree(0.5), rng.uniform(1, 2), com(), inertia());
  b.add_body("prismatic", 1, joint(JointType::Prismatic), tree(0.5), rng.uniform(1, 2), com(), inertia());
  b.add_body("floating", -1, joint(JointType::Free), tree(0.5), rng.uniform(1, 2), com(), inertia());
  return b.finish();
}

// A random (q, qd) of the mechanism in scalar S (q: 1 + 4 + 1 + 7 numbers, qd: 1 + 3 + 1 + 6).
template <class S> void mechanism_state(const Model<S>& m, std::uint64_t seed, VecX<S>& q, VecX<S>& qd) {
  cases::Rng rng(seed);
  q.resize(m.nq);
  qd.resize(m.nv);
  for (int k = 0; k < m.nq; ++k) q[k] = S(rng.uniform(-1, 1));
  for (int k = 0; k < m.nv; ++k) qd[k] = S(rng.uniform(-1, 1));
  for (int i = 0; i < m.nb; ++i)
    if (m.joint[i].type == JointType::Spherical || m.joint[i].type == JointType::Free) {
      auto quat = q.segment(m.q_idx[i], 4);
      quat /= sqrt_(S(quat.squaredNorm()));
    }
}

}  // namespace rbd::verify::constraints
