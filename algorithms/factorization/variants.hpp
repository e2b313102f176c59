#pragma once
// The factorization family: factor the joint-space inertia H and solve H x = b.
//   run(model, H, b, x, ws)   x = H^-1 b, ws a FactorizationWorkspace<S> built from the model
// Every variant also has factor(H, ws) and solve(ws, x) (x in place), so the factor can be
// inspected (ws.factor_matrix() for the sparse variants, ws.llt / ws.ldlt for Eigen's) and reused for
// several right-hand sides. Each variant is listed once here; the list drives the tests,
// the accuracy sweep and the op counts.
#include <concepts>
#include <tuple>

#include "factorization/ldlt_dense.hpp"
#include "factorization/llt_dense.hpp"
#include "factorization/ltdl_sparse.hpp"
#include "factorization/ltl_sparse.hpp"

namespace rbd {

template <class V>
concept FactorizationVariant = requires(const Model<double>& m, const MatX<double>& H, const VecX<double>& b,
                                        VecX<double>& x, FactorizationWorkspace<double>& ws) {
  { V::name } -> std::convertible_to<std::string_view>;
  { V::summary } -> std::convertible_to<std::string_view>;
  { V::template applicable<double>(m) } -> std::same_as<bool>;
  V::template run<double>(m, H, b, x, ws);
  V::template factor<double>(H, ws);
  V::template solve<double>(ws, x);
};

using FactorizationVariants = std::tuple<LltDense, LdltDense, LtlSparse, LtdlSparse>;

static_assert(FactorizationVariant<LltDense> && FactorizationVariant<LdltDense> &&
              FactorizationVariant<LtlSparse> && FactorizationVariant<LtdlSparse>);

}  // namespace rbd
