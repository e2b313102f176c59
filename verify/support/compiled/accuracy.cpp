// Gate 3's measurement of one family on one model; the error measure is explained in
// verify/support/accuracy.hpp, the budgets in verify/support/budgets.hpp.
#include "verify/support/accuracy.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include "cases/states.hpp"
#include "verify/support/metrics.hpp"

namespace rbd::verify {

void measure_accuracy(const FamilyEntry& family, const std::string& case_id, const Model<double>& md, int seeds,
                      int digit_seeds, const std::function<void(const AccuracyRecord&)>& sink,
                      const StateSource& draw) {
  constexpr double eps = std::numeric_limits<double>::epsilon();
  const Model<Reference> mr = md.template cast<Reference>();
  Workspace<double> wd(md);
  Workspace<Reference> wr(mr);
  std::vector<MatX<Reference>> truth;
  std::string oracle_non_finite;
  for (int seed = 1; seed <= digit_seeds; ++seed) {
    truth.push_back(family.oracle(mr, cast_state<Reference>(mr, draw(md, seed))));
    if (oracle_non_finite.empty() && !all_finite(truth.back()))
      oracle_non_finite = "the oracle's value has NaN/inf at seed " + std::to_string(seed);
  }
  Conditioning conditioning{md, seeds, draw};
  for (const VariantEntry& v : family.variants) {
    if (!v.applicable_in_double(md)) continue;
    AccuracyRecord r;
    r.family = std::string(family.name);
    r.variant = std::string(v.name);
    r.case_id = case_id;
    r.n = md.nv;
    r.depth = md.depth();
    r.seeds = seeds;
    r.fallback_to = std::string(v.fallback_to(md));
    r.non_finite = oracle_non_finite;
    std::vector<double> abs_err(seeds), size(seeds);
    double digits = 50;
    for (int seed = 1; seed <= seeds; ++seed) {
      const cases::State s = draw(md, seed);
      const auto xr = cast_state<Reference>(mr, s);
      const MatX<Reference> ref = v.in_reference(mr, xr, wr);
      const MatX<double> dbl = v.in_double(md, cast_state<double>(md, s), wd);
      const std::string where = " at seed " + std::to_string(seed);
      if (r.non_finite.empty() && !all_finite(ref)) r.non_finite = "Reference result has NaN/inf" + where;
      if (r.non_finite.empty() && !all_finite(dbl)) r.non_finite = "double result has NaN/inf" + where;
      if (seed <= digit_seeds) {
        const double dg = exact_digits(rel_diff(ref, truth[seed - 1]));  // 0 for a NaN/inf difference
        if (dg < digits) digits = dg;
      }
      const MatX<Reference> diff = dbl.unaryExpr([](double x) { return Reference(x); }) - ref;
      abs_err[seed - 1] = static_cast<double>(diff.norm()) / eps;
      size[seed - 1] = static_cast<double>(ref.norm());
      if (r.non_finite.empty() && !(std::isfinite(abs_err[seed - 1]) && std::isfinite(size[seed - 1])))
        r.non_finite = "error or output size overflows double" + where;
    }
    r.exact_digits = digits;
    r.budget_rule = std::string(rule_name(v.budget_rule));
    r.budget_eps = budget_eps(v.budget_rule, conditioning);
    if (v.budget_rule == BudgetRule::solve_with_H) r.cond_H_max = conditioning.H();
    if (v.budget_rule == BudgetRule::solve_with_geared_H) r.cond_H_max = conditioning.GH();  // of G^T H G
    if (v.budget_rule == BudgetRule::solve_with_loops) r.cond_H_max = conditioning.loops();  // cond2(Z^T H Z) cond_r(K)
    if (v.budget_rule == BudgetRule::solve_with_sparse_loops) r.cond_H_max = conditioning.sparse_loops();  // cond_r(A)
    if (v.budget_rule == BudgetRule::solve_with_contacts) r.cond_H_max = conditioning.contacts();  // cond2(Z_A^T H Z_A) cond2(T_A)
    if (v.budget_rule == BudgetRule::impact_with_contacts) r.cond_H_max = conditioning.impacts();  // the impact's A
    if (v.budget_rule == BudgetRule::friction_with_contacts) r.cond_H_max = conditioning.friction();  // with rho_f
    if (v.budget_rule == BudgetRule::solve_with_loop_contacts) r.cond_H_max = conditioning.loop_contacts();  // of [K; T_A^T]
    if (v.budget_rule == BudgetRule::articulated_solves) r.cond_D_max = conditioning.D();
    if (v.budget_rule == BudgetRule::inverse_inertias) r.cond_I_max = conditioning.I();
    if (!r.non_finite.empty()) {
      // No error figure means anything; NaN is written as null, which the gate rejects.
      r.err_eps_max = r.err_eps_mean = r.err_eps_rms = r.err_eps_vs_typical_max = std::nan("");
      r.pass = false;
      sink(r);
      continue;
    }
    double typical = 0;
    for (double x : size) typical += x * x / seeds;
    typical = std::sqrt(typical);
    double sum_e = 0, sum_e2 = 0;
    for (int k = 0; k < seeds; ++k) {
      const double e = size[k] > 0 ? abs_err[k] / size[k] : abs_err[k];
      if (e > r.err_eps_max) {  // every e is finite here
        r.err_eps_max = e;
        r.worst_seed = k + 1;
        r.cancellation = size[k] > 0 ? typical / size[k] : 0;
      }
      sum_e += e;
      sum_e2 += e * e;
      const double vs_typical = typical > 0 ? abs_err[k] / typical : abs_err[k];
      if (vs_typical > r.err_eps_vs_typical_max) r.err_eps_vs_typical_max = vs_typical;
    }
    r.err_eps_mean = sum_e / seeds;
    r.err_eps_rms = std::sqrt(sum_e2 / seeds);
    r.pass = r.err_eps_vs_typical_max <= r.budget_eps && digits >= kExactDigitsGate;
    sink(r);
  }
}

}  // namespace rbd::verify
