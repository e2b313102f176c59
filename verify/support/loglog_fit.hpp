#pragma once
// Least-squares fit of log10(y) = slope * log10(x) + intercept, for the growth exponents of
// the round-off study (error vs n, error vs cond(H), error vs |c|, cond(H) vs N_B).
// The standard error of the slope is the usual one of simple linear regression; it measures
// the scatter of the points about the line, not any systematic deviation from a power law,
// which is why the study also reports the fit range beside every slope.
#include <cmath>
#include <vector>

#include <nlohmann/json.hpp>

namespace rbd::verify {

struct LogLogFit {
  double slope = NAN, intercept = NAN, slope_stderr = NAN, x_min = NAN, x_max = NAN;
  int points = 0;
  nlohmann::json to_json() const {
    auto num = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
    return {{"slope", num(slope)}, {"intercept_log10", num(intercept)}, {"slope_stderr", num(slope_stderr)},
            {"x_min", num(x_min)}, {"x_max", num(x_max)}, {"points", points}};
  }
};

// Points with x or y <= 0 or outside [x_lo, x_hi] are skipped; fewer than two distinct x
// leave the slope NaN (written as null).
inline LogLogFit fit_loglog(const std::vector<double>& x, const std::vector<double>& y, double x_lo = 0,
                            double x_hi = INFINITY) {
  std::vector<double> lx, ly;
  LogLogFit f;
  for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
    if (!(x[i] > 0 && y[i] > 0) || x[i] < x_lo || x[i] > x_hi) continue;
    lx.push_back(std::log10(x[i]));
    ly.push_back(std::log10(y[i]));
    f.x_min = lx.size() == 1 ? x[i] : std::min(f.x_min, x[i]);
    f.x_max = lx.size() == 1 ? x[i] : std::max(f.x_max, x[i]);
  }
  f.points = static_cast<int>(lx.size());
  if (f.points < 2) return f;
  double mx = 0, my = 0;
  for (int i = 0; i < f.points; ++i) { mx += lx[i] / f.points; my += ly[i] / f.points; }
  double sxx = 0, sxy = 0;
  for (int i = 0; i < f.points; ++i) { sxx += (lx[i] - mx) * (lx[i] - mx); sxy += (lx[i] - mx) * (ly[i] - my); }
  if (!(sxx > 0)) return f;
  f.slope = sxy / sxx;
  f.intercept = my - f.slope * mx;
  if (f.points > 2) {
    double ss = 0;
    for (int i = 0; i < f.points; ++i) {
      const double r = ly[i] - (f.intercept + f.slope * lx[i]);
      ss += r * r;
    }
    f.slope_stderr = std::sqrt(ss / (f.points - 2) / sxx);
  }
  return f;
}

}  // namespace rbd::verify
