// Exactness checks before timing (bench/checks.hpp): each variant in Reference against the
// Lagrangian oracle (small models) or against another variant (bigger ones), and each
// variant's double run against the Reference truth.
#include "bench/checks.hpp"

#include <algorithm>
#include <limits>
#include <optional>

#include "bench/family_calls.hpp"
#include "verify/support/metrics.hpp"

namespace rbd::bench {
namespace {

// Normwise difference relative to max(||truth||, 1): relative for results of size >= 1 and
// absolute below (SI units; the benchmark models' masses, lengths and states are O(1)), so a
// truth that vanishes by symmetry -- the bias of one horizontal link turning about a vertical
// axis is exactly 0, which the oracle and the variants both return as 50-digit noise -- is
// judged by the absolute rounding its O(1) intermediate terms leave, not as a relative O(1).
Reference scaled_diff(const MatX<Reference>& value, const MatX<Reference>& truth) {
  const Reference scale = std::max(Reference(truth.norm()), Reference(1));
  return Reference((value - truth).norm() / scale);
}

template <class Family>
void check_family(const Model<double>& md, const Model<Reference>& mr, const verify::StateOf<double>& xd,
                  const verify::StateOf<Reference>& xr, std::vector<VariantCheck>& out) {
  using C = Call<Family>;
  // Every applicable variant's value in Reference and in double, from the timed call.
  struct Value {
    std::string name;
    MatX<Reference> ref;
    MatX<double> dbl;
  };
  std::vector<Value> values;
  typename C::template Ws<Reference> wsr(mr);
  typename C::template Ws<double> wsd(md);
  const typename C::template Arg<Reference> ar = C::template prepare<Reference>(mr, xr);
  const typename C::template Arg<double> ad = C::template prepare<double>(md, xd);
  verify::for_each_type<typename Family::Variants>([&]<class V>() {
    if (!V::template applicable<double>(md)) return;
    typename C::template Out<Reference> r = C::template make_output<Reference>(mr);
    C::template run<V, Reference>(mr, ar, r, wsr);
    typename C::template Out<double> d = C::template make_output<double>(md);
    C::template run<V, double>(md, ad, d, wsd);
    values.push_back(Value{std::string(V::name), r, d});
  });
  if (values.empty()) return;
  std::optional<MatX<Reference>> oracle_value;
  if (md.nb <= kOracleMaxBodies || values.size() < 2) oracle_value = oracle_for_timed_call<Family>(mr, xr);
  for (std::size_t k = 0; k < values.size(); ++k) {
    VariantCheck c;
    c.family = std::string(Family::name);
    c.variant = values[k].name;
    // The truth this variant is held to: the oracle, else another variant (the first, or
    // for the first the second).
    const std::size_t other = k == 0 ? 1 : 0;
    const MatX<Reference>& truth = oracle_value ? *oracle_value : values[other].ref;
    c.against = oracle_value ? "oracle" : values[other].name + " in Reference";
    c.digits = verify::exact_digits(scaled_diff(values[k].ref, truth));
    const MatX<Reference> dbl = values[k].dbl.unaryExpr([](double v) { return Reference(v); });
    c.double_err_eps = static_cast<double>(scaled_diff(dbl, truth)) / std::numeric_limits<double>::epsilon();
    c.passed = c.digits >= kExactDigitsRequired && c.double_err_eps <= kDoubleSanityEps;
    out.push_back(c);
  }
}

}  // namespace

std::vector<VariantCheck> check_variants(const Model<double>& md, const cases::State& x) {
  const Model<Reference> mr = md.template cast<Reference>();
  const verify::StateOf<Reference> xr = verify::cast_state<Reference>(mr, x);
  const verify::StateOf<double> xd = verify::cast_state<double>(md, x);
  std::vector<VariantCheck> out;
  verify::for_each_type<verify::AllFamilies>([&]<class Family>() {
    if constexpr (Call<Family>::available) check_family<Family>(md, mr, xd, xr, out);
  });
  return out;
}

}  // namespace rbd::bench
