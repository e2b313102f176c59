#pragma once
// ^iX_0 for every body and every joint's motion subspace in base coordinates, one column per
// velocity variable in qd's order: S0.col(v_idx[i] + c) = ^0X_i S_i e_c. Chapters 8 and 11 form
// their constraint rows in base coordinates (Table 8.4; Eq. 11.25's t_i = (J_s^T - J_p^T) n_i),
// where a body Jacobian's columns are exactly these. Reads the ^iX_lambda(i) (Xup) and the
// multi-DoF joints' S of a pass that has just run (the RNEA or the ABA).
#include "model/workspace.hpp"

namespace rbd {

template <class S>
void base_frames_and_subspaces(const Model<S>& m, const Workspace<S>& ws, std::vector<Transform<S>>& X0,
                               Forces6<S>& S0) {
  for (int i = 0; i < m.nb; ++i) {
    X0[i] = m.parent[i] < 0 ? ws.Xup[i] : ws.Xup[i] * X0[m.parent[i]];
    const Joint<S>& j = m.joint[i];
    for (int c = 0; c < j.nv(); ++c) {
      const Vec6<S> s = j.nv() == 1 ? screw_times(j, S(1)) : Vec6<S>(ws.jk[i].S_.col(c));
      S0.col(m.v_idx[i] + c) = X0[i].apply_inverse(s);
    }
  }
}

}  // namespace rbd
