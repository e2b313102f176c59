#pragma once
// Sphere-sphere, sphere-capsule, capsule-capsule and box-sphere: the pairs whose queries are a
// closest-point problem between cores (closest_points.hpp) followed by the radii. a is the first
// argument; the normal points from a to b (contact_set.hpp).
#include "contact_geometry/plane_contacts.hpp"

namespace rbd::geometry {

template <class S> Segment<S> core_of(const Capsule<S>& x, const Transform<S>& body) {
  const Frame<S> F = frame_of(x.pose, body);
  return Segment<S>{F.c, Vec3<S>(F.R.col(2)), x.half_length};
}

// Concentric spheres have no direction of least penetration; the world z axis is taken.
template <class S>
ContactSet<S> sphere_sphere(const Sphere<S>& a, const Transform<S>& body_a, const Sphere<S>& b,
                            const Transform<S>& body_b) {
  detail::check_pair(body_a, body_b, a, b);
  const ContactPoint<S> p = grown_cores<S>(frame_of(a.pose, body_a).c, frame_of(b.pose, body_b).c, a.radius, b.radius,
                                           Vec3<S>::UnitZ());
  return ContactSet<S>{p.distance, {p}};
}

// A sphere centred on the capsule's core takes a direction perpendicular to the core.
template <class S>
ContactSet<S> sphere_capsule(const Sphere<S>& a, const Transform<S>& body_a, const Capsule<S>& b,
                             const Transform<S>& body_b) {
  detail::check_pair(body_a, body_b, a, b);
  const Vec3<S> P = frame_of(a.pose, body_a).c;
  const Segment<S> B = core_of(b, body_b);
  const ContactPoint<S> p = grown_cores<S>(P, B.at(closest_parameter(B, P)), a.radius, b.radius, any_perpendicular(B.u));
  return ContactSet<S>{p.distance, {p}};
}

// Two capsules: the closest points of their cores. Crossing cores take the common perpendicular
// ua x ub as the normal (oriented from a's centre towards b's), parallel ones a perpendicular of
// a's core. A pair lying side by side (parallel, or nearly, and overlapping along their length
// by more than the margin) touches along a line: it is reported by the two ends of the overlap,
// as Figure 11.7(a)'s edge on a plane, when both are within the margin of the closest pair's
// distance; otherwise by the closest pair alone. (Not report_threshold's "every candidate below
// the margin": the ends of the overlap are not features of either capsule but depend on which
// core is projected on the other, so they stand for the contact only where the distance along
// the overlap is constant to within the margin, the same from either side. Two capsules crossing
// deep inside each other keep their single deepest point.)
template <class S>
ContactSet<S> capsule_capsule(const Capsule<S>& a, const Transform<S>& body_a, const Capsule<S>& b,
                              const Transform<S>& body_b, const S& margin) {
  detail::check_pair(body_a, body_b, a, b);
  check_margin(margin);
  const Segment<S> A = core_of(a, body_a), B = core_of(b, body_b);
  S ta, tb;
  closest_parameters(A, B, ta, tb);
  Vec3<S> fallback = cross<S>(A.u, B.u);
  fallback = fallback.squaredNorm() > S(0) ? Vec3<S>(fallback / sqrt_(S(fallback.squaredNorm()))) : any_perpendicular(A.u);
  if (fallback.dot(B.c - A.c) < S(0)) fallback = -fallback;
  const ContactPoint<S> best = grown_cores<S>(A.at(ta), B.at(tb), a.radius, b.radius, fallback);
  ContactSet<S> out{best.distance, {best}};
  // The overlap of b's core projected on a's axis.
  const S t0 = A.u.dot(B.end(-1) - A.c), t1 = A.u.dot(B.end(1) - A.c);
  const S lo = std::max<S>(-A.h, std::min<S>(t0, t1)), hi = std::min<S>(A.h, std::max<S>(t0, t1));
  if (hi - lo > margin) {
    const S threshold = best.distance + margin;
    std::vector<ContactPoint<S>> ends;
    for (const S& t : {lo, hi}) {
      const Vec3<S> P = A.at(t);
      ends.push_back(grown_cores<S>(P, B.at(closest_parameter(B, P)), a.radius, b.radius, best.normal));
    }
    if (ends[0].distance <= threshold && ends[1].distance <= threshold) out.points = ends;
  }
  return out;
}

// A sphere (b) against a box (a): the closest point of the box to the centre. A centre inside
// the box is pushed out through the nearest face, whose normal is then the contact normal and
// whose depth (plus the radius) the penetration.
template <class S>
ContactSet<S> box_sphere(const Box<S>& a, const Transform<S>& body_a, const Sphere<S>& b, const Transform<S>& body_b) {
  detail::check_pair(body_a, body_b, a, b);
  const Frame<S> F = frame_of(a.pose, body_a);
  const Vec3<S> c = frame_of(b.pose, body_b).c;
  const Vec3<S> p = F.to_local(c), h = a.half_extents;
  int clamped = 0, axis = 0;
  const Vec3<S> q = closest_on_box<S>(h, p, clamped, axis);
  ContactPoint<S> out;
  if (clamped > 0) {
    out = grown_cores<S>(F.to_world(q), c, S(0), b.radius, Vec3<S>::UnitZ());  // q != p: never the fallback
  } else {
    int k = 0;
    for (int i = 1; i < 3; ++i)
      if (h[i] - abs_(p[i]) < h[k] - abs_(p[k])) k = i;
    const Vec3<S> n = (p[k] >= S(0) ? S(1) : S(-1)) * Vec3<S>(F.R.col(k));
    out = ContactPoint<S>{Vec3<S>(c - b.radius * n), n, S(abs_(p[k]) - h[k] - b.radius)};
  }
  return ContactSet<S>{out.distance, {out}};
}

}  // namespace rbd::geometry
