#pragma once
// Recursive Newton-Euler (Featherstone Table 5.1) on Denavit-Hartenberg frames with
// axial-screw transforms (section 10.3.1, optimisations 1-3; App. A.4): ^iX_lambda(i) =
// scrz(q_i + theta_i, d_i) scrx(alpha_i, a_i), so each transform of a spatial vector is two
// axial screws, 2 (10m + 6a), instead of 24m + 18a plus 12m + 6a to form X_J X_T.
// The DH frames are the workspace's view (model/dh_frames.hpp); a model that is not
// DH-expressible is handed to rnea_spatial. Per body of a chain (README.md "Cost"):
//   v_i = ^iX_lambda v_lambda + s qd                         20m + 13a   (Eq. 5.18)
//   a_i = ^iX_lambda a_lambda + v_i x s qd + s qdd           24m + 17a   (Eq. 5.19, cJ = 0)
//   f_i = I_i a_i + v_i x* I_i v_i                           57m + 45a   (Eq. 5.9, 3D form below)
//   tau_i = s^T f_i                                           0           (Eq. 5.11, element 3)
//   f_lambda += ^lambda X*_i f_i                             20m + 18a   (Eq. 5.20)
// The base terms: v = s qd and ^iX_0 a_0 = [0; rz(q) E_C (-g)] (a_0 = [0; -g], E_C (-g)
// precomputed), 4m + 2a, and f_i with the zeros of v and a taken out (19m + 12a), for a
// revolute child of the base.
#include <string_view>

#include "inverse_dynamics/rnea_spatial.hpp"
#include "model/workspace.hpp"

namespace rbd {

// f = I a + v x* (I v) (Eq. 5.9) in compact form without forming I v: with w, vl the parts
// of v, alpha, al those of a, and b = al + w x vl (the classical acceleration of the origin),
//   f = [Ibar alpha + w x (Ibar w) + h x b;  m b - h x alpha - w x (h x w)],
// which follows from expanding I a + v x* (I v) (Table A.4's products) with
// w x (h x vl) - vl x (h x w) = h x (w x vl) (Jacobi identity). 57m + 45a (66m + 54a as
// I a + v x* I v).
template <class S> RBD_INLINE Vec6<S> body_force(const Inertia<S>& I, const Vec6<S>& v, const Vec6<S>& a) {
  const Vec3<S> w = ang(v), vl = lin(v), alpha = ang(a);
  const Vec3<S> b = lin(a) + w.cross(vl);
  const Vec3<S> Iw = I.Ibar * w, Ia = I.Ibar * alpha;
  const Vec3<S> hw = I.h.cross(w);
  return join<S>(Ia + w.cross(Iw) + I.h.cross(b), I.m * b - I.h.cross(alpha) - w.cross(hw));
}

// body_force for a child of the base turning about z: v = [0 0 qd 0 0 0], a = [0 0 qdd; g]
// (g = ^iX_0 a_0 = rz(q) E_C (-g)): w x (Ibar w) = qd^2 (e_z x Ibar e_z), w x (h x w) =
// qd^2 (h_x, h_y, 0), h x alpha = qdd (h_y, -h_x, 0). 19m + 12a.
template <class S> RBD_INLINE Vec6<S> body_force_spin(const Inertia<S>& I, const S& qd, const S& qdd, const Vec3<S>& g) {
  const S qd2 = qd * qd;
  const Vec3<S> hg = I.h.cross(g);
  return (Vec6<S>() << qdd * I.Ibar(0, 2) - qd2 * I.Ibar(1, 2) + hg[0], qdd * I.Ibar(1, 2) + qd2 * I.Ibar(0, 2) + hg[1],
          qdd * I.Ibar(2, 2) + hg[2], I.m * g[0] - qdd * I.h[1] - qd2 * I.h[0], I.m * g[1] + qdd * I.h[0] - qd2 * I.h[1],
          I.m * g[2]).finished();
}

struct RneaDh {
  static constexpr std::string_view name = "rnea_dh";
  static constexpr std::string_view summary =
      "Recursive Newton-Euler on Denavit-Hartenberg frames with axial-screw transforms (Featherstone 10.3.1)";
  static constexpr std::string_view complexity = "O(n)";
  static constexpr bool dh_frames = true;  // counted on cases::gu_dh too (verify/opcounts.cpp)
  template <class S> static bool applicable(const Model<S>&) { return true; }
  // A model with no DH form is handed to rnea_spatial; callers that report results per variant
  // (the accuracy sweep, the report) say so instead of crediting rnea_dh with them.
  template <class S> static std::string_view fallback_to(const Model<S>& model) {
    return DhFrames<S>::try_build(model).expressible ? std::string_view() : RneaSpatial::name;
  }

  template <class S>
  static void run(const Model<S>& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd,
                  const ExternalForces<S>* f_ext, VecX<S>& tau, Workspace<S>& ws) {
    const DhFrames<S>& dh = ws.dh;
    if (!dh.expressible) { RneaSpatial::run<S>(model, q, qd, qdd, f_ext, tau, ws); return; }  // general fallback
    dh.check_source(model, name);
    const auto& parent = model.parent;
    std::vector<DhScrew<S>>& Z = ws.dh.screw;
    for (int i = 0; i < model.nb; ++i) {  // pass 1, base to tips
      const DhBody<S>& b = dh.body[i];
      const Joint<S>& joint = b.zjoint;
      const int lambda = parent[i], vi = model.v_idx[i];
      const S qi = q[model.q_idx[i]], qdi = qd[vi], qddi = qdd[vi];
      Vec6<S>& v = ws.v[i];
      Vec6<S>& a = ws.a[i];
      if (b.link == DhLink::Root) {
        dh_screw(b, qi, false, Z[i]);                                  // rz(q) only
        v = screw_times(joint, qdi);                                   // Eq. 5.18, v_0 = 0
        const AxialRotation<S>& R = Z[i].z;
        a = join<S>(Vec3<S>::Zero(), Vec3<S>(R.c * b.gC[0] + R.s * b.gC[1], R.c * b.gC[1] - R.s * b.gC[0], b.gC[2]));
        if (joint.type == JointType::Prismatic) a.template tail<3>() = b.gC;  // constant rotation
      } else if (b.link == DhLink::Dh) {
        dh_screw(b, qi, false, Z[i]);
        v = ws.v[lambda];                                              // Eq. 5.18: ^iX_lambda v_lambda
        screw_apply_motion<0>(b.xrot, b.a, v[0], v[1], v[2], v[3], v[4], v[5]);
        screw_apply_motion<2>(Z[i].z, Z[i].d, v[0], v[1], v[2], v[3], v[4], v[5]);
        add_screw_times(joint, qdi, v);                                //   + s qd
        a = ws.a[lambda];                                              // Eq. 5.19: ^iX_lambda a_lambda
        screw_apply_motion<0>(b.xrot, b.a, a[0], a[1], a[2], a[3], a[4], a[5]);
        screw_apply_motion<2>(Z[i].z, Z[i].d, a[0], a[1], a[2], a[3], a[4], a[5]);
        add_cross_screw_times(joint, v, qdi, a);                       //   + v_i x s qd
      } else {                                                         // a general link
        jcalc_xup(joint, q.segment(model.q_idx[i], 1), b.C, ws.jk[i], ws.Xup[i]);
        v = ws.Xup[i].apply(ws.v[lambda]);
        add_screw_times(joint, qdi, v);
        a = ws.Xup[i].apply(ws.a[lambda]);
        add_cross_screw_times(joint, v, qdi, a);
      }
      add_screw_times(joint, qddi, a);                                 //   + s qdd
      if (b.link == DhLink::Root && joint.type == JointType::Revolute)
        ws.f[i] = body_force_spin(b.I, qdi, qddi, Vec3<S>(a.template tail<3>()));  // Eq. 5.9, v = s qd
      else
        ws.f[i] = body_force(b.I, v, a);                               // Eq. 5.9
      if (f_ext) ws.f[i] -= b.P.apply_force((*f_ext)[i]);              // Eq. 5.20 (f_ext in F_i -> D_i)
    }
    for (int i = model.nb - 1; i >= 0; --i) {  // pass 2, tips to base
      const DhBody<S>& b = dh.body[i];
      Vec6<S>& f = ws.f[i];
      tau[model.v_idx[i]] = screw_transpose_times(b.zjoint, f);        // Eq. 5.11
      const int lambda = parent[i];
      if (lambda < 0) continue;
      if (b.link == DhLink::Dh) {                                      // Eq. 5.20: f_lambda += ^lambda X*_i f_i
        screw_transpose_force<2>(Z[i].z, Z[i].d, f[0], f[1], f[2], f[3], f[4], f[5]);
        screw_transpose_force<0>(b.xrot, b.a, f[0], f[1], f[2], f[3], f[4], f[5]);
        ws.f[lambda] += f;
      } else {
        ws.f[lambda] += ws.Xup[i].apply_transpose(f);
      }
    }
  }
};

}  // namespace rbd
