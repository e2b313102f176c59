#pragma once
// Forward dynamics with extended joints by the joint-space equation H qdd = tau - C: C from
// rnea_extended at qdd = 0 (Table 6.1's first step; it carries sigma and c_J), H by the
// composite-rigid-body algorithm of Table 6.2 with each joint's S(q) from jcalc_extended, and
// a dense Cholesky solve. H does not depend on qd, and for a drive only on phi(t), not on its
// rates: sigma is a bias velocity, so it enters C alone.
#include <stdexcept>
#include <string>
#include <string_view>

#include "extended_joints/rnea_extended.hpp"

namespace rbd {

struct CrbaExtended {
  static constexpr std::string_view name = "crba_extended";
  static constexpr std::string_view summary =
      "C from rnea_extended, H by Table 6.2 with S(q), dense Cholesky solve";
  static constexpr std::string_view complexity = "O(n d + n^3)";
  // Eigen's dense Cholesky works in panels (as crba_llt_dense's): a different cubic for each n mod
  // 8, so verify/opcounts.cpp records the counts (gated exactly) without one polynomial for all n.
  static constexpr bool polynomial_op_counts = false;
  template <class S> static bool applicable(const Model<S>&) { return true; }

  // H by Table 6.2, from the X_J and S already in ws (rnea_extended has run at this q, t).
  template <class S> static void composite_inertia(const Model<S>& m, ExtendedWorkspace<S>& ws) {
    for (int i = 0; i < m.nb; ++i) ws.IA[i] = m.I[i].matrix();  // I^c_i = I_i
    for (int i = m.nb - 1; i >= 0; --i) {
      const int lambda = m.parent[i], vi = m.v_idx[i], ni = m.joint[i].nv();
      const Mat6<S> X = ws.Xup[i].matrix();
      if (lambda >= 0) ws.IA[lambda] += X.transpose() * ws.IA[i] * X;  // I^c_lambda += ^lambdaX_i^* I^c_i ^iX_lambda
      Mat6N<S> F = ws.IA[i] * ws.jk[i].S_;                             // F = I^c_i S_i
      ws.H.block(vi, vi, ni, ni).noalias() = ws.jk[i].S_.transpose() * F;
      for (int j = i; m.parent[j] >= 0;) {
        F = ws.Xup[j].matrix().transpose() * F;                        // F = ^lambda(j)X_j^* F
        j = m.parent[j];
        const int vj = m.v_idx[j], nj = m.joint[j].nv();
        ws.H.block(vi, vj, ni, nj).noalias() = F.transpose() * ws.jk[j].S_;
        ws.H.block(vj, vi, nj, ni) = ws.H.block(vi, vj, ni, nj).transpose();
      }
    }
  }

  template <class S>
  static void run(const ExtendedModel<S>& em, const S& t, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& tau,
                  const ExternalForces<S>* f_ext, VecX<S>& qdd, ExtendedWorkspace<S>& ws) {
    ws.qdd0.setZero();
    RneaExtended::run(em, t, q, qd, ws.qdd0, f_ext, ws.C, ws);
    composite_inertia(em.tree, ws);
    ws.llt.compute(ws.H);
    if (ws.llt.info() != Eigen::Success)
      throw std::domain_error("crba_extended: H of model '" + em.tree.name + "' is not positive definite at this q");
    qdd = tau - ws.C;
    ws.llt.solveInPlace(qdd);
  }
};

}  // namespace rbd
