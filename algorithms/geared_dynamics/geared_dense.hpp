#pragma once
// Eq. 9.26 with G and H treated as dense matrices: H G (every entry a length-nv dot product),
// then the lower triangle of G^T (H G), and G^T (tau - C). For Figure 9.2's arm (nv = 4, ny = 2)
// the product alone costs 44m + 33a, the figure section 9.6 quotes for the dense route
// (verify/test_gears.cpp counts it).
#include <string_view>

#include "geared_dynamics/steps.hpp"

namespace rbd {

struct GearedDense {
  static constexpr std::string_view name = "geared_dense";
  static constexpr std::string_view summary =
      "Eq. 9.26 with dense G: H (CRBA) and C (RNEA) of the tree, G^T H G and G^T (tau - C) as dense products, "
      "Cholesky (Eigen::LLT)";
  static constexpr std::string_view complexity = "O(nd + n^2 m + m^3)";
  static constexpr bool polynomial_op_counts = false;  // Eigen's blocked LLT, as llt_dense
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& m, const GearPairs& pairs, const VecX<S>& y, const VecX<S>& yd, const VecX<S>& tau,
                  const ExternalForces<S>* f_ext, VecX<S>& ydd, GearedWorkspace<S>& ws) {
    ws.prepare(m, pairs);
    gears_detail::tree_terms<S>(m, y, yd, tau, f_ext, ws);
    project<S>(ws.H, ws.G, ws.HG, ws.Hy);
    const Eigen::Index n = ws.G.rows(), ny = ws.G.cols();
    for (Eigen::Index r = 0; r < ny; ++r) {  // G^T (tau - C)
      S t = ws.G(0, r) * ws.b[0];
      for (Eigen::Index k = 1; k < n; ++k) t += ws.G(k, r) * ws.b[k];
      ws.rhs[r] = t;
    }
    gears_detail::solve_projected<S>("geared_dense", ws, ydd);
  }

  // The lower triangle of G^T H G, every product written out (the count Eq. 9.27 compares with).
  template <class S> static void project(const MatX<S>& H, const MatX<S>& G, MatX<S>& HG, MatX<S>& Hy) {
    const Eigen::Index n = G.rows(), ny = G.cols();
    for (Eigen::Index k = 0; k < n; ++k)
      for (Eigen::Index c = 0; c < ny; ++c) {
        S t = H(k, 0) * G(0, c);
        for (Eigen::Index j = 1; j < n; ++j) t += H(k, j) * G(j, c);
        HG(k, c) = t;
      }
    for (Eigen::Index r = 0; r < ny; ++r)
      for (Eigen::Index c = 0; c <= r; ++c) {
        S t = G(0, r) * HG(0, c);
        for (Eigen::Index k = 1; k < n; ++k) t += G(k, r) * HG(k, c);
        Hy(r, c) = t;
      }
  }
};

}  // namespace rbd
