#pragma once
// Gate 1 (DESIGN.md section 2): every variant of a family, run in the 50-digit Reference
// scalar, agrees with the independent oracle to at least 40 significant digits, normwise.
// Why 40: both sides carry ~50 digits; the recursions and the oracle's nested dual numbers
// lose at most a few digits each to cancellation for these sizes (n <= ~40, cond(H) < 1e6),
// while a wrong formula differs at O(1). The gap between 1e-40 and 1e-1 is what separates a
// mistake from round-off.
// The family's variants and oracle come compiled (verify/support/family_table.hpp).
#include <catch2/catch.hpp>

#include "cases/registry.hpp"
#include "verify/support/metrics.hpp"
#include "verify/support/family_table.hpp"

namespace rbd::verify {

inline constexpr double kExactDigitsRequired = 40.0;
inline constexpr int kExactnessSeeds = 2;

inline void check_family_exactness(const FamilyEntry& family) {
  for (const auto& spec : cases::verify_cases()) {
    const Model<double> md = spec.build();
    const Model<Reference> m = md.template cast<Reference>();
    Workspace<Reference> ws(m);
    for (int seed = 1; seed <= kExactnessSeeds; ++seed) {
      const auto x = cast_state<Reference>(m, cases::random_state(md, seed));
      const MatX<Reference> truth = family.oracle(m, x);
      for (const VariantEntry& v : family.variants) {
        if (!v.applicable_in_reference(m)) continue;  // e.g. rnea_lwp on multi-DoF joints
        const MatX<Reference> value = v.in_reference(m, x, ws);
        const double digits = exact_digits(rel_diff(value, truth));
        INFO(family.name << "/" << v.name << " on " << spec.id << " seed " << seed << ": " << digits << " digits");
        CHECK(digits >= kExactDigitsRequired);
      }
    }
  }
}

}  // namespace rbd::verify
