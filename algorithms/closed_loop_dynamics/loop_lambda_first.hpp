#pragma once
// Method 2 of section 8.5: solve for lambda first, by the six steps the section lists, with
// the branch-induced sparse L^T L factorization of H (Tables 6.3 and 6.5):
//   1. H = L^T L;            2. tau' = tau - C + tau^a;
//   3. Y = L^-T K^T, z = L^-T tau';
//   4. A = Y^T Y (= K H^-1 K^T, Eq. 8.38), b = k + k_stab - Y^T z (Eq. 8.39);
//   5. A lambda = b;         6. H qdd = tau' + K^T lambda.
// A is only positive semi-definite when constraints are redundant (rank r < n^c). Step 5 then
// takes one of the solutions of Eq. 8.41 (which one does not change qdd, since K^T annihilates
// A's null space): A = P^T L D L^T P with complete diagonal pivoting, stopped when the largest
// pivot left is below rank_tol times the first, and the components past the rank set to zero
// (factorization/pivoted_ldlt.hpp). This rank decision is made on A, independently of the
// elimination the other two methods use.
#include <string_view>

#include "closed_loop_dynamics/lambda_system.hpp"

namespace rbd {

struct LoopLambdaFirst {
  static constexpr std::string_view name = "loop_lambda_first";
  static constexpr std::string_view summary =
      "Method 2 (section 8.5): A = K H^-1 K^T through the sparse L^T L factor of H, A lambda = b by completely pivoted LDLT "
      "with a rank test (Eqs. 8.37-8.41), then H qdd = tau - C + K^T lambda";
  static constexpr std::string_view complexity = "O(nd) + O(n^c n d) + O((n^c)^3)";
  static constexpr bool polynomial_op_counts = false;  // pivoting
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& m, const LoopJoints<S>& loops, const VecX<S>& q, const VecX<S>& qd,
                  const VecX<S>& tau, const ExternalForces<S>* f_ext, VecX<S>& qdd, ClosedLoopWorkspace<S>& ws) {
    loops::tree_and_loop_terms<S>(m, loops, q, qd, tau, f_ext, ws);
    loops::lambda_system<S>(ws);                                 // steps 1-4: L, A = K H^-1 K^T, b
    solve_semidefinite(ws);                                       // step 5
    qdd = ws.tau_prime;                                           // step 6
    qdd.noalias() += ws.K.transpose() * ws.lambda;
    ltl_solve<S>(ws.pattern, ws.rows, qdd);
  }

  // lambda = A^# b (factorization/pivoted_ldlt.hpp).
  template <class S> static void solve_semidefinite(ClosedLoopWorkspace<S>& ws) {
    if (ws.nc == 0) return;
    ws.ldlt.compute(ws.A, ws.rank_tol);
    ws.lambda = ws.b;
    ws.ldlt.solve(ws.lambda);
  }
};

}  // namespace rbd
