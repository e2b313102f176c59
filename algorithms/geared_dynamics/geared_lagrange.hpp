#pragma once
// The gear pairs as constraints on the tree, solved by chapter 8's first method (section 8.5,
// Eq. 8.36): the full system with Lagrange multipliers,
//   [H  K^T] [ qdd  ]   [tau - C]
//   [K   0 ] [lambda] = [   0   ],
// one row of K per driven joint, K qd = qd_driven - ratio qd_driver = 0 (constant K, so
// k = -Kdot qd = 0). No G, no projection: a different route to the same ydd (the undriven
// entries of qdd), which makes it a witness for the two routes through Eq. 9.26. The
// multipliers are the forces the gear teeth transmit. The system is symmetric indefinite;
// it is solved by LU with partial pivoting (Eigen::PartialPivLU).
#include <string_view>

#include "geared_dynamics/steps.hpp"

namespace rbd {

struct GearedLagrange {
  static constexpr std::string_view name = "geared_lagrange";
  static constexpr std::string_view summary =
      "The gears as constraints K qdd = 0 on the tree, solved with Lagrange multipliers (section 8.5, Eq. 8.36) "
      "by LU with partial pivoting";
  static constexpr std::string_view complexity = "O(nd + n^3)";
  static constexpr bool polynomial_op_counts = false;  // Eigen's blocked LU
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& m, const GearPairs& pairs, const VecX<S>& y, const VecX<S>& yd, const VecX<S>& tau,
                  const ExternalForces<S>* f_ext, VecX<S>& ydd, GearedWorkspace<S>& ws) {
    ws.prepare(m, pairs);
    gears_detail::tree_terms<S>(m, y, yd, tau, f_ext, ws);
    const GearMap<S>& g = ws.map;
    const int n = m.nv;
    ws.kkt.topLeftCorner(n, n) = ws.H;
    int row = n;
    for (int k = 0; k < n; ++k) {
      const int driver = g.v_of_y[g.col[k]];
      if (driver == k) continue;                       // an undriven variable: no constraint
      ws.kkt(row, k) = ws.kkt(k, row) = S(1);          // qdd_driven - ratio qdd_driver = 0
      ws.kkt(row, driver) = ws.kkt(driver, row) = -g.ratio[k];
      ++row;
    }
    ws.kkt_rhs.head(n) = ws.b;
    ws.kkt_rhs.tail(ws.kkt_rhs.size() - n).setZero();
    ws.lu->compute(ws.kkt);
    // With H positive definite and K of full row rank (each row has its own driven variable)
    // the system is nonsingular; an exactly zero pivot means H was not.
    for (Eigen::Index k = 0; k < ws.kkt.rows(); ++k)
      if (ws.lu->matrixLU()(k, k) == S(0))
        throw std::runtime_error("geared_lagrange: the constrained system is singular (a singular mass matrix?)");
    ws.kkt_sol.noalias() = ws.lu->solve(ws.kkt_rhs);  // into its own storage: no aliasing temporary
    for (int c = 0; c < g.ny; ++c) ydd[c] = ws.kkt_sol[g.v_of_y[c]];
  }
};

}  // namespace rbd
