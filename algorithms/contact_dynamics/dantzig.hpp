#pragma once
// Cottle and Dantzig's principal pivoting for the LCP of Eq. 11.42 with M symmetric positive
// semi-definite (section 11.5 refers to Cottle and Dantzig 1968), in the form Baraff gave it
// for contact forces ("Fast contact force computation for nonpenetrating rigid bodies", 1994):
// the contacts are brought into complementarity one at a time. The clamped set C holds the
// contacts with zeta_dot_i = 0 (lambda_i may be > 0), the free set NC those with lambda_i = 0
// (zeta_dot_i >= 0). To drive a contact d with zeta_dot_d < 0 to zero, lambda_d grows at unit
// rate while the clamped contacts keep zeta_dot = 0:
//     dlambda_d = 1,  M_CC dlambda_C = -M_Cd,  dzeta = M dlambda,
// and the step is the largest that keeps every sign: zeta_dot_d reaching 0 ends the drive (d
// joins C); a clamped lambda_i reaching 0 moves i to NC; a free zeta_dot_i reaching 0 moves i
// to C; then the direction is recomputed. Each drive ends in finitely many steps (Baraff's
// argument: zeta_dot_d rises strictly with each step of positive length).
//
// Redundant contacts (dependent normals, M singular): dzeta_d = M_dd - M_dC M_CC^-1 M_Cd is
// then zero, so d cannot join C at that step and M_CC stays nonsingular; a Schur complement
// below 1e4 n_c eps max|M| counts as zero (the rank decision of the closed-loop family's
// rank_tol, for the same reason). If no limit stops the step, no lambda >= 0 can make
// zeta_dot_d >= 0: the LCP has no solution (Example 11.1).
//
// The final lambda is not the sum of the steps: with the final clamped set, M_CC lambda_C = -d_C
// is solved once more (lambda_NC = 0). The steps only decide the set; the value then carries the
// rounding of one solve, not of every step.
#include <stdexcept>
#include <string>

#include "contact_dynamics/workspace.hpp"

namespace rbd::contacts {

namespace dantzig_detail {

// x = M_CC^-1 b for the clamped contacts (in ws.cidx[0..k)), by an in-place Cholesky of a copy.
template <class S> void solve_clamped(ContactWorkspace<S>& ws, int k) {
  for (int r = 0; r < k; ++r)
    for (int c = 0; c < k; ++c) ws.Mcc(r, c) = ws.M(ws.cidx[r], ws.cidx[c]);
  Eigen::Ref<MatX<S>> block(ws.Mcc.topLeftCorner(k, k));
  Eigen::LLT<Eigen::Ref<MatX<S>>> llt(block);
  if (llt.info() != Eigen::Success)
    throw std::domain_error(std::string(ws.problem) + " (dantzig): M restricted to the clamped contacts is not positive definite "
                            "(dependent contact normals that the Schur-complement test did not catch)");
  auto x = ws.xc.head(k);
  llt.solveInPlace(x);
}

template <class S> int clamped_list(ContactWorkspace<S>& ws) {
  int k = 0;
  for (int i = 0; i < ws.nc; ++i)
    if (ws.clamped[i]) ws.cidx[k++] = i;
  return k;
}

}  // namespace dantzig_detail

template <class S> void dantzig(ContactWorkspace<S>& ws) {
  const int nc = ws.nc;
  ws.lambda.setZero();
  ws.zeta_dot = ws.d;
  if (nc == 0) return;
  std::fill(ws.clamped.begin(), ws.clamped.end(), 0);
  std::fill(ws.free_.begin(), ws.free_.end(), 0);
  S mmax = S(0);
  for (int c = 0; c < nc; ++c)
    for (int r = 0; r < nc; ++r) mmax = std::max(mmax, S(abs_(ws.M(r, c))));
  const S schur_tol = S(10000) * S(nc) * S(Eigen::NumTraits<S>::epsilon()) * mmax;
  const int cap = 10 * (nc + 1);  // steps per drive: each moves one contact between the sets
  const S eps = S(Eigen::NumTraits<S>::epsilon());
  S dmax = S(0);
  for (int i = 0; i < nc; ++i) dmax = std::max(dmax, S(abs_(ws.d[i])));
  VecX<S>& a = ws.zeta_dot;
  for (;;) {
    // A contact needs driving when its zeta_dot is below -64 n_c eps times the size of the terms
    // that make it (|d| and M lambda): a zeta_dot that is zero in exact arithmetic comes out of
    // the steps as a rounding residue of either sign. Driving such a residue is not harmless: with
    // a zero Schur complement (Example 11.1's slot at rest, n2 = -n1, d1 + d2 = 0) nothing limits
    // the step, which would report "no solution" for an LCP that has one.
    S lmax = S(0);
    for (int i = 0; i < nc; ++i) lmax = std::max(lmax, S(abs_(ws.lambda[i])));
    const S zeta_tol = S(64) * S(nc) * eps * (dmax + mmax * lmax);
    int dd = -1;  // the most negative zeta_dot among the contacts not yet in either set
    for (int i = 0; i < nc; ++i)
      if (!ws.clamped[i] && !ws.free_[i] && a[i] < -zeta_tol && (dd < 0 || a[i] < a[dd])) dd = i;
    if (dd < 0) break;
    bool joined = false;
    for (int step = 0; step < cap && !joined; ++step) {
      const int k = dantzig_detail::clamped_list(ws);
      ws.dlambda.setZero();
      ws.dlambda[dd] = S(1);
      for (int r = 0; r < k; ++r) ws.xc[r] = -ws.M(ws.cidx[r], dd);
      if (k > 0) dantzig_detail::solve_clamped(ws, k);
      for (int r = 0; r < k; ++r) ws.dlambda[ws.cidx[r]] = ws.xc[r];
      ws.dzeta.noalias() = ws.M * ws.dlambda;
      int j = -1;  // the limiting contact and the step length s
      S s = S(0);
      auto consider = [&](int i, const S& len) {
        if (j < 0 || len < s) { j = i; s = len; }
      };
      if (ws.dzeta[dd] > schur_tol) consider(dd, -a[dd] / ws.dzeta[dd]);
      for (int i = 0; i < nc; ++i) {
        if (ws.clamped[i] && ws.dlambda[i] < S(0)) consider(i, -ws.lambda[i] / ws.dlambda[i]);
        if (ws.free_[i] && ws.dzeta[i] < S(0)) consider(i, -a[i] / ws.dzeta[i]);
      }
      if (j < 0)
        throw std::domain_error(std::string(ws.problem) + " (dantzig): " + ws.lcp_name + " has no solution -- contact " +
                                std::to_string(dd) + "'s complementary variable (separation acceleration or velocity) "
                                "cannot be raised to zero by any lambda >= 0 (Example 11.1)");
      if (s < S(0)) s = S(0);  // a limit already reached (to rounding): a zero-length step
      ws.lambda.noalias() += s * ws.dlambda;
      a.noalias() += s * ws.dzeta;
      if (j == dd) {
        ws.clamped[dd] = 1;
        a[dd] = S(0);
        joined = true;
      } else if (ws.clamped[j]) {
        ws.clamped[j] = 0;
        ws.free_[j] = 1;
        ws.lambda[j] = S(0);
      } else {
        ws.free_[j] = 0;
        ws.clamped[j] = 1;
        a[j] = S(0);
      }
    }
    if (!joined)
      throw std::domain_error(std::string(ws.problem) + " (dantzig): contact " + std::to_string(dd) + " not driven to zero in " +
                              std::to_string(cap) + " steps (a degenerate LCP cycling?)");
  }
  // lambda from the final clamped set alone (see above), then zeta_dot = M lambda + d.
  const int k = dantzig_detail::clamped_list(ws);
  for (int r = 0; r < k; ++r) ws.xc[r] = -ws.d[ws.cidx[r]];
  if (k > 0) dantzig_detail::solve_clamped(ws, k);
  ws.lambda.setZero();
  for (int r = 0; r < k; ++r) ws.lambda[ws.cidx[r]] = ws.xc[r];
  ws.zeta_dot = ws.d;
  ws.zeta_dot.noalias() += ws.M * ws.lambda;
}

}  // namespace rbd::contacts
