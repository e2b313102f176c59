#pragma once
// Solves A x = b by Gaussian elimination with partial (row) pivoting, written out here so that
// the oracles judge the variants' solves with a method that shares nothing with them (no
// symmetry, no Cholesky, no parent array, no Eigen decomposition). Used by the closed-loop
// oracle and by verify/support/oracles.hpp for the tree families' oracles.
//
// The matrices solved are symmetric positive definite in exact arithmetic (H, G^T H G), so a
// pivot at rounding level, below 1024 eps times A's largest entry, means broken input, not a
// property of the mechanism: refused with std::invalid_argument naming `what`.
#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/scalar.hpp"  // the VecX/MatX typedefs only

namespace rbd::oracle {

template <class S> VecX<S> solve_gepp(MatX<S> A, VecX<S> b, const std::string& what = "solve_gepp: the matrix") {
  using std::abs;
  const Eigen::Index n = A.rows();
  S amax = S(0);
  for (Eigen::Index i = 0; i < A.size(); ++i) amax = std::max<S>(amax, abs(A.data()[i]));
  for (Eigen::Index k = 0; k < n; ++k) {
    Eigen::Index piv = k;
    for (Eigen::Index r = k + 1; r < n; ++r)
      if (abs(A(r, k)) > abs(A(piv, k))) piv = r;
    if (!(abs(A(piv, k)) > std::numeric_limits<S>::epsilon() * S(1024) * amax))
      throw std::invalid_argument("rbd::oracle: " + what + " is singular (pivot " + std::to_string(k) + ")");
    A.row(k).swap(A.row(piv));
    std::swap(b[k], b[piv]);
    for (Eigen::Index r = k + 1; r < n; ++r) {
      const S f = A(r, k) / A(k, k);
      for (Eigen::Index c = k; c < n; ++c) A(r, c) -= f * A(k, c);
      b[r] -= f * b[k];
    }
  }
  VecX<S> x(n);
  for (Eigen::Index k = n - 1; k >= 0; --k) {
    S s = b[k];
    for (Eigen::Index c = k + 1; c < n; ++c) s -= A(k, c) * x[c];
    x[k] = s / A(k, k);
  }
  return x;
}

}  // namespace rbd::oracle
