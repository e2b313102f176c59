#pragma once
// Contact dynamics by the dense route and Cottle-Dantzig principal pivoting: M and d from the
// CRBA's H and its Cholesky factor (Eqs. 11.35-11.36), the LCP of Eq. 11.42 one contact at a
// time (dantzig.hpp), then qdd = H^-1 (tau - C + T lambda) (Eq. 11.41).
#include <string_view>

#include "contact_dynamics/dantzig.hpp"
#include "contact_dynamics/steps.hpp"

namespace rbd {

struct ContactDantzig {
  static constexpr std::string_view name = "contact_dantzig";
  static constexpr std::string_view summary =
      "M = T^T H^-1 T and d through the CRBA's H and its Cholesky factor (Eqs. 11.35-11.36), the LCP of Eq. 11.42 by "
      "Cottle-Dantzig principal pivoting (Baraff's form), then H qdd = tau - C + T lambda";
  static constexpr std::string_view complexity = "O(n^3) + O(n^2 n_c) + O(n_c^3) per pivot step";
  static constexpr bool polynomial_op_counts = false;  // pivoting
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& m, const PointContacts<S>& contacts, const VecX<S>& q, const VecX<S>& qd,
                  const VecX<S>& tau, const ExternalForces<S>* f_ext, VecX<S>& qdd, ContactWorkspace<S>& ws) {
    contacts::dense_lcp<S>(m, contacts, q, qd, tau, f_ext, ws);
    contacts::dantzig<S>(ws);
    contacts::dense_accelerations<S>(tau, ws, qdd);
  }
};

}  // namespace rbd
