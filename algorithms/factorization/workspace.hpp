#pragma once
// Scratch for the factorization family, sized once from a Model and reused, so that no
// variant allocates in run(). Kept apart from model/workspace.hpp: only this family (and
// the forward-dynamics variants that solve through it) needs it.
#include <vector>

#include <Eigen/Cholesky>

#include "factorization/sparse.hpp"

namespace rbd {

template <class S> struct FactorizationWorkspace {
  // Expanded parent array of Table 6.4, computed once (section 6.5: "it should be stored in
  // the system model for future use"; rbdlab's Model is immutable, so it lives here).
  // With it, its runs of consecutive ancestors (Ancestors in sparse.hpp).
  Ancestors lambda;
  // The sparse factors, in place of H's lower triangle: L (ltl_sparse) or D and the strict
  // lower part of unit L (ltdl_sparse). Zero-initialised; the sparse variants write only
  // the diagonal and the branch-induced pattern, so every other entry stays exactly zero.
  // Stored row by row: the inner loops of Tables 6.3 and 6.5 run along rows (over a row's
  // ancestor columns), which are then contiguous and vectorise.
  Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> L;
  // Eigen's dense factorizations, constructed with their size so compute() does not allocate.
  Eigen::LLT<MatX<S>> llt;
  Eigen::LDLT<MatX<S>> ldlt;

  FactorizationWorkspace() = default;
  explicit FactorizationWorkspace(const Model<S>& m)
      : lambda(expanded_parent(m)), L(decltype(L)::Zero(m.nv, m.nv)), llt(m.nv), ldlt(m.nv) {}
};

}  // namespace rbd
