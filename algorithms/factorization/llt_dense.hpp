#pragma once
// Eigen's dense Cholesky factorization H = L L^T (Eigen::LLT, unblocked below 32 columns)
// and its triangular solves. Treats H as dense: O(n^3) whatever the tree.
#include <string_view>

#include "factorization/workspace.hpp"

namespace rbd {

struct LltDense {
  static constexpr std::string_view name = "llt_dense";
  static constexpr std::string_view summary = "Eigen's dense Cholesky H = L L^T (Eigen::LLT)";
  static constexpr std::string_view complexity = "O(n^3) factor, O(n^2) solve";
  // Eigen's triangular solves work in panels of 8 columns, so the operation count is a
  // different cubic for each n mod 8: verify/opcounts.cpp records it without requiring one
  // polynomial to fit every n (the counts themselves are still gated exactly).
  static constexpr bool polynomial_op_counts = false;
  template <class S> static bool applicable(const Model<S>&) { return true; }

  // Reads the lower triangle of H.
  template <class S> static void factor(const MatX<S>& H, FactorizationWorkspace<S>& ws) { ws.llt.compute(H); }
  template <class S> static void solve(const FactorizationWorkspace<S>& ws, VecX<S>& x) { ws.llt.solveInPlace(x); }
  template <class S>
  static void run(const Model<S>&, const MatX<S>& H, const VecX<S>& b, VecX<S>& x, FactorizationWorkspace<S>& ws) {
    factor<S>(H, ws);
    x = b;
    solve<S>(ws, x);
  }
};

}  // namespace rbd
