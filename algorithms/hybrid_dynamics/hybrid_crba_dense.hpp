#pragma once
// Hybrid dynamics by section 9.1's four steps in their simplest form: C' by the RNEA (Eq. 9.3),
// the whole H by the CRBA (Table 6.2) and H_11 extracted, H_11 qdd_1 = tau_1 - C'_1 solved by
// a dense Cholesky factorization (Eigen::LLT), and tau_2 = C'_2 + H_21 qdd_1 read off the H
// already formed (the product step 4's ID_delta evaluates to).
#include <string_view>

#include "hybrid_dynamics/steps.hpp"
#include "mass_matrix/crba.hpp"

namespace rbd {

struct HybridCrbaDense {
  static constexpr std::string_view name = "hybrid_crba_dense";
  static constexpr std::string_view summary =
      "Section 9.1's steps with the whole H (CRBA), H_11 extracted and solved densely (Eigen::LLT)";
  static constexpr std::string_view complexity = "O(nd + nf^3)";
  // Eigen's LLT works in panels, so its count is piecewise in n (as llt_dense's).
  static constexpr bool polynomial_op_counts = false;
  template <class S> static bool applicable(const Model<S>&) { return true; }

  // qdd: given at the inverse joints, computed at the forward joints; tau: given at the forward
  // joints, computed at the inverse joints.
  template <class S>
  static void run(const Model<S>& model, const VecX<S>& q, const VecX<S>& qd, const ForwardJoints& fd, VecX<S>& qdd,
                  VecX<S>& tau, const ExternalForces<S>* f_ext, HybridDynamicsWorkspace<S>& ws) {
    ws.prepare(model, fd);
    hybrid_detail::bias_with_prescribed<S>(model, q, qd, qdd, f_ext, ws);    // step 1, Eq. 9.3
    Crba::run<S>(model, q, ws.H, ws);                                          // step 2: H, then H_11
    const Eigen::Index nf = static_cast<Eigen::Index>(ws.dof.size());
    for (Eigen::Index r = 0; r < nf; ++r) {
      for (Eigen::Index c = 0; c <= r; ++c) ws.H11(r, c) = ws.H(ws.dof[r], ws.dof[c]);
      ws.x1[r] = tau[ws.dof[r]] - ws.Cp[ws.dof[r]];                           // tau_1 - C'_1
    }
    if (nf > 0) {
      ws.llt11->compute(ws.H11);                                                // step 3 (lower triangle)
      if (ws.llt11->info() != Eigen::Success)
        throw std::runtime_error("hybrid_crba_dense: H_11 is not positive definite (a singular mass matrix?)");
      ws.llt11->solveInPlace(ws.x1);
    }
    hybrid_detail::scatter_forward<S>(ws, qdd);
    for (int i = 0; i < model.nb; ++i) {                                       // step 4: tau_2 = C'_2 + H_21 qdd_1
      if (fd[i]) continue;
      for (int k = 0; k < model.joint[i].nv(); ++k) {
        const int v = model.v_idx[i] + k;
        S t = ws.Cp[v];
        for (Eigen::Index c = 0; c < nf; ++c) t += ws.H(v, ws.dof[c]) * ws.x1[c];
        tau[v] = t;
      }
    }
  }
};

}  // namespace rbd
