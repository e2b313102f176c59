#pragma once
// Per-call scratch for the tree algorithms. Sized once from a Model, then reused, so the
// algorithms themselves allocate nothing (DESIGN.md section 4).
#include <vector>

#include "model/model.hpp"

namespace rbd {

template <class S> struct Workspace {
  std::vector<JointKinematics<S>> jk;  // jcalc output per body (XJ, S, vJ, cJ)
  std::vector<Transform<S>> Xup;       // ^i X_lambda(i)
  std::vector<Vec6<S>> v, a, f;        // body velocities, accelerations, forces
  std::vector<Inertia<S>> IC;          // composite inertias (CRBA)
  VecX<S> tmp_v, tmp_v2;               // nv-sized scratch (e.g. a column of qdd)
  // 3D quantities of the Luh-Walker-Paul recursion (Table 5.2), in body coordinates:
  // angular velocity and acceleration, classical linear acceleration of the origin,
  // force and moment transmitted from the parent.
  std::vector<Vec3<S>> w, wd, vd, f3, n3;
  std::vector<Mat3<S>> E;              // per-body rotation ^iE_lambda(i) (3D algorithms)
  std::vector<Vec3<S>> p;              // per-body ^lambda(i) r_i (3D algorithms)

  Workspace() = default;
  explicit Workspace(const Model<S>& m) { resize(m); }
  void resize(const Model<S>& m) {
    jk.assign(m.nb, JointKinematics<S>{});
    for (int i = 0; i < m.nb; ++i) jk[i].S_.resize(6, m.joint[i].nv());
    Xup.assign(m.nb, Transform<S>{});
    v.assign(m.nb, Vec6<S>::Zero());
    a.assign(m.nb, Vec6<S>::Zero());
    f.assign(m.nb, Vec6<S>::Zero());
    IC.assign(m.nb, Inertia<S>{});
    for (auto* x : {&w, &wd, &vd, &f3, &n3, &p}) x->assign(m.nb, Vec3<S>::Zero());
    E.assign(m.nb, Mat3<S>::Identity());
    tmp_v = VecX<S>::Zero(m.nv);
    tmp_v2 = VecX<S>::Zero(m.nv);
  }
};

// External forces, one spatial force per body expressed in that body's coordinates (the
// convention of RBDL and Pinocchio; Table 5.1 writes them in base coordinates instead).
template <class S> using ExternalForces = std::vector<Vec6<S>>;

}  // namespace rbd
