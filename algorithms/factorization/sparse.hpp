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
// zero. The routines below work on packed rows (TreePattern) that hold only the diagonal
// and those entries; pack() and unpack() read and write only them in a full matrix, so the
// upper triangle and the branch-induced zeros are never touched
// (verify/test_factorization_sparsity.cpp fills them with NaN to check it).
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

// Storage: H's pattern packed row by row (the layout of MuJoCo's qLD). Row k holds, side by
// side, H_kk, H_k,lambda(k), H_k,lambda(lambda(k)), ..., down to the root's column: d_k entries,
// d_k = the depth of variable k in the expanded tree, and D1 + n in all (Eq. 6.26). The entries
// outside the pattern (and the upper triangle) have no place at all, so nothing can read or
// write them. The reason for the layout: if i is the ancestor at place p of row k, row i is
// exactly the tail of row k from place p on (the ancestors of i are the ancestors of k beyond
// i), so Table 6.3's area-3 update "H_ij -= a H_kj for j = i, lambda(i), ..." is one contiguous
// loop over both rows, whatever the branching; and the walks j = lambda(j) of Tables 6.3 and
// 6.5 become reads of a column-index list (col), which do not wait on each other as the
// book's chain of loads does. The operations, and their order, are the book's.
struct TreePattern {
  std::vector<int> lambda;     // the expanded parent array (Table 6.4)
  std::vector<int> row_start;  // row k occupies places row_start[k] .. row_start[k + 1] - 1
  std::vector<int> col;        // the column of each place: k, lambda(k), ..., the root
  TreePattern() = default;
  TreePattern(std::vector<int> lam)  // NOLINT: implicit, from the plain array
      : lambda(std::move(lam)), row_start(lambda.size() + 1, 0) {
    for (std::size_t k = 0; k < lambda.size(); ++k) {
      row_start[k] = static_cast<int>(col.size());
      for (int j = static_cast<int>(k); j >= 0; j = lambda[j]) col.push_back(j);
    }
    row_start[lambda.size()] = static_cast<int>(col.size());
  }
  int size() const { return static_cast<int>(lambda.size()); }
  int nonzeros() const { return row_start.back(); }  // n + D1
  int depth(int k) const { return row_start[k + 1] - row_start[k]; }
};

// The values of a matrix with that pattern (H, then its factor), in the places of TreePattern.
template <class S> using PackedRows = VecX<S>;

// rows <- H's diagonal and branch-induced lower pattern; nothing else of H is read.
template <class S, class Mat> void pack(const TreePattern& p, const Mat& H, PackedRows<S>& rows) {
  for (int k = 0; k < p.size(); ++k)
    for (int t = p.row_start[k]; t < p.row_start[k + 1]; ++t) rows[t] = H(k, p.col[t]);
}
// M's diagonal and lower pattern <- rows; nothing else of M is written.
template <class S, class Mat> void unpack(const TreePattern& p, const PackedRows<S>& rows, Mat& M) {
  for (int k = 0; k < p.size(); ++k)
    for (int t = p.row_start[k]; t < p.row_start[k + 1]; ++t) M(k, p.col[t]) = rows[t];
}

// Table 6.3, L^T L, in place: on return row k holds L_kk, L_k,lambda(k), ... with H = L^T L.
// In the loops, place q of row k is column i = col[...]: Table 6.3's "i = lambda(i)" steps.
// Cost (Table 6.6): n sqrt + D1 d + D2 (m + a).
template <class S> void ltl_factor(const TreePattern& p, PackedRows<S>& rows) {
  for (int k = p.size() - 1; k >= 0; --k) {
    S* Hk = rows.data() + p.row_start[k];                           // Hk[q] = H_k,col
    const int dk = p.depth(k);
    Hk[0] = sqrt_(S(Hk[0]));                                        // area 1
    for (int q = 1; q < dk; ++q) Hk[q] /= Hk[0];                    // area 2: i = lambda(k), ...
    for (int q = 1; q < dk; ++q) {                                  // area 3
      S* Hi = rows.data() + p.row_start[p.col[p.row_start[k] + q]];  // row i = col of place q
      const S Lki = Hk[q];
      for (int t = 0; t < dk - q; ++t) Hi[t] -= Lki * Hk[q + t];    // H_ij -= L_ki L_kj, j = i, lambda(i), ...
    }
  }
}

// Table 6.3, L^T D L, in place: on return row k holds D_kk, L_k,lambda(k), ... (unit L) with
// H = L^T D L. The area-2 and area-3 work is interleaved so that only one H'_ki = H_ki / D_kk
// (the local `a`) is live: the area-3 update H_ij -= L_ki D_kk L_kj is written a * H_kj with
// H_kj = D_kk L_kj not yet divided (j runs from i towards the root, and those places are divided
// later in the q loop). Cost (Table 6.6): D1 d + D2 (m + a).
template <class S> void ltdl_factor(const TreePattern& p, PackedRows<S>& rows) {
  for (int k = p.size() - 1; k >= 0; --k) {
    S* Hk = rows.data() + p.row_start[k];
    const int dk = p.depth(k);
    for (int q = 1; q < dk; ++q) {                                  // i = lambda(k), ..., the root
      S* Hi = rows.data() + p.row_start[p.col[p.row_start[k] + q]];
      const S a = Hk[q] / Hk[0];
      for (int t = 0; t < dk - q; ++t) Hi[t] -= a * Hk[q + t];      // H_ij -= a H_kj, j = i, lambda(i), ...
      Hk[q] = a;
    }
  }
}

// Table 6.5. `Unit` = true treats L as unit lower triangular (the L of L^T D L, whose
// diagonal place holds D and is then not read): "simply replace L_ii with 1".

// y = L x. May be called with y and x the same vector (in situ): row i reads x_j, j < i only.
// Cost: n m + D1 (m + a)  (unit: D1 (m + a)).
template <bool Unit, class S, class VecIn, class VecOut>
void mul_L(const TreePattern& p, const PackedRows<S>& L, const VecIn& x, VecOut& y) {
  for (int i = p.size() - 1; i >= 0; --i) {
    const int r = p.row_start[i];
    S yi = Unit ? S(x[i]) : S(L[r] * x[i]);
    for (int t = r + 1; t < p.row_start[i + 1]; ++t) yi += L[t] * x[p.col[t]];  // j = lambda(i), ...
    y[i] = yi;
  }
}

// y = L^T x (y must not be x). Cost as mul_L.
template <bool Unit, class S, class VecIn, class VecOut>
void mul_Lt(const TreePattern& p, const PackedRows<S>& L, const VecIn& x, VecOut& y) {
  for (int i = 0; i < p.size(); ++i) {
    const int r = p.row_start[i];
    y[i] = Unit ? S(x[i]) : S(L[r] * x[i]);
    const S xi = x[i];
    for (int t = r + 1; t < p.row_start[i + 1]; ++t) y[p.col[t]] += L[t] * xi;  // y_j += L_ij x_i
  }
}

// x = L^-1 x, in situ (forward substitution, i = 1..n). Cost: n d + D1 (m + a) (unit: D1 (m + a)).
template <bool Unit, class S, class Vec> void solve_L(const TreePattern& p, const PackedRows<S>& L, Vec& x) {
  for (int i = 0; i < p.size(); ++i) {
    const int r = p.row_start[i];
    S xi = x[i];
    for (int t = r + 1; t < p.row_start[i + 1]; ++t) xi -= L[t] * x[p.col[t]];  // j = lambda(i), ...
    if constexpr (!Unit) xi /= L[r];
    x[i] = xi;
  }
}

// x = L^-T x, in situ (back substitution, i = n..1). Cost as solve_L.
template <bool Unit, class S, class Vec> void solve_Lt(const TreePattern& p, const PackedRows<S>& L, Vec& x) {
  for (int i = p.size() - 1; i >= 0; --i) {
    const int r = p.row_start[i];
    if constexpr (!Unit) x[i] /= L[r];
    const S xi = x[i];
    for (int t = r + 1; t < p.row_start[i + 1]; ++t) x[p.col[t]] -= L[t] * xi;  // x_j -= L_ij x_i
  }
}

// y = H x from H's packed rows (the lower triangle of a symmetric H with the branch-induced
// pattern; y must not be x). Cost: n m + 2 D1 (m + a).
template <class S, class VecIn, class VecOut>
void mul_H(const TreePattern& p, const PackedRows<S>& H, const VecIn& x, VecOut& y) {
  for (int i = 0; i < p.size(); ++i) y[i] = H[p.row_start[i]] * x[i];
  for (int i = p.size() - 1; i >= 0; --i)
    for (int t = p.row_start[i] + 1; t < p.row_start[i + 1]; ++t) {
      const int j = p.col[t];
      y[i] += H[t] * x[j];
      y[j] += H[t] * x[i];
    }
}

// Solves H x = b, x in situ, from the factors above:
//   H = L^T L:   x = L^-1 L^-T b                 cost 2 n d + 2 D1 (m + a)
//   H = L^T D L: x = L^-1 D^-1 L^-T b            cost   n d + 2 D1 (m + a)
// (Table 6.6's back-substitution row).
template <class S, class Vec> void ltl_solve(const TreePattern& p, const PackedRows<S>& L, Vec& x) {
  solve_Lt<false, S>(p, L, x);
  solve_L<false, S>(p, L, x);
}
template <class S, class Vec> void ltdl_solve(const TreePattern& p, const PackedRows<S>& LD, Vec& x) {
  solve_Lt<true, S>(p, LD, x);
  for (int i = 0; i < p.size(); ++i) x[i] /= LD[p.row_start[i]];
  solve_L<true, S>(p, LD, x);
}

// Table 6.3 in situ on a full matrix, as the book writes it: the diagonal and lower pattern of
// H are replaced by the factor (L, or D and unit L); nothing else of H is read or written.
// A convenience for tests and one-off use (it packs into a scratch vector, which allocates);
// the variants keep their packed rows in FactorizationWorkspace.
template <class S, class Mat> void ltl_in_place(const TreePattern& p, Mat& H) {
  PackedRows<S> rows(p.nonzeros());
  pack<S>(p, H, rows);
  ltl_factor<S>(p, rows);
  unpack<S>(p, rows, H);
}
template <class S, class Mat> void ltdl_in_place(const TreePattern& p, Mat& H) {
  PackedRows<S> rows(p.nonzeros());
  pack<S>(p, H, rows);
  ltdl_factor<S>(p, rows);
  unpack<S>(p, rows, H);
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
