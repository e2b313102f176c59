#pragma once
// Floating-base articulated-body algorithm, Featherstone Table 9.4 (section 9.4,
// Eqs. 7.34-7.50 with Eq. 9.17), in body coordinates, as a forward-dynamics variant.
//
// What differs from Table 7.1 (forward_dynamics/aba.hpp), line by line:
//  - v_0, the floating base's velocity in base coordinates, is an input (qd[0..6), see
//    floating_base/base_state.hpp for the mapping onto the free-joint tree);
//  - pass 1 starts with I^A_0 = I_0 and p^A_0 = v_0 x* I_0 v_0 - f^x_0 (the base is a body
//    with no joint of its own); the force tau[0..6) across the free joint is added to f^x_0;
//  - pass 2 runs for i = N_B..1 and always passes I^a, p^a to lambda(i), the base included,
//    so it ends with the articulated-body inertia and bias force of the whole tree at the base;
//  - a_0 = -(I^A_0)^-1 p^A_0 (Eq. 9.17, I^A_0 a_0 + p^A_0 = 0): the base accelerates as an
//    articulated body with nothing holding it;
//  - pass 3 (i = 1..N_B) is Table 7.1's, starting from that a_0, computed WITHOUT gravity;
//  - a_0 = a_0 + ^0a_g at the end: a uniform gravitational field accelerates every body of a
//    free-floating system by the same a_g, so the joint accelerations do not depend on it,
//    and only the base acceleration gets it (section 9.4).
// So no 6-DoF joint is processed: no U_0 = I^A_0 S_0, D_0 = S_0^T U_0 with the free joint's
// S_0 = 1, and the base's a' = ^0X_world(-a_g) never appears. The book writes f^x_i and a_g in
// base coordinates (^0f^x_i, ^0a_g) so that it need not know ^0X_ref; rbdlab's f^x_i are in
// body coordinates already, and ^0a_g = [0; E_0 g] needs only the base's rotation, from the
// quaternion in q.
//
// Outputs in the free-joint tree's qdd: qdd[0..6) = a_0 (the base's spatial acceleration in
// base coordinates, gravity included), qdd at v_idx[i] = qdd_i. Exactly the tree's ABA
// (Table 7.1 with the free joint at body 0) in exact arithmetic; verify/test_floating_base.cpp
// checks it to 40+ digits in Reference, and the exactness gate against the Lagrangian oracle.
//
// Cost: the tree's ABA minus the free joint's U_0, D_0^-1 (a 6x6 inverse), u_0 and
// qdd_0 = D_0^-1 (u_0 - U_0^T a'), plus one 6x6 L D L^T solve (floating_detail::solve_spd6)
// and one 3x3 rotation of g; see README.md for the counts.
#include <string_view>

#include "floating_base/base_state.hpp"
#include "forward_dynamics/aba.hpp"

namespace rbd {

struct AbaFloating {
  static constexpr std::string_view name = "aba_floating";
  static constexpr std::string_view summary =
      "Floating-base articulated-body algorithm: base acceleration from I^A_0 a_0 + p^A_0 = 0 (Featherstone Table 9.4)";
  static constexpr std::string_view complexity = "O(n)";
  template <class S> static bool applicable(const Model<S>& m) { return is_floating_base(m); }

  template <class S>
  static void run(const Model<S>& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& tau,
                  const ExternalForces<S>* f_ext, VecX<S>& qdd, ForwardDynamicsWorkspace<S>& ws) {
    if (model.nb < 1 || model.joint[0].type != JointType::Free) not_floating_base("aba_floating", model.name);
    const auto& parent = model.parent;
    // Pass 1. The base: v_0 is given, I^A_0 = I_0, p^A_0 = v_0 x* I_0 v_0 - f^x_0 (Table 9.4).
    {
      const Vec6<S> v0 = qd.template head<6>();
      ws.v[0] = v0;
      ws.IA[0] = aba_detail::inertia_matrix<S>(model.I[0]);
      Vec6<S>& pA0 = ws.pA[0];
      pA0 = bias_force<S>(model.I[0], v0);                                      // v_0 x* I_0 v_0
      pA0 -= tau.template head<6>();                                             //   - f_1 (= tau_1, section 9.3)
      if (f_ext) pA0 -= (*f_ext)[0];                                             //   - f^x_0
    }
    // Pass 1, i = 1..N_B: velocities, c_i, I^A_i = I_i, p^A_i (Eqs. 7.34-7.36), Table 7.1's lines.
    for (int i = 1; i < model.nb; ++i) {
      if (parent[i] < 0) not_floating_base("aba_floating", model.name);         // a second root
      aba_detail::velocity_step<S>(model, i, q, qd, f_ext, ws);
    }
    // Pass 2, i = N_B..1: U_i, D_i, u_i, and I^a, p^a passed to lambda(i) -- the base too.
    for (int i = model.nb - 1; i >= 1; --i) aba_detail::articulate_step<S>(model, i, tau, ws);  // Eqs. 7.43-7.48
    // a_0 = -(I^A_0)^-1 p^A_0 (Eq. 9.17), gravity-free.
    Vec6<S>& a0 = ws.a[0];
    a0 = -floating_detail::solve_spd6<S>(ws.IA[0], ws.pA[0]);
    // Pass 3, i = 1..N_B: accelerations (Eqs. 7.46, 7.49, 7.50), in the absence of gravity.
    for (int i = 1; i < model.nb; ++i) {
      ws.a[i] = ws.Xup[i].apply_plus(ws.a[parent[i]], ws.c[i]);                  // Eq. 7.46, a'
      aba_detail::accelerate_step<S>(model, i, qdd, ws);                         // Eqs. 7.49-7.50
    }
    // a_0 = a_0 + ^0a_g (Table 9.4's last line): the base's true acceleration. The body
    // accelerations a_i in ws stay gravity-free (add ^iX_0 ^0a_g to use them).
    const Vec3<S> g0 = floating_detail::base_gravity<S>(model, q);
    for (int k = 0; k < 3; ++k) qdd[k] = a0[k];
    for (int k = 0; k < 3; ++k) qdd[3 + k] = a0[3 + k] + g0[k];
  }
};

}  // namespace rbd
