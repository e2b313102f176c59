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
#include <algorithm>
#include <utility>

#include "closed_loop_dynamics/workspace.hpp"

namespace rbd::loops {

// Complete-pivoting elimination of an augmented block W = [A | b] (rows x (cols + 1)) in
// place, pivots below `tol` (absolute) counting as zero. Records the original row and column at
// each pivot position in row_of, col_of (length rows, cols) and returns the rank r; the top r
// rows then hold [U11 U12 | L^-1 b1] with U11 upper triangular. Written on a block so that
// section 8.9's clusters (loop_clusters.hpp) eliminate each K_i with the same steps.
template <class S>
int eliminate_block(Eigen::Ref<MatX<S>> W, const S& tol, int* row_of, int* col_of) {
  using std::swap;
  const int rows = static_cast<int>(W.rows()), n = static_cast<int>(W.cols()) - 1;
  for (int r = 0; r < rows; ++r) row_of[r] = r;
  for (int c = 0; c < n; ++c) col_of[c] = c;
  int t = 0;
  for (; t < std::min(rows, n); ++t) {
    int pr = t, pc = t;
    S best = S(-1);
    for (int c = t; c < n; ++c)
      for (int r = t; r < rows; ++r)
        if (abs_(W(r, c)) > best) { best = abs_(W(r, c)); pr = r; pc = c; }
    if (!(best > tol)) break;  // rank test (K and k are finite here: steps.hpp's require_finite)
    W.row(t).swap(W.row(pr));
    swap(row_of[t], row_of[pr]);
    W.col(t).swap(W.col(pc));
    swap(col_of[t], col_of[pc]);
    for (int r = t + 1; r < rows; ++r) {
      const S f = W(r, t) / W(t, t);
      if (f == S(0)) continue;
      W(r, t) = S(0);
      for (int c = t + 1; c <= n; ++c) W(r, c) -= f * W(t, c);
    }
  }
  return t;
}

// G (cols x (cols - rank)) and g of Eq. 8.51 from eliminate_block()'s result, by
// back-substitution on the top rank rows of W (overwritten). G's columns are the variables left
// free (y = x2 of Eq. 8.50).
template <class S, class GOut, class gOut>
void null_space_block(Eigen::Ref<MatX<S>> W, int r, const int* col_of, GOut&& G, gOut&& g) {
  const int n = static_cast<int>(W.cols()) - 1, ny = n - r;
  // Back-substitution U11 [X | x] = [U12 | c1], in place in W's top rows.
  for (int t = r - 1; t >= 0; --t) {
    for (int c = r; c <= n; ++c) {
      S s = W(t, c);
      for (int u = t + 1; u < r; ++u) s -= W(t, u) * W(u, c);
      W(t, c) = s / W(t, t);
    }
  }
  // G = Q2^T [-X; 1], g = Q2^T [x; 0]: row col_of[t] of G is row t of the stacked matrix.
  for (int t = 0; t < r; ++t) {
    for (int c = 0; c < ny; ++c) G(col_of[t], c) = -W(t, r + c);
    g[col_of[t]] = W(t, n);
  }
  for (int c = 0; c < ny; ++c) {
    for (int u = 0; u < ny; ++u) G(col_of[r + u], c) = u == c ? S(1) : S(0);
    g[col_of[r + c]] = S(0);
  }
}

// The rank test's threshold: ws.rank_tol times K's largest entry (workspace.hpp says why).
template <class S> S rank_threshold(const ClosedLoopWorkspace<S>& ws) {
  S scale = S(0);
  for (int c = 0; c < static_cast<int>(ws.K.cols()); ++c)
    for (int r = 0; r < ws.nc; ++r) scale = std::max(scale, S(abs_(ws.K(r, c))));
  return ws.rank_tol * scale;
}

// Eliminates [K | k] in ws.W; leaves ws.rank, ws.row_of, ws.col_of and, in the top rank rows,
// [U11 U12 | L^-1 k1] with U11 upper triangular.
template <class S> void eliminate(ClosedLoopWorkspace<S>& ws) {
  const int nc = ws.nc, n = static_cast<int>(ws.K.cols());
  ws.W.leftCols(n) = ws.K;
  ws.W.col(n) = ws.k;
  ws.rank = eliminate_block<S>(ws.W, rank_threshold(ws), ws.row_of.data(), ws.col_of.data());
  ws.residual = S(0);
  for (int r = ws.rank; r < nc; ++r) ws.residual = std::max(ws.residual, S(abs_(ws.W(r, n))));
}

// G (n x (n - rank)) and g of Eq. 8.51 from eliminate()'s result.
template <class S> void null_space_form(ClosedLoopWorkspace<S>& ws) {
  null_space_block<S>(ws.W, ws.rank, ws.col_of.data(), ws.G, ws.g);
}

}  // namespace rbd::loops
