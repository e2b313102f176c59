#pragma once
// The independent oracle for frictionless point-contact forward dynamics (Featherstone sections
// 11.1-11.5): a tree Model plus PointContacts (model/contact.hpp), at a state where every contact
// is in state 3 of Figure 11.4 (phi = 0, phi_dot = 0). See reference/README.md.
//
// Method.
//  1. phi_i(x) = normal_i . (C'_i in p's coordinates) - offset_i (contact.hpp's definition), with
//     C'_world = p_s + R_s point and C'_in_p = R_p^T (C'_world - p_p) taken from the 4x4
//     homogeneous forward kinematics of lagrange_oracle.hpp in its local coordinates x (x = 0 at
//     the state, x_dot = qd, x_ddot = qdd, chart joints included: see that header).
//  2. Phi = dphi/dx by first-order duals (one column per pass) and bias = d^2/dt^2 phi(t qd) by
//     second-order duals, as loop_oracle.hpp does for its closure rows. Along x(t) = t qd +
//     t^2 qdd / 2, phi_ddot = Phi qdd + bias: this is zeta_dot of Eqs. 11.38-11.40 (Phi^T is the
//     book's T, bias its T_dot^T qd of Eq. 11.30). No contact normal n_i, body Jacobian J_i,
//     velocity-product acceleration a^vp or n_dot is ever written down: they all come out of
//     differentiating one scalar function of the pose.
//  3. Contact forces as generalized forces. The pair (lambda normal on s at C', -lambda normal on
//     p at the coincident point of p) has virtual power lambda * phi_dot, so its generalized
//     force is Phi^T lambda (Eqs. 11.24-11.26) by the principle of virtual work.
//  4. H = oracle::mass_matrix, C = oracle::inverse_dynamics(q, qd, 0, f_ext) (Euler-Lagrange,
//     gravity and f_ext included), H^-1 column by column with oracle::solve_gepp (partial
//     pivoting); u = H^-1 (tau - C) is the contact-free qdd, W = H^-1 Phi^T, M = Phi W and
//     d = Phi u + bias (Eqs. 11.34-11.36).
//  5. The LCP of Eq. 11.42 by enumeration of the 2^nc subsets A of contacts (nc <= 12): solve
//     M_AA lambda_A = -d_A by Gaussian elimination with complete pivoting, lambda = 0 off A, and
//     accept A when lambda_A >= 0 and zeta_dot = M lambda + d >= 0 off A (zeta_dot_A = 0 by
//     construction, so zeta_dot^T lambda = 0). A subset whose M_AA is singular (pivot below the
//     rank tolerance) is skipped, which loses nothing: if the LCP has a solution it has one whose
//     support A has linearly independent rows of Phi (move lambda along a null vector mu of
//     Phi_A^T, which leaves M lambda, hence zeta_dot, unchanged, until a component reaches 0), and
//     then M_AA = Phi_A H^-1 Phi_A^T is positive definite. Every accepted subset must give the same
//     W lambda, i.e. the same qdd (section 11.5, property 2: Phi^T lambda is unique), else
//     std::logic_error; no subset accepted: std::domain_error (Example 11.1's situation).
//     qdd = u + W lambda = H^-1 (tau - C + Phi^T lambda) (Eq. 11.41).
//
// Independence from algorithms/: it reads only the data members of Model (through
// lagrange_oracle.hpp's prepare / forward_kinematics, see its header) and of PointContact (p, s,
// point, normal, offset, name); it calls nothing in algorithms/ (not contact.hpp's
// check_contact_bodies / validate_contacts either: the data is checked here, in S), no jcalc, no
// Transform or spatial-vector method, nothing of contact_dynamics/. The LCP is solved by
// exhaustive enumeration, not by any pivoting or iterative LCP/QP method a variant would use.
//
// Tolerances (eps = numeric_limits<S>::epsilon(): ~5e-51 for Reference, 2.2e-16 for double);
// see contact_detail below for the reasoning of each:
//  - data: |normal|^2 - 1 within eps^0.8;
//  - state: |phi_i| <= eps^0.8 L_i and |Phi_i qd| <= eps^0.8 (sum_j |Phi_ij| + L_i) max_j |qd_j|,
//    with L_i = 1 + |p's origin| + |s's origin| + |point| + |offset| (world lengths); refused with
//    std::domain_error naming the contact;
//  - singular M_AA: pivot <= eps^(2/3) M_scale, M_scale = max(max|M|, max|H^-1| max_i L_i^2);
//  - acceptance: lambda_i >= -eps^0.8 Lambda_A and zeta_dot_j >= -eps^0.8 Z_A (and |zeta_dot_A| <=
//    eps^0.8 Z_A), Lambda_A = max|lambda_A| + d_scale / M_scale, Z_A = d_scale + M_scale Lambda_A;
//  - agreement of the accepted subsets: |qdd_A - qdd_B| <= eps^0.6 (u_scale + |W lambda_A| + |W lambda_B|).
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "model/contact.hpp"  // PointContact data only (its check functions are not called)
#include "reference/gepp.hpp"
#include "reference/lagrange_oracle.hpp"

namespace rbd::oracle {
namespace contact_detail {

// The enumeration visits 2^nc subsets (4096 at the limit, each a solve of at most 12 x 12).
inline constexpr int kMaxContacts = 12;

template <class S> std::string fmt(const S& x) {
  std::ostringstream os;
  os.precision(3);
  os << x;
  return os.str();
}

template <class S> std::string contact_who(const PointContacts<S>& cs, std::size_t i) {
  const PointContact<S>& c = cs[i];
  return "contact " + std::to_string(i) + (c.name.empty() ? "" : " '" + c.name + "'") + " (plane on body " +
         std::to_string(c.p) + ", point on body " + std::to_string(c.s) + ")";
}

// State and acceptance tolerance eps^0.8 (~6e-41 in Reference, ~3e-13 in double). A state placed
// in contact in S (plane through C', qd projected onto null(Phi)) leaves residuals of a few eps
// times the lengths and velocities involved, and an LCP solution's residuals are a few eps times
// the terms that cancel (times M_AA's condition number): eps^0.8 leaves ~10 orders of margin in
// Reference (3 in double, enough for condition numbers up to ~1e2-1e3), while a state rounded to
// double (1e-16) or perturbed is refused by 20+ orders in Reference, and an infeasible subset
// misses by an O(1) fraction of the problem's scale.
template <class S> S tol() {
  using std::pow;
  return pow(std::numeric_limits<S>::epsilon(), S(4) / S(5));
}
// Rank tolerance eps^(2/3) (~3e-34 in Reference, ~4e-11 in double) relative to M_scale. Linearly
// dependent rows of Phi (duplicate contacts, opposite normals on one line of action) leave
// pivots of ~eps M_scale; a genuine pivot of a non-degenerate contact set is a geometric quantity
// (lever arm^2 / inertia), O(1) of M_scale unless the configuration is within ~1e-30 of a
// degenerate one. It exceeds tol() so that a state error the state check lets through cannot
// make a dependent subset look regular.
template <class S> S rank_tol() {
  using std::pow;
  return pow(std::numeric_limits<S>::epsilon(), S(2) / S(3));
}
// Agreement tolerance eps^0.6 (~1e-30 in Reference, ~4e-10 in double). Two accepted subsets can
// only differ by contacts that are within the acceptance tolerance of both lambda_i = 0 and
// zeta_dot_i = 0 (or by a null vector of Phi^T); their qdd then differ by about tol() times the
// problem's scale times the condition number of M_AA: eps^0.6 allows conditioning up to
// eps^-0.2 (1e10 in Reference) and is still 20 orders below an O(1) disagreement.
template <class S> S agree_tol() {
  using std::pow;
  return pow(std::numeric_limits<S>::epsilon(), S(3) / S(5));
}

template <class S> bool is_finite_value(const S& x) {
  using std::abs;
  return abs(x) <= std::numeric_limits<S>::max();  // false for NaN and +-inf
}

// The contacts' data, checked in S (std::invalid_argument naming the contact).
template <class S> void validate(const Model<S>& m, const PointContacts<S>& cs) {
  using std::abs;
  if (cs.size() > static_cast<std::size_t>(kMaxContacts))
    detail::fail("contact oracle: " + std::to_string(cs.size()) + " contacts; the enumeration of the 2^nc subsets of "
                 "Eq. 11.42's LCP is limited to nc <= " + std::to_string(kMaxContacts));
  for (std::size_t i = 0; i < cs.size(); ++i) {
    const PointContact<S>& c = cs[i];
    const std::string who = "contact oracle: " + contact_who(cs, i);
    if (c.p < -1 || c.p >= m.nb)
      detail::fail(who + ": the plane body p = " + std::to_string(c.p) + " is not -1 (the base) or a body of model '" +
                   m.name + "' (0.." + std::to_string(m.nb - 1) + ")");
    if (c.s < 0 || c.s >= m.nb)
      detail::fail(who + ": the point body s = " + std::to_string(c.s) + " is not a body of model '" + m.name + "' (0.." +
                   std::to_string(m.nb - 1) + ")");
    if (c.p == c.s) detail::fail(who + ": the plane and the point are on the same body (p == s)");
    for (int k = 0; k < 3; ++k)
      if (!is_finite_value(S(c.point[k]))) detail::fail(who + ": the point has a non-finite coordinate");
    for (int k = 0; k < 3; ++k)
      if (!is_finite_value(S(c.normal[k]))) detail::fail(who + ": the normal has a non-finite coordinate");
    if (!is_finite_value(c.offset)) detail::fail(who + ": the plane's offset is not finite");
    const S len2 = c.normal.squaredNorm();
    if (!(abs(len2 - S(1)) <= tol<S>()))
      detail::fail(who + ": the normal is not a unit vector to working precision (|normal|^2 - 1 = " + fmt(S(len2 - S(1))) +
                   "; use PointContact::cast, which renormalises)");
  }
}

// C' of contact c in p's coordinates (world coordinates when p = -1), from world poses X.
template <class D, class S> std::array<D, 3> point_in_p(const std::vector<Pose<D>>& X, const PointContact<S>& c) {
  const Pose<D>& Ts = X[c.s];
  std::array<D, 3> w;
  for (int r = 0; r < 3; ++r)
    w[r] = Ts.p[r] + Ts.R[r][0] * c.point[0] + Ts.R[r][1] * c.point[1] + Ts.R[r][2] * c.point[2];
  if (c.p < 0) return w;
  const Pose<D>& Tp = X[c.p];
  std::array<D, 3> dlt, y;
  for (int r = 0; r < 3; ++r) dlt[r] = w[r] - Tp.p[r];
  for (int k = 0; k < 3; ++k) y[k] = Tp.R[0][k] * dlt[0] + Tp.R[1][k] * dlt[1] + Tp.R[2][k] * dlt[2];
  return y;
}

// phi at local coordinates dx, one row per contact.
template <class D, class S>
std::vector<D> phi_at(const detail::Prepared<S>& P, const PointContacts<S>& cs, const std::vector<D>& dx) {
  const std::vector<Pose<D>> X = detail::forward_kinematics<D, S>(P, dx);
  std::vector<D> out;
  out.reserve(cs.size());
  for (const PointContact<S>& c : cs) {
    const std::array<D, 3> y = point_in_p<D, S>(X, c);
    out.push_back(y[0] * c.normal[0] + y[1] * c.normal[1] + y[2] * c.normal[2] - c.offset);
  }
  return out;
}

}  // namespace contact_detail

// phi, Phi = dphi/dx, bias = d^2/dt^2 phi(t qd), and each contact's length scale L_i (see the
// header), at any state (no state check): exposed for tests and for placing states in contact.
template <class S> struct ContactRows {
  VecX<S> phi;    // nc
  MatX<S> Phi;    // nc x nv
  VecX<S> bias;   // nc: phi_ddot at qdd = 0
  VecX<S> scale;  // nc: L_i = 1 + |origin of p| + |origin of s| + |point| + |offset| (world lengths)
};

template <class S>
ContactRows<S> contact_rows(const Model<S>& m, const PointContacts<S>& cs, const VecX<S>& q, const VecX<S>& qd) {
  using std::sqrt;
  detail::check_size(qd.size(), m.nv, "qd", "nv");
  const detail::Prepared<S> P = detail::prepare(m, q);
  contact_detail::validate(m, cs);
  const int n = m.nv, nc = static_cast<int>(cs.size());
  ContactRows<S> out;
  out.phi.resize(nc);
  out.Phi.resize(nc, n);
  out.bias.resize(nc);
  out.scale.resize(nc);
  {
    const std::vector<S> dx(n, S(0));
    const std::vector<S> r = contact_detail::phi_at<S, S>(P, cs, dx);
    const std::vector<Pose<S>> X = detail::forward_kinematics<S, S>(P, dx);
    auto norm3 = [](const std::array<S, 3>& a) { return S(sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])); };
    using std::abs;
    for (int i = 0; i < nc; ++i) {
      const PointContact<S>& c = cs[i];
      out.phi[i] = r[i];
      out.scale[i] = S(1) + (c.p >= 0 ? norm3(X[c.p].p) : S(0)) + norm3(X[c.s].p) + S(sqrt(c.point.squaredNorm())) +
                     abs(c.offset);
    }
  }
  {  // Phi: one first-order pass per column.
    using U = detail::D1<S>;
    std::vector<U> dx(n);
    for (int j = 0; j < n; ++j) {
      for (int l = 0; l < n; ++l) dx[l] = detail::d1<S>(S(0), S(l == j ? 1 : 0));
      const std::vector<U> r = contact_detail::phi_at<U, S>(P, cs, dx);
      for (int i = 0; i < nc; ++i) out.Phi(i, j) = r[i].b;
    }
  }
  {  // bias: two infinitesimals both seeded with qd, so the eps1 eps2 part is d^2/dt^2 phi(t qd).
    using U = detail::D2<S>;
    std::vector<U> dx(n);
    for (int l = 0; l < n; ++l) dx[l] = U(detail::d1<S>(S(0), qd[l]), detail::d1<S>(qd[l], S(0)));
    const std::vector<U> r = contact_detail::phi_at<U, S>(P, cs, dx);
    for (int i = 0; i < nc; ++i) out.bias[i] = r[i].b.b;
  }
  return out;
}

// Solution of an LCP by enumeration (step 5 of the header), exposed for tests.
template <class S> struct LcpSolution {
  VecX<S> lambda;           // the first accepted subset's (subsets visited in the order of their bit masks)
  VecX<S> zeta_dot;         // M lambda + d for it
  std::vector<int> active;  // that subset A
  int accepted = 0;         // how many subsets were accepted
};

namespace contact_detail {

// Solves A x = b by Gaussian elimination with complete pivoting; false (and x untouched) when a
// pivot is not above piv_tol (A singular to that tolerance).
template <class S> bool solve_complete_pivoting(MatX<S> A, VecX<S> b, const S& piv_tol, VecX<S>& x) {
  using std::abs;
  const int n = static_cast<int>(A.rows());
  std::vector<int> col(n);
  std::iota(col.begin(), col.end(), 0);
  for (int k = 0; k < n; ++k) {
    int bi = k, bj = k;
    S best = S(-1);
    for (int i = k; i < n; ++i)
      for (int j = k; j < n; ++j)
        if (abs(A(i, j)) > best) { best = abs(A(i, j)); bi = i; bj = j; }
    if (!(best > piv_tol)) return false;
    A.row(k).swap(A.row(bi));
    std::swap(b[k], b[bi]);
    A.col(k).swap(A.col(bj));
    std::swap(col[k], col[bj]);
    for (int r = k + 1; r < n; ++r) {
      const S f = A(r, k) / A(k, k);
      for (int c = k; c < n; ++c) A(r, c) -= f * A(k, c);
      b[r] -= f * b[k];
    }
  }
  VecX<S> y(n);
  for (int k = n - 1; k >= 0; --k) {
    S s = b[k];
    for (int c = k + 1; c < n; ++c) s -= A(k, c) * y[c];
    y[k] = s / A(k, k);
  }
  x.resize(n);
  for (int k = 0; k < n; ++k) x[col[k]] = y[k];
  return true;
}

template <class S> S maxabs(const MatX<S>& a) {
  S r = S(0);
  for (Eigen::Index i = 0; i < a.size(); ++i) {
    using std::abs;
    r = std::max<S>(r, abs(a.data()[i]));
  }
  return r;
}
template <class S> S maxabs(const VecX<S>& a) {
  S r = S(0);
  for (Eigen::Index i = 0; i < a.size(); ++i) {
    using std::abs;
    r = std::max<S>(r, abs(a[i]));
  }
  return r;
}

// Every contact touching: |phi_i| <= eps^0.8 L_i (phi is a sum of products of world lengths, so
// a plane put through its point in S leaves ~eps L_i). std::domain_error naming the contact.
template <class S>
void require_touching(const PointContacts<S>& cs, const ContactRows<S>& rows, const std::string& who,
                      const std::string& what_is_judged) {
  using std::abs;
  for (std::size_t i = 0; i < cs.size(); ++i) {
    const S phi = rows.phi[static_cast<Eigen::Index>(i)], allowed = tol<S>() * rows.scale[static_cast<Eigen::Index>(i)];
    if (!(abs(phi) <= allowed))
      throw std::domain_error(who + ": " + contact_who(cs, i) + ": the state is not in contact: phi = " + fmt(phi) +
                              " exceeds the tolerance " + fmt(allowed) + " (the oracle judges " + what_is_judged + ")");
  }
}
// State 3 of Figure 11.4, contact by contact. phi is a sum of products of world lengths, so its
// rounding is ~eps L_i. Phi_i qd's rounding is ~eps (sum_j |Phi_ij|) max|qd| for a qd projected
// in S (the whole qd's rounding reaches every component); L_i max|qd| is added because a row of
// Phi can vanish by cancellation (a normal through the joint axis) while its terms are ~L_i.
template <class S>
void require_state_3(const PointContacts<S>& cs, const ContactRows<S>& rows, const VecX<S>& qd, const std::string& who) {
  using std::abs;
  require_touching<S>(cs, rows, who, "state 3 of Figure 11.4: phi = 0, phi_dot = 0");
  const S tol = contact_detail::tol<S>(), qd_max = maxabs(qd);
  const int n = static_cast<int>(qd.size());
  for (int i = 0; i < static_cast<int>(cs.size()); ++i) {
    S row = S(0), v = S(0);
    for (int j = 0; j < n; ++j) {
      row += abs(rows.Phi(i, j));
      v += rows.Phi(i, j) * qd[j];
    }
    const S vtol = tol * (row + rows.scale[i]) * qd_max;
    if (!(abs(v) <= vtol))
      throw std::domain_error(who + ": " + contact_who(cs, i) + ": qd is not consistent with the contact: "
                              "phi_dot = Phi qd = " + fmt(v) + " exceeds the tolerance " + fmt(vtol) +
                              " (state 3 of Figure 11.4 needs phi_dot = 0; phi_dot < 0 is an impact)");
  }
}
// The LCP's scales (solve_lcp_by_enumeration's tolerances), given the largest entry inv_max of
// the inverse inertia that M was made with and u's scale. d's: per contact, the terms of Phi_i u
// (at u's scale) and of the bias (|bias_i| and L_i max|qd|^2, the size of its centripetal terms,
// which may cancel). M's: inv_max L^2, an upper size of Phi_i H^-1 Phi_i^T (|Phi_ij| <= ~L_i for a
// rotation, 1 for a translation) that does not vanish when a row of Phi does by cancellation, so
// that such a row's M_ii (rounding, ~eps^2) is seen as singular.
template <class S>
void lcp_scales(const ContactRows<S>& rows, const MatX<S>& M, const S& inv_max, const S& u_scale, const VecX<S>& qd,
                S& d_scale, S& M_scale) {
  using std::abs;
  const S qd_max = maxabs(qd);
  d_scale = S(0);
  S L2 = S(0);
  for (int i = 0; i < static_cast<int>(rows.Phi.rows()); ++i) {
    S row = S(0);
    for (int j = 0; j < static_cast<int>(rows.Phi.cols()); ++j) row += abs(rows.Phi(i, j));
    const S Li = rows.scale[i];
    d_scale = std::max<S>(d_scale, row * u_scale + abs(rows.bias[i]) + Li * qd_max * qd_max);
    L2 = std::max<S>(L2, Li * Li);
  }
  M_scale = std::max<S>(maxabs(M), inv_max * L2);
}
}  // namespace contact_detail

// zeta_dot = M lambda + d >= 0, lambda >= 0, zeta_dot^T lambda = 0 by enumeration of the subsets
// A of {0..nc-1} (nc <= 12). M_scale >= max|M| and d_scale >= max|d| are the sizes of the terms M
// and d were computed from (tolerances: header); every accepted subset must give the same W lambda
// within agree_tol (w_scale + |W lambda_A| + |W lambda_B|), else std::logic_error. No accepted
// subset: std::domain_error. W may have zero rows.
template <class S>
LcpSolution<S> solve_lcp_by_enumeration(const MatX<S>& M, const VecX<S>& d, const MatX<S>& W, S M_scale, S d_scale,
                                        const S& w_scale) {
  using std::abs;
  namespace cd = contact_detail;
  const int nc = static_cast<int>(d.size());
  if (M.rows() != nc || M.cols() != nc || W.cols() != nc)
    detail::fail("contact oracle: LCP sizes do not match (M " + std::to_string(M.rows()) + "x" + std::to_string(M.cols()) +
                 ", d " + std::to_string(nc) + ", W " + std::to_string(W.rows()) + "x" + std::to_string(W.cols()) + ")");
  if (nc > cd::kMaxContacts)
    detail::fail("contact oracle: " + std::to_string(nc) + " contacts; the enumeration of the 2^nc subsets of Eq. 11.42's "
                 "LCP is limited to nc <= " + std::to_string(cd::kMaxContacts));
  M_scale = std::max<S>(M_scale, cd::maxabs(M));
  d_scale = std::max<S>(d_scale, cd::maxabs(d));
  const S tol = cd::tol<S>(), piv_tol = cd::rank_tol<S>() * M_scale;
  LcpSolution<S> best;
  VecX<S> first_w;
  S first_w_size = S(0);
  for (unsigned mask = 0; mask < (1u << nc); ++mask) {
    std::vector<int> A;
    for (int i = 0; i < nc; ++i)
      if (mask & (1u << i)) A.push_back(i);
    const int k = static_cast<int>(A.size());
    VecX<S> lambda = VecX<S>::Zero(nc);
    S lam_scale = S(0);
    if (k > 0) {
      MatX<S> MA(k, k);
      VecX<S> rhs(k), x;
      for (int a = 0; a < k; ++a) {
        rhs[a] = -d[A[a]];
        for (int b = 0; b < k; ++b) MA(a, b) = M(A[a], A[b]);
      }
      if (!cd::solve_complete_pivoting<S>(MA, rhs, piv_tol, x)) continue;  // singular: see the header
      for (int a = 0; a < k; ++a) lambda[A[a]] = x[a];
      lam_scale = cd::maxabs(x) + d_scale / M_scale;  // M_scale > 0 here: M_AA had a pivot > 0
    }
    const VecX<S> zeta = M * lambda + d;
    const S z_tol = tol * (d_scale + M_scale * lam_scale);
    bool ok = true;
    for (int i = 0; i < nc && ok; ++i) {
      const bool in_A = (mask & (1u << i)) != 0;
      if (in_A) ok = lambda[i] >= -tol * lam_scale && abs(zeta[i]) <= z_tol;
      else ok = zeta[i] >= -z_tol;
    }
    if (!ok) continue;
    const VecX<S> w = W * lambda;
    const S w_size = cd::maxabs(w);
    if (best.accepted == 0) {
      best.lambda = lambda;
      best.zeta_dot = zeta;
      best.active = A;
      first_w = w;
      first_w_size = w_size;
    } else {
      const S diff = W.rows() > 0 ? cd::maxabs(VecX<S>(w - first_w)) : S(0);
      const S allowed = cd::agree_tol<S>() * (w_scale + first_w_size + w_size);
      if (!(diff <= allowed)) {
        std::ostringstream os;
        os << "contact oracle: two solutions of the LCP of Eq. 11.42 give different accelerations (H^-1 Phi^T lambda "
              "differs by " << cd::fmt(diff) << " > " << cd::fmt(allowed) << " between the contact sets {";
        for (int i : best.active) os << " " << i;
        os << " } and {";
        for (int i : A) os << " " << i;
        os << " }); Phi^T lambda should be unique (section 11.5, property 2): is M positive semi-definite?";
        throw std::logic_error(os.str());
      }
    }
    ++best.accepted;
  }
  if (best.accepted == 0) {
    std::ostringstream os;
    os << "contact oracle: the LCP of Eq. 11.42 has no solution: no lambda >= 0 keeps every separation acceleration "
          "zeta_dot = M lambda + d >= 0 (Example 11.1's situation; nc = " << nc << ", d =";
    for (int i = 0; i < nc; ++i) os << " " << cd::fmt(S(d[i]));
    os << ")";
    throw std::domain_error(os.str());
  }
  return best;
}

// Everything the LCP is built from, after the data and state checks.
template <class S> struct ContactLcp {
  ContactRows<S> rows;
  MatX<S> H;        // mass matrix
  VecX<S> C;        // bias force incl. gravity and f_ext: inverse_dynamics(q, qd, 0, f_ext)
  MatX<S> Hinv;     // H^-1
  VecX<S> u;        // H^-1 (tau - C): qdd without contact forces
  MatX<S> W;        // H^-1 Phi^T
  MatX<S> M;        // Phi H^-1 Phi^T (Eq. 11.35)
  VecX<S> d;        // Phi u + bias (Eq. 11.36)
  S M_scale, d_scale, u_scale;  // see the header and contact_lcp
};

template <class S>
ContactLcp<S> contact_lcp(const Model<S>& m, const PointContacts<S>& cs, const VecX<S>& q, const VecX<S>& qd,
                          const VecX<S>& tau, const std::type_identity_t<ExternalForces<S>>* f_ext) {
  namespace cd = contact_detail;
  detail::check_size(tau.size(), m.nv, "tau", "nv");
  ContactLcp<S> L;
  L.rows = contact_rows(m, cs, q, qd);  // also checks q, qd and the contacts' data
  const int n = m.nv;
  cd::require_state_3<S>(cs, L.rows, qd, "contact oracle");

  L.H = mass_matrix(m, q);
  L.C = inverse_dynamics(m, q, qd, VecX<S>(VecX<S>::Zero(n)), f_ext);
  L.Hinv.resize(n, n);
  for (int j = 0; j < n; ++j)
    L.Hinv.col(j) = solve_gepp<S>(L.H, VecX<S>(VecX<S>::Unit(n, j)), "contact oracle: the mass matrix H");
  L.u = L.Hinv * (tau - L.C);
  L.W = L.Hinv * L.rows.Phi.transpose();
  L.M = L.rows.Phi * L.W;
  L.d = L.rows.Phi * L.u + L.rows.bias;

  // Scales. u's: what u would be if tau and C did not cancel (the others: lcp_scales).
  const S hinv_max = cd::maxabs(L.Hinv);
  L.u_scale = cd::maxabs(L.u) + hinv_max * (cd::maxabs(tau) + cd::maxabs(L.C));
  cd::lcp_scales<S>(L.rows, L.M, hinv_max, L.u_scale, qd, L.d_scale, L.M_scale);
  return L;
}

// qdd of the tree with frictionless point contacts (Eqs. 11.41-11.42). f_ext as for
// inverse_dynamics (nullptr: none); lambda_out, if given, receives one solution's lambda (the
// first accepted subset's; Phi^T lambda, hence qdd, is the same for all of them).
template <class S>
VecX<S> contact_forward_dynamics(const Model<S>& m, const PointContacts<S>& contacts, const VecX<S>& q,
                                 const VecX<S>& qd, const VecX<S>& tau,
                                 const std::type_identity_t<ExternalForces<S>>* f_ext,
                                 std::type_identity_t<VecX<S>>* lambda_out = nullptr) {
  if (contacts.size() > static_cast<std::size_t>(contact_detail::kMaxContacts))
    contact_detail::validate(m, contacts);  // throws, naming the limit, before any work
  const ContactLcp<S> L = contact_lcp(m, contacts, q, qd, tau, f_ext);
  const int nc = static_cast<int>(contacts.size());
  if (nc == 0) {
    if (lambda_out) lambda_out->resize(0);
    return L.u;
  }
  const LcpSolution<S> sol = solve_lcp_by_enumeration<S>(L.M, L.d, L.W, L.M_scale, L.d_scale, L.u_scale);
  if (lambda_out) *lambda_out = sol.lambda;
  return L.u + L.W * sol.lambda;
}

}  // namespace rbd::oracle
