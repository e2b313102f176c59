#pragma once
// Round-off of every forward-dynamics variant against body count (Featherstone section 10.1,
// "Round-off Error in Dynamics Algorithms"), for verify/roundoff_study.cpp.
//
// For one model family (GU(n), auto_tree chains, binary trees) and each n of a grid, on seeded
// states: qdd from each variant of the compiled family table in double, against the truth =
// ABA's run in the 50-digit Reference scalar (itself held to the other variants' Reference runs
// at 40 digits where that is affordable, see kCrossCheckMaxN). Error = ||qdd - qdd_ref||_2 /
// ||qdd_ref||_2 in units of eps = 2^-52, and the same absolute error over the RMS of ||qdd_ref||
// over the seeds (the accuracy sweep's gated measure, verify/support/accuracy.hpp).
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
#include "verify/support/family_table.hpp"
#include "verify/support/loglog_fit.hpp"
#include "verify/support/metrics.hpp"
#include "verify/support/symmetric_eigenvalues.hpp"

namespace rbd::verify::roundoff {

inline constexpr double kEps = std::numeric_limits<double>::epsilon();
// The other variants' Reference runs are compared with ABA's on the first state up to this n
// (every n of the study's grid; a dense solve in Reference at n = 256 takes well under a second).
inline constexpr int kCrossCheckMaxN = 256;
inline constexpr double kCrossDigitsGate = 40.0;  // gate 1's agreement (verify/support/accuracy.hpp)
// cond2(H) in double is checked against Reference (Jacobi, O(n^3) per sweep) up to this n.
inline constexpr int kCondCheckMaxN = 32;

struct CaseFamily {
  std::string id, title;
  std::function<Model<double>(int)> make;
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

inline double cond2_double(const MatX<double>& H) {
  const VecX<double> ev = Eigen::SelfAdjointEigenSolver<MatX<double>>(H, Eigen::EigenvaluesOnly).eigenvalues();
  return ev[ev.size() - 1] / ev[0];
}

// Budget of the forward-dynamics accuracy sweep, per state (verify/support/families.hpp,
// solve_budget_eps: cond2(H) (32 (d + 1) + 4 n)): a first-order bound, not a fitted number.
inline double fd_budget_eps(double cond, int depth, int nv) { return cond * (32.0 * (depth + 1) + 4.0 * nv); }

struct Outcome {
  bool ok = true;
  std::vector<std::string> failures;
  void fail(const std::string& why) { ok = false; failures.push_back(why); }
};

// One case family over the n grid; `seeds_for(n)` seeded states per n.
inline nlohmann::json sweep(const CaseFamily& cf, const std::vector<int>& ns, const std::function<int(int)>& seeds_for,
                            Outcome& out) {
  const FamilyEntry& fd = forward_dynamics_family();
  const VariantEntry& truth_variant = variant_named(fd, "aba");
  nlohmann::json points = nlohmann::json::array();
  std::map<std::string, std::vector<double>> fit_n, fit_err, fit_cond;  // variant -> (n or cond, mean err)
  std::vector<double> cond_n, cond_v;
  for (int n : ns) {
    const Model<double> md = cf.make(n);
    const Model<Reference> mr = md.cast<Reference>();
    Workspace<double> wd(md);
    Workspace<Reference> wr(mr);
    const int seeds = seeds_for(n);
    std::vector<double> cond(seeds), cond_acc(seeds), budget(seeds), size(seeds);
    std::vector<MatX<Reference>> truth(seeds);
    std::vector<cases::State> states;
    MatX<double> H = MatX<double>::Zero(md.nv, md.nv);
    for (int s = 0; s < seeds; ++s) {
      states.push_back(cases::random_state(md, s + 1));
      Crba::run<double>(md, states[s].q, H, wd);
      cond[s] = cond2_double(H);
      cond_acc[s] = cond[s] * (16.0 * (md.depth() + 1) + 4.0 * md.nv) * kEps;
      budget[s] = fd_budget_eps(cond[s], md.depth(), md.nv);
      truth[s] = truth_variant.in_reference(mr, cast_state<Reference>(mr, states[s]), wr);
      size[s] = static_cast<double>(truth[s].norm());
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
        out.fail(cf.id + " n=" + std::to_string(n) + ": cond2(H) in double " + std::to_string(cond[0]) +
                 " vs Reference " + std::to_string(cond_ref) + " outside the stated accuracy");
    }
    double typical = 0;
    for (double x : size) typical += x * x / seeds;
    typical = std::sqrt(typical);
    nlohmann::json variants = nlohmann::json::object();
    double cross_digits = 50;
    std::map<std::string, std::vector<MatX<double>>> results;
    for (const VariantEntry& v : fd.variants) {
      if (!v.applicable_in_double(md)) continue;
      const std::string name(v.name);
      std::vector<double> err(seeds), vs_typ(seeds);
      for (int s = 0; s < seeds; ++s) {
        const MatX<double> x = v.in_double(md, cast_state<double>(md, states[s]), wd);
        results[name].push_back(x);
        err[s] = error_in_eps(x, truth[s]);
        const MatX<Reference> d = x.unaryExpr([](double t) { return Reference(t); }) - truth[s];
        vs_typ[s] = static_cast<double>(d.norm()) / typical / kEps;
        if (vs_typ[s] > budget[s])
          out.fail(cf.id + " n=" + std::to_string(n) + " seed " + std::to_string(s + 1) + ": " + name + " error " +
                   std::to_string(vs_typ[s]) + " eps > budget " + std::to_string(budget[s]) + " eps");
        fit_err[name].push_back(err[s]);
        fit_cond[name].push_back(cond[s]);
      }
      if (n <= kCrossCheckMaxN && &v != &truth_variant) {
        const MatX<Reference> r = v.in_reference(mr, cast_state<Reference>(mr, states[0]), wr);
        const double dg = exact_digits(rel_diff(r, truth[0]));
        cross_digits = std::min(cross_digits, dg);
        if (dg < kCrossDigitsGate)
          out.fail(cf.id + " n=" + std::to_string(n) + ": " + name + " in Reference agrees with aba to only " +
                   std::to_string(dg) + " digits");
      }
      double mx = 0, mean = 0;
      for (double e : err) { mx = std::max(mx, e); mean += e / seeds; }
      fit_n[name].push_back(mean);
      nlohmann::json vj = {{"err_eps", sig4(err)}, {"err_eps_vs_typical", sig4(vs_typ)}, {"err_eps_max", mx}, {"err_eps_mean", mean}};
      // A variant whose double results equal another's bit for bit on every seed ran that
      // variant's code (aba_dh hands models outside its DH fast path to aba).
      for (const auto& [other, xs] : results)
        if (other != name && xs == results[name]) { vj["identical_to"] = other; break; }
      variants[name] = vj;
    }
    nlohmann::json pj = {{"n", n}, {"nv", md.nv}, {"depth", md.depth()}, {"seeds", seeds}, {"cond_H", sig4(cond)},
                         {"cond_H_rel_accuracy", sig4(cond_acc)}, {"budget_eps", sig4(budget)}, {"typical_norm_qdd", typical},
                         {"variants", variants}};
    if (n <= kCrossCheckMaxN) pj["reference_cross_digits"] = cross_digits;
    if (cond_ref > 0) pj["cond_H_reference_seed1"] = cond_ref;
    points.push_back(pj);
  }
  // Growth fits: mean error over the seeds vs n (n >= 8, where the asymptotic growth shows),
  // and every (state, error) pair vs that state's cond2(H).
  nlohmann::json fits = nlohmann::json::object();
  std::vector<double> nd(ns.begin(), ns.end());
  for (const auto& [name, e] : fit_n) {
    std::vector<double> nn(nd.begin(), nd.begin() + e.size());
    fits[name] = {{"err_mean_vs_n", fit_loglog(nn, e, 8).to_json()},
                  {"err_vs_cond", fit_loglog(fit_cond[name], fit_err[name]).to_json()}};
  }
  return {{"id", cf.id}, {"title", cf.title}, {"points", points}, {"fits", fits},
          {"cond_vs_n", fit_loglog(cond_n, cond_v, 8).to_json()}};
}

}  // namespace rbd::verify::roundoff
