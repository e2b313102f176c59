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

  // Packs the diagonal and the branch-induced pattern of H's lower triangle into ws.rows
  // (nothing else of H is read) and factors them in place.
  template <class S> static void factor(const MatX<S>& H, FactorizationWorkspace<S>& ws) {
    pack<S>(ws.pattern, H, ws.rows);
    ltdl_factor<S>(ws.pattern, ws.rows);
  }
  // x <- H^-1 x from the factor in ws.
  template <class S> static void solve(const FactorizationWorkspace<S>& ws, VecX<S>& x) {
    ltdl_solve<S>(ws.pattern, ws.rows, x);
  }
  template <class S>
  static void run(const Model<S>&, const MatX<S>& H, const VecX<S>& b, VecX<S>& x, FactorizationWorkspace<S>& ws) {
    factor<S>(H, ws);
    x = b;
    solve<S>(ws, x);
  }
};

}  // namespace rbd
