#pragma once
// From geometry to the suite's contacts: each point of a ContactSet becomes a PointContact
// (model/contact.hpp) between the bodies that carry the two shapes, so the contact, impact and
// friction families run on contacts the geometry found rather than on contacts typed by hand
// (cases/contact_scenes.hpp).
//
// The mapping: b's body is the successor s, which carries the point C' (the contact point on b's
// surface, in s's coordinates); a's body is the predecessor p, which carries the plane through
// a's witness point (point - distance * normal) with the contact normal, in p's coordinates. Then
// phi = normal . C' - offset equals the query's distance at this instant, and a positive contact
// force pushes b away from a, as the normal says. A base-fixed shape can only carry the plane
// (s must be a body): a pair whose b is on the base is turned round first.
//
// The contacts are the geometry frozen at the instant of the query: C' stays fixed in s and the
// plane in p. That is exact for a corner on a face (Figure 11.7(a), (c)) and right to first order
// for curved surfaces (phi and its rate match the true distance's; its second derivative does not,
// because the true contact point rolls over a curved surface): a simulator re-runs the query as
// the bodies move, which is what section 11.6's geometric events ask of it.
#include <stdexcept>
#include <string>

#include "contact_geometry/closest_points.hpp"
#include "model/contact.hpp"

namespace rbd::geometry {

// body_a, body_b: the bodies' ^iX_0 (identity for the base, index -1). name labels the contacts
// "name #k".
template <class S>
PointContacts<S> to_point_contacts(const ContactSet<S>& set, int a, const Transform<S>& body_a, int b,
                                   const Transform<S>& body_b, const std::string& name = "") {
  if (a == b)
    throw std::invalid_argument("contact geometry: '" + name + "': both shapes are on body " + std::to_string(a) +
                                " (a contact needs two different bodies)");
  if (b < 0) return to_point_contacts(flipped(set), b, body_b, a, body_a, name);
  PointContacts<S> out;
  for (std::size_t k = 0; k < set.points.size(); ++k) {
    const ContactPoint<S>& x = set.points[k];
    PointContact<S> c;
    c.p = a;
    c.s = b;
    c.point = body_b.E * (x.point - body_b.r);     // world -> s coordinates
    c.normal = body_a.E * x.normal;                // world -> p coordinates (a direction)
    c.offset = c.normal.dot(body_a.E * (x.on_a() - body_a.r));
    // A valid t1 for the friction family (unit, perpendicular to the normal); mu stays 0 and
    // restitution 0 until the caller sets them, as the pyramid's orientation is the caller's too.
    c.tangent = any_perpendicular<S>(c.normal);
    c.name = name + " #" + std::to_string(k);
    out.push_back(c);
  }
  return out;
}

// The same, with the bodies read off the shapes (any two of the four kinds).
template <class S, class A, class B>
PointContacts<S> to_point_contacts(const ContactSet<S>& set, const A& a, const Transform<S>& body_a, const B& b,
                                   const Transform<S>& body_b) {
  return to_point_contacts(set, a.body, body_a, b.body, body_b, shape_label(a) + " / " + shape_label(b));
}

}  // namespace rbd::geometry
