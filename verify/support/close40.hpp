#pragma once
// Agreement to 40 digits for the Reference-scalar tests: |a - b|_inf <= 1e-40 max(|a|_inf,
// |b|_inf, floor). Reference carries ~50 digits, so a computation of up to ~1e5 roundings on
// O(1) numbers agrees to ~45: 1e-40 leaves a margin of 1e4-1e5 while a wrong formula errs at O(1e-2).
#include <algorithm>
#include <cmath>

#include "core/scalar.hpp"
#include "reference/reference_scalar.hpp"

namespace rbd::verify {

inline const Reference& rel40() {
  static const Reference r("1e-40");
  return r;
}

template <class S> S max_abs(const VecX<S>& a) {
  S r = S(0);
  for (Eigen::Index i = 0; i < a.size(); ++i) {
    using std::abs;
    r = std::max<S>(r, S(abs(a[i])));
  }
  return r;
}

inline bool close40(const VecX<Reference>& a, const VecX<Reference>& b, const Reference& floor = Reference(1)) {
  return max_abs<Reference>(VecX<Reference>(a - b)) <=
         rel40() * std::max<Reference>({max_abs<Reference>(a), max_abs<Reference>(b), floor});
}

}  // namespace rbd::verify
