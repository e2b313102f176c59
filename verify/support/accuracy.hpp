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
// Budget: the error is held to budget_eps = 16 * (depth + 1), measured against the typical
// output size of the case (the RMS of ||x_ref|| over the seeds) rather than this seed's own
// ||x_ref||. Why: in a forward error analysis of the tree recursions, each level of the tree
// applies one transform and one accumulation to every propagated vector, each costing a few
// eps of relative error in the terms it carries (a 3x3 product and a cross product: at most
// ~8 roundings per component), so the absolute errors in v, a and f grow at most linearly
// with depth d, relative to the size of the terms (+1 for the final projection S^T f).
// tau_i and H_ij gather up to nv such terms, but their sum is also nv times larger, so the
// error relative to the size of the output stays O(d eps) unless the sum cancels. The size
// of the terms is what the typical output measures; a seed whose output happens
// to nearly cancel (tau ~ 0 when gravity balances inertia) has a large *relative* error
// that says nothing about the algorithm, and is reported (err_eps_*) but not gated. The
// ratio typical / ||x_ref|| of the worst seed is recorded as `cancellation`.
// 16 * (d + 1) is that first-order bound with its constant rounded up; it is not a measured
// number loosened to pass. Families that solve with H supply their own budget
// (verify/support/families.hpp, solve_budget_eps).
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
  double cond_H_max = -1;  // only for families whose budget scales with cond(H)
  bool pass = false;
};

inline nlohmann::json to_json(const AccuracyRecord& r) {
  nlohmann::json j = {{"family", r.family}, {"variant", r.variant}, {"case", r.case_id},
                      {"n", r.n}, {"depth", r.depth}, {"scalar", "double"},
                      {"exact_digits", r.exact_digits}, {"err_eps_max", r.err_eps_max},
                      {"err_eps_mean", r.err_eps_mean}, {"err_eps_rms", r.err_eps_rms},
                      {"worst_seed", r.worst_seed}, {"cancellation", r.cancellation},
                      {"err_eps_vs_typical_max", r.err_eps_vs_typical_max}, {"seeds", r.seeds},
                      {"budget_eps", r.budget_eps}, {"pass", r.pass}};
  if (r.cond_H_max >= 0) j["cond_H_max"] = r.cond_H_max;
  return j;
}

// One record per variant of `family` that applies to the model, handed to `sink` as soon as
// it is measured (defined in compiled/accuracy.cpp).
void measure_accuracy(const FamilyEntry& family, const std::string& case_id, const Model<double>& md, int seeds,
                      int digit_seeds, const std::function<void(const AccuracyRecord&)>& sink);

}  // namespace rbd::verify
