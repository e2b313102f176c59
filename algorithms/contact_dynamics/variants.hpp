#pragma once
// The contact family (Featherstone chapter 11, sections 11.1-11.5): forward dynamics of a tree
// with frictionless point contacts in state 3 of Figure 11.4 (touching, not separating:
// model/contact.hpp). Given q, qd (with every phi_i = 0 and zeta_i = 0) and tau, every variant
// returns qdd of Eq. 11.41 with lambda a solution of the LCP of Eq. 11.42:
//   run(model, contacts, q, qd, tau, f_ext, qdd, ws);  ws.lambda and ws.zeta_dot hold the rest.
// qdd is unique whenever the LCP has a solution (section 11.5, property 2); lambda is unique
// when the contact normals are independent in joint space (T has full column rank).
// An LCP with no solution (Example 11.1) throws std::domain_error.
#include <concepts>
#include <tuple>

#include "contact_dynamics/contact_aba_dantzig.hpp"
#include "contact_dynamics/contact_dantzig.hpp"
#include "contact_dynamics/contact_gauss_qp.hpp"
#include "contact_dynamics/contact_lemke.hpp"

namespace rbd {

template <class V>
concept ContactVariant = requires(const Model<double>& m, const PointContacts<double>& c, const VecX<double>& x,
                                  VecX<double>& out, ContactWorkspace<double>& ws) {
  { V::name } -> std::convertible_to<std::string_view>;
  { V::summary } -> std::convertible_to<std::string_view>;
  { V::template applicable<double>(m) } -> std::same_as<bool>;
  V::template run<double>(m, c, x, x, x, static_cast<const ExternalForces<double>*>(nullptr), out, ws);
};

using ContactVariants = std::tuple<ContactLemke, ContactDantzig, ContactAbaDantzig, ContactGaussQp>;

static_assert(ContactVariant<ContactLemke> && ContactVariant<ContactDantzig> && ContactVariant<ContactAbaDantzig> &&
              ContactVariant<ContactGaussQp>);

}  // namespace rbd
