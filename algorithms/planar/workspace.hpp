#pragma once
// Scratch for the planar algorithms, sized once from a planar Model; run() allocates nothing.
#include <vector>

#include "planar/model.hpp"

namespace rbd::planar {

template <class S> struct Workspace {
  std::vector<Transform<S>> Xup;     // ^iX_lambda(i)
  std::vector<PVec<S>> v, a, f, c;   // velocities, accelerations, forces, velocity-product terms c_i
  std::vector<Inertia<S>> IC;        // composite inertias (CRBA)
  std::vector<PMat<S>> IA;           // articulated-body inertias (ABA)
  std::vector<PVec<S>> pA, U;        // bias forces, U_i = I^A_i S_i (ABA)
  std::vector<S> Dinv, u;            // D_i^-1, u_i (ABA)

  Workspace() = default;
  explicit Workspace(const Model<S>& m) { resize(m); }
  void resize(const Model<S>& m) {
    Xup.assign(m.nb, Transform<S>{});
    for (auto* x : {&v, &a, &f, &c, &pA, &U}) x->assign(m.nb, PVec<S>::Zero());
    IC.assign(m.nb, Inertia<S>{});
    IA.assign(m.nb, PMat<S>::Zero());
    Dinv.assign(m.nb, S(0));
    u.assign(m.nb, S(0));
  }
};

// The first lines of Tables 5.1 and 7.1 for body i, shared by Rnea and Aba: ^iX_lambda(i) =
// X_J X_T(i) into ws.Xup[i], and v_i = ^iX_lambda v_lambda + S_i qd_i into ws.v[i] (Eqs. 5.16,
// 5.18 = 7.34; v_i = v_J for a child of the base, v_0 = 0).
template <class S>
RBD_INLINE void velocity_step(const Model<S>& model, int i, const VecX<S>& q, const VecX<S>& qd, Workspace<S>& ws) {
  const Joint<S>& J = model.joint[i];
  const int lambda = model.parent[i];
  ws.Xup[i] = jcalc_xup(J, model.Xtree[i], q[i]);
  if (lambda < 0) {
    ws.v[i] = S_times(J, qd[i]);
  } else {
    ws.v[i] = ws.Xup[i].apply(ws.v[lambda]);
    add_S_times(J, qd[i], ws.v[i]);
  }
}

}  // namespace rbd::planar
