#pragma once
// Random planar models and states (algorithms/planar/): the trees verify/test_planar.cpp checks
// against the spatial algorithms and verify/opcounts.cpp counts. Seeded, so both see the same.
#include <cmath>
#include <cstdint>

#include "cases/random.hpp"
#include "planar/model.hpp"

namespace rbd::cases {

inline planar::Transform<double> random_xpln(Rng& rng) {
  for (;;) {  // a random direction (c, s) by rejection, as Rng::unit_vector (no libm)
    const double x = rng.uniform(-1, 1), y = rng.uniform(-1, 1), n2 = x * x + y * y;
    if (n2 > 1e-4 && n2 <= 1.0) {
      const double n = std::sqrt(n2);
      return planar::Transform<double>{x / n, y / n, planar::Vec2<double>(rng.uniform(-1.5, 1.5), rng.uniform(-1.5, 1.5))};
    }
  }
}

// A random planar tree: body i's parent is i-1 (chain) or any earlier body or the base
// (branched); joints revolute with probability 0.6 (or always), else prismatic along a random
// direction; random tree transforms, masses in [0.5, 2], centres of mass within 0.5 of the
// origin, I_C in [0.05, 0.5]; gravity (0.7, -9.81).
inline planar::Model<double> random_planar(std::uint64_t seed, int n, bool branched, bool revolute_only = false) {
  Rng rng(seed);
  planar::Model<double> m;
  m.gravity = planar::Vec2<double>(0.7, -9.81);
  for (int i = 0; i < n; ++i) {
    const int parent = branched ? static_cast<int>(rng.uniform01() * (i + 1)) - 1 : i - 1;
    planar::Joint<double> j;
    if (!revolute_only && rng.uniform01() >= 0.6) {
      const planar::Transform<double> d = random_xpln(rng);
      j = planar::Joint<double>{planar::JointType::Prismatic, planar::Vec2<double>(d.c, d.s)};
    }
    m.add_body(parent, j, random_xpln(rng), rng.uniform(0.5, 2.0),
               planar::Vec2<double>(rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5)), rng.uniform(0.05, 0.5));
  }
  return m;
}

struct PlanarState {
  VecX<double> q, qd, qdd, tau;
};
inline PlanarState random_pstate(std::uint64_t seed, int n) {
  Rng rng(seed ^ 0x9e3779b97f4a7c15ULL);
  PlanarState s{VecX<double>(n), VecX<double>(n), VecX<double>(n), VecX<double>(n)};
  for (int i = 0; i < n; ++i) {
    s.q[i] = rng.uniform(-3, 3);
    s.qd[i] = rng.uniform(-1, 1);
    s.qdd[i] = rng.uniform(-1, 1);
    s.tau[i] = rng.uniform(-5, 5);
  }
  return s;
}

}  // namespace rbd::cases
