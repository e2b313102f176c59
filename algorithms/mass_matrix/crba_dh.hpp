#pragma once
// The composite-rigid-body algorithm with the optimisations of Featherstone section 10.3.1:
// Denavit-Hartenberg frames (1), S_i = e_3 exploited (2), link transforms as two axial screws
// (3), compact inertias (App. A.3-A.5). On a chain whose joint zeros are the DH zeros (the
// book's GU(n)) it costs exactly Eq. 10.3, (10n^2 + 22n - 32)m + (6n^2 + 37n - 43)a:
//   line 7  I^c_lambda += ^lambda X*_i I^c_i ^iX_lambda:  ra + rx = 10a + 2(15m + 15a) + (2m + 3a)
//   line 13 F = ^lambda X*_j F:                            vx = 2(10m + 6a)
//   lines 9, 10, 15 (F = I^c S, H = S^T F):                free (column 3, element 3).
// The frames come from the DH view in the workspace (model/dh_frames.hpp), built with it. On a
// branched tree (section 10.3.2) a child that is not its parent's DH child has a general link
// transform, three axial screws: I^c crosses it as three screw transforms, rx^g + ra =
// 3 (15m + 15a) + (2m + 3a) + 10a = 47m + 58a as in Eq. 10.12, and F as a general transform,
// vx^g = 24m + 18a, once ^iX_lambda is formed (12m + 6a, which Eq. 10.12 does not count). The loops
// are interchanged as in crba.hpp (a subtree's F are adjacent columns of ws.F).
// A model that is not DH-expressible (a planar, spherical, free or cylindrical joint) is
// handed to the general Crba.
#include <string_view>

#include "mass_matrix/crba.hpp"
#include "model/dh_frames.hpp"
#include "model/workspace.hpp"

namespace rbd {

// F = (scrz scrx)^T F on k adjacent columns, one row pointer per component, marked __restrict
// and worked on in locals so that the compiler vectorises across columns (as
// apply_transpose_rows in core/transform.hpp).
template <class S>
RBD_INLINE void dh_transpose_rows(const AxialRotation<S>& Rz, const S& dz, const AxialRotation<S>& Rx, const S& ax,
                                  int k, S* __restrict n0, S* __restrict n1, S* __restrict n2, S* __restrict f0,
                                  S* __restrict f1, S* __restrict f2) {
  // screw_transpose_force<2> then <0>, written out.
  const S cz = Rz.c, sz = Rz.s, d = dz, cx = Rx.c, sx = Rx.s, a = ax;
  for (int c = 0; c < k; ++c) {
    const S g0 = cz * f0[c] - sz * f1[c], g1 = cz * f1[c] + sz * f0[c];     // scrz^T: E^T f
    const S m0 = cz * n0[c] - sz * n1[c], m1 = cz * n1[c] + sz * n0[c];     //   E^T n
    const S N0 = m0 - d * g1, N1 = m1 + d * g0, N2 = n2[c], F2 = f2[c];     //   + d e_z x E^T f
    const S h1 = cx * g1 - sx * F2, h2 = cx * F2 + sx * g1;                 // scrx^T: E^T f
    const S p1 = cx * N1 - sx * N2, p2 = cx * N2 + sx * N1;                 //   E^T n
    n0[c] = N0; n1[c] = p1 - a * h2; n2[c] = p2 + a * h1;                   //   + a e_x x E^T f
    f0[c] = g0; f1[c] = h1; f2[c] = h2;
  }
}

struct CrbaDh {
  static constexpr std::string_view name = "crba_dh";
  static constexpr std::string_view summary =
      "CRBA on Denavit-Hartenberg frames with axial-screw transforms (Featherstone 10.3.1, Eq. 10.3)";
  static constexpr std::string_view complexity = "O(nd)";
  static constexpr bool dh_frames = true;  // counted on cases::gu_dh too (verify/opcounts.cpp)
  template <class S> static bool applicable(const Model<S>&) { return true; }
  // A model with no DH form is handed to crba (see rnea_dh's fallback_to).
  template <class S> static std::string_view fallback_to(const Model<S>& model) {
    return DhFrames<S>::try_build(model).expressible ? std::string_view() : Crba::name;
  }

  template <class S>
  static void run(const Model<S>& model, const VecX<S>& q, MatX<S>& H, Workspace<S>& ws) {
    const DhFrames<S>& dh = ws.dh;
    if (!dh.expressible) { Crba::run<S>(model, q, H, ws); return; }  // general fallback
    dh.check_source(model, name);
    const auto& parent = model.parent;
    Forces6<S>& F = ws.F;
    for (int i = 0; i < model.nb; ++i) ws.IC[i] = dh.body[i].I;  // I^c_i = I_i (D_i coordinates)
    for (int j = model.nb - 1; j >= 0; --j) {
      const DhBody<S>& b = dh.body[j];
      const Joint<S>& joint = b.zjoint;
      const int vj = model.v_idx[j], c0 = ws.col0[j], nsub = ws.subtree_nv[j];
      F.col(c0) = inertia_times_screw(ws.IC[j], joint);  // F = I^c_j S_j: a column of I^c_j, free
      // H_ij = F^T S_j for every column i of j's subtree: element 3 (or 6) of F, free.
      const int m = screw_unit_index(joint);                      // S_j = e_3 (revolute), e_6 (prismatic)
      if (m >= 0) {
        auto Hcol = H.col(vj);  // two declarations: the types differ (Clang refuses one `auto` for both)
        auto Hrow = H.row(vj);
        const auto Fm = F.row(m);
        for (int c = c0; c < c0 + nsub; ++c) {
          const int vi = ws.col_dof[c];
          Hcol[vi] = Hrow[vi] = Fm[c];
        }
      } else {                                                    // helical: n_z + h f_z
        for (int c = c0; c < c0 + nsub; ++c) {
          const int vi = ws.col_dof[c];
          H(vi, vj) = H(vj, vi) = screw_transpose_times(joint, Vec6<S>(F.col(c)));
        }
      }
      const int p = parent[j];
      if (p < 0) continue;
      if (b.link == DhLink::Dh) {
        DhScrew<S> z;
        dh_screw(b, S(q[model.q_idx[j]]), true, z);
        Inertia<S> I = ws.IC[j];                               // ^lambda X*_j I^c_j ^jX_lambda
        screw_transpose_inertia<2>(z.z, z.d, z.md, I);          //   z screw: 15m + 15a
        screw_transpose_inertia<0>(b.xrot, b.a, b.mc_a, I);     //   x screw: 15m + 15a
        add_inertia(I, ws.IC[p]);                               //   ra = 10a
        dh_transpose_rows<S>(z.z, z.d, b.xrot, b.a, nsub, &F(0, c0), &F(1, c0), &F(2, c0), &F(3, c0), &F(4, c0),
                             &F(5, c0));                       // F = ^lambda X*_j F: 2 x (10m + 6a)
      } else {  // a general link: three axial screws for I^c (Eq. 10.12's rx^g), X_J C formed for F
        DhScrew<S> z;
        dh_screw(b, S(q[model.q_idx[j]]), true, z);
        Inertia<S> I = ws.IC[j];
        screw_transpose_inertia<2>(z.z, z.d, z.md, I);          //   15m + 15a
        screw_transpose_inertia<0>(b.xrot, b.a, b.mc_a, I);     //   15m + 15a
        screw_transpose_inertia<2>(b.z2rot, b.d2, b.mc_d2, I);  //   15m + 15a
        add_inertia(I, ws.IC[p]);                               //   10a
        if (joint.type == JointType::Revolute) {               // ^jX_lambda = rot(rz(q + theta)) Cg: 12m + 6a
          const AxialRotation<S>& R = z.z;
          Transform<S>& X = ws.Xup[j];
          for (int col = 0; col < 3; ++col) {
            X.E(0, col) = R.c * b.Cg.E(0, col) + R.s * b.Cg.E(1, col);
            X.E(1, col) = R.c * b.Cg.E(1, col) - R.s * b.Cg.E(0, col);
            X.E(2, col) = b.Cg.E(2, col);
          }
          X.r = b.Cg.r;
        } else {
          jcalc_xup(joint, q.segment(model.q_idx[j], 1), b.C, ws.jk[j], ws.Xup[j]);
        }
        apply_transpose_columns<S>(ws.Xup[j], F, c0, nsub);    // vx^g = 24m + 18a per column
      }
    }
  }
};

}  // namespace rbd
