#pragma once
// Box against box. Two regimes:
//  - overlapping (every separating-axis value <= 0): the 15 axes of the separating-axis test (the
//    three face normals of each box and the nine cross products of their edges) are the normals
//    of the faces of the boxes' Minkowski difference, so the largest value among them is the
//    signed distance (minus the penetration depth) and its axis the direction of least
//    penetration;
//  - apart (some value > 0): the axes give only a lower bound (two corners facing each other are
//    further apart than any axis shows), so the distance is found as the closest pair of the
//    boxes' features: each corner of one against the other box, and each edge of one against
//    each edge of the other (the closest points of two convex polyhedra always include a corner of
//    one or two edges).
// The contact points: when the normal lies along a face (a face axis wins, or the closest pair
// is over a face), the face of the other box that looks most against it is clipped by the
// reference face's four side planes (Sutherland-Hodgman) and its clipped corners within
// report_threshold are the points: 4 for a face resting on a larger face, up to 8 for two
// squares crossed at 45 degrees, 2 for an edge lying on a face, the convex hull of the contact
// area of Figure 11.7(c) in each case. Otherwise (edge against edge, corner against edge) one
// point. An edge axis beats the best face axis only by more than the margin: within it the face
// is preferred, because a box resting on a face needs its whole face.
#include <vector>

#include "contact_geometry/box_features.hpp"

namespace rbd::geometry {

namespace detail {

// Sutherland-Hodgman: the polygon `poly` clipped to {x : m . x <= o}.
template <class S> std::vector<Vec3<S>> clip_polygon(const std::vector<Vec3<S>>& poly, const Vec3<S>& m, const S& o) {
  std::vector<Vec3<S>> out;
  const std::size_t n = poly.size();
  for (std::size_t k = 0; k < n; ++k) {
    const Vec3<S>& P = poly[k];
    const Vec3<S>& Q = poly[(k + 1) % n];
    const S dp = m.dot(P) - o, dq = m.dot(Q) - o;
    if (dp <= S(0)) out.push_back(P);
    if ((dp < S(0) && dq > S(0)) || (dp > S(0) && dq < S(0))) out.push_back(Vec3<S>(P + (dp / (dp - dq)) * (Q - P)));
  }
  return out;
}

// The contact points of a face contact. X is the reference box, its face k with outward normal
// n_ref (= sign * X_k, facing Y); Y the incident box. x_is_a says which of the pair X is, so
// the points land on b's surface with the normal from a to b. Empty if the clipped face is empty.
template <class S>
std::vector<ContactPoint<S>> face_points(const WorldBox<S>& X, int k, const Vec3<S>& n_ref, const WorldBox<S>& Y,
                                         bool x_is_a, const S& threshold) {
  const FaceAlong<S> inc = face_along<S>(Y.F.R, Vec3<S>(-n_ref));  // Y's face looking most against n_ref
  const int a = (inc.k + 1) % 3, b = (inc.k + 2) % 3;
  const Vec3<S> fc = Y.F.c + inc.sign * Y.h[inc.k] * Y.axis(inc.k);
  const Vec3<S> ea = Y.h[a] * Y.axis(a), eb = Y.h[b] * Y.axis(b);
  std::vector<Vec3<S>> poly{Vec3<S>(fc + ea + eb), Vec3<S>(fc - ea + eb), Vec3<S>(fc - ea - eb), Vec3<S>(fc + ea - eb)};
  for (const auto& [m, o] : side_planes(X, k)) poly = clip_polygon(poly, m, o);
  const S plane = n_ref.dot(X.F.c) + X.h[k];  // the reference face: n_ref . x = plane
  std::vector<ContactPoint<S>> all;
  for (const Vec3<S>& v : poly) {
    const S dv = n_ref.dot(v) - plane;
    all.push_back(x_is_a ? ContactPoint<S>{v, n_ref, dv} : ContactPoint<S>{Vec3<S>(v - dv * n_ref), Vec3<S>(-n_ref), dv});
  }
  std::vector<ContactPoint<S>> kept;
  for (const ContactPoint<S>& p : all)
    if (p.distance <= threshold) kept.push_back(p);
  if (kept.empty() && !all.empty())  // an overlap whose deepest corner is off the face: its shallowest clipped corner
    kept.push_back(*std::min_element(all.begin(), all.end(),
                                     [](const ContactPoint<S>& x, const ContactPoint<S>& y) { return x.distance < y.distance; }));
  return kept;
}

}  // namespace detail

template <class S>
ContactSet<S> box_box(const Box<S>& a, const Transform<S>& body_a, const Box<S>& b, const Transform<S>& body_b,
                      const S& margin) {
  detail::check_pair(body_a, body_b, a, b);
  check_margin(margin);
  const WorldBox<S> A = world_box(a, body_a), B = world_box(b, body_b);
  const Vec3<S> d = B.F.c - A.F.c;
  Axis<S> face_a, face_b, edge;
  for (int i = 0; i < 3; ++i) consider_axis<S>(face_a, A.axis(i), A.h[i], B.radius(A.axis(i)), d, 0, i, 0);
  for (int j = 0; j < 3; ++j) consider_axis<S>(face_b, B.axis(j), A.radius(B.axis(j)), B.h[j], d, 1, j, 0);
  // Parallel faces tie (a box resting on a box): a's face is taken unless b's is better by more
  // than the margin, so round-off cannot switch the face from one call to the next.
  const Axis<S> face = face_b.s > face_a.s + margin ? face_b : face_a;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const Vec3<S> w = cross<S>(A.axis(i), B.axis(j));
      const S len = sqrt_(S(w.squaredNorm()));
      if (len > parallel_tolerance<S>()) {
        const Vec3<S> L = w / len;
        consider_axis<S>(edge, L, A.radius(L), B.radius(L), d, -1, i, j);
      }
    }
  const S s_max = std::max<S>(std::max<S>(face_a.s, face_b.s), edge.s);

  // The pair's distance, a witness (one point) and the face along which the normal lies, if any.
  Witness<S> w;
  bool use_face = false;
  bool ref_is_a = true;
  int k = 0;
  Vec3<S> n_ref;
  if (s_max > S(0)) {
    for (const Vec3<S>& v : box_corners(B.F, B.h)) w.consider(point_box_witness(A, v));
    for (const Vec3<S>& v : box_corners(A.F, A.h)) {
      Witness<S> x = point_box_witness(B, v);  // from B to A's corner: turned round
      x = Witness<S>{x.on_b, x.on_a, Vec3<S>(-x.n), x.dist};
      w.consider(x);
    }
    for (const Segment<S>& ea : A.edges())
      for (const Segment<S>& eb : B.edges()) w.consider(segment_witness(ea, eb));
    if (!(w.dist > S(0))) w.n = face.s >= edge.s ? face.L : edge.L;  // apart by round-off only
    // A normal along a face to sqrt(eps): the structural normals of box_features.hpp are exact
    // there, so only a genuinely oblique pair misses, by a finite angle.
    const FaceAlong<S> fa = face_along<S>(A.F.R, w.n), fb = face_along<S>(B.F.R, Vec3<S>(-w.n));
    const S tol = parallel_tolerance<S>();
    if (fa.off <= tol || fb.off <= tol) {  // a's face first, for the same reason as above
      use_face = true;
      ref_is_a = fa.off <= tol;
      k = ref_is_a ? fa.k : fb.k;
      n_ref = ref_is_a ? Vec3<S>(fa.sign * A.axis(k)) : Vec3<S>(fb.sign * B.axis(k));
    }
  } else {
    w.dist = s_max;
    if (edge.s > face.s + margin) {
      // Edge against edge: the closest points of the two edges that reach furthest into each other.
      const Segment<S> ea = A.support_edge(edge.i, edge.L), eb = B.support_edge(edge.j, Vec3<S>(-edge.L));
      S ta, tb;
      closest_parameters(ea, eb, ta, tb);
      w.on_b = eb.at(tb);
      w.n = edge.L;
      w.on_a = w.on_b - s_max * edge.L;
    } else {
      use_face = true;
      ref_is_a = face.owner == 0;
      k = face.i;
      n_ref = ref_is_a ? face.L : Vec3<S>(-face.L);
      // A witness in case the clipped face is empty: b's corner deepest along -L.
      w.n = face.L;
      w.on_b = B.F.c;
      for (int j = 0; j < 3; ++j) w.on_b -= (B.axis(j).dot(face.L) >= S(0) ? S(1) : S(-1)) * B.h[j] * B.axis(j);
      w.on_a = w.on_b - s_max * face.L;
    }
  }
  const S dist = w.dist;
  ContactSet<S> out{dist, {}};
  if (use_face)
    out.points = ref_is_a ? detail::face_points(A, k, n_ref, B, true, report_threshold<S>(dist, margin))
                          : detail::face_points(B, k, n_ref, A, false, report_threshold<S>(dist, margin));
  if (out.points.empty()) out.points.push_back(ContactPoint<S>{w.on_b, w.n, dist});
  return out;
}

}  // namespace rbd::geometry
