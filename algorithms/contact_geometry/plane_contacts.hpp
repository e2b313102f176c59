#pragma once
// A sphere, a box or a capsule (b) against a plane (a). The plane is a half-space, so the signed
// distance of a point x is n . x - offset and the normal is the plane's everywhere: each query is
// the distances of b's candidate features. A sphere has one (its lowest point); a capsule two
// (the lowest points of its end caps: a capsule lying on the plane touches along its whole core,
// a line contact of Figure 11.7(a), which the two ends represent); a box eight (its corners: a
// face lying on the plane gives the four corners of Figure 11.7(c)'s convex hull, an edge its two
// ends, a corner itself). Which candidates are reported: contact_set.hpp's report_threshold.
#include <array>
#include <vector>

#include "contact_geometry/closest_points.hpp"

namespace rbd::geometry {

// The plane in world coordinates: {x : n . x = o}.
template <class S> struct WorldPlane {
  Vec3<S> n;
  S o;
  S distance(const Vec3<S>& x) const { return n.dot(x) - o; }
};

template <class S> WorldPlane<S> world_plane(const Plane<S>& a, const Transform<S>& body_a) {
  const Frame<S> F = frame_of(a.pose, body_a);
  const Vec3<S> n = F.R * a.normal;
  return WorldPlane<S>{n, S(a.offset + n.dot(F.c))};
}

namespace detail {
template <class S> void check_pair(const Transform<S>& body_a, const Transform<S>& body_b, const auto& a, const auto& b) {
  validate(a);
  validate(b);
  validate_body_pose(body_a, shape_label(a));
  validate_body_pose(body_b, shape_label(b));
}

// The candidates (point on b, distance) within report_threshold of the smallest distance.
template <class S> ContactSet<S> keep_within(const std::vector<ContactPoint<S>>& candidates, const S& margin) {
  S dmin = candidates.front().distance;
  for (const ContactPoint<S>& c : candidates) dmin = std::min<S>(dmin, c.distance);
  const S threshold = report_threshold<S>(dmin, margin);
  ContactSet<S> out{dmin, {}};
  for (const ContactPoint<S>& c : candidates)
    if (c.distance <= threshold) out.points.push_back(c);
  return out;
}
}  // namespace detail

template <class S>
ContactSet<S> plane_sphere(const Plane<S>& a, const Transform<S>& body_a, const Sphere<S>& b, const Transform<S>& body_b) {
  detail::check_pair(body_a, body_b, a, b);
  const WorldPlane<S> P = world_plane(a, body_a);
  const Vec3<S> c = frame_of(b.pose, body_b).c;
  const ContactPoint<S> p{Vec3<S>(c - b.radius * P.n), P.n, S(P.distance(c) - b.radius)};
  return ContactSet<S>{p.distance, {p}};
}

template <class S>
ContactSet<S> plane_capsule(const Plane<S>& a, const Transform<S>& body_a, const Capsule<S>& b,
                            const Transform<S>& body_b, const S& margin) {
  detail::check_pair(body_a, body_b, a, b);
  check_margin(margin);
  const WorldPlane<S> P = world_plane(a, body_a);
  const Frame<S> F = frame_of(b.pose, body_b);
  std::vector<ContactPoint<S>> ends;
  for (int sign : {-1, 1}) {
    const Vec3<S> e = F.c + S(sign) * b.half_length * F.R.col(2);
    ends.push_back(ContactPoint<S>{Vec3<S>(e - b.radius * P.n), P.n, S(P.distance(e) - b.radius)});
  }
  return detail::keep_within(ends, margin);
}

// The eight corners of a box (world), in the order of the sign patterns (-,-,-), (+,-,-), ...
template <class S> std::array<Vec3<S>, 8> box_corners(const Frame<S>& F, const Vec3<S>& h) {
  std::array<Vec3<S>, 8> v;
  for (int k = 0; k < 8; ++k) {
    const Vec3<S> x((k & 1) ? h.x() : S(-h.x()), (k & 2) ? h.y() : S(-h.y()), (k & 4) ? h.z() : S(-h.z()));
    v[static_cast<std::size_t>(k)] = F.to_world(x);
  }
  return v;
}

template <class S>
ContactSet<S> plane_box(const Plane<S>& a, const Transform<S>& body_a, const Box<S>& b, const Transform<S>& body_b,
                        const S& margin) {
  detail::check_pair(body_a, body_b, a, b);
  check_margin(margin);
  const WorldPlane<S> P = world_plane(a, body_a);
  std::vector<ContactPoint<S>> corners;
  for (const Vec3<S>& v : box_corners(frame_of(b.pose, body_b), b.half_extents))
    corners.push_back(ContactPoint<S>{v, P.n, P.distance(v)});
  return detail::keep_within(corners, margin);
}

}  // namespace rbd::geometry
