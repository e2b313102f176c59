#pragma once
// Inverse dynamics with extended joints: Featherstone Table 5.1 line by line, with the two
// terms that Table 4.1's joints let the fast variants drop kept in: v_J includes the drive's
// sigma (Eq. 3.32), and a_i includes c_J (Eq. 3.40). Gravity enters as a_0 = -a_g.
#include <string_view>

#include "extended_joints/jcalc_extended.hpp"
#include "extended_joints/workspace.hpp"
#include "model/workspace.hpp"  // ExternalForces

namespace rbd {

struct RneaExtended {
  static constexpr std::string_view name = "rnea_extended";
  static constexpr std::string_view summary =
      "Table 5.1 with jcalc's full output (S(q), c_J, sigma, Table 4.2 polarity)";
  static constexpr std::string_view complexity = "O(n)";
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const ExtendedModel<S>& em, const S& t, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd,
                  const ExternalForces<S>* f_ext, VecX<S>& tau, ExtendedWorkspace<S>& ws) {
    const Model<S>& m = em.tree;
    const Vec6<S> a0 = -m.a_g();
    for (int i = 0; i < m.nb; ++i) {
      const int lambda = m.parent[i], nv = m.joint[i].nv(), vi = m.v_idx[i];
      JointKinematics<S>& J = ws.jk[i];
      jcalc_extended(m.joint[i], em.ext[i], q.segment(m.q_idx[i], m.joint[i].nq()), qd.segment(vi, nv), t, J);
      ws.Xup[i] = J.XJ * m.Xtree[i];                                           // ^iX_lambda(i) = X_J X_T(i)
      const Vec6<S> v_lambda = lambda < 0 ? Vec6<S>::Zero() : ws.v[lambda];
      const Vec6<S> a_lambda = lambda < 0 ? a0 : ws.a[lambda];
      ws.v[i] = ws.Xup[i].apply(v_lambda) + J.vJ;                              // Eq. 5.7
      ws.a[i] = ws.Xup[i].apply(a_lambda) + J.S_ * qdd.segment(vi, nv) + J.cJ  // Eq. 3.40 in 5.8
                + crm<S>(ws.v[i], J.vJ);
      const Inertia<S>& I = m.I[i];
      ws.f[i] = I * ws.a[i] + crf<S>(ws.v[i], I * ws.v[i]);                   // Eq. 5.9
      if (f_ext) ws.f[i] -= (*f_ext)[i];
    }
    for (int i = m.nb - 1; i >= 0; --i) {
      tau.segment(m.v_idx[i], m.joint[i].nv()).noalias() = ws.jk[i].S_.transpose() * ws.f[i];  // Eq. 5.11
      if (m.parent[i] >= 0) ws.f[m.parent[i]] += ws.Xup[i].apply_transpose(ws.f[i]);
    }
  }
};

}  // namespace rbd
