#pragma once
// The independent oracle for frictionless impacts of a tree at touching point contacts
// (Featherstone section 11.7; model/contact.hpp's PointContact, with its restitution e_i).
//
// Method, on the contact oracle's rows (reference/contact_oracle.hpp: phi from 4x4 poses, Phi =
// dphi/dx by dual numbers, never T, n_i or a Jacobian):
//  1. the state: every |phi_i| <= eps^0.8 L_i (touching); qd^- is arbitrary (an impact);
//  2. the impulse pair (lambda_i on s along the normal at C', its opposite on p) has virtual work
//     lambda_i dphi_i, so its generalized impulse is Phi^T lambda, and integrating the equation of
//     motion over the impact (Eqs. 11.52-11.57) gives H (qd^+ - qd^-) = Phi^T lambda with H =
//     oracle::mass_matrix (Euler-Lagrange);
//  3. zeta^- = Phi qd^-, W = H^-1 Phi^T (H^-1 column by column by solve_gepp), M = Phi W; Newton's
//     law (Eq. 11.64) at each contact as the complementarity conditions
//        zeta^+_i >= e_i max(-zeta^-_i, 0),  lambda_i >= 0,  lambda_i (zeta^+_i - e_i max(-zeta^-_i, 0)) = 0
//     (each contact leaves at least e_i times the speed it arrived with, and only a contact that
//     leaves at exactly that speed is pushed), i.e. the LCP w = M lambda + b with
//     b_i = zeta^-_i - e_i max(-zeta^-_i, 0) (written here with max, the variants' steps.hpp with
//     min: the same number), solved by the contact oracle's
//     enumeration of every active set (solve_lcp_by_enumeration: all accepted sets must give the
//     same W lambda);
//  4. qd^+ = qd^- + W lambda.
// Independence from algorithms/: as contact_oracle.hpp (data members of Model and PointContact
// only; the restitution is checked here, in S, not by contact.hpp's check_restitution).
// Tolerances: the contact oracle's (its header); the velocity scale of the agreement check is
// max|qd^-|, and b's scale the terms of Phi_i qd^- (sum_j |Phi_ij| max|qd^-|).
#include <stdexcept>
#include <string>

#include "reference/contact_oracle.hpp"

namespace rbd::oracle {

template <class S>
VecX<S> impact_response(const Model<S>& m, const PointContacts<S>& cs, const VecX<S>& q, const VecX<S>& qd,
                        std::type_identity_t<VecX<S>>* lambda_out = nullptr) {
  using std::abs;
  namespace cd = contact_detail;
  if (cs.size() > static_cast<std::size_t>(cd::kMaxContacts)) cd::validate(m, cs);  // names the limit
  const ContactRows<S> rows = contact_rows(m, cs, q, qd);  // checks q, qd and the contacts' data
  for (std::size_t i = 0; i < cs.size(); ++i)
    if (!(cs[i].restitution >= S(0) && cs[i].restitution <= S(1)))
      detail::fail("impact oracle: " + cd::contact_who(cs, i) + ": restitution e = " + cd::fmt(cs[i].restitution) +
                   " is outside [0, 1]");
  cd::require_touching<S>(cs, rows, "impact oracle", "impacts at touching contacts: phi = 0");
  const int n = m.nv, nc = static_cast<int>(cs.size());
  if (nc == 0) {
    if (lambda_out) lambda_out->resize(0);
    return qd;
  }
  const MatX<S> H = mass_matrix(m, q);
  MatX<S> Hinv(n, n);
  for (int j = 0; j < n; ++j) Hinv.col(j) = solve_gepp<S>(H, VecX<S>(VecX<S>::Unit(n, j)), "impact oracle: the mass matrix H");
  const MatX<S> W = Hinv * rows.Phi.transpose();
  const MatX<S> M = rows.Phi * W;
  const VecX<S> zeta = rows.Phi * qd;
  const S qd_max = cd::maxabs(qd);
  VecX<S> b(nc);
  S b_scale = S(0), L2 = S(0);
  for (int i = 0; i < nc; ++i) {
    b[i] = zeta[i] - cs[i].restitution * std::max<S>(S(-zeta[i]), S(0));
    S row = S(0);
    for (int j = 0; j < n; ++j) row += abs(rows.Phi(i, j));
    b_scale = std::max<S>(b_scale, row * qd_max);
    L2 = std::max<S>(L2, S(rows.scale[i] * rows.scale[i]));
  }
  const S M_scale = std::max<S>(cd::maxabs(M), S(cd::maxabs(Hinv) * L2));
  LcpSolution<S> sol;
  try {
    sol = solve_lcp_by_enumeration<S>(M, b, W, M_scale, b_scale, qd_max);
  } catch (const std::domain_error& e) {
    throw std::domain_error(std::string("impact oracle: no impulses satisfy Newton's law at every contact -- ") + e.what());
  }
  if (lambda_out) *lambda_out = sol.lambda;
  return qd + W * sol.lambda;
}

}  // namespace rbd::oracle
