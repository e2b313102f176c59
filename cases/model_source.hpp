#pragma once
// What a user names as MODEL on the command line (`rbdlab eval MODEL`, `rbdlab_bench
// --model=MODEL`): a URDF file or a built-in case id, resolved to one validated Model<double>
// with a name for every joint.
//
// Rule: an argument that names an existing file, or ends in ".urdf" or ".xml", or contains
// a '/', is a URDF path (so a missing robot file reads "file not found", not "unknown case
// id"); anything else is a case id of cases/registry.hpp. Joint names: URDF joint names for
// a URDF (with `root_joint` for the free joint --floating adds), the body names for a case.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cases/registry.hpp"
#include "cases/urdf_loader.hpp"

namespace rbd::cases {

struct ModelSourceOptions {
  bool floating = false;                  // URDF only: add a free joint at the root link
  std::optional<Vec3<double>> gravity;    // replaces the model's gravity when given
};

struct LoadedModel {
  Model<double> model;
  std::vector<std::string> joint_names;  // one per body, in body (= q, qd) order
  std::string kind;                      // "urdf" or "case"
  std::vector<std::string> warnings;
};

inline bool looks_like_path(const std::string& arg) {
  std::error_code ec;
  if (std::filesystem::exists(arg, ec)) return true;
  auto ends_with = [&](const std::string& suffix) {
    return arg.size() >= suffix.size() && arg.compare(arg.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return arg.find('/') != std::string::npos || ends_with(".urdf") || ends_with(".xml");
}

// Throws UrdfError (bad file) or std::invalid_argument (bad case id, or --floating on a case).
inline LoadedModel load_model_source(const std::string& arg, const ModelSourceOptions& opt = {}) {
  LoadedModel out;
  if (looks_like_path(arg)) {
    UrdfOptions uo;
    uo.floating = opt.floating;
    if (opt.gravity) uo.gravity = *opt.gravity;
    UrdfModel u = load_urdf(arg, uo);
    out.model = std::move(u.model);
    out.joint_names = std::move(u.joint_names);
    out.warnings = std::move(u.warnings);
    out.kind = "urdf";
    return out;
  }
  if (opt.floating)
    throw std::invalid_argument("--floating applies to URDF files only; case '" + arg +
                                "' has its base fixed or floating by definition");
  out.model = build_case(arg);
  if (opt.gravity) out.model.gravity = *opt.gravity;
  out.joint_names = out.model.body_name;
  out.kind = "case";
  return out;
}

}  // namespace rbd::cases
