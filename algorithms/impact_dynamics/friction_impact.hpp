#pragma once
// Impacts with Coulomb friction (Featherstone section 11.7 with friction beyond Eq. 11.72's
// sticking case): the impulses p = (p_n, p_1, p_2) per contact change the velocities by
// H (qd^+ - qd^-) = T3 p (Eq. 11.57 with three rows per contact), so the contact velocities after
// are u^+ = G p + T3^T qd^-, G = T3^T H^-1 T3 (friction_dynamics/steps.hpp's rows). Per contact,
// in its k-facet pyramid, the conditions are friction_dynamics/lcp.hpp's sticking-contact LCP
// written for velocities (Stewart and Trinkle, 1996):
//   u^+_n - r_n >= 0 _|_ p_n >= 0;   d_j . u^+_t + gamma >= 0 _|_ beta_j >= 0;
//   mu p_n - sum beta >= 0 _|_ gamma >= 0,    p_t = sum beta_j d_j,
// with Newton's target r_n = -e zeta^- for an approaching contact and 0 otherwise (the impact
// family's law, impact_dynamics/README.md). So a contact leaves with at least e times its approach
// speed; its tangential slip after the impact is either zero (the impulse inside the pyramid: it
// sticks, Eq. 11.72's case) or opposed by an impulse on the pyramid's boundary (it slides through
// the impact, maximum dissipation over the polygon). This is the one-shot impulse law of
// time-stepping schemes, not Routh's integration of the impact process: for a contact whose normal
// and tangential rows are coupled (G_nt != 0) the two can differ, and with e > 0 the law can add
// energy when friction reverses the slip (Stewart's observation); the tests use uncoupled
// contacts, where they agree.
#include <stdexcept>
#include <string>

#include "friction_dynamics/lcp.hpp"
#include "friction_dynamics/steps.hpp"

namespace rbd::impacts {

// The velocity-level friction LCP for v_free (qd^-, or a time step's qd_free), given fws's T3 and
// H's factor at the current q: p into fws.f, the velocity after into v. target[i] is contact i's r_n.
template <class S>
void frictional_impulses(const PointContacts<S>& contacts, const VecX<S>& v_free, const VecX<S>& target,
                         FrictionWorkspace<S>& fws, VecX<S>& v) {
  const int nc = fws.nc;
  v = v_free;
  if (nc == 0) return;
  fws.g.noalias() = fws.T3.transpose() * v_free;  // u before the impulses
  for (int i = 0; i < nc; ++i) {
    fws.g[3 * i] -= target[i];
    fws.sliding[i] = 0;  // every contact in its pyramid (header)
  }
  friction::require_finite_rows<S>(fws);
  friction::build_lcp<S>(contacts, fws);
  friction::solve_lcp<S>(fws);
  fws.rhs.noalias() = fws.T3 * fws.f;
  fws.llt->solveInPlace(fws.rhs);
  v += fws.rhs;
}


// qd^+ for contacts touching at q with velocities qd^- (all candidates enter; one that is
// separating gets p = 0 unless others push it). ws.f holds the impulses after the call.
template <class S>
void friction_impact(const Model<S>& m, const PointContacts<S>& contacts, const VecX<S>& q, const VecX<S>& qd_minus,
                     FrictionWorkspace<S>& ws, VecX<S>& qd_plus) {
  check_restitution(contacts);
  // T3 and H = L L^T at q (dense_rows also forms the acceleration-level G and g; tau = 0 is
  // arbitrary there: a finite force delivers no impulse, Eq. 11.54).
  friction::dense_rows<S>(m, contacts, q, qd_minus, ws.zero, nullptr, ws);
  for (int i = 0; i < ws.nc; ++i) {
    const S zeta = ws.T3.col(3 * i).dot(qd_minus);
    ws.target[i] = zeta < S(0) ? S(-contacts[static_cast<std::size_t>(i)].restitution * zeta) : S(0);
  }
  frictional_impulses<S>(contacts, qd_minus, ws.target, ws, qd_plus);
}

}  // namespace rbd::impacts
