// Active loop joints (Featherstone sections 8.4 and 8.6, Tables 8.2-8.3): a force tau^a_k at a
// loop joint's freedoms (ClosedLoopWorkspace::loop_tau), applied by every closed-loop method:
// the three section 8.5 methods through tau' = tau - C + tau^a (steps.hpp) and the sparse-matrix
// method through Eq. 8.64's P T_a tau. Checked, in Reference:
//  a. against the other spanning tree of the same four-bar (cases::four_bar_reversed): the joint
//     that one tree closes as an active loop joint is an ordinary actuated tree joint of the
//     other, and vice versa, so the two compute the same motion by different equations (the
//     crank's and the rocker's absolute accelerations agree to 40 digits, the gate's threshold);
//  b. power: with loop-joint velocities qd_k = S^+ v_J (v_J from the bodies' velocities, S from
//     loop_motion_subspace, not the T^a that applies the forces), every variant's qdd satisfies
//     qd^T (H qdd + C - tau) = sum_k tau^a_k . qd_k on the random loops of every joint type
//     (helical and planar included): the constraint forces do no work, the actuators do exactly
//     theirs. Tolerance 1e-40 relative to the largest term (50-digit arithmetic, O(1) cases);
//  c. a wrongly sized loop_tau is refused.
// Tried by hand: f^a's sign at p(k) flipped in steps.hpp and in sparse_matrix_method.hpp: (b)
// fails for all four variants ((a) cannot see it: both trees close their loop on the base);
// T^a = e6 (a force along the axis) for the revolute joint: (a) and (b) fail for all four.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cases/four_bar.hpp"
#include "closed_loop_dynamics/sparse_matrix_method.hpp"
#include "closed_loop_dynamics/variants.hpp"
#include "reference/reference_scalar.hpp"
#include "verify/support/closed_loop_cases.hpp"
#include "verify/support/families.hpp"
#include "verify/support/message_of.hpp"

namespace test_active_loop_joints {  // unity build: this file's names stay its own

using namespace rbd;
using R = Reference;

namespace {

const R kExact("1e-40");

// Every variant of the family (algorithms/closed_loop_dynamics/variants.hpp).
using AllLoopMethods = ClosedLoopVariants;

LoopJoints<R> cast_loops_R(const LoopJoints<double>& in) {
  LoopJoints<R> out;
  for (const auto& L : in) out.push_back(L.template cast<R>());
  return out;
}

}  // namespace

TEST_CASE("active loop joints: the four-bar on its two spanning trees", "[active_loops]") {
  const cases::FourBarParams p = cases::four_bar_crank_rocker();
  const cases::FourBar A = cases::four_bar(p), D = cases::four_bar_reversed(p);
  const Model<R> mA = A.model.cast<R>(), mD = D.model.cast<R>();
  const LoopJoints<R> lA = cast_loops_R(A.loops), lD = cast_loops_R(D.loops);
  const cases::FourBarState<R> sA = cases::four_bar_state<R>(p, R("0.9"), R("1.5"));
  const cases::FourBarState<R> sD = cases::reversed_four_bar_state<R>(sA);
  const R torque_A("0.3"), torque_D("-0.7");  // at the crank pivot A and the rocker pivot D
  verify::for_each_type<AllLoopMethods>([&]<class V>() {
    INFO(V::name);
    // Tree rooted at A: A is tree joint 0, D the active loop joint.
    ClosedLoopWorkspace<R> wA(mA);
    wA.loop_tau = VecX<R>::Constant(1, torque_D);
    VecX<R> tauA = VecX<R>::Zero(3), qddA(3);
    tauA[0] = torque_A;
    V::template run<R>(mA, lA, sA.q, sA.qd, tauA, nullptr, qddA, wA);
    // Tree rooted at D: D is tree joint 0, A the active loop joint.
    ClosedLoopWorkspace<R> wD(mD);
    wD.loop_tau = VecX<R>::Constant(1, torque_A);
    VecX<R> tauD = VecX<R>::Zero(3), qddD(3);
    tauD[0] = torque_D;
    V::template run<R>(mD, lD, sD.q, sD.qd, tauD, nullptr, qddD, wD);
    const R crank_A = qddA[0], crank_D = qddD.sum(), rocker_A = qddA.sum(), rocker_D = qddD[0];
    INFO("crank " << crank_A.str(6) << " vs " << crank_D.str(6) << ", rocker " << rocker_A.str(6) << " vs "
                  << rocker_D.str(6));
    CHECK(abs(crank_A - crank_D) <= kExact * (1 + abs(crank_A)));
    CHECK(abs(rocker_A - rocker_D) <= kExact * (1 + abs(rocker_A)));
    // The loop joint's torque matters (a passive D moves otherwise).
    ClosedLoopWorkspace<R> wP(mA);
    VecX<R> qddP(3);
    V::template run<R>(mA, lA, sA.q, sA.qd, tauA, nullptr, qddP, wP);
    CHECK(abs(qddP[0] - crank_A) > R("1e-3"));
  });
}

TEST_CASE("active loop joints: actuators do their work, constraints none", "[active_loops]") {
  const std::vector<verify::ClosedLoopCase> cs = verify::closed_loop_cases();
  REQUIRE(cs.size() >= 6);
  for (const auto& c : cs) {
    INFO(c.label);
    // Loop-joint velocities from the bodies' velocities: v_J = X_s (v_s - v_p) in the joint's
    // successor frame (both in base coordinates first), qd_k = (S^T S)^-1 S^T v_J.
    const std::vector<Transform<R>> X0 = cases::body_transforms<R>(c.m, c.q);
    Workspace<R> tw(c.m);
    VecX<R> C(c.m.nv);
    RneaSpatial::run<R>(c.m, c.q, c.qd, VecX<R>::Zero(c.m.nv), nullptr, C, tw);  // C and the body velocities
    VecX<R> tau_a;
    R power_a = 0;
    int k0 = 0;
    for (const auto& L : c.loops) k0 += loop_joint_dof(L.type);
    tau_a.resize(k0);
    k0 = 0;
    for (const auto& L : c.loops) {
      const int dof = loop_joint_dof(L.type);
      auto base_v = [&](int b) { return b < 0 ? Vec6<R>::Zero().eval() : X0[b].apply_inverse(tw.v[b]); };
      const Transform<R> Xs = L.s < 0 ? L.XS : L.XS * X0[L.s];
      const Vec6<R> vJ = Xs.apply(Vec6<R>(base_v(L.s) - base_v(L.p)));
      const MatX<R> Sk = loops::loop_motion_subspace<R>(L.type, L.pitch);
      for (int d = 0; d < dof; ++d) tau_a[k0 + d] = R(d + 1) / R(3) - R(k0) / R(5);
      if (dof > 0) {
        const VecX<R> qdk = (Sk.transpose() * Sk).ldlt().solve(VecX<R>(Sk.transpose() * vJ));
        power_a += tau_a.segment(k0, dof).dot(qdk);
      }
      k0 += dof;
    }
    MatX<R> H = MatX<R>::Zero(c.m.nv, c.m.nv);
    Crba::run<R>(c.m, c.q, H, tw);
    verify::for_each_type<AllLoopMethods>([&]<class V>() {
      INFO(V::name);
      ClosedLoopWorkspace<R> ws(c.m);
      ws.loop_tau = tau_a;
      VecX<R> qdd(c.m.nv);
      V::template run<R>(c.m, c.loops, c.q, c.qd, c.tau, nullptr, qdd, ws);
      const VecX<R> generalized = H * qdd + C - c.tau;
      const R power = c.qd.dot(generalized);
      const R scale = 1 + abs(power_a) + c.qd.cwiseAbs().maxCoeff() * generalized.cwiseAbs().maxCoeff();
      INFO("qd^T (H qdd + C - tau) = " << power.str(6) << ", sum tau^a . qd_k = " << power_a.str(6));
      CHECK(abs(power - power_a) <= kExact * scale);
    });
  }
}

TEST_CASE("active loop joints: loop_tau of the wrong size is refused", "[active_loops]") {
  const cases::FourBar fb = cases::four_bar(cases::four_bar_crank_rocker());
  const cases::FourBarState<double> st = cases::four_bar_state<double>(fb.params, 0.9, 1.5);
  verify::for_each_type<AllLoopMethods>([&]<class V>() {
    INFO(V::name);
    ClosedLoopWorkspace<double> ws(fb.model);
    ws.loop_tau = VecX<double>::Zero(2);
    VecX<double> qdd(3);
    CHECK_THAT(verify::message_of<std::exception>(
                   [&] { V::template run<double>(fb.model, fb.loops, st.q, st.qd, VecX<double>::Zero(3), nullptr, qdd, ws); }),
               Catch::Contains("loop_tau has 2 values, but the loop joints have 1 freedoms"));
  });
}

}  // namespace test_active_loop_joints
