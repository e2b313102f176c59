#pragma once
// The checks every timed variant passes first, in the benchmark program itself (issue 3:
// "every timed variant passes the exactness gate first, in the same program"). Reference-
// scalar code lives in bench_checks.cpp, its own translation unit (slow to compile).
#include <string>
#include <vector>

#include "cases/states.hpp"

namespace rbd::bench {

// Same bar as gate 1 (verify/support/exactness.hpp, kExactDigitsRequired): a variant in
// the 50-digit Reference scalar agrees with the truth to >= 40 significant digits, normwise,
// relative to max(||truth||, 1) (see scaled_diff in bench_checks.cpp: a truth that is zero
// by symmetry is judged by absolute error).
inline constexpr double kExactDigitsRequired = 40.0;
// Models with at most this many bodies are checked against the Lagrangian oracle; bigger
// ones (the oracle is O(n^3)..O(n^4) in 50-digit dual numbers) against the family's first
// other applicable variant, also in Reference (independent recursions: rnea_spatial vs
// rnea_lwp, crba vs id_columns).
inline constexpr int kOracleMaxBodies = 15;
// The double run of the timed call must agree with the Reference truth to 1e-6 (normwise,
// relative to max(||truth||, 1)), i.e. 4.5e9 eps. Deliberately loose: it guards against a
// broken optimised build or a double-only code path (garbage, O(1) errors), not accuracy,
// which is gate 3's business (verify/accuracy_sweep.cpp). The solve families' errors grow
// with cond(H): the worst measured is 1e6 eps (2.2e-10) for the factorizations on the
// 256-body chain, so the bound has a margin of 4500 there and ~1e9 for ID and H.
inline constexpr double kDoubleSanityEps = 1e-6 / 2.220446049250313e-16;

struct VariantCheck {
  std::string family, variant;
  std::string against;          // "oracle" or "<variant> in Reference"
  double digits = 0;            // agreement in Reference with `against`
  double double_err_eps = 0;    // the double run vs the Reference truth, in eps
  bool passed = false;
};

// Runs every applicable variant of every family on (model, state) with the timed call of
// bench/family_calls.hpp (no external forces).
std::vector<VariantCheck> check_variants(const Model<double>& model, const cases::State& x);

}  // namespace rbd::bench
