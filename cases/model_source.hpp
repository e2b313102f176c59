#pragma once
// What a user names as MODEL on the command line (`rbdlab eval MODEL`, `rbdlab_bench
// --model=MODEL`): a URDF file, an MJCF file or a built-in case id, resolved to one validated
// Model<double> with a name for every joint.
//
// Rule: an argument that names an existing file, or ends in ".urdf" or ".xml", or contains
// a '/', is a file path (so a missing robot file reads "file not found", not "unknown case
// id"); anything else is a case id of cases/registry.hpp. A file whose first element is
// <mujoco> is MJCF, read by MuJoCo's compiler (cases/mjcf_loader.hpp; only in programs built
// with RBDLAB_WITH_MUJOCO, i.e. linked with MuJoCo: the rbdlab command and the benchmarks);
// one whose first element is <sdf> is SDF, read by libsdformat (cases/sdf_loader.hpp; programs
// linked with rbdlab_sdf, which defines RBDLAB_WITH_SDF); any other file is URDF. Joint names:
// the file's (with `root_joint` for the free joint --floating adds to a URDF), the body names
// for a case. Loop joints: an MJCF file's <equality> connect and weld, an SDF file's joints
// that close cycles (URDF has none; the cases' loops are drawn per state).
#include <cctype>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "cases/registry.hpp"
#include "cases/urdf_loader.hpp"
#include "model/loop_joint.hpp"
#ifdef RBDLAB_WITH_MUJOCO
#include "cases/mjcf_loader.hpp"
#endif
#ifdef RBDLAB_WITH_SDF
#include "cases/sdf_loader.hpp"
#endif

namespace rbd::cases {

struct ModelSourceOptions {
  bool floating = false;                  // URDF only: add a free joint at the root link
  std::optional<Vec3<double>> gravity;    // replaces the model's gravity when given
};

struct LoadedModel {
  Model<double> model;
  std::vector<std::string> joint_names;  // one per body, in body (= q, qd) order
  LoopJoints<double> loops;              // MJCF's <equality> connect/weld, SDF's cycle-closing joints; else none
  std::string kind;                      // "urdf", "mjcf", "sdf" or "case"
  std::vector<std::string> warnings;
};

inline bool looks_like_path(const std::string& arg) {
  std::error_code ec;
  if (std::filesystem::exists(arg, ec)) return true;
  auto ends_with = [&](const std::string& suffix) {
    return arg.size() >= suffix.size() && arg.compare(arg.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return arg.find('/') != std::string::npos || ends_with(".urdf") || ends_with(".xml") || ends_with(".sdf");
}

// The name of the file's first element (after the XML declaration and comments), "" if none is
// found in its first 4 kB: "mujoco" for MJCF, "sdf" for SDF, "robot" for URDF.
inline std::string first_element(const std::string& path) {
  std::ifstream f(path);
  std::string head(4096, '\0');
  f.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(f.gcount()));
  std::size_t at = 0;
  for (;;) {
    at = head.find('<', at);
    if (at == std::string::npos) return "";
    if (head.compare(at, 4, "<!--") == 0) {
      at = head.find("-->", at);
      if (at == std::string::npos) return "";
      continue;
    }
    if (head.compare(at, 2, "<?") == 0 || head.compare(at, 2, "<!") == 0) {
      ++at;
      continue;
    }
    std::size_t end = at + 1;
    while (end < head.size() && (std::isalnum(static_cast<unsigned char>(head[end])) || head[end] == '_')) ++end;
    return head.substr(at + 1, end - at - 1);
  }
}

// True if the file's first element (after the XML declaration and comments) is <mujoco>.
inline bool is_mjcf_file(const std::string& path) { return first_element(path) == "mujoco"; }

// Throws UrdfError or MjcfError (bad file) or std::invalid_argument (bad case id, --floating on
// a case or an MJCF file, MJCF in a program built without MuJoCo).
inline LoadedModel load_model_source(const std::string& arg, const ModelSourceOptions& opt = {}) {
  LoadedModel out;
  if (looks_like_path(arg) && is_mjcf_file(arg)) {
    if (opt.floating)
      throw std::invalid_argument("--floating applies to URDF files only; an MJCF file says itself which bodies have "
                                  "free joints");
#ifdef RBDLAB_WITH_MUJOCO
    MjcfOptions mo;
    mo.gravity = opt.gravity;
    MjcfModel mj = load_mjcf(arg, mo);
    out.model = std::move(mj.model);
    out.joint_names = std::move(mj.joint_names);
    out.loops = std::move(mj.loops);
    out.warnings = std::move(mj.warnings);
    out.kind = "mjcf";
    return out;
#else
    throw std::invalid_argument(arg + ": an MJCF file; this program was built without MuJoCo (RBDLAB_WITH_MUJOCO)");
#endif
  }
  if (looks_like_path(arg) && first_element(arg) == "sdf") {
    if (opt.floating)
      throw std::invalid_argument("--floating applies to URDF files only; in an SDF file a link that is no joint's "
                                  "child is floating");
#ifdef RBDLAB_WITH_SDF
    SdfOptions so;
    so.gravity = opt.gravity;
    SdfModel sd = load_sdf(arg, so);
    out.model = std::move(sd.model);
    out.joint_names = std::move(sd.joint_names);
    out.loops = std::move(sd.loops);
    out.warnings = std::move(sd.warnings);
    out.kind = "sdf";
    return out;
#else
    throw std::invalid_argument(arg + ": an SDF file; this program was built without libsdformat (RBDLAB_WITH_SDF)");
#endif
  }
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
