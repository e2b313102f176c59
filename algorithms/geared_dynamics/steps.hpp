#pragma once
// What every geared variant does first and last (section 9.6): q = gamma(y) and qd = G yd, the
// tree's C = ID(q, qd, 0, f_ext) by the RNEA (Table 5.1) and H by the CRBA (Table 6.2), and
// finally the solve of G^T H G ydd = G^T (tau - C) (Eq. 9.26; g = 0 for constant ratios).
#include <stdexcept>

#include "geared_dynamics/workspace.hpp"
#include "inverse_dynamics/rnea_spatial.hpp"
#include "mass_matrix/crba.hpp"

namespace rbd::gears_detail {

template <class S>
void tree_terms(const Model<S>& m, const VecX<S>& y, const VecX<S>& yd, const VecX<S>& tau,
                const ExternalForces<S>* f_ext, GearedWorkspace<S>& ws) {
  ws.map.gamma(y, ws.q);
  ws.map.expand_velocity(yd, ws.qd);
  RneaSpatial::run<S>(m, ws.q, ws.qd, ws.zero, f_ext, ws.C, ws);  // C = ID(q, qd, 0)
  Crba::run<S>(m, ws.q, ws.H, ws);
  for (int k = 0; k < m.nv; ++k) ws.b[k] = tau[k] - ws.C[k];
}

// G^T H G ydd = rhs by Cholesky on the lower triangle of ws.Hy; ydd in out.
template <class S> void solve_projected(const char* variant, GearedWorkspace<S>& ws, VecX<S>& ydd) {
  if (ws.map.ny == 0) return;
  ws.llt->compute(ws.Hy);
  if (ws.llt->info() != Eigen::Success)
    throw std::runtime_error(std::string(variant) + ": G^T H G is not positive definite (a singular mass matrix?)");
  ydd = ws.rhs;
  ws.llt->solveInPlace(ydd);
}

}  // namespace rbd::gears_detail
