#pragma once
// The integration family: one step X_{i-1} -> X_i of the constrained multibody system of
// lie/multibody.hpp, with a Butcher tableau as a parameter. Each variant names the
// configuration group whose velocity convention its State uses (Variant::Group).
#include <concepts>
#include <string_view>
#include <tuple>

#include "integration/quaternion_rk.hpp"
#include "integration/rkmk.hpp"

namespace rbd::integration {

template <class V>
concept IntegratorVariant = requires(const System<double>& sys, State<double>& x, const Tableau<double>& t) {
  { V::name } -> std::convertible_to<std::string_view>;
  { V::summary } -> std::convertible_to<std::string_view>;
  typename V::Group;
  V::template step<double>(sys, x, 1e-3, t);
};

using IntegratorVariants = std::tuple<RkmkSe3, RkmkSo3R3, QuaternionRk>;

static_assert(IntegratorVariant<RkmkSe3> && IntegratorVariant<RkmkSo3R3> && IntegratorVariant<QuaternionRk>);

// Integrates n steps of size h from x (in V::Group's velocity convention).
template <class V, class S> void integrate(const System<S>& sys, State<S>& x, const S& h, int n, const Tableau<S>& tab) {
  for (int k = 0; k < n; ++k) V::template step<S>(sys, x, h, tab);
}

}  // namespace rbd::integration
