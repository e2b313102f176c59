// Projection onto the loop constraints (section 8.3's third option beside none and Baumgarte,
// algorithms/closed_loop_dynamics/projection.hpp), checked with the loop oracle's own closure
// function and constraint Jacobian (reference/loop_oracle.hpp: 4x4 poses, dual numbers; no code
// shared with the projection's Table 8.1 errors and Table 8.4 Jacobian):
//  a. a state moved off the loops by 1e-4 (q) and given an arbitrary qd comes back: the oracle's
//     closure residual and Phi qd at rounding, in at most 6 Gauss-Newton steps (quadratic
//     convergence from 1e-4 reaches 1e-48 in 4-5), and q moved by no more than the perturbation's
//     order (the nearby closed configuration, not another branch);
//  b. a state already on the loops is left as it is (no step, qd changed at rounding);
//  c. in double, the four-bar from 1e-3 off to the default tolerance;
//  d. refusals: a mechanism that cannot close (after max_iterations, naming the loop joint),
//     sizes, NaN, a non-positive tolerance.
// Tolerances: in Reference, the projection stops at max |delta| <= 1e3 eps (1e-47); the oracle's
// rows are other functions of the same error, of the same size for O(1) mechanisms, so 1e-44
// leaves a margin of 1e3 while an unprojected state misses by 1e-4.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cases/four_bar.hpp"
#include "cases/loops.hpp"
#include "cases/registry.hpp"
#include "cases/states.hpp"
#include "closed_loop_dynamics/projection.hpp"
#include "reference/loop_oracle.hpp"
#include "reference/reference_scalar.hpp"
#include "verify/support/closed_loop_cases.hpp"
#include "verify/support/message_of.hpp"
#include "verify/support/state.hpp"

namespace test_loop_projection {  // unity build: this file's names stay its own

using namespace rbd;
using R = Reference;

namespace {

const R kOnLoops("1e-44");

using Closed = verify::ClosedLoopCase;
std::vector<Closed> closed_cases() { return verify::closed_loop_cases(); }

R velocity_residual(const Closed& c, const VecX<R>& q, const VecX<R>& qd) {
  return (oracle::loop_constraint_jacobian<R>(c.m, c.loops, q) * qd).cwiseAbs().maxCoeff();
}

}  // namespace

TEST_CASE("projection: a state off the loops returns to them, quadratically", "[loop_projection]") {
  const std::vector<Closed> cs = closed_cases();
  REQUIRE(cs.size() >= 6);
  for (const Closed& c : cs) {
    INFO(c.label);
    VecX<R> dv(c.m.nv), qd(c.m.nv);
    for (int k = 0; k < c.m.nv; ++k) {
      dv[k] = R((k * 7 % 5) - 2) * R("5e-5");  // entries in {-1e-4, ..., 1e-4}: off the loops
      qd[k] = R((k * 3 % 7) - 3) / 3;          // an arbitrary qd, not consistent
    }
    VecX<R> q = integrate<R>(c.m, c.q, dv, R(1));
    REQUIRE(oracle::loop_closure_residual<R>(c.m, c.loops, q).cwiseAbs().maxCoeff() > R("1e-7"));
    LoopProjectionWorkspace<R> ws(c.m);
    const LoopProjection<R> r = project_onto_loops<R>(c.m, c.loops, q, qd, ws);
    INFO("iterations " << r.iterations << ", position error " << r.position_error.str(3));
    CHECK(r.iterations <= 6);
    CHECK(oracle::loop_closure_residual<R>(c.m, c.loops, q).cwiseAbs().maxCoeff() <= kOnLoops);
    CHECK(velocity_residual(c, q, qd) <= kOnLoops * (1 + qd.cwiseAbs().maxCoeff()));
    // The nearby closed configuration: within a few times the perturbation (chart differences
    // of quaternions are O(|dv|) too).
    CHECK((q - c.q).cwiseAbs().maxCoeff() <= R("1e-3"));
  }
}

TEST_CASE("projection: a state on the loops is left as it is", "[loop_projection]") {
  for (const Closed& c : closed_cases()) {
    INFO(c.label);
    VecX<R> q = c.q, qd = c.qd;
    LoopProjectionWorkspace<R> ws(c.m);
    const LoopProjection<R> r = project_onto_loops<R>(c.m, c.loops, q, qd, ws);
    CHECK(r.iterations == 0);
    CHECK(q == c.q);
    CHECK((qd - c.qd).cwiseAbs().maxCoeff() <= kOnLoops * (1 + c.qd.cwiseAbs().maxCoeff()));
  }
}

TEST_CASE("projection: the four-bar in double, and refusals", "[loop_projection]") {
  const cases::FourBar fb = cases::four_bar(cases::four_bar_crank_rocker());
  const cases::FourBarState<double> st = cases::four_bar_state<double>(fb.params, 0.9, 1.5);
  const double eps = std::numeric_limits<double>::epsilon();
  LoopProjectionWorkspace<double> ws(fb.model);
  VecX<double> q = st.q + Eigen::Vector3d(1e-3, -2e-3, 1.5e-3), qd = st.qd + Eigen::Vector3d(0.1, 0, -0.2);
  const LoopProjection<double> r = project_onto_loops<double>(fb.model, fb.loops, q, qd, ws);
  INFO("iterations " << r.iterations);
  CHECK(r.iterations <= 6);
  CHECK(oracle::loop_closure_residual<double>(fb.model, fb.loops, q).cwiseAbs().maxCoeff() <= 1e4 * eps);
  CHECK((oracle::loop_constraint_jacobian<double>(fb.model, fb.loops, q) * qd).cwiseAbs().maxCoeff() <= 1e4 * eps);

  auto msg = [&](auto&& call) { return verify::message_of<std::exception>(call); };
  // A ground link longer than the other three together: no closed configuration exists.
  cases::FourBarParams far = cases::four_bar_crank_rocker();
  far.ground = 2.0;
  const cases::FourBar open = cases::four_bar(far);
  VecX<double> q2 = st.q, qd2 = st.qd;
  LoopProjectionWorkspace<double> wo(open.model);
  CHECK_THAT(msg([&] { project_onto_loops<double>(open.model, open.loops, q2, qd2, wo); }),
             Catch::Contains("no closed configuration reached after 20 Gauss-Newton steps; loop joint 0 ('ground pivot D')"));
  VecX<double> short_q(2);
  CHECK_THAT(msg([&] { project_onto_loops<double>(fb.model, fb.loops, short_q, qd, ws); }), Catch::Contains("nq = 3"));
  VecX<double> nan_q = st.q;
  nan_q[1] = std::nan("");
  CHECK_THAT(msg([&] { project_onto_loops<double>(fb.model, fb.loops, nan_q, qd, ws); }), Catch::Contains("not finite"));
  CHECK_THAT(msg([&] { project_onto_loops<double>(fb.model, fb.loops, q, qd, ws, 0.0); }),
             Catch::Contains("tol must be positive"));
}

}  // namespace test_loop_projection
