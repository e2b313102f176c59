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
    // Pass 1, i = 1..N_B: velocities, c_i, I^A_i = I_i, p^A_i (Eqs. 7.34-7.36).
    for (int i = 1; i < model.nb; ++i) {
      const Joint<S>& joint = model.joint[i];
      const int lambda = parent[i], vi = model.v_idx[i];
      if (lambda < 0) not_floating_base("aba_floating", model.name);             // a second root
      JointKinematics<S>& J = ws.jk[i];
      Vec6<S>& v = ws.v[i];
      Vec6<S>& c = ws.c[i];
      jcalc_xup(joint, q.segment(model.q_idx[i], joint.nq()), model.Xtree[i], J, ws.Xup[i]);  // ^iX_lambda(i)
      c.setZero();                                                               // c_J = 0 (Table 4.1)
      if (joint.nv() == 1) {
        const S qdi = qd[vi];
        v = ws.Xup[i].apply(ws.v[lambda]);                                       // Eq. 7.34
        add_screw_times(joint, qdi, v);                                          //   + v_J = s qd
        add_cross_screw_times(joint, v, qdi, c);                                 // Eq. 7.35: v_i x v_J
      } else {
        J.vJ.noalias() = J.S_ * qd.segment(vi, joint.nv());                      // v_J = S qd
        v = ws.Xup[i].apply(ws.v[lambda]) + J.vJ;                                // Eq. 7.34
        c = crm<S>(v, J.vJ);                                                     // Eq. 7.35
      }
      ws.IA[i] = aba_detail::inertia_matrix<S>(model.I[i]);                      // I^A_i = I_i
      ws.pA[i] = bias_force<S>(model.I[i], v);                                   // Eq. 7.36
      if (f_ext) ws.pA[i] -= (*f_ext)[i];                                        //   - f^x_i
    }
    // Pass 2, i = N_B..1: U_i, D_i, u_i, and I^a, p^a passed to lambda(i) -- the base too.
    for (int i = model.nb - 1; i >= 1; --i) {
      const Joint<S>& joint = model.joint[i];
      const int vi = model.v_idx[i], p = parent[i];
      const Mat6<S>& IA = ws.IA[i];
      const Vec6<S>& pA = ws.pA[i];
      Mat6<S> Ia;
      Vec6<S> pa;
      if (joint.nv() == 1) {
        const Vec6<S> U = aba_detail::inertia_times_screw<S>(joint, IA);         // Eq. 7.43
        const S Dinv = S(1) / screw_transpose_times(joint, U);                   // Eq. 7.44, D^-1
        const S u = tau[vi] - screw_transpose_times(joint, pA);                  // Eq. 7.45
        ws.U[i].col(0) = U;
        ws.Dinv[i](0, 0) = Dinv;
        ws.u[i][0] = u;
        const Vec6<S> W = U * Dinv;                                              // U D^-1
        aba_detail::subtract_symmetric<S>(IA, W, U, Ia);                         // Eq. 7.47
        pa = pA + Ia * ws.c[i] + W * u;                                          // Eq. 7.48
      } else {
        const auto& Si = ws.jk[i].S_;
        const Eigen::Index ni = Si.cols();
        Mat6N<S>& U = ws.U[i];
        aba_detail::mul_S<S>(IA, Si, U);                                         // Eq. 7.43
        MatN<S> D(ni, ni);
        for (Eigen::Index k = 0; k < ni; ++k) D.col(k) = aba_detail::St_mul<S>(Si, Vec6<S>(U.col(k)));  // Eq. 7.44
        ws.u[i] = tau.segment(vi, ni) - aba_detail::St_mul<S>(Si, pA);           // Eq. 7.45
        aba_detail::spd_inverse<S>(D, ws.Dinv[i]);
        const Mat6N<S> W = U * ws.Dinv[i];                                       // U D^-1
        aba_detail::subtract_symmetric<S>(IA, W, U, Ia);                         // Eq. 7.47
        pa = pA + Ia * ws.c[i] + W * ws.u[i];                                    // Eq. 7.48
      }
      aba_detail::congruence_add<S>(ws.Xup[i], Ia, ws.IA[p]);                    // I^A_l += ^lX_i^* I^a ^iX_l
      aba_detail::add_apply_transpose<S>(ws.Xup[i], pa, ws.pA[p]);               // p^A_l += ^lX_i^* p^a
    }
    // a_0 = -(I^A_0)^-1 p^A_0 (Eq. 9.17), gravity-free.
    Vec6<S>& a0 = ws.a[0];
    a0 = -floating_detail::solve_spd6<S>(ws.IA[0], ws.pA[0]);
    // Pass 3, i = 1..N_B: accelerations (Eqs. 7.46, 7.49, 7.50), in the absence of gravity.
    for (int i = 1; i < model.nb; ++i) {
      const Joint<S>& joint = model.joint[i];
      const int vi = model.v_idx[i];
      Vec6<S>& a = ws.a[i];
      a = ws.Xup[i].apply_plus(ws.a[parent[i]], ws.c[i]);                        // Eq. 7.46, a'
      if (joint.nv() == 1) {
        const auto U = ws.U[i].col(0);
        const S Ua = U[0] * a[0] + U[1] * a[1] + U[2] * a[2] + U[3] * a[3] + U[4] * a[4] + U[5] * a[5];
        const S qddi = ws.Dinv[i](0, 0) * (ws.u[i][0] - Ua);                     // Eq. 7.49
        qdd[vi] = qddi;
        add_screw_times(joint, qddi, a);                                         // Eq. 7.50
      } else {
        const auto& Si = ws.jk[i].S_;
        const VecN<S> qddi = ws.Dinv[i] * (ws.u[i] - ws.U[i].transpose() * a);  // Eq. 7.49
        qdd.segment(vi, Si.cols()) = qddi;
        a += aba_detail::S_mul<S>(Si, qddi);                                     // Eq. 7.50
      }
    }
    // a_0 = a_0 + ^0a_g (Table 9.4's last line): the base's true acceleration. The body
    // accelerations a_i in ws stay gravity-free (add ^iX_0 ^0a_g to use them).
    const Vec3<S> g0 = floating_detail::base_gravity<S>(model, q);
    for (int k = 0; k < 3; ++k) qdd[k] = a0[k];
    for (int k = 0; k < 3; ++k) qdd[3 + k] = a0[3 + k] + g0[k];
  }
};

}  // namespace rbd
