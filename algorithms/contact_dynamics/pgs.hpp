#pragma once
// Projected Gauss-Seidel for the LCP of Eq. 11.42, w = M lambda + d >= 0, lambda >= 0,
// w^T lambda = 0 -- the iterative solver of most real-time simulators (section 11.5 names the
// pivoting methods; PGS is the splitting method of Cottle, Pang and Stone's chapter 5 with the
// Gauss-Seidel splitting). One sweep visits the contacts in order and sets each
//     lambda_i <- max(0, lambda_i - (M lambda + d)_i / M_ii)
// with the newest values of the others: the exact minimiser of Eq. 11.43's quadratic over
// lambda_i >= 0 with the others fixed, so every sweep lowers 1/2 lambda^T M lambda + lambda^T d.
// For M symmetric positive definite the sweeps converge to the unique solution, linearly, at a
// rate that M's conditioning sets; they never end exactly, so PGS is measured
// (verify/lcp_solver_study.cpp: residual and error vs sweeps) rather than gated against the
// 40-digit oracle like the pivoting variants. A zero M_ii (a contact that no joint can move)
// leaves lambda_i unchanged.
#include "core/scalar.hpp"

namespace rbd::contacts {

// One sweep over lambda (in place).
template <class S> void pgs_sweep(const MatX<S>& M, const VecX<S>& d, VecX<S>& lambda) {
  for (Eigen::Index i = 0; i < lambda.size(); ++i) {
    if (!(M(i, i) > S(0))) continue;
    const S w = M.row(i).dot(lambda) + d[i];
    const S next = lambda[i] - w / M(i, i);
    lambda[i] = next > S(0) ? next : S(0);
  }
}

// The natural residual max_i |min(lambda_i, w_i)| of the LCP: zero exactly at a solution (lambda
// and w both >= 0 with one of each pair zero), and of the size of the violation otherwise.
template <class S> S lcp_residual(const MatX<S>& M, const VecX<S>& d, const VecX<S>& lambda) {
  S r = S(0);
  for (Eigen::Index i = 0; i < lambda.size(); ++i) {
    const S w = M.row(i).dot(lambda) + d[i];
    const S m = lambda[i] < w ? lambda[i] : w;
    r = std::max<S>(r, abs_(m));
  }
  return r;
}

}  // namespace rbd::contacts
