#pragma once
// Scratch for the factorization family, sized once from a Model and reused, so that no
// variant allocates in run(). Kept apart from model/workspace.hpp: only this family (and
// the forward-dynamics variants that solve through it) needs it.
#include <vector>

#include <Eigen/Cholesky>

#include "factorization/sparse.hpp"

namespace rbd {

template <class S> struct FactorizationWorkspace {
  // Expanded parent array of Table 6.4 and the packed-row layout of H's pattern, computed
  // once (section 6.5: "it should be stored in the system model for future use"; rbdlab's
  // Model is immutable, so it lives here).
  TreePattern pattern;
  // The sparse factors in packed rows (sparse.hpp), in place of H's pattern: L (ltl_sparse)
  // or D and the strict lower part of unit L (ltdl_sparse). Only the diagonal and the
  // branch-induced pattern have a place; factor_matrix() shows them as a full matrix.
  PackedRows<S> rows;
  // Eigen's dense factorizations, constructed with their size so compute() does not allocate.
  Eigen::LLT<MatX<S>> llt;
  Eigen::LDLT<MatX<S>> ldlt;

  FactorizationWorkspace() = default;
  explicit FactorizationWorkspace(const Model<S>& m)
      : pattern(expanded_parent(m)), rows(PackedRows<S>::Zero(pattern.nonzeros())), llt(m.nv), ldlt(m.nv) {}

  // The sparse factor as a full matrix with exact zeros outside the pattern (allocates: for
  // inspection, not for hot paths).
  MatX<S> factor_matrix() const {
    MatX<S> M = MatX<S>::Zero(pattern.size(), pattern.size());
    unpack<S>(pattern, rows, M);
    return M;
  }
};

}  // namespace rbd
