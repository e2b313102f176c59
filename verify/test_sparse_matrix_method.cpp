// Section 8.13's sparse-matrix method (algorithms/closed_loop_dynamics/sparse_matrix_method.hpp).
// It is one of the family's variants (variants.hpp), so the family's gates and
// test_closed_loops.cpp run it with the others; this file checks its exactness and what is
// particular to it:
//  o. random loops of every type on four trees (verify/support/closed_loop_cases.hpp), against
//     the loop oracle (reference/loop_oracle.hpp: its own closure functions, dual numbers and
//     Lagrangian; no code shared), to 40 digits, the gate's threshold;
//  a. Figure 8.4's ladder, in Reference, against loop_kkt (Method 1 on the spanning tree's H and
//     K: a different system, a different factorization) to 40 digits, as the gate's threshold;
//  b. trees with no loop joint, in Reference, against the ABA (Table 7.1: no constraint forces
//     at all) to 40 digits: Eq. 8.64 with the tree's joints as its only joints;
//  c. redundant constraints (section 8.5's rank-deficient case, which section 8.13 says a sparse
//     factorization "may not" survive): the planar four-bar closed by a revolute loop joint
//     (5 constraints, rank 2) and by two copies of it, against loop_nullspace, with the number
//     of pivots dropped equal to the number of redundant constraints;
//  d. the structure section 8.13 describes, for the ladder: the size 6 N_B + n^c_tot of Eq. 8.64,
//     its N_B diagonal and at most 4 N_J off-diagonal blocks, and the bandwidth 3 of Figure 8.4's
//     permutation; against it, the spanning tree's H with O(n^2) nonzeros, and the factor of
//     A = T^T P^T I^-1 P T whose fill grows linearly with the ladder;
//  e. on a tree, the minimum-fill order finds an elimination with no fill at all (the
//     footnote's O(n) factorization of Eq. 8.64 for any tree);
//  f. refusals: NaN in q, qd, tau and loop_tau, each named;
//  g. in double, on GU chains, a tree and the all-joints model with random loops (many of them
//     redundant): the error against Reference stays within cond2(A) (32 (d + 1) + 4 rows) eps,
//     the form of the family's solve_with_loops budget with the method's own matrix A in place
//     of Z^T H Z and K (A's rounding is what the method amplifies). The error is absolute,
//     |qdd_double - qdd_Reference| / eps; the family's sweep divides it by the output's typical
//     size, so this is stricter where |qdd| > 1 (as on these cases). Mutants tried: without the block pivoting of
//     sparse_matrix_structure.hpp (pivot_dependent_blocks), or without the weak-pivot swap
//     (elimination_tree_ldlt.hpp), gu:8 at seed 5 fails, 1.2e8 eps against 9.4e6: the order
//     alone then chooses which rows of a dependent set are kept, and keeps one with a pivot of
//     8e-7 A_kk. And urdf:panda at seed 19, whose factor has a genuine pivot of 2.8e-10 A_kk
//     within the rounding bound of a dependent row's: without restore_violated_row
//     (elimination_tree_ldlt.hpp) double keeps rank 51 against Reference's 52 and errs by 1.3e15
//     eps against a budget of 9e10;
//  h. a state off its constraints (qd moved off K's null space): the rank stays the consistent
//     state's, in both precisions. Keeping a dependent row whose equation the drifted qd violates
//     would divide that violation by a rounding-sized pivot. Mutants tried: without the rank-rise
//     check in restore_violated_row, humanoid at seed 9 in Reference ends at rank 156, not 160;
//     without its pivot floor (eps growth A_kk), gu:5 in Reference gains a row at 7 of 10 seeds.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "cases/four_bar.hpp"
#include "cases/ladder.hpp"
#include "cases/loops.hpp"
#include "cases/registry.hpp"
#include "cases/states.hpp"
#include "closed_loop_dynamics/sparse_matrix_method.hpp"
#include "closed_loop_dynamics/variants.hpp"
#include "forward_dynamics/aba.hpp"
#include "factorization/sparse.hpp"
#include "reference/loop_oracle.hpp"
#include "reference/reference_scalar.hpp"
#include "verify/support/closed_loop_cases.hpp"
#include "verify/support/message_of.hpp"
#include "verify/support/ladder.hpp"
#include "verify/support/metrics.hpp"
#include "verify/support/sparse_loop_conditioning.hpp"
#include "verify/support/state.hpp"

namespace test_sparse_matrix_method {  // unity build: this file's names stay its own

using namespace rbd;
using R = Reference;

namespace {

// The gate's threshold (verify/support/exactness.hpp): 40 of the 50 digits.
const R kExact("1e-40");

using verify::block_bandwidth;
using verify::ladder_state;
using verify::LadderState;
using Row = verify::Eq864Row;

using verify::loop_qdd;

}  // namespace

TEST_CASE("sparse-matrix method: random loops against the loop oracle", "[sparse_matrix]") {
  const std::vector<verify::ClosedLoopCase> cs = verify::closed_loop_cases();
  REQUIRE(cs.size() >= 6);
  for (const auto& c : cs) {
    INFO(c.label);
    const VecX<R> truth = oracle::closed_loop_forward_dynamics<R>(c.m, c.loops, c.q, c.qd, c.tau, nullptr);
    ClosedLoopWorkspace<R> ws(c.m);
    const VecX<R> qdd = loop_qdd<LoopSparseMatrix>(c.m, c.loops, c.q, c.qd, c.tau, ws);
    INFO("rel. difference " << verify::rel_diff(qdd, truth).str(3));
    CHECK(verify::rel_diff(qdd, truth) <= kExact);
  }
}

TEST_CASE("sparse-matrix method: the ladder against Method 1, trees against the ABA", "[sparse_matrix]") {
  for (const int rungs : {1, 3}) {
    const LadderState<R> s = ladder_state<R>(rungs, 7);
    INFO("ladder of " << rungs << " rungs");
    ClosedLoopWorkspace<R> ws(s.m);
    const VecX<R> sparse = loop_qdd<LoopSparseMatrix>(s.m, s.loops, s.q, s.qd, s.tau, ws);
    const VecX<R> kkt = loop_qdd<LoopKkt>(s.m, s.loops, s.q, s.qd, s.tau, ws);
    INFO("rel. difference " << verify::rel_diff(sparse, kkt).str(3));
    CHECK(verify::rel_diff(sparse, kkt) <= kExact);
    CHECK(ws.sparse.ldlt.rank == ws.sparse.rows);  // independent constraints: nothing dropped
  }
  {  // In double too, on the 16-rung ladder, whose factor has a genuine pivot of 1.4e-7 A_kk: a drop
     // tolerance scaled by the growth of unrelated pivots dropped it (elimination_tree_ldlt.hpp).
    const LadderState<double> s = ladder_state<double>(16, 5);
    ClosedLoopWorkspace<double> ws(s.m);
    (void)loop_qdd<LoopSparseMatrix>(s.m, s.loops, s.q, s.qd, s.tau, ws);
    CHECK(ws.sparse.ldlt.rank == ws.sparse.rows);
  }
  for (const std::string id : {"gu:7", "tree:bf=2:nb=15", "all_joints", "humanoid"}) {
    INFO(id);
    const Model<double> md = cases::build_case(id);
    const Model<R> m = md.cast<R>();
    const verify::StateOf<R> x = verify::cast_state<R>(m, cases::random_state(md, 3));
    ClosedLoopWorkspace<R> ws(m);
    VecX<R> sparse(m.nv), aba(m.nv);
    LoopSparseMatrix::run<R>(m, {}, x.q, x.qd, x.tau, &x.f_ext, sparse, ws);
    ForwardDynamicsWorkspace<R> fws(m);
    Aba::run<R>(m, x.q, x.qd, x.tau, &x.f_ext, aba, fws);
    INFO("rel. difference " << verify::rel_diff(sparse, aba).str(3));
    CHECK(verify::rel_diff(sparse, aba) <= kExact);
  }
}

TEST_CASE("sparse-matrix method: redundant constraints drop their pivots", "[sparse_matrix]") {
  const cases::FourBarParams p = cases::four_bar_crank_rocker();
  for (const int copies : {1, 2}) {
    INFO(copies << " revolute loop joint(s)");
    const cases::FourBar fb = cases::four_bar(p, LoopJointType::Revolute, copies);
    const Model<R> m = fb.model.cast<R>();
    LoopJoints<R> loops;
    for (const auto& L : fb.loops) loops.push_back(L.template cast<R>());
    const cases::FourBarState<R> st = cases::four_bar_state<R>(p, R("0.9"), R("1.5"));
    const VecX<R> tau = VecX<R>::Constant(3, R("0.25"));
    ClosedLoopWorkspace<R> ws(m);
    const VecX<R> sparse = loop_qdd<LoopSparseMatrix>(m, loops, st.q, st.qd, tau, ws);
    const VecX<R> null = loop_qdd<LoopNullspace>(m, loops, st.q, st.qd, tau, ws);
    INFO("rel. difference " << verify::rel_diff(sparse, null).str(3));
    CHECK(verify::rel_diff(sparse, null) <= kExact);
    // 3 revolute tree joints (15 rows) and 5 per loop joint; the mechanism's constraints have
    // rank 15 + 2 (section 8.10: a planar loop, rank K = 2), so 3 + 5 (copies - 1) are dropped.
    CHECK(ws.sparse.rows == 15 + 5 * copies);
    CHECK(ws.sparse.ldlt.rank == 17);
  }
}

TEST_CASE("sparse-matrix method: Eq. 8.64's structure on Figure 8.4's ladder", "[sparse_matrix]") {
  std::vector<int> fill;
  for (const int rungs : {4, 8, 16, 32}) {
    INFO("ladder of " << rungs << " rungs");
    const LadderState<double> s = ladder_state<double>(rungs, 11);
    ClosedLoopWorkspace<double> ws(s.m);
    (void)loop_qdd<LoopSparseMatrix>(s.m, s.loops, s.q, s.qd, s.tau, ws);
    const SparseMatrixStructure<double>& sm = ws.sparse;
    const int NB = s.m.nb, NJ = static_cast<int>(sm.joint.size());
    REQUIRE(NB == 2 * rungs);
    REQUIRE(NJ == 3 * rungs);
    // Eq. 8.64 is (6 N_B + n^c_tot) square; n^c_tot = 3 per spherical joint, 5 per revolute, so
    // the analysis must have laid out 11 N rows of lambda (the size is then 23 N).
    CHECK(sm.rows == 3 * 2 * rungs + 5 * rungs);
    // Off-diagonal blocks: two (P T and its transpose) per joint end on a moving body; only
    // the two rails' first joints end on the base, so 4 N_J - 4 of the "up to 4 N_J".
    int ends = 0;
    for (const auto& J : sm.joint) ends += (J.p >= 0) + (J.s >= 0);
    CHECK(2 * ends == 4 * NJ - 4);
    // Figure 8.4's permutation: per cell, the joints into its two bodies, the two bodies,
    // then the rung; every coupling then lies within three block diagonals of the main one.
    const std::vector<Row> book = verify::figure_8_4_order(rungs);
    std::vector<Row> bodies_first;
    for (int i = 0; i < NB; ++i) bodies_first.push_back({true, i});
    for (int j = 0; j < NJ; ++j) bodies_first.push_back({false, j});
    CHECK(block_bandwidth(sm, book) == 3);
    CHECK(block_bandwidth(sm, bodies_first) >= NB);  // the unpermuted order's band grows with N
    // The spanning tree's H: two rails of 3N variables each, every pair on one rail coupled
    // (Eq. 6.14), so 2 (3N)^2 structural nonzeros (3N (3N + 1) in the lower triangle that
    // Table 6.3's factorization stores), whichever spanning tree the two rails form.
    CHECK(TreePattern(expanded_parent(s.m)).nonzeros() == 3 * rungs * (3 * rungs + 1));
    fill.push_back(sm.ldlt.nonzeros());
  }
  // The factor of A grows linearly: nnz(L) = alpha N + beta exactly, so doubling the ladder
  // doubles nnz(L) less the same constant every time (a quadratic growth would quadruple it).
  INFO("nnz(L) for 4, 8, 16, 32 rungs: " << fill[0] << " " << fill[1] << " " << fill[2] << " " << fill[3]);
  CHECK(fill[3] - 2 * fill[2] == fill[2] - 2 * fill[1]);
  CHECK(fill[2] - 2 * fill[1] == fill[1] - 2 * fill[0]);
}

TEST_CASE("sparse-matrix method: in double, within its own matrix's conditioning", "[sparse_matrix]") {
  constexpr double eps = std::numeric_limits<double>::epsilon();
  struct Sweep {
    std::string id;
    int first, last;
  };
  for (const auto& [id, first, last] : {Sweep{"gu:2", 1, 10}, Sweep{"gu:5", 1, 10}, Sweep{"gu:8", 1, 10},
                                        Sweep{"tree:bf=2:nb=15", 1, 10}, Sweep{"all_joints", 1, 10},
                                        Sweep{"urdf:panda", 19, 19}}) {
    const Model<double> md = cases::build_case(id);
    const Model<R> mr = md.cast<R>();
    for (int seed = first; seed <= last; ++seed) {
      INFO(id << " seed " << seed);
      const cases::State s = cases::random_state(md, seed);
      const verify::StateOf<double> xd = verify::cast_state<double>(md, s);
      const verify::StateOf<R> xr = verify::cast_state<R>(mr, s);
      // Each scalar closes the loops and projects qd in its own precision, as the family does.
      const LoopJoints<double> ld = cases::close_loops<double>(md, xd.q, xd.loop_specs);
      const LoopJoints<R> lr = cases::close_loops<R>(mr, xr.q, xr.loop_specs);
      const VecX<double> qd_d = cases::consistent_velocity<double>(md, ld, xd.q, xd.qd);
      const VecX<R> qd_r = cases::consistent_velocity<R>(mr, lr, xr.q, xr.qd);
      ClosedLoopWorkspace<double> wd(md);
      ClosedLoopWorkspace<R> wr(mr);
      VecX<double> qdd_d(md.nv);
      VecX<R> qdd_r(md.nv);
      LoopSparseMatrix::run<double>(md, ld, xd.q, qd_d, xd.tau, &xd.f_ext, qdd_d, wd);
      LoopSparseMatrix::run<R>(mr, lr, xr.q, qd_r, xr.tau, &xr.f_ext, qdd_r, wr);
      REQUIRE(wd.sparse.ldlt.rank == wr.sparse.ldlt.rank);  // the same rows judged dependent
      // cond_r(A): A from the double factorization's input, its rank checked against Reference's.
      const int n = wd.sparse.ldlt.n, rank = wr.sparse.ldlt.rank;
      const double cond = verify::sparse_loop_condition(wd.sparse.ldlt);
      double err2 = 0;
      for (int i = 0; i < md.nv; ++i) err2 += std::pow(static_cast<double>(R(qdd_d[i]) - qdd_r[i]), 2);
      const double err_eps = std::sqrt(err2) / eps;
      const double budget = cond * (32.0 * (md.depth() + 1) + 4.0 * n);
      INFO("error " << err_eps << " eps, cond2(A) " << cond << ", budget " << budget << " eps, rank " << rank << " of " << n);
      CHECK(err_eps <= budget);
    }
  }
}

// The rank loop_sparse_matrix keeps at a verify case's state, with qd as projected onto K's null
// space or moved off it by `drift` (times a fixed pattern of O(1) entries).
template <class S> int sparse_rank(const Model<double>& md, const cases::State& s, double drift) {
  const Model<S> m = md.cast<S>();
  const verify::StateOf<S> x = verify::cast_state<S>(m, s);
  const LoopJoints<S> loops = cases::close_loops<S>(m, x.q, x.loop_specs);
  VecX<S> qd = cases::consistent_velocity<S>(m, loops, x.q, x.qd);
  for (int i = 0; i < m.nv; ++i) qd[i] += S(drift * std::sin(1.0 + 7.3 * i));
  ClosedLoopWorkspace<S> ws(m);
  VecX<S> qdd(m.nv);
  LoopSparseMatrix::run<S>(m, loops, x.q, qd, x.tau, &x.f_ext, qdd, ws);
  return ws.sparse.ldlt.rank;
}

TEST_CASE("sparse-matrix method: a state off its constraints keeps the consistent state's rank", "[sparse_matrix]") {
  // A drift of 1e-4 in qd makes k inconsistent on the dependent rows by about that much, far
  // above either precision's rank tolerance, so every dependent row's equation is violated.
  for (const std::string id : {"gu:5", "humanoid"}) {
    const Model<double> md = cases::build_case(id);
    for (int seed = 1; seed <= 10; ++seed) {
      INFO(id << " seed " << seed);
      const cases::State s = cases::random_state(md, seed);
      if (s.loops.empty()) continue;
      CHECK(sparse_rank<double>(md, s, 1e-4) == sparse_rank<double>(md, s, 0));
      CHECK(sparse_rank<R>(md, s, 1e-4) == sparse_rank<R>(md, s, 0));
    }
  }
}

TEST_CASE("sparse-matrix method: no fill on a tree, and refusals", "[sparse_matrix]") {
  for (const std::string id : {"gu:12", "tree:bf=2:nb=31", "humanoid"}) {
    INFO(id);
    const Model<double> m = cases::build_case(id);
    const cases::State s = cases::random_state(m, 1);
    const verify::StateOf<double> x = verify::cast_state<double>(m, s);
    ClosedLoopWorkspace<double> ws(m);
    (void)loop_qdd<LoopSparseMatrix>(m, {}, x.q, x.qd, x.tau, ws);
    const auto& L = ws.sparse.ldlt;
    const int upper_offdiagonal = static_cast<int>(L.Ai.size()) - L.n;
    CHECK(L.nonzeros() == upper_offdiagonal);
  }
  const cases::FourBar fb = cases::four_bar(cases::four_bar_crank_rocker());
  const cases::FourBarState<double> st = cases::four_bar_state<double>(fb.params, 0.9, 1.5);
  ClosedLoopWorkspace<double> ws(fb.model);
  VecX<double> qdd(3);
  auto refusal = [&](VecX<double> q, VecX<double> qd, VecX<double> tau) {
    return verify::message_of<std::exception>([&] { LoopSparseMatrix::run<double>(fb.model, fb.loops, q, qd, tau, nullptr, qdd, ws); });
  };
  const double nan = std::nan("");
  VecX<double> bad = st.q;
  bad[1] = nan;
  CHECK_THAT(refusal(bad, st.qd, VecX<double>::Zero(3)), Catch::Contains("motion subspace of variable 1 has a non-finite entry"));
  bad = st.qd;
  bad[2] = nan;
  CHECK_THAT(refusal(st.q, bad, VecX<double>::Zero(3)), Catch::Contains("k has a non-finite entry"));
  bad = VecX<double>::Zero(3);
  bad[0] = nan;
  CHECK_THAT(refusal(st.q, st.qd, bad), Catch::Contains("body 0's forces are not finite"));
  ws.loop_tau = VecX<double>::Constant(1, nan);  // the revolute loop joint's own force (Table 8.2)
  CHECK_THAT(refusal(st.q, st.qd, VecX<double>::Zero(3)),
             Catch::Contains("forces are not finite") && Catch::Contains("loop_tau"));
  ws.loop_tau.resize(0);
  LoopSparseMatrix::run<double>(fb.model, fb.loops, st.q, st.qd, VecX<double>::Zero(3), nullptr, qdd, ws);
  CHECK(qdd.allFinite());  // and a good call after the refusals works
}

}  // namespace test_sparse_matrix_method
