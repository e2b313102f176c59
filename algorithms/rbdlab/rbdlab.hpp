#pragma once
// rbdlab, the library: #include <rbdlab/rbdlab.hpp>.
//
//   find_package(rbdlab 0.1 REQUIRED COMPONENTS urdf)    # CMake (README.md, "Using rbdlab from your project")
//   target_link_libraries(app PRIVATE rbdlab::urdf)      # rbdlab::rbdlab (Eigen only) + the URDF loader
//
//   rbdlab::UrdfModel robot = rbdlab::load_urdf("ur5.urdf");     // validated rbd::Model<double>
//   const rbd::Model<double>& model = robot.model;
//   rbdlab::InverseDynamicsWorkspace id(model);                   // each family's workspace, made once
//   rbdlab::MassMatrixWorkspace mm(model);
//   rbdlab::ForwardDynamicsWorkspace fd(model);
//   Eigen::VectorXd tau = rbdlab::inverse_dynamics(id, q, qd, qdd);   // the fastest applicable variant
//   Eigen::MatrixXd H = rbdlab::mass_matrix(mm, q);
//   rbdlab::forward_dynamics<rbd::Aba>(fd, q, qd, tau, qdd);         // a chosen variant, into qdd
//
// What is here:
//   rbdlab/api.hpp        the six families' checked calls, their workspaces, the choice of the
//                         fastest applicable variant (documented there) and the errors
//   rbdlab/urdf.hpp       rbdlab::load_urdf (urdfdom; CMake target rbdlab::urdf), included here
//                         when that target is linked (it defines RBDLAB_WITH_URDF)
//   rbdlab/reference.hpp  the 50-digit rbd::Reference scalar (Boost.Multiprecision; target
//                         rbdlab::reference), included here when that target is linked
// Underneath: the variants themselves (rbd::RneaSpatial::run(...) etc.), the model
// (model/model.hpp: rbd::Model, rbd::ModelBuilder) and the case generators (cases/*.hpp), all
// under the same include root.
#include "rbdlab/api.hpp"
#include "model/model.hpp"
#if defined(RBDLAB_WITH_URDF)
#include "rbdlab/urdf.hpp"
#endif
#if defined(RBDLAB_WITH_REFERENCE)
#include "rbdlab/reference.hpp"
#endif
