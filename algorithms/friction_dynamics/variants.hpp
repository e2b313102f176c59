#pragma once
// The friction family (point contacts with Coulomb friction; Featherstone chapter 11's LCP of
// Eq. 11.42 extended by a polyhedral friction cone, README.md): forward dynamics of a tree whose
// contacts all touch and do not separate (phi_i = 0, zeta_i = 0), each sticking or sliding by its
// slip speed. Every variant returns qdd with the contact forces of the friction LCP (lcp.hpp):
//   run(model, contacts, q, qd, tau, f_ext, qdd, ws);  ws.f holds (lambda_n, f_1, f_2) per contact.
// With friction, qdd need not be unique (Painleve's paradox); the gates use states where it is.
// A problem Lemke's algorithm cannot solve throws std::domain_error.
#include <concepts>
#include <tuple>

#include "friction_dynamics/friction_aba_lemke.hpp"
#include "friction_dynamics/friction_lemke.hpp"

namespace rbd {

template <class V>
concept FrictionVariant = requires(const Model<double>& m, const PointContacts<double>& c, const VecX<double>& x,
                                   VecX<double>& out, FrictionWorkspace<double>& ws) {
  { V::name } -> std::convertible_to<std::string_view>;
  { V::summary } -> std::convertible_to<std::string_view>;
  { V::template applicable<double>(m) } -> std::same_as<bool>;
  V::template run<double>(m, c, x, x, x, static_cast<const ExternalForces<double>*>(nullptr), out, ws);
};

using FrictionVariants = std::tuple<FrictionLemke, FrictionAbaLemke>;

static_assert(FrictionVariant<FrictionLemke> && FrictionVariant<FrictionAbaLemke>);

}  // namespace rbd
