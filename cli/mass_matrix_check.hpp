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

// Unpivoted LDL^T of the symmetric H (L's multipliers below the diagonal, D on it), stopped
// at the first pivot d_k <= tiny: returns k and sets *pivot = d_k, or -1 if every pivot is
// above tiny. Any scalar (the CLI's double check, `rbdlab verify`'s Reference identity).
template <class S> int first_small_pivot(MatX<S> L, const S& tiny, S* pivot) {
  const int n = static_cast<int>(L.rows());
  for (int k = 0; k < n; ++k) {
    for (int j = 0; j < k; ++j) L(k, k) -= L(k, j) * L(k, j) * L(j, j);
    if (!(L(k, k) > tiny)) {
      *pivot = L(k, k);
      return k;
    }
    for (int r = k + 1; r < n; ++r) {
      for (int j = 0; j < k; ++j) L(r, k) -= L(r, j) * L(k, j) * L(j, j);
      L(r, k) /= L(k, k);
    }
  }
  return -1;
}

inline void check_mass_matrix(const Model<double>& m, const VecX<double>& q, const std::vector<std::string>& joint_names) {
  Workspace<double> ws(m);
  MatX<double> H = MatX<double>::Zero(m.nv, m.nv);
  Crba::run<double>(m, q, H, ws);
  const double scale = H.diagonal().cwiseAbs().maxCoeff();
  const double tiny = m.nv * std::numeric_limits<double>::epsilon() * scale;
  double d = 0;
  const int k = first_small_pivot<double>(H, tiny, &d);
  if (k < 0) return;
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

}  // namespace rbd::cli
