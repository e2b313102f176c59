// Gate 3's measurement of one family on one model; the error measure and the budgets are
// explained in verify/support/accuracy.hpp.
#include "verify/support/accuracy.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "cases/states.hpp"
#include "verify/support/families.hpp"  // max_cond_H
#include "verify/support/metrics.hpp"

namespace rbd::verify {

void measure_accuracy(const FamilyEntry& family, const std::string& case_id, const Model<double>& md, int seeds,
                      int digit_seeds, const std::function<void(const AccuracyRecord&)>& sink) {
  constexpr double eps = std::numeric_limits<double>::epsilon();
  const Model<Reference> mr = md.template cast<Reference>();
  Workspace<double> wd(md);
  Workspace<Reference> wr(mr);
  std::vector<MatX<Reference>> truth;
  for (int seed = 1; seed <= digit_seeds; ++seed)
    truth.push_back(family.oracle(mr, cast_state<Reference>(mr, cases::random_state(md, seed))));
  const double cond_H = family.budget_scales_with_cond_H ? max_cond_H(md, seeds) : -1;
  const double budget = family.budget_eps(md, seeds);
  for (const VariantEntry& v : family.variants) {
    if (!v.applicable_in_double(md)) continue;
    std::vector<double> abs_err(seeds), size(seeds);
    double digits = 50;
    for (int seed = 1; seed <= seeds; ++seed) {
      const cases::State s = cases::random_state(md, seed);
      const auto xr = cast_state<Reference>(mr, s);
      const MatX<Reference> ref = v.in_reference(mr, xr, wr);
      if (seed <= digit_seeds) digits = std::min(digits, exact_digits(rel_diff(ref, truth[seed - 1])));
      const MatX<double> dbl = v.in_double(md, cast_state<double>(md, s), wd);
      const MatX<Reference> diff = dbl.unaryExpr([](double x) { return Reference(x); }) - ref;
      abs_err[seed - 1] = static_cast<double>(diff.norm()) / eps;
      size[seed - 1] = static_cast<double>(ref.norm());
    }
    double typical = 0;
    for (double x : size) typical += x * x / seeds;
    typical = std::sqrt(typical);
    AccuracyRecord r;
    r.family = std::string(family.name);
    r.variant = std::string(v.name);
    r.case_id = case_id;
    r.n = md.nv;
    r.depth = md.depth();
    r.seeds = seeds;
    r.exact_digits = digits;
    double sum_e = 0, sum_e2 = 0;
    for (int k = 0; k < seeds; ++k) {
      const double e = size[k] > 0 ? abs_err[k] / size[k] : abs_err[k];
      if (e > r.err_eps_max) {
        r.err_eps_max = e;
        r.worst_seed = k + 1;
        r.cancellation = size[k] > 0 ? typical / size[k] : 0;
      }
      sum_e += e;
      sum_e2 += e * e;
      r.err_eps_vs_typical_max =
          std::max(r.err_eps_vs_typical_max, typical > 0 ? abs_err[k] / typical : abs_err[k]);
    }
    r.err_eps_mean = sum_e / seeds;
    r.err_eps_rms = std::sqrt(sum_e2 / seeds);
    r.budget_eps = budget;
    r.cond_H_max = cond_H;
    r.pass = r.err_eps_vs_typical_max <= budget && digits >= kExactDigitsGate;
    sink(r);
  }
}

}  // namespace rbd::verify
