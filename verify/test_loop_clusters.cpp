// Section 8.9's minimal loop clusters (algorithms/closed_loop_dynamics/loop_clusters.hpp) and
// the variant that solves on them, loop_clustered_nullspace. The family's gates run the variant
// on every verify case against the loop oracle; this file checks what is particular to it:
//  a. a tree built to the text's description of Figure 8.1 (cases/figure_8_1.hpp; the figure's
//     graph is not in the text, the joint numbers are): four loops, loops 1 and 2 coupled, three minimal clusters
//     on joints 3-7, 10-12 and 19-20, the other joints on no loop. K's entries outside the
//     clusters' blocks are exactly zero (Eq. 8.20), and the variant agrees with loop_nullspace
//     (one elimination of the whole K) and loop_kkt (Method 1) to 40 digits in Reference;
//  b. M four-bars side by side (cases::four_bar_bank): M clusters of one loop each, rank 2
//     per cluster, and each copy's qdd equal, to 40 digits, to the single four-bar's qdd at the
//     same crank state: a smaller model, solved without the others;
//  c. Eq. 8.51's claim that G has at least (n - r)(n - r - 1) zeros (the identity block), on
//     loop_nullspace's G for random loops of every type on four trees.
// Mutants tried: without the clusters' union (each loop its own cluster, so coupled loops are
// eliminated apart) (a) fails: loops 1 and 2 then both claim joint 4's columns and the variant
// refuses the overlapping blocks. With the gap variables' right side taken from tau - C instead
// of tau - C - H g, (a) fails on qdd.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "cases/figure_8_1.hpp"
#include "cases/four_bar.hpp"
#include "cases/loops.hpp"
#include "cases/states.hpp"
#include "closed_loop_dynamics/variants.hpp"
#include "reference/reference_scalar.hpp"
#include "verify/support/closed_loop_cases.hpp"
#include "verify/support/metrics.hpp"
#include "verify/support/state.hpp"

namespace test_loop_clusters {  // unity build: this file's names stay its own

using namespace rbd;
using R = Reference;

namespace {

const R kExact("1e-40");  // the exactness gate's threshold (40 of Reference's 50 digits)

using verify::loop_qdd;

std::vector<int> range(int first, int last) {  // book joint numbers -> body indices
  std::vector<int> out;
  for (int j = first; j <= last; ++j) out.push_back(j - 1);
  return out;
}

}  // namespace

TEST_CASE("loop clusters: the text's description of Figure 8.1 (Reference)", "[loop_clusters]") {
  const cases::Figure81 f = cases::figure_8_1_text_tree();
  const Model<R> m = f.model.cast<R>();
  const cases::State s = cases::random_state(f.model, 3);
  const verify::StateOf<R> x = verify::cast_state<R>(m, s);
  const LoopJoints<R> loops = cases::close_loops<R>(m, x.q, f.loops);
  const VecX<R> qd = cases::consistent_velocity<R>(m, loops, x.q, x.qd);
  ClosedLoopWorkspace<R> ws(m);
  const VecX<R> clustered = loop_qdd<LoopClusteredNullspace>(m, loops, x.q, qd, x.tau, ws);

  const LoopClusters& cl = ws.clusters;
  REQUIRE(cl.clusters.size() == 3);
  CHECK(cl.clusters[0].loops == std::vector<int>{0, 1});
  CHECK(cl.clusters[1].loops == std::vector<int>{2});
  CHECK(cl.clusters[2].loops == std::vector<int>{3});
  CHECK(cl.clusters[0].joints == range(3, 7));
  CHECK(cl.clusters[1].joints == range(10, 12));
  CHECK(cl.clusters[2].joints == range(19, 20));
  // The gaps: joints 1, 2, 8, 9, 13-18 (3 variables each).
  CHECK(cl.free_cols.size() == 3 * 10);
  // K is zero outside the blocks (Eq. 8.20), exactly: gathering loses nothing.
  int outside = 0;
  for (const LoopCluster& C : cl.clusters)
    for (int r : C.rows)
      for (int c = 0; c < m.nv; ++c)
        if (std::find(C.cols.begin(), C.cols.end(), c) == C.cols.end() && ws.K(r, c) != R(0)) ++outside;
  CHECK(outside == 0);
  // Ranks: 3 per spherical loop; the clusters' ranks add up to the whole K's.
  CHECK(ws.cluster_block[0].rank == 6);
  CHECK(ws.cluster_block[1].rank == 3);
  CHECK(ws.cluster_block[2].rank == 3);
  const VecX<R> whole = loop_qdd<LoopNullspace>(m, loops, x.q, qd, x.tau, ws);
  CHECK(ws.rank == 12);
  const VecX<R> kkt = loop_qdd<LoopKkt>(m, loops, x.q, qd, x.tau, ws);
  INFO("vs loop_nullspace " << verify::rel_diff(clustered, whole).str(3) << ", vs loop_kkt "
                            << verify::rel_diff(clustered, kkt).str(3));
  CHECK(verify::rel_diff(clustered, whole) <= kExact);
  CHECK(verify::rel_diff(clustered, kkt) <= kExact);
}

TEST_CASE("loop clusters: a bank of independent four-bars equals its copies solved alone (Reference)",
          "[loop_clusters]") {
  const cases::FourBarParams p = cases::four_bar_crank_rocker();
  const std::vector<R> angles = {R("0.3"), R("1.7"), R("-2.2")}, rates = {R("1.1"), R("-0.4"), R("2.5")};
  const cases::FourBar bank = cases::four_bar_bank(p, 3);
  const Model<R> m = bank.model.cast<R>();
  LoopJoints<R> loops;
  for (const auto& L : bank.loops) loops.push_back(L.template cast<R>());
  const cases::FourBarState<R> st = cases::four_bar_bank_state<R>(p, angles, rates);
  VecX<R> tau(m.nv);
  for (int i = 0; i < m.nv; ++i) tau[i] = R(i % 3) / R(4) - R("0.3");
  ClosedLoopWorkspace<R> ws(m);
  const VecX<R> qdd = loop_qdd<LoopClusteredNullspace>(m, loops, st.q, st.qd, tau, ws);
  REQUIRE(ws.clusters.clusters.size() == 3);
  CHECK(ws.clusters.free_cols.empty());
  for (int c = 0; c < 3; ++c) {
    INFO("copy " << c);
    CHECK(ws.clusters.clusters[c].cols == std::vector<int>{3 * c, 3 * c + 1, 3 * c + 2});
    CHECK(ws.cluster_block[c].rank == 2);  // section 8.10: n^c = 5, rank 2 for the planar loop
    const cases::FourBar one = cases::four_bar(p);
    const Model<R> m1 = one.model.cast<R>();
    const LoopJoints<R> l1 = {one.loops[0].template cast<R>()};
    const cases::FourBarState<R> s1 = cases::four_bar_state<R>(p, angles[c], rates[c]);
    ClosedLoopWorkspace<R> w1(m1);
    const VecX<R> alone = loop_qdd<LoopKkt>(m1, l1, s1.q, s1.qd, VecX<R>(tau.segment(3 * c, 3)), w1);
    INFO("rel. difference " << verify::rel_diff(VecX<R>(qdd.segment(3 * c, 3)), alone).str(3));
    CHECK(verify::rel_diff(VecX<R>(qdd.segment(3 * c, 3)), alone) <= kExact);
  }
}

TEST_CASE("loop clusters: G has at least (n - r)(n - r - 1) zeros (Eq. 8.51) (Reference)", "[loop_clusters]") {
  const std::vector<verify::ClosedLoopCase> cs = verify::closed_loop_cases();
  REQUIRE(cs.size() >= 6);
  for (const auto& c : cs) {
    INFO(c.label);
    ClosedLoopWorkspace<R> ws(c.m);
    (void)loop_qdd<LoopNullspace>(c.m, c.loops, c.q, c.qd, c.tau, ws);
    const int ny = c.m.nv - ws.rank;
    int zeros = 0;
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < c.m.nv; ++i) zeros += ws.G(i, j) == R(0);
    CHECK(zeros >= ny * (ny - 1));
  }
}

}  // namespace test_loop_clusters
