#pragma once
// Scratch for the impact family (Featherstone section 11.7). It is the contact family's workspace
// (the same T, M = T^T H^-1 T and LCP solvers, contact_dynamics/workspace.hpp) with the
// velocities of an impact added; d holds the impact LCP's constant term b and zeta_dot its
// complementary variable w (impact_dynamics/steps.hpp), so the shared solvers run unchanged.
#include "contact_dynamics/workspace.hpp"

namespace rbd {

template <class S> struct ImpactWorkspace : ContactWorkspace<S> {
  VecX<S> zeta_minus;  // T^T qd before the impact: each contact's separation velocity (Eq. 11.62)
  VecX<S> zeta_plus;   // T^T qd after it
  VecX<S> dqd;         // the step change of qd (Eq. 11.57: H dqd = T lambda)

  ImpactWorkspace() = default;
  explicit ImpactWorkspace(const Model<S>& m) : ContactWorkspace<S>(m), dqd(VecX<S>::Zero(m.nv)) {
    this->problem = "impact";
    this->lcp_name = "the impact LCP (Eq. 11.64's restitution law at every contact)";
    this->d_name = "b = zeta^- + e min(zeta^-, 0)";
  }

  void prepare(const Model<S>& m, const PointContacts<S>& contacts) {
    ContactWorkspace<S>::prepare(m, contacts);
    check_restitution(contacts);  // every call: the values may change while the shape does not
    if (zeta_minus.size() != this->nc) zeta_minus = zeta_plus = VecX<S>::Zero(this->nc);
  }
};

}  // namespace rbd
