#pragma once
// What both loop-contact variants compute before they solve: the closed-loop family's terms (the
// tree's C by the RNEA, H by the CRBA, tau' = tau - C + tau^a, and K, k of Table 8.4), then the
// contacts' columns T and rates T_dot^T qd (Eqs. 11.25, 11.30-11.31) from the same pass: the
// ^iX_0 and base-coordinate S_i that Table 8.4 made, and the RNEA's v_i and a_i^vp. After M and
// d, both also release the contacts the loops hold (release_held_contacts, below).
#include <stdexcept>
#include <string>

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

// The rounding d_i carries for a held contact, where its terms cancel: rank_tol times a bound on
// the size of the terms it sums -- T_dot^T qd's (the bodies' a_i^vp carry gravity's offset -a_g,
// which meets the normal's direction n3 and cancels in a_s - a_p; centripetal terms ~ |t_i|
// |qd|^2, |t_i| a lever arm for a revolute joint) and t_i . acc's, acc the acceleration d is
// formed with (g, or the loop-closed qdd_0) -- plus |T_dot^T qd| itself.
template <class S>
S held_d_tolerance(const Model<S>& m, const ContactWorkspace<S>& c, int i, const VecX<S>& acc, const VecX<S>& qd,
                   const S& rank_tol) {
  S acc_max = S(0), qd_max = S(0);
  for (Eigen::Index j = 0; j < acc.size(); ++j) acc_max = std::max(acc_max, S(abs_(acc[j])));
  for (Eigen::Index j = 0; j < qd.size(); ++j) qd_max = std::max(qd_max, S(abs_(qd[j])));
  S t1 = S(0), n1 = S(0);
  for (Eigen::Index j = 0; j < c.T.rows(); ++j) t1 += abs_(c.T(j, i));
  for (int j = 3; j < 6; ++j) n1 += abs_(c.normal(j, i));  // n3, the line's direction
  return rank_tol * (abs_(c.Tdot_qd[i]) + t1 * (acc_max + qd_max * qd_max) + m.gravity.norm() * n1);
}

// Contacts the loops hold entirely (a contact on a foot the loops weld to the ground): every
// motion the loops allow leaves the contact's separation alone, so its row and column of M are
// zero in exact arithmetic and rounding in practice, where a pivoting solver would divide by them
// (Lemke's ray, Dantzig's "no solution"). Its force changes nothing but the loops' multipliers,
// and its zeta_dot = d_i is what the loops impose. held(i) says whether contact i is held (each
// variant decides it with its own test, relative to the same rank tolerance as the loops'); it
// gets a diagonal entry of the size of the others (the largest unreleased M_jj, 1 if none: the
// pivoting solvers' tolerances scale with max |M|) and its other entries 0, which makes its
// lambda 0 and leaves the rest of the LCP as it was. A held contact that the loops drive into
// its surface (d_i below -d_tol(i), the rounding d_i carries) has no solution: no contact force
// can act on it. Within it, d_i is rounding and is set to 0. Both variants run this step.
template <class S, class Held, class Tol>
void release_held_contacts(ContactWorkspace<S>& c, Held&& held, Tol&& d_tol, const char* variant) {
  S diag = S(0);
  bool any = false;
  for (int i = 0; i < c.nc; ++i) {
    if (held(i)) {
      any = true;
      if (c.d[i] < -d_tol(i))
        throw std::domain_error(std::string(variant) + ": contact " + std::to_string(i) +
                                " is held by the loops (no motion they allow moves it along its normal), and they "
                                "drive it into its surface: the LCP of Eq. 11.42 has no solution");
    } else {
      diag = std::max(diag, S(c.M(i, i)));
    }
  }
  if (!any) return;
  if (!(diag > S(0))) diag = S(1);
  for (int i = 0; i < c.nc; ++i) {
    if (!held(i)) continue;
    if (c.d[i] < S(0)) c.d[i] = S(0);
    c.M.row(i).setZero();
    c.M.col(i).setZero();
    c.M(i, i) = diag;
  }
}

}  // namespace rbd::loop_contacts
