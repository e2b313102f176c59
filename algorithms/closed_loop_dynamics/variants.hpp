#pragma once
// The closed-loop family (Featherstone chapter 8): forward dynamics of a kinematic tree plus
// loop joints (model/loop_joint.hpp). Given the tree's q, qd (closing the loops at position
// and velocity level) and its joint forces tau, every variant returns the tree's qdd:
//   run(model, loops, q, qd, tau, f_ext, qdd, ws).
// They share the tree's C and H (RNEA, CRBA) and Table 8.4's K and k, and differ in how they
// solve Eqs. 8.34-8.35: section 8.5's three methods, the third also on section 8.9's loop
// clusters, and Pinocchio 3's proximal method (loop_proximal.hpp). Section 8.13's sparse-matrix method
// (sparse_matrix_method.hpp, LoopSparseMatrix) uses neither H nor K: it factors the bodies' and
// all joints' equations (Eq. 8.64) as one sparse system, so its accuracy follows its own matrix
// and the accuracy gate holds it to its own budget (verify/support/budgets.hpp's
// solve_with_sparse_loops).
#include <concepts>
#include <tuple>

#include "closed_loop_dynamics/loop_clustered_nullspace.hpp"
#include "closed_loop_dynamics/loop_kkt.hpp"
#include "closed_loop_dynamics/loop_lambda_first.hpp"
#include "closed_loop_dynamics/loop_nullspace.hpp"
#include "closed_loop_dynamics/loop_proximal.hpp"
#include "closed_loop_dynamics/sparse_matrix_method.hpp"

namespace rbd {

template <class V>
concept ClosedLoopVariant = requires(const Model<double>& m, const LoopJoints<double>& l, const VecX<double>& x,
                                     VecX<double>& out, ClosedLoopWorkspace<double>& ws) {
  { V::name } -> std::convertible_to<std::string_view>;
  { V::summary } -> std::convertible_to<std::string_view>;
  { V::template applicable<double>(m) } -> std::same_as<bool>;
  V::template run<double>(m, l, x, x, x, static_cast<const ExternalForces<double>*>(nullptr), out, ws);
};

using ClosedLoopVariants =
    std::tuple<LoopKkt, LoopLambdaFirst, LoopNullspace, LoopClusteredNullspace, LoopProximal, LoopSparseMatrix>;

static_assert(ClosedLoopVariant<LoopKkt> && ClosedLoopVariant<LoopLambdaFirst> && ClosedLoopVariant<LoopNullspace> &&
              ClosedLoopVariant<LoopClusteredNullspace> && ClosedLoopVariant<LoopProximal> &&
              ClosedLoopVariant<LoopSparseMatrix>);

}  // namespace rbd
