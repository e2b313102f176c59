#pragma once
// Box (a) against capsule (b): the box against the capsule's core segment, then the radius.
// As box_box.hpp, in two regimes: a core that enters the box is measured by the separating axes
// of a box and a segment (the box's three face normals and the segment's direction crossed with
// each), the largest value minus the radius being the signed distance; a core outside the box by
// the closest pair of features (each end of the core against the box, the core against each of
// the box's twelve edges). When the normal lies along a face of the box, the core is clipped by
// that face's side planes and the ends of the clipped piece within report_threshold are the
// points: two for a capsule lying on the face (Figure 11.7(a)'s line contact), one for a capsule
// standing on it. Otherwise one point.
#include "contact_geometry/box_box.hpp"

namespace rbd::geometry {

namespace detail {

// The core u(t) = c + t u, |t| <= h, clipped to the slab of box X's face k: the interval
// [t0, t1] (t0 > t1 if empty).
template <class S> void clip_segment(const Segment<S>& seg, const WorldBox<S>& X, int k, S& t0, S& t1) {
  t0 = -seg.h;
  t1 = seg.h;
  for (const auto& [m, o] : side_planes(X, k)) {
    const S alpha = m.dot(seg.u), beta = o - m.dot(seg.c);  // alpha t <= beta
    if (alpha > S(0))
      t1 = std::min<S>(t1, beta / alpha);
    else if (alpha < S(0))
      t0 = std::max<S>(t0, beta / alpha);
    else if (beta < S(0))
      t0 = seg.h, t1 = -seg.h;
  }
}

}  // namespace detail

template <class S>
ContactSet<S> box_capsule(const Box<S>& a, const Transform<S>& body_a, const Capsule<S>& b, const Transform<S>& body_b,
                          const S& margin) {
  detail::check_pair(body_a, body_b, a, b);
  check_margin(margin);
  const WorldBox<S> A = world_box(a, body_a);
  const Segment<S> C = core_of(b, body_b);
  const S r = b.radius;
  const Vec3<S> d = C.c - A.F.c;
  Axis<S> face, edge;
  for (int i = 0; i < 3; ++i) consider_axis<S>(face, A.axis(i), A.h[i], S(C.h * abs_(S(C.u.dot(A.axis(i))))), d, 0, i, 0);
  for (int i = 0; i < 3; ++i) {
    const Vec3<S> w = cross<S>(A.axis(i), C.u);
    const S len = sqrt_(S(w.squaredNorm()));
    if (len > parallel_tolerance<S>()) {
      const Vec3<S> L = w / len;  // perpendicular to the core: the core projects to a point
      consider_axis<S>(edge, L, A.radius(L), S(0), d, -1, i, 0);
    }
  }
  const S s_max = std::max<S>(face.s, edge.s);

  Witness<S> w;  // between the box and the core
  bool use_face = false;
  int k = 0;
  Vec3<S> n_ref;
  if (s_max > S(0)) {
    for (int sign : {-1, 1}) w.consider(point_box_witness(A, C.end(sign)));
    for (const Segment<S>& e : A.edges()) w.consider(segment_witness(e, C));
    if (!(w.dist > S(0))) w.n = face.s >= edge.s ? face.L : edge.L;
    const FaceAlong<S> fa = face_along<S>(A.F.R, w.n);
    if (fa.off <= parallel_tolerance<S>()) {
      use_face = true;
      k = fa.k;
      n_ref = fa.sign * A.axis(k);
    }
  } else {
    w.dist = s_max;
    w.n = edge.s > face.s + margin ? edge.L : face.L;
    if (edge.s > face.s + margin) {
      S ta, tb;
      closest_parameters(A.support_edge(edge.i, edge.L), C, ta, tb);
      w.on_b = C.at(tb);
    } else {
      use_face = true;
      k = face.i;
      n_ref = face.L;
      w.on_b = C.end(C.u.dot(face.L) >= S(0) ? -1 : 1);  // the core's end deepest along -L
    }
  }
  const S dist = w.dist - r;
  ContactSet<S> out{dist, {}};
  if (use_face) {
    S t0, t1;
    detail::clip_segment(C, A, k, t0, t1);
    if (t0 <= t1) {
      const S plane = n_ref.dot(A.F.c) + A.h[k];
      std::vector<ContactPoint<S>> ends;
      for (const S& t : {t0, t1}) {
        const Vec3<S> x = C.at(t);
        ends.push_back(ContactPoint<S>{Vec3<S>(x - r * n_ref), n_ref, S(n_ref.dot(x) - plane - r)});
      }
      if (!(t1 - t0 > margin))  // one point where the clipped core is no longer than the margin: the deeper end
        ends.erase(ends[0].distance <= ends[1].distance ? ends.begin() + 1 : ends.begin());
      const S threshold = report_threshold<S>(dist, margin);
      for (const ContactPoint<S>& p : ends)
        if (p.distance <= threshold) out.points.push_back(p);
      if (out.points.empty())
        out.points.push_back(ends[0].distance <= ends.back().distance ? ends[0] : ends.back());
    }
  }
  if (out.points.empty()) out.points.push_back(ContactPoint<S>{Vec3<S>(w.on_b - r * w.n), w.n, dist});
  return out;
}

}  // namespace rbd::geometry
