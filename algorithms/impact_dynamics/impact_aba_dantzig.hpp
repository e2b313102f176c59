#pragma once
// Impulsive dynamics by the articulated-body route (no H): the ABA's articulated inertias at q,
// then H^-1 t_i by one test-force pass per contact (Eq. 11.56: an impulse on an articulated body
// meets its articulated-body inertia), so M = T^T H^-1 T in O(n n_c); the impact LCP of
// steps.hpp by Cottle-Dantzig pivoting; qd^+ = qd^- + (H^-1 T) lambda from the same responses.
#include <string_view>

#include "contact_dynamics/dantzig.hpp"
#include "impact_dynamics/steps.hpp"

namespace rbd {

struct ImpactAbaDantzig {
  static constexpr std::string_view name = "impact_aba_dantzig";
  static constexpr std::string_view summary =
      "the ABA's articulated inertias at q and one test-force pass per contact give H^-1 t_i (Eq. 11.56), so "
      "M = T^T H^-1 T without H; the impact LCP (Eq. 11.64 at every contact) by Cottle-Dantzig pivoting; "
      "qd^+ = qd^- + H^-1 T lambda";
  static constexpr std::string_view complexity = "O(n n_c) + O(n_c^3) per pivot step";
  static constexpr bool polynomial_op_counts = false;  // pivoting
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& m, const PointContacts<S>& contacts, const VecX<S>& q, const VecX<S>& qd,
                  VecX<S>& qd_plus, ImpactWorkspace<S>& ws) {
    impacts::articulated_impact_lcp<S>(m, contacts, q, qd, ws);
    contacts::dantzig<S>(ws);
    impacts::articulated_velocities<S>(contacts, qd, ws, qd_plus);
  }
};

}  // namespace rbd
