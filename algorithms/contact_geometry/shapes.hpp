#pragma once
// The shapes of section 11.6's contact geometry: a sphere, a box, a capsule and a plane, each
// fixed in one body (or in the base) with a pose in that body's coordinates. All four are convex
// and, apart from the box, smooth (the sphere and capsule are strictly convex where they can touch,
// which is the cure section 11.6 prescribes for polyhedra rolling on slopes; the box is kept for
// the line and surface contacts of Figure 11.7).
//
// Poses follow the suite's Plücker transforms (core/transform.hpp): a shape's `pose` is
// ^shape X_body (E rotates body coordinates into shape coordinates, r is the shape's origin in
// body coordinates), exactly as a Model's Xtree; a body's pose is ^body X_0 (what
// simulation::body_frames and cases::body_transforms compute; the identity for the base). The
// queries work in world (base) coordinates on a Frame: world = c + R x_shape.
#include <cmath>
#include <stdexcept>
#include <string>
#include <variant>

#include <Eigen/Core>

#include "core/transform.hpp"
#include "frames/quaternion.hpp"

namespace rbd::geometry {

// Sphere of `radius` centred at the shape origin.
template <class S> struct Sphere {
  int body = -1;
  Transform<S> pose{};
  S radius = S(1);
  std::string name;
};

// Box centred at the shape origin, edges along the shape axes, of size 2 * half_extents.
template <class S> struct Box {
  int body = -1;
  Transform<S> pose{};
  Vec3<S> half_extents = Vec3<S>::Ones();
  std::string name;
};

// Capsule: the points within `radius` of the segment from (0, 0, -half_length) to
// (0, 0, +half_length) of the shape frame (the segment is the capsule's "core").
template <class S> struct Capsule {
  int body = -1;
  Transform<S> pose{};
  S half_length = S(1);
  S radius = S(1);
  std::string name;
};

// The half-space {x : normal . x <= offset} (shape coordinates): a ground or wall. normal is a
// unit vector pointing out of the solid, as PointContact's plane (model/contact.hpp).
template <class S> struct Plane {
  int body = -1;
  Transform<S> pose{};
  Vec3<S> normal = Vec3<S>(S(0), S(0), S(1));
  S offset = S(0);
  std::string name;
};

template <class S> using Shape = std::variant<Sphere<S>, Box<S>, Capsule<S>, Plane<S>>;

template <class S> const char* kind_of(const Sphere<S>&) { return "sphere"; }
template <class S> const char* kind_of(const Box<S>&) { return "box"; }
template <class S> const char* kind_of(const Capsule<S>&) { return "capsule"; }
template <class S> const char* kind_of(const Plane<S>&) { return "plane"; }

template <class X> std::string shape_label(const X& x) {
  return std::string(kind_of(x)) + (x.name.empty() ? "" : " '" + x.name + "'");
}

// A shape frame in world coordinates: world = c + R x (R's columns are the shape axes).
template <class S> struct Frame {
  Mat3<S> R = Mat3<S>::Identity();
  Vec3<S> c = Vec3<S>::Zero();
  Vec3<S> to_world(const Vec3<S>& x) const { return c + R * x; }
  Vec3<S> to_local(const Vec3<S>& w) const { return R.transpose() * (w - c); }
};

// ^shape X_0 = ^shape X_body ^body X_0, read as a Frame.
template <class S> Frame<S> frame_of(const Transform<S>& pose, const Transform<S>& body) {
  const Transform<S> X = pose * body;
  return Frame<S>{X.E.transpose(), X.r};
}

// ---- validation: std::invalid_argument naming the shape and the field ----

namespace detail {

template <class S> bool finite_(const S& x) {
  using std::isfinite;
  return isfinite(x);
}
template <class M> bool all_finite(const M& m) {
  for (Eigen::Index k = 0; k < m.size(); ++k)
    if (!finite_(m.data()[k])) return false;
  return true;
}
template <class S> std::string num(const S& x) { return std::to_string(static_cast<double>(x)); }

// Unit vectors and rotations are held to eps^(3/4) (2e-12 in double, as check_friction in
// model/contact.hpp): a rotation typed with 16 digits passes, a wrong one (a scaled or sheared
// matrix) is off by O(1). A pose cast up from double is re-made exact by cast_shape.
template <class S> S unit_tolerance() {
  const S root = sqrt_(S(Eigen::NumTraits<S>::epsilon()));
  return root * sqrt_(root);
}

template <class S> void check_positive(const S& v, const std::string& who, const char* field) {
  if (!(finite_(v) && v > S(0)))
    throw std::invalid_argument("contact geometry: " + who + ": " + field + " must be finite and > 0 (got " + num(v) +
                                ")");
}

template <class S> void check_transform(const Transform<S>& X, const std::string& who, const char* field) {
  if (!all_finite(X.E) || !all_finite(X.r))
    throw std::invalid_argument("contact geometry: " + who + ": " + field + " has a non-finite entry");
  const S err = (X.E * X.E.transpose() - Mat3<S>::Identity()).cwiseAbs().maxCoeff();
  if (!(err <= unit_tolerance<S>()) || !(X.E.determinant() > S(0)))
    throw std::invalid_argument("contact geometry: " + who + ": " + field + ".E is not a rotation (|E E^T - I| = " +
                                num(err) + ", det = " + num(S(X.E.determinant())) + ")");
}

}  // namespace detail

template <class S> void validate(const Sphere<S>& x) {
  detail::check_transform(x.pose, shape_label(x), "pose");
  detail::check_positive(x.radius, shape_label(x), "radius");
}
template <class S> void validate(const Box<S>& x) {
  detail::check_transform(x.pose, shape_label(x), "pose");
  detail::check_positive(x.half_extents.x(), shape_label(x), "half_extents.x");
  detail::check_positive(x.half_extents.y(), shape_label(x), "half_extents.y");
  detail::check_positive(x.half_extents.z(), shape_label(x), "half_extents.z");
}
template <class S> void validate(const Capsule<S>& x) {
  detail::check_transform(x.pose, shape_label(x), "pose");
  detail::check_positive(x.half_length, shape_label(x), "half_length");
  detail::check_positive(x.radius, shape_label(x), "radius");
}
template <class S> void validate(const Plane<S>& x) {
  detail::check_transform(x.pose, shape_label(x), "pose");
  if (!detail::all_finite(x.normal) || !detail::finite_(x.offset))
    throw std::invalid_argument("contact geometry: " + shape_label(x) + ": normal/offset has a non-finite entry");
  const S err = abs_(S(x.normal.squaredNorm() - S(1)));
  if (!(err <= detail::unit_tolerance<S>()))
    throw std::invalid_argument("contact geometry: " + shape_label(x) + ": normal must be a unit vector (|n|^2 = " +
                                detail::num(S(x.normal.squaredNorm())) + ")");
}
template <class S> void validate(const Shape<S>& x) {
  std::visit([](const auto& y) { validate(y); }, x);
}
// A body pose (^body X_0) given with a query.
template <class S> void validate_body_pose(const Transform<S>& X, const std::string& who) {
  detail::check_transform(X, who, "body pose");
}

// ---- cast to another scalar, exact where a double typed to 16 digits is not ----

namespace detail {
// The rotation re-made orthonormal in T through its unit quaternion (frames/quaternion.hpp), so a
// pose typed in double is a rotation to T's own precision, not to 1e-16.
template <class T, class S> Transform<T> cast_pose(const Transform<S>& X) {
  const Transform<T> Y = X.template cast<T>();
  Quaternion<T> q = quaternion_from_matrix<T>(Y.E);
  q = (T(1) / sqrt_(q.squared_norm())) * q;
  return Transform<T>{q.matrix(), Y.r};
}
}  // namespace detail

template <class T, class S> Sphere<T> cast_shape(const Sphere<S>& x) {
  return Sphere<T>{x.body, detail::cast_pose<T>(x.pose), scalar_cast<T>(x.radius), x.name};
}
template <class T, class S> Box<T> cast_shape(const Box<S>& x) {
  return Box<T>{x.body, detail::cast_pose<T>(x.pose), x.half_extents.template cast<T>(), x.name};
}
template <class T, class S> Capsule<T> cast_shape(const Capsule<S>& x) {
  return Capsule<T>{x.body, detail::cast_pose<T>(x.pose), scalar_cast<T>(x.half_length), scalar_cast<T>(x.radius),
                    x.name};
}
template <class T, class S> Plane<T> cast_shape(const Plane<S>& x) {
  Vec3<T> n = x.normal.template cast<T>();
  n /= sqrt_(T(n.squaredNorm()));  // unit in T, as PointContact::cast does
  return Plane<T>{x.body, detail::cast_pose<T>(x.pose), n, scalar_cast<T>(x.offset), x.name};
}

}  // namespace rbd::geometry
