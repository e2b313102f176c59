#pragma once
// Nonnegative least squares, min |A x - b| subject to x >= 0, by the active-set method of
// Lawson and Hanson (Solving Least Squares Problems, 1974, chapter 23): x starts at 0 with every
// variable held at its bound; the free variable whose gradient component w = A^T (b - A x) most
// favours growing is released, the least-squares problem on the released ("passive") columns is
// solved, and if that solution leaves the nonnegative orthant the step is cut back to the first
// variable reaching 0, which is held again. It ends when no held variable wants to grow
// (w_j <= tol for all of them: the KKT conditions), after finitely many steps in exact
// arithmetic; an iteration cap guards against cycling by round-off, and the result says whether
// it was reached (DESIGN.md section 11: a cap reached is a result to report).
#include <vector>

#include <Eigen/QR>

#include "core/scalar.hpp"

namespace rbd::geometry {

template <class S> struct NnlsResult {
  VecX<S> x;
  S residual = S(0);  // |A x - b|
  int iterations = 0;
  bool converged = false;
};

// tol for the KKT test: 10 max(m, n) eps |A|_1, SciPy's scale for it, times |b| because the
// gradient w = A^T r is a sum of m products of entries of A and of the residual (at most |b|),
// each rounded to eps relative. Iterations: each is one least-squares solve; 3 n is Lawson and
// Hanson's own cap.
template <class S> NnlsResult<S> nnls(const MatX<S>& A, const VecX<S>& b) {
  const Eigen::Index m = A.rows(), n = A.cols();
  NnlsResult<S> out;
  out.x = VecX<S>::Zero(n);
  S norm1 = S(0);
  for (Eigen::Index j = 0; j < n; ++j) norm1 = std::max<S>(norm1, S(A.col(j).cwiseAbs().sum()));
  const S tol = S(10) * S(static_cast<double>(std::max(m, n))) * S(Eigen::NumTraits<S>::epsilon()) * norm1 *
                sqrt_(S(b.squaredNorm()));
  const int cap = 3 * static_cast<int>(n);
  std::vector<bool> passive(static_cast<std::size_t>(n), false), blocked(static_cast<std::size_t>(n), false);
  VecX<S>& x = out.x;
  // The least-squares solution on the passive columns (0 elsewhere).
  auto solve_passive = [&]() {
    std::vector<Eigen::Index> P;
    for (Eigen::Index j = 0; j < n; ++j)
      if (passive[static_cast<std::size_t>(j)]) P.push_back(j);
    MatX<S> AP(m, static_cast<Eigen::Index>(P.size()));
    for (std::size_t c = 0; c < P.size(); ++c) AP.col(static_cast<Eigen::Index>(c)) = A.col(P[c]);
    const VecX<S> zP = AP.colPivHouseholderQr().solve(b);
    VecX<S> z = VecX<S>::Zero(n);
    for (std::size_t c = 0; c < P.size(); ++c) z[P[c]] = zP[static_cast<Eigen::Index>(c)];
    return z;
  };
  while (out.iterations < cap) {
    const VecX<S> w = A.transpose() * (b - A * x);
    Eigen::Index j = -1;
    for (Eigen::Index i = 0; i < n; ++i)
      if (!passive[static_cast<std::size_t>(i)] && !blocked[static_cast<std::size_t>(i)] && w[i] > tol &&
          (j < 0 || w[i] > w[j]))
        j = i;
    if (j < 0) {
      out.converged = true;
      break;
    }
    passive[static_cast<std::size_t>(j)] = true;
    bool first = true;
    while (out.iterations < cap) {
      ++out.iterations;
      const VecX<S> z = solve_passive();
      // Released by round-off alone (its w was barely positive): hold it again and try another.
      if (first && !(z[j] > S(0))) {
        passive[static_cast<std::size_t>(j)] = false;
        blocked[static_cast<std::size_t>(j)] = true;
        break;
      }
      first = false;
      bool inside = true;
      for (Eigen::Index i = 0; i < n; ++i)
        if (passive[static_cast<std::size_t>(i)] && !(z[i] > S(0))) inside = false;
      if (inside) {
        x = z;
        std::fill(blocked.begin(), blocked.end(), false);
        break;
      }
      // Step from x towards z as far as the orthant allows; the variable that stops it is held.
      S alpha = S(1);
      Eigen::Index stop = -1;
      for (Eigen::Index i = 0; i < n; ++i)
        if (passive[static_cast<std::size_t>(i)] && !(z[i] > S(0))) {
          const S a = x[i] / (x[i] - z[i]);
          if (stop < 0 || a < alpha) alpha = a, stop = i;
        }
      x += alpha * (z - x);
      for (Eigen::Index i = 0; i < n; ++i)
        if (passive[static_cast<std::size_t>(i)] && (i == stop || !(x[i] > S(0)))) {
          passive[static_cast<std::size_t>(i)] = false;
          x[i] = S(0);
        }
      std::fill(blocked.begin(), blocked.end(), false);
    }
  }
  out.residual = sqrt_(S((A * x - b).squaredNorm()));
  return out;
}

}  // namespace rbd::geometry
