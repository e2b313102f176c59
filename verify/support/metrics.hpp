#pragma once
// Error measures shared by the gates and the accuracy sweep.
#include <cmath>
#include <limits>

#include "reference/reference_scalar.hpp"
#include "model/workspace.hpp"

namespace rbd::verify {

// Normwise relative difference ||a - b||_F / ||b||_F in Reference (b is the truth).
// When the truth is exactly zero, the absolute difference is returned.
inline Reference rel_diff(const MatX<Reference>& a, const MatX<Reference>& b) {
  const Reference nb = b.norm();
  const Reference d = (a - b).norm();
  return nb == 0 ? d : Reference(d / nb);
}

// True when every entry is a finite number (no NaN, no inf). Comparisons with NaN are false,
// so a NaN passes any `e > budget` test unseen: every measurement checks this first.
inline bool all_finite(const MatX<double>& x) { return x.allFinite(); }
inline bool all_finite(const MatX<Reference>& x) {
  for (Eigen::Index k = 0; k < x.size(); ++k)
    if (!boost::multiprecision::isfinite(x.data()[k])) return false;
  return true;
}

// acc = max(acc, x), except that a NaN in x makes acc NaN and keeps it NaN: std::max(acc, NaN)
// returns acc, and `x > acc` is false for NaN, so a plain running maximum hides a NaN.
inline bool is_nan(double x) { return std::isnan(x); }
inline bool is_nan(const Reference& x) { return boost::multiprecision::isnan(x); }
template <class T> void max_into(T& acc, const T& x) {
  if (is_nan(acc)) return;
  if (is_nan(x) || x > acc) acc = x;
}

// Number of agreeing significant digits, -log10 of the relative difference (capped at 50).
// A non-finite difference (NaN or inf on either side) agrees to no digit: 0.
inline double exact_digits(const Reference& rel) {
  if (!boost::multiprecision::isfinite(rel)) return 0.0;
  if (rel == 0) return 50.0;
  const double d = -static_cast<double>(log10(rel));
  return d > 50.0 ? 50.0 : d;
}

// Error of a double result against the Reference truth, in units of double's epsilon.
inline double error_in_eps(const MatX<double>& computed, const MatX<Reference>& truth) {
  const MatX<Reference> c = computed.unaryExpr([](double v) { return Reference(v); });
  return static_cast<double>(rel_diff(c, truth)) / std::numeric_limits<double>::epsilon();
}

}  // namespace rbd::verify
