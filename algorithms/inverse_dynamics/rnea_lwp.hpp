#pragma once
// The original 3D-vector recursive Newton-Euler algorithm of Luh, Walker and Paul (1980),
// Featherstone Table 5.2, in body coordinates. It differs from RneaSpatial (Table 5.1) in
// using the CLASSICAL linear acceleration vd of each body-frame origin (section 2.11,
// footnote of section 5.4) and in never computing the linear velocity (section 5.4).
// Gravity enters as the classical base acceleration vd_0 = -g, so tau includes it.
//
// Departures from Table 5.2, each marked [D] below:
//  [D1] branched trees: lambda(i) replaces i-1, and pass 2 adds each body's force into its
//       parent (Table 5.1's reordering of Eq. 5.20) instead of using i+1;
//  [D2] any unit joint axis a instead of z;
//  [D3] prismatic and helical joints (Luh et al.'s prismatic terms, helical = both);
//  [D4] external forces, given in body coordinates, subtracted as in Eq. 5.20.
// Notation: E = ^iE_lambda(i), p = ^lambda(i)r_i, c = c_i, Ic = I_i^cm, m = m_i.
#include <string_view>

#include "model/workspace.hpp"

namespace rbd {

namespace lwp_detail {
// Coordinate rotation from F_p to F_s for a joint angle q about the unit axis a. F_s is F_p
// turned by +q about a, so coordinates turn by -q: E_J = c 1 - s [a]x + (1 - c) a a^T.
// An axis exactly along x, y or z gives the elementary rotation directly.
template <class S> Mat3<S> joint_rotation(const Joint<S>& j, const S& q) {
  const S c = cos_(q), s = sin_(q);
  Mat3<S> E;
  switch (j.aligned) {
    case 0: E << S(1), S(0), S(0), S(0), c, s, S(0), -s, c; return E;
    case 1: E << c, S(0), -s, S(0), S(1), S(0), s, S(0), c; return E;
    case 2: E << c, s, S(0), -s, c, S(0), S(0), S(0), S(1); return E;
  }
  const Vec3<S>& a = j.axis;
  const Vec3<S> t = (S(1) - c) * a, sa = s * a;
  E << c + t.x() * a.x(), t.x() * a.y() + sa.z(), t.x() * a.z() - sa.y(),
       t.y() * a.x() - sa.z(), c + t.y() * a.y(), t.y() * a.z() + sa.x(),
       t.z() * a.x() + sa.y(), t.z() * a.y() - sa.x(), c + t.z() * a.z();
  return E;
}
}  // namespace lwp_detail

struct RneaLwp {
  static constexpr std::string_view name = "rnea_lwp";
  static constexpr std::string_view summary =
      "Original 3D-vector recursive Newton-Euler of Luh, Walker and Paul with classical "
      "accelerations (Featherstone Table 5.2), for 1-DoF joints on branched trees";
  static constexpr std::string_view complexity = "O(n)";
  // Table 5.2 works with each body's mass and centre of mass, which a dynamically equivalent
  // model (section 9.7) need not have: zero mass with a nonzero first moment.
  template <class S> static bool applicable(const Model<S>& m) {
    return m.all_single_dof() && m.inertia_kind == InertiaKind::Physical;
  }

  template <class S>
  static void run(const Model<S>& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd,
                  const ExternalForces<S>* f_ext, VecX<S>& tau, Workspace<S>& ws) {
    // Pass 1, base to tips: w, wd, vd, then F and N, which start f and n.
    for (int i = 0; i < model.nb; ++i) {
      const Joint<S>& J = model.joint[i];
      const Vec3<S>& a = J.axis;                                   // [D2] z -> a
      const int lam = model.parent[i];                             // [D1] i-1 -> lambda(i)
      const int k = model.v_idx[i];                                // 1-DoF: q, qd share it
      const S &qi = q[model.q_idx[i]], &qdi = qd[k], &qddi = qdd[k];
      const bool turns = J.type != JointType::Prismatic;           // revolute, helical
      const bool slides = J.type != JointType::Revolute;           // [D3] prismatic, helical
      const bool helical = J.type == JointType::Helical;
      // E = E_J E_T and p = r_T + E_T^T (a d), with d the slide of F_s along a in F_p.
      const Transform<S>& XT = model.Xtree[i];
      Mat3<S>& E = ws.E[i];
      Vec3<S>& p = ws.p[i];
      E = turns ? Mat3<S>(lwp_detail::joint_rotation(J, qi) * XT.E) : XT.E;
      p = XT.r;
      if (slides) p += XT.E.transpose() * (a * (helical ? S(J.pitch * qi) : qi));

      Vec3<S>& w = ws.w[i];
      Vec3<S>& wd = ws.wd[i];
      Vec3<S>& vd = ws.vd[i];
      if (lam < 0) {                                               // w_0 = wd_0 = 0, vd_0 = -g
        w.setZero();
        wd.setZero();
        vd = -(E * model.gravity);
      } else {
        const Vec3<S> &wl = ws.w[lam], &wdl = ws.wd[lam];
        w = E * wl;                                                // line 1: E w_{i-1}
        wd = E * wdl;                                              // line 3: E wd_{i-1}
        vd = E * (ws.vd[lam] + wdl.cross(p) + wl.cross(wl.cross(p)));  // line 4
      }
      if (turns) {                                                 // + z qd, z qdd terms
        const Vec3<S> aqd = a * qdi;
        wd += a * qddi;                                            // line 3: + z qdd
        if (lam >= 0) wd += w.cross(aqd);                          // line 3: + (E w) x z qd
        w += aqd;                                                  // line 1: + z qd
      }
      if (slides) {                                                // [D3] d = q or pitch q
        const S dd = helical ? S(J.pitch * qdi) : qdi, ddd = helical ? S(J.pitch * qddi) : qddi;
        vd += a * ddd;                                             // + z d''
        if (lam >= 0) vd += w.cross(a * (S(2) * dd));              // + 2 w x z d' (Coriolis)
      }
      const Vec3<S>& c = model.com[i];
      const Mat3<S>& Ic = model.Icom[i];
      const Vec3<S> F = model.mass[i] * (vd + wd.cross(c) + w.cross(w.cross(c)));  // line 5
      const Vec3<S> N = Ic * wd + w.cross(Ic * w);                                // line 6
      ws.f3[i] = F;                                                // line 7, own term
      ws.n3[i] = N + c.cross(F);                                   // line 8, own terms
      if (f_ext) {                                                 // [D4] f = f^B - f^x
        ws.n3[i] -= (*f_ext)[i].template head<3>();
        ws.f3[i] -= (*f_ext)[i].template tail<3>();
      }
    }
    // Pass 2, tips to base: tau (line 9), then carry f, n into the parent (lines 7-8).
    for (int i = model.nb - 1; i >= 0; --i) {
      const Joint<S>& J = model.joint[i];
      const Vec3<S> &f = ws.f3[i], &n = ws.n3[i];
      S& t = tau[model.v_idx[i]];
      switch (J.type) {
        case JointType::Prismatic: t = J.axis.dot(f); break;                      // [D3]
        case JointType::Helical: t = J.axis.dot(n) + J.pitch * J.axis.dot(f); break;  // [D3]
        default: t = J.axis.dot(n);                                               // line 9
      }
      const int lam = model.parent[i];
      if (lam >= 0) {                                              // [D1] into lambda(i)
        const Vec3<S> Ef = ws.E[i].transpose() * f;                // ^{i-1}E_i f_i
        ws.f3[lam] += Ef;                                          // line 7
        ws.n3[lam] += ws.E[i].transpose() * n + ws.p[i].cross(Ef); // line 8
      }
    }
  }
};

}  // namespace rbd
