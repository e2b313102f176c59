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
// the Schur complement's largest, and a rank test on its D can misjudge a nearly redundant A.
//
// The order of work is LAPACK xPSTF2's: left-looking, with the Schur complement's diagonal
// kept up to date (so each step sees the true largest pivot) but its off-diagonal entries
// formed only when their column is reached, as one dot product each:
//   c_ik = a_ik - sum_{s<k} l_is c_ks,   l_ik = c_ik / d_k,   d_i -= l_ik c_ik   (i > k).
// The operations are the right-looking update's, term for term; only where a pivot exchange
// meets an entry already partly reduced does one product become l_ks c_is in place of l_is c_ks
// (equal in exact arithmetic). Rows of L and of C are stored as columns (f's and c's upper
// triangles), so the dot products and both triangular solves run down contiguous memory (on the
// Stewart platform's 18 x 18 A, timed side by side, this took clearly less time than the
// right-looking order).
//
// Allocation-free after construction (the working storage is sized for n).
#include <limits>
#include <utility>
#include <vector>

#include "core/scalar.hpp"

namespace rbd {

template <class S> struct PivotedLdlt {
  // f: A's lower triangle as read (rows and columns exchanged with the pivots), and above the
  // diagonal L by rows: f(s, i) = l_is, s < i (L has a unit diagonal). c: above the diagonal,
  // c(s, i) = c_is = l_is d_s, the unscaled entries the next columns' dot products use. d: the
  // Schur complement's diagonal, which ends as D's first `rank` entries.
  MatX<S> f, c;
  VecX<S> d;
  std::vector<int> swap_with;  // step k exchanged rows and columns k and swap_with[k]
  int rank = 0;                // pivots kept; rows rank.. of D are taken as zero
  bool finite = true;          // A had no NaN or inf (else solve() gives NaN throughout)

  PivotedLdlt() = default;
  explicit PivotedLdlt(int n) : f(MatX<S>::Zero(n, n)), c(MatX<S>::Zero(n, n)), d(VecX<S>::Zero(n)), swap_with(n, 0) {}

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
    for (int i = 0; i < n; ++i) d[i] = f(i, i);
    S stop = S(0);
    for (int k = 0; k < n; ++k) {
      int p = k;
      S big = abs_(d[k]);
      for (int j = k + 1; j < n; ++j)
        if (abs_(d[j]) > big) {
          big = abs_(d[j]);
          p = j;
        }
      if (k == 0) stop = S(rel_tol * big);
      if (big <= stop) break;  // also the zero matrix: 0 <= 0
      swap_with[k] = p;
      if (p != k) exchange(k, p);
      // Column k below the diagonal: c_ik, then l_ik, and the diagonal's update by both.
      const S dk = d[k];
      const S* __restrict ck = &c(0, k);
      for (int i = k + 1; i < n; ++i) {
        const S* __restrict li = &f(0, i);
        S cik = f(i, k);
        for (int s = 0; s < k; ++s) cik -= li[s] * ck[s];
        const S lik = cik / dk;
        c(k, i) = cik;
        f(k, i) = lik;
        d[i] -= lik * cik;
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
    for (int i = 1; i < rank; ++i) {  // L^-1, row i's dot product (rows rank.. are zeroed next)
      const S* __restrict li = &f(0, i);
      S xi = x[i];
      for (int k = 0; k < i; ++k) xi -= li[k] * x[k];
      x[i] = xi;
    }
    for (int k = 0; k < n; ++k) x[k] = k < rank ? S(x[k] / d[k]) : S(0);  // D^+
    for (int i = rank - 1; i > 0; --i) {  // L^-T, column i of L^T at a time
      const S* __restrict li = &f(0, i);
      const S xi = x[i];
      for (int k = 0; k < i; ++k) x[k] -= li[k] * xi;
    }
    for (int k = rank - 1; k >= 0; --k) std::swap(x[k], x[swap_with[k]]);  // P^T
  }

 private:
  // |a| <= the largest double: false for NaN and +-inf, in every scalar (a comparison, so the
  // counting scalar counts nothing).
  static bool is_finite(const S& a) { return abs_(a) <= S(std::numeric_limits<double>::max()); }

  // Exchanges rows and columns k < p of what is still to be reduced: the Schur diagonal, the
  // rows of L and C found so far, and A's entries in columns k.. (columns < k have been read).
  void exchange(int k, int p) {
    const int n = static_cast<int>(f.rows());
    std::swap(d[k], d[p]);
    for (int s = 0; s < k; ++s) {
      std::swap(f(s, k), f(s, p));
      std::swap(c(s, k), c(s, p));
    }
    for (int i = k + 1; i < p; ++i) std::swap(f(i, k), f(p, i));
    for (int i = p + 1; i < n; ++i) std::swap(f(i, k), f(i, p));
  }
};

}  // namespace rbd
