// Issue 13, item 1: a NaN or inf in a variant's result fails every measurement that sees it.
// Comparisons with NaN are false, so `e > max`, std::max and std::min silently drop it; each
// measurement path is shown here rejecting a NaN (and an inf) that is planted where a broken
// variant would put it: the accuracy sweep and `rbdlab verify` (measure_accuracy), the
// round-off study (roundoff::sweep), the studies' error statistics (ErrorStats, max_into, the
// digit counts) and the figures handed to the regression gate (null in JSON).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "cases/auto_tree.hpp"
#include "cases/gu.hpp"
#include "verify/support/accuracy.hpp"
#include "verify/support/constraints_cases.hpp"
#include "verify/support/error_stats.hpp"
#include "verify/support/frames_cases.hpp"
#include "verify/support/gated_figures.hpp"
#include "verify/support/metrics.hpp"
#include "verify/support/roundoff_vs_n.hpp"

namespace test_nan_rejection {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

namespace {
using namespace rbd;
using namespace rbd::verify;
// What a reader of the written file sees: nlohmann keeps a NaN as a number in memory and
// writes it as null, so the check is on the JSON as written and read back.
nlohmann::json as_written(const nlohmann::json& j) { return nlohmann::json::parse(j.dump()); }
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

MatX<double> nan_in_double(const Model<double>& m, const StateOf<double>&, Workspace<double>&) {
  MatX<double> x = MatX<double>::Ones(m.nv, 1);
  x(m.nv - 1, 0) = std::numeric_limits<double>::quiet_NaN();
  return x;
}
MatX<double> inf_in_double(const Model<double>& m, const StateOf<double>&, Workspace<double>&) {
  return MatX<double>::Constant(m.nv, 1, std::numeric_limits<double>::infinity());
}
MatX<Reference> nan_in_reference(const Model<Reference>& m, const StateOf<Reference>&, Workspace<Reference>&) {
  MatX<Reference> x = MatX<Reference>::Ones(m.nv, 1);
  x(0, 0) = std::numeric_limits<Reference>::quiet_NaN();
  return x;
}
MatX<Reference> nan_oracle(const Model<Reference>& m, const StateOf<Reference>&) {
  return MatX<Reference>::Constant(m.nv, 1, std::numeric_limits<Reference>::quiet_NaN());
}

std::vector<AccuracyRecord> measure(const FamilyEntry& family, const Model<double>& m) {
  std::vector<AccuracyRecord> out;
  measure_accuracy(family, "test", m, 3, 1, [&](const AccuracyRecord& r) { out.push_back(r); });
  return out;
}
const AccuracyRecord& record_of(const std::vector<AccuracyRecord>& rs, std::string_view variant) {
  for (const auto& r : rs)
    if (r.variant == variant) return r;
  throw std::logic_error("no record for " + std::string(variant));
}

TEST_CASE("nan: measure_accuracy fails a variant whose double or Reference result has NaN/inf", "[nan]") {
  const Model<double> m = cases::gu(4);
  FamilyEntry family = inverse_dynamics_family();  // a copy: the planted variants stay here
  REQUIRE(family.variants.size() >= 3);
  family.variants[0].in_double = &nan_in_double;
  family.variants[1].in_reference = &nan_in_reference;
  family.variants[2].in_double = &inf_in_double;
  const auto rs = measure(family, m);
  for (int k = 0; k < 3; ++k) {
    const AccuracyRecord& r = record_of(rs, family.variants[k].name);
    INFO(r.variant << ": " << r.non_finite);
    CHECK_FALSE(r.pass);
    CHECK_FALSE(r.non_finite.empty());
    CHECK(std::isnan(r.err_eps_max));
    const nlohmann::json j = as_written(to_json(r));
    CHECK(j["err_eps_max"].is_null());  // what the regression gate reads, and rejects
    CHECK(j["pass"] == false);
  }
  CHECK(record_of(rs, family.variants[0].name).non_finite.find("double") != std::string::npos);
  CHECK(record_of(rs, family.variants[1].name).non_finite.find("Reference") != std::string::npos);
  CHECK(record_of(rs, family.variants[1].name).exact_digits == 0);  // a NaN agrees with the oracle to no digit
  // The untouched variants still pass: the failure is the planted one's, not the harness's.
  for (std::size_t k = 3; k < family.variants.size(); ++k)
    if (family.variants[k].applicable_in_double(m)) CHECK(record_of(rs, family.variants[k].name).pass);
}

TEST_CASE("nan: measure_accuracy fails every record when the oracle returns NaN", "[nan]") {
  FamilyEntry family = mass_matrix_family();
  family.oracle = &nan_oracle;
  for (const AccuracyRecord& r : measure(family, cases::gu(3))) {
    INFO(r.variant);
    CHECK_FALSE(r.pass);
    CHECK(r.non_finite.find("oracle") != std::string::npos);
  }
}

TEST_CASE("nan: the round-off study fails a forward-dynamics variant that returns NaN", "[nan]") {
  FamilyEntry fd = forward_dynamics_family();
  for (auto& v : fd.variants)
    if (v.name == "crba_ltdl") v.in_double = &nan_in_double;
  roundoff::Outcome out;
  const roundoff::CaseFamily cf{"chain", "test chain", [](int n) { return cases::auto_tree(n, 1); }};
  const nlohmann::json cs = roundoff::sweep(cf, {3, 4}, [](int) { return 2; }, out, fd);
  CHECK_FALSE(out.ok);
  bool named = false;
  for (const auto& f : out.failures) named = named || f.find("crba_ltdl in double gives NaN/inf") != std::string::npos;
  CHECK(named);
  bool null_figure = false;
  for (const auto& f : out.figures.list)
    if (f["id"].get<std::string>().find("crba_ltdl/err_eps_max") != std::string::npos)
      null_figure = as_written(f)["value"].is_null();
  CHECK(null_figure);
  // The same sweep with the real family passes: the failure above is the planted NaN's.
  roundoff::Outcome clean;
  roundoff::sweep(cf, {3, 4}, [](int) { return 2; }, clean);
  CHECK(clean.ok);
}

TEST_CASE("nan: ErrorStats makes any NaN/inf seed fail and names it", "[nan]") {
  for (const double bad : {kNaN, kInf, -kInf}) {
    ErrorStats st;
    st.add(1.0, 1);
    st.add(2.0, 2);
    st.add(bad, 3);
    st.add(0.5, 4);
    CHECK_FALSE(st.finite());
    CHECK(st.non_finite_seed == 3);
    CHECK_FALSE(st.within(1e300));
    CHECK(std::isnan(st.max_or_nan()));
    CHECK(std::isnan(st.mean()));
    CHECK(as_written(st.to_json())["err_eps_max"].is_null());
  }
  ErrorStats ok;
  ok.add(1.0, 1);
  ok.add(3.0, 2);
  CHECK(ok.within(3.0));
  CHECK_FALSE(ok.within(2.9));
  CHECK(ok.worst_seed == 2);
}

TEST_CASE("nan: running maxima and digit counts keep NaN visible", "[nan]") {
  double m = 1;
  max_into(m, kNaN);
  max_into(m, 5.0);
  CHECK(std::isnan(m));  // std::max(m, NaN) would have returned 1, then 5
  Reference r = 1;
  max_into(r, Reference(std::numeric_limits<Reference>::quiet_NaN()));
  CHECK(boost::multiprecision::isnan(r));
  CHECK_FALSE(r < Reference("1e-40"));  // the studies' "residual < tiny" checks fail on it
  CHECK(exact_digits(Reference(std::numeric_limits<Reference>::quiet_NaN())) == 0);
  CHECK(exact_digits(Reference(std::numeric_limits<Reference>::infinity())) == 0);
  CHECK(frames::digits_of(Reference(std::numeric_limits<Reference>::quiet_NaN())) == 0);
  Vec3<Reference> a(1, 2, 3), b = a;
  a[1] = std::numeric_limits<Reference>::quiet_NaN();
  CHECK(constraints::digits(a, b) == 0);
  CHECK(constraints::digits(b, b) == 50);
  CHECK_FALSE(all_finite(MatX<double>(MatX<double>::Constant(2, 2, kInf))));
}

TEST_CASE("nan: gated figures carry NaN to the gate as null", "[nan]") {
  GatedFigures f;
  f.error("x", kNaN, "eps");
  f.digits("y", kInf, 40);
  CHECK(as_written(f.list)[0]["value"].is_null());
  CHECK(as_written(f.list)[1]["value"].is_null());
}

}  // namespace

}  // namespace test_nan_rejection
