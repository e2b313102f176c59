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

  // Packs the diagonal and the branch-induced pattern of H's lower triangle into ws.rows
  // (nothing else of H is read) and factors them in place.
  template <class S> static void factor(const MatX<S>& H, FactorizationWorkspace<S>& ws) {
    pack<S>(ws.pattern, H, ws.rows);
    ltl_factor<S>(ws.pattern, ws.rows);
  }
  // x <- H^-1 x from the factor in ws.
  template <class S> static void solve(const FactorizationWorkspace<S>& ws, VecX<S>& x) {
    ltl_solve<S>(ws.pattern, ws.rows, x);
  }
  template <class S>
  static void run(const Model<S>&, const MatX<S>& H, const VecX<S>& b, VecX<S>& x, FactorizationWorkspace<S>& ws) {
    factor<S>(H, ws);
    x = b;
    solve<S>(ws, x);
  }
};

}  // namespace rbd
