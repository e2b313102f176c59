// Closed-loop inverse dynamics (Featherstone section 8.12,
// algorithms/closed_loop_dynamics/loop_inverse_dynamics.hpp), checked against the closed-loop
// forward dynamics it inverts and against Example 8.2 on Figure 8.3's mechanism:
//  a. all variables actuated (redundant actuation): the forces it returns, fed to loop_kkt
//     (Method 1 of section 8.5, no G involved), give back the acceleration; they are the
//     least-norm solution (they lie in range(G)); G^T tau = G^T tau_ID (Eq. 8.62);
//  b. properly actuated (the elimination's free variables) and underactuated (one actuator
//     fewer): the same round trip where an answer exists, and a refusal naming case 1 where it
//     does not;
//  c. Example 8.2: an actuator pair makes G_u invertible iff it holds joint 4 and one of joints
//     1-3; for joints 3 and 4 the book's closed form u = G_u^-T G^T tau_ID, with G's entries
//     from the case's own differentiation of the closure (cases/actuated_arm.hpp);
//  d. refusals: a qdd off the constraint (K qdd != k), NaN, wrong sizes;
//  e. active loop joints with known forces (ws.loop_tau, Eq. 8.61's tau^a): the round trip
//     through loop_kkt with the same loop_tau, and a different answer without it.
//
// Precision: as test_closed_loops.cpp, Reference results agree to ~45 digits, and 1e-40 leaves a
// margin of 1e4-1e5 while a wrong formula shows at O(1e-3 .. 1).
#include <catch2/catch.hpp>

#include <limits>
#include <string>
#include <vector>

#include <Eigen/SVD>

#include "cases/actuated_arm.hpp"
#include "cases/loops.hpp"
#include "cases/registry.hpp"
#include "cases/states.hpp"
#include "closed_loop_dynamics/loop_inverse_dynamics.hpp"
#include "closed_loop_dynamics/variants.hpp"
#include "reference/reference_scalar.hpp"
#include "verify/support/budgets.hpp"
#include "verify/support/closed_loop_cases.hpp"
#include "verify/support/metrics.hpp"
#include "verify/support/state.hpp"

namespace test_loop_inverse_dynamics {  // unity build: this file's names stay its own

using namespace rbd;
using R = Reference;

namespace {

const R kDigits40("1e-40");

using ClosedCase = verify::ClosedLoopCase;
std::vector<ClosedCase> closed_cases() { return verify::closed_loop_cases(); }

VecX<R> forward(const ClosedCase& c, const VecX<R>& tau) {
  ClosedLoopWorkspace<R> ws(c.m);
  VecX<R> qdd(c.m.nv);
  LoopKkt::run<R>(c.m, c.loops, c.q, c.qd, tau, nullptr, qdd, ws);
  return qdd;
}

R rel(const VecX<R>& a, const VecX<R>& b) { return R((a - b).norm() / (b.norm() + R(1))); }

}  // namespace

TEST_CASE("loop inverse dynamics: all variables actuated, least-norm forces that reproduce qdd (40 digits)",
          "[closed_loops][loop_id]") {
  int checked = 0, redundant = 0;
  for (const ClosedCase& c : closed_cases()) {
    INFO(c.label);
    ClosedLoopWorkspace<R> fws(c.m);
    VecX<R> qdd(c.m.nv);
    LoopNullspace::run<R>(c.m, c.loops, c.q, c.qd, c.tau, nullptr, qdd, fws);  // a consistent qdd
    LoopInverseDynamicsWorkspace<R> ws(c.m);
    VecX<R> tau(c.m.nv);
    const std::vector<char> all(c.m.nv, 1);
    const LoopActuation act = loop_inverse_dynamics<R>(c.m, c.loops, c.q, c.qd, qdd, nullptr, all, tau, ws);
    CHECK(act.actuators == c.m.nv);
    CHECK(act.rank == act.mobility);
    CHECK_FALSE(act.underactuated());
    redundant += act.redundant();
    CHECK(rel(forward(c, tau), qdd) <= kDigits40);
    // Eq. 8.62 for the original forces (same acceleration), and the least norm: tau in range(G).
    const MatX<R> G = ws.G.leftCols(act.mobility);
    CHECK(rel(VecX<R>(G.transpose() * tau), VecX<R>(G.transpose() * c.tau)) <= kDigits40);
    const VecX<R> in_range = G * (G.transpose() * G).fullPivLu().solve(VecX<R>(G.transpose() * tau));
    CHECK(rel(in_range, tau) <= kDigits40);
    CHECK(tau.norm() <= c.tau.norm() * (R(1) + kDigits40));  // no larger than any other solution
    ++checked;
  }
  CHECK(checked >= 8);
  CHECK(redundant == checked);  // loops remove freedoms, so n actuators are always redundant
}

// Eq. 8.61 with known active loop-joint forces tau^a (ws.loop_tau): the forces returned, fed with
// the same loop_tau to loop_kkt, give back the acceleration that loop_kkt computed with them; the
// same call without loop_tau returns forces that do not, wherever tau^a does work on the
// mechanism's motions (so tau^a is really accounted for).
TEST_CASE("loop inverse dynamics: known active loop-joint forces (Eq. 8.61's tau^a, 40 digits)", "[closed_loops][loop_id]") {
  int checked = 0, differs = 0;
  for (const ClosedCase& c : closed_cases()) {
    INFO(c.label);
    int dofs = 0;
    for (const auto& L : c.loops) dofs += loop_joint_dof(L.type);
    if (dofs == 0) continue;  // weld loop joints only: no loop-joint freedom to actuate
    VecX<R> loop_tau(dofs);
    for (int i = 0; i < dofs; ++i) loop_tau[i] = R(i + 1) / R(3) - R("0.7");
    ClosedLoopWorkspace<R> fws(c.m);
    fws.loop_tau = loop_tau;
    VecX<R> qdd(c.m.nv);
    LoopKkt::run<R>(c.m, c.loops, c.q, c.qd, c.tau, nullptr, qdd, fws);  // with the loop-joint forces
    LoopInverseDynamicsWorkspace<R> ws(c.m);
    ws.loop_tau = loop_tau;
    VecX<R> tau(c.m.nv);
    const std::vector<char> all(c.m.nv, 1);
    const LoopActuation act = loop_inverse_dynamics<R>(c.m, c.loops, c.q, c.qd, qdd, nullptr, all, tau, ws);
    const VecX<R> tau_a = ws.tau_prime;  // the inverse dynamics' tau^a (its scratch, see the header)
    const VecX<R> work = ws.G.leftCols(act.mobility).transpose() * tau_a;  // G^T tau^a
    VecX<R> back(c.m.nv);
    LoopKkt::run<R>(c.m, c.loops, c.q, c.qd, tau, nullptr, back, fws);
    CHECK(rel(back, qdd) <= kDigits40);
    LoopInverseDynamicsWorkspace<R> passive(c.m);  // the same call ignoring tau^a
    VecX<R> tau0(c.m.nv);
    (void)loop_inverse_dynamics<R>(c.m, c.loops, c.q, c.qd, qdd, nullptr, all, tau0, passive);
    LoopKkt::run<R>(c.m, c.loops, c.q, c.qd, tau0, nullptr, back, fws);
    // Where a loop locks the joints on its path (as some drawn loops on gu:7 and all_joints do:
    // more constraints than path freedoms), its loop joint never moves, G's rows on the path are
    // zero and G^T tau^a = 0 exactly: the constraint forces absorb tau^a and both answers
    // reproduce qdd. Elsewhere only the one with tau^a does.
    const bool differ = rel(back, qdd) > R("1e-10");
    INFO("|G^T tau^a| = " << R(work.norm()).str(3) << ", |tau^a| = " << R(tau_a.norm()).str(3));
    CHECK(tau_a.norm() > R(0));
    if (!differ) CHECK(work.norm() <= kDigits40 * tau_a.norm());
    differs += differ;
    ++checked;
  }
  CHECK(checked >= 6);
  CHECK(differs >= 3);
}

TEST_CASE("loop inverse dynamics: properly actuated and underactuated (section 8.12, cases 3 and 1)",
          "[closed_loops][loop_id]") {
  int proper = 0, achievable = 0, refused = 0;
  for (const ClosedCase& c : closed_cases()) {
    INFO(c.label);
    // The elimination's free variables make G_u the identity: properly actuated.
    LoopInverseDynamicsWorkspace<R> ws(c.m);
    VecX<R> qdd(c.m.nv), tau(c.m.nv);
    LoopNullspace::run<R>(c.m, c.loops, c.q, c.qd, c.tau, nullptr, qdd, ws);
    const int ny = c.m.nv - ws.rank;
    if (ny < 2) continue;
    std::vector<char> act(c.m.nv, 0);
    for (int j = ws.rank; j < c.m.nv; ++j) act[ws.col_of[j]] = 1;
    const LoopActuation a = loop_inverse_dynamics<R>(c.m, c.loops, c.q, c.qd, qdd, nullptr, act, tau, ws);
    CHECK(a.properly_actuated());
    CHECK(rel(forward(c, tau), qdd) <= kDigits40);
    ++proper;
    // One actuator fewer: the acceleration of random forces cannot be produced ...
    std::vector<char> fewer = act;
    for (int i = c.m.nv - 1; i >= 0; --i)
      if (fewer[i]) { fewer[i] = 0; break; }
    CHECK_THROWS_WITH(loop_inverse_dynamics<R>(c.m, c.loops, c.q, c.qd, qdd, nullptr, fewer, tau, ws),
                      Catch::Contains("underactuated") && Catch::Contains("case 1"));
    ++refused;
    // ... but one made by forces at the remaining actuators alone can.
    VecX<R> tau_u = c.tau;
    for (int i = 0; i < c.m.nv; ++i)
      if (!fewer[i]) tau_u[i] = R(0);
    const VecX<R> qdd_u = forward(c, tau_u);
    const LoopActuation b = loop_inverse_dynamics<R>(c.m, c.loops, c.q, c.qd, qdd_u, nullptr, fewer, tau, ws);
    CHECK(b.underactuated());
    CHECK(rel(forward(c, tau), qdd_u) <= kDigits40);
    ++achievable;
  }
  CHECK(proper >= 4);
  CHECK(refused == proper);
  CHECK(achievable == proper);
}

// Figure 8.3's mechanism and Example 8.2.
TEST_CASE("loop inverse dynamics: Example 8.2 on Figure 8.3's arm with a linear actuator", "[closed_loops][loop_id]") {
  const cases::ActuatedArm arm = cases::figure_8_3_arm();
  const Model<R> m = arm.model.cast<R>();
  LoopJoints<R> loops;
  for (const auto& L : arm.loops) loops.push_back(L.cast<R>());
  const R q1("0.7"), qd1("-1.3"), q4("-0.4"), qd4("0.9");
  const auto st = cases::figure_8_3_state<R>(arm.params, q1, qd1, q4, qd4);
  VecX<R> tau0(4);
  tau0 << R("1.5"), R("-0.5"), R("2.0"), R("0.25");
  LoopInverseDynamicsWorkspace<R> ws(m);
  VecX<R> qdd(4), tau(4);
  LoopNullspace::run<R>(m, loops, st.q, st.qd, tau0, nullptr, qdd, ws);
  // The case's closure: K qd = 0 (velocity level) at its state, and mobility 2 (n = 4, rank 2).
  CHECK(R((ws.K * st.qd).norm()) <= kDigits40 * R(ws.K.norm() * st.qd.norm()));
  CHECK(m.nv - ws.rank == 2);
  // Which actuator pairs make G_u invertible (rank 2): those with joint 4 and one of 1-3.
  for (int a = 0; a < 4; ++a)
    for (int b = a + 1; b < 4; ++b) {
      std::vector<char> act(4, 0);
      act[a] = act[b] = 1;
      INFO("actuators at joints " << a + 1 << " and " << b + 1);
      const bool expect_proper = b == 3;
      if (expect_proper) {
        const LoopActuation r = loop_inverse_dynamics<R>(m, loops, st.q, st.qd, qdd, nullptr, act, tau, ws);
        CHECK(r.properly_actuated());
        CHECK(rel(forward(ClosedCase{"arm", m, loops, st.q, st.qd, tau0}, tau), qdd) <= kDigits40);
      } else {
        CHECK_THROWS_WITH(loop_inverse_dynamics<R>(m, loops, st.q, st.qd, qdd, nullptr, act, tau, ws),
                          Catch::Contains("underactuated"));
      }
    }
  // Joints 3 and 4 actuated: Example 8.2's u = [ (tau1 + u1 tau2) / u2 + tau3 ; tau4 ] of tau_ID,
  // u1 = dq2/dq1 and u2 = dq3/dq1 from the closure's derivative (the state at q1' = 1, q4' = 0).
  const auto unit = cases::figure_8_3_state<R>(arm.params, q1, R(1), q4, R(0));
  const R u1 = unit.qd[1], u2 = unit.qd[2];
  VecX<R> tau_id(4);
  Workspace<R> rws(m);
  RneaSpatial::run<R>(m, st.q, st.qd, qdd, nullptr, tau_id, rws);
  const std::vector<char> act34 = {0, 0, 1, 1};
  loop_inverse_dynamics<R>(m, loops, st.q, st.qd, qdd, nullptr, act34, tau, ws);
  VecX<R> book(4);
  book << R(0), R(0), R((tau_id[0] + u1 * tau_id[1]) / u2 + tau_id[2]), tau_id[3];
  CHECK(rel(tau, book) <= kDigits40);
  CHECK(rel(tau, tau0) > R("1e-3"));  // tau0 acts at all four joints: a different force, same motion
}

TEST_CASE("loop inverse dynamics: refuses a qdd off the constraints, NaN and wrong sizes", "[closed_loops][loop_id]") {
  const std::vector<ClosedCase> cs = closed_cases();
  REQUIRE_FALSE(cs.empty());
  const ClosedCase& c = cs.front();
  LoopInverseDynamicsWorkspace<R> ws(c.m);
  VecX<R> qdd(c.m.nv), tau(c.m.nv);
  LoopNullspace::run<R>(c.m, c.loops, c.q, c.qd, c.tau, nullptr, qdd, ws);
  const std::vector<char> all(c.m.nv, 1);
  VecX<R> off = qdd;
  off += ws.K.row(0).transpose() * R("1e-6");  // along K's first row: violates it
  CHECK_THROWS_WITH(loop_inverse_dynamics<R>(c.m, c.loops, c.q, c.qd, off, nullptr, all, tau, ws),
                    Catch::Contains("violates the loop constraints"));
  VecX<R> nan = qdd;
  nan[1] = R(std::numeric_limits<double>::quiet_NaN());
  CHECK_THROWS_WITH(loop_inverse_dynamics<R>(c.m, c.loops, c.q, c.qd, nan, nullptr, all, tau, ws),
                    Catch::Contains("qdd[1] is not finite"));
  CHECK_THROWS_WITH(loop_inverse_dynamics<R>(c.m, c.loops, c.q, c.qd, qdd, nullptr, std::vector<char>(1, 1), tau, ws),
                    Catch::Contains("tree variables"));
}

// The double path: the round trip through loop_kkt within its first-order bound.
TEST_CASE("loop inverse dynamics: runs in double on the figure 8.3 arm", "[closed_loops][loop_id]") {
  const cases::ActuatedArm arm = cases::figure_8_3_arm();
  const auto st = cases::figure_8_3_state<double>(arm.params, 0.7, -1.3, -0.4, 0.9);
  LoopInverseDynamicsWorkspace<double> ws(arm.model);
  VecX<double> qdd(4), tau(4), tau0(4);
  tau0 << 1.5, -0.5, 2.0, 0.25;
  LoopNullspace::run<double>(arm.model, arm.loops, st.q, st.qd, tau0, nullptr, qdd, ws);
  const std::vector<char> act = {1, 0, 0, 1};
  loop_inverse_dynamics<double>(arm.model, arm.loops, st.q, st.qd, qdd, nullptr, act, tau, ws);
  ClosedLoopWorkspace<double> fws(arm.model);
  VecX<double> back(4);
  LoopKkt::run<double>(arm.model, arm.loops, st.q, st.qd, tau, nullptr, back, fws);
  // First order: loop_kkt's solve amplifies the rounding of tau, C and K by the closed-loop
  // conditioning cond2(Z^T H Z) cond_r(K) (budgets.hpp's solve_with_loops, whose constant
  // 32 (d + 1) + 4 (nv + nc) counts the roundings of one solve); the inverse dynamics adds the same
  // again (RNEA, the elimination for G), with its QR's error in u amplified by cond2(G_u). So the
  // round trip stays within 2 cond2(G_u) solve_with_loops eps of |qdd|.
  const double cond_loops = verify::cond_constrained(fws.K, fws.H, fws.rank_tol);
  const Eigen::JacobiSVD<MatX<double>> svd(ws.Gu);
  const double cond_Gu = svd.singularValues()(0) / svd.singularValues()(svd.singularValues().size() - 1);
  const double d1 = 3, budget = 2 * cond_Gu * cond_loops * (32 * d1 + 4 * (4 + fws.nc)) * 2.22e-16;
  INFO("cond(Z^T H Z) cond_r(K) = " << cond_loops << ", cond2(G_u) = " << cond_Gu << ", difference "
                                    << (back - qdd).norm() / (qdd.norm() + 1) << ", budget " << budget);
  CHECK((back - qdd).norm() <= budget * (qdd.norm() + 1));
}

}  // namespace test_loop_inverse_dynamics
