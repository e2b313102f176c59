#pragma once
// Compliant ("soft") contact, Featherstone section 11.8: each candidate point contact touches a
// massless surface patch held by springs and dampers (Figures 11.10-11.11), so its contact force
// is a function of the state -- positions, velocities and the patch's own deflections -- and the
// tree's accelerations come from any forward-dynamics routine with these forces as known inputs.
// No LCP, no impulses. This file: the parameters, the force law (Eqs. 11.75-11.79), the contact
// kinematics it reads, and f(state) for an integrator; soft_contact.hpp integrates it.
//
// Per contact (model/contact.hpp's point C' on body s against the plane of body p):
//  - p: the gap phi of Eq. 11.37 (gaps.hpp), negative when C' is below the undeformed surface;
//  - pdot: its rate, the book's zeta: n . u, u the velocity of C' relative to p's point at C
//    (contact_dynamics/steps.hpp's contact_point_motion);
//  - v: the slip, u in the plane, as (t1 . u, t2 . u) with t1 the contact's tangent and
//    t2 = n x t1 (the axes the friction family uses);
//  - z: the patch's normal deflection (0 undeformed, negative pressed in); x: its tangential
//    deflection in (t1, t2). Both are state variables (Eqs. 11.76-11.77).
// The force acts on s at C' along n f_n + t1 f_t1 + t2 f_t2, and its opposite on p (if p is a
// body): equal and opposite on one line, as Newton's third law needs.
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "contact_dynamics/steps.hpp"
#include "contact_simulation/gaps.hpp"
#include "forward_dynamics/aba.hpp"
#include "inverse_dynamics/rnea_spatial.hpp"

namespace rbd::simulation {

template <class S> using Vec2 = Eigen::Matrix<S, 2, 1>;

// The compliance of one contact's patch. Units: any consistent set; in SI the stiffnesses are in
// N/m and the dampings in N s/m, so K/D is a rate (1/s) at which a released patch recovers
// (z = z0 exp(-K t / D)) and the deflections z, x are in metres. Friction's mu is the contact's
// own (PointContact::friction). All four must be finite and > 0: Eqs. 11.76-11.77 divide by D,
// and K = 0 would leave a patch that never recovers.
template <class S> struct SoftContactParameters {
  S normal_stiffness = S(0);      // K_n: the patch's normal spring pulls it back with -K_n z
  S normal_damping = S(0);        // D_n: its normal damper resists with -D_n zdot
  S tangential_stiffness = S(0);  // K_t: per tangent direction, -K_t x
  S tangential_damping = S(0);    // D_t: per tangent direction, -D_t xdot
};

namespace soft_detail {
template <class S> bool finite(const S& v) {
  const S big = S(std::numeric_limits<double>::max());
  return v >= -big && v <= big;  // false for NaN and +-inf
}
template <class S> std::string text(const S& v) {
  std::ostringstream out;
  out << static_cast<double>(v);  // 6 significant digits: "-5", "1e-05", "nan"
  return out.str();
}
}  // namespace soft_detail

// One parameter set per contact, each field finite and > 0; each contact's mu finite and >= 0
// (and, when mu > 0, a unit tangent perpendicular to the normal: check_friction's rule, since
// the tangent frame carries x and f_t). Throws std::invalid_argument naming the contact and the
// field (the tangent check throws check_friction's ModelError).
template <class S>
void check_soft_contact_parameters(const PointContacts<S>& contacts, const std::vector<SoftContactParameters<S>>& params) {
  if (params.size() != contacts.size())
    throw std::invalid_argument("soft contact: " + std::to_string(params.size()) + " parameter sets for " +
                                std::to_string(contacts.size()) + " contacts (one each)");
  for (std::size_t i = 0; i < params.size(); ++i) {
    const SoftContactParameters<S>& k = params[i];
    const std::pair<const char*, const S*> fields[] = {{"normal_stiffness K_n", &k.normal_stiffness},
                                                       {"normal_damping D_n", &k.normal_damping},
                                                       {"tangential_stiffness K_t", &k.tangential_stiffness},
                                                       {"tangential_damping D_t", &k.tangential_damping}};
    for (const auto& [name, value] : fields)
      if (!(soft_detail::finite(*value) && *value > S(0)))
        throw std::invalid_argument("soft contact: " + contact_name(contacts, i) + ": " + name + " = " +
                                    soft_detail::text(*value) + " must be finite and > 0");
    const S mu = contacts[i].friction;
    if (!(soft_detail::finite(mu) && mu >= S(0)))
      throw std::invalid_argument("soft contact: " + contact_name(contacts, i) + ": friction mu = " + soft_detail::text(mu) +
                                  " must be finite and >= 0");
  }
  check_friction(contacts);
}

// What the force law returns for one contact.
template <class S> struct SoftContactForce {
  S normal = S(0);                               // f_n >= 0 (Eq. 11.75)
  Vec2<S> tangential = Vec2<S>::Zero();          // f_t in (t1, t2) (Eqs. 11.78-11.79)
  S z_rate = S(0);                               // zdot (Eq. 11.76)
  Vec2<S> x_rate = Vec2<S>::Zero();              // xdot (Eq. 11.77)
  bool sliding = false;                          // |f_stick| > mu f_n: f_t on the rim of its disc
};

// How the normal law of Eq. 11.75 decides between its two cases. The book's test is p = z
// (together) or p > z (apart); a computed p and z are never exactly equal, so a simulator that
// knows the case (it keeps z = p for a touching contact) says so: `touching` or `apart`.
// `compare` applies the book's test as written: apart if p > z, else together.
enum class SoftContactCase { compare, touching, apart };

// Eqs. 11.75-11.79 for one contact.
template <class S>
SoftContactForce<S> soft_contact_force(const SoftContactParameters<S>& k, const S& mu, const S& p, const S& pdot,
                                       const Vec2<S>& v, const S& z, const Vec2<S>& x,
                                       SoftContactCase which = SoftContactCase::compare) {
  SoftContactForce<S> out;
  // Eq. 11.75: apart (p > z), no force; together, the force that keeps the patch on the body
  // (zdot = pdot), -K_n z - D_n pdot with z = p -- unless it would pull: then 0, and the body
  // leaves faster than the patch can follow (the contact breaks).
  const bool together = which == SoftContactCase::compare ? !(p > z) : which == SoftContactCase::touching;
  if (together) {
    const S push = -k.normal_stiffness * p - k.normal_damping * pdot;
    out.normal = push > S(0) ? push : S(0);
  }
  // Eq. 11.76, the patch's motion (massless: spring, damper and contact force balance). While
  // pressed it gives zdot = pdot + (K_n / D_n) (p - z): the patch follows the body and any
  // difference between the integrated z and p decays at the rate K_n / D_n.
  out.z_rate = -(k.normal_stiffness * z + out.normal) / k.normal_damping;
  // Eq. 11.78: the tangential force that would stop the slip (xdot = v).
  const Vec2<S> stick = -k.tangential_stiffness * x - k.tangential_damping * v;
  // Eq. 11.79 bounds f_t to [-mu f_n, mu f_n] on the book's single tangent axis. In the plane the
  // natural extension (the book gives only the 1D rule) is the disc |f_t| <= mu f_n: f_stick if
  // it lies inside, else f_stick scaled back onto the rim, in its own direction. On one axis
  // this is Eq. 11.79 exactly. (size > limit >= 0 keeps the division away from 0.)
  const S limit = mu * out.normal, size = sqrt_(S(stick.squaredNorm()));
  out.sliding = size > limit;
  out.tangential = out.sliding ? Vec2<S>(stick * S(limit / size)) : stick;
  // Eq. 11.77, the patch's tangential motion (twice, once per tangent axis).
  out.x_rate = -(k.tangential_stiffness * x + out.tangential) / k.tangential_damping;
  return out;
}

// Where a contact is and how it moves (base coordinates).
template <class S> struct SoftContactPoint {
  S gap = S(0), gap_rate = S(0);             // p and pdot
  Vec2<S> slip = Vec2<S>::Zero();            // v in (t1, t2)
  Vec3<S> point, normal, t1, t2;             // C' and the contact's axes n, t1, t2 = n x t1
};

// Scratch for f(state), sized once: no allocation per call.
template <class S> struct SoftContactWorkspace {
  ForwardDynamicsWorkspace<S> fd;                // body frames, velocities (RNEA), the ABA
  VecX<S> phi, zero, bias;                       // gaps; qdd = 0 and C for the velocity pass
  ExternalForces<S> f_ext;                       // the contact forces, body coordinates
  std::vector<SoftContactPoint<S>> points;
  std::vector<SoftContactForce<S>> forces;
  SoftContactWorkspace(const Model<S>& m, std::size_t nc)
      : fd(m), phi(VecX<S>::Zero(static_cast<Eigen::Index>(nc))), zero(VecX<S>::Zero(m.nv)), bias(VecX<S>::Zero(m.nv)),
        f_ext(static_cast<std::size_t>(m.nb), Vec6<S>::Zero()), points(nc), forces(nc) {}
};

// p, pdot and v of every contact at (q, qd), into ws.points. p comes from gaps.hpp (which also
// leaves each body's ^iX_0 in ws.fd.X0); the velocities from the RNEA with qdd = 0, as the contact
// family's dense route makes them; u from contact_point_motion (its acceleration terms go unused).
template <class S>
void soft_contact_points(const Model<S>& m, const PointContacts<S>& contacts, const VecX<S>& q, const VecX<S>& qd,
                         SoftContactWorkspace<S>& ws) {
  contact_gaps<S>(m, contacts, q, ws.fd, ws.phi);
  RneaSpatial::run<S>(m, q, qd, ws.zero, nullptr, ws.bias, ws.fd);
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const PointContact<S>& c = contacts[i];
    const contacts::ContactPointMotion<S> k = contacts::contact_point_motion<S>(m, c, ws.fd.v, ws.fd.a, ws.fd.X0);
    auto in_base = [&](const Vec3<S>& d) { return c.p < 0 ? d : Vec3<S>(ws.fd.X0[c.p].E.transpose() * d); };
    SoftContactPoint<S>& pt = ws.points[i];
    pt.point = k.x;
    pt.normal = in_base(c.normal);
    pt.t1 = in_base(c.tangent);
    pt.t2 = cross<S>(pt.normal, pt.t1);
    pt.gap = ws.phi[static_cast<Eigen::Index>(i)];
    pt.gap_rate = pt.normal.dot(k.u);
    pt.slip = Vec2<S>(pt.t1.dot(k.u), pt.t2.dot(k.u));
  }
}

// f(state) for an integrator: the contact forces (into ws.forces), the patches' rates zdot and
// xdot (x and xdot hold (t1, t2) pairs: entries 2i, 2i + 1 for contact i), and qdd by the ABA
// with the contact forces as external forces (Table 7.1's f^x, body coordinates).
template <class S>
void soft_contact_dynamics(const Model<S>& m, const PointContacts<S>& contacts,
                           const std::vector<SoftContactParameters<S>>& params, const VecX<S>& q, const VecX<S>& qd,
                           const VecX<S>& tau, const VecX<S>& z, const VecX<S>& x,
                           const std::vector<SoftContactCase>& cases,
                           SoftContactWorkspace<S>& ws, VecX<S>& qdd, VecX<S>& z_rate, VecX<S>& x_rate) {
  soft_contact_points<S>(m, contacts, q, qd, ws);
  for (Vec6<S>& f : ws.f_ext) f.setZero();
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const Eigen::Index ii = static_cast<Eigen::Index>(i);
    const SoftContactPoint<S>& pt = ws.points[i];
    const SoftContactForce<S> f = soft_contact_force<S>(params[i], contacts[i].friction, pt.gap, pt.gap_rate, pt.slip,
                                                        z[ii], Vec2<S>(x.template segment<2>(2 * ii)), cases[i]);
    ws.forces[i] = f;
    z_rate[ii] = f.z_rate;
    x_rate.template segment<2>(2 * ii) = f.x_rate;
    // The force on s at C' as a spatial force at the base origin [C' x F; F], then into the
    // bodies' coordinates (^iX_0^*); p gets the opposite.
    const Vec3<S> F = pt.normal * f.normal + pt.t1 * f.tangential[0] + pt.t2 * f.tangential[1];
    const Vec6<S> f0 = join<S>(cross<S>(pt.point, F), F);
    const PointContact<S>& c = contacts[i];
    ws.f_ext[static_cast<std::size_t>(c.s)] += ws.fd.X0[c.s].apply_force(f0);
    if (c.p >= 0) ws.f_ext[static_cast<std::size_t>(c.p)] -= ws.fd.X0[c.p].apply_force(f0);
  }
  Aba::run<S>(m, q, qd, tau, &ws.f_ext, qdd, ws.fd);
}

}  // namespace rbd::simulation
