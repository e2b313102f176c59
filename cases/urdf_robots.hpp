#pragma once
// The real robots of ../shared/cases/urdf as registry cases: urdf:ur5, urdf:panda,
// urdf:iiwa14, urdf:solo12 (solo12 with a free joint at its root, as a quadruped is used).
//
// The files are the dynamics-only copies, <shared>/cases/urdf/dynamics_only/<name>.urdf,
// where <shared> is the project's shared folder beside the clone: the compile definition
// RBDLAB_SHARED_DIR when the build sets it (CMake: "${CMAKE_SOURCE_DIR}/../shared"), else
// found from this header's own path (<clone>/cases/urdf_robots.hpp -> <clone>/../shared).
#include <filesystem>
#include <string>
#include <vector>

#include "cases/urdf_loader.hpp"

namespace rbd::cases {

inline std::string shared_dir() {
#ifdef RBDLAB_SHARED_DIR
  return RBDLAB_SHARED_DIR;
#else
  return (std::filesystem::path(__FILE__).parent_path().parent_path().parent_path() / "shared").string();
#endif
}

struct UrdfRobot {
  std::string name;  // id suffix and file stem
  bool floating;     // add a free joint at the root link
};

inline const std::vector<UrdfRobot>& urdf_robots() {
  static const std::vector<UrdfRobot> robots = {
      {"ur5", false}, {"panda", false}, {"iiwa14", false}, {"solo12", true}};
  return robots;
}

inline std::string urdf_robot_path(const std::string& name) {
  return shared_dir() + "/cases/urdf/dynamics_only/" + name + ".urdf";
}

// Loads robot `name` (one of urdf_robots()); the model's name is "urdf:<name>".
// Throws std::invalid_argument for an unknown name, UrdfError if the file is bad or absent.
inline UrdfModel urdf_robot(const std::string& name) {
  for (const UrdfRobot& r : urdf_robots())
    if (r.name == name) {
      UrdfOptions opt;
      opt.floating = r.floating;
      opt.name = "urdf:" + name;
      return load_urdf(urdf_robot_path(name), opt);
    }
  std::string known;
  for (const UrdfRobot& r : urdf_robots()) known += (known.empty() ? "" : ", ") + r.name;
  throw std::invalid_argument("unknown URDF robot '" + name + "' (known: " + known + ")");
}

}  // namespace rbd::cases
