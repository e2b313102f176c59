#pragma once
// A = P^T L D L^T P for a symmetric positive semi-definite A, with complete diagonal pivoting:
// step k takes as pivot the largest diagonal entry of the Schur complement that is left, and
// stops once that entry is at most rel_tol times the first pivot (the remaining Schur complement
// is then rounding, and is taken as zero). This is Cholesky with complete pivoting (Higham,
// "Accuracy and Stability of Numerical Algorithms", 2nd ed., section 10.3; LAPACK's xPSTRF)
// in its square-root-free form. For a semi-definite A every Schur complement is semi-definite,
// so its diagonal bounds its entries and the pivots come out non-increasing: the rank is where
// they fall below the tolerance, which is what Eq. 8.41's solution needs.
//
// Why not Eigen::LDLT: Eigen's is left-looking and picks its pivot from A's diagonal entries
// before the earlier steps have been subtracted from them, so a pivot can be much smaller than
// the Schur complement's largest, and a rank test on its D can misjudge a nearly redundant
// A. (Speed is not the reason: written right-looking on the lower triangle, down contiguous
// columns, it took about Eigen's time on the Stewart platform's 18 x 18 A, timed side by side.)
//
// Allocation-free after construction (the working storage is sized for n).
#include <limits>
#include <utility>
#include <vector>

#include "core/scalar.hpp"

namespace rbd {

template <class S> struct PivotedLdlt {
  MatX<S> f;                   // lower triangle: L below the diagonal (unit diagonal implied), D on it
  VecX<S> column;              // step k's column of the Schur complement before it is divided by d_k
  std::vector<int> swap_with;  // step k exchanged rows and columns k and swap_with[k]
  int rank = 0;                // pivots kept; rows rank.. of D are taken as zero
  bool finite = true;          // A had no NaN or inf (else solve() gives NaN throughout)

  PivotedLdlt() = default;
  explicit PivotedLdlt(int n) : f(MatX<S>::Zero(n, n)), column(VecX<S>::Zero(n)), swap_with(n, 0) {}

  // Reads A's lower triangle. A NaN or inf anywhere in it makes every solution NaN: the rank
  // test compares magnitudes, and a non-finite entry in a row it drops (or an infinite first
  // pivot, which would make every other pivot "small") would otherwise vanish from the result.
  void compute(const MatX<S>& A, const S& rel_tol) {
    const int n = static_cast<int>(A.rows());
    eigen_assert(n == f.rows());
    f.template triangularView<Eigen::Lower>() = A.template triangularView<Eigen::Lower>();
    rank = 0;
    finite = true;
    for (int j = 0; j < n && finite; ++j)
      for (int i = j; i < n; ++i)
        if (!is_finite(f(i, j))) finite = false;
    if (!finite) return;
    S stop = S(0);
    for (int k = 0; k < n; ++k) {
      int p = k;
      S big = abs_(f(k, k));
      for (int j = k + 1; j < n; ++j)
        if (abs_(f(j, j)) > big) {
          big = abs_(f(j, j));
          p = j;
        }
      if (k == 0) stop = S(rel_tol * big);
      if (big <= stop) break;  // also the zero matrix: 0 <= 0
      swap_with[k] = p;
      if (p != k) exchange(k, p);
      // l_ik = a_ik / d_k, keeping a_ik for the update; then the Schur complement's lower
      // triangle, a_ij -= l_ik a_jk, down each column (f is column-major).
      S* lk = &f(0, k);
      const S d = lk[k];
      for (int i = k + 1; i < n; ++i) {
        column[i] = lk[i];
        lk[i] /= d;
      }
      for (int j = k + 1; j < n; ++j) {
        S* aj = &f(0, j);
        const S ajk = column[j];
        for (int i = j; i < n; ++i) aj[i] -= lk[i] * ajk;
      }
      rank = k + 1;
    }
  }

  // x <- P^T L^-T D^+ L^-1 P x, with D^+ inverting the first `rank` pivots and zero after: a
  // solution of A y = x when x is in A's range (Eq. 8.41; a basic solution, not the minimum-norm
  // one, which is all Eq. 8.41 needs: K^T y is the same for each). A NaN or inf in x or in A
  // gives NaN throughout, never a finite answer that has dropped it.
  template <class Vec> void solve(Vec&& x) const {
    const int n = static_cast<int>(x.size());
    bool ok = finite;
    for (int k = 0; k < n && ok; ++k) ok = is_finite(x[k]);
    if (!ok) {
      for (int k = 0; k < n; ++k) x[k] = S(std::numeric_limits<double>::quiet_NaN());
      return;
    }
    for (int k = 0; k < rank; ++k) std::swap(x[k], x[swap_with[k]]);  // P x
    for (int k = 0; k < rank; ++k)  // L^-1 (rows rank.. are zeroed next, so not computed)
      for (int i = k + 1; i < rank; ++i) x[i] -= f(i, k) * x[k];
    for (int k = 0; k < n; ++k) x[k] = k < rank ? S(x[k] / f(k, k)) : S(0);  // D^+
    for (int k = rank - 1; k >= 0; --k) {                                     // L^-T
      S s = x[k];
      for (int i = k + 1; i < rank; ++i) s -= f(i, k) * x[i];
      x[k] = s;
    }
    for (int k = rank - 1; k >= 0; --k) std::swap(x[k], x[swap_with[k]]);  // P^T
  }

 private:
  // |a| <= the largest double: false for NaN and +-inf, in every scalar (a comparison, so the
  // counting scalar counts nothing).
  static bool is_finite(const S& a) { return abs_(a) <= S(std::numeric_limits<double>::max()); }

  // Symmetric exchange of rows and columns k < p, touching only the lower triangle.
  void exchange(int k, int p) {
    const int n = static_cast<int>(f.rows());
    for (int j = 0; j < k; ++j) std::swap(f(k, j), f(p, j));  // L's rows found so far
    std::swap(f(k, k), f(p, p));
    for (int i = k + 1; i < p; ++i) std::swap(f(i, k), f(p, i));
    for (int i = p + 1; i < n; ++i) std::swap(f(i, k), f(i, p));
  }
};

}  // namespace rbd
