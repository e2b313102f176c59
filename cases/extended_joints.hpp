#pragma once
// Trees with the joints of algorithms/extended_joints/ (rack-and-pinion, opposite polarity,
// time dependence), drawn in double and cast exactly by whoever needs another scalar.
//
// draw_extensions(m, rng, what): one JointExtension per joint of any tree, drawn joint by joint
// with the same number of draws whatever `what` says (so switching one feature off leaves the
// others' numbers unchanged):
//  - a revolute joint about exactly z becomes a rack-and-pinion joint (Example 4.6) with
//    probability what.rack_probability, radius uniform in [0.05, 0.3];
//  - each joint is reversed (Table 4.2) with probability 1/2 (what.reverse);
//  - each joint is driven (Eq. 3.32) with probability 1/2 (what.drive): rotational or
//    translational with probability 1/2, a uniformly random unit axis, pitch uniform in
//    [0, 0.2] for rotational drives, amplitude in [0.05, 0.3], omega in [0.5, 3] rad/s, phase
//    in [-pi, pi).
// Random states (cases/states.hpp) draw them for every model, last of all, with the time t
// uniform in [0, 2) s, so the extended-joint families run on every case.
// extended_joints_tree(seed, what): all_joints_tree(seed) (every Table 4.1 type, 13 bodies,
// floating base) with extensions drawn from a stream of its own; its one revolute joint about
// z (body 1) is always a rack. extended_time(seed): a time for it, uniform in [0, 2) s.
#include <cstdint>
#include <string>
#include <vector>

#include "cases/all_joints.hpp"
#include "extended_joints/extended_model.hpp"

namespace rbd::cases {

struct ExtendedFeatures {
  bool rack = true, reverse = true, drive = true;
  double rack_probability = 0.5;
};

inline std::vector<JointExtension<double>> draw_extensions(const Model<double>& m, Rng& rng, ExtendedFeatures what = {}) {
  std::vector<JointExtension<double>> ext(m.nb);
  for (int i = 0; i < m.nb; ++i) {
    JointExtension<double>& e = ext[i];
    const bool about_z = m.joint[i].type == JointType::Revolute && m.joint[i].aligned == 2;
    const double u_rack = rng.uniform01(), radius = rng.uniform(0.05, 0.3);
    if (what.rack && about_z && u_rack < what.rack_probability) { e.rack_and_pinion = true; e.radius = radius; }
    const bool reverse = rng.uniform01() < 0.5;  // drawn whether or not it is used
    e.reversed = what.reverse && reverse;
    const bool driven = rng.uniform01() < 0.5;
    Drive<double> d;
    d.rotational = rng.uniform01() < 0.5;
    d.axis = rng.unit_vector();
    d.pitch = d.rotational ? rng.uniform(0, 0.2) : 0.0;
    d.amplitude = rng.uniform(0.05, 0.3);
    d.omega = rng.uniform(0.5, 3);
    d.phase = rng.uniform(-3.141592653589793, 3.141592653589793);
    if (what.drive && driven) e.drive = d;
  }
  return ext;
}

inline ExtendedModel<double> extended_joints_tree(std::uint64_t seed = 1, ExtendedFeatures what = {}) {
  Model<double> tree = all_joints_tree(seed);
  tree.name = "extended_joints" + std::string(seed == 1 ? "" : ":seed=" + std::to_string(seed));
  Rng rng(seed ^ 0x6578745f6a6f696eULL);  // a stream of its own ("ext_join")
  what.rack_probability = 1;
  std::vector<JointExtension<double>> ext = draw_extensions(tree, rng, what);
  return make_extended_model(std::move(tree), std::move(ext));
}

inline double extended_time(std::uint64_t seed) {
  Rng rng(seed ^ 0x74696d65ULL);  // "time"
  return rng.uniform(0, 2);
}

}  // namespace rbd::cases
