#pragma once
// States for a model that carries loop joints of its own (an MJCF file's <equality> connect and
// weld, cases/mjcf_loader.hpp; an SDF file's cycle-closing joints, cases/sdf_loader.hpp), so that `rbdlab verify` can hold the closed-loop family to its
// gates on a user's mechanism instead of on loops drawn at random.
//
// The gates' closed-loop family takes its loops per state as LoopSpecs (cases/loops.hpp): the
// successor frame X_S and the loop joint's own coordinates qJ, with the predecessor frame X_P
// re-solved from Eq. 8.24 at q in the scalar that evaluates them, so a double state and a
// Reference state each close the loops to their own precision. A model's loops are fixed frames
// instead, and q has to be moved onto them:
//
//   closed_random_state(m, loops, seed): cases::random_state's draws (qd, tau, f_ext, ...), with
//    - q: the drawn pose (q = 0, which closes the loops: the MJCF loader checks it with MuJoCo's
//      residual, SDF's joint frames close them by construction) moved by the seed's qd scaled to at most 0.3 rad or m per coordinate, then
//      projected onto the loops by Gauss-Newton (closed_loop_dynamics/projection.hpp) to its
//      default 1e3 eps; if that fails (a step across a singular configuration) the step is halved,
//      up to 6 times, and then the drawn pose itself is used;
//    - loops: the model's loop joints as LoopSpecs at that q (loop_spec_at below): X_S as the
//      model has it, qJ read from ^{s,k}X_{p,k} = X_S ^sX_p X_P^-1 at q (Eq. 8.24). close_loops
//      then re-solves X_P, which differs from the model's by the projection's residual
//      (<= 1e3 eps in lengths and angles), the same order as reading the file's decimals.
//   The seed's own random loops are replaced: the model's loops are the mechanism under test.
//
// loop_spec_at supports the loop joint types a model source produces (spherical and weld from
// MJCF; revolute, prismatic, spherical and weld from SDF); another type is a logic_error naming it.
#include <cmath>
#include <stdexcept>
#include <string>

#include "cases/loops.hpp"
#include "cases/states.hpp"
#include "closed_loop_dynamics/projection.hpp"
#include "model/configuration.hpp"

namespace rbd::cases {

// Loop joint L as a LoopSpec at q (X0 = body_transforms(m, q)); q must close L.
inline LoopSpec loop_spec_at(const LoopJoint<double>& L, const std::vector<Transform<double>>& X0) {
  LoopSpec out;
  out.type = L.type;
  out.p = L.p;
  out.s = L.s;
  out.pitch = L.pitch;
  out.name = L.name;
  // X_S's rotation as close_loops rebuilds it: XS.E = quat_to_matrix(u)^T.
  const Eigen::Quaterniond u(Mat3<double>(L.XS.E.transpose()));
  out.XS_quaternion = Eigen::Vector4d(u.w(), u.x(), u.y(), u.z());
  out.XS_offset = L.XS.r;
  if (L.s < 0)  // close_loops solves for X_P on a moving successor (the loader puts the base at p)
    throw std::logic_error("loop_spec_at: loop joint '" + L.name + "' has the base as successor; make it the predecessor");
  const Transform<double> Xsp = L.p < 0 ? X0[L.s] : X0[L.s] * X0[L.p].inverse();  // ^sX_p
  const Transform<double> XJ = L.XS * Xsp * L.XP.inverse();  // ^{s,k}X_{p,k}, Eq. 8.24
  switch (L.type) {
    case LoopJointType::Weld: break;
    case LoopJointType::Revolute: out.qJ[0] = std::atan2(XJ.E(0, 1), XJ.E(0, 0)); break;  // E = rz(th): row 0 = (c, s, 0)
    case LoopJointType::Prismatic: out.qJ[0] = XJ.r[2]; break;                             // r = (0, 0, d)
    case LoopJointType::Spherical: {
      const Eigen::Quaterniond w(Mat3<double>(XJ.E.transpose()));  // XJ.E = quat_to_matrix(qJ)^T
      out.qJ = {w.w(), w.x(), w.y(), w.z()};
      break;
    }
    default:
      throw std::logic_error("loop_spec_at: loop joint '" + L.name + "' is " +
                             std::string(loop_joint_type_name(L.type)) +
                             "; only weld, revolute, prismatic and spherical loop joints come from a model source");
  }
  return out;
}

// Every loop joint as a LoopSpec at q (q must close them).
inline std::vector<LoopSpec> loop_specs_at(const Model<double>& m, const LoopJoints<double>& loops, const VecX<double>& q) {
  const std::vector<Transform<double>> X0 = body_transforms<double>(m, q);
  std::vector<LoopSpec> out;
  for (const LoopJoint<double>& L : loops) out.push_back(loop_spec_at(L, X0));
  return out;
}

// A random state on the model's own loops (see the header).
inline State closed_random_state(const Model<double>& m, const LoopJoints<double>& loops, std::uint64_t seed) {
  State s = random_state(m, seed);
  if (loops.empty()) return s;
  const VecX<double> q0 = neutral_configuration(m);
  const double largest = s.qd.size() ? s.qd.cwiseAbs().maxCoeff() : 0.0;
  const VecX<double> step = largest > 0 ? VecX<double>(s.qd * (0.3 / largest)) : VecX<double>::Zero(m.nv);
  LoopProjectionWorkspace<double> ws(m);
  VecX<double> q = q0, qd = VecX<double>::Zero(m.nv);
  double scale = 1;
  for (int attempt = 0; attempt <= 6; ++attempt, scale /= 2) {
    q = integrate(m, q0, step, scale);
    try {
      project_onto_loops<double>(m, loops, q, qd, ws);
      break;
    } catch (const std::runtime_error&) {
      q = q0;  // the drawn pose closes the loops
    }
  }
  s.q = q;
  s.loops = loop_specs_at(m, loops, q);
  return s;
}

}  // namespace rbd::cases
