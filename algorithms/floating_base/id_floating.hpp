#pragma once
// Floating-base inverse dynamics, Featherstone Table 9.6 (section 9.5, Eqs. 9.18-9.25).
//
// The problem: the joint accelerations qdd_i (i >= 1) are given, the base is unactuated
// (nothing acts on it but gravity and the external forces), and the base acceleration a_0 and
// the joint forces tau_i are wanted -- a hybrid-dynamics problem (forward dynamics at the
// free joint, inverse dynamics at the others). Not a variant of the inverse-dynamics family,
// whose input is the whole qdd, base included, and whose output includes the free joint's
// force: here a_0 is an output and the free joint's force is zero by assumption. The two map
// onto the free-joint tree as (floating_base/base_state.hpp)
//     FD_tree(q, qd, [0; tau_*]) = [a_0; qdd_*],   ID_tree(q, qd, [a_0; qdd_*]) = [0; tau_*],
// and verify/test_floating_base.cpp checks both identities to 40+ digits.
//
// Derivation (section 9.5): the force across joint i supports the bodies of the subtree nu(i),
// f_i = sum_{j in nu(i)} (I_j a_j + v_j x* I_j v_j - f^x_j) (Eq. 9.18). With
// a_j = ^jX_0 a_0 + a^r_j (a^r_j the acceleration relative to the base's), it becomes
// f_i = I^c_i ^ia_0 + p^c_i (Eq. 9.20) with the composite inertia I^c_i and the bias
// p^c_i = p_i + sum_{children j} ^iX_j^* p^c_j (Eq. 9.22), p_i = I_i a^r_i + v_i x* I_i v_i - f^x_i
// (Eq. 9.23). The base has no parent, f_0 = 0, so a_0 = -(I^c_0)^-1 p^c_0 (Eq. 9.24), and
// tau_i = S_i^T (I^c_i ^ia_0 + p^c_i) (Eq. 9.25).
// Gravity: a^r_0 = -^0a_g (Table 9.6's first line) puts the gravity forces into p^c_i, and
// the a_0 of Eq. 9.24 is then the true base acceleration, gravity included; a^r_i is then the
// relative acceleration minus ^iX_0 ^0a_g. (Table 9.6's printed a^r_i line reads
// "... + c_J + v_J x v_J + S_i qdd_i" in the extraction at hand; v_J x v_J is zero, the term
// is v_i x v_J as in Table 5.1 and Eq. 7.35, and as the table's own equation column has it,
// c_i = S°_i qd_i + v_i x v_Ji. The code uses v_i x v_J.)
//
// Outputs: a0 = the base's spatial acceleration in base coordinates (the free joint's qdd);
// tau, nv long, with tau[0..6) = 0 (the unactuated base) and tau_i at v_idx[i]. The entries
// qdd[0..6) of the input are not read. External forces in body coordinates (rbdlab's
// convention; the book's ^iX_0^* ^0f^x_i); a force on the base goes in f_ext[0].
#include <string_view>

#include "floating_base/base_state.hpp"
#include "floating_base/rnea_floating.hpp"  // floating_detail::velocity_acceleration, body_force

namespace rbd {

struct IdFloating {
  static constexpr std::string_view name = "id_floating";
  static constexpr std::string_view summary =
      "Floating-base inverse dynamics: a_0 = -(I^c_0)^-1 p^c_0, tau_i = S_i^T (I^c_i a_0 + p^c_i) (Featherstone Table 9.6)";
  static constexpr std::string_view complexity = "O(n)";
  template <class S> static bool applicable(const Model<S>& m) { return is_floating_base(m); }

  template <class S>
  static void run(const Model<S>& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd,
                  const ExternalForces<S>* f_ext, Vec6<S>& a0, VecX<S>& tau, Workspace<S>& ws) {
    if (model.nb < 1 || model.joint[0].type != JointType::Free) not_floating_base("id_floating", model.name);
    const auto& parent = model.parent;
    std::vector<Vec6<S>>& ar = ws.a;   // a^r_i, then (pass 3) ^ia_0
    std::vector<Vec6<S>>& pc = ws.f;   // p^c_i
    // Pass 1, the base: a^r_0 = -^0a_g, I^c_0 = I_0, p^c_0 = I_0 a^r_0 + v_0 x* I_0 v_0 - f^x_0.
    {
      const Vec3<S> g0 = floating_detail::base_gravity<S>(model, q);
      ws.v[0] = qd.template head<6>();
      ar[0] = join<S>(Vec3<S>::Zero(), Vec3<S>(-g0));
      ws.IC[0] = model.I[0];
      pc[0] = body_force<S>(model.I[0], ws.v[0], ar[0]);
      if (f_ext) pc[0] -= (*f_ext)[0];
    }
    // Pass 1, i = 1..N_B: v_i, a^r_i = ^iX_l a^r_l + c_J + v_i x v_J + S_i qdd_i, I^c_i = I_i,
    // p^c_i = p_i (Eq. 9.23).
    for (int i = 1; i < model.nb; ++i) {
      if (parent[i] < 0) not_floating_base("id_floating", model.name);     // a second root
      floating_detail::velocity_acceleration<S>(model, i, q, qd, qdd, ar, ws);
      ws.IC[i] = model.I[i];                                                // I^c_i = I_i
      pc[i] = body_force<S>(model.I[i], ws.v[i], ar[i]);                   // I_i a^r_i + v_i x* I_i v_i
      if (f_ext) pc[i] -= (*f_ext)[i];                                      //   - f^x_i
    }
    // Pass 2, i = N_B..1: I^c_l += ^lX_i^* I^c_i ^iX_l; p^c_l += ^lX_i^* p^c_i (Eq. 9.22).
    for (int i = model.nb - 1; i >= 1; --i) {
      add_transform_transpose<S>(ws.Xup[i], ws.IC[i], ws.IC[parent[i]]);
      pc[parent[i]] += ws.Xup[i].apply_transpose(pc[i]);
    }
    // Pass 3: ^0a_0 = -(I^c_0)^-1 p^c_0 (Eq. 9.24); for i = 1..N_B, ^ia_0 = ^iX_l ^la_0 and
    // tau_i = S_i^T (I^c_i ^ia_0 + p^c_i) (Eq. 9.25).
    a0 = -floating_detail::solve_spd6<S>(ws.IC[0].matrix(), pc[0]);
    ar[0] = a0;
    for (int i = 1; i < model.nb; ++i) {
      const Joint<S>& joint = model.joint[i];
      const int vi = model.v_idx[i];
      ar[i] = ws.Xup[i].apply(ar[parent[i]]);                               // ^ia_0
      const Vec6<S> fi = ws.IC[i] * ar[i] + pc[i];                          // f_i (Eq. 9.20)
      if (joint.nv() == 1) tau[vi] = screw_transpose_times(joint, fi);
      else tau.segment(vi, joint.nv()).noalias() = ws.jk[i].S_.transpose() * fi;
    }
    tau.template head<6>().setZero();                                       // the unactuated base
  }
};

}  // namespace rbd
