#pragma once
// Time-stepping with Coulomb friction: time_stepping.hpp's velocity-level scheme with three rows
// per contact and the friction family's LCP (friction_dynamics/lcp.hpp), which is the scheme
// Stewart and Trinkle (1996) proposed and Anitescu and Potra analysed. With h the step, at q:
//   qd_free = qd + h H^-1 (tau - C)
//   qd'     = qd_free + H^-1 T3 p,     p = (p_n, p_1, p_2) per contact, impulses   (Eq. 11.57)
//   u'      = T3^T qd' = G p + T3^T qd_free,   G = T3^T H^-1 T3
// and per contact, in the k-facet pyramid (model/contact.hpp's facets):
//   u'_n - r_n >= 0  _|_  p_n >= 0;   d_j . u'_t + gamma >= 0  _|_  beta_j >= 0;
//   mu p_n - sum beta >= 0  _|_  gamma >= 0,                      p_t = sum beta_j d_j,
// which is lcp.hpp's sticking-contact LCP with velocities after the step in place of
// accelerations. Every contact enters in that form: at the velocity level a contact that slides
// through the step is one whose gamma > 0 (its impulse on the pyramid's boundary, opposing the
// slip after the step), so the acceleration-level split into sticking and sliding classes, with
// its kinetic law and Painleve's paradox, does not arise (Stewart and Trinkle's point: the
// velocity-level LCP has a solution for every mu). The normal targets r_n are
// time_stepping.hpp's step_target: -e zeta for a contact that would close within the step,
// -phi / h for the others. Everything is in S.
#include <stdexcept>
#include <string>

#include "contact_simulation/gaps.hpp"
#include "contact_simulation/time_stepping.hpp"
#include "impact_dynamics/friction_impact.hpp"
#include "model/configuration.hpp"

namespace rbd::simulation {

template <class S> class FrictionTimeSteppingSimulator {
 public:
  FrictionTimeSteppingSimulator(const Model<S>& m, PointContacts<S> candidates, VecX<S> q0, VecX<S> qd0, VecX<S> tau,
                                const S& h)
      : q(std::move(q0)), qd(std::move(qd0)), m_(m), cand_(std::move(candidates)), tau_(std::move(tau)), h_(h), ws_(m) {
    if (!(h_ > S(0))) throw std::invalid_argument("friction time-stepping simulation: the step h must be > 0");
    if (q.size() != m.nq || qd.size() != m.nv || tau_.size() != m.nv)
      throw std::invalid_argument("friction time-stepping simulation: q, qd, tau must have nq, nv, nv entries");
    check_contact_bodies(m, cand_);
    check_restitution(cand_);
    check_friction(cand_);
    ws_.problem = "friction time-stepping simulation";
    ws_.lcp_name = "the step's frictional impulse LCP";
  }

  void step() {
    contact_gaps<S>(m_, cand_, q, ws_, phi_);
    // T3 and H = L L^T at q (dense_rows also forms the acceleration-level G and g; G is the same
    // matrix here, g is replaced by the velocity-level one).
    friction::dense_rows<S>(m_, cand_, q, qd, tau_, nullptr, ws_);
    const int nc = ws_.nc;
    free_velocity<S>(tau_, qd, h_, ws_, free_);
    for (int i = 0; i < nc; ++i)
      ws_.target[i] = step_target<S>(phi_[i], S(ws_.T3.col(3 * i).dot(qd)), cand_[static_cast<std::size_t>(i)].restitution, h_);
    impacts::frictional_impulses<S>(cand_, free_, ws_.target, ws_, qd);
    q = integrate(m_, q, qd, h_);
    t += h_;
    ++steps;
  }

  void advance_to(const S& t_end) {
    while (t + h_ / S(2) < t_end) step();
  }

  // The last step's impulses (p_n, p_1, p_2) per candidate, in the contact's (n, t1, t2).
  const VecX<S>& impulses() const { return ws_.f; }

  S t = S(0);
  VecX<S> q, qd;
  int steps = 0;

 private:
  const Model<S>& m_;
  PointContacts<S> cand_;
  VecX<S> tau_;
  S h_;
  FrictionWorkspace<S> ws_;
  VecX<S> phi_, free_;
};

}  // namespace rbd::simulation
