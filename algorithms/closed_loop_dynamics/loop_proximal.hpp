#pragma once
// The proximal method of multipliers for equality-constrained dynamics (Carpentier, Budhiraja and
// Mansard, "Proximal and sparse resolution of constrained dynamic equations", RSS 2021; Pinocchio
// 3's constraintDynamics with ProximalSettings), applied to Eqs. 8.34-8.35. Each iteration solves
// the regularised KKT system
//   [H   K^T ] [ qdd      ]   [ tau'          ]
//   [K  -mu 1] [ -lambda+ ] = [ k + mu lambda ],   i.e.  K qdd - k = mu (lambda - lambda+),
// which, with qdd = H^-1 (tau' + K^T lambda+) eliminated, is
//   (A + mu 1) lambda+ = b + mu lambda,     A = K H^-1 K^T, b = k - K H^-1 tau'   (Eqs. 8.38-8.39)
// so lambda+ = lambda + (A + mu 1)^-1 (b - A lambda): a proximal-point step on Method 2's
// A lambda = b. A + mu 1 is positive definite for any mu > 0, so there is no rank test and no
// pivoting: redundant constraints (A singular) are handled by the regularisation, and the
// iteration converges to the solution of A lambda = b nearest the start (lambda = 0), the
// component of the error along an eigenvalue sigma of A shrinking by mu / (sigma + mu) per step.
// qdd does not depend on which solution (K^T annihilates A's null space).
//
// Here A, b and H = L^T L come from Method 2's steps (lambda_system.hpp); Pinocchio factors the
// whole regularised KKT matrix by a sparse Cholesky instead, which is the same iteration.
// mu = ws.prox_mu_rel times A's largest diagonal entry (invariant to a uniform scaling of the
// constraints; rows in different units, forces and moments, are not rescaled).
// mu must exceed A's rounding, about n eps |A| from Y^T Y, so that A + mu 1 factors whatever
// A's rank, and be no larger than that needs, since each step shrinks the error along an
// eigenvalue sigma of A only by mu / (sigma + mu): the default 1e3 (n + n^c) eps is a factor
// 1e3 above the rounding (workspace.hpp). Stopping, as Pinocchio's (absolute and relative
// criteria): when the step moves lambda by at most ws.prox_tol_rel |lambda| (converged), or
// when the residual |b - A lambda| (the constraint-acceleration error k - K qdd) stops
// decreasing (its rounding floor; or an inconsistent part of b in A's null space, which moves
// lambda along that null space only, so not qdd; or a NaN from a NaN in tau, which then shows in
// qdd). A residual small in absolute terms is not enough: along an eigenvalue sigma << |A| the
// residual is sigma times lambda's error, so near a singular configuration it reaches rounding
// level long before lambda does (verify/test_loop_proximal.cpp's case c: 440 times loop_kkt's
// error in double when stopped there). More than ws.prox_max_iter iterations is an error naming
// the residual: A is then singular to within mu's reach.
#include <stdexcept>
#include <string>
#include <string_view>

#include "closed_loop_dynamics/lambda_system.hpp"

namespace rbd {

struct LoopProximal {
  static constexpr std::string_view name = "loop_proximal";
  static constexpr std::string_view summary =
      "Proximal method of multipliers (Carpentier et al., RSS 2021; Pinocchio 3): lambda+ = lambda + "
      "(A + mu 1)^-1 (b - A lambda) on Method 2's A = K H^-1 K^T, b (Eqs. 8.38-8.39) until lambda stops moving "
      "or the residual stops falling, then H qdd = tau - C + K^T lambda; no rank test";
  static constexpr std::string_view complexity = "O(nd) + O(n^c n d) + O((n^c)^3) + iterations O((n^c)^2)";
  static constexpr bool polynomial_op_counts = false;  // the number of iterations depends on the state
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& m, const LoopJoints<S>& loops, const VecX<S>& q, const VecX<S>& qd,
                  const VecX<S>& tau, const ExternalForces<S>* f_ext, VecX<S>& qdd, ClosedLoopWorkspace<S>& ws) {
    loops::tree_and_loop_terms<S>(m, loops, q, qd, tau, f_ext, ws);
    loops::lambda_system<S>(ws);
    iterate(ws);
    qdd = ws.tau_prime;  // H qdd = tau' + K^T lambda (Method 2's step 6)
    qdd.noalias() += ws.K.transpose() * ws.lambda;
    ltl_solve<S>(ws.pattern, ws.rows, qdd);
  }

  // workspace.hpp's prox_mu_rel and prox_tol_rel when the caller left them at 0 (the header says why).
  template <class S> static S default_mu_rel(int n, int nc) {
    return S(1000) * S(n + nc) * S(Eigen::NumTraits<S>::epsilon());
  }
  template <class S> static S default_tol_rel(int nc) { return S(8) * S(nc) * S(Eigen::NumTraits<S>::epsilon()); }

  template <class S> static void iterate(ClosedLoopWorkspace<S>& ws) {
    const int nc = ws.nc, n = static_cast<int>(ws.K.cols());
    ws.lambda.setZero();
    ws.prox_iterations = 0;
    ws.residual = S(0);
    if (nc == 0) return;
    S dmax = S(0);
    for (int j = 0; j < nc; ++j) dmax = std::max(dmax, S(abs_(ws.A(j, j))));
    if (!(dmax > S(0))) {  // A = 0 (K = 0 at this state): no constraint force can act
      ws.residual = ws.b.norm();
      return;
    }
    const S mu = (ws.prox_mu_rel > S(0) ? ws.prox_mu_rel : default_mu_rel<S>(n, nc)) * dmax;
    const S tol = ws.prox_tol_rel > S(0) ? ws.prox_tol_rel : default_tol_rel<S>(nc);
    ws.A_mu = ws.A;
    ws.A_mu.diagonal().array() += mu;
    auto& llt = *ws.prox_llt;
    llt.compute(ws.A_mu);
    if (llt.info() != Eigen::Success)
      throw std::runtime_error("loop_proximal: A + mu 1 is not positive definite (a singular mass matrix?)");
    // Norms are Euclidean: each step multiplies the residual by mu (A + mu 1)^-1, symmetric with
    // eigenvalues in (0, 1), so its 2-norm falls at every step until rounding or an inconsistent
    // part of b in A's null space (which that matrix leaves unchanged) stops it; the max norm can
    // rise for a step while the error still falls, and stopping on it would stop early.
    S last = S(-1);
    for (;;) {
      ws.residual_vec = ws.b;  // b - A lambda = k - K qdd(lambda)
      ws.residual_vec.noalias() -= ws.A * ws.lambda;
      const S r2 = ws.residual_vec.squaredNorm();
      ws.residual = sqrt_(r2);
      if (!(r2 >= S(0))) return;                    // NaN (from a NaN in tau): shows in qdd and here
      if (r2 == S(0)) return;                       // solved exactly
      if (last >= S(0) && !(r2 < last)) return;     // no longer falling: the floor
      if (ws.prox_iterations >= ws.prox_max_iter)
        throw std::runtime_error("loop_proximal: no convergence in " + std::to_string(ws.prox_max_iter) +
                                 " iterations (constraint residual " + std::to_string(static_cast<double>(ws.residual)) +
                                 "): the constraints are singular to within mu; lower prox_mu_rel");
      last = r2;
      llt.solveInPlace(ws.residual_vec);  // the step (A + mu 1)^-1 (b - A lambda)
      ws.lambda += ws.residual_vec;
      ++ws.prox_iterations;
      const S step2 = ws.residual_vec.squaredNorm();
      if (!(step2 >= S(0))) {                       // NaN step: report it, stop
        ws.residual = step2;
        return;
      }
      if (!(step2 > tol * tol * ws.lambda.squaredNorm())) return;  // lambda no longer moves: converged
    }
  }
};

}  // namespace rbd
