#pragma once
// Figure 8.4's ladder (cases/ladder.hpp) for the checks of section 8.13 that the test
// (test_sparse_matrix_method.cpp) and the op counts (opcounts.cpp, section_8_13) share: a
// closed state in any scalar, and the block bandwidth of Eq. 8.64 under an order of its rows.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "cases/ladder.hpp"
#include "cases/states.hpp"
#include "closed_loop_dynamics/sparse_matrix_method.hpp"
#include "verify/support/state.hpp"

namespace rbd::verify {

template <class S> struct LadderState {
  Model<S> m;
  LoopJoints<S> loops;
  VecX<S> q, qd, tau;
};

// A ladder of `rungs` cells at a random configuration (quaternions drawn by the state
// generator), closed there in S's precision, with qd projected onto the loops in S.
template <class S> LadderState<S> ladder_state(int rungs, std::uint64_t seed) {
  const cases::Ladder L = cases::ladder(rungs);
  const cases::State s = cases::random_state(L.model, seed);
  LadderState<S> out;
  out.m = L.model.template cast<S>();
  const StateOf<S> x = cast_state<S>(out.m, s);
  out.q = x.q;
  out.loops = cases::close_loops<S>(out.m, out.q, L.rungs);
  out.qd = cases::consistent_velocity<S>(out.m, out.loops, out.q, x.qd);
  out.tau = x.tau;
  return out;
}

// A block row of Eq. 8.64's coefficient matrix: body i (its row of I) or joint j (its row of
// T^T P^T). Body i and joint j are coupled when i is p(j) or s(j).
struct Eq864Row {
  bool body;
  int index;
};

// The largest |position difference| of a coupled pair under `order`.
template <class S> int block_bandwidth(const SparseMatrixStructure<S>& sm, const std::vector<Eq864Row>& order) {
  std::vector<int> body_at(sm.nb, -1), joint_at(sm.joint.size(), -1);
  for (std::size_t k = 0; k < order.size(); ++k)
    (order[k].body ? body_at : joint_at)[order[k].index] = static_cast<int>(k);
  int band = 0;
  for (std::size_t j = 0; j < sm.joint.size(); ++j)
    for (const int b : {sm.joint[j].p, sm.joint[j].s})
      if (b >= 0) band = std::max(band, std::abs(joint_at[j] - body_at[b]));
  return band;
}

// Figure 8.4's permutation as its text describes it, cell by cell: the two joints into the
// cell's bodies (rails), the two bodies, then the rung (joint nb + k).
inline std::vector<Eq864Row> figure_8_4_order(int rungs) {
  std::vector<Eq864Row> out;
  for (int k = 0; k < rungs; ++k)
    for (const Eq864Row r : {Eq864Row{false, 2 * k}, Eq864Row{false, 2 * k + 1}, Eq864Row{true, 2 * k},
                             Eq864Row{true, 2 * k + 1}, Eq864Row{false, 2 * rungs + k}})
      out.push_back(r);
  return out;
}

}  // namespace rbd::verify
