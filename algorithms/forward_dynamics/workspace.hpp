#pragma once
// Scratch for the forward-dynamics family. It IS a Workspace (it derives from it), so the
// CRBA and RNEA it calls take it as their own, and adds what only forward dynamics needs:
// the articulated-body quantities of Table 7.1 and the H, C and factor storage of the
// inertia-matrix routes. Sized once from the Model; run() allocates nothing.
#include <vector>

#include "factorization/workspace.hpp"
#include "model/workspace.hpp"

namespace rbd {

// A joint-sized square matrix (at most 6 x 6, on the stack).
template <class S> using MatN = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>;

template <class S> struct ForwardDynamicsWorkspace : Workspace<S> {
  // Articulated-body algorithm (Table 7.1), per body, in body coordinates.
  std::vector<Mat6<S>> IA;   // articulated-body inertia I^A_i
  std::vector<Vec6<S>> pA;   // articulated-body bias force p^A_i
  std::vector<Vec6<S>> c;    // velocity-product acceleration c_i = c_J + v_i x v_J
  std::vector<Mat6N<S>> U;   // U_i = I^A_i S_i
  std::vector<MatN<S>> Dinv; // D_i^-1 = (S_i^T U_i)^-1
  std::vector<VecN<S>> u;    // u_i = tau_i - S_i^T p^A_i
  // Inertia-matrix routes (CRBA + bias + solve).
  MatX<S> H;                 // joint-space inertia; out-of-pattern entries stay exactly zero
  VecX<S> C;                 // bias forces C(q, qd, f_ext)
  FactorizationWorkspace<S> fact;

  ForwardDynamicsWorkspace() = default;
  explicit ForwardDynamicsWorkspace(const Model<S>& m) : Workspace<S>(m), fact(m) {
    IA.assign(m.nb, Mat6<S>::Zero());
    pA.assign(m.nb, Vec6<S>::Zero());
    c.assign(m.nb, Vec6<S>::Zero());
    U.resize(m.nb);
    Dinv.resize(m.nb);
    u.resize(m.nb);
    for (int i = 0; i < m.nb; ++i) {
      const int ni = m.joint[i].nv();
      U[i] = Mat6N<S>::Zero(6, ni);
      Dinv[i] = MatN<S>::Zero(ni, ni);
      u[i] = VecN<S>::Zero(ni);
    }
    H = MatX<S>::Zero(m.nv, m.nv);
    C = VecX<S>::Zero(m.nv);
  }
};

}  // namespace rbd
