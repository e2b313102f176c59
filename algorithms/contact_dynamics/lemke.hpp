#pragma once
// Lemke's complementary pivoting for the LCP of Eq. 11.42 (section 11.5 refers to Cottle et al.
// 1992 for the algorithms; this is the classic one of their chapter on pivoting methods):
//     w = M z + d >= 0,  z >= 0,  w^T z = 0      (w = zeta_dot, z = lambda).
// With an artificial variable z0 and the covering vector e = 1, the tableau
//     [ I | -M | -e | d ]   (columns w, z, z0, right side; row i is w_i - (M z)_i - z0 = d_i)
// starts from the basis w. If d >= 0, lambda = 0 is the solution (section 11.2's remark 1).
// Otherwise z0 enters in the row of the most negative d_i, which makes every right side
// non-negative, and from then on the variable that enters is always the complement of the one
// that just left (the complementary pivot rule), each chosen by the minimum-ratio test, until
// z0 leaves: then the basic z's are lambda. For M positive semi-definite (always so here:
// M = T^T H^-1 T) the algorithm ends either so or in a ray (no positive entry in the entering
// column), which for a positive semi-definite M proves that the LCP has no solution (Lemke's
// theorem for copositive-plus matrices, in Cottle et al.): the situation of Example 11.1.
//
// Ties in the ratio test (degenerate problems) are broken in favour of z0, so that the
// algorithm stops as soon as it can, then by the lexicographic rule (below). The number of pivots is bounded
// by the number of almost-complementary bases, finite but exponential in the worst case
// (Murty's examples); contact problems take a few per contact. The cap, 50 (n_c + 1), turns a
// cycling degenerate case into a clear error instead of a hang.
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "contact_dynamics/workspace.hpp"

namespace rbd::contacts {

// Lemke's algorithm on the leading n x n block of M and the first n entries of d: z and w (the
// first n entries) receive the solution; tableau (at least n x (2n + 2)) and basis (at least n)
// are scratch. Every contact-like family calls this: the frictionless contact and impact LCPs
// through lemke(ws) below, the friction family's larger, non-symmetric LCP directly
// (friction_dynamics/lcp.hpp), whose size changes with the number of sticking contacts within a
// workspace sized for the largest. problem and lcp_name name the problem in the errors.
template <class S, class MatIn, class VecIn, class VecOut>
void lemke_solve(int n, const MatIn& M, const VecIn& d, MatX<S>& Tb, std::vector<int>& basis, VecOut&& z, VecOut&& w,
                 const char* problem, const char* lcp_name) {
  const int z0 = 2 * n, rhs = 2 * n + 1, width = 2 * n + 2;
  z.head(n).setZero();
  if (n == 0) return;
  int t = 0;
  for (int i = 1; i < n; ++i)
    if (d[i] < d[t]) t = i;
  if (!(d[t] < S(0))) {  // d >= 0: nothing presses, z = 0
    w.head(n) = d.head(n);
    return;
  }
  Tb.topLeftCorner(n, n).setIdentity();
  Tb.block(0, n, n, n) = -M.topLeftCorner(n, n);
  Tb.col(z0).head(n).setConstant(S(-1));
  Tb.col(rhs).head(n) = d.head(n);
  for (int i = 0; i < n; ++i) basis[i] = i;
  // Gauss-Jordan: column c becomes the unit vector e_r. Every row i != r loses Tb(i, c) times row
  // r; the tableau is column-major, so the update runs down the columns, with column c (the
  // multipliers) last. A column whose entry in row r is 0 is left as it is (x - m 0 = x): every
  // basic column but c's is such a unit vector, so about half the tableau is skipped. In double,
  // a row whose multiplier is 0 is updated too (x - 0 y = x for finite y), so each column is one
  // vector operation; the other scalars skip those rows, so that the counting scalar counts the
  // work a sparse elimination does. Every entry gets the same single product and difference
  // either way, so the two give the same values.
  auto pivot = [&](int r, int c) {
    const S inv = S(1) / Tb(r, c);
    Tb.row(r).head(width) *= inv;
    auto eliminate = [&](int j) {
      const S trj = Tb(r, j);
      if (trj == S(0)) return;
      if constexpr (std::is_same_v<S, double>) {
        Tb.col(j).head(r) -= trj * Tb.col(c).head(r);
        Tb.col(j).segment(r + 1, n - r - 1) -= trj * Tb.col(c).segment(r + 1, n - r - 1);
      } else {
        for (int i = 0; i < n; ++i)
          if (i != r && Tb(i, c) != S(0)) Tb(i, j) -= Tb(i, c) * trj;
      }
    };
    for (int j = 0; j < width; ++j)
      if (j != c) eliminate(j);
    eliminate(c);
    basis[r] = c;
  };
  pivot(t, z0);                      // z0 enters, w_t leaves
  int entering = n + t;              // its complement z_t enters next
  // Lexicographic tie-break (Cottle et al., the lexicographic minimum-ratio rule): of two rows
  // with the same ratio, the one whose row of B^-1 (the w columns, which started as the
  // identity), divided by its entry in the entering column, is lexicographically smaller. It
  // makes every basis along the path nondegenerate in the lexicographic sense, so the path can
  // neither cycle nor leave it for a ray that a solution exists beside. Degenerate ties are
  // structural in the friction LCP (its last rows have constant term 0: friction_dynamics/lcp.hpp),
  // where the plain smaller-row rule did end in rays beside solutions. Entries of the two rows
  // that agree to tie_tol of the rows' largest are equal: rows that are equal in exact arithmetic
  // reach here through different eliminations, and rounding must not order them (it did on the
  // rocking block's four corners, whose two corners per edge give identical tangent rows: double
  // took the other branch than exact rational arithmetic at the eighth pivot, and ended in a ray).
  auto lexically_smaller = [&](int i, int r, const S& tie_tol) {
    // The largest |Tb(i, j) / Tb(i, entering)| of the two rows, with one division per row:
    // dividing by the same number keeps the order (rounding is monotone), so the quotient of the
    // largest entry is the largest quotient.
    S top_i = S(0), top_r = S(0);
    for (int j = 0; j < n; ++j) {
      top_i = std::max(top_i, S(abs_(Tb(i, j))));
      top_r = std::max(top_r, S(abs_(Tb(r, j))));
    }
    const S scale = std::max(S(top_i / abs_(Tb(i, entering))), S(top_r / abs_(Tb(r, entering))));
    for (int j = 0; j < n; ++j) {
      const S a = Tb(i, j) / Tb(i, entering), b = Tb(r, j) / Tb(r, entering);
      if (abs_(S(a - b)) <= tie_tol * scale) continue;
      return a < b;
    }
    return i < r;
  };
  const S eps = S(Eigen::NumTraits<S>::epsilon());
  const int cap = 50 * (n + 1);
  for (int it = 0; it < cap; ++it) {
    // Minimum-ratio test over the rows whose basic variable decreases as `entering` grows. An
    // entry counts as positive above 64 n eps of the column's largest: smaller ones are the
    // rounding of eliminations that should have left exact zeros.
    S colmax = S(0);
    for (int i = 0; i < n; ++i) colmax = std::max(colmax, S(abs_(Tb(i, entering))));
    const S tol = S(64) * S(n) * eps * colmax;
    // Two ratios within tie_tol = 1024 n eps of each other are a tie: a degenerate tie computed
    // through different rows differs by rounding, and must not be decided by it. The rounding
    // grows with the pivots before the tie (each a Gauss-Jordan step on the whole tableau):
    // 64 n eps still let rounding decide on one verify state (humanoid, seed 8, two contacts,
    // mu = 0.001: a ray beside a solution); 1024 n eps decided every state of the first 20 seeds
    // of every verify case, and is still ~1e-12 relative in double at n = 30, far below any
    // genuine gap between two ratios. The tolerance is relative to the ratios and, absolutely, to
    // the right-hand column's largest entry over the entering entries: a right side that is 0 in
    // exact arithmetic is rounding of the size of the entries it was eliminated from, so ratios
    // near 0 carry an error that is absolute, not relative. Without that floor the rocking block
    // with one contact per edge (ratios of 1.25e-16 that differ in the third digit, in double)
    // and with four corners (9.2e-22 apiece, in Reference) passed over the z0 row and ended in a
    // ray; exact rational arithmetic takes z0 there and stops with the solution.
    S rhs_scale = S(0);
    for (int i = 0; i < n; ++i) rhs_scale = std::max(rhs_scale, S(abs_(Tb(i, rhs))));
    int r = -1;
    S best = S(0);
    const S tie_tol = S(1024) * S(n) * eps;
    for (int i = 0; i < n; ++i) {
      if (!(Tb(i, entering) > tol)) continue;
      const S ratio = Tb(i, rhs) / Tb(i, entering);
      bool tie = false;
      if (r >= 0) {  // relative first; the absolute floor, multiplied out, only when that fails
        const S gap = abs_(S(ratio - best));
        tie = gap <= tie_tol * std::max(abs_(ratio), abs_(best)) ||
              gap * std::min(Tb(i, entering), Tb(r, entering)) <= tie_tol * rhs_scale;
      }
      if (r < 0 || (!tie && ratio < best) ||
          (tie && basis[r] != z0 && (basis[i] == z0 || lexically_smaller(i, r, tie_tol)))) {
        r = i;
        best = ratio;
      }
    }
    if (r < 0)
      throw std::domain_error(std::string(problem) + " (lemke): " + lcp_name + " has no solution -- Lemke's algorithm ended "
                              "in a ray after " + std::to_string(it + 1) + " pivots: no contact forces (or impulses) can keep every "
                              "contact from penetrating (Example 11.1)");
    const int leaving = basis[r];
    pivot(r, entering);
    if (leaving == z0) {
      for (int i = 0; i < n; ++i)
        if (basis[i] >= n && basis[i] < z0) z[basis[i] - n] = Tb(i, rhs);
      w.head(n) = d.head(n);
      w.head(n).noalias() += M.topLeftCorner(n, n) * z.head(n);
      return;
    }
    entering = leaving < n ? leaving + n : leaving - n;
  }
  throw std::domain_error(std::string(problem) + " (lemke): no solution after " + std::to_string(cap) +
                          " pivots (a degenerate LCP cycling?)");
}

// The contact (or impact) LCP of the workspace: w = zeta_dot, z = lambda.
template <class S> void lemke(ContactWorkspace<S>& ws) {
  lemke_solve<S>(ws.nc, ws.M, ws.d, ws.tableau, ws.basis, ws.lambda, ws.zeta_dot, ws.problem, ws.lcp_name);
}

}  // namespace rbd::contacts
