#pragma once
// A dynamic state in any scalar, cast from the double state the case generators make.
// Quaternions are renormalised in the target precision (a double quaternion is unit only
// to ~1e-16), for the same reason Model::cast makes rotations exactly orthonormal.
#include "cases/states.hpp"
#include "model/configuration.hpp"
#include "model/workspace.hpp"

namespace rbd::verify {

template <class S> struct StateOf {
  VecX<S> q, qd, qdd, tau;
  ExternalForces<S> f_ext;
  std::vector<char> forward;  // hybrid dynamics' split, per joint (cases/states.hpp)
  GearPairs gears;            // geared dynamics' gear pairs (cases/states.hpp)
  // Closed-loop dynamics' loop joints, as drawn (cases/loops.hpp): their frames are solved at q in
  // the scalar that evaluates them (close_loops), so they stay specs here.
  std::vector<cases::LoopSpec> loop_specs;
  // Contact dynamics' point contacts, as drawn (cases/contacts.hpp): each plane is put through its
  // point at q in the scalar that evaluates them (place_contacts).
  std::vector<cases::ContactSpec> contact_specs;
  // The extended-joint families' joint extensions and time (cases/extended_joints.hpp).
  std::vector<JointExtension<S>> extensions;
  S t = S(0);
};

template <class S> StateOf<S> cast_state(const Model<S>& m, const cases::State& x) {
  auto c = [](double v) { return scalar_cast<S>(v); };
  StateOf<S> s{x.q.unaryExpr(c), x.qd.unaryExpr(c), x.qdd.unaryExpr(c), x.tau.unaryExpr(c), {}, {}, {}, {}, {}, {}, c(x.t)};
  normalize_quaternions(m, s.q);
  for (const auto& f : x.f_ext) s.f_ext.push_back(f.unaryExpr(c));
  s.forward = x.forward;
  s.gears = x.gears;
  s.loop_specs = x.loops;
  s.contact_specs = x.contacts;
  for (const auto& e : x.extensions) s.extensions.push_back(e.template cast<S>());
  return s;
}

}  // namespace rbd::verify
