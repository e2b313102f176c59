#pragma once
// Composite-rigid-body algorithm in body coordinates, Featherstone Table 6.2.
//
// Table 6.2 takes each body i in turn (i = N..1), forms F = I^c_i S_i and carries it towards
// the root, F = ^lambda(j)X_j^* F, reading off H_ij = F^T S_j at every ancestor j. Here the
// two loops are interchanged, as in Pinocchio: at body j, the F of every body in j's subtree
// has already been carried to j's coordinates, so H_ij = F^T S_j is read off for all of them
// and then all of them are carried to lambda(j) together. Every F meets the same transforms
// in the same order as in Table 6.2, so the numbers and the operation counts are the same;
// but the F are independent of each other, and with the dofs in depth-first order
// (Workspace::col0) a subtree's F are adjacent columns of ws.F, transformed in one
// vectorisable loop (apply_transpose_columns) instead of one dependent chain per body.
//
// Other savings (README.md): ^iX_lambda(i) = X_J X_T(i) composed directly (jcalc_xup);
// I^c_lambda(i) += ^lambda(i)X_i^* I^c_i ^iX_lambda(i) in compact form (App. A.5,
// add_transform_transpose); for a 1-DoF joint F = I^c_i S_i is one column (no arithmetic for
// an axis-aligned revolute or prismatic joint) and F^T S_j is one entry of F.
#include <string_view>

#include "model/workspace.hpp"

namespace rbd {

struct Crba {
  static constexpr std::string_view name = "crba";
  static constexpr std::string_view summary =
      "Composite-rigid-body algorithm (Featherstone Table 6.2)";
  static constexpr std::string_view complexity = "O(nd)";
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& model, const VecX<S>& q, MatX<S>& H, Workspace<S>& ws) {
    for (int i = 0; i < model.nb; ++i) {
      const Joint<S>& joint = model.joint[i];
      jcalc_xup(joint, q.segment(model.q_idx[i], joint.nq()), model.Xtree[i], ws.jk[i], ws.Xup[i]);  // X_J X_T(i)
    }
    from_kinematics<S>(model, H, ws);
  }

  // Table 6.2 from ws.Xup and ws.jk as a pass at the same q has left them (the RNEA's, in the
  // variants that need C and H together), so that jcalc is not repeated.
  template <class S> static void from_kinematics(const Model<S>& model, MatX<S>& H, Workspace<S>& ws) {
    const auto& parent = model.parent;
    Forces6<S>& F = ws.F;
    for (int i = 0; i < model.nb; ++i) ws.IC[i] = model.I[i];             // I^c_i = I_i
    for (int j = model.nb - 1; j >= 0; --j) {
      const Joint<S>& joint = model.joint[j];
      const int nj = joint.nv(), vj = model.v_idx[j];
      const int c0 = ws.col0[j], nsub = ws.subtree_nv[j];                   // j's subtree: F.middleCols(c0, nsub)
      // F = I^c_j S_j for j's own columns (the subtree's other columns hold the F of j's
      // descendants i, already carried to j's coordinates).
      if (nj == 1) F.col(c0) = inertia_times_screw(ws.IC[j], joint);
      else for (int k = 0; k < nj; ++k) F.col(c0 + k) = ws.IC[j] * Vec6<S>(ws.jk[j].S_.col(k));
      // H_ij = F^T S_j and H_ji = H_ij^T for every i in the subtree (H_jj when i = j).
      const int m = screw_unit_index(joint);                               // S_j = e_m, if any
      if (m >= 0) {
        auto Hcol = H.col(vj);  // two declarations: the types differ (column vs row block)
        auto Hrow = H.row(vj);
        const auto Fm = F.row(m);
        for (int c = c0; c < c0 + nsub; ++c) {
          const int vi = ws.col_dof[c];
          Hcol[vi] = Hrow[vi] = Fm[c];                                      // F^T S_j = F_m
        }
      } else {
        for (int c = c0; c < c0 + nsub; ++c) {
          const int vi = ws.col_dof[c];
          const Vec6<S> Fc = F.col(c);
          if (nj == 1) H(vi, vj) = H(vj, vi) = screw_transpose_times(joint, Fc);
          else for (int k = 0; k < nj; ++k) H(vi, vj + k) = H(vj + k, vi) = ws.jk[j].S_.col(k).dot(Fc);
        }
      }
      if (parent[j] >= 0) {
        add_transform_transpose<S>(ws.Xup[j], ws.IC[j], ws.IC[parent[j]]);  // I^c_lambda += X^T I^c_j X
        apply_transpose_columns<S>(ws.Xup[j], F, c0, nsub);                 // F = ^lambda(j)X_j^* F
      }
    }
  }
};

}  // namespace rbd
