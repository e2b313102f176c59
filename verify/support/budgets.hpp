#pragma once
// The a-priori accuracy budgets of gate 3 (DESIGN.md section 2), one rule per way of
// computing. A budget is a first-order bound in units of eps = 2^-52 on
// ||x_double - x_ref|| / typical ||x_ref|| (verify/support/accuracy.hpp); it is derived, not
// fitted, and it is NOT what catches a regression: a variant that gets 10x worse while staying
// under its bound is caught by the regression gate, which holds every measured figure to its
// committed baseline (tools/gate.py). Each rule, and why it fits the variants it is used for:
//
// recursion: 16 (d + 1). The tree recursions (RNEA, CRBA, the bias) apply one transform and
//   one accumulation per level of the tree to every propagated vector, a few roundings each
//   (a 3x3 product and a cross product: at most ~8 per component), so their absolute errors
//   grow at most linearly with the depth d relative to the size of the terms (+1 for the final
//   projection S^T f). The constant 16 is that count rounded up.
//
// solve_with_H: cond2(H) (32 (d + 1) + 4 nv). For the routes that form H and C and solve
//   H x = b (the factorizations, crba_ltdl, crba_llt_dense, crba_floating_schur): the computed x solves
//   (H + dH) x = b + db exactly with ||dH|| / ||H|| and ||db|| / ||b|| each <= 16 (d + 1) eps
//   (the recursion bound, twice) plus the factorization's backward error <= ~4 nv eps ||H||
//   (Higham, Accuracy and Stability, Thm. 10.4, the constant of gamma_{3n+1} rounded up), and
//   ||x - x*|| / ||x*|| <= cond2(H) (||dH|| / ||H|| + ||db|| / ||b||) to first order.
//
// articulated_solves: 32 (d + 1) max_i cond2(D_i). For the articulated-body variants (aba,
//   aba_dh, aba_implicit, aba_floating). They never form or factor H: their only solves are
//   with D_i = S_i^T I^A_i S_i, one per joint (Table 7.1, Eq. 7.40's D_i^-1; Table 7.2's K_i
//   is a congruence of the same I^A_i), of size nv(joint) <= 6, and every other operation is a
//   transform, an accumulation or a rank-n_i Schur update of the recursion kind. So ABA's
//   error is the recursion bound -- counted for its three passes as 32 (d + 1) -- amplified
//   by the conditioning of the joint solves, which is 1 for every 1-DoF joint. cond2(H) is
//   the wrong scale for it: H's conditioning measures how a perturbation of tau in its worst
//   direction moves qdd, and ABA's roundings do not line up with that direction. The round-off
//   study measures it (reports/accuracy_studies.md): on chains with cond2(H) ~ 1e8 ABA's error
//   stays at tens of eps and grows with n like a recursion's (fitted slopes of error vs
//   cond2(H) ~0.2 for the ABA variants, ~0.85 for the CRBA routes). This bound rests on the
//   first-order model above, not on a proof that the oblique projections 1 - S D^-1 U^T of
//   the forward pass never amplify; the sweep and the round-off study check it on every case
//   and report measured / budget.
//
// inverse_inertias: 32 (d + 1) max_i lambda_max(I^A_i) / lambda_min(I_i). For aba_inverse_inertia
//   (Table 7.2, variant 1), whose solves are not with the D_i but with 6x6 inertias: each body's
//   own I_i is inverted (Phi_i = I_i^-1), and the assembly's Y = T^T (Phi_1 + Phi_2) T and pass 3's
//   K = T^T Phi_i T are congruences of inverse inertias. Every inertia on that route is a partial
//   articulated inertia: body p's own I_p plus the contributions (positive semi-definite) of some
//   of its children, so lambda_min >= lambda_min(I_p) and lambda_max <= lambda_max(I^A_p), and
//   its cond2 is at most lambda_max(I^A_p) / lambda_min(I_p). The rest is recursion work, as for
//   articulated_solves; so the recursion bound of the three passes, 32 (d + 1), amplified by
//   that ratio, to first order (the same kind of model as articulated_solves, checked the same way).
//   dca (section 7.5) takes the same rule: its leaves are the I_i^-1 and its assemblies
//   congruences T^T (Phi_2 + Phi_3) T of inverse inertias of sub-chains, each of which lies
//   between a body's own I_p^-1 and an inverse articulated inertia; first order, checked by the sweep.
// solve_with_geared_H: cond2(G^T H G) (32 (d + 1) + 4 nv). For the geared-dynamics variants
//   (section 9.6), which solve G^T H G ydd = G^T (tau - C): the argument of solve_with_H with
//   G^T H G in H's place. G is exact (ratios are data, one nonzero per row), so forming
//   G^T H G adds at most nv roundings per entry to the recursion's error in H; hence 4 nv as
//   for the factorization. geared_lagrange solves the equivalent saddle-point system with the
//   same solution; its multipliers absorb the constraint rows exactly (K has entries 1 and
//   -ratio with |ratio| <= 4 in the cases), so the conditioning that reaches ydd is that of the
//   reduced matrix G^T H G (the null-space form of the same system, G spanning K's null
//   space). First order, like the others, and checked on every case by the sweep.
// extended_articulated_solves and solve_with_extended_H: articulated_solves and solve_with_H for
//   the extended-joint variants (algorithms/extended_joints/), with the D_i and the H of the
//   extended model at the state's extensions and time: a rack adds r^2 m terms to H, a reversed
//   joint moves its S into the other body's frame, so the plain tree's D_i and H are not the
//   matrices these variants solve with. The same first-order arguments hold: jcalc_extended adds
//   a fixed handful of roundings per joint (c_J, sigma, one transform inversion) to each level's.
// solve_with_loops and solve_with_sparse_loops: the closed-loop family (chapter 8), each argued
//   at its max_cond_ function below.
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string_view>
#include <tuple>
#include <utility>

#include "cases/states.hpp"
#include "closed_loop_dynamics/sparse_matrix_method.hpp"
#include "closed_loop_dynamics/steps.hpp"
#include "contact_dynamics/contact_dantzig.hpp"
#include "extended_joints/variants.hpp"
#include "friction_dynamics/friction_lemke.hpp"
#include "impact_dynamics/impact_dantzig.hpp"
#include "cases/loop_contacts.hpp"
#include "loop_contact_dynamics/loop_contact_nullspace.hpp"
#include <Eigen/SVD>
#include "forward_dynamics/aba.hpp"
#include "mass_matrix/crba.hpp"
#include "verify/support/sparse_loop_conditioning.hpp"

namespace rbd::verify {

// Where seed k's state comes from. cases::random_state by default; a model with loop joints of its
// own (an MJCF file's <equality>) moves q onto them (cases/model_loop_states.hpp), and every
// conditioning figure below is then taken at the states the variants are measured on.
using StateSource = std::function<cases::State(const Model<double>&, int seed)>;
inline cases::State default_state(const Model<double>& md, int seed) {
  return cases::random_state(md, static_cast<std::uint64_t>(seed));
}

enum class BudgetRule {
  recursion, solve_with_H, articulated_solves, inverse_inertias, solve_with_geared_H, solve_with_loops, solve_with_sparse_loops,
  solve_with_contacts,
  impact_with_contacts, solve_with_loop_contacts, friction_with_contacts, extended_articulated_solves, solve_with_extended_H
};

inline std::string_view rule_name(BudgetRule r) {
  switch (r) {
    case BudgetRule::recursion: return "recursion";
    case BudgetRule::solve_with_H: return "solve_with_H";
    case BudgetRule::articulated_solves: return "articulated_solves";
    case BudgetRule::inverse_inertias: return "inverse_inertias";
    case BudgetRule::solve_with_geared_H: return "solve_with_geared_H";
    case BudgetRule::solve_with_loops: return "solve_with_loops";
    case BudgetRule::solve_with_sparse_loops: return "solve_with_sparse_loops";
    case BudgetRule::solve_with_contacts: return "solve_with_contacts";
    case BudgetRule::impact_with_contacts: return "impact_with_contacts";
    case BudgetRule::solve_with_loop_contacts: return "solve_with_loop_contacts";
    case BudgetRule::friction_with_contacts: return "friction_with_contacts";
    case BudgetRule::extended_articulated_solves: return "extended_articulated_solves";
    case BudgetRule::solve_with_extended_H: return "solve_with_extended_H";
  }
  return "?";
}

inline std::string_view rule_formula(BudgetRule r) {
  switch (r) {
    case BudgetRule::recursion: return "16 (d + 1)";
    case BudgetRule::solve_with_H: return "cond2(H) (32 (d + 1) + 4 nv)";
    case BudgetRule::articulated_solves: return "32 (d + 1) max_i cond2(D_i)";
    case BudgetRule::inverse_inertias: return "32 (d + 1) max_i lambda_max(I^A_i) / lambda_min(I_i)";
    case BudgetRule::solve_with_geared_H: return "cond2(G^T H G) (32 (d + 1) + 4 nv)";
    case BudgetRule::solve_with_loops: return "cond2(Z^T H Z) cond_r(K) (32 (d + 1) + 4 (nv + nc))";
    case BudgetRule::solve_with_sparse_loops: return "cond_r(A) (32 (d + 1) + 4 m), A = T^T P^T I^-1 P T of m rows";
    case BudgetRule::solve_with_contacts: return "cond2(Z_A^T H Z_A) cond2(T_A) (32 (d + 1) + 4 (nv + nc))";
    case BudgetRule::impact_with_contacts: return "cond2(Z_A^T H Z_A) cond2(T_A) (32 (d + 1) + 4 (nv + nc)), A the impact's";
    case BudgetRule::solve_with_loop_contacts:
      return "cond2(Z^T H Z) cond_r([K; T_A^T]) (32 (d + 1) + 4 (nv + n^c + nc)), Z spanning the null space of both";
    case BudgetRule::friction_with_contacts: return "cond2(Z_A^T H Z_A) cond2(K_A) rho_f (32 (d + 1) + 4 (nv + N)), K_A the held rows";
    case BudgetRule::extended_articulated_solves: return "32 (d + 1) max_i cond2(D_i), D_i of the extended joints";
    case BudgetRule::solve_with_extended_H: return "cond2(H) (32 (d + 1) + 4 nv), H of the extended joints";
  }
  return "?";
}

// lambda_max / lambda_min of a symmetric positive definite matrix, by Eigen's self-adjoint
// eigensolver (the symmetric part is taken: D_i^-1 is symmetric only to round-off).
template <class M> double cond2_spd_double(const M& A) {
  const Eigen::MatrixXd Ad = (A + A.transpose()) / 2;
  const Eigen::VectorXd ev = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(Ad, Eigen::EigenvaluesOnly).eigenvalues();
  if (!(ev[0] > 0)) throw std::runtime_error("budget: a matrix that should be positive definite has eigenvalue " +
                                             std::to_string(ev[0]));
  return ev[ev.size() - 1] / ev[0];
}

// cond2(H(q)) of the CRBA's H in double, maximised over the states of seeds 1..seeds: the
// amplification of relative perturbations of H and of the right-hand side into x of H x = b.
inline double max_cond_H(const Model<double>& md, int seeds, const StateSource& draw = default_state) {
  Workspace<double> ws(md);
  MatX<double> H = MatX<double>::Zero(md.nv, md.nv);
  double worst = 1;
  for (int seed = 1; seed <= seeds; ++seed) {
    Crba::run<double>(md, draw(md, seed).q, H, ws);
    worst = std::max(worst, cond2_spd_double(H));
  }
  return worst;
}

// max over bodies of cond2(D_i), D_i = S_i^T I^A_i S_i, at one state, from ABA's own D_i^-1 in
// double (a 1-DoF joint's D_i is a positive number: cond2 = 1).
inline double max_cond_D_at(const Model<double>& md, const cases::State& s) {
  ForwardDynamicsWorkspace<double> ws(md);
  VecX<double> qdd(md.nv);
  Aba::run<double>(md, s.q, s.qd, s.tau, &s.f_ext, qdd, ws);
  double worst = 1;
  for (int i = 0; i < md.nb; ++i)
    if (ws.Dinv[i].rows() > 1) worst = std::max(worst, cond2_spd_double(ws.Dinv[i]));
  return worst;
}

// The same, maximised over the states of seeds 1..seeds.
inline double max_cond_D(const Model<double>& md, int seeds, const StateSource& draw = default_state) {
  double worst = 1;
  for (int seed = 1; seed <= seeds; ++seed) worst = std::max(worst, max_cond_D_at(md, draw(md, seed)));
  return worst;
}

// max over bodies of lambda_max(I^A_i) / lambda_min(I_i) at one state (I^A_i from ABA in double,
// I_i the body's own inertia): the bound on cond2 of every partial articulated inertia.
inline double max_cond_inertias_at(const Model<double>& md, const cases::State& s) {
  ForwardDynamicsWorkspace<double> ws(md);
  VecX<double> qdd(md.nv);
  Aba::run<double>(md, s.q, s.qd, s.tau, &s.f_ext, qdd, ws);
  double worst = 1;
  for (int i = 0; i < md.nb; ++i) {
    using Solver = Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, 6, 6>>;
    const Mat6<double> Ii = aba_detail::inertia_matrix<double>(md.I[i]);
    const double lmin = Solver(Ii, Eigen::EigenvaluesOnly).eigenvalues()[0];
    const double lmax = Solver(Mat6<double>((ws.IA[i] + ws.IA[i].transpose()) / 2), Eigen::EigenvaluesOnly).eigenvalues()[5];
    if (!(lmin > 0)) throw std::runtime_error("budget: body " + std::to_string(i) + "'s inertia is not positive definite");
    worst = std::max(worst, lmax / lmin);
  }
  return worst;
}

inline double max_cond_inertias(const Model<double>& md, int seeds, const StateSource& draw = default_state) {
  double worst = 1;
  for (int seed = 1; seed <= seeds; ++seed)
    worst = std::max(worst, max_cond_inertias_at(md, draw(md, seed)));
  return worst;
}

// cond2(G^T H G) at the state's gear pairs (section 9.6), maximised over the states of seeds
// 1..seeds; H at q = gamma(y), y the state's undriven coordinates, as the family evaluates.
inline double max_cond_geared_H(const Model<double>& md, int seeds, const StateSource& draw = default_state) {
  Workspace<double> ws(md);
  MatX<double> H = MatX<double>::Zero(md.nv, md.nv);
  double worst = 1;
  for (int seed = 1; seed <= seeds; ++seed) {
    const cases::State s = draw(md, seed);
    const GearMap<double> g = GearMap<double>::build(md, s.gears);
    VecX<double> q = s.q;
    g.gamma(g.independent_positions(s.q), q);
    Crba::run<double>(md, q, H, ws);
    const MatX<double> G = g.dense_G();
    worst = std::max(worst, cond2_spd_double(MatX<double>(G.transpose() * H * G)));
  }
  return worst;
}
// For the closed-loop variants (chapter 8), at the state's loops (cases/loops.hpp), maximised
// over the states of seeds 1..seeds: cond2(Z^T H Z) cond_r(K), Z an orthonormal basis of K's
// null space, cond_r(K) = sigma_1 / sigma_r over K's r nonzero singular values (r from the same
// relative tolerance as the variants' rank test). Why this product: qdd is H's solve restricted
// to null(K) (Eq. 8.45 with G = Z), whose relative sensitivity to H, C and tau is cond2(Z^T H Z)
// as in solve_with_H; and K's own rounding moves null(K) and the particular solution g by
// cond_r(K) times K's relative error (the sin-theta bound for a subspace, first order), which
// the projected solve then carries into qdd, so the two amplifications multiply at worst. The
// KKT and lambda-first routes solve the same saddle-point system; with the dependent rows
// pruned, its solution's sensitivity is bounded by the same two factors. K's entries, k and the
// elimination add (nv + nc) roundings to the recursion's, hence 4 (nv + nc). A locked mechanism
// (r = nv) has Z empty: the first factor is 1.
// cond2(Z^T H Z) cond_r(K) for constraints K qdd = k: Z an orthonormal basis of K's null space,
// cond_r(K) = sigma_1 / sigma_r over K's r singular values above rank_tol sigma_1. H alone if K
// has no rows; 1 for the first factor if K locks the tree (r = nv).
inline double cond_constrained(const MatX<double>& K, const MatX<double>& H, double rank_tol) {
  if (K.rows() == 0) return cond2_spd_double(H);
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(K, Eigen::ComputeFullV);
  const Eigen::VectorXd sv = svd.singularValues();
  int r = 0;
  while (r < sv.size() && sv[r] > rank_tol * sv[0]) ++r;
  const double cond_K = r == 0 ? 1.0 : sv[0] / sv[r - 1];
  double cond_ZHZ = 1;
  if (r < H.rows()) {
    const Eigen::MatrixXd Z = svd.matrixV().rightCols(H.rows() - r);
    cond_ZHZ = cond2_spd_double(Eigen::MatrixXd(Z.transpose() * H * Z));
  }
  return cond_ZHZ * cond_K;
}

// The worst condition number over the states of seeds 1..seeds, and the largest constraint count
// beside it: at_seed(seed) returns {condition, count} for one seed's state. Shared by the
// constrained families' max_cond_* below, which differ only in how they make and solve a state.
template <class AtSeed>
double worst_over_seeds(int seeds, int& count_max, AtSeed&& at_seed) {
  double worst = 1;
  count_max = 0;
  for (int seed = 1; seed <= seeds; ++seed) {
    const auto [cond, count] = at_seed(seed);
    worst = std::max(worst, cond);
    count_max = std::max(count_max, static_cast<int>(count));
  }
  return worst;
}

inline double max_cond_loops(const Model<double>& md, int seeds, int& nc_max, const StateSource& draw = default_state) {
  return worst_over_seeds(seeds, nc_max, [&](int seed) {
    const cases::State s = draw(md, seed);
    const LoopJoints<double> loops = cases::close_loops<double>(md, s.q, s.loops);
    const VecX<double> qd = cases::consistent_velocity<double>(md, loops, s.q, s.qd);
    ClosedLoopWorkspace<double> ws(md);
    loops::tree_and_loop_terms<double>(md, loops, s.q, qd, s.tau, nullptr, ws);
    // ws.nc == 0: every drawn loop locked the tree and was dropped (cases/loops.hpp): a tree.
    const double cond = ws.nc == 0 ? cond2_spd_double(ws.H) : cond_constrained(ws.K, ws.H, ws.rank_tol);
    return std::pair{cond, ws.nc};
  });
}

// For section 8.13's sparse-matrix method (LoopSparseMatrix), which solves neither with H nor
// with K: it eliminates the bodies and factors A = T^T P^T I^-1 P T (m rows: every joint's
// constraint rows, the tree's included) for the constraint forces lambda, then recovers a^ and
// qdd from lambda through I^-1 (sparse_matrix_method.hpp). lambda's relative sensitivity to the
// rounding of A and b is cond_r(A) = lambda_1 / lambda_r over A's r nonzero eigenvalues
// (sparse_loop_conditioning.hpp; r the rank the factor kept), and the recovery carries it into
// qdd; A's and b's entries sum the recursion's terms at a body (the 32 (d + 1) of solve_with_H)
// and the elimination adds a rounding per row of A (4 m). A is a Gram matrix of the constraint
// forces' directions, so cond_r(A) is near the square of their own conditioning: this budget is
// the method's price, larger than solve_with_loops on the same model (the family page shows
// both), not a loosened tolerance. A as the variant assembles it in double at each state's loops,
// maximised over seeds 1..seeds; the ordering the variant chooses permutes A symmetrically,
// which leaves its eigenvalues alone.
inline double max_cond_sparse_loops(const Model<double>& md, int seeds, int& rows_max, const StateSource& draw = default_state) {
  return worst_over_seeds(seeds, rows_max, [&](int seed) {
    const cases::State s = draw(md, seed);
    const LoopJoints<double> loops = cases::close_loops<double>(md, s.q, s.loops);
    const VecX<double> qd = cases::consistent_velocity<double>(md, loops, s.q, s.qd);
    ClosedLoopWorkspace<double> ws(md);
    VecX<double> qdd(md.nv);
    LoopSparseMatrix::run<double>(md, loops, s.q, qd, s.tau, nullptr, qdd, ws);
    return std::pair{sparse_loop_condition(ws.sparse.ldlt), ws.sparse.rows};
  });
}

// For the contact variants (chapter 11), at the state's contacts (cases/contacts.hpp), maximised
// over the states of seeds 1..seeds: the active contacts A (lambda_i > 0, from contact_dantzig in
// double) are, at that state, equality constraints T_A^T qdd = -(T_dot^T qd)_A, and qdd is the
// closed-loop solve with K = T_A^T: cond2(Z_A^T H Z_A) cond2(T_A), by the argument of
// solve_with_loops. The active set itself is a discrete decision that rounding does not move at a
// nondegenerate state (every active lambda_i and every inactive zeta_dot_i away from zero), so to
// first order it adds nothing; at a degenerate one the LCP's solution is still Lipschitz in the
// data (M positive definite). M, d and the pivoting add (nv + nc) roundings per entry: 4 (nv + nc).
// cond_constrained for the contacts A with lambda_i > 0, as equality constraints T_A^T x = r.
inline double cond_active_contacts(const MatX<double>& T, const VecX<double>& lambda, const MatX<double>& H) {
  int na = 0;
  for (Eigen::Index i = 0; i < lambda.size(); ++i) na += lambda[i] > 0;
  MatX<double> KA(na, H.rows());
  for (Eigen::Index i = 0, r = 0; i < lambda.size(); ++i)
    if (lambda[i] > 0) KA.row(r++) = T.col(i).transpose();
  return cond_constrained(KA, H, 1e4 * static_cast<double>(H.rows()) * 2.220446049250313e-16);
}

inline double max_cond_contacts(const Model<double>& md, int seeds, int& nc_max, const StateSource& draw = default_state) {
  return worst_over_seeds(seeds, nc_max, [&](int seed) {
    const cases::State s = draw(md, seed);
    const PointContacts<double> contacts = cases::place_contacts<double>(md, s.q, s.contacts);
    const VecX<double> qd = cases::consistent_contact_velocity<double>(md, contacts, s.q, s.qd);
    ContactWorkspace<double> ws(md);
    VecX<double> qdd(md.nv);
    ContactDantzig::run<double>(md, contacts, s.q, qd, s.tau, nullptr, qdd, ws);
    return std::pair{cond_active_contacts(ws.T, ws.lambda, ws.Hd), ws.nc};
  });
}

// For the impact variants (section 11.7), at the impact state the family makes (families.hpp:
// cases::approaching_velocity): with A the contacts given an impulse (from impact_dantzig in
// double), qd^+ is the H-norm projection of qd^- onto {T_A^T qd = r_A} (r_A the Newton targets
// -e_i zeta^-_i), the same constrained solve as above with a velocity in place of an
// acceleration: cond2(Z_A^T H Z_A) cond2(T_A), and 4 (nv + nc) for M, b and the pivoting.
inline double max_cond_impacts(const Model<double>& md, int seeds, int& nc_max, const StateSource& draw = default_state) {
  return worst_over_seeds(seeds, nc_max, [&](int seed) {
    const cases::State s = draw(md, seed);
    const PointContacts<double> contacts = cases::place_contacts<double>(md, s.q, s.contacts);
    const VecX<double> qd = cases::approaching_velocity<double>(md, contacts, s.q, s.qd);
    ImpactWorkspace<double> ws(md);
    VecX<double> qd_plus(md.nv);
    ImpactDantzig::run<double>(md, contacts, s.q, qd, qd_plus, ws);
    return std::pair{cond_active_contacts(ws.T, ws.lambda, ws.Hd), ws.nc};
  });
}

// For the loop-contact variants, at the state the family makes (families.hpp: the loops closed,
// the contacts the loops leave independent, qd projected onto both), from loop_contact_nullspace's
// solution in double: at a nondegenerate solution the active contacts A (lambda_i > 0) are
// equality constraints beside the loops', so qdd is the constrained solve of solve_with_loops with
// the rows [K; T_A^T]: cond2(Z^T H Z) cond_r([K; T_A^T]) by the same argument (with the loops'
// rank test: K's redundant rows are dropped, not inverted). K, k, M, d and the pivoting add
// (nv + n^c + nc) roundings per entry.
inline double max_cond_loop_contacts(const Model<double>& md, int seeds, int& rows_max, const StateSource& draw = default_state) {
  return worst_over_seeds(seeds, rows_max, [&](int seed) {
    const cases::State s = draw(md, seed);
    const LoopJoints<double> loops = cases::close_loops<double>(md, s.q, s.loops);
    const PointContacts<double> contacts =
        cases::place_contacts<double>(md, s.q, cases::contacts_free_of_loops(md, s.loops, s.q, s.contacts));
    const VecX<double> qd = cases::consistent_loop_contact_velocity<double>(md, loops, contacts, s.q, s.qd);
    LoopContactWorkspace<double> ws(md);
    VecX<double> qdd(md.nv);
    LoopContactNullspace::run<double>(md, loops, contacts, s.q, qd, s.tau, nullptr, qdd, ws);
    int na = 0;
    for (int i = 0; i < ws.contact.nc; ++i) na += ws.contact.lambda[i] > 0;
    MatX<double> rows(ws.loop.nc + na, md.nv);
    rows.topRows(ws.loop.nc) = ws.loop.K;
    for (int i = 0, r = ws.loop.nc; i < ws.contact.nc; ++i)
      if (ws.contact.lambda[i] > 0) rows.row(r++) = ws.contact.T.col(i).transpose();
    return std::pair{cond_constrained(rows, ws.loop.H, ws.loop.rank_tol), ws.loop.nc + ws.contact.nc};
  });
}

// For the friction variants, at the state the family makes (families.hpp: cases::frictional_velocity),
// from friction_lemke's solution in double. At a nondegenerate solution each pressing contact
// (lambda_n > 0) holds rows K_A: its normal row, plus its two tangent rows if it stays stuck
// (sticking with gamma = 0); its force acts along columns F_A: the same three if stuck, else one,
// n + (f_t / lambda_n) (the kinetic law or the pyramid's boundary point). qdd then solves
// H qdd = tau - C + F_A x, K_A qdd = r_A: the constrained solve of solve_with_contacts when
// F_A = K_A^T, whose sensitivity is cond2(Z_A^T H Z_A) cond2(K_A). Friction tilts the force
// columns away from the rows: the multipliers come from K_A H^-1 F_A instead of the symmetric
// K_A H^-1 K_A^T, which amplifies a perturbation by sigma_min(K H^-1 K^T) / sigma_min(K H^-1 F)
// more (first order), and the columns are up to (1 + mu) longer; rho_f is the product of the two
// (1 without slipping contacts). N, the LCP's size, replaces nc in the rounding count.
inline double max_cond_friction(const Model<double>& md, int seeds, int& n_max, const StateSource& draw = default_state) {
  return worst_over_seeds(seeds, n_max, [&](int seed) {
    const cases::State s = draw(md, seed);
    const PointContacts<double> contacts = cases::place_contacts<double>(md, s.q, s.contacts);
    const VecX<double> qd = cases::frictional_velocity<double>(md, contacts, s.q, s.qd, s.contacts);
    FrictionWorkspace<double> ws(md);
    VecX<double> qdd(md.nv);
    FrictionLemke::run<double>(md, contacts, s.q, qd, s.tau, nullptr, qdd, ws);
    std::vector<Eigen::VectorXd> rows, cols;
    double mu_max = 0;
    bool slipping = false;
    for (int i = 0; i < ws.nc; ++i) {
      const double lambda = ws.f[3 * i];
      if (!(lambda > 0)) continue;
      // Stuck: a sticking contact with friction (it has a gamma: mu = 0 contacts have none, and
      // hold no tangent row) whose gamma is 0, i.e. it does not start to slip.
      const bool stuck = ws.gamma[i] >= 0 && ws.lcp_z[ws.gamma[i]] == 0;
      if (stuck) {
        for (int d = 0; d < 3; ++d) { rows.push_back(ws.T3.col(3 * i + d)); cols.push_back(ws.T3.col(3 * i + d)); }
      } else {
        rows.push_back(ws.T3.col(3 * i));
        cols.push_back(ws.T3.col(3 * i) + (ws.f[3 * i + 1] / lambda) * ws.T3.col(3 * i + 1) +
                       (ws.f[3 * i + 2] / lambda) * ws.T3.col(3 * i + 2));
        mu_max = std::max(mu_max, contacts[i].friction);
        slipping = true;
      }
    }
    const int na = static_cast<int>(rows.size());
    MatX<double> KA(na, md.nv), FA(md.nv, na);
    for (int r = 0; r < na; ++r) { KA.row(r) = rows[r].transpose(); FA.col(r) = cols[r]; }
    double rho = 1;
    if (slipping) {
      const Eigen::LLT<MatX<double>> llt(ws.Hd);
      const MatX<double> Msym = KA * llt.solve(MatX<double>(KA.transpose()));
      const MatX<double> Mf = KA * llt.solve(FA);
      auto sigma_min = [](const MatX<double>& A) {
        const Eigen::JacobiSVD<MatX<double>> svd(A);
        return svd.singularValues()[svd.singularValues().size() - 1];
      };
      rho = std::max(1.0, sigma_min(Msym) / sigma_min(Mf)) * (1 + mu_max);
    }
    const double cond = cond_constrained(KA, ws.Hd, 1e4 * static_cast<double>(md.nv) * 2.220446049250313e-16) * rho;
    return std::pair{cond, ws.N};
  });
}

// cond2(H) and max_i cond2(D_i) of the extended model (the state's joint extensions at its time
// t), maximised over the states of seeds 1..seeds, from crba_extended's H and aba_extended's D_i^-1.
inline std::pair<double, double> max_cond_extended(const Model<double>& md, int seeds, const StateSource& draw = default_state) {
  double worst_H = 1, worst_D = 1;
  for (int seed = 1; seed <= seeds; ++seed) {
    const cases::State s = draw(md, seed);
    const ExtendedModel<double> em{md, s.extensions};
    ExtendedWorkspace<double> ws(em);
    VecX<double> qdd(md.nv);
    CrbaExtended::run<double>(em, s.t, s.q, s.qd, s.tau, &s.f_ext, qdd, ws);
    worst_H = std::max(worst_H, cond2_spd_double(ws.H));
    AbaExtended::run<double>(em, s.t, s.q, s.qd, s.tau, &s.f_ext, qdd, ws);
    for (int i = 0; i < md.nb; ++i)
      if (ws.Dinv[i].rows() > 1) worst_D = std::max(worst_D, cond2_spd_double(ws.Dinv[i]));
  }
  return {worst_H, worst_D};
}

// The conditioning a budget rule needs, computed once per model and shared by the variants.
struct Conditioning {
  const Model<double>& md;
  int seeds;
  StateSource draw = default_state;  // the seeds' states, as the variants are measured on them
  double cond_H = -1, cond_D = -1, cond_I = -1, cond_GH = -1;  // -1: not needed (yet)
  double H() { return cond_H < 0 ? (cond_H = max_cond_H(md, seeds, draw)) : cond_H; }
  double D() { return cond_D < 0 ? (cond_D = max_cond_D(md, seeds, draw)) : cond_D; }
  double I() { return cond_I < 0 ? (cond_I = max_cond_inertias(md, seeds, draw)) : cond_I; }
  double GH() { return cond_GH < 0 ? (cond_GH = max_cond_geared_H(md, seeds, draw)) : cond_GH; }
  double cond_loops = -1;
  int nc_max = 0;
  double loops() {
    if (cond_loops < 0) cond_loops = max_cond_loops(md, seeds, nc_max, draw);
    return cond_loops;
  }
  int loop_nc() { loops(); return nc_max; }
  double cond_sparse_loops = -1;
  int sparse_rows = 0;
  double sparse_loops() {
    if (cond_sparse_loops < 0) cond_sparse_loops = max_cond_sparse_loops(md, seeds, sparse_rows, draw);
    return cond_sparse_loops;
  }
  int sparse_loop_rows() { sparse_loops(); return sparse_rows; }
  double cond_contacts = -1;
  int contacts_nc = 0;
  double contacts() {
    if (cond_contacts < 0) cond_contacts = max_cond_contacts(md, seeds, contacts_nc, draw);
    return cond_contacts;
  }
  int contact_nc() { contacts(); return contacts_nc; }
  double cond_impacts = -1;
  int impacts_nc = 0;
  double impacts() {
    if (cond_impacts < 0) cond_impacts = max_cond_impacts(md, seeds, impacts_nc, draw);
    return cond_impacts;
  }
  int impact_nc() { impacts(); return impacts_nc; }
  double cond_friction = -1;
  int friction_n = 0;
  double friction() {
    if (cond_friction < 0) cond_friction = max_cond_friction(md, seeds, friction_n, draw);
    return cond_friction;
  }
  int friction_lcp_size() { friction(); return friction_n; }
  double cond_loop_contacts = -1;
  int loop_contact_rows = 0;
  double loop_contacts() {
    if (cond_loop_contacts < 0) cond_loop_contacts = max_cond_loop_contacts(md, seeds, loop_contact_rows, draw);
    return cond_loop_contacts;
  }
  int loop_contact_count() { loop_contacts(); return loop_contact_rows; }
  double cond_extended_H = -1, cond_extended_D = -1;
  void extended() {
    if (cond_extended_H < 0) std::tie(cond_extended_H, cond_extended_D) = max_cond_extended(md, seeds, draw);
  }
  double extended_H() { extended(); return cond_extended_H; }
  double extended_D() { extended(); return cond_extended_D; }
};

inline double budget_eps(BudgetRule rule, Conditioning& c) {
  const double d1 = c.md.depth() + 1.0;
  switch (rule) {
    case BudgetRule::recursion: return 16.0 * d1;
    case BudgetRule::solve_with_H: return c.H() * (32.0 * d1 + 4.0 * c.md.nv);
    case BudgetRule::articulated_solves: return 32.0 * d1 * c.D();
    case BudgetRule::inverse_inertias: return 32.0 * d1 * c.I();
    case BudgetRule::solve_with_geared_H: return c.GH() * (32.0 * d1 + 4.0 * c.md.nv);
    case BudgetRule::solve_with_loops: return c.loops() * (32.0 * d1 + 4.0 * (c.md.nv + c.loop_nc()));
    case BudgetRule::solve_with_sparse_loops: return c.sparse_loops() * (32.0 * d1 + 4.0 * c.sparse_loop_rows());
    case BudgetRule::solve_with_contacts: return c.contacts() * (32.0 * d1 + 4.0 * (c.md.nv + c.contact_nc()));
    case BudgetRule::impact_with_contacts: return c.impacts() * (32.0 * d1 + 4.0 * (c.md.nv + c.impact_nc()));
    case BudgetRule::solve_with_loop_contacts:
      return c.loop_contacts() * (32.0 * d1 + 4.0 * (c.md.nv + c.loop_contact_count()));
    case BudgetRule::friction_with_contacts:
      return c.friction() * (32.0 * d1 + 4.0 * (c.md.nv + c.friction_lcp_size()));
    case BudgetRule::extended_articulated_solves: return 32.0 * d1 * c.extended_D();
    case BudgetRule::solve_with_extended_H: return c.extended_H() * (32.0 * d1 + 4.0 * c.md.nv);
  }
  throw std::logic_error("budget_eps: unknown rule");
}

}  // namespace rbd::verify
