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
// algorithm stops as soon as it can, then by the smaller row. The number of pivots is bounded
// by the number of almost-complementary bases, finite but exponential in the worst case
// (Murty's examples); contact problems take a few per contact. The cap, 50 (n_c + 1), turns a
// cycling degenerate case into a clear error instead of a hang.
#include <stdexcept>
#include <string>

#include "contact_dynamics/workspace.hpp"

namespace rbd::contacts {

template <class S> void lemke(ContactWorkspace<S>& ws) {
  const int nc = ws.nc, z0 = 2 * nc, rhs = 2 * nc + 1;
  ws.lambda.setZero();
  if (nc == 0) return;
  int t = 0;
  for (int i = 1; i < nc; ++i)
    if (ws.d[i] < ws.d[t]) t = i;
  if (!(ws.d[t] < S(0))) {  // d >= 0: nothing presses, lambda = 0
    ws.zeta_dot = ws.d;
    return;
  }
  auto& Tb = ws.tableau;
  Tb.setZero();
  for (int i = 0; i < nc; ++i) {
    Tb(i, i) = S(1);
    for (int j = 0; j < nc; ++j) Tb(i, nc + j) = -ws.M(i, j);
    Tb(i, z0) = S(-1);
    Tb(i, rhs) = ws.d[i];
    ws.basis[i] = i;
  }
  auto pivot = [&](int r, int c) {  // Gauss-Jordan: column c becomes the unit vector e_r
    const S inv = S(1) / Tb(r, c);
    Tb.row(r) *= inv;
    for (int i = 0; i < nc; ++i)
      if (i != r && Tb(i, c) != S(0)) Tb.row(i) -= Tb(i, c) * Tb.row(r);
    ws.basis[r] = c;
  };
  pivot(t, z0);                      // z0 enters, w_t leaves
  int entering = nc + t;             // its complement z_t enters next
  const S eps = S(Eigen::NumTraits<S>::epsilon());
  const int cap = 50 * (nc + 1);
  for (int it = 0; it < cap; ++it) {
    // Minimum-ratio test over the rows whose basic variable decreases as `entering` grows. An
    // entry counts as positive above 64 n_c eps of the column's largest: smaller ones are the
    // rounding of eliminations that should have left exact zeros.
    S colmax = S(0);
    for (int i = 0; i < nc; ++i) colmax = std::max(colmax, S(abs_(Tb(i, entering))));
    const S tol = S(64) * S(nc) * eps * colmax;
    int r = -1;
    S best = S(0);
    for (int i = 0; i < nc; ++i) {
      if (!(Tb(i, entering) > tol)) continue;
      const S ratio = Tb(i, rhs) / Tb(i, entering);
      const bool tie = r >= 0 && !(ratio < best) && !(best < ratio);
      if (r < 0 || ratio < best || (tie && ws.basis[i] == z0)) { r = i; best = ratio; }
    }
    if (r < 0)
      throw std::domain_error(std::string(ws.problem) + " (lemke): " + ws.lcp_name + " has no solution -- Lemke's algorithm ended "
                              "in a ray after " + std::to_string(it + 1) + " pivots: no contact forces (or impulses) can keep every "
                              "contact from penetrating (Example 11.1)");
    const int leaving = ws.basis[r];
    pivot(r, entering);
    if (leaving == z0) {
      for (int i = 0; i < nc; ++i)
        if (ws.basis[i] >= nc && ws.basis[i] < z0) ws.lambda[ws.basis[i] - nc] = Tb(i, rhs);
      ws.zeta_dot = ws.d;
      ws.zeta_dot.noalias() += ws.M * ws.lambda;
      return;
    }
    entering = leaving < nc ? leaving + nc : leaving - nc;
  }
  throw std::domain_error(std::string(ws.problem) + " (lemke): no solution after " + std::to_string(cap) +
                          " pivots (a degenerate LCP cycling?)");
}

}  // namespace rbd::contacts
