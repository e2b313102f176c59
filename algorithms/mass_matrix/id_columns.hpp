#pragma once
// H one column at a time from differential inverse dynamics, Featherstone Table 6.1:
// column k is ID_delta(q, e_k) = H e_k, an RNEA with qd = 0, no gravity and no external
// forces, where every velocity-product term cancels (Eq. 6.4). Cost O(n^2) for a chain.
#include <string_view>

#include "model/workspace.hpp"

namespace rbd {

struct IdColumns {
  static constexpr std::string_view name = "id_columns";
  static constexpr std::string_view summary =
      "n calls of the simplified inverse dynamics ID_delta, one per column (Featherstone Table 6.1)";
  static constexpr std::string_view complexity = "O(n^2)";
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& model, const VecX<S>& q, MatX<S>& H, Workspace<S>& ws) {
    const auto& parent = model.parent;
    for (int i = 0; i < model.nb; ++i) {
      jcalc_position(model.joint[i], q.segment(model.q_idx[i], model.joint[i].nq()), ws.jk[i]);
      ws.Xup[i] = ws.jk[i].XJ * model.Xtree[i];
    }
    VecX<S>& delta = ws.tmp_v;  // the unit vector e_k
    delta.setZero();
    for (int k = 0; k < model.nv; ++k) {
      delta[k] = S(1);
      for (int i = 0; i < model.nb; ++i) {
        const Vec6<S> Sd = ws.jk[i].S_ * delta.segment(model.v_idx[i], model.joint[i].nv());
        ws.a[i] = parent[i] < 0 ? Sd : Vec6<S>(ws.Xup[i].apply(ws.a[parent[i]]) + Sd);  // a_i
        ws.f[i] = model.I[i] * ws.a[i];                                                  // f_i = I_i a_i
      }
      for (int i = model.nb - 1; i >= 0; --i) {
        H.col(k).segment(model.v_idx[i], model.joint[i].nv()) = ws.jk[i].S_.transpose() * ws.f[i];
        if (parent[i] >= 0) ws.f[parent[i]] += ws.Xup[i].apply_transpose(ws.f[i]);
      }
      delta[k] = S(0);
    }
  }
};

}  // namespace rbd
