#pragma once
// Frictionless point contacts (Featherstone sections 11.1-11.4) on a kinematic tree: each is a
// point fixed in one body against a plane fixed in another (or in the base). A rigid-body system
// with contacts is the tree's Model plus a list of these, as a closed-loop system is the tree plus
// its loop joints (DESIGN.md section 11).
//
// Conventions (section 11.3):
//  - p is the predecessor: the body that carries the plane (-1: the fixed base); s is the
//    successor: the body that carries the point C'. p != s. A positive contact force pushes s
//    away from p.
//  - point: C' in s's body coordinates.
//  - normal, offset: the plane {x : normal . x = offset} in p's body coordinates (base
//    coordinates when p = -1); normal is a unit vector pointing out of the plane, towards s.
//  - phi(q) = normal . (C' in p's coordinates) - offset is the signed distance of Eq. 11.37:
//    phi = 0 is touching, and the contact constraint is phi >= 0. Sections 11.1-11.3 (and this
//    library's contact dynamics) treat contacts in state 3 of Figure 11.4: phi = 0 and
//    phi_dot = zeta = 0; the separation acceleration is then zeta_dot = phi_ddot (Eqs. 11.38-11.40).
//  - restitution: Newton's coefficient e in [0, 1] (Eq. 11.64), used only by impulsive dynamics
//    (impact_dynamics/): the ratio of separation velocities after and before an impact.
//  - friction, tangent, facets, slip_speed: Coulomb friction, used only by the friction family
//    (friction_dynamics/). friction is mu >= 0. tangent is t1, a unit vector in the plane (p's
//    coordinates, perpendicular to normal); t2 = normal x t1. The friction cone is replaced by the
//    pyramid spanned by normal + mu d_j, d_j = cos(2 pi j / k) t1 + sin(2 pi j / k) t2,
//    j = 0..k-1, k = facets >= 3 (the polyhedral cone of Stewart and Trinkle, 1996; the book
//    treats Coulomb friction only at impacts, Eq. 11.72, and in soft contact, Eq. 11.79). Its
//    orientation matters (a pyramid is not round), which is why t1 is data, not a choice of the
//    algorithm. A contact whose slip speed |u_t| (C' relative to p, in the plane) exceeds
//    slip_speed slides: its friction force is -mu lambda u_t / |u_t| exactly (the kinetic law,
//    no pyramid); otherwise it sticks and the static law acts through the pyramid.
//  - The contact point C is the foot of C' on the plane. It moves over the plane as C' slides,
//    so the normal's line of action moves in p: section 11.1's n_dot has a term for that besides
//    p's own motion (contact_dynamics/steps.hpp derives it).
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "model/model.hpp"

namespace rbd {

template <class S> struct PointContact {
  int p = -1, s = 0;
  Vec3<S> point = Vec3<S>::Zero();               // C', body s coordinates
  Vec3<S> normal = Vec3<S>(S(0), S(0), S(1));    // unit, body p (or base) coordinates
  S offset = S(0);                               // plane: normal . x = offset
  S restitution = S(0);                          // e of Eq. 11.64, in [0, 1]
  S friction = S(0);                             // Coulomb's mu >= 0 (friction family only)
  Vec3<S> tangent = Vec3<S>(S(1), S(0), S(0));   // t1: unit, perpendicular to normal, body p coordinates
  int facets = 4;                                // k >= 3: the friction pyramid's edges
  S slip_speed = S(1e-9);                        // |u_t| above this slides (kinetic friction)
  std::string name;

  // Exact cast, as LoopJoint::cast; the normal is re-normalised in T's precision, so a 50-digit
  // computation sees a unit normal, not one of length 1 +- 1e-16.
  template <class T> PointContact<T> cast() const {
    PointContact<T> out;
    out.p = p; out.s = s; out.name = name;
    out.point = point.template cast<T>();
    out.normal = normal.template cast<T>();
    out.normal /= sqrt_(T(out.normal.squaredNorm()));
    out.offset = scalar_cast<T>(offset);
    out.restitution = scalar_cast<T>(restitution);
    out.friction = scalar_cast<T>(friction);
    out.facets = facets;
    out.slip_speed = scalar_cast<T>(slip_speed);
    // The tangent made exactly perpendicular and unit in T, unless it is (nearly) parallel to the
    // normal: then it is left as it is, for check_friction to name when mu > 0 (the frictionless
    // families never read it, and the default x axis is parallel to an x normal).
    out.tangent = tangent.template cast<T>();
    const Vec3<T> t = out.tangent - out.normal * T(out.normal.dot(out.tangent));
    if (T(t.squaredNorm()) > T(0.25)) out.tangent = t / sqrt_(T(t.squaredNorm()));
    return out;
  }
};

template <class S> using PointContacts = std::vector<PointContact<S>>;

template <class T, class S> PointContacts<T> cast_contacts(const PointContacts<S>& c) {
  PointContacts<T> out;
  out.reserve(c.size());
  for (const auto& x : c) out.push_back(x.template cast<T>());
  return out;
}

template <class S> std::string contact_name(const PointContacts<S>& c, std::size_t i) {
  return "contact " + std::to_string(i) + (c[i].name.empty() ? "" : " '" + c[i].name + "'");
}

// What can be checked without a state, in any scalar: bodies that exist and p != s.
template <class S> void check_contact_bodies(const Model<S>& m, const PointContacts<S>& contacts) {
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const auto& c = contacts[i];
    auto body_ok = [&](int b) { return b >= -1 && b < m.nb; };
    if (!body_ok(c.p) || !body_ok(c.s) || c.s < 0)
      throw ModelError(contact_name(contacts, i) + ": plane body p = " + std::to_string(c.p) + " / point body s = " +
                       std::to_string(c.s) + " is not valid for model '" + m.name + "' (p is -1 for the base or 0.." +
                       std::to_string(m.nb - 1) + "; s is 0.." + std::to_string(m.nb - 1) + ")");
    if (c.p == c.s)
      throw ModelError(contact_name(contacts, i) + ": the plane and the point are both on body " + std::to_string(c.p) +
                       " (a contact needs two different bodies)");
  }
}

// Newton's e of every contact within [0, 1] (Eq. 11.64: e = 1 keeps the separation speed, e = 0
// stops it; outside, an impact would create energy or reverse the approach), in any scalar, so
// the impact family checks it on every call. Throws ModelError naming the contact.
template <class S> void check_restitution(const PointContacts<S>& contacts) {
  for (std::size_t i = 0; i < contacts.size(); ++i)
    if (!(contacts[i].restitution >= S(0) && contacts[i].restitution <= S(1)))
      throw ModelError(contact_name(contacts, i) + ": the restitution coefficient e = " +
                       std::to_string(static_cast<double>(contacts[i].restitution)) + " is outside [0, 1] (Eq. 11.64)");
}

// The friction data of every contact (friction_dynamics/), in any scalar: mu >= 0 and finite,
// k >= 3 facets (fewer cannot surround the origin of the tangent plane) and at most 64 (beyond,
// the pyramid is within 0.12% of the cone and the LCP only grows), slip_speed > 0 and finite,
// and, when mu > 0, a unit tangent perpendicular to the normal to eps^(3/4) (2e-12 in double,
// the 1e-12 validate_contacts allows a typed normal; a cast re-makes t1 exact in the target
// scalar, so Reference meets its own 1e-38). A tangent tilted by d turns every pyramid edge by
// d, an O(d) error in the friction forces. Throws ModelError naming the contact.
template <class S> void check_friction(const PointContacts<S>& contacts) {
  const S big = S(std::numeric_limits<double>::max());
  const S root = sqrt_(S(Eigen::NumTraits<S>::epsilon())), tol = root * sqrt_(root);  // eps^(3/4)
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const auto& c = contacts[i];
    if (!(c.friction >= S(0) && c.friction <= big))
      throw ModelError(contact_name(contacts, i) + ": the friction coefficient mu = " +
                       std::to_string(static_cast<double>(c.friction)) + " must be finite and >= 0");
    if (c.facets < 3 || c.facets > 64)
      throw ModelError(contact_name(contacts, i) + ": the friction pyramid needs 3 to 64 facets, not " +
                       std::to_string(c.facets));
    if (!(c.slip_speed > S(0) && c.slip_speed <= big))
      throw ModelError(contact_name(contacts, i) + ": slip_speed = " + std::to_string(static_cast<double>(c.slip_speed)) +
                       " must be finite and > 0");
    if (c.friction > S(0) &&
        !(abs_(S(c.tangent.squaredNorm() - S(1))) <= tol && abs_(S(c.tangent.dot(c.normal))) <= tol))
      throw ModelError(contact_name(contacts, i) + ": the tangent t1 must be a unit vector perpendicular to the normal "
                       "(|t1|^2 - 1 = " + std::to_string(static_cast<double>(c.tangent.squaredNorm() - S(1))) +
                       ", t1 . normal = " + std::to_string(static_cast<double>(c.tangent.dot(c.normal))) + ")");
  }
}

// Checks the contacts' data in double: bodies, p != s, finite numbers, a unit normal (to 1e-12,
// the tolerance ModelBuilder uses for a rotation typed with ~16 digits), e in [0, 1]. Throws
// ModelError naming the contact and the problem.
inline void validate_contacts(const Model<double>& m, const PointContacts<double>& contacts) {
  check_contact_bodies(m, contacts);
  check_restitution(contacts);
  check_friction(contacts);
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const auto& c = contacts[i];
    if (!c.point.allFinite()) throw ModelError(contact_name(contacts, i) + ": the point has a non-finite coordinate");
    if (!c.normal.allFinite() || !std::isfinite(c.offset))
      throw ModelError(contact_name(contacts, i) + ": the plane (normal, offset) has a non-finite entry");
    if (!(std::abs(c.normal.norm() - 1) < 1e-12))
      throw ModelError(contact_name(contacts, i) + ": the plane's normal must be a unit vector (to 1e-12); its length is " +
                       std::to_string(c.normal.norm()));
  }
}

}  // namespace rbd
