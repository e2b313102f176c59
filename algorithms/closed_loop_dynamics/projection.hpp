#pragma once
// Projection onto the loop constraints, the third way (beside none and Baumgarte's, section
// 8.3) for a simulation that integrates the spanning tree's q and qd to stay on the loops:
// after each step, move q back onto delta(q) = 0 and qd onto K qd = 0.
//
// Position: Gauss-Newton on the loop position errors. delta = jcalc(type, X_S ^sX_p X_P^-1)
// (Table 8.1, Eqs. 8.23-8.24) changes at first order as delta' = K qd (Eqs. 8.25-8.27 with
// Eq. 8.17), so each iteration solves
//     K dq = -delta
// by section 8.8's elimination (complete pivoting, rank test; redundant rows are dropped as
// the dynamics drop them) and moves q (+)= dq (model/configuration.hpp's integrate, so
// quaternion joints stay unit). Near the manifold this converges quadratically; it stops when
// max |delta_i| <= tol, and refuses after max_iterations (a state too far from any closed
// configuration, or a singular one), naming the loop joint with the largest error.
// Velocity: K qd = 0 is linear: one solve, qd -= dqd with K dqd = K qd. Both corrections are
// particular solutions with the elimination's free variables left unchanged (not the
// least-norm ones), which is what keeps the free variables (y of Eq. 8.50) as integrated.
// Scratch: a LoopProjectionWorkspace (the closed-loop workspace and a configuration); nothing is
// allocated once it has seen the loops.
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

#include "closed_loop_dynamics/elimination.hpp"
#include "closed_loop_dynamics/steps.hpp"
#include "model/configuration.hpp"

namespace rbd {

template <class S> struct LoopProjectionWorkspace : ClosedLoopWorkspace<S> {
  VecX<S> q_next;  // q (+) dq (integrate_into may not write over its input)
  LoopProjectionWorkspace() = default;
  explicit LoopProjectionWorkspace(const Model<S>& m) : ClosedLoopWorkspace<S>(m), q_next(VecX<S>::Zero(m.nq)) {}
};

template <class S> struct LoopProjection {
  int iterations = 0;  // Gauss-Newton steps taken
  S position_error;    // max |delta_i| after them
  S velocity_error;    // max |(K qd)_i| before the velocity projection
};

namespace loop_projection_detail {
inline std::string shortest(double x) {  // 3e-07, not to_string's 0.000000
  std::ostringstream os;
  os << x;
  return os.str();
}
// delta of every loop joint into ws.k (rows as K's), from ws.X0 (set by loop_constraints).
template <class S> S position_errors(const LoopJoints<S>& loops, ClosedLoopWorkspace<S>& ws, std::size_t* worst) {
  S largest = S(0);
  for (std::size_t l = 0; l < loops.size(); ++l) {
    const LoopJoint<S>& L = loops[l];
    const Transform<S> Xp = L.p < 0 ? L.XP : L.XP * ws.X0[L.p];
    const Transform<S> Xs = L.s < 0 ? L.XS : L.XS * ws.X0[L.s];
    S delta[6];
    loops::loop_position_error<S>(L.type, L.pitch, Xs * Xp.inverse(), delta);  // Eqs. 8.23-8.24
    for (int c = 0; c < L.nc(); ++c) {
      ws.k[ws.row0[l] + c] = -delta[c];
      if (abs_(delta[c]) > largest) {
        largest = abs_(delta[c]);
        *worst = l;
      }
    }
  }
  return largest;
}

// K (Table 8.4) at q, with the velocity terms of k left out (qd = 0 in the RNEA pass).
template <class S>
void constraint_jacobian(const Model<S>& m, const LoopJoints<S>& loops, const VecX<S>& q, ClosedLoopWorkspace<S>& ws) {
  RneaSpatial::run<S>(m, q, ws.zero, ws.zero, nullptr, ws.C, ws);  // ^iX_lambda(i) (and v = 0) for Table 8.4
  loops::loop_constraints<S>(m, loops, ws);
  loops::require_finite<S>(ws.K, ws.k);
}
}  // namespace loop_projection_detail

// Projects (q, qd) onto the loops in place. tol: the largest |delta_i| accepted (m or rad);
// the default, 1e3 eps of S, is a few hundred roundings of O(1 m) lengths.
template <class S>
LoopProjection<S> project_onto_loops(const Model<S>& m, const LoopJoints<S>& loops, VecX<S>& q, VecX<S>& qd,
                                     LoopProjectionWorkspace<S>& ws,
                                     const S& tol = S(1000) * S(Eigen::NumTraits<S>::epsilon()),
                                     int max_iterations = 20) {
  using namespace loop_projection_detail;
  if (q.size() != m.nq || qd.size() != m.nv)
    throw std::invalid_argument("project_onto_loops: q and qd must have nq = " + std::to_string(m.nq) +
                                " and nv = " + std::to_string(m.nv) + " entries");
  if (!q.allFinite() || !qd.allFinite()) throw std::invalid_argument("project_onto_loops: q or qd is not finite");
  if (!(tol > S(0))) throw std::invalid_argument("project_onto_loops: tol must be positive");
  ws.prepare(m, loops);
  const S saved_alpha = ws.stab.alpha, saved_beta = ws.stab.beta;
  ws.stab.alpha = ws.stab.beta = S(0);  // k is used for delta here, not for the dynamics
  LoopProjection<S> out;
  std::size_t worst = 0;
  for (;;) {
    constraint_jacobian<S>(m, loops, q, ws);
    out.position_error = position_errors<S>(loops, ws, &worst);
    if (out.position_error <= tol) break;
    if (out.iterations == max_iterations) {
      ws.stab.alpha = saved_alpha;
      ws.stab.beta = saved_beta;
      throw std::runtime_error("project_onto_loops: no closed configuration reached after " +
                               std::to_string(max_iterations) + " Gauss-Newton steps; loop joint " +
                               std::to_string(worst) + (loops[worst].name.empty() ? "" : " ('" + loops[worst].name + "')") +
                               " is still open by " + shortest(static_cast<double>(out.position_error)) +
                               " (too far from a closed configuration, or a singular one)");
    }
    loops::eliminate<S>(ws);                       // K dq = -delta (section 8.8)
    loops::null_space_form<S>(ws);
    integrate_into<S>(m, q, ws.g, S(1), ws.q_next);  // q (+)= dq
    q = ws.q_next;
    ++out.iterations;
  }
  ws.k.noalias() = ws.K * qd;                      // K at the projected q
  out.velocity_error = ws.k.cwiseAbs().maxCoeff();
  loops::eliminate<S>(ws);                         // K dqd = K qd
  loops::null_space_form<S>(ws);
  qd -= ws.g;
  ws.stab.alpha = saved_alpha;
  ws.stab.beta = saved_beta;
  return out;
}

}  // namespace rbd
