#pragma once
// Floating-base recursive Newton-Euler algorithm, Featherstone Table 9.5 (left-hand column,
// "Calculate C and p_0^c"; section 9.4), as an inverse-dynamics variant.
//
// Table 9.5 computes the bias terms of Eq. 9.13, [p_0^c; C], which are the free-joint tree's
// C(q, qd, f_ext) (floating_base/base_state.hpp). Against Table 5.1 it differs in:
//  - v_0, the base velocity, is an input (qd[0..6)) and the base is a body with a bias force
//    of its own, f_0 = I_0 a_0 + v_0 x* I_0 v_0 - f^x_0;
//  - a_0^vp = -^0a_g: gravity as a fictitious acceleration of the base, in base coordinates
//    (^0a_g = [0; E_0 g], from the base quaternion);
//  - pass 2 runs i = N_B..1 and always adds ^lambda X_i^* f_i into f_lambda(i), the base
//    included, and p_0^c = f_0 at the end.
// The book's table drops the S_i qdd_i terms (a_i^vp: velocity products only). Here they are
// kept, a_0 = qdd[0..6) - ^0a_g and a_i = ^iX_lambda a_lambda + c_J + v_i x v_J + S_i qdd_i,
// so that the variant returns the whole left-hand side of Eq. 9.13,
//     tau = [I_0^c a_0 + F qdd + p_0^c; F^T a_0 + H qdd + C],
// i.e. the free-joint tree's tau, and sits in the inverse-dynamics family; with qdd = 0 (the
// bias family's BiasFrom<RneaFloating>) it is Table 9.5's RNEA line for line, returning
// [p_0^c; C]. tau[0..6) = f_0 is the force the free joint would have to transmit: zero for a
// free-floating system whose qdd came from forward dynamics with tau[0..6) = 0.
#include <string_view>
#include <vector>

#include "floating_base/base_state.hpp"
#include "inverse_dynamics/rnea_dh.hpp"  // body_force: I a + v x* I v in compact form
#include "model/workspace.hpp"

namespace rbd {

namespace floating_detail {
// Pass 1's kinematics for body i >= 1 (Tables 9.5 and 9.6 alike): ^iX_lambda(i) into ws.Xup[i],
//   v_i = ^iX_lambda v_lambda + v_J,   a_i = ^iX_lambda a_lambda + c_J + v_i x v_J + S_i qdd_i
// into ws.v[i] and a[i] (c_J = 0 for every joint of Table 4.1). `a` is ws.a for Table 9.5's
// a_i and Table 9.6's a^r_i alike; only the base's value (a_0 - ^0a_g or -^0a_g) differs.
template <class S>
RBD_INLINE void velocity_acceleration(const Model<S>& model, int i, const VecX<S>& q, const VecX<S>& qd,
                                      const VecX<S>& qdd, std::vector<Vec6<S>>& acc, Workspace<S>& ws) {
  const Joint<S>& joint = model.joint[i];
  const int lambda = model.parent[i], vi = model.v_idx[i];
  JointKinematics<S>& J = ws.jk[i];
  Transform<S>& Xup = ws.Xup[i];
  Vec6<S>& v = ws.v[i];
  Vec6<S>& a = acc[i];
  jcalc_xup(joint, q.segment(model.q_idx[i], joint.nq()), model.Xtree[i], J, Xup);  // ^iX_lambda(i) = X_J X_T(i)
  if (joint.nv() == 1) {
    const S qdi = qd[vi], qddi = qdd[vi];
    v = Xup.apply(ws.v[lambda]);                                            // ^iX_l v_l
    add_screw_times(joint, qdi, v);                                         //   + v_J = s qd
    a = Xup.apply(acc[lambda]);                                             // ^iX_l a_l
    add_cross_screw_times(joint, v, qdi, a);                                //   + v_i x v_J
    add_screw_times(joint, qddi, a);                                        //   + s qdd
  } else {
    J.vJ.noalias() = J.S_ * qd.segment(vi, joint.nv());                   // v_J = S_i qd_i
    v = Xup.apply(ws.v[lambda]) + J.vJ;
    a = Xup.apply(acc[lambda]) + crm<S>(v, J.vJ);
    a.noalias() += J.S_ * qdd.segment(vi, joint.nv());
  }
}
}  // namespace floating_detail

struct RneaFloating {
  static constexpr std::string_view name = "rnea_floating";
  static constexpr std::string_view summary =
      "Floating-base recursive Newton-Euler: base as a body, a_0 = a_0 - ^0a_g, p_0^c = f_0 (Featherstone Table 9.5)";
  static constexpr std::string_view complexity = "O(n)";
  template <class S> static bool applicable(const Model<S>& m) { return is_floating_base(m); }

  template <class S>
  static void run(const Model<S>& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd,
                  const ExternalForces<S>* f_ext, VecX<S>& tau, Workspace<S>& ws) {
    if (model.nb < 1 || model.joint[0].type != JointType::Free) not_floating_base("rnea_floating", model.name);
    const auto& parent = model.parent;
    // The base: v_0 input, a_0 = qdd_0 - ^0a_g (Table 9.5: a_0^vp = -^0a_g when qdd = 0),
    // f_0 = I_0 a_0 + v_0 x* I_0 v_0 - f^x_0.
    {
      const Vec3<S> g0 = floating_detail::base_gravity<S>(model, q);
      ws.v[0] = qd.template head<6>();
      Vec6<S>& a0 = ws.a[0];
      a0 = qdd.template head<6>();
      for (int k = 0; k < 3; ++k) a0[3 + k] -= g0[k];
      ws.f[0] = body_force<S>(model.I[0], ws.v[0], a0);
      if (f_ext) ws.f[0] -= (*f_ext)[0];
    }
    // Pass 1, i = 1..N_B: v_i, a_i, f_i (Eqs. 5.16-5.20 as in Table 9.5, S qdd kept).
    for (int i = 1; i < model.nb; ++i) {
      if (parent[i] < 0) not_floating_base("rnea_floating", model.name);   // a second root
      floating_detail::velocity_acceleration<S>(model, i, q, qd, qdd, ws.a, ws);
      ws.f[i] = body_force<S>(model.I[i], ws.v[i], ws.a[i]);               // I_i a_i + v_i x* I_i v_i
      if (f_ext) ws.f[i] -= (*f_ext)[i];                                    //   - f^x_i
    }
    // Pass 2, i = N_B..1: C_i = S_i^T f_i; f_lambda(i) += ^lambda X_i^* f_i (the base too).
    for (int i = model.nb - 1; i >= 1; --i) {
      const Joint<S>& joint = model.joint[i];
      const int vi = model.v_idx[i];
      if (joint.nv() == 1) tau[vi] = screw_transpose_times(joint, ws.f[i]);
      else tau.segment(vi, joint.nv()).noalias() = ws.jk[i].S_.transpose() * ws.f[i];
      ws.f[parent[i]] += ws.Xup[i].apply_transpose(ws.f[i]);
    }
    tau.template head<6>() = ws.f[0];                                       // p_0^c = f_0
  }
};

}  // namespace rbd
