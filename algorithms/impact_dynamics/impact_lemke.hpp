#pragma once
// Impulsive dynamics by the dense route and Lemke's algorithm: M = T^T H^-1 T through the CRBA's
// H and its Cholesky factor, the impact LCP of steps.hpp (Newton's restitution, Eq. 11.64, at
// every contact) by complementary pivoting (contact_dynamics/lemke.hpp), then
// qd^+ = qd^- + H^-1 T lambda (Eq. 11.57).
#include <string_view>

#include "contact_dynamics/lemke.hpp"
#include "impact_dynamics/steps.hpp"

namespace rbd {

struct ImpactLemke {
  static constexpr std::string_view name = "impact_lemke";
  static constexpr std::string_view summary =
      "M = T^T H^-1 T through the CRBA's H and its Cholesky factor, the impact LCP (Newton's restitution, Eq. 11.64, "
      "at every contact) by Lemke's complementary pivoting, then H (qd^+ - qd^-) = T lambda (Eq. 11.57)";
  static constexpr std::string_view complexity = "O(n^3) + O(n^2 n_c) + O(n_c^2) per pivot";
  static constexpr bool polynomial_op_counts = false;  // pivoting
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& m, const PointContacts<S>& contacts, const VecX<S>& q, const VecX<S>& qd,
                  VecX<S>& qd_plus, ImpactWorkspace<S>& ws) {
    impacts::dense_impact_lcp<S>(m, contacts, q, qd, ws);
    contacts::lemke<S>(ws);
    impacts::dense_velocities<S>(contacts, qd, ws, qd_plus);
  }
};

}  // namespace rbd
