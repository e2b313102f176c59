#pragma once
// Closest points of the primitive pieces the shapes are made of: a point and a segment, two
// segments, a point and a box. A sphere is a point grown by its radius and a capsule a segment
// grown by its radius, so their queries reduce to these ("cores"), then subtract the radii.
#include <algorithm>

#include "contact_geometry/contact_set.hpp"

namespace rbd::geometry {

template <class S> S clamp_(const S& x, const S& lo, const S& hi) { return std::min<S>(std::max<S>(x, lo), hi); }

// A unit vector perpendicular to the unit vector u: u crossed with the axis it is least aligned
// with (that axis makes an angle of at least 54.7 degrees with u, so the cross product is never
// short).
template <class S> Vec3<S> any_perpendicular(const Vec3<S>& u) {
  const Vec3<S> a = u.cwiseAbs();
  const Vec3<S> e = (a.x() <= a.y() && a.x() <= a.z()) ? Vec3<S>::UnitX()
                    : (a.y() <= a.z())                  ? Vec3<S>::UnitY()
                                                        : Vec3<S>::UnitZ();
  const Vec3<S> w = cross<S>(u, e);
  return w / sqrt_(S(w.squaredNorm()));
}

// The segment {c + t u : -h <= t <= h} (u unit) as a capsule's core in world coordinates.
template <class S> struct Segment {
  Vec3<S> c, u;
  S h;
  Vec3<S> at(const S& t) const { return c + t * u; }
  Vec3<S> end(int sign) const { return c + S(sign) * h * u; }
};

template <class S> S closest_parameter(const Segment<S>& s, const Vec3<S>& x) {
  return clamp_<S>(s.u.dot(x - s.c), -s.h, s.h);
}

// Closest points of two segments, as parameters (ta on a, tb on b). Ericson's method (Real-Time
// Collision Detection, section 5.1.9) on unit directions: the unconstrained minimiser of
// |a(ta) - b(tb)|^2 is clamped to a's range, tb is then the best for that ta, and if tb had to be
// clamped ta is re-optimised for the clamped tb. Parallel segments (denominator 1 - (ua.ub)^2 = 0)
// take ta = -h_a, which with the re-optimisation gives one of the pairs at minimal distance
// (parallel segments have a whole interval of them; shape_pairs.hpp's capsule_capsule reports its ends). Near
// parallel, the clamped ta may be inexact, but the distance is then flat along the pair of
// segments, so its error is second order in that of ta.
template <class S> void closest_parameters(const Segment<S>& a, const Segment<S>& b, S& ta, S& tb) {
  const Vec3<S> r = a.c - b.c;
  const S B = a.u.dot(b.u), C = a.u.dot(r), F = b.u.dot(r);
  const S denom = S(1) - B * B;  // sin^2 of the angle between the segments
  ta = denom > S(0) ? clamp_<S>((B * F - C) / denom, -a.h, a.h) : S(-a.h);
  tb = B * ta + F;
  if (tb < -b.h) {
    tb = -b.h;
    ta = clamp_<S>(-B * b.h - C, -a.h, a.h);
  } else if (tb > b.h) {
    tb = b.h;
    ta = clamp_<S>(B * b.h - C, -a.h, a.h);
  }
}

// Closest point of the box |x_i| <= h_i (its own coordinates) to p, and how many coordinates
// were clamped: 0 inside, 1 over a face (its normal is then exactly the clamped axis), 2 over an
// edge, 3 over a corner.
template <class S> Vec3<S> closest_on_box(const Vec3<S>& h, const Vec3<S>& p, int& clamped, int& axis) {
  Vec3<S> q;
  clamped = 0;
  axis = 0;
  for (int i = 0; i < 3; ++i) {
    q[i] = clamp_<S>(p[i], -h[i], h[i]);
    if (q[i] != p[i]) {
      ++clamped;
      axis = i;
    }
  }
  return q;
}

// The contact point of two cores P (on a's) and Q (on b's) grown by radii ra and rb: normal
// along Q - P, distance |Q - P| - ra - rb, point on b's surface. When the cores meet (P = Q) the
// direction is undefined and `fallback` is used.
template <class S>
ContactPoint<S> grown_cores(const Vec3<S>& P, const Vec3<S>& Q, const S& ra, const S& rb, const Vec3<S>& fallback) {
  const Vec3<S> d = Q - P;
  const S len = sqrt_(S(d.squaredNorm()));
  const Vec3<S> n = len > S(0) ? Vec3<S>(d / len) : fallback;
  return ContactPoint<S>{Vec3<S>(Q - rb * n), n, S(len - ra - rb)};
}

}  // namespace rbd::geometry
