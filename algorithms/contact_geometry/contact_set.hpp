#pragma once
// What every narrow-phase query returns: the signed distance of a pair of shapes (a, b) and
// the contact points that model their closest (or deepest) features, in world coordinates.
//
// Conventions (README.md):
//  - the normal is a unit vector pointing out of a, towards b: a positive force along it pushes
//    b away from a, as PointContact's normal pushes s away from p (model/contact.hpp);
//  - distance is signed: > 0 separated, 0 touching, < 0 penetrating (minus the depth);
//  - point lies on b's surface; point - distance * normal lies on a's surface (on_a()), so each
//    point is a pair of witness points joined along its normal.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "contact_geometry/shapes.hpp"

namespace rbd::geometry {

template <class S> struct ContactPoint {
  Vec3<S> point = Vec3<S>::Zero();                  // on b's surface, world coordinates
  Vec3<S> normal = Vec3<S>(S(0), S(0), S(1));       // unit, world, from a towards b
  S distance = S(0);                                // signed gap along normal at this point
  Vec3<S> on_a() const { return point - distance * normal; }
};

// distance is the pair's signed distance (the true Euclidean distance when separated, minus the
// penetration depth when not); points is never empty. A point's own distance is that of its
// feature pair: for a face lying on a plane, every corner has its own (within the margin).
template <class S> struct ContactSet {
  S distance = S(0);
  std::vector<ContactPoint<S>> points;
};

// The same contacts seen from the other side: the pair (b, a). The witness points swap, the
// normals turn round, the distances stay.
template <class S> ContactSet<S> flipped(const ContactSet<S>& x) {
  ContactSet<S> out{x.distance, {}};
  out.points.reserve(x.points.size());
  for (const ContactPoint<S>& p : x.points) out.points.push_back(ContactPoint<S>{p.on_a(), Vec3<S>(-p.normal), p.distance});
  return out;
}

// Which of several candidate features (a box's corners, a capsule's two ends, the clipped corners
// of a face) a query reports: those whose distance is at most max(d, 0) + margin, with d the
// pair's distance. Penetrating or touching, that is every candidate below the margin (the
// features in contact); separated by more than the margin, the candidates within the margin of
// the closest, so a face hovering parallel over a plane still gives its whole face. The margin
// is a length, >= 0; it must exceed the round-off of the candidates' distances (a face lying on a
// plane in double has corners whose distances differ by ~1e-16 times the size) for a face or an
// edge to be reported whole.
template <class S> S report_threshold(const S& distance, const S& margin) {
  return std::max<S>(distance, S(0)) + margin;
}

template <class S> void check_margin(const S& margin) {
  if (!(detail::finite_(margin) && margin >= S(0)))
    throw std::invalid_argument("contact geometry: the margin must be finite and >= 0 (got " + detail::num(margin) + ")");
}

}  // namespace rbd::geometry
