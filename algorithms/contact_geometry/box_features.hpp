#pragma once
// The pieces that box-box and box-capsule share: a box in world coordinates with its corners,
// edges and support radius, the closest points between a box's features and another feature with
// the normal taken from the features' structure wherever it is defined (a point over a face takes
// the face's normal exactly, crossing edges their common perpendicular), the separating-axis
// value of an axis, and which face a normal lies along.
#include <array>
#include <limits>

#include "contact_geometry/shape_pairs.hpp"

namespace rbd::geometry {

template <class S> struct WorldBox {
  Frame<S> F;
  Vec3<S> h;
  Vec3<S> axis(int i) const { return F.R.col(i); }
  // Half the length of the box's projection on the unit vector L.
  S radius(const Vec3<S>& L) const {
    return h[0] * abs_(S(L.dot(axis(0)))) + h[1] * abs_(S(L.dot(axis(1)))) + h[2] * abs_(S(L.dot(axis(2))));
  }
  // The edge along axis i through the corner with signs sj, sk on the other two axes.
  Segment<S> edge(int i, const S& sj, const S& sk) const {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    return Segment<S>{Vec3<S>(F.c + sj * h[j] * axis(j) + sk * h[k] * axis(k)), axis(i), h[i]};
  }
  std::array<Segment<S>, 12> edges() const {
    std::array<Segment<S>, 12> e;
    int n = 0;
    for (int i = 0; i < 3; ++i)
      for (int s = 0; s < 4; ++s) e[static_cast<std::size_t>(n++)] = edge(i, S((s & 1) ? 1 : -1), S((s & 2) ? 1 : -1));
    return e;
  }
  // The edge along axis i that reaches furthest along L (either, where L is perpendicular to a face).
  Segment<S> support_edge(int i, const Vec3<S>& L) const {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    return edge(i, L.dot(axis(j)) >= S(0) ? S(1) : S(-1), L.dot(axis(k)) >= S(0) ? S(1) : S(-1));
  }
};

template <class S> WorldBox<S> world_box(const Box<S>& x, const Transform<S>& body) {
  return WorldBox<S>{frame_of(x.pose, body), x.half_extents};
}

// A pair of closest points, on_a and on_b, |on_b - on_a| = dist, with the normal from a to b.
template <class S> struct Witness {
  Vec3<S> on_a, on_b, n;
  S dist = S(std::numeric_limits<double>::infinity());
  void consider(const Witness& w) {
    if (w.dist < dist) *this = w;
  }
};

// The closest point of box X to the point x outside it, as a witness from the box to x. Over a
// face (one coordinate clamped) the normal is the face's, exactly: computed from the difference
// it would lose its direction as the gap shrinks to round-off, and face_along (below) needs it.
template <class S> Witness<S> point_box_witness(const WorldBox<S>& X, const Vec3<S>& x) {
  const Vec3<S> p = X.F.to_local(x);
  int clamped = 0, axis = 0;
  const Vec3<S> q = closest_on_box<S>(X.h, p, clamped, axis);
  Witness<S> w;
  w.on_a = X.F.to_world(q);
  w.on_b = x;
  const Vec3<S> d = x - w.on_a;
  w.dist = sqrt_(S(d.squaredNorm()));
  if (clamped == 1)
    w.n = (p[axis] > S(0) ? S(1) : S(-1)) * Vec3<S>(X.axis(axis));
  else
    w.n = w.dist > S(0) ? Vec3<S>(d / w.dist) : Vec3<S>::UnitZ();
  return w;
}

// Closest points of two segments as a witness from a to b. Where both lie strictly inside their
// segments and the segments are not parallel, the normal is the common perpendicular (for the
// same reason as above).
template <class S> Witness<S> segment_witness(const Segment<S>& a, const Segment<S>& b) {
  S ta, tb;
  closest_parameters(a, b, ta, tb);
  Witness<S> w;
  w.on_a = a.at(ta);
  w.on_b = b.at(tb);
  const Vec3<S> d = w.on_b - w.on_a;
  w.dist = sqrt_(S(d.squaredNorm()));
  const Vec3<S> c = cross<S>(a.u, b.u);
  if (abs_(ta) < a.h && abs_(tb) < b.h && c.squaredNorm() > S(0)) {
    w.n = c / sqrt_(S(c.squaredNorm()));
    if (w.n.dot(d) < S(0)) w.n = -w.n;
  } else {
    w.n = w.dist > S(0) ? Vec3<S>(d / w.dist) : Vec3<S>::UnitZ();
  }
  return w;
}

// A separating axis: s = |L . d| - (radius of a) - (radius of b) along the unit L, with d the
// centre of b minus the centre of a; L oriented from a to b. s > 0 proves the shapes apart; the
// largest s over the candidate axes is the signed distance when they overlap (minus the depth).
template <class S> struct Axis {
  S s = S(-std::numeric_limits<double>::infinity());
  Vec3<S> L = Vec3<S>::UnitZ();
  int owner = -1;   // face axes: 0 = a's, 1 = b's; edge axes: -1
  int i = 0, j = 0; // face axis index (of its owner); edge axes: a's axis i crossed with b's axis j
};

template <class S> void consider_axis(Axis<S>& best, Vec3<S> L, const S& ra, const S& rb, const Vec3<S>& d, int owner,
                                      int i, int j) {
  const S Ld = L.dot(d);
  const S s = abs_(Ld) - ra - rb;
  if (s > best.s) {
    if (Ld < S(0)) L = -L;
    best = Axis<S>{s, L, owner, i, j};
  }
}

// Edge-edge axes from nearly parallel directions are skipped: L = (u x v) / |u x v| carries a
// direction error of ~eps / |u x v|, so s would lose ~eps / |u x v| of the boxes' size. Below
// sqrt(eps) (an angle of 1.5e-8 rad in double) that loss passes sqrt(eps); and exactly parallel
// edges add no axis of their own (their Minkowski faces are those of face axes).
template <class S> S parallel_tolerance() { return sqrt_(S(Eigen::NumTraits<S>::epsilon())); }

// Which face of a frame (its axes, R's columns) the unit n lies along: the axis k with the
// largest |R_k . n|, the sign of R_k . n, and the size of n's component off that axis.
template <class S> struct FaceAlong {
  int k = 0;
  S sign = S(1), off = S(1);
};
template <class S> FaceAlong<S> face_along(const Mat3<S>& R, const Vec3<S>& n) {
  const Vec3<S> l = R.transpose() * n;
  int k = 0;
  for (int i = 1; i < 3; ++i)
    if (abs_(l[i]) > abs_(l[k])) k = i;
  const S o1 = l[(k + 1) % 3], o2 = l[(k + 2) % 3];
  return FaceAlong<S>{k, l[k] >= S(0) ? S(1) : S(-1), sqrt_(S(o1 * o1 + o2 * o2))};
}

// The side planes of box X's face k: {x : |X_i . (x - c)| <= h_i, i != k}, as (m, o) pairs with
// m . x <= o.
template <class S> std::array<std::pair<Vec3<S>, S>, 4> side_planes(const WorldBox<S>& X, int k) {
  std::array<std::pair<Vec3<S>, S>, 4> out;
  int n = 0;
  for (int i = 0; i < 3; ++i)
    if (i != k)
      for (int sgn : {1, -1}) {
        const Vec3<S> m = S(sgn) * Vec3<S>(X.axis(i));
        out[static_cast<std::size_t>(n++)] = {m, S(X.h[i] + m.dot(X.F.c))};
      }
  return out;
}

}  // namespace rbd::geometry
