#pragma once
// Contact dynamics by the articulated-body route (articulated_route.hpp: no H, O(n) per contact
// for M's columns) and Cottle-Dantzig principal pivoting (dantzig.hpp), then
// qdd = qdd_0 + H^-1 T lambda from the same test-force responses.
#include <string_view>

#include "contact_dynamics/articulated_route.hpp"
#include "contact_dynamics/dantzig.hpp"

namespace rbd {

struct ContactAbaDantzig {
  static constexpr std::string_view name = "contact_aba_dantzig";
  static constexpr std::string_view summary =
      "qdd_0 by the ABA and H^-1 t_i by one articulated-body test-force pass per contact, so M = T^T H^-1 T and d "
      "(Eqs. 11.35-11.36) without H; the LCP of Eq. 11.42 by Cottle-Dantzig principal pivoting; qdd = qdd_0 + H^-1 T lambda";
  static constexpr std::string_view complexity = "O(n n_c) + O(n_c^3) per pivot step";
  static constexpr bool polynomial_op_counts = false;  // pivoting
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& m, const PointContacts<S>& contacts, const VecX<S>& q, const VecX<S>& qd,
                  const VecX<S>& tau, const ExternalForces<S>* f_ext, VecX<S>& qdd, ContactWorkspace<S>& ws) {
    contacts::articulated_lcp<S>(m, contacts, q, qd, tau, f_ext, ws);
    contacts::dantzig<S>(ws);
    contacts::articulated_accelerations<S>(ws, qdd);
  }
};

}  // namespace rbd
