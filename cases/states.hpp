#pragma once
// Seeded random dynamic states for any Model<double> (DESIGN.md section 5): made in double,
// then cast exactly to Reference or the counting scalar by whoever needs them.
//
// Draw order (fixed, so a seed always gives the same state for the same model): q joint by
// joint in body order, then qd, qdd, tau (each nv), then f_ext body by body, then the split.
//  - q: revolute and helical angles uniform in [-pi, pi]; prismatic displacements in
//    [-0.5, 0.5]; cylindrical (angle, displacement); planar (angle, x, y); spherical a
//    uniformly random unit quaternion [w x y z]; free (unit quaternion, position in
//    [-0.5, 0.5]^3). (Ranges scaled by StateOptions.)
//  - qd, qdd, tau: uniform in [-1, 1] times StateOptions::velocity, ::acceleration, ::tau;
//  - f_ext: one spatial force [n; f] per body, in that body's coordinates (the convention of
//    ExternalForces in model/workspace.hpp), components uniform in [-1, 1] times ::force;
//  - forward: hybrid dynamics' split (section 9.1), each joint forward (tau given) or inverse
//    (qdd given) with probability 1/2. Drawn last, so every draw above is what it was before
//    the split existed.
//  - gears: section 9.6's gear pairs, drawn after the split (so, again, every draw above is
//    unchanged). Body by body, each 1-DoF joint i draws u in [0, 1); if u < 1/2 and some
//    earlier 1-DoF joint is not driven, joint i is driven by one of those, picked uniformly,
//    with a ratio of magnitude uniform in [0.5, 4] and either sign (real gearboxes reach
//    100:1; a few units keep G^T H G's conditioning, and so the accuracy budgets, in the range
//    of the other families' cases, while every ratio is still a general number).
//  - loops: chapter 8's loop joints (cases/loops.hpp draw_loops), drawn after the gears, last
//    of all, so again every draw above is unchanged. Only their shape is drawn: the frames
//    that make the state close them are solved in the caller's scalar (close_loops).
//  - contacts: chapter 11's point contacts (cases/contacts.hpp draw_contacts), drawn after the
//    loops, last of all, so every draw above is unchanged. Only their shape is drawn: each
//    plane is put through its point at q in the caller's scalar (place_contacts).
//  - joint extensions: rack-and-pinion, reversed and time-dependent joints
//    (cases/extended_joints.hpp draw_extensions), then the time t uniform in [0, 2) s, drawn
//    after the contacts, last of all, so again every draw above is unchanged.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "cases/contacts.hpp"
#include "cases/extended_joints.hpp"
#include "cases/loops.hpp"
#include "cases/random.hpp"
#include "geared_dynamics/gear_map.hpp"
#include "model/workspace.hpp"

namespace rbd::cases {

struct State {
  VecX<double> q, qd, qdd, tau;
  std::vector<Vec6<double>> f_ext;  // one per body, body coordinates
  std::vector<char> forward;        // per joint: nonzero = forward-dynamics joint (hybrid dynamics)
  GearPairs gears;                  // section 9.6's gear pairs (geared dynamics)
  std::vector<LoopSpec> loops;      // chapter 8's loop joints (closed-loop dynamics; cases/loops.hpp)
  std::vector<ContactSpec> contacts;  // chapter 11's point contacts (contact dynamics; cases/contacts.hpp)
  std::vector<JointExtension<double>> extensions;  // joints beyond Table 4.1 (cases/extended_joints.hpp)
  double t = 0;                                    // the time at which the drives of `extensions` are evaluated
};

struct StateOptions {
  double angle = 3.141592653589793;  // |revolute/helical/cylindrical/planar angle| <= angle (pi as a double)
  double displacement = 0.5;         // |prismatic, cylindrical, planar, free translation| <= displacement
  double velocity = 1, acceleration = 1, tau = 1, force = 1;
};

inline State random_state(const Model<double>& m, std::uint64_t seed, const StateOptions& o = {}) {
  Rng rng(seed);
  State s;
  s.q.resize(m.nq);
  for (int i = 0; i < m.nb; ++i) {
    const int k = m.q_idx[i];
    switch (m.joint[i].type) {
      case JointType::Revolute:
      case JointType::Helical:
        s.q[k] = rng.uniform(-o.angle, o.angle);
        break;
      case JointType::Prismatic:
        s.q[k] = rng.uniform(-o.displacement, o.displacement);
        break;
      case JointType::Cylindrical:
        s.q[k] = rng.uniform(-o.angle, o.angle);
        s.q[k + 1] = rng.uniform(-o.displacement, o.displacement);
        break;
      case JointType::Planar:
        s.q[k] = rng.uniform(-o.angle, o.angle);
        s.q[k + 1] = rng.uniform(-o.displacement, o.displacement);
        s.q[k + 2] = rng.uniform(-o.displacement, o.displacement);
        break;
      case JointType::Spherical:
        s.q.segment<4>(k) = rng.unit_quaternion();
        break;
      case JointType::Free:
        s.q.segment<4>(k) = rng.unit_quaternion();
        for (int c = 4; c < 7; ++c) s.q[k + c] = rng.uniform(-o.displacement, o.displacement);
        break;
    }
  }
  auto fill = [&](VecX<double>& x, double scale) {
    x.resize(m.nv);
    for (int k = 0; k < m.nv; ++k) x[k] = scale * rng.uniform(-1, 1);
  };
  fill(s.qd, o.velocity);
  fill(s.qdd, o.acceleration);
  fill(s.tau, o.tau);
  s.f_ext.assign(m.nb, Vec6<double>::Zero());
  for (int i = 0; i < m.nb; ++i)
    for (int c = 0; c < 6; ++c) s.f_ext[i][c] = o.force * rng.uniform(-1, 1);
  s.forward.assign(m.nb, 0);
  for (int i = 0; i < m.nb; ++i) s.forward[i] = rng.uniform(0, 1) < 0.5;
  std::vector<char> driven(m.nb, 0);
  std::vector<int> candidates;
  for (int i = 0; i < m.nb; ++i) {
    if (m.joint[i].nv() != 1 || m.joint[i].nq() != 1) continue;
    if (rng.uniform(0, 1) < 0.5 && !candidates.empty()) {
      const int pick = std::min(static_cast<int>(rng.uniform(0, 1) * candidates.size()),
                                static_cast<int>(candidates.size()) - 1);
      const double magnitude = rng.uniform(0.5, 4), sign = rng.uniform(0, 1) < 0.5 ? -1.0 : 1.0;
      s.gears.push_back({i, candidates[pick], sign * magnitude});
      driven[i] = 1;
    } else {
      candidates.push_back(i);  // undriven: may drive a later joint
    }
  }
  s.loops = draw_loops(m, s.q, rng);
  s.contacts = draw_contacts(m, s.q, s.qd, rng);
  s.extensions = draw_extensions(m, rng);
  s.t = rng.uniform(0, 2);
  return s;
}

// Exact casts of the double data to another scalar (Reference, Counted).
template <class T> VecX<T> to(const VecX<double>& x) {
  return x.unaryExpr([](double v) { return scalar_cast<T>(v); });
}
template <class T> std::vector<Vec6<T>> to(const std::vector<Vec6<double>>& f) {
  std::vector<Vec6<T>> out;
  out.reserve(f.size());
  for (const auto& x : f) out.push_back(x.unaryExpr([](double v) { return scalar_cast<T>(v); }));
  return out;
}

}  // namespace rbd::cases
