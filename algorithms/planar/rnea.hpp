#pragma once
// Planar recursive Newton-Euler algorithm: Featherstone Table 5.1 written with planar vectors
// (section 2.16), in body coordinates. Gravity enters as the fictitious base acceleration
// a_0 = -a_g (section 5.3), so tau includes the gravity terms. No external forces.
#include <string_view>

#include "planar/workspace.hpp"

namespace rbd::planar {

struct Rnea {
  static constexpr std::string_view name = "planar_rnea";
  static constexpr std::string_view summary =
      "Recursive Newton-Euler with planar vectors (Featherstone Table 5.1, section 2.16)";

  template <class S>
  static void run(const Model<S>& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd, VecX<S>& tau,
                  Workspace<S>& ws) {
    const Vec2<S> minus_g = -model.gravity;                              // a_0 = -a_g = [0; -g]
    for (int i = 0; i < model.nb; ++i) {                                 // Table 5.1, first loop
      const Joint<S>& J = model.joint[i];
      velocity_step(model, i, q, qd, ws);                                // ^iX_lambda(i), v_i (Eqs. 5.16, 5.18)
      const Transform<S>& X = ws.Xup[i];
      const PVec<S>& v = ws.v[i];
      PVec<S>& a = ws.a[i];
      if (model.parent[i] < 0) a = X.apply_linear(minus_g);              // Eq. 5.19: ^iX_0 a_0 (v_i x v_J = 0)
      else a = X.apply(ws.a[model.parent[i]]) + crm_S(v, J, qd[i]);      // Eq. 5.19: ^iX_lambda a_lambda + v_i x v_J (c_J = 0)
      add_S_times(J, qdd[i], a);                                         //   + S_i qdd_i
      const Inertia<S>& I = model.I[i];
      ws.f[i] = I * a + crf(v, PVec<S>(I * v));                          // Eq. 5.9: f^B_i = I a + v x* I v
    }
    for (int i = model.nb - 1; i >= 0; --i) {                            // Table 5.1, second loop
      tau[i] = St_times(model.joint[i], ws.f[i]);                        // Eq. 5.11: tau_i = S_i^T f_i
      if (model.parent[i] >= 0)
        ws.f[model.parent[i]] += ws.Xup[i].apply_transpose(ws.f[i]);     // Eq. 5.20: f_lambda += ^lambda X*_i f_i
    }
  }
};

}  // namespace rbd::planar
