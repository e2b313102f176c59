#pragma once
// H = L^T L by the branch-induced sparse algorithm of Featherstone Table 6.3, then
// H x = b by the back-substitutions of Table 6.5: x = L^-1 (L^-T b).
#include <string_view>

#include "factorization/workspace.hpp"

namespace rbd {

struct LtlSparse {
  static constexpr std::string_view name = "ltl_sparse";
  static constexpr std::string_view summary =
      "Sparse L^T L (reordered Cholesky) driven by the expanded parent array, no fill-in "
      "(Featherstone Tables 6.3-6.5)";
  static constexpr std::string_view complexity = "O(n d^2) factor, O(n d) solve";
  template <class S> static bool applicable(const Model<S>&) { return true; }

  // Copies the diagonal and the branch-induced pattern of H's lower triangle into ws.L
  // (nothing else of H is read) and factors it in place: ws.L's lower triangle = L.
  template <class S> static void factor(const MatX<S>& H, FactorizationWorkspace<S>& ws) {
    const auto& lambda = ws.lambda;
    for (int k = 0; k < static_cast<int>(lambda.size()); ++k) {
      ws.L(k, k) = H(k, k);
      for (int i = lambda[k]; i >= 0; i = lambda[i]) ws.L(k, i) = H(k, i);
    }
    ltl_in_place<S>(lambda, ws.L);
  }
  // x <- H^-1 x from the factor in ws.
  template <class S> static void solve(const FactorizationWorkspace<S>& ws, VecX<S>& x) {
    ltl_solve<S>(ws.lambda, ws.L, x);
  }
  template <class S>
  static void run(const Model<S>&, const MatX<S>& H, const VecX<S>& b, VecX<S>& x, FactorizationWorkspace<S>& ws) {
    factor<S>(H, ws);
    x = b;
    solve<S>(ws, x);
  }
};

}  // namespace rbd
