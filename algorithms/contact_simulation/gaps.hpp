#pragma once
// phi_i(q) for every candidate contact (model/contact.hpp's definition: the signed distance of
// C' from the plane, Eq. 11.37), from the body transforms ^iX_0 at q. The simulators use it to
// detect contact gains (phi crossing zero) and to place the time-stepping scheme's targets.
#include <vector>

#include "model/contact.hpp"
#include "model/workspace.hpp"

namespace rbd::simulation {

// ^iX_0 at q into X0 (jk: scratch for the multi-DoF joints' S, sized by the caller's Workspace).
template <class S>
void body_frames(const Model<S>& m, const VecX<S>& q, std::vector<JointKinematics<S>>& jk, std::vector<Transform<S>>& X0) {
  for (int i = 0; i < m.nb; ++i) {
    Transform<S> Xup;
    jcalc_xup(m.joint[i], q.segment(m.q_idx[i], m.joint[i].nq()), m.Xtree[i], jk[i], Xup);
    X0[i] = m.parent[i] < 0 ? Xup : Xup * X0[m.parent[i]];
  }
}

template <class S>
void contact_gaps(const Model<S>& m, const PointContacts<S>& contacts, const VecX<S>& q, Workspace<S>& ws,
                  VecX<S>& phi) {
  body_frames<S>(m, q, ws.jk, ws.X0);
  phi.resize(static_cast<Eigen::Index>(contacts.size()));
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    const PointContact<S>& c = contacts[k];
    const Transform<S>& Xs = ws.X0[c.s];
    const Vec3<S> world = Xs.r + Xs.E.transpose() * c.point;
    const Vec3<S> in_p = c.p < 0 ? world : Vec3<S>(ws.X0[c.p].E * (world - ws.X0[c.p].r));
    phi[static_cast<Eigen::Index>(k)] = c.normal.dot(in_p) - c.offset;
  }
}

}  // namespace rbd::simulation
