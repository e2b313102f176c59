#pragma once
// The forward-dynamics family: qdd = FD(model, q, qd, tau, f_ext), the solution of
// H(q) qdd + C(q, qd, f_ext) = tau (Featherstone Eq. 6.1; gravity in C, f_ext per body in
// body coordinates as for inverse dynamics). Scratch is a ForwardDynamicsWorkspace<S>
// (a Workspace plus the family's own storage). Each variant is listed once here; the list
// drives the tests, the accuracy sweep and the op counts.
#include <concepts>
#include <tuple>

#include "forward_dynamics/aba.hpp"
#include "forward_dynamics/aba_dh.hpp"
#include "forward_dynamics/aba_implicit.hpp"
#include "forward_dynamics/aba_inverse_inertia.hpp"
#include "forward_dynamics/crba_llt_dense.hpp"
#include "forward_dynamics/crba_ltdl.hpp"
#include "forward_dynamics/dca.hpp"
#include "floating_base/aba_floating.hpp"
#include "floating_base/crba_floating_schur.hpp"

namespace rbd {

template <class V>
concept ForwardDynamicsVariant = requires(const Model<double>& m, const VecX<double>& x, VecX<double>& out,
                                          ForwardDynamicsWorkspace<double>& ws) {
  { V::name } -> std::convertible_to<std::string_view>;
  { V::summary } -> std::convertible_to<std::string_view>;
  { V::template applicable<double>(m) } -> std::same_as<bool>;
  V::template run<double>(m, x, x, x, static_cast<const ExternalForces<double>*>(nullptr), out, ws);
};

using ForwardDynamicsVariants = std::tuple<Aba, CrbaLtdl, CrbaLltDense, AbaDh, AbaFloating, AbaImplicit, AbaInverseInertia,
                                           CrbaFloatingSchur, Dca>;

static_assert(ForwardDynamicsVariant<Aba> && ForwardDynamicsVariant<CrbaLtdl> &&
              ForwardDynamicsVariant<CrbaLltDense> && ForwardDynamicsVariant<AbaDh> &&
              ForwardDynamicsVariant<AbaFloating> && ForwardDynamicsVariant<AbaImplicit> &&
              ForwardDynamicsVariant<AbaInverseInertia> && ForwardDynamicsVariant<CrbaFloatingSchur> &&
              ForwardDynamicsVariant<Dca>);

}  // namespace rbd
