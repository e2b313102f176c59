#pragma once
// Steps 1-4 of section 8.5's Method 2, shared by loop_lambda_first, loop_proximal and
// loop_contact_lambda_first:
//   1. H = L^T L by the branch-induced sparse factorization (Tables 6.3 and 6.5);
//   3. Y = L^-T K^T, z = L^-T tau';
//   4. A = Y^T Y (= K H^-1 K^T, Eq. 8.38), b = k + k_stab - Y^T z (Eq. 8.39).
// Step 2 (tau' = tau - C + tau^a) is steps.hpp's tree_and_loop_terms, called before. The factor
// stays in ws.rows for step 6, H qdd = tau' + K^T lambda (ltl_solve).
//
// Steps 3 and 4 keep to where Y can be nonzero (ws.loop_support, ws.shared_ranges): each column
// of Y is solved on its loop's variables and their ancestors only (Table 6.5's loop visits the
// others with x_i = 0 and changes nothing there), and A_cd = Y_c . Y_d sums over the variables
// both columns can have. Two loops on different branches share only the variables of their
// common ancestors (for a parallel robot's legs, the platform's), so A costs a fraction of the
// dense n (n^c)^2. Y stays the whole matrix, zero outside the supports (set by prepare()).
#include "closed_loop_dynamics/steps.hpp"
#include "factorization/sparse.hpp"

namespace rbd::loops {

template <class S> void lambda_system(ClosedLoopWorkspace<S>& ws) {
  const TreePattern& p = ws.pattern;
  pack<S>(p, ws.H, ws.rows);  // step 1
  ltl_factor<S>(p, ws.rows);
  ws.z = ws.tau_prime;        // step 3
  solve_Lt<false, S>(p, ws.rows, ws.z);
  const int nl = static_cast<int>(ws.loop_support.size());
  for (int l = 0; l < nl; ++l) {
    // A loop's columns share their support, so they are solved side by side (each entry gets
    // the operations a column-by-column solve gives it).
    const int r0 = ws.row0[l], r1 = l + 1 < nl ? ws.row0[l + 1] : ws.nc;
    for (int i : ws.loop_support[l])
      for (int c = r0; c < r1; ++c) ws.Y(i, c) = ws.K(c, i);
    for (int i : ws.loop_support[l]) {  // descending: Table 6.5's L^-T on the support
      const int r = p.row_start[i];
      for (int c = r0; c < r1; ++c) ws.Y(i, c) /= ws.rows[r];
      for (int t = r + 1; t < p.row_start[i + 1]; ++t)
        for (int c = r0; c < r1; ++c) ws.Y(p.col[t], c) -= ws.rows[t] * ws.Y(i, c);
    }
    for (int c = r0; c < r1; ++c) {
      S bc = ws.k[c];
      for (const auto& [i0, len] : ws.loop_ranges[l]) bc -= ws.Y.col(c).segment(i0, len).dot(ws.z.segment(i0, len));
      ws.b[c] = bc;
    }
  }
  for (int l = 0; l < nl; ++l)  // step 4: A = Y^T Y
    for (int m = l; m < nl; ++m) {
      const auto& both = ws.shared_ranges[l * nl + m];
      const int l1 = l + 1 < nl ? ws.row0[l + 1] : ws.nc, m1 = m + 1 < nl ? ws.row0[m + 1] : ws.nc;
      for (int c = ws.row0[l]; c < l1; ++c)
        for (int d = l == m ? c : ws.row0[m]; d < m1; ++d) {
          S a = S(0);
          for (const auto& [i0, len] : both) a += ws.Y.col(c).segment(i0, len).dot(ws.Y.col(d).segment(i0, len));
          ws.A(c, d) = a;
          ws.A(d, c) = a;
        }
    }
}

}  // namespace rbd::loops
