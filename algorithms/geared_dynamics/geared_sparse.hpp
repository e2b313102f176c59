#pragma once
// Eq. 9.27: G^T H G from the nonzeros only. G has one nonzero per row (most of them ones) and H
// the branch-induced pattern of section 6.5 (H_kj = 0 unless one of k, j is an ancestor of the
// other), so entry (r, c) of G^T H G is the sum of ratio_k ratio_j H_kj over the nonzero H_kj
// with k in column r and j in column c of G. The terms are listed once per set of gear pairs
// (GearedWorkspace::prepare); a ratio of one costs no multiplication. For Figure 9.2's arm the
// product costs 5m + 3a against the dense 44m + 33a, as section 9.6 says (verify/test_gears.cpp).
#include <string_view>

#include "geared_dynamics/steps.hpp"

namespace rbd {

struct GearedSparse {
  static constexpr std::string_view name = "geared_sparse";
  static constexpr std::string_view summary =
      "Eq. 9.27: G^T H G and G^T (tau - C) from the nonzeros of G and H's branch-induced pattern, Cholesky "
      "(Eigen::LLT)";
  static constexpr std::string_view complexity = "O(nd + m^3)";
  static constexpr bool polynomial_op_counts = false;  // Eigen's blocked LLT, as llt_dense
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& m, const GearPairs& pairs, const VecX<S>& y, const VecX<S>& yd, const VecX<S>& tau,
                  const ExternalForces<S>* f_ext, VecX<S>& ydd, GearedWorkspace<S>& ws) {
    ws.prepare(m, pairs);
    gears_detail::tree_terms<S>(m, y, yd, tau, f_ext, ws);
    project<S>(ws.plan, ws.map, ws.H, ws.Hy);
    const GearMap<S>& g = ws.map;
    for (int c = 0; c < g.ny; ++c) ws.rhs[c] = ws.b[g.v_of_y[c]];  // the undriven variable's own row
    for (int k = 0; k < m.nv; ++k) {
      if (g.v_of_y[g.col[k]] == k) continue;
      ws.rhs[g.col[k]] += g.unit[k] ? ws.b[k] : S(g.ratio[k] * ws.b[k]);
    }
    gears_detail::solve_projected<S>("geared_sparse", ws, ydd);
  }

  // The lower triangle of G^T H G from the plan's terms (entries with no term stay zero).
  template <class S>
  static void project(const std::vector<GearProductTerm>& plan, const GearMap<S>& g, const MatX<S>& H, MatX<S>& Hy) {
    for (const GearProductTerm& t : plan) {
      S v = H(t.k, t.j);
      if (!g.unit[t.k]) v = g.ratio[t.k] * v;
      if (!g.unit[t.j]) v = g.ratio[t.j] * v;
      if (t.twice) v = v + v;
      if (t.first) Hy(t.row, t.col) = v;
      else Hy(t.row, t.col) += v;
    }
  }
};

}  // namespace rbd
