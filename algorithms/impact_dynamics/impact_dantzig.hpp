#pragma once
// Impulsive dynamics by the dense route and Cottle-Dantzig principal pivoting: M = T^T H^-1 T
// through the CRBA's H and its Cholesky factor, the impact LCP of steps.hpp one contact at a time
// (contact_dynamics/dantzig.hpp), then qd^+ = qd^- + H^-1 T lambda (Eq. 11.57).
#include <string_view>

#include "contact_dynamics/dantzig.hpp"
#include "impact_dynamics/steps.hpp"

namespace rbd {

struct ImpactDantzig {
  static constexpr std::string_view name = "impact_dantzig";
  static constexpr std::string_view summary =
      "M = T^T H^-1 T through the CRBA's H and its Cholesky factor, the impact LCP (Newton's restitution, Eq. 11.64, "
      "at every contact) by Cottle-Dantzig principal pivoting, then H (qd^+ - qd^-) = T lambda (Eq. 11.57)";
  static constexpr std::string_view complexity = "O(n^3) + O(n^2 n_c) + O(n_c^3) per pivot step";
  static constexpr bool polynomial_op_counts = false;  // pivoting
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& m, const PointContacts<S>& contacts, const VecX<S>& q, const VecX<S>& qd,
                  VecX<S>& qd_plus, ImpactWorkspace<S>& ws) {
    impacts::dense_impact_lcp<S>(m, contacts, q, qd, ws);
    contacts::dantzig<S>(ws);
    impacts::dense_velocities<S>(contacts, qd, ws, qd_plus);
  }
};

}  // namespace rbd
