#pragma once
// Forward dynamics by the inertia-matrix route with a dense solve: H by the CRBA
// (Table 6.2), C by the RNEA with qdd = 0 (section 6.1), then H qdd = tau - C by Eigen's
// dense Cholesky H = L L^T, which ignores the branch-induced sparsity. Cost O(n^3).
#include <string_view>

#include "bias/variants.hpp"
#include "forward_dynamics/workspace.hpp"
#include "mass_matrix/crba.hpp"

namespace rbd {

struct CrbaLltDense {
  static constexpr std::string_view name = "crba_llt_dense";
  static constexpr std::string_view summary =
      "CRBA + RNEA bias + Eigen's dense Cholesky solve of H qdd = tau - C";
  static constexpr std::string_view complexity = "O(n^3)";
  // Eigen's triangular solves work in panels of 8 columns, so the operation count is a
  // different cubic for each n mod 8: verify/opcounts.cpp records it without requiring one
  // polynomial to fit every n (the counts themselves are still gated exactly).
  static constexpr bool polynomial_op_counts = false;
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& tau,
                  const ExternalForces<S>* f_ext, VecX<S>& qdd, ForwardDynamicsWorkspace<S>& ws) {
    Crba::run<S>(model, q, ws.H, ws);                              // H; branch-induced zeros stay 0
    BiasFrom<RneaSpatial>::run<S>(model, q, qd, f_ext, ws.C, ws);  // C = ID(q, qd, 0, f_ext)
    qdd = tau - ws.C;
    ws.fact.llt.compute(ws.H);                                     // H = L L^T (dense)
    ws.fact.llt.solveInPlace(qdd);
  }
};

}  // namespace rbd
