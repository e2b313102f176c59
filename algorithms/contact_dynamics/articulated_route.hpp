#pragma once
// The articulated-body route to the contact LCP (Featherstone section 11.3 with chapter 7's
// articulated inertias): no H is formed.
//  - qdd_0 = H^-1 (tau - C), the accelerations without contact forces, by the ABA (Table 7.1),
//    which leaves I^A_i, U_i, D_i^-1 and ^iX_lambda(i) in the workspace.
//  - r_i = H^-1 t_i for each contact by a test-force pass: the unit force n_i acting on s and
//    -n_i on p, with qd = 0, tau = 0 and no gravity, through the ABA's passes 2 and 3 with the
//    articulated inertias already made (they do not depend on the force): O(n) per contact.
//  - M = T^T R (Eq. 11.35) and d = T^T qdd_0 + T_dot^T qd (Eq. 11.36); after the LCP,
//    qdd = qdd_0 + R lambda (Eq. 11.41 is linear in lambda).
// The velocity-product accelerations Eq. 11.30 needs come from the ABA's c_i:
// a_i^vp = ^iX_lambda(i) a_lambda(i)^vp + c_i, with a_0 = -a_g.
#include "contact_dynamics/steps.hpp"
#include "forward_dynamics/aba.hpp"

namespace rbd::contacts {

// r = H^-1 t for t = (J_s^T - J_p^T) n: the response of qdd to the unit contact force alone.
template <class S>
void test_force_response(const Model<S>& m, const PointContact<S>& c, const Vec6<S>& n, ContactWorkspace<S>& ws,
                         Eigen::Ref<VecX<S>> r) {
  for (int i = 0; i < m.nb; ++i) ws.ptest[i].setZero();
  // p^A starts as -f^x (Eq. 7.36 without the velocity term): f = n on s, -n on p, in body coordinates.
  ws.ptest[c.s] -= ws.X0[c.s].apply_force(n);
  if (c.p >= 0) ws.ptest[c.p] += ws.X0[c.p].apply_force(n);
  for (int i = m.nb - 1; i >= 0; --i) {  // pass 2 with c_i = 0 and tau = 0 (Eqs. 7.45, 7.48)
    const Joint<S>& j = m.joint[i];
    const int p = m.parent[i];
    if (j.nv() == 1) {
      ws.u[i][0] = -screw_transpose_times(j, ws.ptest[i]);
      if (p >= 0) aba_detail::add_apply_transpose<S>(ws.Xup[i], Vec6<S>(ws.ptest[i] + ws.U[i].col(0) * (ws.Dinv[i](0, 0) * ws.u[i][0])), ws.ptest[p]);
    } else {
      ws.u[i] = -aba_detail::St_mul<S>(ws.jk[i].S_, ws.ptest[i]);
      if (p >= 0) aba_detail::add_apply_transpose<S>(ws.Xup[i], Vec6<S>(ws.ptest[i] + ws.U[i] * (ws.Dinv[i] * ws.u[i])), ws.ptest[p]);
    }
  }
  for (int i = 0; i < m.nb; ++i) {  // pass 3 with a_0 = 0 and c_i = 0 (Eqs. 7.46, 7.49-7.50)
    const Joint<S>& j = m.joint[i];
    const int p = m.parent[i];
    Vec6<S>& a = ws.atest[i];
    if (p < 0) a.setZero();
    else a = ws.Xup[i].apply(ws.atest[p]);
    if (j.nv() == 1) {
      const S qddi = ws.Dinv[i](0, 0) * (ws.u[i][0] - ws.U[i].col(0).dot(a));
      r[m.v_idx[i]] = qddi;
      add_screw_times(j, qddi, a);
    } else {
      const VecN<S> qddi = ws.Dinv[i] * (ws.u[i] - ws.U[i].transpose() * a);
      r.segment(m.v_idx[i], j.nv()) = qddi;
      a += aba_detail::S_mul<S>(ws.jk[i].S_, qddi);
    }
  }
}

// a_i^vp = ^iX_lambda(i) a_lambda(i)^vp + c_i with a_0 = -a_g, from the ABA's Xup and c_i.
template <class S> void velocity_product_accelerations(const Model<S>& m, ContactWorkspace<S>& ws) {
  const Vec3<S> minus_g = -m.gravity;
  for (int i = 0; i < m.nb; ++i) {
    const int p = m.parent[i];
    ws.avp[i] = p < 0 ? join<S>(Vec3<S>::Zero(), ws.Xup[i].E * minus_g) : ws.Xup[i].apply_plus(ws.avp[p], ws.c[i]);
  }
}

template <class S>
void articulated_lcp(const Model<S>& m, const PointContacts<S>& contacts, const VecX<S>& q, const VecX<S>& qd,
                     const VecX<S>& tau, const ExternalForces<S>* f_ext, ContactWorkspace<S>& ws) {
  ws.prepare(m, contacts);
  Aba::run<S>(m, q, qd, tau, f_ext, ws.qdd0, ws);  // qdd_0; leaves v_i, c_i, I^A_i, U_i, D_i^-1
  velocity_product_accelerations<S>(m, ws);
  contact_kinematics<S>(m, contacts, ws.v, ws.avp, ws);
  for (int k = 0; k < ws.nc; ++k) test_force_response<S>(m, contacts[k], Vec6<S>(ws.normal.col(k)), ws, ws.R.col(k));
  ws.M.noalias() = ws.T.transpose() * ws.R;
  ws.d = ws.Tdot_qd;
  ws.d.noalias() += ws.T.transpose() * ws.qdd0;
  require_finite_lcp<S>(ws);
}

// qdd = qdd_0 + R lambda.
template <class S> void articulated_accelerations(ContactWorkspace<S>& ws, VecX<S>& qdd) {
  qdd = ws.qdd0;
  qdd.noalias() += ws.R * ws.lambda;
}

}  // namespace rbd::contacts
