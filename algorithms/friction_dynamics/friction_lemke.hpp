#pragma once
// Friction dynamics by the dense route and Lemke's algorithm: G = T3^T H^-1 T3 and g through the
// CRBA's H and its Cholesky factor (steps.hpp), the friction LCP (lcp.hpp) by complementary
// pivoting, then qdd = H^-1 (tau - C + T3 f).
#include <string_view>

#include "friction_dynamics/lcp.hpp"
#include "friction_dynamics/steps.hpp"

namespace rbd {

struct FrictionLemke {
  static constexpr std::string_view name = "friction_lemke";
  static constexpr std::string_view summary =
      "three rows per contact (normal, two tangents): G = T3^T H^-1 T3 and g through the CRBA's H and its Cholesky "
      "factor; Coulomb friction in a k-facet pyramid (sticking) or along -u_t (sliding) as an LCP in lambda_n, beta, "
      "gamma, by Lemke's complementary pivoting; then H qdd = tau - C + T3 f";
  static constexpr std::string_view complexity = "O(n^3) + O(n^2 n_c) + O(N^3) per pivot sequence, N = n_c + sum (k_i + 1)";
  static constexpr bool polynomial_op_counts = false;  // pivoting
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& m, const PointContacts<S>& contacts, const VecX<S>& q, const VecX<S>& qd,
                  const VecX<S>& tau, const ExternalForces<S>* f_ext, VecX<S>& qdd, FrictionWorkspace<S>& ws) {
    friction::dense_rows<S>(m, contacts, q, qd, tau, f_ext, ws);
    friction::build_lcp<S>(contacts, ws);
    friction::solve_lcp<S>(ws);
    friction::dense_accelerations<S>(tau, ws, qdd);
  }
};

}  // namespace rbd
