// The proximal method (algorithms/closed_loop_dynamics/loop_proximal.hpp). The family's gates run
// it on every verify case against the loop oracle; this file checks what is particular to it:
//  a. redundant constraints without a rank test: the four-bar closed by a revolute loop joint
//     (5 constraints, rank 2, section 8.10) and by two copies of it (10, rank 2): qdd equal to
//     loop_kkt's (Method 1, pruned by the rank test) to 40 digits in Reference, K qdd = k, and
//     the constraint force K^T lambda equal to loop_kkt's though lambda itself is not unique;
//  b. the answer does not depend on mu: prox_mu_rel from 1e-40 to 1e-10 in Reference gives the
//     same qdd to 40 digits, the larger mu taking more iterations (the error shrinks by
//     mu / (sigma + mu) per step);
//  c. near a singular configuration (the parallelogram four-bar at crank angles 1e-2 and 1e-4,
//     where B, C, D approach collinearity and A's smallest eigenvalue goes to zero): Reference
//     agrees with loop_kkt to 40 digits; double converges within the iteration cap, and its
//     error is within 4 times that of the direct solves in double (loop_kkt, loop_lambda_first);
//  d. the cap: prox_max_iter = 0 on a case that needs an iteration is refused with a message
//     naming the residual, never a silently unconverged answer.
// Mutants tried: one regularised solve, lambda = (A + mu 1)^-1 b, no iteration, fails (b) (qdd
// off by ~mu / sigma: 2.6e-40 at prox_mu_rel = 1e-40, 2.6e-10 at 1e-10) and (c) in double;
// stopping as soon as the residual |b - A lambda| reaches its rounding level (the first version
// of loop_proximal.hpp) fails (c) at 1e-4: 3.3e-10 against loop_kkt's 7.4e-13.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "cases/four_bar.hpp"
#include "closed_loop_dynamics/variants.hpp"
#include "reference/reference_scalar.hpp"
#include "verify/support/closed_loop_cases.hpp"
#include "verify/support/message_of.hpp"
#include "verify/support/metrics.hpp"

namespace test_loop_proximal {  // unity build: this file's names stay its own

using namespace rbd;
using R = Reference;

namespace {

const R kExact("1e-40");  // the exactness gate's threshold (40 of Reference's 50 digits)

template <class S> LoopJoints<S> cast_loops_to(const LoopJoints<double>& in) {
  LoopJoints<S> out;
  for (const auto& L : in) out.push_back(L.template cast<S>());
  return out;
}

using verify::loop_qdd;

}  // namespace

TEST_CASE("proximal: redundant constraints without a rank test (Reference)", "[loop_proximal]") {
  for (const int copies : {1, 2}) {
    const cases::FourBar fb = cases::four_bar(cases::four_bar_crank_rocker(), LoopJointType::Revolute, copies);
    const Model<R> m = fb.model.cast<R>();
    const LoopJoints<R> loops = cast_loops_to<R>(fb.loops);
    const cases::FourBarState<R> st = cases::four_bar_state<R>(fb.params, R("0.8"), R("-1.3"));
    VecX<R> tau(3);
    tau << R("0.4"), R("-0.2"), R("0.1");
    INFO(copies << " loop joint(s), n^c = " << 5 * copies);
    ClosedLoopWorkspace<R> ws(m);
    const VecX<R> prox = loop_qdd<LoopProximal>(m, loops, st.q, st.qd, tau, ws);
    const VecX<R> force = ws.K.transpose() * ws.lambda;
    const VecX<R> Kqdd_k = ws.K * prox - ws.k;
    const int iterations = ws.prox_iterations;
    const VecX<R> kkt = loop_qdd<LoopKkt>(m, loops, st.q, st.qd, tau, ws);
    CHECK(ws.rank == 2);  // section 8.10: rank 2 whatever the number of copies
    const VecX<R> kkt_force = ws.H * kkt + ws.C - tau;  // K^T lambda from Eq. 8.34
    INFO("qdd vs loop_kkt " << verify::rel_diff(prox, kkt).str(3) << ", K^T lambda vs loop_kkt's "
                            << verify::rel_diff(force, kkt_force).str(3) << ", |K qdd - k| "
                            << R(Kqdd_k.cwiseAbs().maxCoeff()).str(3) << ", " << iterations << " iterations");
    CHECK(verify::rel_diff(prox, kkt) <= kExact);
    CHECK(verify::rel_diff(force, kkt_force) <= kExact);
    CHECK(Kqdd_k.cwiseAbs().maxCoeff() <= kExact);
    CHECK(iterations >= 1);
  }
}

TEST_CASE("proximal: the answer does not depend on mu, the iteration count does (Reference)", "[loop_proximal]") {
  const cases::FourBar fb = cases::four_bar(cases::four_bar_crank_rocker(), LoopJointType::Spherical);
  const Model<R> m = fb.model.cast<R>();
  const LoopJoints<R> loops = cast_loops_to<R>(fb.loops);
  const cases::FourBarState<R> st = cases::four_bar_state<R>(fb.params, R("2.1"), R("0.6"));
  const VecX<R> tau = VecX<R>::Constant(3, R("0.25"));
  ClosedLoopWorkspace<R> kws(m);
  const VecX<R> kkt = loop_qdd<LoopKkt>(m, loops, st.q, st.qd, tau, kws);
  int last_iterations = 0, first_iterations = 0;
  for (const char* mu : {"1e-40", "1e-25", "1e-10"}) {
    ClosedLoopWorkspace<R> ws(m);
    ws.prox_mu_rel = R(mu);  // set before the first call: prepare() must keep it
    const VecX<R> prox = loop_qdd<LoopProximal>(m, loops, st.q, st.qd, tau, ws);
    if (first_iterations == 0) first_iterations = ws.prox_iterations;
    INFO("mu_rel " << mu << ": " << ws.prox_iterations << " iterations, vs loop_kkt " << verify::rel_diff(prox, kkt).str(3));
    CHECK(verify::rel_diff(prox, kkt) <= kExact);
    CHECK(ws.prox_iterations >= last_iterations);
    last_iterations = ws.prox_iterations;
  }
  CHECK(last_iterations >= 3);  // mu / sigma ~ 1e-10 per step: 40 digits need at least 3 steps
  CHECK(last_iterations > first_iterations);  // the setting took effect
}

TEST_CASE("proximal: near a singular configuration, in Reference and in double", "[loop_proximal]") {
  const cases::FourBar fb = cases::four_bar(cases::four_bar_parallelogram());
  for (const char* angle : {"1e-2", "1e-4"}) {
    INFO("parallelogram at crank angle " << angle);
    const Model<R> m = fb.model.cast<R>();
    const LoopJoints<R> loops = cast_loops_to<R>(fb.loops);
    const cases::FourBarState<R> st = cases::four_bar_state<R>(fb.params, R(angle), R("0.5"));
    const VecX<R> tau = VecX<R>::Constant(3, R("0.1"));
    ClosedLoopWorkspace<R> ws(m);
    const VecX<R> kkt = loop_qdd<LoopKkt>(m, loops, st.q, st.qd, tau, ws);
    const VecX<R> prox = loop_qdd<LoopProximal>(m, loops, st.q, st.qd, tau, ws);
    INFO("Reference: vs loop_kkt " << verify::rel_diff(prox, kkt).str(3) << ", " << ws.prox_iterations << " iterations");
    CHECK(verify::rel_diff(prox, kkt) <= kExact);
    // double: converges (no exception) and its error is reported beside loop_kkt's in double.
    ClosedLoopWorkspace<double> wd(fb.model);
    const VecX<double> q = st.q.unaryExpr([](const R& x) { return static_cast<double>(x); });
    const VecX<double> qd = st.qd.unaryExpr([](const R& x) { return static_cast<double>(x); });
    const VecX<double> td = VecX<double>::Constant(3, 0.1);
    VecX<double> pd;
    REQUIRE_NOTHROW(pd = loop_qdd<LoopProximal>(fb.model, fb.loops, q, qd, td, wd));
    CHECK(wd.prox_iterations < wd.prox_max_iter);
    const int iterations = wd.prox_iterations;
    const VecX<double> kd = loop_qdd<LoopKkt>(fb.model, fb.loops, q, qd, td, wd);
    const VecX<double> ld = loop_qdd<LoopLambdaFirst>(fb.model, fb.loops, q, qd, td, wd);
    // Both double answers differ from Reference's (the state itself was rounded to double);
    // they must differ from each other by no more than the larger of their own errors allows.
    const VecX<R> pdR = pd.cast<R>(), kdR = kd.cast<R>(), ldR = ld.cast<R>();
    const R err_prox = verify::rel_diff(pdR, kkt), err_kkt = verify::rel_diff(kdR, kkt),
            err_lambda = verify::rel_diff(ldR, kkt);
    INFO("double: proximal " << err_prox.str(3) << ", kkt " << err_kkt.str(3) << ", lambda first "
                             << err_lambda.str(3) << " relative error; " << iterations << " iterations");
    // loop_lambda_first solves with the same A = K H^-1 K^T, whose condition is K's squared
    // (~1 / angle^2 here), by one pivoted LDLT; the proximal iteration must reach the same
    // rounding-limited accuracy, not stop where the residual (sigma times lambda's error) first
    // looks small. A factor 4 over the worse of the two direct solves leaves room for the
    // iteration's own rounding (measured: 1.0x at 1e-4, 1.1x at 1e-2; stopping on the residual
    // alone gave 440x at 1e-4).
    CHECK(err_prox <= R(4) * std::max(err_lambda, err_kkt));
  }
}

TEST_CASE("proximal: the iteration cap is an error that names the residual", "[loop_proximal]") {
  const cases::FourBar fb = cases::four_bar(cases::four_bar_crank_rocker());
  const cases::FourBarState<double> st = cases::four_bar_state<double>(fb.params, 0.7, 1.0);
  ClosedLoopWorkspace<double> ws(fb.model);
  ws.prepare(fb.model, fb.loops);
  ws.prox_max_iter = 0;
  VecX<double> qdd(3);
  const std::string msg = verify::message_of<std::runtime_error>(
      [&] { LoopProximal::run<double>(fb.model, fb.loops, st.q, st.qd, VecX<double>::Ones(3), nullptr, qdd, ws); });
  INFO(msg);
  CHECK(msg.find("no convergence in 0 iterations") != std::string::npos);
  CHECK(msg.find("constraint residual") != std::string::npos);
}

}  // namespace test_loop_proximal
