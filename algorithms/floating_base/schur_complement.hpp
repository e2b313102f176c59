#pragma once
// The floating base eliminated from Eq. 9.13: Featherstone Example 9.2 (Eqs. 9.14-9.16) and
// Example 9.4 (the floating-base Jacobian J^fl).
//
// Subtracting F^T (I_0^c)^-1 times Eq. 9.13's first block row from its second leaves an
// equation in the joint variables alone,
//     H^fl qdd + C^fl = tau                                           (Eq. 9.14)
//     H^fl = H - F^T (I_0^c)^-1 F                                      (Eq. 9.15)
//     C^fl = C - F^T (I_0^c)^-1 p_0^c                                  (Eq. 9.16)
// (H^fl is the Schur complement of I_0^c in Eq. 9.13's matrix, so it is SPD), and the base's
// acceleration follows from the first row, a_0 = (I_0^c)^-1 (tau_0 - p_0^c - F qdd). The book
// sets the force across the 6-DoF joint to zero (tau_0 = 0, section 9.3); rbdlab's tree keeps
// it as an external force on the base in base coordinates (base_state.hpp), so the right-hand
// side here is tau - F^T (I_0^c)^-1 tau_0, which is the book's when tau_0 = 0.
//
// Section 9.3's warning is why this is not the suite's fast route: F^T (I_0^c)^-1 F is dense,
// so H^fl loses H's branch-induced sparsity (on solo12 H's joint block is four 3x3 leg blocks and
// H^fl is full: verify/test_floating_base.cpp, and the Reproductions page), and a factorization of
// H^fl costs O(n^3) where Table 6.3's on H costs O(n d^2).
//
// Example 9.4: with a_0 eliminated, the acceleration of body i in base coordinates is
//     a_i = J_i qdd + Jdot_i qd - (I_0^c)^-1 (F qdd + p_0^c) = J^fl_i qdd + (terms free of qdd),
//     J^fl_i = J_i - (I_0^c)^-1 F,
// J_i the 6 x n Jacobian of body i relative to the base, in base coordinates (column block j
// is ^0X_j S_j for every joint j on the path from the base to i, zero elsewhere). J^fl_i also
// maps a change of qd made by forces internal to the system (total momentum kept, Example 9.3)
// to the change of v_i. rbdlab's columns are the joint variables i >= 1 (nv - 6 of them).
//
// Everything is written into packed rows of the dense (chain) pattern, so the factorization is
// Table 6.3's L^T D L with lambda(k) = k - 1 (section 6.5's dense special case): no branch on
// the values, no pivoting (H^fl is SPD), allocation-free.
#include <stdexcept>
#include <string>

#include "floating_base/base_state.hpp"
#include "floating_base/crba_floating.hpp"
#include "floating_base/rnea_floating.hpp"
#include "bias/variants.hpp"
#include "forward_dynamics/workspace.hpp"

namespace rbd {
namespace floating_detail {

// With ws.H = [I_0^c F; F^T H] (crba_floating) and ws.F's columns 6.. holding F (base
// coordinates): factors I_0^c and leaves Y = (I_0^c)^-1 F in ws.base_solve's columns 6...
template <class S> Ldl6<S> solve_base_columns(const Model<S>& model, ForwardDynamicsWorkspace<S>& ws) {
  const Ldl6<S> Ic0 = ldl6_factor<S>(Mat6<S>(ws.H.template topLeftCorner<6, 6>()));
  for (int c = 6; c < model.nv; ++c) ws.base_solve.col(c) = ldl6_solve<S>(Ic0, ws.F.col(c));
  return Ic0;
}

// Sum over r of A(r, a) B(r, b) for 6-row column blocks, in index order (so every scalar,
// the counting one included, adds in the same order).
template <class S, class MA, class MB> S dot6(const MA& A, int a, const MB& B, int b) {
  S s = A(0, a) * B(0, b);
  for (int r = 1; r < 6; ++r) s += A(r, a) * B(r, b);
  return s;
}

// Eq. 9.15 into the packed rows of the dense pattern: row k holds H^fl_kk, H^fl_k,k-1, ...,
// H^fl_k0 (sparse.hpp's layout with lambda(k) = k - 1), k = 0 .. nv - 7.
template <class S> void schur_rows(ForwardDynamicsWorkspace<S>& ws) {
  const TreePattern& p = ws.schur_pattern;
  for (int k = 0; k < p.size(); ++k)
    for (int t = p.row_start[k]; t < p.row_start[k + 1]; ++t) {
      const int j = p.col[t];
      ws.schur_rows[t] = ws.H(6 + k, 6 + j) - dot6<S>(ws.F, 6 + k, ws.base_solve, 6 + j);
    }
}

}  // namespace floating_detail

// H^fl (n x n, n = nv - 6) and C^fl (n) of Eqs. 9.15-9.16 at (q, qd) with external forces
// f_ext (or none), through crba_floating and rnea_floating's bias. For inspection and for users
// who want Eq. 9.14's coefficients; the forward-dynamics variant crba_floating_schur keeps them
// packed. Hfl and Cfl must be sized n x n and n (no allocation here).
template <class S>
void floating_coefficients(const Model<S>& model, const VecX<S>& q, const VecX<S>& qd,
                           const ExternalForces<S>* f_ext, MatX<S>& Hfl, VecX<S>& Cfl,
                           ForwardDynamicsWorkspace<S>& ws) {
  if (!is_floating_base(model)) not_floating_base("floating_coefficients", model.name);
  const int nj = model.nv - 6;
  if (Hfl.rows() != nj || Hfl.cols() != nj || Cfl.size() != nj)
    throw std::invalid_argument("floating_coefficients: model '" + model.name + "' needs H^fl of " + std::to_string(nj) +
                                " x " + std::to_string(nj) + " and C^fl of " + std::to_string(nj) + " (nv - 6)");
  CrbaFloating::run<S>(model, q, ws.H, ws);                       // [I_0^c F; F^T H]
  BiasFrom<RneaFloating>::run<S>(model, q, qd, f_ext, ws.C, ws);  // [p_0^c; C]
  const floating_detail::Ldl6<S> Ic0 = floating_detail::solve_base_columns<S>(model, ws);
  floating_detail::schur_rows<S>(ws);
  unpack<S>(ws.schur_pattern, ws.schur_rows, Hfl);                // lower triangle
  const int n = model.nv - 6;
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < k; ++j) Hfl(j, k) = Hfl(k, j);
  const Vec6<S> y = floating_detail::ldl6_solve<S>(Ic0, ws.C.template head<6>());  // (I_0^c)^-1 p_0^c
  for (int k = 0; k < n; ++k) {                                                    // Eq. 9.16
    S s = ws.F(0, 6 + k) * y[0];
    for (int r = 1; r < 6; ++r) s += ws.F(r, 6 + k) * y[r];
    Cfl[k] = ws.C[6 + k] - s;
  }
}

// J^fl_body (6 x n, base coordinates, n = nv - 6) of Example 9.4 at q. Jfl must be sized 6 x n.
template <class S, class JMat>
void floating_jacobian(const Model<S>& model, const VecX<S>& q, int body, JMat& Jfl,
                       ForwardDynamicsWorkspace<S>& ws) {
  if (!is_floating_base(model)) not_floating_base("floating_jacobian", model.name);
  if (body < 0 || body >= model.nb)
    throw std::invalid_argument("floating_jacobian: body " + std::to_string(body) + " is not a body of model '" +
                                model.name + "' (it has " + std::to_string(model.nb) + ")");
  if (Jfl.rows() != 6 || Jfl.cols() != model.nv - 6)
    throw std::invalid_argument("floating_jacobian: model '" + model.name + "' needs J^fl of 6 x " +
                                std::to_string(model.nv - 6) + " (nv - 6)");
  CrbaFloating::run<S>(model, q, ws.H, ws);  // I_0^c, F, and every ^iX_lambda(i) in ws.Xup
  floating_detail::solve_base_columns<S>(model, ws);
  const int n = model.nv - 6;
  for (int c = 0; c < n; ++c) Jfl.col(c) = -ws.base_solve.col(6 + c);  // -(I_0^c)^-1 F
  ws.X0[0] = Transform<S>::identity();                                               // ^0X_0
  for (int i = 1; i < model.nb; ++i) ws.X0[i] = ws.Xup[i] * ws.X0[model.parent[i]];  // ^iX_0
  for (int j = body; j > 0; j = model.parent[j]) {  // the joints between the base and body
    const Joint<S>& joint = model.joint[j];
    for (int k = 0; k < joint.nv(); ++k) {
      const Vec6<S> s = joint.nv() == 1 ? screw_times(joint, S(1)) : Vec6<S>(ws.jk[j].S_.col(k));
      Jfl.col(model.v_idx[j] - 6 + k) += ws.X0[j].apply_inverse(s);  // + ^0X_j S_j
    }
  }
}

}  // namespace rbd
