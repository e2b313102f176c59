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

// Number of agreeing significant digits, -log10 of the relative difference (capped at 50).
inline double exact_digits(const Reference& rel) {
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
