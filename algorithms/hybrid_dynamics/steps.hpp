#pragma once
// The steps of section 9.1's solution of Eq. 9.2 that the CRBA routes share:
//   step 1: C' = ID(q, qd, Q^T [0; qdd_2])                         (Eq. 9.3)
//   step 4: tau = C' + ID_delta(Q^T [qdd_1; 0])                     (ID_delta: Table 6.1's H x)
// and the scatter of the unknowns. The split fd is per joint; a forward joint's variables are
// all in qdd_1, an inverse joint's all in qdd_2.
#include "hybrid_dynamics/workspace.hpp"
#include "inverse_dynamics/rnea_spatial.hpp"

namespace rbd::hybrid_detail {

// Step 1: C', the force that gives every forward joint zero acceleration and every inverse
// joint its given one (Eq. 9.3), by the spatial RNEA (Table 5.1). Leaves ^iX_lambda(i) and S_i
// in ws for the later steps.
template <class S>
void bias_with_prescribed(const Model<S>& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd,
                          const ExternalForces<S>* f_ext, HybridDynamicsWorkspace<S>& ws) {
  for (int i = 0; i < model.nb; ++i)
    for (int k = 0; k < model.joint[i].nv(); ++k)
      ws.qdd_c[model.v_idx[i] + k] = ws.fd[i] ? S(0) : qdd[model.v_idx[i] + k];  // Q^T [0; qdd_2]
  RneaSpatial::run<S>(model, q, qd, ws.qdd_c, f_ext, ws.Cp, ws);
}

// ID_delta(x) = H x (Table 6.1): the RNEA with qd = 0, no gravity and no external force,
// on the transforms already in ws (same q): a_i = ^iX_lambda a_lambda + S_i x_i, f_i = I_i a_i,
// tau_i = S_i^T f_i, f_lambda += ^lambda X_i^* f_i.
template <class S>
void inverse_dynamics_delta(const Model<S>& model, const VecX<S>& x, VecX<S>& out, Workspace<S>& ws) {
  for (int i = 0; i < model.nb; ++i) {
    const Joint<S>& joint = model.joint[i];
    const int lambda = model.parent[i], vi = model.v_idx[i];
    Vec6<S>& a = ws.a[i];
    if (joint.nv() == 1) {
      if (lambda < 0) a = screw_times(joint, x[vi]);
      else { a = ws.Xup[i].apply(ws.a[lambda]); add_screw_times(joint, x[vi], a); }
    } else {
      a.noalias() = ws.jk[i].S_ * x.segment(vi, joint.nv());
      if (lambda >= 0) a += ws.Xup[i].apply(ws.a[lambda]);
    }
    ws.f[i] = model.I[i] * a;
  }
  for (int i = model.nb - 1; i >= 0; --i) {
    const Joint<S>& joint = model.joint[i];
    const int vi = model.v_idx[i];
    if (joint.nv() == 1) out[vi] = screw_transpose_times(joint, ws.f[i]);
    else out.segment(vi, joint.nv()).noalias() = ws.jk[i].S_.transpose() * ws.f[i];
    if (model.parent[i] >= 0) ws.f[model.parent[i]] += ws.Xup[i].apply_transpose(ws.f[i]);
  }
}

// qdd_1 (ws.x1, in H_11's numbering) into qdd.
template <class S> void scatter_forward(const HybridDynamicsWorkspace<S>& ws, VecX<S>& qdd) {
  for (std::size_t k = 0; k < ws.dof.size(); ++k) qdd[ws.dof[k]] = ws.x1[static_cast<Eigen::Index>(k)];
}

// Step 4 by ID_delta: tau_2 = C'_2 + [ID_delta(Q^T [qdd_1; 0])]_2; tau_1 stays as given.
template <class S>
void inverse_joint_forces(const Model<S>& model, const VecX<S>& qdd, VecX<S>& tau, HybridDynamicsWorkspace<S>& ws) {
  for (int i = 0; i < model.nb; ++i)
    for (int k = 0; k < model.joint[i].nv(); ++k)
      ws.qdd_c[model.v_idx[i] + k] = ws.fd[i] ? qdd[model.v_idx[i] + k] : S(0);  // Q^T [qdd_1; 0]
  inverse_dynamics_delta<S>(model, ws.qdd_c, ws.tau_d, ws);
  for (int i = 0; i < model.nb; ++i)
    if (!ws.fd[i])
      for (int k = 0; k < model.joint[i].nv(); ++k) {
        const int v = model.v_idx[i] + k;
        tau[v] = ws.Cp[v] + ws.tau_d[v];
      }
}

}  // namespace rbd::hybrid_detail
