#pragma once
// Friction dynamics by the articulated-body route (no H: qdd_0 by the ABA and H^-1 times each of
// the 3 n_c unit contact forces by a test-force pass, O(n) each; steps.hpp) and Lemke's
// algorithm on the same friction LCP (lcp.hpp); qdd = qdd_0 + H^-1 T3 f.
#include <string_view>

#include "friction_dynamics/lcp.hpp"
#include "friction_dynamics/steps.hpp"

namespace rbd {

struct FrictionAbaLemke {
  static constexpr std::string_view name = "friction_aba_lemke";
  static constexpr std::string_view summary =
      "qdd_0 by the ABA and H^-1 times each contact's normal and two tangent forces by articulated-body test-force "
      "passes, so G = T3^T H^-1 T3 and g without H; the friction LCP by Lemke's pivoting; qdd = qdd_0 + H^-1 T3 f";
  static constexpr std::string_view complexity = "O(n n_c) + O(N^3) per pivot sequence, N = n_c + sum (k_i + 1)";
  static constexpr bool polynomial_op_counts = false;  // pivoting
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& m, const PointContacts<S>& contacts, const VecX<S>& q, const VecX<S>& qd,
                  const VecX<S>& tau, const ExternalForces<S>* f_ext, VecX<S>& qdd, FrictionWorkspace<S>& ws) {
    friction::articulated_rows<S>(m, contacts, q, qd, tau, f_ext, ws);
    friction::build_lcp<S>(contacts, ws);
    friction::solve_lcp<S>(ws);
    friction::articulated_accelerations<S>(ws, qdd);
  }
};

}  // namespace rbd
