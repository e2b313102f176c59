#pragma once
// A general sparse L D L^T of a symmetric positive semi-definite matrix, for patterns that are
// not a kinematic tree's (section 8.13's Eq. 8.64 and its Schur complement). Branch-induced
// sparsity (sparse.hpp, Table 6.3) covers H of a tree; a closed loop or a ladder (Figure 8.4)
// has no parent array, so the fill has to be found from the pattern. This is the up-looking
// algorithm of T. A. Davis, "Algorithm 849: A concise sparse Cholesky factorization package"
// (ACM TOMS 31(4), 2005), written anew for any scalar:
//  - analyse(): from the upper triangle's pattern (by columns), the elimination tree
//    (parent(i) = the first row k > i with L_ki != 0) and the number of entries in each column
//    of L, so the factor's storage is sized once;
//  - factor(): row k of L is found by walking the elimination tree up from every nonzero of
//    A's column k (the rows of L_k* are exactly the nodes visited), then computed by a sparse
//    triangular solve; no allocation, no pivoting (the caller's ordering fixes the fill).
// Eigen's SimplicialLDLT implements the same algorithm but stops at a zero pivot and copies the
// permuted matrix on every factorization; here a pivot D_k <= rel_tol * A_kk is a dependent
// row (for a semi-definite A a zero pivot means the rest of its column is zero too), so its
// column of L is set to zero and solve() gives that unknown the value 0: one of the solutions of
// a consistent singular system, the same rule as loop_lambda_first's D^+.
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/scalar.hpp"

namespace rbd {

template <class S> struct EliminationTreeLdlt {
  int n = 0;
  // The caller's matrix: upper triangle (row <= column) in compressed columns. Ap and Ai are
  // set before analyse(); Ax (same length as Ai) is refilled before every factor().
  std::vector<int> Ap, Ai;
  std::vector<S> Ax;
  // The factor: unit lower L by columns (rows Li[Lp[j]] .. of column j), D, and which pivots
  // were dropped as dependent.
  std::vector<int> parent, Lp, Li, Lnz;
  std::vector<S> Lx, D;
  std::vector<char> dropped;
  // Rows whose drop decision the caller overrides: kDrop whatever the pivot (swap_weak_pivot),
  // kKeep whenever the pivot is positive (restore_violated_row); all kDecide by default.
  static constexpr char kDecide = 0, kDrop = 1, kKeep = 2;
  std::vector<char> forced;
  std::vector<S> Adiag;   // A_kk of each row, as last factored
  std::vector<S> pivot;   // D_k before the drop decision
  std::vector<S> growth;  // the growth of row k's test (factor() below)
  int rank = 0;

  // Davis' ldl_symbolic: the elimination tree and the column counts of L.
  void analyse() {
    n = static_cast<int>(Ap.size()) - 1;
    parent.assign(n, -1);
    Lnz.assign(n, 0);
    flag.assign(n, -1);
    for (int k = 0; k < n; ++k) {
      flag[k] = k;
      for (int p = Ap[k]; p < Ap[k + 1]; ++p)
        for (int i = Ai[p]; i < k && flag[i] != k; i = parent[i]) {  // up the tree to a node already seen
          if (parent[i] == -1) parent[i] = k;
          ++Lnz[i];                                                  // L_ki != 0
          flag[i] = k;
        }
    }
    Lp.assign(n + 1, 0);
    for (int k = 0; k < n; ++k) Lp[k + 1] = Lp[k] + Lnz[k];
    Li.assign(Lp[n], 0);
    Lx.assign(Lp[n], S(0));
    D.assign(n, S(0));
    Y.assign(n, S(0));
    Adiag.assign(n, S(0));
    pivot.assign(n, S(0));
    growth.assign(n, S(0));
    product.assign(n, S(0));
    magnitude.assign(n, S(0));
    pattern.assign(n, 0);
    dropped.assign(n, 0);
    forced.assign(n, 0);
  }

  int nonzeros() const { return n == 0 ? 0 : Lp[n]; }

  // Davis' ldl_numeric, with dependent pivots dropped. A pivot that is not a finite number, or
  // negative beyond the tolerance (A is not semi-definite), is refused.
  // The test: D_k <= rel_tol * growth * A_kk, growth = max A_ii / D_i over the kept pivots i
  // that row k's solve uses (its pattern in L; 1 if none). Without pivoting, a dependent row's D_k
  // is not zero but the rounding of a Schur complement, whose forward error grows with the inverse
  // of the pivots it is computed from: a relative pivot D_i / A_ii of 4e-5 amplified the rounding of
  // a dependent pivot to 7e-46 A_kk in 50-digit arithmetic (a UR5 with a spherical and a prismatic
  // loop joint), above a fixed 1e4 n eps (3.2e-46) and below it once scaled by the growth
  // (8e-42). Only the pivots in row k's own pattern enter its rounding: a growth over every pivot
  // so far (as first written) dropped a genuine pivot of 1.4e-7 A_kk in double on Figure 8.4's
  // ladder of 16 rungs, after an unrelated pivot of 2.6e-4 elsewhere, and qdd came out wrong by
  // 29 against a norm of 174.
  void factor(const S& rel_tol) {
    rank = 0;
    for (int k = 0; k < n; ++k) {
      S growth = S(1);  // over the pivots that row k's solve uses (its pattern in L)
      Y[k] = S(0);
      int top = n;
      flag[k] = k;
      Lnz[k] = 0;
      S akk = S(0);
      for (int p = Ap[k]; p < Ap[k + 1]; ++p) {  // scatter A(0:k, k) into Y; find row k's pattern
        int i = Ai[p];
        Y[i] += Ax[p];
        if (i == k) akk = Ax[p];
        int len = 0;
        for (; flag[i] != k; i = parent[i]) {
          pattern[len++] = i;
          flag[i] = k;
        }
        while (len > 0) pattern[--top] = pattern[--len];  // topological order: ancestors last
      }
      D[k] = Y[k];
      Y[k] = S(0);
      for (; top < n; ++top) {  // the sparse solve L(0:k-1, 0:k-1) y = A(0:k-1, k), row by row
        const int i = pattern[top];
        const S yi = Y[i];
        Y[i] = S(0);
        const int p2 = Lp[i] + Lnz[i];
        for (int p = Lp[i]; p < p2; ++p) Y[Li[p]] -= Lx[p] * yi;
        const S lki = dropped[i] ? S(0) : S(yi / D[i]);  // L_ki = y_i / D_i
        if (!dropped[i] && Adiag[i] > growth * D[i]) growth = Adiag[i] / D[i];
        D[k] -= lki * yi;
        Li[p2] = k;
        Lx[p2] = lki;
        ++Lnz[i];
      }
      if (!(abs_(D[k]) <= S(std::numeric_limits<double>::max())) || !(akk >= S(0)))
        throw std::domain_error("sparse LDL^T: pivot " + std::to_string(k) +
                                " is not a finite number, or A's diagonal is negative there (a NaN in the input?)");
      const S tol = rel_tol * growth * akk;
      if (D[k] < -tol)
        throw std::domain_error("sparse LDL^T: pivot " + std::to_string(k) + " is negative (D = " +
                                std::to_string(static_cast<double>(D[k])) + ", A_kk = " +
                                std::to_string(static_cast<double>(akk)) +
                                "): the matrix is not positive semi-definite");
      dropped[k] = forced[k] == kDrop || (forced[k] == kKeep ? !(D[k] > S(0)) : D[k] <= tol);
      Adiag[k] = akk;
      pivot[k] = D[k];
      this->growth[k] = growth;
      if (dropped[k]) {
        D[k] = S(0);
      } else {
        ++rank;
      }
    }
  }

  // x = A^+ b in place (for a consistent b, a solution of A x = b; dropped unknowns are 0).
  template <class Vec> void solve(Vec& x) const {
    for (int j = 0; j < n; ++j)  // L y = b
      for (int p = Lp[j]; p < Lp[j] + Lnz[j]; ++p) x[Li[p]] -= Lx[p] * x[j];
    for (int j = 0; j < n; ++j) x[j] = dropped[j] ? S(0) : S(x[j] / D[j]);
    for (int j = n - 1; j >= 0; --j)  // L^T x = D^+ y
      for (int p = Lp[j]; p < Lp[j] + Lnz[j]; ++p) x[j] -= Lx[p] * x[Li[p]];
  }

  // Without pivoting, which of a set of dependent rows are kept is decided by the order: a row that
  // is nearly, not exactly, dependent on the rows before it is kept with a small pivot, and a
  // later row that would have been a better member of the basis is dropped; the rounding of that
  // small pivot then grows by its inverse. When rows were dropped and the weakest kept pivot is
  // below weak * A_kk, this drops it instead and factors again; if the rank falls (the row was
  // needed: nothing later spans its direction) or the new weakest pivot is no larger, the row is
  // restored. Returns whether the factor changed. The rank is the same in exact arithmetic
  // either way, so the solution is too.
  bool swap_weak_pivot(const S& rel_tol, const S& weak) {
    if (rank == n) return false;
    const auto [worst, worst_rel] = weakest_pivot();
    if (worst < 0 || !(worst_rel < weak)) return false;
    const int rank_before = rank;
    forced[worst] = kDrop;
    factor(rel_tol);
    if (rank == rank_before && weakest_pivot().second > worst_rel) return true;
    forced[worst] = kDecide;  // the rank fell, or the new basis is no better
    factor(rel_tol);
    return false;
  }

  // A drop decision checked against the equations, after solve() gave x for the right side b.
  // The pivot test cannot always tell a weak genuine row from a dependent one in double: A is a
  // Gram matrix (section 8.13's T^T P^T I^-1 P T), so its pivots are squares of the constraints'
  // own conditioning, and on urdf:panda at seed 19 a genuine pivot of 2.8e-10 A_kk lay 5x above
  // the rounding of a dependent row's (5.8e-11 A_kk) and both far below rank_tol times the
  // growth (7.6e-6 A_kk). The equations can: for a consistent b a dependent row's equation holds
  // to rounding at any solution of the kept rows, while the lost genuine row's was violated by
  // 1.6e7 eps of the terms in it (the kept rows' by at most 1.1 eps); the caller's tol, rank_tol =
  // 1e4 n eps (9e4 eps there), lies between the two by more than 50x. So the violated dropped row
  // with the largest pivot (violated_dropped_row) is kept and A factored again. If that does
  // not raise the rank (keeping a row with a rounding-sized pivot inflates the growth of later
  // rows until genuine ones fall under the tolerance), the row was dependent and its violation
  // the right side's (a state off its constraints), so it is dropped for good. Returns whether
  // anything was tried (the caller solves again and repeats).
  template <class Vec> bool restore_violated_row(const Vec& b, const Vec& x, const S& tol) {
    const int k = violated_dropped_row(b, x, tol);
    if (k < 0) return false;
    const int rank_before = rank;
    forced[k] = kKeep;
    factor(tol);
    if (rank > rank_before) return true;
    forced[k] = kDrop;
    factor(tol);
    return true;
  }

  // The dropped row (not forced out) whose equation x violates by more than tol of the terms in
  // it, |b_k - (A x)_k| > tol (|b_k| + sum_j |A_kj x_j|), and whose pivot was above eps growth
  // A_kk (below that it is within the rounding a dependent row's pivot carries); of those, the one
  // with the largest D_k / A_kk, or -1.
  template <class Vec> int violated_dropped_row(const Vec& b, const Vec& x, const S& tol) {
    if (rank == n) return -1;
    for (int k = 0; k < n; ++k) {
      product[k] = S(0);
      magnitude[k] = abs_(S(b[k]));
    }
    for (int c = 0; c < n; ++c)  // A x from the upper triangle: A_rc x_c, and A_cr x_r below it
      for (int p = Ap[c]; p < Ap[c + 1]; ++p) {
        const int r = Ai[p];
        const S t = Ax[p] * x[c];
        product[r] += t;
        magnitude[r] += abs_(t);
        if (r == c) continue;
        const S t2 = Ax[p] * x[r];
        product[c] += t2;
        magnitude[c] += abs_(t2);
      }
    const S eps = S(Eigen::NumTraits<S>::epsilon());
    int best = -1;
    for (int k = 0; k < n; ++k) {
      if (!dropped[k] || forced[k] == kDrop) continue;
      if (!(abs_(S(b[k] - product[k])) > tol * magnitude[k]) || !(pivot[k] > eps * growth[k] * Adiag[k])) continue;
      if (best < 0 || pivot[k] * Adiag[best] > pivot[best] * Adiag[k]) best = k;
    }
    return best;
  }

  // The kept pivot with the smallest D_k / A_kk, and that ratio (-1 and +inf when none is kept).
  std::pair<int, S> weakest_pivot() const {
    int worst = -1;
    S worst_rel = S(std::numeric_limits<double>::infinity());
    for (int k = 0; k < n; ++k)
      if (!dropped[k] && D[k] / Adiag[k] < worst_rel) {
        worst_rel = D[k] / Adiag[k];
        worst = k;
      }
    return {worst, worst_rel};
  }

 private:
  std::vector<int> flag, pattern;
  std::vector<S> Y, product, magnitude;
};

}  // namespace rbd
