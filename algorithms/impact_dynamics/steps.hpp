#pragma once
// What every impact variant computes (Featherstone section 11.7) around the LCP.
//
// An impact is a step change dqd of the joint velocities caused by impulses lambda_i >= 0 along
// the contact normals n_i: H dqd = T lambda (Eqs. 11.57-11.58, with u = T lambda as the force of
// Eq. 11.41 is T lambda), so the separation velocities zeta = T^T qd jump by
//     zeta^+ = zeta^- + M lambda,   M = T^T H^-1 T   (the M of Eq. 11.35).
// Eq. 11.64 asks each approaching contact (zeta^-_i < 0) to leave with zeta^+_i = -e_i zeta^-_i.
// With several contacts that cannot hold everywhere (an impulse at one contact moves the
// others), so Newton's law is applied contact by contact as a complementarity condition: every
// contact ends with zeta^+_i >= -e_i zeta^-_i (>= 0 if it was not approaching), and an impulse acts
// only where that bound is met:
//     w = M lambda + b >= 0,  lambda >= 0,  w^T lambda = 0,   b_i = zeta^-_i + e_i min(zeta^-_i, 0),
// with w_i = zeta^+_i + e_i min(zeta^-_i, 0). For one approaching contact between two free bodies
// this is Eq. 11.65: lambda = -(1 + e) zeta^- / M. With e = 0 it is the impulsive form of the
// acceleration LCP of Eq. 11.42 (a plastic impact: qd^+ is the H-norm projection of qd^- onto
// {T^T qd >= 0}, so it never gains kinetic energy); its kinetic energy changes by
//     dKE = lambda^T zeta^- + lambda^T M lambda / 2 = lambda^T (zeta^- + zeta^+) / 2.
// Finite forces (gravity, tau, f_ext) deliver no impulse (Eq. 11.54), so they do not appear.
//
// M comes by either of the contact family's routes: dense (CRBA, Cholesky) or articulated-body
// test forces (Eq. 11.56: an impulse on an articulated body meets its articulated inertia).
#include <string>

#include "contact_dynamics/articulated_route.hpp"
#include "contact_dynamics/steps.hpp"
#include "impact_dynamics/workspace.hpp"

namespace rbd::impacts {

// zeta^- = T^T qd and the LCP's constant term b (ws.d).
template <class S> void restitution_rhs(const PointContacts<S>& contacts, const VecX<S>& qd, ImpactWorkspace<S>& ws) {
  ws.zeta_minus.noalias() = ws.T.transpose() * qd;
  for (int i = 0; i < ws.nc; ++i)
    ws.d[i] = ws.zeta_minus[i] < S(0) ? S(ws.zeta_minus[i] + contacts[i].restitution * ws.zeta_minus[i]) : ws.zeta_minus[i];
}

// zeta^+ from the solver's w (ws.zeta_dot): w_i - e_i min(zeta^-_i, 0).
template <class S> void separation_after(const PointContacts<S>& contacts, ImpactWorkspace<S>& ws) {
  for (int i = 0; i < ws.nc; ++i)
    ws.zeta_plus[i] = ws.zeta_minus[i] < S(0) ? S(ws.zeta_dot[i] - contacts[i].restitution * ws.zeta_minus[i]) : ws.zeta_dot[i];
}

// The dense route: H by the CRBA (which leaves the Xup and S that T needs), H = L L^T,
// Y = L^-1 T, M = Y^T Y (Eq. 11.35).
template <class S>
void dense_impact_lcp(const Model<S>& m, const PointContacts<S>& contacts, const VecX<S>& q, const VecX<S>& qd,
                      ImpactWorkspace<S>& ws) {
  ws.prepare(m, contacts);
  Crba::run<S>(m, q, ws.Hd, ws);
  ws.llt->compute(ws.Hd);
  if (ws.llt->info() != Eigen::Success)
    throw std::domain_error("impact: H (CRBA) is not positive definite (a non-physical inertia, or NaN in q?)");
  contacts::contact_normals<S>(m, contacts, ws);
  ws.Y = ws.T;
  ws.llt->matrixL().solveInPlace(ws.Y);
  ws.M.noalias() = ws.Y.transpose() * ws.Y;
  restitution_rhs<S>(contacts, qd, ws);
  contacts::require_finite_lcp<S>(ws);
}

// qd^+ = qd^- + H^-1 T lambda (Eq. 11.57) with the dense route's factor.
template <class S>
void dense_velocities(const PointContacts<S>& contacts, const VecX<S>& qd, ImpactWorkspace<S>& ws, VecX<S>& qd_plus) {
  ws.dqd.noalias() = ws.T * ws.lambda;
  ws.llt->solveInPlace(ws.dqd);
  qd_plus = qd + ws.dqd;
  separation_after<S>(contacts, ws);
}

// The articulated-body route: the ABA at q (qd and tau zero: only its articulated inertias
// I^A_i, U_i, D_i^-1 and the transforms are used), then r_i = H^-1 t_i by one test-force pass per
// contact (contact_dynamics/articulated_route.hpp), M = T^T R.
template <class S>
void articulated_impact_lcp(const Model<S>& m, const PointContacts<S>& contacts, const VecX<S>& q, const VecX<S>& qd,
                            ImpactWorkspace<S>& ws) {
  ws.prepare(m, contacts);
  Aba::run<S>(m, q, ws.zero, ws.zero, nullptr, ws.qdd0, ws);
  contacts::contact_normals<S>(m, contacts, ws);
  for (int k = 0; k < ws.nc; ++k)
    contacts::test_force_response<S>(m, contacts[k], Vec6<S>(ws.normal.col(k)), ws, ws.R.col(k));
  ws.M.noalias() = ws.T.transpose() * ws.R;
  restitution_rhs<S>(contacts, qd, ws);
  contacts::require_finite_lcp<S>(ws);
}

// qd^+ = qd^- + R lambda.
template <class S>
void articulated_velocities(const PointContacts<S>& contacts, const VecX<S>& qd, ImpactWorkspace<S>& ws,
                            VecX<S>& qd_plus) {
  ws.dqd.noalias() = ws.R * ws.lambda;
  qd_plus = qd + ws.dqd;
  separation_after<S>(contacts, ws);
}

}  // namespace rbd::impacts
