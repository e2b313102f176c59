#pragma once
// Before forward dynamics or a solve with H: is H(q) numerically positive definite?
// A validated model has H positive definite in exact arithmetic (every body has positive
// mass and a positive definite inertia, every motion subspace full rank), but a body whose
// inertia is tiny against the rest of the tree (1e-300 kg, say) makes H singular in double,
// and the solve would return inf or a meaningless number. The check is an unpivoted LDL^T in
// the model's own variable order (stable for a symmetric positive definite H), so a pivot
// that falls to <= nv * eps * max_k H_kk, i.e. below the round-off of the elimination,
// points at the joint whose degree of freedom has no inertia left.
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "cli/numbers.hpp"
#include "mass_matrix/crba.hpp"

namespace rbd::cli {

inline void check_mass_matrix(const Model<double>& m, const VecX<double>& q, const std::vector<std::string>& joint_names) {
  Workspace<double> ws(m);
  MatX<double> H = MatX<double>::Zero(m.nv, m.nv);
  Crba::run<double>(m, q, H, ws);
  const double scale = H.diagonal().cwiseAbs().maxCoeff();
  const double tiny = m.nv * std::numeric_limits<double>::epsilon() * scale;
  MatX<double> L = H;
  for (int k = 0; k < m.nv; ++k) {
    for (int j = 0; j < k; ++j) L(k, k) -= L(k, j) * L(k, j) * L(j, j);
    const double d = L(k, k);
    if (!(d > tiny)) {
      int body = 0;
      for (int i = 0; i < m.nb; ++i)
        if (m.v_idx[i] <= k) body = i;
      std::ostringstream os;
      os.precision(3);
      os << "singular mass matrix: at this q, H's pivot for velocity variable " << k << " (joint '"
         << joint_names[body] << "', body '" << m.body_name[body] << "') is " << d << " against max H_kk = " << scale
         << " (needs > nv*eps*max H_kk = " << tiny << "); forward dynamics is undefined. Check that body's mass "
         << "and inertia against the rest of the model";
      throw BadInput(os.str());
    }
    for (int r = k + 1; r < m.nv; ++r) {
      for (int j = 0; j < k; ++j) L(r, k) -= L(r, j) * L(k, j) * L(j, j);
      L(r, k) /= d;
    }
  }
}

}  // namespace rbd::cli
