#pragma once
// What both loop-contact variants compute before they solve: the closed-loop family's terms (the
// tree's C by the RNEA, H by the CRBA, tau' = tau - C + tau^a, and K, k of Table 8.4), then the
// contacts' columns T and rates T_dot^T qd (Eqs. 11.25, 11.30-11.31) from the same pass: the
// ^iX_0 and base-coordinate S_i that Table 8.4 made, and the RNEA's v_i and a_i^vp.
#include "closed_loop_dynamics/steps.hpp"
#include "contact_dynamics/steps.hpp"
#include "loop_contact_dynamics/workspace.hpp"

namespace rbd::loop_contacts {

template <class S>
void tree_loop_and_contact_terms(const Model<S>& m, const LoopJoints<S>& loops, const PointContacts<S>& contacts,
                                 const VecX<S>& q, const VecX<S>& qd, const VecX<S>& tau, const ExternalForces<S>* f_ext,
                                 LoopContactWorkspace<S>& ws) {
  loops::tree_and_loop_terms<S>(m, loops, q, qd, tau, f_ext, ws.loop);
  ws.contact.prepare(m, contacts);
  ws.prepare(m);
  contacts::contact_columns<S>(m, contacts, ws.loop.X0, ws.loop.S0, ws.contact);
  contacts::contact_rate_terms<S>(m, contacts, ws.loop.v, ws.loop.a, ws.loop.X0, ws.contact);
}

}  // namespace rbd::loop_contacts
