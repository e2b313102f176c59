#pragma once
// Method 3 of section 8.5: solve the constraint equation first. Section 8.8's elimination
// turns K qdd = k + k_stab (Eq. 8.35) into qdd = G ydd + g (Eqs. 8.42-8.44, 8.51), ydd being
// the accelerations of the n - r variables the complete pivoting leaves free; then G^T
// removes lambda from Eq. 8.34 and
//   G^T H G ydd = G^T (tau - C + tau^a - H g)        (Eq. 8.45)
// is solved by Cholesky (G^T H G is symmetric positive definite). Redundant constraints need
// nothing special: the rank test drops them. A locked mechanism (r = n) has qdd = g.
#include <stdexcept>
#include <string_view>

#include "closed_loop_dynamics/elimination.hpp"
#include "closed_loop_dynamics/steps.hpp"

namespace rbd {

struct LoopNullspace {
  static constexpr std::string_view name = "loop_nullspace";
  static constexpr std::string_view summary =
      "Method 3 (section 8.5): qdd = G ydd + g by complete-pivoting elimination with a rank test (section 8.8, "
      "Eq. 8.51), then G^T H G ydd = G^T (tau - C - H g) by Cholesky (Eq. 8.45)";
  static constexpr std::string_view complexity = "O(nd) + O(n^c n^2) elimination + O(n^3) projection";
  static constexpr bool polynomial_op_counts = false;  // the pivoting and the rank depend on the state
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& m, const LoopJoints<S>& loops, const VecX<S>& q, const VecX<S>& qd,
                  const VecX<S>& tau, const ExternalForces<S>* f_ext, VecX<S>& qdd, ClosedLoopWorkspace<S>& ws) {
    loops::tree_and_loop_terms<S>(m, loops, q, qd, tau, f_ext, ws);
    loops::eliminate<S>(ws);
    loops::null_space_form<S>(ws);
    const int n = m.nv, ny = n - ws.rank;
    const auto G = ws.G.leftCols(ny);
    ws.col.noalias() = ws.H * ws.g;
    ws.col = ws.tau_prime - ws.col;                                   // tau' - H g
    ws.rhs.head(ny).noalias() = G.transpose() * ws.col;               // Eq. 8.45's right side
    ws.HG.leftCols(ny).noalias() = ws.H * G;
    ws.Hy.topLeftCorner(ny, ny).noalias() = G.transpose() * ws.HG.leftCols(ny);  // G^T H G
    qdd = ws.g;
    if (ny == 0) return;                                              // locked: qdd = g
    Eigen::Ref<MatX<S>> Hy = ws.Hy.topLeftCorner(ny, ny);
    Eigen::LLT<Eigen::Ref<MatX<S>>> llt(Hy);                          // in place: no allocation
    if (llt.info() != Eigen::Success)
      throw std::runtime_error("loop_nullspace: G^T H G is not positive definite (a singular mass matrix?)");
    auto ydd = ws.rhs.head(ny);
    llt.solveInPlace(ydd);
    qdd.noalias() += G * ydd;                                         // Eq. 8.42
  }
};

}  // namespace rbd
