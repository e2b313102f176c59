#pragma once
// The case registry: every named case, its tags, and how to build it from its id.
//
// Id syntax (see cases/README.md):
//   gu:N[:seed=S]                               GU(N), section 10.3
//   tree:bf=B:nb=N[:skew=K][:taper=T]           auto_tree(N, B, K, T) (keys in any order)
//   planar_chain:nb=N                           N identical planar links, section 10.2
//   zigzag                                      Figure 10.3's six-link mechanism
//   all_joints[:seed=S]                         every joint type in one branched tree
//   joint:<name>                                one joint at the root + a revolute child,
//                                               <name> in revolute_x|_y|_z|_axis,
//                                               prismatic_x|_y|_z|_axis, helical, cylindrical,
//                                               planar, spherical, free
//   dh:puma_like                                PUMA-560-like DH chain, section 4.3
//   humanoid[:seed=S]                           37-DoF humanoid-like floating tree (cases/humanoid.hpp)
//   urdf:<robot>                                a robot of ../shared/cases/urdf (dynamics-only
//                                               copy) through the URDF loader, <robot> in
//                                               ur5|panda|iiwa14|solo12 (solo12 with a free root)
// Numbers are read with std::from_chars (locale-independent). build_case throws
// std::invalid_argument naming the problem for any id it cannot build.
#include <charconv>
#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "cases/all_joints.hpp"
#include "cases/auto_tree.hpp"
#include "cases/dh.hpp"
#include "cases/gu.hpp"
#include "cases/humanoid.hpp"
#include "cases/states.hpp"
#include "cases/urdf_robots.hpp"
#include "cases/zigzag.hpp"

namespace rbd::cases {

struct CaseSpec {
  std::string id;
  std::vector<std::string> tags;
  std::function<Model<double>()> build;
};

namespace detail {

inline std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::string cur;
  for (char c : s) {
    if (c == sep) { parts.push_back(cur); cur.clear(); }
    else cur += c;
  }
  parts.push_back(cur);
  return parts;
}

[[noreturn]] inline void bad_id(const std::string& id, const std::string& why) {
  throw std::invalid_argument("unknown or malformed case id '" + id + "': " + why +
                              ". Valid forms: gu:N[:seed=S], tree:bf=B:nb=N[:skew=K][:taper=T], "
                              "planar_chain:nb=N, zigzag, all_joints[:seed=S], joint:<name>, dh:puma_like, humanoid[:seed=S], "
                              "urdf:<robot> (ur5, panda, iiwa14, solo12)");
}

template <class T> T parse_number(const std::string& id, const std::string& key, const std::string& text) {
  T value{};
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end)
    bad_id(id, "'" + key + "' needs a number, got '" + text + "'");
  return value;
}

// key=value pairs after the family name; each key at most once and from `allowed`.
inline std::map<std::string, std::string> parse_keys(const std::string& id, const std::vector<std::string>& parts,
                                                     std::size_t first, const std::vector<std::string>& allowed) {
  std::map<std::string, std::string> kv;
  for (std::size_t k = first; k < parts.size(); ++k) {
    const auto eq = parts[k].find('=');
    if (eq == std::string::npos) bad_id(id, "expected key=value, got '" + parts[k] + "'");
    const std::string key = parts[k].substr(0, eq), value = parts[k].substr(eq + 1);
    bool ok = false;
    for (const auto& a : allowed) ok = ok || a == key;
    if (!ok) bad_id(id, "unknown key '" + key + "'");
    if (!kv.emplace(key, value).second) bad_id(id, "key '" + key + "' given twice");
  }
  return kv;
}

}  // namespace detail

// Builds the model of a case id (syntax above).
inline Model<double> build_case(const std::string& id) {
  using namespace detail;
  const std::vector<std::string> p = split(id, ':');
  const std::string& family = p[0];
  if (family == "gu") {
    if (p.size() < 2) bad_id(id, "gu needs a size, e.g. gu:7");
    const int n = parse_number<int>(id, "n", p[1]);
    if (n < 1) bad_id(id, "gu size must be >= 1");
    const auto kv = parse_keys(id, p, 2, {"seed"});
    const std::uint64_t seed = kv.count("seed") ? parse_number<std::uint64_t>(id, "seed", kv.at("seed")) : 1;
    return gu(n, seed);
  }
  if (family == "tree") {
    const auto kv = parse_keys(id, p, 1, {"bf", "nb", "skew", "taper"});
    if (!kv.count("bf") || !kv.count("nb")) bad_id(id, "tree needs bf= and nb=, e.g. tree:bf=2:nb=15");
    const double bf = parse_number<double>(id, "bf", kv.at("bf"));
    const int nb = parse_number<int>(id, "nb", kv.at("nb"));
    const double skew = kv.count("skew") ? parse_number<double>(id, "skew", kv.at("skew")) : 0.0;
    const double taper = kv.count("taper") ? parse_number<double>(id, "taper", kv.at("taper")) : 1.0;
    if (nb < 1 || !(bf >= 1) || !(taper > 0)) bad_id(id, "need nb >= 1, bf >= 1 and taper > 0");
    return auto_tree(nb, bf, skew, taper);
  }
  if (family == "planar_chain") {
    const auto kv = parse_keys(id, p, 1, {"nb"});
    if (!kv.count("nb")) bad_id(id, "planar_chain needs nb=, e.g. planar_chain:nb=10");
    const int nb = parse_number<int>(id, "nb", kv.at("nb"));
    if (nb < 1) bad_id(id, "nb must be >= 1");
    return planar_chain(nb);
  }
  if (family == "zigzag") {
    if (p.size() != 1) bad_id(id, "zigzag takes no parameters");
    return zigzag();
  }
  if (family == "all_joints") {
    const auto kv = parse_keys(id, p, 1, {"seed"});
    const std::uint64_t seed = kv.count("seed") ? parse_number<std::uint64_t>(id, "seed", kv.at("seed")) : 1;
    return all_joints_tree(seed);
  }
  if (family == "humanoid") {
    const auto kv = parse_keys(id, p, 1, {"seed"});
    const std::uint64_t seed = kv.count("seed") ? parse_number<std::uint64_t>(id, "seed", kv.at("seed")) : 1;
    return humanoid(seed);
  }
  if (family == "joint") {
    if (p.size() != 2) bad_id(id, "expected joint:<name>, e.g. joint:revolute_x");
    try {
      return joint_alone(p[1]);
    } catch (const std::invalid_argument& e) {
      bad_id(id, e.what());
    }
  }
  if (family == "dh") {
    if (p.size() == 2 && p[1] == "puma_like") return puma_like_dh();
    bad_id(id, "the only DH case is dh:puma_like");
  }
  if (family == "urdf") {
    if (p.size() != 2) bad_id(id, "expected urdf:<robot>, e.g. urdf:ur5");
    try {
      return urdf_robot(p[1]).model;  // a missing or bad file throws UrdfError naming it
    } catch (const std::invalid_argument& e) {
      bad_id(id, e.what());
    }
  }
  bad_id(id, "unknown family '" + family + "'");
}

// The cases every gate and the accuracy sweep run on, in a fixed order. Tags: "verify";
// the family ("gu", "tree", "all_joints", "zigzag", "dh", "joint", "urdf", "humanoid"); "single_dof" when every
// joint has one degree of freedom (the domain of the 3D Luh-Walker-Paul algorithm);
// "floating_base" when body 0 has a free joint.
inline std::vector<CaseSpec> verify_cases() {
  std::vector<CaseSpec> out;
  auto push = [&](const std::string& id, const std::string& family) {
    const Model<double> m = build_case(id);  // also validates the id once, here
    std::vector<std::string> tags = {"verify", family};
    if (m.all_single_dof()) tags.push_back("single_dof");
    if (m.joint[0].type == JointType::Free) tags.push_back("floating_base");
    out.push_back(CaseSpec{id, tags, [id] { return build_case(id); }});
  };
  for (int n = 1; n <= 12; ++n) push("gu:" + std::to_string(n), "gu");
  push(auto_tree_id(8, 1), "tree");                 // tree:bf=1:nb=8, a chain
  push(auto_tree_id(15, 2), "tree");                // tree:bf=2:nb=15, a complete binary tree
  push(auto_tree_id(12, 1.5), "tree");              // tree:bf=1.5:nb=12, 1 and 2 children alternately
  push(auto_tree_id(7, 2, 0.5, 0.9), "tree");       // tree:bf=2:nb=7:skew=0.5:taper=0.9, non-planar
  push("all_joints", "all_joints");
  push("zigzag", "zigzag");
  push("dh:puma_like", "dh");
  for (const JointCase& c : joint_cases()) push("joint:" + single_joint_name(c.type, c.axis), "joint");
  for (const UrdfRobot& r : urdf_robots()) push("urdf:" + r.name, "urdf");  // ../shared/cases/urdf
  push("humanoid", "humanoid");                     // 37-DoF floating tree (issue 5), also benchmarked
  return out;
}

}  // namespace rbd::cases
