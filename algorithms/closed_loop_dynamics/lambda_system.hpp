#pragma once
// Steps 1-4 of section 8.5's Method 2, shared by loop_lambda_first, loop_proximal and
// loop_contact_lambda_first:
//   1. H = L^T L by the branch-induced sparse factorization (Tables 6.3 and 6.5);
//   3. Y = L^-T K^T, z = L^-T tau';
//   4. A = Y^T Y (= K H^-1 K^T, Eq. 8.38), b = k + k_stab - Y^T z (Eq. 8.39).
// Step 2 (tau' = tau - C + tau^a) is steps.hpp's tree_and_loop_terms, called before. The factor
// stays in ws.rows for step 6, H qdd = tau' + K^T lambda (ltl_solve).
//
// Y is kept transposed, Yt = Y^T = K L^-1 (n^c x n, column-major), so that variable i's entries
// in every column of Y (row i of Y) lie side by side. Steps 3 and 4 keep to where Y can be
// nonzero: column c of Y (loop l's row c of K) only on loop l's support, the variables of p(k),
// s(k) and their ancestors (Table 6.5's loop visits the other variables with x_i = 0 and changes
// nothing there), and ws.support_columns[i] lists the columns whose support holds variable i.
// Then, one variable at a time:
//   step 3, descending:  Yt_i /= L_ii, then Yt_j -= L_ij Yt_i for the ancestors j of i;
//   step 4, ascending:   b -= Yt_i z_i and A += Yt_i Yt_i^T (lower triangle) on those columns.
// Each entry of Y, b and A gets the operations, in the same order, that a column-by-column
// solve and an entry-by-entry dot product over the shared support give it; done side by side
// they run down contiguous memory. Two loops on different branches share only the variables of
// their common ancestors (for a parallel robot's legs, the platform's), so A costs a fraction of
// the dense n (n^c)^2. Yt is zero outside the supports (set by prepare()).
#include <algorithm>

#include "closed_loop_dynamics/steps.hpp"
#include "factorization/sparse.hpp"

namespace rbd::loops {

template <class S> void lambda_system(ClosedLoopWorkspace<S>& ws) {
  const TreePattern& p = ws.pattern;
  const int n = p.size();
  pack<S>(p, ws.H, ws.rows);  // step 1
  ltl_factor<S>(p, ws.rows);
  ws.z = ws.tau_prime;        // step 3
  solve_Lt<false, S>(p, ws.rows, ws.z);
  for (int i = 0; i < n; ++i)
    for (const auto& [c0, len] : ws.support_columns[i]) ws.Yt.col(i).segment(c0, len) = ws.K.col(i).segment(c0, len);
  for (int i = n - 1; i >= 0; --i) {
    const auto& columns = ws.support_columns[i];
    if (columns.empty()) continue;
    const int r = p.row_start[i];
    S* __restrict yi = &ws.Yt(0, i);
    for (const auto& [c0, len] : columns)
      for (int c = c0; c < c0 + len; ++c) yi[c] /= ws.rows[r];
    for (int t = r + 1; t < p.row_start[i + 1]; ++t) {  // j = p.col[t] < i, an ancestor
      S* __restrict yj = &ws.Yt(0, p.col[t]);
      const S lij = ws.rows[t];
      for (const auto& [c0, len] : columns)
        for (int c = c0; c < c0 + len; ++c) yj[c] -= lij * yi[c];
    }
  }
  ws.b = ws.k;  // step 4
  ws.A.setZero();
  for (int i = 0; i < n; ++i) {
    const auto& columns = ws.support_columns[i];
    if (columns.empty()) continue;  // (also: no loops, Yt has no rows to point into)
    const S* __restrict yi = &ws.Yt(0, i);
    const S zi = ws.z[i];
    for (const auto& [c0, len] : columns)
      for (int c = c0; c < c0 + len; ++c) ws.b[c] -= yi[c] * zi;
    for (const auto& [c0, len] : columns)
      for (int c = c0; c < c0 + len; ++c) {
        S* __restrict ac = &ws.A(0, c);
        const S yic = yi[c];
        for (const auto& [d0, dlen] : columns)
          for (int d = std::max(d0, c); d < d0 + dlen; ++d) ac[d] += yi[d] * yic;  // A_dc, d >= c
      }
  }
  for (int c = 0; c < ws.nc; ++c)  // the upper triangle, for whoever reads A whole
    for (int d = c + 1; d < ws.nc; ++d) ws.A(c, d) = ws.A(d, c);
}

}  // namespace rbd::loops
