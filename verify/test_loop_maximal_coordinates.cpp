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
//  c. refusals: a helical loop joint (no lock), a loop joint on a body the model lacks.
// Both sides are O(1-10) numbers from ~1e7 Reference operations on a KKT matrix of size
// 6 N_B + n^c = 192; 1e-40 leaves ~1e8 for rounding and conditioning.
// Mutant tried: marker P and marker S exchanged (the lock then holds X_P on s(k) and X_S on
// p(k)) fails (a) and (b): lock residuals 0.65-0.73, accelerations off by 0.48 relative.
#include <catch2/catch.hpp>

#include <string>

#include "cases/figure_8_1.hpp"
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

}  // namespace test_loop_maximal_coordinates
