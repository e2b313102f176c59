#pragma once
// Gate 3's measurement of one family on one model (DESIGN.md section 2), shared by the
// accuracy sweep over the verify cases (verify/accuracy_sweep.cpp) and by `rbdlab verify
// MODEL` on a user's robot (cli/verify_cmd.cpp).
//
// Each applicable variant runs in double and in the 50-digit Reference scalar on seeds
// 1..seeds; the Reference run is held to the oracle on seeds 1..digit_seeds (gate 1's
// agreement, `exact_digits`, the fewest over those seeds).
//
// Error measure: normwise relative error ||x_double - x_ref||_F / ||x_ref||_F in units of
// eps = 2^-52, reported as max / mean / rms over the seeds and the worst seed.
//
// Budget: the error is held to budget_eps, measured against the typical output size of the
// case (the RMS of ||x_ref|| over the seeds) rather than this seed's own ||x_ref||: a seed
// whose output happens to nearly cancel (tau ~ 0 when gravity balances inertia) has a large
// *relative* error that says nothing about the algorithm, and is reported (err_eps_*) but not
// gated. The ratio typical / ||x_ref|| of the worst seed is recorded as `cancellation`. The
// budget rules (recursion, solve_with_H, articulated_solves) and their derivations are in
// verify/support/budgets.hpp; each record names its rule. The budgets are a-priori bounds,
// not regression limits: the regression gate (tools/gate.py) holds err_eps_max, err_eps_mean
// and exact_digits to the committed baselines.
//
// Non-finite results fail: a NaN or inf in a variant's output in double or in Reference (or
// in the oracle's) fails the record, with `non_finite` naming the scalar and the seed, and
// its error figures written as null. Comparisons with NaN are false, so every figure is
// checked with std::isfinite before it is compared.
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "verify/support/family_table.hpp"

namespace rbd::verify {

inline constexpr double kExactDigitsGate = 40.0;  // gate 1 (verify/support/exactness.hpp)

struct AccuracyRecord {
  std::string family, variant, case_id;
  int n = 0, depth = 0, seeds = 0, worst_seed = 0;
  double exact_digits = 0, err_eps_max = 0, err_eps_mean = 0, err_eps_rms = 0;
  double cancellation = 1, err_eps_vs_typical_max = 0, budget_eps = 0;
  std::string budget_rule;
  double cond_H_max = -1, cond_D_max = -1, cond_I_max = -1;  // the conditioning the budget rule used, if any
  std::string fallback_to;                  // the variant that ran instead ("" = its own code)
  std::string non_finite;                   // where a NaN/inf appeared ("" = none)
  bool pass = false;
};

// NaN and inf become null in JSON (nlohmann writes non-finite doubles as null), which the
// regression gate rejects.
inline nlohmann::json to_json(const AccuracyRecord& r) {
  nlohmann::json j = {{"family", r.family}, {"variant", r.variant}, {"case", r.case_id},
                      {"n", r.n}, {"depth", r.depth}, {"scalar", "double"},
                      {"exact_digits", r.exact_digits}, {"err_eps_max", r.err_eps_max},
                      {"err_eps_mean", r.err_eps_mean}, {"err_eps_rms", r.err_eps_rms},
                      {"worst_seed", r.worst_seed}, {"cancellation", r.cancellation},
                      {"err_eps_vs_typical_max", r.err_eps_vs_typical_max}, {"seeds", r.seeds},
                      {"budget_eps", r.budget_eps}, {"budget_rule", r.budget_rule}, {"pass", r.pass}};
  if (r.cond_H_max >= 0) j["cond_H_max"] = r.cond_H_max;
  if (r.cond_D_max >= 0) j["cond_D_max"] = r.cond_D_max;
  if (r.cond_I_max >= 0) j["cond_I_max"] = r.cond_I_max;
  if (!r.fallback_to.empty()) j["fallback_to"] = r.fallback_to;
  if (!r.non_finite.empty()) j["non_finite"] = r.non_finite;
  return j;
}

// One record per variant of `family` that applies to the model, handed to `sink` as soon as
// it is measured (defined in compiled/accuracy.cpp). `draw` makes seed k's state (budgets.hpp).
void measure_accuracy(const FamilyEntry& family, const std::string& case_id, const Model<double>& md, int seeds,
                      int digit_seeds, const std::function<void(const AccuracyRecord&)>& sink,
                      const StateSource& draw = default_state);

}  // namespace rbd::verify
