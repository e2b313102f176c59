#pragma once
// The real robots of ../shared/cases/urdf as registry cases: urdf:ur5, urdf:panda,
// urdf:iiwa14, urdf:solo12 (solo12 with a free joint at its root, as a quadruped is used).
//
// The files are the dynamics-only copies, <shared>/cases/urdf/dynamics_only/<name>.urdf,
// where <shared> is the project's shared folder (../shared beside the clone), in this order:
//  1. the directory passed as urdf_robot(name, dir) / urdf_robot_path(name, dir);
//  2. the compile definition RBDLAB_SHARED_DIR, which rbdlab's own build sets
//     ("${CMAKE_SOURCE_DIR}/../shared" on rbdlab_core; the installed targets do not);
//  3. the environment variable RBDLAB_SHARED_DIR.
// With none of them, shared_dir() throws UrdfError saying how to set it: installed headers do
// not know where the source tree was.
#include <cstdlib>
#include <string>
#include <vector>

#include "cases/urdf_loader.hpp"

namespace rbd::cases {

inline std::string shared_dir() {
#ifdef RBDLAB_SHARED_DIR
  return RBDLAB_SHARED_DIR;
#else
  if (const char* env = std::getenv("RBDLAB_SHARED_DIR"); env != nullptr && *env != '\0') return env;
  throw UrdfError(
      "the shared robots' folder is not known: set the environment variable RBDLAB_SHARED_DIR to the folder that "
      "holds cases/urdf/dynamics_only/ (rbdlab's ../shared), or pass it as urdf_robot(name, dir)");
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

inline std::string urdf_robot_path(const std::string& name, const std::string& dir) {
  return dir + "/cases/urdf/dynamics_only/" + name + ".urdf";
}
inline std::string urdf_robot_path(const std::string& name) { return urdf_robot_path(name, shared_dir()); }

// The entry of urdf_robots() called `name`; std::invalid_argument listing the known ones otherwise.
inline const UrdfRobot& find_urdf_robot(const std::string& name) {
  for (const UrdfRobot& r : urdf_robots())
    if (r.name == name) return r;
  std::string known;
  for (const UrdfRobot& r : urdf_robots()) known += (known.empty() ? "" : ", ") + r.name;
  throw std::invalid_argument("unknown URDF robot '" + name + "' (known: " + known + ")");
}

// Loads robot `name` (one of urdf_robots()) from <dir>/cases/urdf/dynamics_only/; the model's name
// is "urdf:<name>". Throws std::invalid_argument for an unknown name, UrdfError if the file is bad
// or absent.
inline UrdfModel urdf_robot(const std::string& name, const std::string& dir) {
  const UrdfRobot& r = find_urdf_robot(name);
  UrdfOptions opt;
  opt.floating = r.floating;
  opt.name = "urdf:" + name;
  return load_urdf(urdf_robot_path(name, dir), opt);
}
// The same from shared_dir() (UrdfError when that is not known, see above).
inline UrdfModel urdf_robot(const std::string& name) { return urdf_robot(find_urdf_robot(name).name, shared_dir()); }

}  // namespace rbd::cases
