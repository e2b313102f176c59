#pragma once
// Recursive Newton-Euler algorithm in body coordinates, Featherstone Table 5.1
// (Eqs. 5.16-5.20 with 5.9 and 5.11). Gravity enters as a fictitious base acceleration
// a_0 = -a_g, so tau includes the gravity terms.
#include <string_view>

#include "model/workspace.hpp"

namespace rbd {

struct RneaSpatial {
  static constexpr std::string_view name = "rnea_spatial";
  static constexpr std::string_view summary =
      "Spatial recursive Newton-Euler in body coordinates (Featherstone Table 5.1)";
  static constexpr std::string_view complexity = "O(n)";
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd,
                  const ExternalForces<S>* f_ext, VecX<S>& tau, Workspace<S>& ws) {
    const auto& parent = model.parent;
    const Vec6<S> a0 = -model.a_g();
    // Pass 1, base to tips: velocities, accelerations and the net body forces f_i^B.
    for (int i = 0; i < model.nb; ++i) {
      const auto& joint = model.joint[i];
      auto& J = ws.jk[i];
      jcalc(joint, q.segment(model.q_idx[i], joint.nq()), qd.segment(model.v_idx[i], joint.nv()), J);
      ws.Xup[i] = J.XJ * model.Xtree[i];                                   // ^iX_lambda(i)
      const Vec6<S> Sqdd = J.S_ * qdd.segment(model.v_idx[i], joint.nv());
      if (parent[i] < 0) {
        ws.v[i] = J.vJ;                                                   // Eq. 5.18, v_0 = 0
        ws.a[i] = ws.Xup[i].apply(a0) + Sqdd + J.cJ;                      // Eq. 5.19 (v x vJ = 0)
      } else {
        ws.v[i] = ws.Xup[i].apply(ws.v[parent[i]]) + J.vJ;                // Eq. 5.18
        ws.a[i] = ws.Xup[i].apply(ws.a[parent[i]]) + Sqdd + J.cJ + crm<S>(ws.v[i], J.vJ);  // Eq. 5.19
      }
      ws.f[i] = model.I[i] * ws.a[i] + crf<S>(ws.v[i], model.I[i] * ws.v[i]);  // Eq. 5.9
      if (f_ext) ws.f[i] -= (*f_ext)[i];                                       // Eq. 5.20, body coords
    }
    // Pass 2, tips to base: joint forces (Eq. 5.11) and accumulation of forces into parents.
    for (int i = model.nb - 1; i >= 0; --i) {
      const auto& J = ws.jk[i];
      tau.segment(model.v_idx[i], model.joint[i].nv()) = J.S_.transpose() * ws.f[i];
      if (parent[i] >= 0) ws.f[parent[i]] += ws.Xup[i].apply_transpose(ws.f[i]);
    }
  }
};

}  // namespace rbd
