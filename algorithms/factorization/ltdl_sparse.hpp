#pragma once
// H = L^T D L by the branch-induced sparse algorithm of Featherstone Table 6.3, then
// H x = b by the back-substitutions of Table 6.5 with unit L: x = L^-1 D^-1 L^-T b.
// On an unbranched chain (GU(n)) its counted cost is exactly the F&S row of Table 10.1.
#include <string_view>

#include "factorization/workspace.hpp"

namespace rbd {

struct LtdlSparse {
  static constexpr std::string_view name = "ltdl_sparse";
  static constexpr std::string_view summary =
      "Sparse L^T D L (square-root free) driven by the expanded parent array, no fill-in "
      "(Featherstone Tables 6.3-6.5)";
  static constexpr std::string_view complexity = "O(n d^2) factor, O(n d) solve";
  template <class S> static bool applicable(const Model<S>&) { return true; }

  // Copies the diagonal and the branch-induced pattern of H's lower triangle into ws.L
  // (nothing else of H is read) and factors it in place: diag(ws.L) = D, strict lower = L.
  template <class S> static void factor(const MatX<S>& H, FactorizationWorkspace<S>& ws) {
    const auto& lambda = ws.lambda;
    for (int k = 0; k < static_cast<int>(lambda.size()); ++k) {
      ws.L(k, k) = H(k, k);
      for (int i = lambda[k]; i >= 0; i = lambda[i]) ws.L(k, i) = H(k, i);
    }
    ltdl_in_place<S>(lambda, ws.L);
  }
  template <class S> static void solve(const FactorizationWorkspace<S>& ws, VecX<S>& x) {
    ltdl_solve<S>(ws.lambda, ws.L, x);
  }
  template <class S>
  static void run(const Model<S>&, const MatX<S>& H, const VecX<S>& b, VecX<S>& x, FactorizationWorkspace<S>& ws) {
    factor<S>(H, ws);
    x = b;
    solve<S>(ws, x);
  }
};

}  // namespace rbd
