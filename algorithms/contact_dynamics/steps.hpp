#pragma once
// What every contact variant computes before it solves the LCP (Featherstone sections 11.3-11.5):
//  - the contact kinematics: each contact's unit normal force n_i, the column t_i of T
//    (Eqs. 11.25, 11.31) and the velocity-product term T_dot^T qd (Eq. 11.30), in base
//    coordinates as Table 8.4 forms K;
//  - then M = T^T H^-1 T and d = T^T H^-1 (tau - C) + T_dot^T qd (Eqs. 11.35-11.36), by one of
//    two routes: dense (CRBA, Cholesky) here, articulated-body in articulated_route.hpp.
//
// n_dot (Eq. 11.30). The plane is fixed in p, the contact point C is the foot of C' on it, and
// C moves over the plane as C' slides: with x the position of C and n3 the plane's normal (base
// coordinates), n = [x x n3; n3], so n_dot = [x_dot x n3 + x x (w_p x n3); w_p x n3]. Writing
// x_dot = v_C' (at phi = 0 the foot moves with C', up to a multiple of n3 that n3 x n3 removes)
// and using the Jacobi identity, this is
//     n_dot = v_p x* n + [u x n3; 0],   u = v_C' - v_C,p,
// the velocity of C' relative to the point of p at C. The first term is "n fixed in p"; the
// second is the sliding. Without it T_dot^T qd misses u . (n3 x (w_s - w_p)), which is not zero
// when the contact slides while the two bodies turn relative to each other
// (verify/test_contact_dynamics.cpp checks zeta_dot against phi's second derivative).
#include <limits>
#include <stdexcept>
#include <string>

#include "contact_dynamics/workspace.hpp"
#include "inverse_dynamics/rnea_spatial.hpp"
#include "mass_matrix/crba.hpp"
#include "model/base_coordinates.hpp"

namespace rbd::contacts {

// n_i and T for every contact (Eqs. 11.1, 11.25, 11.31), in base coordinates, from ws.Xup and
// the multi-DoF joints' S of the pass that made them (the RNEA, the CRBA or the ABA). Also what
// impulsive dynamics needs (impact_dynamics/): the impulses' directions are the same n_i.
template <class S>
void contact_normals(const Model<S>& m, const PointContacts<S>& contacts, ContactWorkspace<S>& ws) {
  base_frames_and_subspaces<S>(m, ws, ws.X0, ws.S0);
  ws.T.setZero();
  for (int i = 0; i < ws.nc; ++i) {
    const PointContact<S>& c = contacts[i];
    const Transform<S>& Xs = ws.X0[c.s];
    const Vec3<S> x = Xs.r + Xs.E.transpose() * c.point;                            // C' (= C) in base coordinates
    const Vec3<S> n3 = c.p < 0 ? c.normal : Vec3<S>(ws.X0[c.p].E.transpose() * c.normal);
    const Vec6<S> n = join<S>(cross<S>(x, n3), n3);                                // Eq. 11.1's n, Pluecker at the base origin
    ws.normal.col(i) = n;
    // t_i = (J_s^T - J_p^T) n_i (Eq. 11.25): +S_j^T n on the path from s, -S_j^T n on the path
    // from p, stepping the larger body number towards the base until the paths meet.
    int a = c.p, b = c.s;
    while (a != b) {
      if (a > b) {
        for (int k = 0; k < m.joint[a].nv(); ++k) ws.T(m.v_idx[a] + k, i) = -Vec6<S>(ws.S0.col(m.v_idx[a] + k)).dot(n);
        a = m.parent[a];
      } else {
        for (int k = 0; k < m.joint[b].nv(); ++k) ws.T(m.v_idx[b] + k, i) = Vec6<S>(ws.S0.col(m.v_idx[b] + k)).dot(n);
        b = m.parent[b];
      }
    }
  }
}

// n_i, T and T_dot^T qd for every contact. v and avp: each body's velocity and velocity-product
// acceleration a_i^vp (offset by -a_g, which cancels in a_s - a_p), body coordinates.
template <class S>
void contact_kinematics(const Model<S>& m, const PointContacts<S>& contacts, const std::vector<Vec6<S>>& v,
                        const std::vector<Vec6<S>>& avp, ContactWorkspace<S>& ws) {
  contact_normals<S>(m, contacts, ws);
  const Vec6<S> a_base = join<S>(Vec3<S>::Zero(), Vec3<S>(-m.gravity));  // a_0 = -a_g
  for (int i = 0; i < ws.nc; ++i) {
    const PointContact<S>& c = contacts[i];
    const Transform<S>& Xs = ws.X0[c.s];
    const Vec6<S> n = ws.normal.col(i);
    const Vec3<S> n3 = lin(n), x = Xs.r + Xs.E.transpose() * c.point;
    const Vec6<S> vs = Xs.apply_inverse(v[c.s]), as = Xs.apply_inverse(avp[c.s]);
    const Vec6<S> vp = c.p < 0 ? Vec6<S>::Zero() : ws.X0[c.p].apply_inverse(v[c.p]);
    const Vec6<S> ap = c.p < 0 ? a_base : ws.X0[c.p].apply_inverse(avp[c.p]);
    const Vec3<S> u = (lin(vs) + cross<S>(ang(vs), x)) - (lin(vp) + cross<S>(ang(vp), x));
    const Vec6<S> ndot = crf<S>(vp, n) + join<S>(cross<S>(u, n3), Vec3<S>::Zero());
    ws.Tdot_qd[i] = n.dot(as - ap) + ndot.dot(vs - vp);                            // Eq. 11.30
  }
}

// M and d must be finite: the pivoting solvers compare magnitudes, and a comparison with NaN is
// false, so a NaN in the state would otherwise release a contact silently instead of showing.
template <class S> void require_finite_lcp(const ContactWorkspace<S>& ws) {
  const MatX<S>& M = ws.M;
  const VecX<S>& d = ws.d;
  const S big = S(std::numeric_limits<double>::max());
  for (Eigen::Index c = 0; c < M.cols(); ++c)
    for (Eigen::Index r = 0; r < M.rows(); ++r)
      if (!(abs_(M(r, c)) <= big))
        throw std::domain_error(std::string(ws.problem) + ": M (Eq. 11.35) has a non-finite entry at row " + std::to_string(r) +
                                ", column " + std::to_string(c) + " (a NaN or inf in q, or in a contact's point or plane?)");
  for (Eigen::Index r = 0; r < d.size(); ++r)
    if (!(abs_(d[r]) <= big))
      throw std::domain_error(std::string(ws.problem) + ": " + ws.d_name + " has a non-finite entry at contact " +
                              std::to_string(r) + " (a NaN or inf in q, qd, tau or the model?)");
}

// The dense route: C and the a_i^vp by the RNEA with qdd = 0, H by the CRBA, H = L L^T, then
// Y = L^-1 T and z = L^-1 (tau - C), so M = Y^T Y (Eq. 11.35) and d = Y^T z + T_dot^T qd (Eq. 11.36).
template <class S>
void dense_lcp(const Model<S>& m, const PointContacts<S>& contacts, const VecX<S>& q, const VecX<S>& qd,
               const VecX<S>& tau, const ExternalForces<S>* f_ext, ContactWorkspace<S>& ws) {
  ws.prepare(m, contacts);
  RneaSpatial::run<S>(m, q, qd, ws.zero, f_ext, ws.C, ws);  // C = ID(q, qd, 0); leaves v_i, a_i^vp
  contact_kinematics<S>(m, contacts, ws.v, ws.a, ws);
  Crba::run<S>(m, q, ws.Hd, ws);
  ws.llt->compute(ws.Hd);
  if (ws.llt->info() != Eigen::Success)
    throw std::domain_error(std::string(ws.problem) + ": H (CRBA) is not positive definite (a non-physical inertia, or NaN in q?)");
  ws.Y = ws.T;
  ws.llt->matrixL().solveInPlace(ws.Y);
  ws.z = tau - ws.C;
  ws.llt->matrixL().solveInPlace(ws.z);
  ws.M.noalias() = ws.Y.transpose() * ws.Y;
  ws.d = ws.Tdot_qd;
  ws.d.noalias() += ws.Y.transpose() * ws.z;
  require_finite_lcp<S>(ws);
}

// qdd = H^-1 (tau - C + T lambda) (Eq. 11.41) with the dense route's factor.
template <class S> void dense_accelerations(const VecX<S>& tau, ContactWorkspace<S>& ws, VecX<S>& qdd) {
  ws.rhs = tau - ws.C;
  ws.rhs.noalias() += ws.T * ws.lambda;
  ws.llt->solveInPlace(ws.rhs);
  qdd = ws.rhs;
}

}  // namespace rbd::contacts
