#pragma once
// What the friction variants compute before they build the friction LCP (lcp.hpp): for each
// contact three unit forces through C' -- along the normal n and the tangents t1, t2 = n x t1,
// all fixed in p (model/contact.hpp) -- with their joint-space columns (Eq. 11.25 for each
// direction, the matrix T3 = [.. n_i t1_i t2_i ..]) and velocity-product terms (Eq. 11.30 for
// each direction: a tangent fixed in p moves with p and slides with C' exactly as the normal
// does, so contact_dynamics/steps.hpp's force_rate_term serves all three); the slip velocity
// u_t of each contact, which decides sticking or sliding; then, by one of two routes,
//     G = T3^T H^-1 T3,   g = T3^T H^-1 (tau - C) + T3_dot^T qd,
// so that the accelerations of C' relative to p along n, t1, t2 are a = G f + g for the force
// components f = (lambda_n, f_1, f_2) per contact (Eqs. 11.34-11.36 with three rows per
// contact instead of one). Dense: the CRBA's H and its Cholesky factor; articulated: the ABA and
// one test-force pass per direction (contact_dynamics/articulated_route.hpp).
#include <limits>
#include <stdexcept>
#include <string>

#include "contact_dynamics/articulated_route.hpp"
#include "contact_dynamics/steps.hpp"
#include "friction_dynamics/workspace.hpp"

namespace rbd::friction {

// force3, T3, Tdot3 and the slip classification. v, avp: body velocities and velocity-product
// accelerations (body coordinates) of the pass that made ws.Xup.
template <class S>
void friction_kinematics(const Model<S>& m, const PointContacts<S>& contacts, const std::vector<Vec6<S>>& v,
                         const std::vector<Vec6<S>>& avp, FrictionWorkspace<S>& ws) {
  base_frames_and_subspaces<S>(m, ws, ws.X0, ws.S0);
  ws.T3.setZero();
  for (int i = 0; i < ws.nc; ++i) {
    const PointContact<S>& c = contacts[i];
    const contacts::ContactPointMotion<S> k = contacts::contact_point_motion<S>(m, c, v, avp, ws.X0);
    Vec3<S> e[3];
    e[0] = c.p < 0 ? c.normal : Vec3<S>(ws.X0[c.p].E.transpose() * c.normal);
    e[1] = c.p < 0 ? c.tangent : Vec3<S>(ws.X0[c.p].E.transpose() * c.tangent);
    e[2] = cross<S>(e[0], e[1]);  // t2 = n x t1 (a rotation keeps cross products)
    for (int d = 0; d < 3; ++d) {
      const Vec6<S> f = contacts::line_force<S>(k.x, e[d]);
      ws.force3.col(3 * i + d) = f;
      contacts::force_column<S>(m, c.p, c.s, f, ws.S0, ws.T3.col(3 * i + d));
      ws.Tdot3[3 * i + d] = contacts::force_rate_term<S>(k, f);
    }
    // The slip u_t in (t1, t2): sliding above slip_speed, with f_t = -mu lambda_n u_t / |u_t|.
    const S u1 = e[1].dot(k.u), u2 = e[2].dot(k.u);
    const S speed = sqrt_(S(u1 * u1 + u2 * u2));
    ws.sliding[i] = speed > c.slip_speed;
    ws.slip1[i] = ws.sliding[i] ? S(u1 / speed) : S(0);
    ws.slip2[i] = ws.sliding[i] ? S(u2 / speed) : S(0);
  }
}

// G and g must be finite: Lemke's ratio test compares, and a comparison with NaN is false.
template <class S> void require_finite_rows(const FrictionWorkspace<S>& ws) {
  const S big = S(std::numeric_limits<double>::max());
  for (Eigen::Index c = 0; c < ws.G.cols(); ++c)
    for (Eigen::Index r = 0; r < ws.G.rows(); ++r)
      if (!(abs_(ws.G(r, c)) <= big))
        throw std::domain_error("friction dynamics: G = T3^T H^-1 T3 has a non-finite entry at row " + std::to_string(r) +
                                ", column " + std::to_string(c) + " (a NaN or inf in q, or in a contact's data?)");
  for (Eigen::Index r = 0; r < ws.g.size(); ++r)
    if (!(abs_(ws.g[r]) <= big))
      throw std::domain_error("friction dynamics: g has a non-finite entry at row " + std::to_string(r) + " (contact " +
                              std::to_string(r / 3) + "; a NaN or inf in q, qd, tau or the model?)");
}

// Dense route: C and a_i^vp by the RNEA with qdd = 0, H by the CRBA, H = L L^T, Y3 = L^-1 T3,
// z = L^-1 (tau - C); G = Y3^T Y3, g = Y3^T z + T3_dot^T qd.
template <class S>
void dense_rows(const Model<S>& m, const PointContacts<S>& contacts, const VecX<S>& q, const VecX<S>& qd,
                const VecX<S>& tau, const ExternalForces<S>* f_ext, FrictionWorkspace<S>& ws) {
  ws.prepare(m, contacts);
  RneaSpatial::run<S>(m, q, qd, ws.zero, f_ext, ws.C, ws);
  friction_kinematics<S>(m, contacts, ws.v, ws.a, ws);
  contacts::factor_and_reduce<S>(m, tau, ws);
  ws.Y3 = ws.T3;
  ws.llt->matrixL().solveInPlace(ws.Y3);
  ws.G.noalias() = ws.Y3.transpose().lazyProduct(ws.Y3);  // a few dozen entries: no blocked product
  ws.g = ws.Tdot3;
  ws.g.noalias() += ws.Y3.transpose() * ws.z;
  require_finite_rows<S>(ws);
}

// qdd = H^-1 (tau - C + T3 f) (Eq. 11.41 with the friction forces) with the dense route's factor.
template <class S> void dense_accelerations(const VecX<S>& tau, FrictionWorkspace<S>& ws, VecX<S>& qdd) {
  ws.rhs = tau - ws.C;
  ws.rhs.noalias() += ws.T3 * ws.f;
  ws.llt->solveInPlace(ws.rhs);
  qdd = ws.rhs;
}

// Articulated-body route: qdd_0 by the ABA, R3 = H^-1 T3 by one test-force pass per direction
// (3 per contact); G = T3^T R3, g = T3^T qdd_0 + T3_dot^T qd.
template <class S>
void articulated_rows(const Model<S>& m, const PointContacts<S>& contacts, const VecX<S>& q, const VecX<S>& qd,
                      const VecX<S>& tau, const ExternalForces<S>* f_ext, FrictionWorkspace<S>& ws) {
  ws.prepare(m, contacts);
  Aba::run<S>(m, q, qd, tau, f_ext, ws.qdd0, ws);
  contacts::velocity_product_accelerations<S>(m, ws);
  friction_kinematics<S>(m, contacts, ws.v, ws.avp, ws);
  for (int k = 0; k < 3 * ws.nc; ++k)
    contacts::test_force_response<S>(m, contacts[k / 3], Vec6<S>(ws.force3.col(k)), ws, ws.R3.col(k));
  ws.G.noalias() = ws.T3.transpose() * ws.R3;
  ws.g = ws.Tdot3;
  ws.g.noalias() += ws.T3.transpose() * ws.qdd0;
  require_finite_rows<S>(ws);
}

// qdd = qdd_0 + H^-1 T3 f.
template <class S> void articulated_accelerations(FrictionWorkspace<S>& ws, VecX<S>& qdd) {
  qdd = ws.qdd0;
  qdd.noalias() += ws.R3 * ws.f;
}

}  // namespace rbd::friction
