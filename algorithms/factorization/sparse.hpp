#pragma once
// Branch-induced sparse factorization of the joint-space inertia matrix, Featherstone
// section 6.5: the expanded parent array (Table 6.4), the in-situ L^T L and L^T D L
// factorizations (Table 6.3) and the multiplication / back-substitution routines (Table 6.5).
//
// Indexing. The book numbers variables 1..n and uses lambda(i) = 0 for "no parent"; rbdlab
// numbers them 0..n-1 and uses -1, so every "while j != 0" of the book is "while j >= 0"
// here. lambda is the EXPANDED parent array over joint variables (one entry per column of
// H), with lambda[k] < k.
//
// Sparsity rule (section 6.5): below the diagonal, row k of H (and of L) may be nonzero only
// in the columns lambda(k), lambda(lambda(k)), ...; every other entry is a branch-induced
// zero. The routines below read and write only the diagonal and those entries: the
// upper triangle and the branch-induced zeros of the matrix they are given are never
// touched (verify/test_factorization_sparsity.cpp fills them with NaN to check it).
//
// Why L^T L and not L L^T (section 6.4, Featherstone 2005): with parent[i] < i, a variable's
// descendants have larger indices. Eliminating from k = n down to 1 removes a leaf of the
// (remaining) expanded tree at every step; the fill a leaf's elimination creates joins pairs
// of its ancestors, which are already ancestor/descendant of each other and so already in the
// pattern: no fill-in, and the factor has exactly H's pattern. A standard L L^T
// (Cholesky from k = 1) would eliminate the root first and fill in every pair of its
// descendants across branches. H = L^T L is the reordered Cholesky factorization of H (the
// Cholesky factorization of H with rows and columns taken in reverse order), so it has the
// same numerical properties as the standard one.
#include <utility>
#include <vector>

#include "model/model.hpp"

namespace rbd {

// Table 6.4: the expanded parent array. Each multi-DoF joint becomes a chain of 1-DoF joints
// numbered by its variables' positions in qd. The book's trick, in 0-based form:
//   lambda'(k) = k - 1 for every k   (right for every variable but a joint's first),
//   map(0) = 0, map(i + 1) = map(i) + n_i   (body i's variables are map(i) .. map(i+1) - 1),
//   lambda'(map(i)) = map(lambda(i) + 1) - 1   (the LAST variable of the parent joint; -1
//   for a body on the base, since map(0) - 1 = -1).
// Example of Table 6.4 (0-based): parent (-1, 0, 0, 1, 1, 2) with joint 1 of 3 DoF gives
// map (0, 1, 4, 5, 6, 7, 8) and lambda' (-1, 0, 1, 2, 0, 3, 3, 4).
template <class S> std::vector<int> expanded_parent(const Model<S>& model) {
  std::vector<int> lam(model.nv);
  for (int k = 0; k < model.nv; ++k) lam[k] = k - 1;
  std::vector<int> map(model.nb + 1, 0);
  for (int i = 0; i < model.nb; ++i) map[i + 1] = map[i] + model.joint[i].nv();
  for (int i = 0; i < model.nb; ++i) lam[map[i]] = map[model.parent[i] + 1] - 1;
  return lam;
}

// The dense special case lambda(k) = k - 1 (section 6.5: the algorithms then treat every
// element as nonzero and perform a dense L^T L / L^T D L factorization).
inline std::vector<int> chain_parent(int n) {
  std::vector<int> lam(n);
  for (int k = 0; k < n; ++k) lam[k] = k - 1;
  return lam;
}

// The expanded parent array together with its runs, which is what the routines below walk.
// The ancestors of variable j (j itself first) are j, lambda(j), lambda(lambda(j)), ...; they
// come in runs of consecutive indices e, e - 1, ..., s (lambda(m) = m - 1 for s < m <= e):
// a chain is one run, and a tree has one run per unbranched stretch of its expanded tree.
// run_start[e] = s is computed once, so that a loop "for j = e, lambda(j), ..." of Tables 6.3
// and 6.5 becomes a few loops over contiguous index ranges: the same operations on the same
// entries in the same order (bit-identical results), in a form the compiler can vectorise
// when the matrix is stored row by row. Converts implicitly from the plain array.
struct Ancestors {
  std::vector<int> lambda, run_start, after_run;  // after_run[e] = lambda(run_start[e])
  Ancestors() = default;
  Ancestors(std::vector<int> lam)  // NOLINT: implicit
      : lambda(std::move(lam)), run_start(lambda.size()), after_run(lambda.size()) {
    for (std::size_t k = 0; k < lambda.size(); ++k) {
      run_start[k] = (k > 0 && lambda[k] == static_cast<int>(k) - 1) ? run_start[k - 1] : static_cast<int>(k);
      after_run[k] = lambda[run_start[k]];
      long_runs = long_runs || static_cast<int>(k) - run_start[k] >= kShortRun;
    }
  }
  std::size_t size() const { return lambda.size(); }
  int operator[](int k) const { return lambda[k]; }
  // f(s, e) for each run [s, e] of j, lambda(j), ..., nearest first (e = j for the first).
  // Short runs (most of a branched tree numbered breadth-first) are handed over one index at
  // a time, as f(m, m), which the callers' loops compile to a single step: a vectorised loop's
  // set-up costs more than it saves on them. The next run's end is read from after_run[j], not
  // lambda(run_start[j]), so each step waits for one load, as the book's j = lambda(j) does.
  // A model without any long run (a breadth-first branched tree) takes the book's loop as is.
  static constexpr int kShortRun = 8;
  bool long_runs = false;
  template <class F> void for_each_run(int j, F&& f) const {
    if (!long_runs) {
      for (; j >= 0; j = lambda[j]) f(j, j);
      return;
    }
    while (j >= 0) {
      const int s = run_start[j], next = after_run[j];
      if (j - s < kShortRun)
        for (int m = j; m >= s; --m) f(m, m);
      else
        f(s, j);
      j = next;
    }
  }
};

// Table 6.3, L^T L: on return the lower triangle of H holds L with H = L^T L.
// Cost (Table 6.6): n sqrt + D1 d + D2 (m + a).
template <class S, class Mat> void ltl_in_place(const Ancestors& lambda, Mat& H) {
  const int n = static_cast<int>(lambda.size());
  for (int k = n - 1; k >= 0; --k) {
    H(k, k) = sqrt_(S(H(k, k)));                                    // area 1
    for (int i = lambda[k]; i >= 0; i = lambda[i]) H(k, i) /= H(k, k);  // area 2
    for (int i = lambda[k]; i >= 0; i = lambda[i]) {                // area 3
      const S Lki = H(k, i);
      lambda.for_each_run(i, [&](int s, int e) {                    // H_ij -= L_ki L_kj, j = i, lambda(i), ...
        for (int j = s; j <= e; ++j) H(i, j) -= Lki * H(k, j);
      });
    }
  }
}

// Table 6.3, L^T D L: on return the diagonal of H holds D and the strict lower triangle the
// off-diagonal entries of the unit lower-triangular L, with H = L^T D L. The area-2 and
// area-3 work is interleaved so that only one H'_ki = H_ki / D_kk (the local `a`) is live:
// the area-3 update H_ij -= L_ki D_kk L_kj is written a * H_kj with H_kj = D_kk L_kj not yet
// divided (j runs from i towards the root, and those columns are divided later in the i loop).
// Cost (Table 6.6): D1 d + D2 (m + a).
template <class S, class Mat> void ltdl_in_place(const Ancestors& lambda, Mat& H) {
  const int n = static_cast<int>(lambda.size());
  for (int k = n - 1; k >= 0; --k) {
    for (int i = lambda[k]; i >= 0; i = lambda[i]) {
      const S a = H(k, i) / H(k, k);
      lambda.for_each_run(i, [&](int s, int e) {                    // H_ij -= a H_kj, j = i, lambda(i), ...
        for (int j = s; j <= e; ++j) H(i, j) -= a * H(k, j);
      });
      H(k, i) = a;
    }
  }
}

// Table 6.5. `Unit` = true treats L as unit lower triangular (the L of L^T D L, whose
// diagonal holds D and is then not read): "simply replace L_ii with 1".

// y = L x. May be called with y and x the same vector (in situ): row i reads x_j, j < i only.
// Cost: n m + D1 (m + a)  (unit: D1 (m + a)).
template <bool Unit, class S, class Mat, class VecIn, class VecOut>
void mul_L(const Ancestors& lambda, const Mat& L, const VecIn& x, VecOut& y) {
  const int n = static_cast<int>(lambda.size());
  for (int i = n - 1; i >= 0; --i) {
    S yi = Unit ? S(x[i]) : S(L(i, i) * x[i]);
    lambda.for_each_run(lambda[i], [&](int s, int e) {              // j = lambda(i), ..., in order
      for (int j = e; j >= s; --j) yi += L(i, j) * x[j];
    });
    y[i] = yi;
  }
}

// y = L^T x (y must not be x). Cost as mul_L.
template <bool Unit, class S, class Mat, class VecIn, class VecOut>
void mul_Lt(const Ancestors& lambda, const Mat& L, const VecIn& x, VecOut& y) {
  const int n = static_cast<int>(lambda.size());
  for (int i = 0; i < n; ++i) {
    y[i] = Unit ? S(x[i]) : S(L(i, i) * x[i]);
    const S xi = x[i];
    lambda.for_each_run(lambda[i], [&](int s, int e) {              // y_j += L_ij x_i, j = lambda(i), ...
      for (int j = s; j <= e; ++j) y[j] += L(i, j) * xi;
    });
  }
}

// x = L^-1 x, in situ (forward substitution, i = 1..n). Cost: n d + D1 (m + a) (unit: D1 (m + a)).
template <bool Unit, class S, class Mat, class Vec>
void solve_L(const Ancestors& lambda, const Mat& L, Vec& x) {
  const int n = static_cast<int>(lambda.size());
  for (int i = 0; i < n; ++i) {
    S xi = x[i];
    lambda.for_each_run(lambda[i], [&](int s, int e) {              // j = lambda(i), ..., in order
      for (int j = e; j >= s; --j) xi -= L(i, j) * x[j];
    });
    if constexpr (!Unit) xi /= L(i, i);
    x[i] = xi;
  }
}

// x = L^-T x, in situ (back substitution, i = n..1). Cost as solve_L.
template <bool Unit, class S, class Mat, class Vec>
void solve_Lt(const Ancestors& lambda, const Mat& L, Vec& x) {
  const int n = static_cast<int>(lambda.size());
  for (int i = n - 1; i >= 0; --i) {
    if constexpr (!Unit) x[i] /= L(i, i);
    const S xi = x[i];
    lambda.for_each_run(lambda[i], [&](int s, int e) {              // x_j -= L_ij x_i, j = lambda(i), ...
      for (int j = s; j <= e; ++j) x[j] -= L(i, j) * xi;
    });
  }
}

// y = H x from the lower triangle of a symmetric H with the branch-induced pattern
// (y must not be x). Cost: n m + 2 D1 (m + a).
template <class S, class Mat, class VecIn, class VecOut>
void mul_H(const Ancestors& lambda, const Mat& H, const VecIn& x, VecOut& y) {
  const int n = static_cast<int>(lambda.size());
  for (int i = 0; i < n; ++i) y[i] = H(i, i) * x[i];
  for (int i = n - 1; i >= 0; --i)
    for (int j = lambda[i]; j >= 0; j = lambda[j]) {
      y[i] += H(i, j) * x[j];
      y[j] += H(i, j) * x[i];
    }
}

// Solves H x = b, x in situ, from the factors above:
//   H = L^T L:   x = L^-1 L^-T b                 cost 2 n d + 2 D1 (m + a)
//   H = L^T D L: x = L^-1 D^-1 L^-T b            cost   n d + 2 D1 (m + a)
// (Table 6.6's back-substitution row).
template <class S, class Mat, class Vec> void ltl_solve(const Ancestors& lambda, const Mat& L, Vec& x) {
  solve_Lt<false, S>(lambda, L, x);
  solve_L<false, S>(lambda, L, x);
}
template <class S, class Mat, class Vec> void ltdl_solve(const Ancestors& lambda, const Mat& LD, Vec& x) {
  solve_Lt<true, S>(lambda, LD, x);
  const int n = static_cast<int>(lambda.size());
  for (int i = 0; i < n; ++i) x[i] /= LD(i, i);
  solve_L<true, S>(lambda, LD, x);
}

// D1 = sum_k (d_k - 1) and D2 = sum_k d_k (d_k - 1) / 2 (Eqs. 6.26, 6.27), d_k = the depth
// of variable k in the expanded tree: the numbers of area-2 and area-3 steps, and D1 the
// number of nonzeros below the diagonal. Used to check Table 6.6's costs exactly.
struct SparsityCounts {
  long D1 = 0, D2 = 0;
};
inline SparsityCounts sparsity_counts(const std::vector<int>& lambda) {
  SparsityCounts c;
  std::vector<long> depth(lambda.size());
  for (std::size_t k = 0; k < lambda.size(); ++k) {
    depth[k] = lambda[k] < 0 ? 1 : depth[lambda[k]] + 1;
    c.D1 += depth[k] - 1;
    c.D2 += depth[k] * (depth[k] - 1) / 2;
  }
  return c;
}

// True when (i, j), i > j, is inside the branch-induced pattern: j is an ancestor of i.
inline bool in_pattern(const std::vector<int>& lambda, int i, int j) {
  if (i == j) return true;
  if (i < j) return in_pattern(lambda, j, i);
  for (int a = lambda[i]; a >= 0; a = lambda[a])
    if (a == j) return true;
  return false;
}

}  // namespace rbd
