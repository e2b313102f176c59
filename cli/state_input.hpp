#pragma once
// The state `rbdlab eval` evaluates at, from --seed and --q/--qd/--qdd/--tau.
//
//  - --seed N: the suite's seeded random state for this model (cases/states.hpp), the same
//    state the gates use for seed N, without external forces.
//  - no --seed: q = the neutral configuration (zero angles and displacements, identity
//    quaternions), qd = qdd = tau = 0.
//  - --q, --qd, --qdd, --tau replace the corresponding part (comma-separated, q has nq
//    numbers, the others nv), in the model's joint order (`rbdlab eval MODEL --json` lists
//    joint names; a spherical joint takes 4 q numbers [w x y z] and 3 velocities, a free joint
//    7 q numbers [w x y z px py pz] and 6 velocities [omega; v] in its body frame).
//  - --forward: hybrid dynamics' split, one number per joint, 1 (forward: tau given) or 0
//    (inverse: qdd given); default the seed's split with --seed, else every joint forward.
//  - --gears D:R:RATIO,...: section 9.6's gear pairs, q_D = RATIO q_R, joints by index; default
//    the seed's pairs with --seed, else none. Checked here (GearMap::build), so a bad pair is a
//    usage error naming the pair.
//  - Quaternions in --q: normalised. If the norm differs from 1 by more than 8 eps (more
//    than rounding of a unit quaternion written to 17 digits), the result carries a warning
//    naming the joint and the norm; a zero quaternion is an error (it has no direction).
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/args.hpp"
#include "cli/numbers.hpp"
#include "cases/states.hpp"
#include "model/configuration.hpp"

namespace rbd::cli {

struct EvalState {
  cases::State x;
  std::vector<std::string> warnings;
};

inline std::string layout_hint(const Model<double>& m, const std::vector<std::string>& joint_names, bool positions) {
  std::ostringstream os;
  for (int i = 0; i < m.nb; ++i) {
    const JointType t = m.joint[i].type;
    const int n = positions ? joint_nq(t) : joint_nv(t);
    os << (i ? ", " : "") << joint_names[i] << " (" << joint_type_name(t) << "): " << n;
  }
  return os.str();
}

inline VecX<double> vector_option(const Args& a, const std::string& name, int expected, const Model<double>& m,
                                  const std::vector<std::string>& joint_names, bool positions) {
  const std::vector<double> v = parse_list(*a.get(name), name);
  if (static_cast<int>(v.size()) != expected)
    throw BadInput(name + ": " + std::to_string(v.size()) + " numbers given, model '" + m.name + "' needs " +
                   std::to_string(expected) + " (" + layout_hint(m, joint_names, positions) + ")");
  return Eigen::Map<const VecX<double>>(v.data(), expected);
}

inline EvalState make_eval_state(const Model<double>& m, const std::vector<std::string>& joint_names, const Args& a) {
  EvalState s;
  if (const std::string* seed = a.get("--seed")) {
    s.x = cases::random_state(m, parse_count(*seed, "--seed", 0, std::numeric_limits<std::uint64_t>::max()));
  } else {
    s.x.q = neutral_configuration(m);
    s.x.qd = s.x.qdd = s.x.tau = VecX<double>::Zero(m.nv);
    s.x.forward.assign(static_cast<std::size_t>(m.nb), 1);
  }
  s.x.f_ext.assign(static_cast<std::size_t>(m.nb), Vec6<double>::Zero());
  if (a.get("--q")) s.x.q = vector_option(a, "--q", m.nq, m, joint_names, true);
  if (a.get("--qd")) s.x.qd = vector_option(a, "--qd", m.nv, m, joint_names, false);
  if (a.get("--qdd")) s.x.qdd = vector_option(a, "--qdd", m.nv, m, joint_names, false);
  if (a.get("--tau")) s.x.tau = vector_option(a, "--tau", m.nv, m, joint_names, false);
  if (a.get("--forward")) {
    const std::vector<double> f = parse_list(*a.get("--forward"), "--forward");
    if (static_cast<int>(f.size()) != m.nb)
      throw BadInput("--forward: " + std::to_string(f.size()) + " numbers given, model '" + m.name + "' has " +
                     std::to_string(m.nb) + " joints (one 1 or 0 each, in joint order)");
    for (std::size_t i = 0; i < f.size(); ++i) {
      if (f[i] != 0 && f[i] != 1)
        throw BadInput("--forward: entry " + std::to_string(i) + " (joint '" + joint_names[i] + "') is not 1 or 0");
      s.x.forward[i] = f[i] == 1;
    }
  }
  if (const std::string* g = a.get("--gears")) {
    s.x.gears.clear();
    std::stringstream items(*g);
    std::string item;
    while (std::getline(items, item, ',')) {
      std::string triple = item;
      for (char& c : triple)
        if (c == ':') c = ',';
      const std::vector<double> v = parse_list(triple, "--gears");
      if (v.size() != 3 || v[0] != std::floor(v[0]) || v[1] != std::floor(v[1]))
        throw BadInput("--gears: " + shown(item) + " is not DRIVEN:DRIVER:RATIO with joint indices DRIVEN and DRIVER");
      s.x.gears.push_back({static_cast<int>(v[0]), static_cast<int>(v[1]), v[2]});
    }
    try {
      (void)GearMap<double>::build(m, s.x.gears);
    } catch (const std::invalid_argument& e) {
      throw BadInput(std::string("--gears: ") + e.what());
    }
  }
  constexpr double eps = std::numeric_limits<double>::epsilon();
  for (int i = 0; i < m.nb; ++i) {
    const JointType t = m.joint[i].type;
    if (t != JointType::Spherical && t != JointType::Free) continue;
    auto quat = s.x.q.segment<4>(m.q_idx[i]);
    const double norm = quat.norm();
    if (!(norm > 0))
      throw BadInput("--q: the quaternion of joint '" + joint_names[i] + "' (q[" + std::to_string(m.q_idx[i]) +
                     ".." + std::to_string(m.q_idx[i] + 3) + "]) is zero; a rotation needs a non-zero quaternion");
    if (std::abs(norm - 1) > 8 * eps) {
      std::ostringstream os;
      os.precision(17);
      os << "--q: the quaternion of joint '" << joint_names[i] << "' had norm " << norm << "; normalised to unit length";
      s.warnings.push_back(os.str());
    }
    quat /= norm;
  }
  return s;
}

}  // namespace rbd::cli
