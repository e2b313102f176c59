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
#include <vector>

#include "contact_dynamics/workspace.hpp"
#include "inverse_dynamics/rnea_spatial.hpp"
#include "mass_matrix/crba.hpp"
#include "model/base_coordinates.hpp"

namespace rbd::contacts {

// The column t = (J_s^T - J_p^T) f of a unit force f (Pluecker, base coordinates) acting on s and
// -f on p (Eq. 11.25): +S_j^T f on the path from s, -S_j^T f on the path from p, stepping the
// larger body number towards the base until the paths meet. t must be zero on entry.
template <class S>
void force_column(const Model<S>& m, int p, int s, const Vec6<S>& f, const Forces6<S>& S0, Eigen::Ref<VecX<S>> t) {
  int a = p, b = s;
  while (a != b) {
    if (a > b) {
      for (int k = 0; k < m.joint[a].nv(); ++k) t[m.v_idx[a] + k] = -Vec6<S>(S0.col(m.v_idx[a] + k)).dot(f);
      a = m.parent[a];
    } else {
      for (int k = 0; k < m.joint[b].nv(); ++k) t[m.v_idx[b] + k] = Vec6<S>(S0.col(m.v_idx[b] + k)).dot(f);
      b = m.parent[b];
    }
  }
}

// The unit force f = [x x e; e] along direction e (base coordinates) through C' = x.
template <class S> Vec6<S> line_force(const Vec3<S>& x, const Vec3<S>& e) { return join<S>(cross<S>(x, e), e); }

// Relative motion of C' of a contact, base coordinates: x, the relative spatial velocity and
// velocity-product acceleration of s and p, p's velocity, and u, the velocity of C' relative to
// the point of p at C (the slip, when the contact touches).
template <class S> struct ContactPointMotion {
  Vec3<S> x, u;
  Vec6<S> vp, dv, da;
};

template <class S>
ContactPointMotion<S> contact_point_motion(const Model<S>& m, const PointContact<S>& c, const std::vector<Vec6<S>>& v,
                                           const std::vector<Vec6<S>>& avp, const std::vector<Transform<S>>& X0) {
  const Vec6<S> a_base = join<S>(Vec3<S>::Zero(), Vec3<S>(-m.gravity));  // a_0 = -a_g
  const Transform<S>& Xs = X0[c.s];
  ContactPointMotion<S> out;
  out.x = Xs.r + Xs.E.transpose() * c.point;
  const Vec6<S> vs = Xs.apply_inverse(v[c.s]), as = Xs.apply_inverse(avp[c.s]);
  out.vp = c.p < 0 ? Vec6<S>::Zero() : X0[c.p].apply_inverse(v[c.p]);
  const Vec6<S> ap = c.p < 0 ? a_base : X0[c.p].apply_inverse(avp[c.p]);
  out.u = (lin(vs) + cross<S>(ang(vs), out.x)) - (lin(out.vp) + cross<S>(ang(out.vp), out.x));
  out.dv = vs - out.vp;
  out.da = as - ap;
  return out;
}

// (T_dot^T qd) for the unit force f = [x x e; e] with e fixed in p (Eq. 11.30 and the header's
// n_dot): f . (a_s - a_p) + f_dot . (v_s - v_p), f_dot = v_p x* f + [u x e; 0].
template <class S> S force_rate_term(const ContactPointMotion<S>& k, const Vec6<S>& f) {
  const Vec6<S> fdot = crf<S>(k.vp, f) + join<S>(cross<S>(k.u, lin(f)), Vec3<S>::Zero());
  return f.dot(k.da) + fdot.dot(k.dv);
}

// n_i and T (Eqs. 11.1, 11.25, 11.31) from ^iX_0 and S0 that a pass has made (the closed-loop family's Table 8.4 makes
// them too: loop_contact_dynamics/ reads them from its loop workspace instead of making them twice).
template <class S>
void contact_columns(const Model<S>& m, const PointContacts<S>& contacts, const std::vector<Transform<S>>& X0,
                     const Forces6<S>& S0, ContactWorkspace<S>& ws) {
  ws.T.setZero();
  for (int i = 0; i < ws.nc; ++i) {
    const PointContact<S>& c = contacts[i];
    const Transform<S>& Xs = X0[c.s];
    const Vec3<S> x = Xs.r + Xs.E.transpose() * c.point;                            // C' (= C) in base coordinates
    const Vec3<S> n3 = c.p < 0 ? c.normal : Vec3<S>(X0[c.p].E.transpose() * c.normal);
    const Vec6<S> n = line_force<S>(x, n3);                                         // Eq. 11.1's n, Pluecker at the base origin
    ws.normal.col(i) = n;
    force_column<S>(m, c.p, c.s, n, S0, ws.T.col(i));
  }
}

// n_i and T for every contact (Eqs. 11.1, 11.25, 11.31), in base coordinates, from ws.Xup and
// the multi-DoF joints' S of the pass that made them (the RNEA, the CRBA or the ABA). Also what
// impulsive dynamics needs (impact_dynamics/): the impulses' directions are the same n_i.
template <class S>
void contact_normals(const Model<S>& m, const PointContacts<S>& contacts, ContactWorkspace<S>& ws) {
  base_frames_and_subspaces<S>(m, ws, ws.X0, ws.S0);
  contact_columns<S>(m, contacts, ws.X0, ws.S0, ws);
}

// T_dot^T qd for every contact, after contact_normals or contact_columns. v and avp: each body's
// velocity and velocity-product acceleration a_i^vp (offset by -a_g, which cancels in a_s - a_p),
// body coordinates; X0 the ^iX_0 the columns were made with.
template <class S>
void contact_rate_terms(const Model<S>& m, const PointContacts<S>& contacts, const std::vector<Vec6<S>>& v,
                        const std::vector<Vec6<S>>& avp, const std::vector<Transform<S>>& X0, ContactWorkspace<S>& ws) {
  for (int i = 0; i < ws.nc; ++i)
    ws.Tdot_qd[i] = force_rate_term<S>(contact_point_motion<S>(m, contacts[i], v, avp, X0), Vec6<S>(ws.normal.col(i)));
}

// n_i, T and T_dot^T qd for every contact. v and avp: each body's velocity and velocity-product
// acceleration a_i^vp (offset by -a_g, which cancels in a_s - a_p), body coordinates.
template <class S>
void contact_kinematics(const Model<S>& m, const PointContacts<S>& contacts, const std::vector<Vec6<S>>& v,
                        const std::vector<Vec6<S>>& avp, ContactWorkspace<S>& ws) {
  contact_normals<S>(m, contacts, ws);
  contact_rate_terms<S>(m, contacts, v, avp, ws.X0, ws);
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

// The dense routes' factor, after the RNEA has made C: H by the CRBA (at the RNEA's Xup: the same
// q), H = L L^T, and z = L^-1 (tau - C). (The CRBA comes after the contact kinematics, which read
// the RNEA's Xup.)
template <class S> void factor_and_reduce(const Model<S>& m, const VecX<S>& tau, ContactWorkspace<S>& ws) {
  Crba::from_kinematics<S>(m, ws.Hd, ws);
  ws.llt->compute(ws.Hd);
  if (ws.llt->info() != Eigen::Success)
    throw std::domain_error(std::string(ws.problem) + ": H (CRBA) is not positive definite (a non-physical inertia, or NaN in q?)");
  ws.z = tau - ws.C;
  ws.llt->matrixL().solveInPlace(ws.z);
}

// The dense route: C and the a_i^vp by the RNEA with qdd = 0, H by the CRBA, H = L L^T, then
// Y = L^-1 T and z = L^-1 (tau - C), so M = Y^T Y (Eq. 11.35) and d = Y^T z + T_dot^T qd (Eq. 11.36).
template <class S>
void dense_lcp(const Model<S>& m, const PointContacts<S>& contacts, const VecX<S>& q, const VecX<S>& qd,
               const VecX<S>& tau, const ExternalForces<S>* f_ext, ContactWorkspace<S>& ws) {
  ws.prepare(m, contacts);
  RneaSpatial::run<S>(m, q, qd, ws.zero, f_ext, ws.C, ws);  // C = ID(q, qd, 0); leaves v_i, a_i^vp
  contact_kinematics<S>(m, contacts, ws.v, ws.a, ws);
  factor_and_reduce<S>(m, tau, ws);
  ws.Y = ws.T;
  ws.llt->matrixL().solveInPlace(ws.Y);
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
