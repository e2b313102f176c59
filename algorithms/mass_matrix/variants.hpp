#pragma once
// The joint-space inertia family: H = H(model, q). Each variant is listed once here.
#include <concepts>
#include <tuple>

#include "floating_base/crba_floating.hpp"
#include "mass_matrix/crba.hpp"
#include "mass_matrix/crba_dh.hpp"
#include "mass_matrix/crba_world.hpp"
#include "mass_matrix/id_columns.hpp"

namespace rbd {

template <class V>
concept MassMatrixVariant = requires(const Model<double>& m, const VecX<double>& q, MatX<double>& H,
                                     Workspace<double>& ws) {
  { V::name } -> std::convertible_to<std::string_view>;
  { V::summary } -> std::convertible_to<std::string_view>;
  { V::template applicable<double>(m) } -> std::same_as<bool>;
  V::template run<double>(m, q, H, ws);
};

using MassMatrixVariants = std::tuple<Crba, IdColumns, CrbaDh, CrbaWorld, CrbaFloating>;

static_assert(MassMatrixVariant<Crba> && MassMatrixVariant<IdColumns> && MassMatrixVariant<CrbaDh> &&
              MassMatrixVariant<CrbaWorld> && MassMatrixVariant<CrbaFloating>);

}  // namespace rbd
