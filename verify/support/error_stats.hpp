#pragma once
// Max / mean / rms of a measured error over seeds, and the worst seed, for the studies'
// accuracy tables (frames, constraints). A NaN or inf makes the statistics non-finite and
// names its seed: `e > max` is false for NaN, so a plain running maximum would report the
// largest finite error and pass a variant that produced NaN (issue 13, item 1).
#include <cmath>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

namespace rbd::verify {

struct ErrorStats {
  int count = 0, worst_seed = 0, non_finite_seed = 0;
  double max = 0, sum = 0, sum2 = 0;

  void add(double e, int seed) {
    ++count;
    if (!std::isfinite(e)) {
      if (non_finite_seed == 0) non_finite_seed = seed;
      return;
    }
    if (e > max) max = e, worst_seed = seed;
    sum += e;
    sum2 += e * e;
  }
  bool finite() const { return non_finite_seed == 0; }
  // NaN (written as null) unless every error was finite.
  double max_or_nan() const { return finite() ? max : std::nan(""); }
  double mean() const { return finite() && count ? sum / count : std::nan(""); }
  double rms() const { return finite() && count ? std::sqrt(sum2 / count) : std::nan(""); }
  // Within budget: finite and max <= budget.
  bool within(double budget) const { return finite() && max <= budget; }

  nlohmann::json to_json() const {
    nlohmann::json j = {{"err_eps_max", max_or_nan()}, {"err_eps_mean", mean()}, {"err_eps_rms", rms()},
                        {"worst_seed", worst_seed}};
    if (!finite()) j["non_finite_seed"] = non_finite_seed;
    return j;
  }
};

}  // namespace rbd::verify
