#pragma once
// Eigenvalues of a symmetric matrix by the cyclic Jacobi method, for any scalar.
// Eigen's SelfAdjointEigenSolver needs NumTraits::infinity(), which Boost.Multiprecision's
// Eigen adaptor does not supply; Jacobi needs only + - * / sqrt and converges quadratically,
// to full working precision, for the small matrices (n <= ~40) whose condition numbers the
// reproductions quote.
#include <algorithm>

#include "core/scalar.hpp"

namespace rbd::verify {

template <class S> VecX<S> symmetric_eigenvalues(MatX<S> A) {
  const Eigen::Index n = A.rows();
  for (int sweep = 0; sweep < 100; ++sweep) {
    S off(0);
    for (Eigen::Index p = 0; p < n; ++p)
      for (Eigen::Index q = p + 1; q < n; ++q) off += A(p, q) * A(p, q);
    if (off <= A.squaredNorm() * std::numeric_limits<S>::epsilon() * std::numeric_limits<S>::epsilon()) break;
    for (Eigen::Index p = 0; p < n; ++p)
      for (Eigen::Index q = p + 1; q < n; ++q) {
        if (A(p, q) == S(0)) continue;
        // Rotation in the (p, q) plane that zeroes A(p, q) (Golub & Van Loan, Alg. 8.5.1).
        const S tau = (A(q, q) - A(p, p)) / (S(2) * A(p, q));
        const S t = (tau >= S(0) ? S(1) : S(-1)) / (abs_(tau) + sqrt_(S(1) + tau * tau));
        const S c = S(1) / sqrt_(S(1) + t * t), s = t * c;
        for (Eigen::Index k = 0; k < n; ++k) {
          const S akp = A(k, p), akq = A(k, q);
          A(k, p) = c * akp - s * akq;
          A(k, q) = s * akp + c * akq;
        }
        for (Eigen::Index k = 0; k < n; ++k) {
          const S apk = A(p, k), aqk = A(q, k);
          A(p, k) = c * apk - s * aqk;
          A(q, k) = s * apk + c * aqk;
        }
      }
  }
  VecX<S> d = A.diagonal();
  std::sort(d.data(), d.data() + n);
  return d;
}

// 2-norm condition number of a symmetric positive-definite matrix.
template <class S> S cond2_spd(const MatX<S>& A) {
  const VecX<S> d = symmetric_eigenvalues<S>(A);
  return d[d.size() - 1] / d[0];
}

}  // namespace rbd::verify
