#pragma once
// Composite-rigid-body algorithm in body coordinates, Featherstone Table 6.2.
#include <string_view>

#include "model/workspace.hpp"

namespace rbd {

struct Crba {
  static constexpr std::string_view name = "crba";
  static constexpr std::string_view summary =
      "Composite-rigid-body algorithm (Featherstone Table 6.2)";
  static constexpr std::string_view complexity = "O(nd)";
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& model, const VecX<S>& q, MatX<S>& H, Workspace<S>& ws) {
    const auto& parent = model.parent;
    for (int i = 0; i < model.nb; ++i) {
      jcalc_position(model.joint[i], q.segment(model.q_idx[i], model.joint[i].nq()), ws.jk[i]);
      ws.Xup[i] = ws.jk[i].XJ * model.Xtree[i];
      ws.IC[i] = model.I[i];                                                // I^c_i = I_i
    }
    for (int i = model.nb - 1; i >= 0; --i) {
      if (parent[i] >= 0)                                                   // I^c_lambda += X^T I^c_i X
        ws.IC[parent[i]] += transform_transpose<S>(ws.Xup[i], ws.IC[i]);
      const auto& Si = ws.jk[i].S_;
      const int ni = model.joint[i].nv(), vi = model.v_idx[i];
      Mat6N<S> F(6, ni);
      for (int k = 0; k < ni; ++k) F.col(k) = ws.IC[i] * Vec6<S>(Si.col(k));  // F = I^c_i S_i
      H.block(vi, vi, ni, ni) = Si.transpose() * F;                         // H_ii = S_i^T F
      int j = i;
      while (parent[j] >= 0) {
        for (int k = 0; k < ni; ++k) F.col(k) = ws.Xup[j].apply_transpose(Vec6<S>(F.col(k)));  // F = ^lambda(j)X_j^* F
        j = parent[j];
        const int nj = model.joint[j].nv(), vj = model.v_idx[j];
        H.block(vi, vj, ni, nj) = F.transpose() * ws.jk[j].S_;              // H_ij = F^T S_j
        H.block(vj, vi, nj, ni) = H.block(vi, vj, ni, nj).transpose();      // H_ji = H_ij^T
      }
    }
  }
};

}  // namespace rbd
