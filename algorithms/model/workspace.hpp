#pragma once
// Per-call scratch for the tree algorithms. Sized once from a Model, then reused, so the
// algorithms themselves allocate nothing (DESIGN.md section 4).
#include <vector>

#include "model/dh_frames.hpp"
#include "model/dynamic_equivalence.hpp"
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
  // Depth-first layout of the velocity variables, for algorithms that treat a whole subtree
  // at once (crba): the dofs of the subtree rooted at body i are the columns
  // [col0[i], col0[i] + subtree_nv[i]) of F, and col_dof[c] is column c's index in qd.
  std::vector<int> col0, subtree_nv, col_dof;
  Forces6<S> F;                        // 6 x nv spatial forces, one column per dof (CRBA's F)
  // Base-coordinate variants (crba_world): ^iX_0 per body, and every joint's motion subspace
  // in base coordinates, one column per dof in the same column order as F.
  std::vector<Transform<S>> X0;
  Forces6<S> S0;
  // Denavit-Hartenberg view of the model for the *_dh variants (model/dh_frames.hpp), built
  // here once per model so the variants' calls stay free of it; expressible = false (with the
  // reason) for models it cannot express, on which those variants fall back.
  DhFrames<S> dh;
  // The model's dynamically equivalent inertias (section 9.7) with their zero patterns, for
  // rnea_equivalent; built here once per model, like dh.
  EquivalentInertias<S> equivalent;

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
    depth_first_layout(m);
    F = Forces6<S>::Zero(6, m.nv);
    X0.assign(m.nb, Transform<S>{});
    S0 = Forces6<S>::Zero(6, m.nv);
    dh = DhFrames<S>::try_build(m);
    equivalent = EquivalentInertias<S>::build(m);
  }

 private:
  void depth_first_layout(const Model<S>& m) {
    std::vector<std::vector<int>> children(m.nb + 1);  // children[0] = bodies on the base
    for (int i = 0; i < m.nb; ++i) children[m.parent[i] + 1].push_back(i);
    col0.assign(m.nb, 0);
    subtree_nv.assign(m.nb, 0);
    col_dof.assign(m.nv, 0);
    int next = 0;
    std::vector<int> stack(children[0].rbegin(), children[0].rend());
    while (!stack.empty()) {  // preorder: a body, then each child's subtree in turn
      const int i = stack.back();
      stack.pop_back();
      col0[i] = next;
      for (int k = 0; k < m.joint[i].nv(); ++k) col_dof[next++] = m.v_idx[i] + k;
      stack.insert(stack.end(), children[i + 1].rbegin(), children[i + 1].rend());
    }
    for (int i = m.nb - 1; i >= 0; --i) {
      subtree_nv[i] += m.joint[i].nv();
      if (m.parent[i] >= 0) subtree_nv[m.parent[i]] += subtree_nv[i];
    }
  }
};

// External forces, one spatial force per body expressed in that body's coordinates (the
// convention of RBDL and Pinocchio; Table 5.1 writes them in base coordinates instead).
template <class S> using ExternalForces = std::vector<Vec6<S>>;

}  // namespace rbd
