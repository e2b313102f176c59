#pragma once
// cond_r(A) of section 8.13's A = T^T P^T I^-1 P T as loop_sparse_matrix last factored it:
// lambda_1 / lambda_r over A's r nonzero eigenvalues, r the factor's rank (the rows it kept).
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
  return ev[L.n - 1] / ev[L.n - L.rank];
}

}  // namespace rbd::verify
