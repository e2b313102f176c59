#pragma once
// Section 8.8: solve K x = k (Eq. 8.48) in the form x = G y + g (Eq. 8.49) by Gaussian
// elimination with complete pivoting and a rank test, as the section prescribes:
//  1. row and column swaps, the column swaps recorded (they are Q2);
//  2. a rank test: stop when the largest remaining |entry| is below rank_tol times the
//     largest entry of K (workspace.hpp says why that tolerance);
//  3. back-substitution on the top r rows gives K11^-1 K12 and K11^-1 k1, and Eq. 8.51:
//       G = Q2^T [-K11^-1 K12; 1],  g = Q2^T [K11^-1 k1; 0].
// The pivot rows are a set of r independent constraints: loop_kkt keeps only those (the
// pruning of Method 1). What is left in the dependent rows' right side after elimination
// measures how inconsistent Eq. 8.35 is (section 8.5: rounding, or a state that does not
// quite close the loops); it is kept in ws.residual for callers to report.
#include <utility>

#include "closed_loop_dynamics/workspace.hpp"

namespace rbd::loops {

// Eliminates [K | k] in ws.W; leaves ws.rank, ws.row_of, ws.col_of and, in the top rank rows,
// [U11 U12 | L^-1 k1] with U11 upper triangular.
template <class S> void eliminate(ClosedLoopWorkspace<S>& ws) {
  using std::swap;
  const int nc = ws.nc, n = static_cast<int>(ws.K.cols());
  ws.W.leftCols(n) = ws.K;
  ws.W.col(n) = ws.k;
  for (int r = 0; r < nc; ++r) ws.row_of[r] = r;
  for (int c = 0; c < n; ++c) ws.col_of[c] = c;
  S scale = S(0);
  for (int r = 0; r < nc; ++r)
    for (int c = 0; c < n; ++c) scale = std::max(scale, S(abs_(ws.W(r, c))));
  const S tol = ws.rank_tol * scale;
  int t = 0;
  for (; t < std::min(nc, n); ++t) {
    int pr = t, pc = t;
    S best = S(-1);
    for (int c = t; c < n; ++c)
      for (int r = t; r < nc; ++r)
        if (abs_(ws.W(r, c)) > best) { best = abs_(ws.W(r, c)); pr = r; pc = c; }
    if (!(best > tol)) break;  // rank test (K and k are finite here: steps.hpp's require_finite)
    ws.W.row(t).swap(ws.W.row(pr));
    swap(ws.row_of[t], ws.row_of[pr]);
    ws.W.col(t).swap(ws.W.col(pc));
    swap(ws.col_of[t], ws.col_of[pc]);
    for (int r = t + 1; r < nc; ++r) {
      const S f = ws.W(r, t) / ws.W(t, t);
      if (f == S(0)) continue;
      ws.W(r, t) = S(0);
      for (int c = t + 1; c <= n; ++c) ws.W(r, c) -= f * ws.W(t, c);
    }
  }
  ws.rank = t;
  ws.residual = S(0);
  for (int r = t; r < nc; ++r) ws.residual = std::max(ws.residual, S(abs_(ws.W(r, n))));
}

// G (n x (n - rank)) and g of Eq. 8.51 from eliminate()'s result, by back-substitution on the
// top rank rows. G's columns are the variables left free (y = x2 of Eq. 8.50).
template <class S> void null_space_form(ClosedLoopWorkspace<S>& ws) {
  const int n = static_cast<int>(ws.K.cols()), r = ws.rank, ny = n - r;
  // Back-substitution U11 [X | x] = [U12 | c1], in place in W's top rows.
  for (int t = r - 1; t >= 0; --t) {
    for (int c = r; c <= n; ++c) {
      S s = ws.W(t, c);
      for (int u = t + 1; u < r; ++u) s -= ws.W(t, u) * ws.W(u, c);
      ws.W(t, c) = s / ws.W(t, t);
    }
  }
  // G = Q2^T [-X; 1], g = Q2^T [x; 0]: row col_of[t] of G is row t of the stacked matrix.
  for (int t = 0; t < r; ++t) {
    for (int c = 0; c < ny; ++c) ws.G(ws.col_of[t], c) = -ws.W(t, r + c);
    ws.g[ws.col_of[t]] = ws.W(t, n);
  }
  for (int c = 0; c < ny; ++c) {
    for (int u = 0; u < ny; ++u) ws.G(ws.col_of[r + u], c) = u == c ? S(1) : S(0);
    ws.g[ws.col_of[r + c]] = S(0);
  }
}

}  // namespace rbd::loops
