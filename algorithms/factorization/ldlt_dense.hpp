#pragma once
// Eigen's dense LDL^T with symmetric (diagonal) pivoting, P H P^T = L D L^T (Eigen::LDLT).
// Treats H as dense: O(n^3) whatever the tree. The solve is written out from Eigen's parts
// (the same steps as LDLT::solve for a positive-definite H) so that it works in place and
// allocates nothing.
#include <string_view>
#include <utility>

#include "factorization/workspace.hpp"

namespace rbd {

struct LdltDense {
  static constexpr std::string_view name = "ldlt_dense";
  static constexpr std::string_view summary =
      "Eigen's dense pivoted LDL^T, P H P^T = L D L^T (Eigen::LDLT)";
  static constexpr std::string_view complexity = "O(n^3) factor, O(n^2) solve";
  // Eigen's triangular solves work in panels of 8 columns, so the operation count is a
  // different cubic for each n mod 8: verify/opcounts.cpp records it without requiring one
  // polynomial to fit every n (the counts themselves are still gated exactly).
  static constexpr bool polynomial_op_counts = false;
  template <class S> static bool applicable(const Model<S>&) { return true; }

  // Reads the lower triangle of H.
  template <class S> static void factor(const MatX<S>& H, FactorizationWorkspace<S>& ws) { ws.ldlt.compute(H); }

  // x <- P^T L^-T D^-1 L^-1 P x.
  template <class S> static void solve(const FactorizationWorkspace<S>& ws, VecX<S>& x) {
    const auto& t = ws.ldlt.transpositionsP();
    const Eigen::Index n = x.size();
    for (Eigen::Index k = 0; k < n; ++k) std::swap(x[k], x[t.coeff(k)]);  // P x
    ws.ldlt.matrixL().solveInPlace(x);                                     // L^-1
    const auto D = ws.ldlt.vectorD();
    for (Eigen::Index k = 0; k < n; ++k) x[k] /= D[k];                      // D^-1
    ws.ldlt.matrixU().solveInPlace(x);                                     // L^-T
    for (Eigen::Index k = n - 1; k >= 0; --k) std::swap(x[k], x[t.coeff(k)]);  // P^T
  }
  template <class S>
  static void run(const Model<S>&, const MatX<S>& H, const VecX<S>& b, VecX<S>& x, FactorizationWorkspace<S>& ws) {
    factor<S>(H, ws);
    x = b;
    solve<S>(ws, x);
  }
};

}  // namespace rbd
