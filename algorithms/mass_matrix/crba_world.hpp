#pragma once
// Composite-rigid-body algorithm with every quantity in base coordinates: the same H as
// Table 6.2, computed the way Pinocchio (crba with Convention::WORLD) and MuJoCo (mj_crb,
// on its com-based cdof) organise it.
//
// Table 6.2 works in body coordinates, so each F = I^c_i S_i must be carried towards the
// root, one force transform (24m + 18a) per ancestor: O(n d) transforms. Expressed in base
// coordinates instead, nothing has to be carried:
//   ^0X_i                  = ^iX_lambda(i) composed with ^lambda(i)X_0 (one transform product per body)
//   I_i in base coordinates = (^iX_0)^T I_i ^iX_0                       (Eq. 2.66, App. A.5; once per body)
//   S_i in base coordinates = (^iX_0)^-1 S_i                           (Eq. 2.25 applied to each column)
//   I^c_lambda(i)          += I^c_i                                    (same frame: a plain sum, Eq. 2.62)
//   H_ij = S_j^T I^c_i S_i for j an ancestor of i (or i itself)        (Eq. 6.13 with both sides in base coordinates)
// so an entry of H costs one 6-vector dot product (6m + 5a) instead of a transform per level.
// The price is round-off: base-coordinate inertias of bodies far from the base carry
// m |c|^2 terms, larger than the entries of H they produce when the bodies are far from
// the base but close to the joint axes. The accuracy sweep measures what that costs
// (reports/mass_matrix.md).
//
// Storage: ws.X0 (^iX_0 per body), ws.S0 (the columns of every S_i in base coordinates),
// ws.F (the F = I^c_i S_i) and ws.tmp_v (one row of H at a time); S0 and F in the
// depth-first column order of Workspace::col0, so a subtree's columns are adjacent as in
// crba.hpp.
#include <string_view>

#include "model/workspace.hpp"

namespace rbd {

namespace crba_world_detail {
// (^iX_0)^-1 s for the 1-DoF joint's s (Table 4.1): X^-1 [w; v] = [E^T w; E^T v + r x E^T w]
// (transform.hpp, apply_inverse). For s = [e_k; 0] that is [E^T e_k; r x E^T e_k] and E^T e_k
// is row k of E (6m + 3a); for s = [0; e_k] it is [0; E^T e_k] (no arithmetic). The same
// numbers as apply_inverse (the skipped products are by exact 0 and 1).
template <class S> RBD_INLINE Vec6<S> screw_in_base(const Joint<S>& j, const Transform<S>& X0) {
  if (j.aligned >= 0 && j.type != JointType::Helical) {
    const Vec3<S> a = X0.E.row(j.aligned).transpose();
    if (j.type == JointType::Revolute) return join<S>(a, X0.r.cross(a));
    return join<S>(Vec3<S>::Zero(), a);
  }
  return X0.apply_inverse(screw_times(j, S(1)));
}

// acc += I for two inertias in the same coordinates (Eq. 2.62): only Ibar's 6 independent
// entries are added (10 additions, where Inertia::operator+= spends 13 on the full 3x3).
template <class S> RBD_INLINE void add_same_frame(const Inertia<S>& I, Inertia<S>& acc) {
  acc.m += I.m;
  acc.h += I.h;
  for (int a = 0; a < 3; ++a)
    for (int b = a; b < 3; ++b) acc.Ibar(b, a) = acc.Ibar(a, b) += I.Ibar(a, b);
}
}  // namespace crba_world_detail

struct CrbaWorld {
  static constexpr std::string_view name = "crba_world";
  static constexpr std::string_view summary =
      "Composite-rigid-body algorithm in base coordinates (Table 6.2 re-expressed; Pinocchio/MuJoCo form)";
  static constexpr std::string_view complexity = "O(nd)";
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& model, const VecX<S>& q, MatX<S>& H, Workspace<S>& ws) {
    using namespace crba_world_detail;
    const auto& parent = model.parent;
    Forces6<S>& F = ws.F;
    Forces6<S>& S0 = ws.S0;
    for (int i = 0; i < model.nb; ++i) {
      const Joint<S>& joint = model.joint[i];
      jcalc_xup(joint, q.segment(model.q_idx[i], joint.nq()), model.Xtree[i], ws.jk[i], ws.Xup[i]);
      ws.X0[i] = parent[i] < 0 ? ws.Xup[i] : ws.Xup[i] * ws.X0[parent[i]];  // ^iX_0 = ^iX_lambda ^lambdaX_0
      detail::transform_transpose_to<false>(ws.X0[i], model.I[i], ws.IC[i]);  // I_i in base coordinates
      const int c0 = ws.col0[i];
      if (joint.nv() == 1) S0.col(c0) = screw_in_base(joint, ws.X0[i]);
      else
        for (int k = 0; k < joint.nv(); ++k) S0.col(c0 + k) = ws.X0[i].apply_inverse(Vec6<S>(ws.jk[i].S_.col(k)));
    }
    for (int j = model.nb - 1; j >= 0; --j) {
      const int nj = model.joint[j].nv(), vj = model.v_idx[j];
      const int c0 = ws.col0[j], nsub = ws.subtree_nv[j];
      // I^c_j is complete (its children were added before): F = I^c_j S_j for j's own columns;
      // the subtree's other columns already hold the F of j's descendants, in the same frame.
      for (int k = 0; k < nj; ++k) F.col(c0 + k) = ws.IC[j] * Vec6<S>(S0.col(c0 + k));
      // H_ij = S_j^T I^c_i S_i = S_j^T F for every column of the subtree (6m + 5a each),
      // summed in a fixed order along the rows of F (row-major: contiguous across columns)
      // into the contiguous scratch ws.tmp_v, so that the loop vectorises; then scattered
      // into H (H_ji = H_ij: exactly symmetric).
      const S* __restrict f[6] = {F.row(0).data(), F.row(1).data(), F.row(2).data(),
                                  F.row(3).data(), F.row(4).data(), F.row(5).data()};
      S* __restrict h = ws.tmp_v.data();
      for (int k = 0; k < nj; ++k) {
        const Vec6<S> sj = S0.col(c0 + k);
        for (int c = c0; c < c0 + nsub; ++c)
          h[c - c0] = sj[0] * f[0][c] + sj[1] * f[1][c] + sj[2] * f[2][c] + sj[3] * f[3][c] + sj[4] * f[4][c] +
                      sj[5] * f[5][c];
        for (int c = c0; c < c0 + nsub; ++c) {
          const int vi = ws.col_dof[c];
          H(vi, vj + k) = H(vj + k, vi) = h[c - c0];
        }
      }
      if (parent[j] >= 0) add_same_frame(ws.IC[j], ws.IC[parent[j]]);
    }
  }
};

}  // namespace rbd
