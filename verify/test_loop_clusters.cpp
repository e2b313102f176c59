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
//  c. section 8.9's block-by-block solution: each cluster's G_i, g_i solve K_i x = k_i (K_i G_i = 0,
//     K_i g_i = k_i, G_i of full column rank) and K is exactly zero outside the blocks, on random
//     loops of every type on four trees.
// Mutants tried: without the clusters' union (each loop its own cluster, so coupled loops are
// eliminated apart) (a) fails: loops 1 and 2 then both claim joint 4's columns and the variant
// refuses the overlapping blocks. With the gap variables' right side taken from tau - C instead
// of tau - C - H g, (a) fails on qdd. With G = Q2^T [+X; 1] instead of [-X; 1] in
// elimination.hpp's null_space_block, (c) fails on K_i G_i = 0 in 6 clusters.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include <Eigen/LU>

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

TEST_CASE("loop clusters: each block's G_i and g_i solve K_i x = k_i, and K is zero outside the blocks (Reference)",
          "[loop_clusters]") {
  // Section 8.9's last paragraph: x = G_i y + g_i solves K_i x = k_i block by block. K_i G_i = 0
  // and K_i g_i = k_i to 40 digits (relative to |K_i| |G_i| and |K_i| |g_i| + |k_i|), with full
  // column rank G_i (its identity rows), on random loops of every type on four trees.
  const std::vector<verify::ClosedLoopCase> cs = verify::closed_loop_cases();
  REQUIRE(cs.size() >= 6);
  int blocks = 0;
  for (const auto& c : cs) {
    INFO(c.label);
    ClosedLoopWorkspace<R> ws(c.m);
    (void)loop_qdd<LoopClusteredNullspace>(c.m, c.loops, c.q, c.qd, c.tau, ws);
    for (std::size_t i = 0; i < ws.clusters.clusters.size(); ++i) {
      const LoopCluster& C = ws.clusters.clusters[i];
      const auto& B = ws.cluster_block[i];
      const int rows = static_cast<int>(C.rows.size()), cols = static_cast<int>(C.cols.size());
      MatX<R> Ki(rows, cols);
      VecX<R> ki(rows);
      for (int a = 0; a < rows; ++a) {
        for (int b = 0; b < cols; ++b) Ki(a, b) = ws.K(C.rows[a], C.cols[b]);
        ki[a] = ws.k[C.rows[a]];
        for (int col = 0; col < c.m.nv; ++col)  // Eq. 8.20: nothing outside the block
          if (std::find(C.cols.begin(), C.cols.end(), col) == C.cols.end()) CHECK(ws.K(C.rows[a], col) == R(0));
      }
      const MatX<R> Gi = B.G.leftCols(B.ny);
      const VecX<R> gi = B.g;
      const R kG = B.ny == 0 ? R(0)  // a locked cluster: no free variable, G_i empty
                             : R((Ki * Gi).cwiseAbs().maxCoeff() / (Ki.cwiseAbs().maxCoeff() * (Gi.cwiseAbs().maxCoeff() + R(1))));
      const R kg = R((Ki * gi - ki).cwiseAbs().maxCoeff() /
                     (Ki.cwiseAbs().maxCoeff() * (gi.cwiseAbs().maxCoeff() + R(1)) + ki.cwiseAbs().maxCoeff()));
      INFO("cluster " << i << ": |K_i G_i| " << kG.str(3) << ", |K_i g_i - k_i| " << kg.str(3));
      CHECK(kG <= kExact);
      CHECK(kg <= kExact);
      if (B.ny > 0) CHECK(Eigen::FullPivLU<MatX<R>>(Gi).rank() == B.ny);
      ++blocks;
    }
  }
  CHECK(blocks >= 8);
}

}  // namespace test_loop_clusters
