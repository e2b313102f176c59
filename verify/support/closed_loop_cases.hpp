#pragma once
// Closed-loop states for the tests of chapter 8's functions that are not family variants
// (loop_inverse_dynamics, project_onto_loops), and loop_qdd, a variant's qdd as a value: verify cases with the loop joints
// cases::random_state draws, their frames solved so that the state closes them in Reference and
// qd projected onto K's null space in Reference (cases/loops.hpp), as the gates' states are.
#include <string>
#include <vector>

#include "cases/loops.hpp"
#include "cases/registry.hpp"
#include "cases/states.hpp"
#include "reference/reference_scalar.hpp"
#include "verify/support/state.hpp"

namespace rbd::verify {

struct ClosedLoopCase {
  std::string label;
  Model<Reference> m;
  LoopJoints<Reference> loops;
  VecX<Reference> q, qd, tau;
};

// Seeds 1-3 of four trees (a chain, a binary tree, every joint type, a floating humanoid);
// the seeds that draw no loop are skipped.
inline std::vector<ClosedLoopCase> closed_loop_cases() {
  using R = Reference;
  std::vector<ClosedLoopCase> out;
  for (const std::string id : {"gu:7", "tree:bf=2:nb=15", "all_joints", "humanoid"}) {
    const Model<double> md = cases::build_case(id);
    for (int seed = 1; seed <= 3; ++seed) {
      const cases::State s = cases::random_state(md, static_cast<std::uint64_t>(seed));
      if (s.loops.empty()) continue;
      ClosedLoopCase c;
      c.label = id + " seed " + std::to_string(seed);
      c.m = md.cast<R>();
      const StateOf<R> x = cast_state<R>(c.m, s);
      c.q = x.q;
      c.loops = cases::close_loops<R>(c.m, c.q, s.loops);
      c.qd = cases::consistent_velocity<R>(c.m, c.loops, c.q, x.qd);
      c.tau = x.tau;
      out.push_back(std::move(c));
    }
  }
  return out;
}

// qdd of closed-loop variant V at the state (a convenience for the tests' comparisons).
template <class V, class S>
VecX<S> loop_qdd(const Model<S>& m, const LoopJoints<S>& loops, const VecX<S>& q, const VecX<S>& qd,
                 const VecX<S>& tau, ClosedLoopWorkspace<S>& ws) {
  VecX<S> qdd(m.nv);
  V::template run<S>(m, loops, q, qd, tau, nullptr, qdd, ws);
  return qdd;
}

}  // namespace rbd::verify
