#pragma once
// Floating-base forward dynamics by eliminating the base first (Featherstone Example 9.2,
// Eqs. 9.14-9.16): Eq. 9.13's coefficients from crba_floating and rnea_floating's bias, then
//     H^fl qdd = tau - C^fl - F^T (I_0^c)^-1 tau_0          (Eq. 9.14; tau_0 = 0 in the book)
// by Table 6.3's L^T D L on the dense H^fl, then the base's acceleration from Eq. 9.13's first
// row, a_0 = (I_0^c)^-1 (tau_0 - p_0^c - F qdd). The same system crba_ltdl solves, eliminated in
// the other order: crba_ltdl factors Eq. 9.13's whole matrix leaf first, so the base goes last
// and no fill-in occurs; here the base goes first and fills the joint block in completely
// (section 9.3's remark that H^fl "is a dense matrix"). Both are exact block eliminations of
// one SPD matrix, so they agree to rounding; the cost differs, O(n^3) here against O(n d^2),
// and verify/opcounts.cpp puts numbers on the difference.
#include <string_view>

#include "floating_base/schur_complement.hpp"

namespace rbd {

struct CrbaFloatingSchur {
  static constexpr std::string_view name = "crba_floating_schur";
  static constexpr std::string_view summary =
      "Floating-base CRBA + bias, base eliminated first: dense L^T D L of H^fl (Featherstone Eqs. 9.13-9.16)";
  static constexpr std::string_view complexity = "O(n^3)";
  template <class S> static bool applicable(const Model<S>& m) { return is_floating_base(m); }

  template <class S>
  static void run(const Model<S>& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& tau,
                  const ExternalForces<S>* f_ext, VecX<S>& qdd, ForwardDynamicsWorkspace<S>& ws) {
    if (!is_floating_base(model)) not_floating_base("crba_floating_schur", model.name);
    CrbaFloating::run<S>(model, q, ws.H, ws);                       // [I_0^c F; F^T H] (Eq. 9.13)
    BiasFrom<RneaFloating>::run<S>(model, q, qd, f_ext, ws.C, ws);  // [p_0^c; C]
    qdd = tau - ws.C;                                               // [tau_0 - p_0^c; tau - C]
    const floating_detail::Ldl6<S> Ic0 = floating_detail::solve_base_columns<S>(model, ws);  // Y = (I_0^c)^-1 F
    const Vec6<S> y0 = floating_detail::ldl6_solve<S>(Ic0, qdd.template head<6>());           // (I_0^c)^-1 (tau_0 - p_0^c)
    const int n = model.nv - 6;
    for (int k = 0; k < n; ++k) {                                   // tau - C^fl - F^T (I_0^c)^-1 tau_0
      S s = ws.F(0, 6 + k) * y0[0];
      for (int r = 1; r < 6; ++r) s += ws.F(r, 6 + k) * y0[r];
      qdd[6 + k] -= s;
    }
    floating_detail::schur_rows<S>(ws);                             // H^fl (Eq. 9.15), packed
    ltdl_factor<S>(ws.schur_pattern, ws.schur_rows);                // H^fl = L^T D L
    auto qdd_joints = qdd.tail(n);
    ltdl_solve<S>(ws.schur_pattern, ws.schur_rows, qdd_joints);     // qdd of Eq. 9.14
    for (int r = 0; r < 6; ++r) {                                   // a_0 = y0 - Y qdd
      S s = y0[r];
      for (int k = 0; k < n; ++k) s -= ws.base_solve(r, 6 + k) * qdd[6 + k];
      qdd[r] = s;
    }
  }
};

}  // namespace rbd
