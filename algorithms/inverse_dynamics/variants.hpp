#pragma once
// The inverse-dynamics family: tau = ID(model, q, qd, qdd, f_ext). Each variant is listed
// once here; this list drives the tests, the accuracy sweep and the op counts.
#include <concepts>
#include <tuple>

#include "floating_base/rnea_floating.hpp"
#include "inverse_dynamics/rnea_dh.hpp"
#include "inverse_dynamics/rnea_equivalent.hpp"
#include "inverse_dynamics/rnea_lwp.hpp"
#include "inverse_dynamics/rnea_spatial.hpp"

namespace rbd {

template <class V>
concept InverseDynamicsVariant = requires(const Model<double>& m, const VecX<double>& x,
                                          VecX<double>& out, Workspace<double>& ws) {
  { V::name } -> std::convertible_to<std::string_view>;
  { V::summary } -> std::convertible_to<std::string_view>;
  { V::template applicable<double>(m) } -> std::same_as<bool>;
  V::template run<double>(m, x, x, x, static_cast<const ExternalForces<double>*>(nullptr), out, ws);
};

using InverseDynamicsVariants = std::tuple<RneaSpatial, RneaLwp, RneaDh, RneaFloating, RneaEquivalent>;

static_assert(InverseDynamicsVariant<RneaSpatial> && InverseDynamicsVariant<RneaLwp> && InverseDynamicsVariant<RneaDh> &&
              InverseDynamicsVariant<RneaFloating> && InverseDynamicsVariant<RneaEquivalent>);

}  // namespace rbd
