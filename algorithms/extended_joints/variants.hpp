#pragma once
// The extended-joint families: trees whose joints go beyond Table 4.1 (rack-and-pinion,
// opposite polarity, time dependence; extended_model.hpp). Inverse dynamics returns tau,
// forward dynamics qdd, both at time t (the drives' phi(t)):
//   run(extended_model, t, q, qd, qdd_or_tau, f_ext, out, ws).
#include <concepts>
#include <tuple>

#include "extended_joints/aba_extended.hpp"
#include "extended_joints/crba_extended.hpp"
#include "extended_joints/rnea_extended.hpp"

namespace rbd {

template <class V>
concept ExtendedJointVariant = requires(const ExtendedModel<double>& m, const VecX<double>& x, VecX<double>& out,
                                        ExtendedWorkspace<double>& ws) {
  { V::name } -> std::convertible_to<std::string_view>;
  { V::summary } -> std::convertible_to<std::string_view>;
  V::template run<double>(m, 0.0, x, x, x, static_cast<const ExternalForces<double>*>(nullptr), out, ws);
};

using ExtendedInverseVariants = std::tuple<RneaExtended>;
using ExtendedForwardVariants = std::tuple<AbaExtended, CrbaExtended>;

static_assert(ExtendedJointVariant<RneaExtended> && ExtendedJointVariant<AbaExtended> &&
              ExtendedJointVariant<CrbaExtended>);

}  // namespace rbd
