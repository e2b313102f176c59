#pragma once
// One entry point for any two shapes: collide(a, body_a, b, body_b, margin) picks the query of
// the pair and, where only the other order is written (a plane is always the first shape of its
// queries, a box the first against a sphere or capsule, a sphere the first against a capsule),
// runs that and turns the result round (contact_set.hpp's flipped). Two planes have no contact
// points (parallel ones touch everywhere or nowhere, others cross along a line): refused.
#include <stdexcept>
#include <type_traits>

#include "contact_geometry/box_capsule.hpp"

namespace rbd::geometry {

namespace detail {
template <class S, class A, class B>
ContactSet<S> collide_ordered(const A& a, const Transform<S>& Xa, const B& b, const Transform<S>& Xb, const S& margin) {
  if constexpr (std::is_same_v<A, Plane<S>> && std::is_same_v<B, Plane<S>>)
    throw std::invalid_argument("contact geometry: " + shape_label(a) + " against " + shape_label(b) +
                                ": two planes have no contact points");
  else if constexpr (std::is_same_v<A, Plane<S>> && std::is_same_v<B, Sphere<S>>)
    return plane_sphere(a, Xa, b, Xb);
  else if constexpr (std::is_same_v<A, Plane<S>> && std::is_same_v<B, Box<S>>)
    return plane_box(a, Xa, b, Xb, margin);
  else if constexpr (std::is_same_v<A, Plane<S>> && std::is_same_v<B, Capsule<S>>)
    return plane_capsule(a, Xa, b, Xb, margin);
  else if constexpr (std::is_same_v<A, Sphere<S>> && std::is_same_v<B, Sphere<S>>)
    return sphere_sphere(a, Xa, b, Xb);
  else if constexpr (std::is_same_v<A, Sphere<S>> && std::is_same_v<B, Capsule<S>>)
    return sphere_capsule(a, Xa, b, Xb);
  else if constexpr (std::is_same_v<A, Capsule<S>> && std::is_same_v<B, Capsule<S>>)
    return capsule_capsule(a, Xa, b, Xb, margin);
  else if constexpr (std::is_same_v<A, Box<S>> && std::is_same_v<B, Sphere<S>>)
    return box_sphere(a, Xa, b, Xb);
  else if constexpr (std::is_same_v<A, Box<S>> && std::is_same_v<B, Capsule<S>>)
    return box_capsule(a, Xa, b, Xb, margin);
  else if constexpr (std::is_same_v<A, Box<S>> && std::is_same_v<B, Box<S>>)
    return box_box(a, Xa, b, Xb, margin);
  else
    return flipped(collide_ordered<S>(b, Xb, a, Xa, margin));
}
}  // namespace detail

template <class S>
ContactSet<S> collide(const Shape<S>& a, const Transform<S>& body_a, const Shape<S>& b, const Transform<S>& body_b,
                      const S& margin) {
  check_margin(margin);  // also for the pairs whose query takes none (one point each)
  return std::visit([&](const auto& x, const auto& y) { return detail::collide_ordered<S>(x, body_a, y, body_b, margin); },
                    a, b);
}

}  // namespace rbd::geometry
