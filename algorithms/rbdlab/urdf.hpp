#pragma once
// Loading a URDF file into a validated rbd::Model<double> (urdfdom; CMake target rbdlab::urdf).
// The mapping (fixed joints merged, massless links, planar and floating joints, body order =
// the order of q, qd and tau) is documented at the top of cases/urdf_loader.hpp.
//
//   rbdlab::UrdfModel r = rbdlab::load_urdf("robot.urdf");           // fixed base
//   rbdlab::UrdfOptions o; o.floating = true;                         // a free joint at the root link
//   rbdlab::UrdfModel f = rbdlab::load_urdf("robot.urdf", o);
//   r.model        the rbd::Model<double>
//   r.joint_names  the URDF joint of each body, in the order of q, qd, qdd and tau
//   r.warnings     e.g. ignored mimic tags
// Every problem (missing file, malformed URDF, zero mass, NaN, a loop, ...) throws
// rbdlab::UrdfError (a std::runtime_error) naming the file, the link or joint and the problem.
//
// rbdlab's own test robots (ur5, panda, iiwa14, solo12 of ../shared/cases/urdf beside the clone)
// are rbd::cases::urdf_robot(name, shared_dir) (cases/urdf_robots.hpp); without shared_dir the
// folder is the environment variable RBDLAB_SHARED_DIR.
#include <string>

#include "cases/urdf_loader.hpp"
#include "cases/urdf_robots.hpp"

namespace rbdlab {

using UrdfModel = rbd::cases::UrdfModel;
using UrdfOptions = rbd::cases::UrdfOptions;
using UrdfError = rbd::cases::UrdfError;

inline UrdfModel load_urdf(const std::string& path, const UrdfOptions& options = {}) {
  return rbd::cases::load_urdf(path, options);
}

}  // namespace rbdlab
