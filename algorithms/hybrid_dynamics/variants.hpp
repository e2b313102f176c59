#pragma once
// The hybrid-dynamics family (Featherstone section 9.1): given tau at the forward-dynamics
// joints fd and qdd at the others, the unknown qdd_1 and tau_2 of Eq. 9.2,
//   [H_11 0; H_21 -1] [qdd_1; tau_2] = [tau_1; 0] - [C'_1; C'_2].
// Every variant: run(model, q, qd, fd, qdd, tau, f_ext, ws) with qdd and tau completed in place.
// All joints forward is forward dynamics, none is inverse dynamics.
#include <concepts>
#include <tuple>

#include "hybrid_dynamics/hybrid_aba.hpp"
#include "hybrid_dynamics/hybrid_crba_dense.hpp"
#include "hybrid_dynamics/hybrid_crba_sparse.hpp"

namespace rbd {

template <class V>
concept HybridDynamicsVariant = requires(const Model<double>& m, const VecX<double>& x, VecX<double>& out,
                                         const ForwardJoints& fd, HybridDynamicsWorkspace<double>& ws) {
  { V::name } -> std::convertible_to<std::string_view>;
  { V::summary } -> std::convertible_to<std::string_view>;
  { V::template applicable<double>(m) } -> std::same_as<bool>;
  V::template run<double>(m, x, x, fd, out, out, static_cast<const ExternalForces<double>*>(nullptr), ws);
};

using HybridDynamicsVariants = std::tuple<HybridAba, HybridCrbaSparse, HybridCrbaDense>;

static_assert(HybridDynamicsVariant<HybridAba> && HybridDynamicsVariant<HybridCrbaSparse> &&
              HybridDynamicsVariant<HybridCrbaDense>);

}  // namespace rbd
