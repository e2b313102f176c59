#pragma once
// Hybrid dynamics by section 9.1's four steps, each in its economical form: C' by the RNEA
// (Eq. 9.3); only H_11 by the modified composite-rigid-body algorithm of Table 9.1 (composite
// inertias only for the bodies in nu(fd), Eq. 9.5; entries only where both joints are forward);
// H_11 qdd_1 = tau_1 - C'_1 by the branch-induced sparse L^T D L factorization and
// back-substitution (Tables 6.3, 6.5) on H_11's own parent array (Figure 9.1); and
// tau = C' + ID_delta(Q^T [qdd_1; 0]) (step 4, ID_delta of Table 6.1).
//
// Table 9.1 is followed in its own loop order (body i's F carried to the root, as Table 6.2),
// not crba's interchanged loops: the reader can lay the two side by side.
#include <string_view>

#include "factorization/sparse.hpp"
#include "hybrid_dynamics/steps.hpp"

namespace rbd {

struct HybridCrbaSparse {
  static constexpr std::string_view name = "hybrid_crba_sparse";
  static constexpr std::string_view summary =
      "Section 9.1's steps with only H_11 (modified CRBA, Table 9.1) and the sparse L^T D L on its reduced parent "
      "array (Figure 9.1, Tables 6.3-6.5)";
  static constexpr std::string_view complexity = "O(nd)";
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& model, const VecX<S>& q, const VecX<S>& qd, const ForwardJoints& fd, VecX<S>& qdd,
                  VecX<S>& tau, const ExternalForces<S>* f_ext, HybridDynamicsWorkspace<S>& ws) {
    ws.prepare(model, fd);
    hybrid_detail::bias_with_prescribed<S>(model, q, qd, qdd, f_ext, ws);    // step 1, Eq. 9.3
    modified_crba<S>(model, ws);                                               // step 2, Table 9.1
    const TreePattern& p = ws.pattern11;
    for (int k = 0; k < p.size(); ++k) {
      for (int t = p.row_start[k]; t < p.row_start[k + 1]; ++t) ws.rows11[t] = ws.H(ws.dof[k], ws.dof[p.col[t]]);
      ws.x1[k] = tau[ws.dof[k]] - ws.Cp[ws.dof[k]];                           // tau_1 - C'_1
    }
    ltdl_factor<S>(p, ws.rows11);                                              // step 3, Table 6.3
    ltdl_solve<S>(p, ws.rows11, ws.x1);                                        //   and Table 6.5
    hybrid_detail::scatter_forward<S>(ws, qdd);
    hybrid_detail::inverse_joint_forces<S>(model, qdd, tau, ws);               // step 4
  }

  // Table 9.1: H_11's entries (in H's places in ws.H; nothing else of ws.H is written), from
  // the transforms and motion subspaces step 1 left in ws (same q).
  template <class S> static void modified_crba(const Model<S>& model, HybridDynamicsWorkspace<S>& ws) {
    const auto& parent = model.parent;
    for (int i = 0; i < model.nb; ++i)
      if (ws.nu[i]) ws.IC[i] = model.I[i];                                     // I^c_i = I_i, i in nu(fd)
    for (int i = model.nb - 1; i >= 0; --i) {
      const int lambda = parent[i];
      if (lambda >= 0 && ws.nu[lambda])                                        // lambda(i) in nu(fd)
        add_transform_transpose<S>(ws.Xup[i], ws.IC[i], ws.IC[lambda]);        // I^c_l += ^lX_i^* I^c_i ^iX_l
      if (!ws.fd[i]) continue;                                                 // i in fd only
      const Joint<S>& ji = model.joint[i];
      const int ni = ji.nv(), vi = model.v_idx[i];
      Mat6N<S> F(6, ni);
      if (ni == 1) F.col(0) = inertia_times_screw(ws.IC[i], ji);               // F = I^c_i S_i
      else for (int k = 0; k < ni; ++k) F.col(k) = ws.IC[i] * Vec6<S>(ws.jk[i].S_.col(k));
      write_block<S>(model, ws, i, F, vi, ni);                                 // H_ii = S_i^T F
      int j = i;
      while (parent[j] >= 0 && ws.nu[parent[j]]) {                             // while lambda(j) in nu(fd)
        for (int k = 0; k < ni; ++k) F.col(k) = ws.Xup[j].apply_transpose(Vec6<S>(F.col(k)));  // F = ^lX_j^* F
        j = parent[j];
        if (ws.fd[j]) write_block<S>(model, ws, j, F, vi, ni);                 // H_ij = F^T S_j, H_ji = H_ij^T
      }
    }
  }

 private:
  // H_ij = F^T S_j and its transpose H_ji, F being body i's (ni columns, variables from vi).
  template <class S>
  static void write_block(const Model<S>& model, HybridDynamicsWorkspace<S>& ws, int j, const Mat6N<S>& F, int vi, int ni) {
    const Joint<S>& jj = model.joint[j];
    const int vj = model.v_idx[j];
    for (int k = 0; k < ni; ++k) {
      const Vec6<S> Fk = F.col(k);
      if (jj.nv() == 1) ws.H(vi + k, vj) = ws.H(vj, vi + k) = screw_transpose_times(jj, Fk);
      else for (int l = 0; l < jj.nv(); ++l) ws.H(vi + k, vj + l) = ws.H(vj + l, vi + k) = ws.jk[j].S_.col(l).dot(Fk);
    }
  }
};

}  // namespace rbd
