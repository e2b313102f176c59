#pragma once
// Per-call scratch of the extended-joint variants, sized once from the model so that the
// calls allocate nothing (DESIGN.md section 4). Multi-DoF quantities (U, D, u) use Eigen types
// with a fixed maximum of 6 rows, which live inside the vectors below.
#include <vector>

#include <Eigen/Cholesky>

#include "extended_joints/extended_model.hpp"

namespace rbd {

template <class S> using MatUpTo6 = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>;
template <class S> using VecUpTo6 = Eigen::Matrix<S, Eigen::Dynamic, 1, 0, 6, 1>;

template <class S> struct ExtendedWorkspace {
  std::vector<JointKinematics<S>> jk;  // jcalc_extended's X_J, S, v_J, c_J per body
  std::vector<Transform<S>> Xup;       // ^iX_lambda(i)
  std::vector<Vec6<S>> v, a, c, f;     // velocities, accelerations, velocity products, forces
  std::vector<Mat6<S>> IA;             // articulated (ABA) or composite (CRBA) inertias
  std::vector<Vec6<S>> pA;             // articulated bias forces
  std::vector<Mat6N<S>> U;             // U_i = I^A_i S_i
  std::vector<MatUpTo6<S>> Dinv;       // D_i^-1
  std::vector<VecUpTo6<S>> u;          // u_i
  MatX<S> H;
  VecX<S> C, qdd0;
  Eigen::LLT<MatX<S>> llt;

  ExtendedWorkspace() = default;
  explicit ExtendedWorkspace(const ExtendedModel<S>& m) { resize(m); }
  void resize(const ExtendedModel<S>& m) {
    const Model<S>& t = m.tree;
    jk.assign(t.nb, JointKinematics<S>{});
    U.assign(t.nb, Mat6N<S>());
    Dinv.assign(t.nb, MatUpTo6<S>());
    u.assign(t.nb, VecUpTo6<S>());
    for (int i = 0; i < t.nb; ++i) {
      const int n = t.joint[i].nv();
      jk[i].S_.resize(6, n);
      U[i].resize(6, n);
      Dinv[i].resize(n, n);
      u[i].resize(n);
    }
    Xup.assign(t.nb, Transform<S>{});
    for (auto* x : {&v, &a, &c, &f, &pA}) x->assign(t.nb, Vec6<S>::Zero());
    IA.assign(t.nb, Mat6<S>::Zero());
    H = MatX<S>::Zero(t.nv, t.nv);
    C = VecX<S>::Zero(t.nv);
    qdd0 = VecX<S>::Zero(t.nv);
    llt = Eigen::LLT<MatX<S>>(t.nv);
  }
};

}  // namespace rbd
