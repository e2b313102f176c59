#pragma once
// Recursive Newton-Euler algorithm in body coordinates, Featherstone Table 5.1
// (Eqs. 5.16-5.20 with 5.9 and 5.11). Gravity enters as a fictitious base acceleration
// a_0 = -a_g, so tau includes the gravity terms.
//
// Written for speed without leaving the table's lines (section 10.3.1's optimisations that
// hold for any model; see README.md "Cost"):
//  - ^iX_lambda(i) = X_J X_T(i) is composed directly (jcalc_xup): an elementary rotation only
//    mixes two rows of E_T;
//  - for 1-DoF joints (revolute, prismatic, helical) S is one column s, and S qd, S qdd,
//    v x vJ and S^T f go through the screw helpers of model/joint.hpp, which reduce to
//    selections for axis-aligned joints; multi-DoF joints use jcalc's S;
//  - the base terms: v_0 = 0, so v_i = vJ and v_i x vJ = 0 for a child of the base, and
//    ^iX_0 a_0 with a_0 = [0; -g] is [0; -E g].
#include <string_view>

#include "model/workspace.hpp"

namespace rbd {

namespace detail {
// Table 5.1's two passes. inertia(i) gives body i's inertia as something that multiplies a
// spatial vector: model.I[i] for rnea_spatial, the dynamically equivalent inertia with its
// zero pattern for rnea_equivalent (section 9.7); everything else is the same code.
template <class S, class BodyInertia>
RBD_INLINE void rnea_spatial_passes(const Model<S>& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd,
                                    const ExternalForces<S>* f_ext, VecX<S>& tau, Workspace<S>& ws,
                                    const BodyInertia& inertia) {
  const auto& parent = model.parent;
  const Vec3<S> minus_g = -model.gravity;  // a_0 = -a_g = [0; -g]
  // Pass 1, base to tips: velocities, accelerations and the net body forces f_i^B.
  for (int i = 0; i < model.nb; ++i) {
    const Joint<S>& joint = model.joint[i];
    const int lambda = parent[i], vi = model.v_idx[i];
    Transform<S>& Xup = ws.Xup[i];
    Vec6<S>& v = ws.v[i];
    Vec6<S>& a = ws.a[i];
    jcalc_xup(joint, q.segment(model.q_idx[i], joint.nq()), model.Xtree[i], ws.jk[i], Xup);  // ^iX_lambda(i) = X_J X_T(i)
    if (joint.nv() == 1) {
      const S qdi = qd[vi], qddi = qdd[vi];
      if (lambda < 0) {
        v = screw_times(joint, qdi);                                     // Eq. 5.18, v_0 = 0
        a = join<S>(Vec3<S>::Zero(), Xup.E * minus_g);                   // Eq. 5.19: ^iX_0 a_0
      } else {
        v = Xup.apply(ws.v[lambda]);                                     // Eq. 5.18
        add_screw_times(joint, qdi, v);                                  //   + vJ, vJ = s qd (5.16)
        a = Xup.apply(ws.a[lambda]);                                     // Eq. 5.19
        add_cross_screw_times(joint, v, qdi, a);                         //   + v_i x vJ (cJ = 0)
      }
      add_screw_times(joint, qddi, a);                                   //   + s qdd
    } else {
      JointKinematics<S>& J = ws.jk[i];                                  // X_J, S from jcalc_xup
      J.vJ.noalias() = J.S_ * qd.segment(vi, joint.nv());               // Eq. 5.16
      a.noalias() = J.S_ * qdd.segment(vi, joint.nv());                 // S qdd (+ cJ = 0)
      if (lambda < 0) {
        v = J.vJ;                                                        // Eq. 5.18, v_0 = 0
        a.template tail<3>() += Xup.E * minus_g;                         // Eq. 5.19: ^iX_0 a_0
      } else {
        v = Xup.apply(ws.v[lambda]) + J.vJ;                              // Eq. 5.18
        a += Xup.apply(ws.a[lambda]) + crm<S>(v, J.vJ);                  // Eq. 5.19
      }
    }
    const auto& I = inertia(i);
    ws.f[i] = I * a + crf<S>(v, I * v);                                  // Eq. 5.9
    if (f_ext) ws.f[i] -= (*f_ext)[i];                                   // Eq. 5.20, body coords
  }
  // Pass 2, tips to base: joint forces (Eq. 5.11) and accumulation of forces into parents.
  for (int i = model.nb - 1; i >= 0; --i) {
    const Joint<S>& joint = model.joint[i];
    const int vi = model.v_idx[i];
    if (joint.nv() == 1) tau[vi] = screw_transpose_times(joint, ws.f[i]);              // Eq. 5.11
    else tau.segment(vi, joint.nv()).noalias() = ws.jk[i].S_.transpose() * ws.f[i];   // Eq. 5.11
    if (parent[i] >= 0) ws.f[parent[i]] += ws.Xup[i].apply_transpose(ws.f[i]);        // Eq. 5.20
  }
}
}  // namespace detail

struct RneaSpatial {
  static constexpr std::string_view name = "rnea_spatial";
  static constexpr std::string_view summary =
      "Spatial recursive Newton-Euler in body coordinates (Featherstone Table 5.1)";
  static constexpr std::string_view complexity = "O(n)";
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd,
                  const ExternalForces<S>* f_ext, VecX<S>& tau, Workspace<S>& ws) {
    detail::rnea_spatial_passes(model, q, qd, qdd, f_ext, tau, ws,
                                [&](int i) -> const Inertia<S>& { return model.I[i]; });
  }
};

}  // namespace rbd
