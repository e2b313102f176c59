#pragma once
// Floating-base composite-rigid-body algorithm, Featherstone Table 9.5 (right-hand column,
// "Calculate H, F and I_0^c"; section 9.4), as a mass-matrix variant.
//
// It returns the coefficient matrix of Eq. 9.13,
//     [ I_0^c  F ]
//     [ F^T    H ],      F = [F_1 ... F_NB], F_i = ^0X_i^* I^c_i S_i  (Eq. 9.12),
// which is the free-joint tree's joint-space inertia in rbdlab's qd order (the free joint's
// 6 columns first, S_1 = 1 in base coordinates: H_11 = S_1^T I^c_1 S_1 = I_0^c and
// H_1j = S_1^T ^1X_j^* I^c_j S_j = F_j; floating_base/base_state.hpp). No rotation of the
// base pose enters: H does not depend on the base's position or orientation, only on the
// joint positions q_i, i >= 1.
//
// Table 9.5 against Table 6.2 (mass_matrix/crba.hpp), line by line:
//  - I^c_i = I_i for i = 0..N_B: the base gets a composite inertia too, and the sweep
//    i = N_B..1 adds every child's I^c_i into I^c_lambda(i), lambda(i) = 0 included, so
//    I^c_0 is the inertia of the whole system as one rigid body (the H_11 block);
//  - the old local F becomes the block column F_i, carried up the tree by the while loop
//    (F_i = ^lambda(j)X_j^* F_i, H_ij = F_i^T S_j at every ancestor j >= 1) and then, once
//    the loop reaches a child j of the base, one more time to base coordinates,
//    F_i = ^0X_j^* F_i: that is the F of Eq. 9.12.
// The loops are in the book's order (one dependent chain per body), unlike crba.hpp's
// interchanged loops, so the two are different computations of the same H.
#include <string_view>

#include "floating_base/base_state.hpp"
#include "model/workspace.hpp"

namespace rbd {

struct CrbaFloating {
  static constexpr std::string_view name = "crba_floating";
  static constexpr std::string_view summary =
      "Floating-base CRBA: [I_0^c F; F^T H] of Eq. 9.13 (Featherstone Table 9.5)";
  static constexpr std::string_view complexity = "O(nd)";
  template <class S> static bool applicable(const Model<S>& m) { return is_floating_base(m); }

  template <class S>
  static void run(const Model<S>& model, const VecX<S>& q, MatX<S>& H, Workspace<S>& ws) {
    if (model.nb < 1 || model.joint[0].type != JointType::Free) not_floating_base("crba_floating", model.name);
    const auto& parent = model.parent;
    Forces6<S>& F = ws.F;  // F_i in columns v_idx[i] .. v_idx[i] + n_i - 1 (columns 0..5 unused)
    ws.IC[0] = model.I[0];                                                  // I^c_0 = I_0
    for (int i = 1; i < model.nb; ++i) {
      const Joint<S>& joint = model.joint[i];
      if (parent[i] < 0) not_floating_base("crba_floating", model.name);   // a second root
      jcalc_xup(joint, q.segment(model.q_idx[i], joint.nq()), model.Xtree[i], ws.jk[i], ws.Xup[i]);  // X_J X_T(i)
      ws.IC[i] = model.I[i];                                                // I^c_i = I_i
    }
    for (int i = model.nb - 1; i >= 1; --i) {
      const Joint<S>& joint = model.joint[i];
      const int ni = joint.nv(), vi = model.v_idx[i];
      add_transform_transpose<S>(ws.Xup[i], ws.IC[i], ws.IC[parent[i]]);   // I^c_l += ^lX_i^* I^c_i ^iX_l
      for (int k = 0; k < ni; ++k)                                          // F_i = I^c_i S_i
        F.col(vi + k) = ni == 1 ? inertia_times_screw(ws.IC[i], joint) : Vec6<S>(ws.IC[i] * Vec6<S>(ws.jk[i].S_.col(k)));
      for (int k = 0; k < ni; ++k)                                          // H_ii = S_i^T F_i
        for (int l = 0; l < ni; ++l) H(vi + l, vi + k) = dof_dot(model, ws, i, l, F.col(vi + k));
      int j = i;
      while (parent[j] > 0) {                                               // while lambda(j) != 0 (the base)
        for (int k = 0; k < ni; ++k) F.col(vi + k) = ws.Xup[j].apply_transpose(Vec6<S>(F.col(vi + k)));  // ^l X_j^* F_i
        j = parent[j];
        const int nj = model.joint[j].nv(), vj = model.v_idx[j];
        for (int k = 0; k < ni; ++k)
          for (int l = 0; l < nj; ++l)                                      // H_ij = F_i^T S_j, H_ji = H_ij^T
            H(vj + l, vi + k) = H(vi + k, vj + l) = dof_dot(model, ws, j, l, F.col(vi + k));
      }
      for (int k = 0; k < ni; ++k) F.col(vi + k) = ws.Xup[j].apply_transpose(Vec6<S>(F.col(vi + k)));  // F_i = ^0X_j^* F_i
    }
    // Eq. 9.13's first block row and column: I_0^c and F.
    const Mat6<S> Ic0 = ws.IC[0].matrix();
    H.template topLeftCorner<6, 6>() = Ic0;
    for (int c = 6; c < model.nv; ++c)
      for (int r = 0; r < 6; ++r) H(r, c) = H(c, r) = F(r, c);
  }

 private:
  // S_j(:, l)^T f: column l of joint j's motion subspace against a force.
  template <class S, class FVec>
  static S dof_dot(const Model<S>& model, const Workspace<S>& ws, int j, int l, const FVec& f) {
    const Joint<S>& joint = model.joint[j];
    if (joint.nv() == 1) return screw_transpose_times(joint, Vec6<S>(f));
    return ws.jk[j].S_.col(l).dot(Vec6<S>(f));
  }
};

}  // namespace rbd
