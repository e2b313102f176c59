#pragma once
// Method 1 of section 8.5: Eq. 8.36 solved directly,
//   [H  K^T] [ qdd   ]   [tau - C + tau^a]
//   [K   0 ] [-lambda] = [ k + k_stab    ],
// by a general-purpose solver (LU with partial pivoting). The matrix is singular when K is
// rank-deficient, so the linearly dependent rows are pruned first, as the section suggests:
// section 8.8's rank test picks r independent rows, and each dropped row is replaced by an
// identity row (its lambda is set to 0), which keeps the system's size fixed and the call
// free of allocation.
#include <stdexcept>
#include <string_view>

#include "closed_loop_dynamics/elimination.hpp"
#include "closed_loop_dynamics/steps.hpp"

namespace rbd {

struct LoopKkt {
  static constexpr std::string_view name = "loop_kkt";
  static constexpr std::string_view summary =
      "Method 1 (section 8.5): the full system of Eq. 8.36 with Lagrange multipliers, dependent constraint rows "
      "pruned by section 8.8's rank test, solved by LU with partial pivoting";
  static constexpr std::string_view complexity = "O(nd) + O((n + n^c)^3)";
  static constexpr bool polynomial_op_counts = false;  // pivoting
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& m, const LoopJoints<S>& loops, const VecX<S>& q, const VecX<S>& qd,
                  const VecX<S>& tau, const ExternalForces<S>* f_ext, VecX<S>& qdd, ClosedLoopWorkspace<S>& ws) {
    loops::tree_and_loop_terms<S>(m, loops, q, qd, tau, f_ext, ws);
    loops::eliminate<S>(ws);  // only for the rank test: row_of[0 .. rank) are independent rows
    const int n = m.nv, nc = ws.nc;
    ws.kkt.setZero();
    ws.kkt.topLeftCorner(n, n) = ws.H;
    ws.kkt_rhs.head(n) = ws.tau_prime;
    for (int t = 0; t < nc; ++t) {
      const int row = n + t;
      ws.kkt(row, row) = S(1);  // a dropped row: lambda = 0 ...
      ws.kkt_rhs[row] = S(0);
    }
    for (int t = 0; t < ws.rank; ++t) {  // ... unless it is one of the r independent rows
      const int c = ws.row_of[t], row = n + c;
      ws.kkt(row, row) = S(0);
      ws.kkt.block(row, 0, 1, n) = ws.K.row(c);
      ws.kkt.block(0, row, n, 1) = ws.K.row(c).transpose();
      ws.kkt_rhs[row] = ws.k[c];
    }
    ws.lu->compute(ws.kkt);
    ws.kkt_sol = ws.lu->solve(ws.kkt_rhs);
    qdd = ws.kkt_sol.head(n);
  }
};

}  // namespace rbd
