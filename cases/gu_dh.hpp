#pragma once
// GU(n) as Featherstone section 10.3 counts it: an unbranched chain of n revolute joints
// with general inertias and general geometric parameters, in Denavit-Hartenberg frames
// (section 10.3.1, optimisation 1) with the joint variable equal to the DH angle theta_i
// (section 4.3: "if joint i is revolute, then theta_i is its joint variable").
//
// rbdlab's gu(n) (cases/gu.hpp) draws a general X_T(i) for every body, so its joint zeros
// are not DH zeros: there, putting the chain in DH frames leaves a constant angle offset per
// joint (model/dh_frames.hpp). This family has none, so the DH variants' counts on it can be
// laid beside Table 10.1's rows exactly.
//
// Body i (parent i - 1): X_T(i) = xlt([0 0 d_i]) rotx(alpha_i) xlt([a_i 0 0]) (section 4.3's
// xlt([a_i 0 d_i]) rotx(alpha_i)) with a_i uniform in [0.1, 0.5], d_i uniform in [-0.3, 0.3],
// alpha_i a uniformly random angle drawn as a random unit vector (cos, sin) (no sin/cos
// calls, so the numbers are platform-independent, cases/random.hpp); body 0 gets a general
// base transform (the book's X_T(1) with its base part). Inertias as in gu(n) (random_body),
// gravity (0, 0, -9.81). One Rng(seed) in body order, so gu_dh(m) is a prefix of gu_dh(n).
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "cases/shapes.hpp"

namespace rbd::cases {

namespace detail {
// xlt([0 0 d]) rotx(alpha) xlt([a 0 0]) with a in [0.1, 0.5], d in [-0.3, 0.3] and
// (cos alpha, sin alpha) uniform on the circle, by rejection (no sin/cos calls).
inline Transform<double> random_dh_link(Rng& rng) {
  const double a = rng.uniform(0.1, 0.5), d = rng.uniform(-0.3, 0.3);
  for (;;) {
    const double x = rng.uniform(-1, 1), y = rng.uniform(-1, 1), r2 = x * x + y * y;
    if (r2 > 1e-4 && r2 <= 1.0) {
      const double c = x / std::sqrt(r2), s = y / std::sqrt(r2);
      return xlt(Vec3d(0, 0, d)) * rot(rx<double>(c, s)) * xlt(Vec3d(a, 0, 0));
    }
  }
}
}  // namespace detail

inline Model<double> gu_dh(int n, std::uint64_t seed = 1) {
  if (n < 1) throw std::invalid_argument("cases::gu_dh: n must be >= 1 (got " + std::to_string(n) + ")");
  Rng rng(seed);
  ModelBuilder mb("gu_dh:" + std::to_string(n) + (seed == 1 ? "" : ":seed=" + std::to_string(seed)));
  mb.gravity(Vec3d(0, 0, -9.81));
  for (int i = 0; i < n; ++i) {
    const Transform<double> X = i == 0 ? random_xtree(rng) : detail::random_dh_link(rng);
    const BodyInertia b = random_body(rng);
    add(mb, "link" + std::to_string(i + 1), i - 1, make_joint(JointType::Revolute, Vec3d::UnitZ()), X, b);
  }
  return mb.finish();
}

// A binary tree for section 10.3.2 / Eq. 10.12: body k (0-based) has parent (k - 1) / 2; the
// first child of every body is joined to it by a DH link (as in gu_dh, theta = q), the second
// by a general transform (random_xtree), so both kinds of Eq. 10.11's D quantities occur.
// Body 0 has a general base transform. Revolute joints about z, random_body inertias.
inline Model<double> binary_dh(int n, std::uint64_t seed = 1) {
  if (n < 1) throw std::invalid_argument("cases::binary_dh: n must be >= 1 (got " + std::to_string(n) + ")");
  Rng rng(seed);
  ModelBuilder mb("binary_dh:" + std::to_string(n) + (seed == 1 ? "" : ":seed=" + std::to_string(seed)));
  mb.gravity(Vec3d(0, 0, -9.81));
  for (int i = 0; i < n; ++i) {
    const int parent = i == 0 ? -1 : (i - 1) / 2;
    const Transform<double> X = (i % 2 == 1) ? detail::random_dh_link(rng) : random_xtree(rng);
    add(mb, "link" + std::to_string(i + 1), parent, make_joint(JointType::Revolute, Vec3d::UnitZ()), X,
        random_body(rng));
  }
  return mb.finish();
}

}  // namespace rbd::cases
