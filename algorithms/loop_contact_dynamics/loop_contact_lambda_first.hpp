#pragma once
// Contacts on a closed-loop mechanism, multipliers first: section 8.5's Method 2 in the tree's
// coordinates, with the loops' multipliers eliminated by their Schur complement so that the
// contacts see the constrained system's inverse inertia. With H = L^T L (the branch-induced
// sparse factor, Table 6.3), Y = L^-T K^T, A = Y^T Y = K H^-1 K^T and b = k - K H^-1 tau'
// (lambda_system.hpp, Eqs. 8.37-8.39), the loop multipliers for contact forces lambda are
//   lambda_K = A^# (b - B lambda),   B = K H^-1 T = Y^T Y_c,   Y_c = L^-T T,
// A^# being Eq. 8.41's solution of the semi-definite system (pivoted LDLT, pivots below the rank
// test dropped: factorization/pivoted_ldlt.hpp). Putting that into
// H qdd = tau' + K^T lambda_K + T lambda (Eqs. 8.34, 11.41) gives the LCP of Eq. 11.42 with
//   M = Y_c^T Y_c - B^T A^# B   (T^T P T, P = H^-1 - H^-1 K^T A^# K H^-1 the loops' projected
//                                inverse inertia), formed as R^T R with R = Y_c - Y A^# B
//                                (A^# A A^# = A^#), so positive semi-definite by construction
//   d = T^T qdd_0 + T_dot^T qd,  qdd_0 = H^-1 (tau' + K^T A^# b)  (the loops closed, no contact force),
// solved by Lemke's algorithm (contact_dynamics/lemke.hpp); then one sparse solve
//   H qdd = tau' + K^T (A^# b - A^# B lambda) + T lambda.
// A contact the loops hold (|R_i| below rank_tol |Y_c,i|) is released from the LCP with
// lambda_i = 0 (steps.hpp's release_held_contacts, which both variants run).
// Apart from the common terms and that release, nothing is shared with loop_contact_nullspace: a different
// factorization (L^T L of H, not Cholesky of G^T H G), a different rank decision (on A's pivots,
// not on K's elimination) and a different LCP solver.
#include <string_view>

#include "closed_loop_dynamics/lambda_system.hpp"
#include "contact_dynamics/lemke.hpp"
#include "loop_contact_dynamics/steps.hpp"

namespace rbd {

struct LoopContactLambdaFirst {
  static constexpr std::string_view name = "loop_contact_lambda_first";
  static constexpr std::string_view summary =
      "Multipliers first: H = L^T L (sparse), the loops' A = K H^-1 K^T by pivoted LDLT with a rank test (Eqs. "
      "8.37-8.41), the contacts' M = T^T H^-1 T - B^T A^# B and d (Eqs. 11.35-11.36 on the constrained system), the "
      "LCP by Lemke, then H qdd = tau' + K^T lambda_K + T lambda";
  static constexpr std::string_view complexity = "O(nd) + O((n^c + n_c) n d) + O((n^c)^3 + (n^c)^2 n_c) + Lemke's pivots";
  static constexpr bool polynomial_op_counts = false;  // pivoting
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& m, const LoopJoints<S>& loops, const PointContacts<S>& contacts, const VecX<S>& q,
                  const VecX<S>& qd, const VecX<S>& tau, const ExternalForces<S>* f_ext, VecX<S>& qdd,
                  LoopContactWorkspace<S>& ws) {
    loop_contacts::tree_loop_and_contact_terms<S>(m, loops, contacts, q, qd, tau, f_ext, ws);
    ClosedLoopWorkspace<S>& L = ws.loop;
    ContactWorkspace<S>& c = ws.contact;
    loops::lambda_system<S>(L);                                   // L^T L, Y, z, A, b
    for (int i = 0; i < c.nc; ++i) {                              // Y_c = L^-T T
      L.col = c.T.col(i);
      solve_Lt<false, S>(L.pattern, L.rows, L.col);
      ws.Yc.col(i) = L.col;
    }
    ws.R = ws.Yc;
    ws.qdd0 = L.tau_prime;
    if (L.nc > 0) {
      L.ldlt.compute(L.A, L.rank_tol);
      L.lambda = L.b;
      L.ldlt.solve(L.lambda);                                     // A^# b
      ws.B.noalias() = L.Yt * ws.Yc;                               // K H^-1 T
      ws.AB = ws.B;
      for (int i = 0; i < c.nc; ++i) L.ldlt.solve(ws.AB.col(i));
      ws.R.noalias() -= L.Yt.transpose() * ws.AB;                  // L^-T (T - K^T A^# B)
      ws.qdd0.noalias() += L.K.transpose() * L.lambda;
    }
    c.M.noalias() = ws.R.transpose() * ws.R;                      // T^T H^-1 T - B^T A^# B
    ltl_solve<S>(L.pattern, L.rows, ws.qdd0);                     // qdd_0
    c.d = c.Tdot_qd;
    c.d.noalias() += c.T.transpose() * ws.qdd0;
    contacts::require_finite_lcp<S>(c);
    // A contact the loops hold has R_i = L^-T (t_i - K^T A^# B_i) = 0 (t_i is then in K^T's
    // range), its two terms cancelling to their rounding (steps.hpp).
    loop_contacts::release_held_contacts<S>(
        c, [&](int i) { return ws.R.col(i).norm() <= L.rank_tol * ws.Yc.col(i).norm(); },
        [&](int i) { return loop_contacts::held_d_tolerance<S>(m, c, i, ws.qdd0, qd, L.rank_tol); },
        name.data());
    contacts::lemke<S>(c);
    qdd = L.tau_prime;
    qdd.noalias() += c.T * c.lambda;
    if (L.nc > 0) {
      L.lambda.noalias() -= ws.AB * c.lambda;                     // lambda_K
      qdd.noalias() += L.K.transpose() * L.lambda;
    }
    ltl_solve<S>(L.pattern, L.rows, qdd);
  }
};

}  // namespace rbd
