#pragma once
// The geared-dynamics family (Featherstone section 9.6): forward dynamics of a kinematic tree
// whose joint variables are tied by gear pairs, q = gamma(y). Given the independent coordinates
// y, their rates yd and the tree's joint forces tau (a motor's torque on its rotor's joint),
// every variant returns ydd:  run(model, pairs, y, yd, tau, f_ext, ydd, ws).
#include <concepts>
#include <tuple>

#include "geared_dynamics/geared_dense.hpp"
#include "geared_dynamics/geared_lagrange.hpp"
#include "geared_dynamics/geared_sparse.hpp"

namespace rbd {

template <class V>
concept GearedDynamicsVariant = requires(const Model<double>& m, const GearPairs& p, const VecX<double>& x,
                                         VecX<double>& out, GearedWorkspace<double>& ws) {
  { V::name } -> std::convertible_to<std::string_view>;
  { V::summary } -> std::convertible_to<std::string_view>;
  { V::template applicable<double>(m) } -> std::same_as<bool>;
  V::template run<double>(m, p, x, x, x, static_cast<const ExternalForces<double>*>(nullptr), out, ws);
};

using GearedDynamicsVariants = std::tuple<GearedSparse, GearedDense, GearedLagrange>;

static_assert(GearedDynamicsVariant<GearedSparse> && GearedDynamicsVariant<GearedDense> &&
              GearedDynamicsVariant<GearedLagrange>);

}  // namespace rbd
