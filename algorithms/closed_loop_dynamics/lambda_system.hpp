#pragma once
// Steps 1-4 of section 8.5's Method 2, shared by loop_lambda_first and loop_proximal:
//   1. H = L^T L by the branch-induced sparse factorization (Tables 6.3 and 6.5);
//   3. Y = L^-T K^T, z = L^-T tau';
//   4. A = Y^T Y (= K H^-1 K^T, Eq. 8.38), b = k + k_stab - Y^T z (Eq. 8.39).
// Step 2 (tau' = tau - C + tau^a) is steps.hpp's tree_and_loop_terms, called before. The factor
// stays in ws.rows for step 6, H qdd = tau' + K^T lambda (ltl_solve).
#include "closed_loop_dynamics/steps.hpp"
#include "factorization/sparse.hpp"

namespace rbd::loops {

template <class S> void lambda_system(ClosedLoopWorkspace<S>& ws) {
  pack<S>(ws.pattern, ws.H, ws.rows);  // step 1
  ltl_factor<S>(ws.pattern, ws.rows);
  ws.z = ws.tau_prime;                  // step 3
  solve_Lt<false, S>(ws.pattern, ws.rows, ws.z);
  for (int c = 0; c < ws.nc; ++c) {
    ws.col = ws.K.row(c).transpose();
    solve_Lt<false, S>(ws.pattern, ws.rows, ws.col);
    ws.Y.col(c) = ws.col;
  }
  ws.A.noalias() = ws.Y.transpose() * ws.Y;  // step 4
  ws.b = ws.k;
  ws.b.noalias() -= ws.Y.transpose() * ws.z;
}

// x <- P^T L^-T D^+ L^-1 P x for A = P^T L D L^T P (a computed pivoted LDLT), D^+ inverting only
// the pivots above rank_tol * max |D|: one solution of A y = x when x is in A's range (Eq. 8.41;
// loop_lambda_first.hpp's step 5). K^T y is the same for every such solution, since K^T
// annihilates A's null space.
template <class S, class Vec> void semidefinite_solve(const Eigen::LDLT<MatX<S>>& ldlt, const S& rank_tol, Vec&& x) {
  const int n = static_cast<int>(x.size());
  x = ldlt.transpositionsP() * x;
  ldlt.matrixL().solveInPlace(x);
  const auto D = ldlt.vectorD();
  S dmax = S(0);
  for (int i = 0; i < n; ++i) dmax = std::max(dmax, S(abs_(D[i])));
  for (int i = 0; i < n; ++i) x[i] = abs_(D[i]) > rank_tol * dmax ? S(x[i] / D[i]) : S(0);
  ldlt.matrixU().solveInPlace(x);
  x = ldlt.transpositionsP().transpose() * x;
}

}  // namespace rbd::loops
