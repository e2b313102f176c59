#pragma once
// Round-off of every forward-dynamics variant against body count (Featherstone section 10.1,
// "Round-off Error in Dynamics Algorithms"), for verify/roundoff_study.cpp.
//
// For one model family (GU(n), auto_tree chains, binary trees) and each n of a grid, on seeded
// states: qdd from each variant of the compiled family table in double, against the truth =
// ABA's run in the 50-digit Reference scalar. The truth is confirmed twice, by computations
// that share nothing with it:
//  - every other variant's Reference run agrees with it to 40 digits (the CRBA routes form H
//    and solve; aba_implicit projects with T and T_a instead of S);
//  - independently of algorithms/ altogether, the Lagrangian oracle (reference/, 4x4 poses and
//    automatic differentiation) takes qdd_ref back to tau on the first state:
//    r = ID_oracle(q, qd, qdd_ref) - tau, and since qdd_ref - qdd* = H^-1 r,
//    ||qdd_ref - qdd*|| / ||qdd*|| <= ||r|| / (lambda_min(H) ||qdd_ref||) to first order,
//    with lambda_min(H) from the double eigen-decomposition, deflated by its stated relative
//    accuracy (below). -log10 of that bound is recorded as `truth_confirmed_digits` and held to
//    kTruthDigitsGate (40, as gate 1). The oracle's O(n^2) cost per state (n passes of the
//    energies, each O(n) in second-order duals of Reference) is why it runs on one state per n,
//    and only up to kOracleEveryNUpTo, plus the largest n of the family that CaseFamily::
//    oracle_at_largest_n names (the planar chain: the worst cond2(H) of the four at every n
//    >= 16, roundoff.json): n = 192 and 256 on all four families cost ~80% of the study's
//    time, and beyond n = 64 the truth's formula is the same and only its conditioning grows.
// Error = ||qdd - qdd_ref||_2 / ||qdd_ref||_2 in units of eps = 2^-52, and the same absolute
// error over the RMS of ||qdd_ref|| over the seeds (the accuracy sweep's gated measure,
// verify/support/accuracy.hpp), held per state to the variant's budget rule
// (verify/support/budgets.hpp: cond2(H)-scaled for the CRBA routes, 32 (d + 1) max cond2(D_i)
// for the articulated-body variants). A NaN or inf anywhere fails the point, by name.
//
// cond2(H) = lambda_max / lambda_min of the CRBA's H(q) in double, by Eigen's self-adjoint
// eigensolver. Its stated relative accuracy is cond2(H) * (16 (d + 1) + 4 n) eps: H carries
// <= 16 (d + 1) eps of relative error per entry (the sweep's recursion bound), the backward-
// stable eigensolver adds <= ~4 n eps ||H||_2 (Golub & Van Loan 8.4 with its constant rounded
// up), and an absolute perturbation delta of H moves lambda_min by <= delta (Weyl), i.e. by a
// relative cond2 * delta / ||H||. Where that accuracy is worse than 10% the point is flagged.
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cases/states.hpp"
#include "mass_matrix/crba.hpp"
#include "reference/lagrange_oracle.hpp"
#include "verify/support/family_table.hpp"
#include "verify/support/gated_figures.hpp"
#include "verify/support/loglog_fit.hpp"
#include "verify/support/metrics.hpp"
#include "verify/support/symmetric_eigenvalues.hpp"

namespace rbd::verify::roundoff {

inline constexpr double kEps = std::numeric_limits<double>::epsilon();
// The other variants' Reference runs are compared with ABA's on the first state up to this n
// (every n of the study's grid; a dense solve in Reference at n = 256 takes well under a second).
inline constexpr int kCrossCheckMaxN = 256;
inline constexpr double kCrossDigitsGate = 40.0;  // gate 1's agreement (verify/support/accuracy.hpp)
// The oracle's confirmation of the truth: 40 digits, as gate 1. What the bound itself costs:
// the residual r is a sum of nv-term products rounded at eps_R ~ 1e-50, and dividing by
// lambda_min multiplies it by up to cond2(H) -- but r is the residual of a solution already
// accurate to ~eps_R cond2(H) in the worst direction only, and measured the confirmation
// loses 2 to 6 digits up to n = 256 (roundoff.json, truth_confirmed_digits). An O(1) formula
// error in the truth shows as ~0 digits.
inline constexpr double kTruthDigitsGate = 40.0;
inline constexpr int kOracleEveryNUpTo = 64;
// cond2(H) in double is checked against Reference (Jacobi, O(n^3) per sweep) up to this n.
inline constexpr int kCondCheckMaxN = 32;

struct CaseFamily {
  std::string id, title;
  std::function<Model<double>(int)> make;
  bool oracle_at_largest_n = false;  // the oracle also confirms the truth at the grid's largest n
};

// Per-state series are written with 4 significant digits (plenty for plots and tables; the
// JSON stays small); maxima, means and fits keep every digit.
inline std::vector<double> sig4(std::vector<double> x) {
  for (double& v : x) {
    char b[32];
    std::snprintf(b, sizeof b, "%.4g", v);
    v = std::strtod(b, nullptr);
  }
  return x;
}

// lambda_min and lambda_max of H in double.
inline std::pair<double, double> extreme_eigenvalues(const MatX<double>& H) {
  const VecX<double> ev = Eigen::SelfAdjointEigenSolver<MatX<double>>(H, Eigen::EigenvaluesOnly).eigenvalues();
  return {ev[0], ev[ev.size() - 1]};
}
inline double cond2_double(const MatX<double>& H) {
  const auto [lo, hi] = extreme_eigenvalues(H);
  return hi / lo;
}

struct Outcome {
  bool ok = true;
  std::vector<std::string> failures;
  GatedFigures figures;
  void fail(const std::string& why) { ok = false; failures.push_back(why); }
};

// One case family over the n grid; `seeds_for(n)` seeded states per n. `fd` is the
// forward-dynamics family (a test passes a copy with a variant made to return NaN).
inline nlohmann::json sweep(const CaseFamily& cf, const std::vector<int>& ns, const std::function<int(int)>& seeds_for,
                            Outcome& out, const FamilyEntry& fd = forward_dynamics_family()) {
  const VariantEntry& truth_variant = variant_named(fd, "aba");
  nlohmann::json points = nlohmann::json::array();
  // variant -> the n it ran its own code at, its mean error there; every (cond2, error) pair
  std::map<std::string, std::vector<double>> fit_n, fit_mean, fit_err, fit_cond;
  std::vector<double> cond_n, cond_v;
  for (int n : ns) {
    const std::string at = cf.id + " n=" + std::to_string(n);
    const Model<double> md = cf.make(n);
    const Model<Reference> mr = md.cast<Reference>();
    Workspace<double> wd(md);
    Workspace<Reference> wr(mr);
    const int seeds = seeds_for(n);
    std::vector<double> cond(seeds), cond_acc(seeds), size(seeds), lambda_min(seeds);
    std::vector<MatX<Reference>> truth(seeds);
    std::vector<cases::State> states;
    MatX<double> H = MatX<double>::Zero(md.nv, md.nv);
    for (int s = 0; s < seeds; ++s) {
      states.push_back(cases::random_state(md, s + 1));
      Crba::run<double>(md, states[s].q, H, wd);
      const auto [lo, hi] = extreme_eigenvalues(H);
      cond[s] = hi / lo;
      lambda_min[s] = lo;
      cond_acc[s] = cond[s] * (16.0 * (md.depth() + 1) + 4.0 * md.nv) * kEps;
      truth[s] = truth_variant.in_reference(mr, cast_state<Reference>(mr, states[s]), wr);
      size[s] = static_cast<double>(truth[s].norm());
      if (!all_finite(truth[s]) || !std::isfinite(cond[s]) || !(lo > 0))
        out.fail(at + " seed " + std::to_string(s + 1) + ": the truth (aba in Reference) or cond2(H) is not finite");
      cond_n.push_back(n);
      cond_v.push_back(cond[s]);
    }
    // The double cond2 against the same H's cond2 in Reference (CRBA in Reference, Jacobi
    // eigenvalues) on the first state, where Jacobi in Reference is cheap: it must agree within
    // the stated accuracy cond_acc.
    double cond_ref = -1;
    if (n <= kCondCheckMaxN) {
      const MatX<Reference> Hr = variant_named(mass_matrix_family(), "crba").in_reference(mr, cast_state<Reference>(mr, states[0]), wr);
      cond_ref = static_cast<double>(cond2_spd<Reference>(Hr));
      if (!(std::abs(cond[0] / cond_ref - 1) <= cond_acc[0]))
        out.fail(at + ": cond2(H) in double " + std::to_string(cond[0]) + " vs Reference " + std::to_string(cond_ref) +
                 " outside the stated accuracy");
    }
    // The oracle's confirmation of the truth on the first state (see the header comment).
    double truth_digits = -1;  // -1: not run at this n (written as absent)
    if (n <= kOracleEveryNUpTo || (cf.oracle_at_largest_n && n == ns.back())) {
      const StateOf<Reference> x0 = cast_state<Reference>(mr, states[0]);
      const VecX<Reference> qdd0 = truth[0].col(0);
      const VecX<Reference> r = oracle::inverse_dynamics(mr, x0.q, x0.qd, qdd0, &x0.f_ext) - x0.tau;
      const double lmin = lambda_min[0] * (1 - std::min(cond_acc[0], 0.5));  // a lower bound on lambda_min
      const double bound = static_cast<double>(r.norm() / qdd0.norm()) / lmin;
      truth_digits = bound > 0 ? std::min(50.0, -std::log10(bound)) : 50.0;
      if (!(truth_digits >= kTruthDigitsGate))
        out.fail(at + ": the oracle confirms the truth to only " + std::to_string(truth_digits) + " digits");
      out.figures.digits("vs_n/" + cf.id + "/" + std::to_string(n) + "/truth_confirmed_digits", truth_digits, kTruthDigitsGate);
    }
    double typical = 0;
    for (double x : size) typical += x * x / seeds;
    typical = std::sqrt(typical);
    nlohmann::json variants = nlohmann::json::object();
    double cross_digits = 50;
    for (const VariantEntry& v : fd.variants) {
      if (!v.applicable_in_double(md)) continue;
      const std::string name(v.name), id = "vs_n/" + cf.id + "/" + std::to_string(n) + "/" + name;
      if (!v.fallback_to(md).empty()) {
        // This variant hands the model to another; its figures would be that variant's.
        variants[name] = {{"fallback_to", std::string(v.fallback_to(md))}};
        continue;
      }
      std::vector<double> err(seeds), vs_typ(seeds), budget(seeds);
      Conditioning conditioning{md, 0};
      bool finite = true;
      for (int s = 0; s < seeds; ++s) {
        const MatX<double> x = v.in_double(md, cast_state<double>(md, states[s]), wd);
        // The budget per state, by the variant's rule: cond2(H) of this state for the CRBA
        // routes; for the articulated-body variants max_i cond2(D_i), which is 1 on these
        // 1-DoF-joint families (checked: the rule's value is computed, not assumed).
        conditioning.cond_H = cond[s];
        conditioning.cond_D = v.budget_rule == BudgetRule::articulated_solves ? max_cond_D_at(md, states[s]) : -1;
        conditioning.cond_I = v.budget_rule == BudgetRule::inverse_inertias ? max_cond_inertias_at(md, states[s]) : -1;
        budget[s] = budget_eps(v.budget_rule, conditioning);
        err[s] = error_in_eps(x, truth[s]);
        const MatX<Reference> d = x.unaryExpr([](double t) { return Reference(t); }) - truth[s];
        vs_typ[s] = static_cast<double>(d.norm()) / typical / kEps;
        if (!all_finite(x) || !std::isfinite(err[s]) || !std::isfinite(vs_typ[s])) {
          finite = false;
          out.fail(at + " seed " + std::to_string(s + 1) + ": " + name + " in double gives NaN/inf");
        } else if (vs_typ[s] > budget[s]) {
          out.fail(at + " seed " + std::to_string(s + 1) + ": " + name + " error " + std::to_string(vs_typ[s]) +
                   " eps > budget " + std::to_string(budget[s]) + " eps");
        }
        fit_err[name].push_back(err[s]);
        fit_cond[name].push_back(cond[s]);
      }
      if (n <= kCrossCheckMaxN && &v != &truth_variant) {
        const MatX<Reference> r = v.in_reference(mr, cast_state<Reference>(mr, states[0]), wr);
        const double dg = exact_digits(rel_diff(r, truth[0]));  // 0 for NaN/inf
        cross_digits = std::min(cross_digits, dg);
        if (dg < kCrossDigitsGate)
          out.fail(at + ": " + name + " in Reference agrees with aba to only " + std::to_string(dg) + " digits");
      }
      double mx = 0, mean = 0;
      for (double e : err) { mx = std::max(mx, e); mean += e / seeds; }
      if (!finite) mx = mean = std::nan("");  // written as null: the gate rejects it
      fit_n[name].push_back(n);
      fit_mean[name].push_back(mean);
      out.figures.error(id + "/err_eps_max", mx, "eps");
      out.figures.error(id + "/err_eps_mean", mean, "eps");
      variants[name] = {{"err_eps", sig4(err)}, {"err_eps_vs_typical", sig4(vs_typ)}, {"err_eps_max", mx},
                        {"err_eps_mean", mean}, {"budget_rule", rule_name(v.budget_rule)}, {"budget_eps", sig4(budget)}};
    }
    nlohmann::json pj = {{"n", n}, {"nv", md.nv}, {"depth", md.depth()}, {"seeds", seeds}, {"cond_H", sig4(cond)},
                         {"cond_H_rel_accuracy", sig4(cond_acc)}, {"typical_norm_qdd", typical},
                         {"variants", variants}};
    if (truth_digits >= 0) pj["truth_confirmed_digits"] = truth_digits;
    if (n <= kCrossCheckMaxN) {
      pj["reference_cross_digits"] = cross_digits;
      out.figures.digits("vs_n/" + cf.id + "/" + std::to_string(n) + "/reference_cross_digits", cross_digits, kCrossDigitsGate);
    }
    if (cond_ref > 0) pj["cond_H_reference_seed1"] = cond_ref;
    points.push_back(pj);
  }
  // Growth fits: mean error over the seeds vs n (n >= 8, where the asymptotic growth shows),
  // and every (state, error) pair vs that state's cond2(H).
  nlohmann::json fits = nlohmann::json::object();
  for (const auto& [name, nn] : fit_n)
    fits[name] = {{"err_mean_vs_n", fit_loglog(nn, fit_mean[name], 8).to_json()},
                  {"err_vs_cond", fit_loglog(fit_cond[name], fit_err[name]).to_json()}};
  return {{"id", cf.id}, {"title", cf.title}, {"points", points}, {"fits", fits},
          {"cond_vs_n", fit_loglog(cond_n, cond_v, 8).to_json()}};
}

}  // namespace rbd::verify::roundoff
