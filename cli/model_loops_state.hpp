#pragma once
// `rbdlab eval` on a model with loop joints of its own (an MJCF file's <equality> connect/weld,
// an SDF file's cycle-closing joints): the closed-loop family then evaluates those loops, not the random
// loops a seed draws, at a q that closes them (Eq. 8.24).
//  - --seed N without --q: the seed's state moved onto the loops (cases/model_loop_states.hpp,
//    the states `rbdlab verify` measures);
//  - otherwise q (the neutral configuration, which is the drawn pose and closes them, or --q)
//    must close every loop joint to 1e-9 (m or rad, the loader's test of the drawn pose): else bad
//    input naming the loop joint and its error, unless --project-loops is given, which moves q
//    onto the loops by Gauss-Newton (closed_loop_dynamics/projection.hpp) with a warning saying
//    how far;
//  - qd: the family evaluates at qd projected onto K qd = 0 (Eq. 8.9), as it does for every
//    closed-loop state; a warning says so when a --qd was off by more than 1e-9.
#include <sstream>
#include <string>

#include "cases/model_loop_states.hpp"
#include "cli/args.hpp"
#include "cli/numbers.hpp"
#include "cli/state_input.hpp"

namespace rbd::cli {

inline void use_model_loops(const Model<double>& m, const LoopJoints<double>& loops, const Args& a, EvalState& st) {
  if (loops.empty()) return;
  constexpr double kClosed = 1e-9;
  if (const std::string* seed = a.get("--seed"); seed && !a.get("--q"))
    st.x.q = cases::closed_random_state(m, loops, parse_count(*seed, "--seed", 0, std::numeric_limits<std::uint64_t>::max())).q;
  const bool project = a.flag.count("--project-loops") > 0;
  LoopProjectionWorkspace<double> ws(m);
  VecX<double> q = st.x.q, qd = st.x.qd;
  LoopProjection<double> p;
  try {
    p = project_onto_loops<double>(m, loops, q, qd, ws, kClosed, project ? 50 : 0);
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();  // names the loop joint with the largest error
    if (project) throw BadInput("--project-loops: " + what);
    const std::size_t from = what.find("loop joint"), to = what.find(" (too far");
    throw BadInput("q does not close the model's loops: " + what.substr(from, to - from) +
                   " (more than 1e-9); give a q on the loops, or add --project-loops to move it onto them");
  }
  if (p.iterations > 0) {
    std::ostringstream os;
    os << "--project-loops moved q onto the loop joints: max |dq| = " << (q - st.x.q).cwiseAbs().maxCoeff() << " after "
       << p.iterations << " Gauss-Newton step(s)";
    st.warnings.push_back(os.str());
    st.x.q = q;
  }
  if (a.get("--qd") && p.velocity_error > kClosed) {  // a seed's qd is random, projected by design
    std::ostringstream os;
    os << "qd violates the loops' velocity constraints (max |K qd| = " << p.velocity_error
       << "): closed_loop_dynamics evaluates at qd projected onto K qd = 0 (Eq. 8.9)";
    st.warnings.push_back(os.str());
  }
  st.x.loops = cases::loop_specs_at(m, loops, st.x.q);
}

}  // namespace rbd::cli
