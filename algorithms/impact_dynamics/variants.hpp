#pragma once
// The impact family (Featherstone section 11.7): impulsive dynamics of a tree whose frictionless
// point contacts (model/contact.hpp) are touching (phi_i = 0) when the impact happens. Given q
// and the velocities qd^- just before, every variant returns the velocities just after:
//   run(model, contacts, q, qd_minus, qd_plus, ws);  ws.lambda holds the impulses,
//   ws.zeta_minus and ws.zeta_plus the separation velocities before and after.
// Each contact's Newton coefficient e_i (PointContact::restitution, in [0, 1]) applies by the
// complementarity law of impact_dynamics/steps.hpp. qd^+ is unique whenever that LCP has a
// solution (M is positive semi-definite, so T lambda is unique); lambda is unique when the
// normals are independent in joint space. No solution throws std::domain_error.
#include <concepts>
#include <tuple>

#include "impact_dynamics/impact_aba_dantzig.hpp"
#include "impact_dynamics/impact_dantzig.hpp"
#include "impact_dynamics/impact_lemke.hpp"

namespace rbd {

template <class V>
concept ImpactVariant = requires(const Model<double>& m, const PointContacts<double>& c, const VecX<double>& x,
                                 VecX<double>& out, ImpactWorkspace<double>& ws) {
  { V::name } -> std::convertible_to<std::string_view>;
  { V::summary } -> std::convertible_to<std::string_view>;
  { V::template applicable<double>(m) } -> std::same_as<bool>;
  V::template run<double>(m, c, x, x, out, ws);
};

using ImpactVariants = std::tuple<ImpactLemke, ImpactDantzig, ImpactAbaDantzig>;

static_assert(ImpactVariant<ImpactLemke> && ImpactVariant<ImpactDantzig> && ImpactVariant<ImpactAbaDantzig>);

}  // namespace rbd
