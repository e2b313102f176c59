#pragma once
// One uniform view of every family for the gates and the sweep: the variants to run, how to
// evaluate one of them on a state, and what the independent oracle says. A new family adds
// one struct here and joins `AllFamilies`; a new variant only joins its family's list.
#include <string_view>
#include <tuple>

#include <Eigen/Eigenvalues>

#include "bias/variants.hpp"
#include "factorization/variants.hpp"
#include "forward_dynamics/variants.hpp"
#include "inverse_dynamics/variants.hpp"
#include "mass_matrix/variants.hpp"
#include "verify/support/state.hpp"

namespace rbd::verify {

struct InverseDynamicsFamily {
  static constexpr std::string_view name = "inverse_dynamics";
  using Variants = InverseDynamicsVariants;
  template <class V, class S>
  static MatX<S> evaluate(const Model<S>& m, const StateOf<S>& x, Workspace<S>& ws) {
    VecX<S> tau(m.nv);
    V::template run<S>(m, x.q, x.qd, x.qdd, &x.f_ext, tau, ws);
    return tau;
  }
};

struct MassMatrixFamily {
  static constexpr std::string_view name = "mass_matrix";
  using Variants = MassMatrixVariants;
  template <class V, class S>
  static MatX<S> evaluate(const Model<S>& m, const StateOf<S>& x, Workspace<S>& ws) {
    MatX<S> H = MatX<S>::Zero(m.nv, m.nv);
    V::template run<S>(m, x.q, H, ws);
    return H;
  }
};

struct BiasFamily {
  static constexpr std::string_view name = "bias";
  using Variants = BiasVariants;
  template <class V, class S>
  static MatX<S> evaluate(const Model<S>& m, const StateOf<S>& x, Workspace<S>& ws) {
    VecX<S> C(m.nv);
    V::template run<S>(m, x.q, x.qd, &x.f_ext, C, ws);
    return C;
  }
};

// cond2(H(q)) = lambda_max / lambda_min of the CRBA's H in double (self-adjoint
// eigen-decomposition), maximised over the states of seeds 1..seeds: the amplification of
// relative perturbations of H and of the right-hand side into the solution of H x = b.
inline double max_cond_H(const Model<double>& md, int seeds) {
  Workspace<double> ws(md);
  MatX<double> H = MatX<double>::Zero(md.nv, md.nv);
  double worst = 1;
  for (int seed = 1; seed <= seeds; ++seed) {
    Crba::run<double>(md, cases::random_state(md, seed).q, H, ws);
    const VecX<double> ev = Eigen::SelfAdjointEigenSolver<MatX<double>>(H, Eigen::EigenvaluesOnly).eigenvalues();
    worst = std::max(worst, ev[ev.size() - 1] / ev[0]);
  }
  return worst;
}

// Accuracy-sweep budget (in eps, against the typical size of the solution) for a family that
// solves with H: the computed x solves (H + dH) x = b + db exactly, and
// ||x - x*|| / ||x*|| <= cond2(H) (||dH|| / ||H|| + ||db|| / ||b||) to first order. The
// recursions give H, C and tau to 16 (d + 1) eps each relative to the size of their terms
// (accuracy_sweep.cpp's bound, twice: once for H, once for the right-hand side), and a
// Cholesky-type factorization and solve adds a backward error of at most ~4 nv eps ||H||
// in the normwise sense (Higham, Accuracy and Stability, Thm. 10.4, with the constant of
// its gamma_{3n+1} rounded up). Hence cond2(H) * (32 (d + 1) + 4 nv), with cond2 the worst over
// the sweep's seeds. It is an upper bound from first principles, not fitted to the data.
inline double solve_budget_eps(const Model<double>& md, int seeds) {
  return max_cond_H(md, seeds) * (32.0 * (md.depth() + 1) + 4.0 * md.nv);
}

// Factor H(q) (from the CRBA, in the same scalar) and solve H x = tau. The measured error in
// double is that of the whole pipeline (H's own round-off included), amplified by cond(H).
struct FactorizationFamily {
  static constexpr std::string_view name = "factorization";
  using Variants = FactorizationVariants;
  template <class V, class S>
  static MatX<S> evaluate(const Model<S>& m, const StateOf<S>& x, Workspace<S>& ws) {
    MatX<S> H = MatX<S>::Zero(m.nv, m.nv);
    Crba::run<S>(m, x.q, H, ws);
    FactorizationWorkspace<S> fws(m);  // the harness may allocate; run() does not
    VecX<S> sol(m.nv);
    V::template run<S>(m, H, x.tau, sol, fws);
    return sol;
  }
  static double budget_eps(const Model<double>& md, int seeds) { return solve_budget_eps(md, seeds); }
};

// qdd = FD(q, qd, tau, f_ext). The variants need a ForwardDynamicsWorkspace (a Workspace plus
// the family's own storage), made here per call.
struct ForwardDynamicsFamily {
  static constexpr std::string_view name = "forward_dynamics";
  using Variants = ForwardDynamicsVariants;
  template <class V, class S>
  static MatX<S> evaluate(const Model<S>& m, const StateOf<S>& x, Workspace<S>&) {
    ForwardDynamicsWorkspace<S> fws(m);
    VecX<S> qdd(m.nv);
    V::template run<S>(m, x.q, x.qd, x.tau, &x.f_ext, qdd, fws);
    return qdd;
  }
  static double budget_eps(const Model<double>& md, int seeds) { return solve_budget_eps(md, seeds); }
};

using AllFamilies = std::tuple<InverseDynamicsFamily, MassMatrixFamily, BiasFamily, FactorizationFamily,
                               ForwardDynamicsFamily>;

// Calls f.template operator()<T>() for each type T in a tuple.
template <class Tuple, class F> void for_each_type(F&& f) {
  [&]<class... T>(std::tuple<T...>*) { (f.template operator()<T>(), ...); }(static_cast<Tuple*>(nullptr));
}

}  // namespace rbd::verify
