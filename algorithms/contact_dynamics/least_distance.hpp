#pragma once
// Gauss's principle with unilateral contacts (Eq. 11.44), solved as a least-distance problem by
// Goldfarb and Idnani's dual active-set method ("A numerically stable dual method for solving
// strictly convex quadratic programs", Math. Programming 27, 1983).
//
// Eq. 11.44 minimizes (1/2) (qdd - qdd_0)^T H (qdd - qdd_0) subject to T^T qdd + T_dot^T qd >= 0,
// with qdd_0 = H^-1 (tau - C). The dense route has H = L L^T, Y = L^-1 T and z = L^-1 (tau - C)
// (steps.hpp); in the variable y = L^T (qdd - qdd_0) the problem is
//     minimize (1/2) |y|^2   subject to   s = Y^T y + d >= 0,      d = Y^T z + T_dot^T qd (Eq. 11.36).
// Its optimality conditions, y = Y lambda with lambda >= 0, s >= 0, lambda^T s = 0, are the LCP of
// Eq. 11.42 with M = Y^T Y (the footnote to Eq. 11.43): the multipliers are the contact forces,
// s is zeta_dot, and qdd = L^-T (z + y).
//
// The method starts at the unconstrained minimum y = 0 (qdd = qdd_0) and adds one violated
// constraint p at a time. Its multipliers stay >= 0 throughout (dual feasibility); the step that
// raises lambda_p moves y along z, the part of y_p (column p of Y) orthogonal to the active
// columns, and changes the active multipliers by -r per unit of lambda_p so that the active
// constraints stay at s = 0:
//     (dv_1; dv_2) = Q^T y_p,   z = Q_2 dv_2,   r = R^-1 dv_1,
// where Y_A = Q_1 R is a QR factorization of the active columns, Q = [Q_1 Q_2] n x n orthogonal.
// A full step (t = -s_p / |dv_2|^2) satisfies p, which joins the active set; a partial step stops
// where an active multiplier reaches zero (t = u_j / r_j), and that constraint leaves. Adding and
// dropping update Q and R by Givens rotations (O(n^2) each), so the method never forms M: its
// rank decision reads |dv_2|^2, which is Dantzig's Schur complement M_pp - M_pA M_AA^-1 M_Ap
// computed from an orthogonal factorization of Y_A rather than a Cholesky factor of M_AA.
//
// Redundant contacts (dependent normals): |dv_2|^2 below the same 1e4 n_c eps max|M| as
// dantzig.hpp's Schur test counts as zero; then only the multipliers move (partial steps) until
// p's column can replace an active one, and if no multiplier limits the step no lambda >= 0
// satisfies p: the problem has no solution (Example 11.1).
//
// As in dantzig.hpp, the steps only decide the active set; the values come from one solve with
// its factors: R^T R lambda_A = -d_A (the active rows of Y_A^T Y_A lambda_A + d_A = 0), then
// y = Y_A lambda_A = Q_1 R lambda_A.
#include <stdexcept>
#include <string>

#include "contact_dynamics/workspace.hpp"

namespace rbd::contacts {

namespace least_distance_detail {

// The rotation [c s; -s c] taking (a, b) to (h, 0).
template <class S> struct Givens {
  S c, s;
  static Givens make(const S& a, const S& b) {
    const S h = sqrt_<S>(a * a + b * b);
    return {a / h, b / h};
  }
  // Rows i, j of Q^T (columns of Q) rotated, so that Q^T x keeps meaning the rotated coordinates.
  void rotate_columns(MatX<S>& Q, int i, int j) const {
    for (Eigen::Index r = 0; r < Q.rows(); ++r) {
      const S qi = Q(r, i), qj = Q(r, j);
      Q(r, i) = c * qi + s * qj;
      Q(r, j) = c * qj - s * qi;
    }
  }
};

// p joins the active set: rotations zero dv[q+1..n) from the bottom up (and turn Q with them), and
// dv[0..q] becomes R's new column q.
template <class S> void add_constraint(ContactWorkspace<S>& ws, int& q, int p, const S& lambda_p) {
  const int n = static_cast<int>(ws.qp_Q.rows());
  for (int j = n - 1; j > q; --j) {
    if (ws.qp_dv[j] == S(0)) continue;
    const auto g = Givens<S>::make(ws.qp_dv[j - 1], ws.qp_dv[j]);
    ws.qp_dv[j - 1] = g.c * ws.qp_dv[j - 1] + g.s * ws.qp_dv[j];
    ws.qp_dv[j] = S(0);
    g.rotate_columns(ws.qp_Q, j - 1, j);
  }
  for (int r = 0; r <= q; ++r) ws.qp_R(r, q) = ws.qp_dv[r];
  ws.qp_active[q] = p;
  ws.qp_u[q] = lambda_p;
  ws.clamped[p] = 1;
  ++q;
}

// The constraint at position l of the active set leaves: its column of R goes, and rotations of
// rows j, j+1 restore the triangle that the shift left Hessenberg.
template <class S> void drop_constraint(ContactWorkspace<S>& ws, int& q, int l) {
  ++ws.qp_drops;
  ws.clamped[ws.qp_active[l]] = 0;
  for (int j = l; j + 1 < q; ++j) {
    ws.qp_active[j] = ws.qp_active[j + 1];
    ws.qp_u[j] = ws.qp_u[j + 1];
    for (int r = 0; r <= j + 1; ++r) ws.qp_R(r, j) = ws.qp_R(r, j + 1);
  }
  --q;
  for (int j = l; j < q; ++j) {
    const auto g = Givens<S>::make(ws.qp_R(j, j), ws.qp_R(j + 1, j));
    for (int c = j; c < q; ++c) {
      const S a = ws.qp_R(j, c), b = ws.qp_R(j + 1, c);
      ws.qp_R(j, c) = g.c * a + g.s * b;
      ws.qp_R(j + 1, c) = g.c * b - g.s * a;
    }
    ws.qp_R(j + 1, j) = S(0);
    g.rotate_columns(ws.qp_Q, j, j + 1);
  }
  for (int r = 0; r < q + 1; ++r) ws.qp_R(r, q) = S(0);
}

// r = R^-1 dv[0..q) by back substitution.
template <class S> void multiplier_step(ContactWorkspace<S>& ws, int q) {
  for (int i = q - 1; i >= 0; --i) {
    S acc = ws.qp_dv[i];
    for (int j = i + 1; j < q; ++j) acc -= ws.qp_R(i, j) * ws.qp_r[j];
    ws.qp_r[i] = acc / ws.qp_R(i, i);
  }
}

}  // namespace least_distance_detail

// Solves for ws.lambda, ws.zeta_dot and ws.qp_y from ws.Y and ws.d (dense_lcp's; M is not read).
template <class S> void least_distance(ContactWorkspace<S>& ws) {
  using namespace least_distance_detail;
  const int nc = ws.nc, n = static_cast<int>(ws.Y.rows());
  ws.lambda.setZero();
  ws.qp_y.setZero();
  ws.zeta_dot = ws.d;
  ws.qp_drops = ws.qp_dual_steps = 0;
  if (nc == 0) return;
  ws.qp_Q.setIdentity();
  ws.qp_R.setZero();
  std::fill(ws.clamped.begin(), ws.clamped.end(), 0);
  const S eps = S(Eigen::NumTraits<S>::epsilon());
  S mmax = S(0), dmax = S(0);  // max|M| = the largest |y_i|^2 (M is positive semi-definite)
  for (int i = 0; i < nc; ++i) {
    mmax = std::max(mmax, S(ws.Y.col(i).squaredNorm()));
    dmax = std::max(dmax, S(abs_(ws.d[i])));
  }
  const S dependent_tol = S(10000) * S(nc) * eps * mmax;  // dantzig.hpp's schur_tol, for the same quantity
  // Every step adds or drops one constraint and at most n are active; 4 (n + n_c + 1) changes per
  // constraint added is far beyond what the method needs on a well-posed problem (it ends in
  // finitely many steps) and bounds the work if rounding makes it cycle on a degenerate one.
  const int cap = 4 * (n + nc + 1) * (nc + 1);
  int q = 0, steps = 0;
  for (;;) {
    // The most violated inactive constraint; a zeta_dot below -64 n_c eps times the size of the
    // terms that make it (|d_i| and |y_i| |y|) is rounding of a zero, as in dantzig.hpp.
    const S slack_tol = S(64) * S(nc) * eps * (dmax + sqrt_<S>(mmax) * ws.qp_y.norm());
    int p = -1;
    S sp = -slack_tol;
    for (int i = 0; i < nc; ++i) {
      if (ws.clamped[i]) continue;
      const S si = ws.Y.col(i).dot(ws.qp_y) + ws.d[i];
      if (si < sp) sp = si, p = i;
    }
    if (p < 0) break;
    S lambda_p = S(0);
    for (;;) {
      if (++steps > cap)
        throw std::domain_error(std::string(ws.problem) + " (gauss_qp): no active set after " + std::to_string(cap) +
                                " steps (cycling on a degenerate problem?)");
      ws.qp_dv.noalias() = ws.qp_Q.transpose() * ws.Y.col(p);
      multiplier_step<S>(ws, q);
      const S zz = ws.qp_dv.tail(n - q).squaredNorm();  // |dv_2|^2 = z^T y_p
      const bool dependent = zz <= dependent_tol;
      int l = -1;  // partial step: the first active multiplier to reach zero
      S t1 = S(0);
      for (int j = 0; j < q; ++j)
        if (ws.qp_r[j] > S(0) && (l < 0 || ws.qp_u[j] / ws.qp_r[j] < t1)) t1 = ws.qp_u[j] / ws.qp_r[j], l = j;
      const S s_now = ws.Y.col(p).dot(ws.qp_y) + ws.d[p];
      if (dependent && l < 0)
        throw std::domain_error(std::string(ws.problem) + " (gauss_qp): " + ws.lcp_name + " has no solution -- contact " +
                                std::to_string(p) + "'s normal depends on the active contacts' and no force >= 0 " +
                                "satisfies it (Example 11.1)");
      if (dependent) ++ws.qp_dual_steps;
      const S t2 = dependent ? S(0) : S(-s_now / zz);
      const bool full = !dependent && (l < 0 || t2 <= t1);
      const S t = full ? t2 : t1;
      for (int j = 0; j < q; ++j) ws.qp_u[j] -= t * ws.qp_r[j];
      lambda_p += t;
      if (!dependent) ws.qp_y.noalias() += t * (ws.qp_Q.rightCols(n - q) * ws.qp_dv.tail(n - q));
      if (full) {
        add_constraint<S>(ws, q, p, lambda_p);
        break;
      }
      drop_constraint<S>(ws, q, l);
    }
  }
  // The values from the final active set: R^T w = -d_A, R lambda_A = w, y = Q_1 w.
  auto w = ws.qp_r.head(q);
  for (int i = 0; i < q; ++i) {
    S acc = -ws.d[ws.qp_active[i]];
    for (int j = 0; j < i; ++j) acc -= ws.qp_R(j, i) * w[j];
    w[i] = acc / ws.qp_R(i, i);
  }
  ws.qp_y.noalias() = ws.qp_Q.leftCols(q) * w;
  for (int i = q - 1; i >= 0; --i) {
    S acc = w[i];
    for (int j = i + 1; j < q; ++j) acc -= ws.qp_R(i, j) * ws.qp_u[j];
    ws.qp_u[i] = acc / ws.qp_R(i, i);
  }
  for (int i = 0; i < q; ++i) ws.lambda[ws.qp_active[i]] = ws.qp_u[i];
  ws.zeta_dot = ws.d;
  ws.zeta_dot.noalias() += ws.Y.transpose() * ws.qp_y;
}

}  // namespace rbd::contacts
