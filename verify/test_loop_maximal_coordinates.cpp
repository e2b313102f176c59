// Seed 001's maximal-coordinate KKT on a closed-loop system (algorithms/constraints/
// maximal_loops.hpp) against chapter 8's methods: the two share no code past the model (no
// spanning-tree H, no K, no elimination on one side; no quaternion locks, no body coordinates
// on the other), so agreement to 40 digits is a second, independent witness besides the loop
// oracle.
//  a. The system built to the text of Figure 8.1 (cases/figure_8_1.hpp: 20 spherical tree
//     joints, 4 spherical loops, every constraint independent, as the KKT's LU needs): at a
//     state closing the loops (cases/loops.hpp), every lock holds to 40 digits (the markers
//     follow Eq. 8.24's frames), and the body accelerations of loop_kkt's and
//     loop_clustered_nullspace's qdd (carried to bodies by maximal_state_of) equal the KKT's;
//  b. the same with the fourth loop joint turned round so that its successor is the base (the
//     lock is then written from p(k)'s side);
//  c. refusals: a helical loop joint (no lock), a loop joint on a body the model lacks;
//  d. redundant constraints (section 8.10's planar four-bar, one and two revolute loop joints,
//     and one spherical): the seed's LU refuses the singular KKT with a clear error, and
//     maximal_forward_dynamics_redundant's rank-revealing solve finds the rank chapter 8 predicts
//     (6 N_B + 6 N_B - 1: one degree of freedom) and the same body accelerations as loop_kkt
//     and loop_nullspace to 40 digits; on Figure 8.1's independent constraints it equals the LU.
// Both sides are O(1-10) numbers from ~1e7 Reference operations on a KKT matrix of size
// 6 N_B + n^c = 192; 1e-40 leaves ~1e8 for rounding and conditioning.
// Mutant tried: marker P and marker S exchanged (the lock then holds X_P on s(k) and X_S on
// p(k)) fails (a) and (b): lock residuals 0.65-0.73, accelerations off by 0.48 relative.
#include <catch2/catch.hpp>

#include <string>

#include "cases/figure_8_1.hpp"
#include "cases/four_bar.hpp"
#include "cases/loops.hpp"
#include "cases/states.hpp"
#include "closed_loop_dynamics/variants.hpp"
#include "constraints/maximal_loops.hpp"
#include "reference/reference_scalar.hpp"
#include "verify/support/closed_loop_cases.hpp"
#include "verify/support/message_of.hpp"
#include "verify/support/metrics.hpp"
#include "verify/support/state.hpp"

namespace test_loop_maximal_coordinates {  // unity build: this file's names stay its own

using namespace rbd;
using R = Reference;
using verify::loop_qdd;

namespace {

const R kExact("1e-40");

// The body accelerations (maximal_state_of's udot) of qdd, and the KKT's, at the state.
void compare(const Model<R>& m, const LoopJoints<R>& loops, const VecX<R>& q, const VecX<R>& qd) {
  const MaximalSystem<R> sys = maximal_system_with_loops(m, loops);
  CHECK(sys.nc() == 3 * m.nb + 3 * static_cast<int>(loops.size()));
  const VecX<R> tau = VecX<R>::Zero(m.nv);  // maximal_forward_dynamics has no joint forces
  ClosedLoopWorkspace<R> ws(m);
  const VecX<R> qdd_kkt = loop_qdd<LoopKkt>(m, loops, q, qd, tau, ws);
  const VecX<R> qdd_cl = loop_qdd<LoopClusteredNullspace>(m, loops, q, qd, tau, ws);
  VecX<R> udot_kkt, udot_cl, udot_max;
  const MaximalState<R> x = maximal_state_of(m, q, qd, &qdd_kkt, &udot_kkt);
  (void)maximal_state_of(m, q, qd, &qdd_cl, &udot_cl);
  R worst_lock = R(0);
  for (const auto& l : sys.locks) {
    const BodyPose<R> ground{};
    const Vec6<R> c = lock_c(l.lock, x.pose[l.A], l.B < 0 ? ground : x.pose[l.B]);
    worst_lock = std::max(worst_lock, R(MatX<R>(select_lock_rows(l.lock.mask, c)).cwiseAbs().maxCoeff()));
  }
  INFO("largest lock residual " << worst_lock.str(3));
  CHECK(worst_lock <= kExact);
  MaximalWorkspace<R> mws(sys);
  maximal_forward_dynamics(sys, x, udot_max, mws);
  INFO("loop_kkt vs KKT " << verify::rel_diff(udot_kkt, udot_max).str(3) << ", loop_clustered_nullspace vs KKT "
                          << verify::rel_diff(udot_cl, udot_max).str(3));
  CHECK(verify::rel_diff(udot_kkt, udot_max) <= kExact);
  CHECK(verify::rel_diff(udot_cl, udot_max) <= kExact);
  CHECK(udot_max.cwiseAbs().maxCoeff() > R(1));  // not a trivial agreement
}

}  // namespace

TEST_CASE("maximal coordinates with loops: Figure 8.1's system against chapter 8's methods (Reference)",
          "[loop_maximal][closed_loops]") {
  const cases::Figure81 f = cases::figure_8_1_text_tree();
  const Model<R> m = f.model.cast<R>();
  for (const std::uint64_t seed : {3, 4}) {
    INFO("seed " << seed);
    const verify::StateOf<R> x = verify::cast_state<R>(m, cases::random_state(f.model, seed));
    const LoopJoints<R> loops = cases::close_loops<R>(m, x.q, f.loops);
    const VecX<R> qd = cases::consistent_velocity<R>(m, loops, x.q, x.qd);
    compare(m, loops, x.q, qd);
  }
}

TEST_CASE("maximal coordinates with loops: a loop joint whose successor is the base (Reference)",
          "[loop_maximal][closed_loops]") {
  cases::Figure81 f = cases::figure_8_1_text_tree();
  f.loops[3].p = -1;  // loop 4 from the base to joint 20's body, then turned round below
  const Model<R> m = f.model.cast<R>();
  const verify::StateOf<R> x = verify::cast_state<R>(m, cases::random_state(f.model, 5));
  LoopJoints<R> loops = cases::close_loops<R>(m, x.q, f.loops);
  const VecX<R> qd = cases::consistent_velocity<R>(m, loops, x.q, x.qd);
  // A spherical joint turned round is a spherical joint: the same constraint, written from the
  // other side (predecessor and successor, and their frames, exchanged).
  std::swap(loops[3].p, loops[3].s);
  std::swap(loops[3].XP, loops[3].XS);
  REQUIRE(loops[3].s == -1);
  compare(m, loops, x.q, qd);
}

TEST_CASE("maximal coordinates with loops: refusals name the loop joint", "[loop_maximal][closed_loops]") {
  const cases::Figure81 f = cases::figure_8_1_text_tree();
  const VecX<double> q = cases::random_state(f.model, 3).q;
  LoopJoints<double> loops = cases::close_loops<double>(f.model, q, f.loops);
  LoopJoints<double> bad = loops;
  bad[1].type = LoopJointType::Helical;
  CHECK(verify::message_of<std::invalid_argument>([&] { (void)maximal_system_with_loops(f.model, bad); })
            .find("helical loop joint has no lock") != std::string::npos);
  bad = loops;
  bad[2].s = f.model.nb;
  CHECK(verify::message_of<std::invalid_argument>([&] { (void)maximal_system_with_loops(f.model, bad); })
            .find("loop joint 2") != std::string::npos);
}

TEST_CASE("maximal coordinates with loops: redundant constraints, refused by the LU and solved by a rank-revealing "
          "decomposition (Reference)",
          "[loop_maximal][closed_loops]") {
  // The four-bar moves in a plane, so of each revolute lock's five rows the two that hold the
  // rotation about x and y, and the one along z, repeat what the other joints already hold: the
  // 3 bodies' 18 coordinates have one freedom, rank C_v = 17 whatever the number of loop joints
  // (20 rows with one revolute loop joint, 25 with two, 18 with a spherical one). Tolerance 1e-40
  // as above (a KKT matrix of size <= 43 of O(1) entries; the rank threshold, 1e-25, is 1e25
  // above the dependent pivots and far below the independent ones).
  struct Variant {
    LoopJointType type;
    int copies, lock_rows;
  };
  for (const Variant v : {Variant{LoopJointType::Revolute, 1, 20}, Variant{LoopJointType::Revolute, 2, 25},
                          Variant{LoopJointType::Spherical, 1, 18}}) {
    const cases::FourBar fb = cases::four_bar(cases::four_bar_crank_rocker(), v.type, v.copies);
    const Model<R> m = fb.model.cast<R>();
    LoopJoints<R> loops;
    for (const auto& L : fb.loops) loops.push_back(L.template cast<R>());
    const cases::FourBarState<R> st = cases::four_bar_state<R>(fb.params, R("0.8"), R("-1.3"));
    const MaximalSystem<R> sys = maximal_system_with_loops(m, loops);
    REQUIRE(sys.nc() == v.lock_rows);
    ClosedLoopWorkspace<R> ws(m);
    const VecX<R> tau = VecX<R>::Zero(m.nv);
    const VecX<R> qdd_kkt = loop_qdd<LoopKkt>(m, loops, st.q, st.qd, tau, ws);
    const VecX<R> qdd_ns = loop_qdd<LoopNullspace>(m, loops, st.q, st.qd, tau, ws);
    VecX<R> udot_kkt, udot_ns, udot_max;
    const MaximalState<R> x = maximal_state_of(m, st.q, st.qd, &qdd_kkt, &udot_kkt);
    (void)maximal_state_of(m, st.q, st.qd, &qdd_ns, &udot_ns);
    MaximalWorkspace<R> mws(sys);
    const std::string refusal = verify::message_of<std::domain_error>([&] { maximal_forward_dynamics(sys, x, udot_max, mws); });
    INFO(v.copies << " loop joint(s) of " << v.lock_rows - 15 << " rows; the LU: " << refusal);
    CHECK(refusal.find("KKT matrix is singular") != std::string::npos);
    const int rank = maximal_forward_dynamics_redundant(sys, x, udot_max, mws);
    CHECK(rank == 18 + 17);
    INFO("loop_kkt vs rank-revealing KKT " << verify::rel_diff(udot_kkt, udot_max).str(3) << ", loop_nullspace "
                                           << verify::rel_diff(udot_ns, udot_max).str(3));
    CHECK(verify::rel_diff(udot_kkt, udot_max) <= kExact);
    CHECK(verify::rel_diff(udot_ns, udot_max) <= kExact);
    CHECK(udot_max.cwiseAbs().maxCoeff() > R(1));
  }
  // Independent constraints: the rank-revealing solve is full rank and equals the LU.
  const cases::Figure81 f = cases::figure_8_1_text_tree();
  const Model<R> m = f.model.cast<R>();
  const verify::StateOf<R> s = verify::cast_state<R>(m, cases::random_state(f.model, 3));
  const LoopJoints<R> loops = cases::close_loops<R>(m, s.q, f.loops);
  const VecX<R> qd = cases::consistent_velocity<R>(m, loops, s.q, s.qd);
  const MaximalSystem<R> sys = maximal_system_with_loops(m, loops);
  const MaximalState<R> x = maximal_state_of(m, s.q, qd);
  MaximalWorkspace<R> mws(sys);
  VecX<R> by_lu, by_cod;
  maximal_forward_dynamics(sys, x, by_lu, mws);
  CHECK(maximal_forward_dynamics_redundant(sys, x, by_cod, mws) == 6 * sys.nb() + sys.nc());
  CHECK(verify::rel_diff(by_lu, by_cod) <= kExact);
}

}  // namespace test_loop_maximal_coordinates
