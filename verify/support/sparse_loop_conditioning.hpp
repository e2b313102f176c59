#pragma once
// cond_r(A) of section 8.13's A = T^T P^T I^-1 P T as loop_sparse_matrix last factored it:
// lambda_1 / lambda_r over A's r nonzero eigenvalues, r the factor's rank (the rows it kept)
// less any eigenvalue at the rounding level of A (below).
// The matrix is rebuilt densely from the factor's input (its upper triangle by columns), so this
// is for budgets and tests, not for the hot loop.
#include <Eigen/Eigenvalues>

#include "factorization/elimination_tree_ldlt.hpp"

namespace rbd::verify {

inline double sparse_loop_condition(const EliminationTreeLdlt<double>& L) {
  if (L.n == 0 || L.rank == 0) return 1;
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(L.n, L.n);
  for (int c = 0; c < L.n; ++c)
    for (int p = L.Ap[c]; p < L.Ap[c + 1]; ++p) A(L.Ai[p], c) = A(c, L.Ai[p]) = L.Ax[p];
  const Eigen::VectorXd ev = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(A, Eigen::EigenvaluesOnly).eigenvalues();
  // Eigenvalues within the rounding of A's own assembly (Weyl: each is moved by at most ||dA||,
  // ~n eps ||A||; 16 n eps lambda_1 here) are A's null space to double precision. A vector v there
  // has P T v ~ 0, so a component of lambda along it moves no body (a^ = I^-1 (r + P T lambda)):
  // the factor may keep such a row when redundancy is exact in the model (the MJCF four-bar closed
  // by a spherical loop joint kept all 18 rows at one state, its smallest eigenvalue 2.7e-17
  // lambda_1) and qdd is unaffected, so it is not counted in r.
  int r = 0;
  while (r < L.rank && ev[L.n - 1 - r] > 16.0 * L.n * 2.220446049250313e-16 * ev[L.n - 1]) ++r;
  return r == 0 ? 1 : ev[L.n - 1] / ev[L.n - r];
}

}  // namespace rbd::verify
