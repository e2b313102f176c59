// Symbolic simplification (Featherstone section 10.4; algorithms/symbolic/, issue 17):
//  a. Table 10.3's worked example: the executer's list has the 29 operations the book counts,
//     the book's rules cut it to the book's 5, and what is left computes the book's optimum
//     0.1 v1 v2 (to 45 digits in Reference);
//  b. the executer records every operation: on each traced variant of inverse dynamics, mass
//     matrix and forward dynamics, the raw list has exactly the counting scalar's counts for the
//     same call (a second, independent count of the same run);
//  c. the simplifier changes no value: the simplified lists of rnea_spatial, crba and aba agree
//     with the generic variants in Reference to 40 digits, and every traced variant's list in
//     double equals the generic double result bit for bit (no rule reorders arithmetic);
//  d. the rules are exhausted in one pass (simplify is idempotent) and the per-rule savings add
//     up; a branch on the state cannot be traced and says so;
//  (factor + solve, Tables 6.3-6.5, joins the three with H's pattern entries and b as inputs;)
//  e. the generated C++ (rbdlab_generated, cmake/generated_code.cmake) reproduces the list it was
//     emitted from bit for bit, on every generated case and algorithm, and is as accurate as the
//     generic variant in double against the family's independent oracle (reference/).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <limits>
#include <string>
#include <vector>

#include "cases/registry.hpp"
#include "cases/states.hpp"
#include "core/counting_scalar.hpp"
#include "reference/reference_scalar.hpp"
#include "symbolic/emit_cpp.hpp"
#include "symbolic/evaluate.hpp"
#include "symbolic/generate.hpp"
#include "symbolic/generated_registry.hpp"
#include "verify/support/close40.hpp"
#include "verify/support/family_table.hpp"
#include "verify/support/state.hpp"
#include "verify/support/table_10_3.hpp"

namespace test_symbolic {

using namespace rbd;
using namespace rbd::symbolic;

using rbd::verify::table_10_3;  // verify/support/table_10_3.hpp

TEST_CASE("symbolic: Table 10.3, 29 operations to 5, and the optimum 0.1 v1 v2", "[symbolic]") {
  const Tape<double> raw = table_10_3<double>(1.5, 1.6, 1.7, Vec3<double>(0.3, -0.7, 1.1));
  // Table 10.3's file: three 3x3 rows (3 m + 2 a each), a cross product (6 m + 3 a), a dot
  // product (3 m + 2 a): 18 m + 11 a = 29.
  CHECK(raw.counts().m() == 18);
  CHECK(raw.counts().a() == 11);
  CHECK(raw.counts().total() == 29);

  // The book's rules only (no common subexpressions): its source-code file, 4 m + 1 a = 5.
  SimplifyStats st;
  const Tape<double> book = simplify(raw, Rules{true, true, false}, &st);
  CHECK(book.counts().m() == 4);
  CHECK(book.counts().a() == 1);
  CHECK(st.before.all() - st.after.all() == st.folded + st.identities + st.common + st.dead);
  // rbdlab's default rules find nothing more here.
  CHECK(simplify(raw).counts().total() == 5);

  // In Reference the five operations compute 1.6 v1 v2 - 1.5 v1 v2 = 0.1 v1 v2 (the book's optimum).
  const Reference I11("1.5"), I22("1.6"), I33("1.7");
  for (int k = 0; k < 5; ++k) {
    const Vec3<Reference> v(Reference(0.25 + k), Reference(-1.5 + 0.5 * k), Reference(3 - k));
    const Tape<Reference> simplified = simplify(table_10_3<Reference>(I11, I22, I33, v), Rules{true, true, false});
    std::vector<Reference> out(1), scratch;
    const std::vector<Reference> in = {v[0], v[1], v[2]};
    evaluate<Reference>(simplified, in, out, scratch);
    const Reference optimum = (I22 - I11) * v[0] * v[1];
    using std::abs;
    CHECK(abs(out[0] - optimum) <= Reference("1e-45") * (abs(optimum) + 1));
  }
}

// Every case of rbdlab_generated, so the bit-for-bit checks cover what is generated.
const std::vector<std::string> kCases = {"urdf:ur5", "urdf:iiwa14", "urdf:panda", "urdf:solo12", "gu:7"};

// The state in scalar V; for factor + solve also H(q) from the CRBA on m (in V, the same model the
// variant is then run on), and b = tau.
template <class V> SampleState<V> sample_of(const cases::State& s, Algorithm a, const Model<V>* m = nullptr) {
  auto c = [](const VecX<double>& x) { return VecX<V>(x.unaryExpr([](double d) { return scalar_cast<V>(d); })); };
  SampleState<V> x{c(s.q), c(s.qd), c(a == Algorithm::ForwardDynamics || a == Algorithm::FactorSolve ? s.tau : s.qdd)};
  if (a == Algorithm::FactorSolve) {
    Workspace<V> ws(*m);
    x.H = MatX<V>::Zero(m->nv, m->nv);
    Crba::run<V>(*m, x.q, x.H, ws);
  }
  return x;
}

// With `count`, the operations of the run alone are counted (not the workspace's construction).
template <class Variant, class S>
VecX<S> generic(Algorithm a, const Model<S>& m, const SampleState<S>& x, OpCounts* count = nullptr) {
  auto run = [&](auto&& f) {
    if (count) *count = count_ops(f);
    else f();
  };
  if (a == Algorithm::FactorSolve) {
    if constexpr (requires(VecX<S>& y, FactorizationWorkspace<S>& ws) { Variant::template run<S>(m, x.H, x.third, y, ws); }) {
      FactorizationWorkspace<S> ws(m);
      VecX<S> y(m.nv);
      run([&] { Variant::template run<S>(m, x.H, x.third, y, ws); });
      return y;
    }
  } else if (a == Algorithm::MassMatrix) {
    if constexpr (requires(MatX<S>& H, Workspace<S>& ws) { Variant::template run<S>(m, x.q, H, ws); }) {
      Workspace<S> ws(m);
      MatX<S> H = MatX<S>::Zero(m.nv, m.nv);
      run([&] { Variant::template run<S>(m, x.q, H, ws); });
      return Eigen::Map<const VecX<S>>(MatX<S>(H.transpose()).data(), H.size());
    }
  } else if (a == Algorithm::ForwardDynamics) {
    if constexpr (requires(VecX<S>& y, ForwardDynamicsWorkspace<S>& ws) {
                    Variant::template run<S>(m, x.q, x.qd, x.third, static_cast<const ExternalForces<S>*>(nullptr), y, ws);
                  }) {
      ForwardDynamicsWorkspace<S> ws(m);
      VecX<S> y(m.nv);
      run([&] { Variant::template run<S>(m, x.q, x.qd, x.third, nullptr, y, ws); });
      return y;
    }
  } else {
    if constexpr (requires(VecX<S>& y, Workspace<S>& ws) {
                    Variant::template run<S>(m, x.q, x.qd, x.third, static_cast<const ExternalForces<S>*>(nullptr), y, ws);
                  }) {
      Workspace<S> ws(m);
      VecX<S> y(m.nv);
      run([&] { Variant::template run<S>(m, x.q, x.qd, x.third, nullptr, y, ws); });
      return y;
    }
  }
  throw std::logic_error("generic: the variant is not of this algorithm");
}

// The list's inputs at x, in the order trace_dynamics.hpp created them.
template <class S> std::vector<S> list_inputs(const SampleState<S>& x, Algorithm a, const Model<double>& model) {
  std::vector<S> in;
  if (a == Algorithm::FactorSolve) {
    for (const auto& [i, j] : factor_solve_pattern(model)) in.push_back(x.H(i, j));
    for (Eigen::Index i = 0; i < x.third.size(); ++i) in.push_back(x.third[i]);
    return in;
  }
  for (const VecX<S>* part : {&x.q, &x.qd, &x.third}) {
    if (a == Algorithm::MassMatrix && part != &x.q) break;
    for (Eigen::Index i = 0; i < part->size(); ++i) in.push_back((*part)[i]);
  }
  return in;
}

template <class S, class V>
VecX<S> evaluated(const Tape<V>& t, const SampleState<S>& x, Algorithm a, const Model<double>& model) {
  const std::vector<S> in = list_inputs(x, a, model);
  std::vector<S> out(t.outputs.size()), scratch;
  evaluate<S>(t, in, out, scratch);
  return Eigen::Map<const VecX<S>>(out.data(), static_cast<Eigen::Index>(out.size()));
}

// b and c (double) for one variant of the family on one case.
template <Algorithm a, class Variant> void check_variant_in_double(const std::string& id) {
  const Model<double> model = cases::build_case(id);
  if (!Variant::template applicable<double>(model)) return;
  INFO(id << " " << algorithm_name(a) << " " << Variant::name);
  const Model<Counted> mc = model.cast<Counted>();
  const Model<double> md = model.cast<double>();
  const SampleState<double> x0 = sample_of<double>(cases::random_state(model, 1), a, &md);
  Tape<double> raw;
  try {
    if constexpr (a == Algorithm::FactorSolve) raw = trace_factor_solve<Variant>(model, model, x0.H, x0.third);
    else if constexpr (a == Algorithm::MassMatrix) raw = trace_mass_matrix<Variant>(model, x0.q);
    else if constexpr (a == Algorithm::ForwardDynamics) raw = trace_forward_dynamics<Variant>(model, x0.q, x0.qd, x0.third);
    else raw = trace_inverse_dynamics<Variant>(model, x0.q, x0.qd, x0.third);
  } catch (const std::logic_error&) {
    // Only the dense Cholesky routes branch on values of the state: crba_llt_dense, and Eigen's LLT
    // and LDLT (llt_dense, ldlt_dense: positivity tests, LDLT's pivoting). Anything else is a regression.
    const std::string name(Variant::name);
    CHECK((name == "crba_llt_dense" || name == "llt_dense" || name == "ldlt_dense"));
    return;
  }
  SimplifyStats st;
  const Tape<double> simplified = simplify(raw, Rules{}, &st);
  // b: the executer's raw list against the counting scalar on the same call.
  const SampleState<Counted> xc = sample_of<Counted>(cases::random_state(model, 1), a, &mc);
  OpCounts c;
  (void)generic<Variant, Counted>(a, mc, xc, &c);
  const ListCounts l = raw.counts();
  CHECK(static_cast<std::uint64_t>(l.mul) == c.mul);
  CHECK(static_cast<std::uint64_t>(l.div) == c.div);
  CHECK(static_cast<std::uint64_t>(l.add) == c.add);
  CHECK(static_cast<std::uint64_t>(l.sqrt) == c.sqrt);
  CHECK(static_cast<std::uint64_t>(l.sin + l.cos) == c.sin + c.cos);
  // d: the rule tallies add up to the saving, and a second pass finds nothing.
  CHECK(st.before.all() - st.after.all() == st.folded + st.identities + st.common + st.dead);
  SimplifyStats again;
  const Tape<double> twice = simplify(simplified, Rules{}, &again);
  CHECK(twice.nodes.size() == simplified.nodes.size());
  CHECK(again.after == again.before);
  // c: bit for bit against the generic variant at fresh states (not the traced sample), both run
  // in the counting scalar: it computes in double with the scalar operations in the order the
  // variant's source writes them, as the traced list records them. (In plain double, Eigen
  // vectorises some sums and so associates them differently: that run is compared by accuracy,
  // in the test of the generated code below.)
  for (std::uint64_t seed = 2; seed <= 4; ++seed) {
    const cases::State st_seed = cases::random_state(model, seed);
    const SampleState<Counted> xs = sample_of<Counted>(st_seed, a, &mc);
    const VecX<Counted> want = generic<Variant, Counted>(a, mc, xs);
    // The list is run in the counting scalar too, so that its sines are the counting scalar's
    // (core/lane_sincos.hpp, which batch lanes share); in double it runs the C library's, as the
    // emitted C++ does (the test of the generated code below).
    const VecX<Counted> got = evaluated<Counted>(simplified, xs, a, model);
    REQUIRE(got.size() == want.size());
    int differ = 0;
    for (Eigen::Index i = 0; i < got.size(); ++i) differ += !(got[i].value() == want[i].value());
    CHECK(differ == 0);
  }
}

template <Algorithm a, class Variants> void check_family_in_double(const std::string& id) {
  std::apply([&](auto... tag) { (check_variant_in_double<a, decltype(tag)>(id), ...); }, Variants{});
}

TEST_CASE("symbolic: raw lists count what the counting scalar counts; simplified lists equal the generic variants bit for bit",
          "[symbolic]") {
  for (const std::string& id : kCases) {
    check_family_in_double<Algorithm::InverseDynamics, InverseDynamicsVariants>(id);
    check_family_in_double<Algorithm::MassMatrix, MassMatrixVariants>(id);
    check_family_in_double<Algorithm::ForwardDynamics, ForwardDynamicsVariants>(id);
    check_family_in_double<Algorithm::FactorSolve, FactorizationVariants>(id);
  }
}

// c (Reference): the lists of the three algorithms' book variants, simplified, against the
// generic variants in Reference. Both are exact algorithms in ~50-digit arithmetic on the same
// model, so they differ by round-off (~1e-47 here); 1e-40 (verify/support/close40.hpp) separates that
// from a rule that changed a value, which errs at O(1e-16) or more.
template <Algorithm a, class Variant> void check_in_reference(const std::string& id) {
  INFO(id << " " << algorithm_name(a) << " " << Variant::name);
  const Model<double> model = cases::build_case(id);
  const Model<Reference> mr = model.cast<Reference>();
  const SampleState<Reference> x0 = sample_of<Reference>(cases::random_state(model, 1), a, &mr);
  Tape<Reference> raw;
  if constexpr (a == Algorithm::FactorSolve) raw = trace_factor_solve<Variant>(model, mr, x0.H, x0.third);
  else if constexpr (a == Algorithm::MassMatrix) raw = trace_mass_matrix<Variant>(mr, x0.q);
  else if constexpr (a == Algorithm::ForwardDynamics) raw = trace_forward_dynamics<Variant>(mr, x0.q, x0.qd, x0.third);
  else raw = trace_inverse_dynamics<Variant>(mr, x0.q, x0.qd, x0.third);
  const Tape<Reference> simplified = simplify(raw);
  // The model's zeros always remove something from the three recursions; the sparse factorization
  // already skips every structural zero, so there nothing is left to remove (its gain is in time:
  // no index arithmetic, reports/performance.md).
  if constexpr (a == Algorithm::FactorSolve) CHECK(simplified.counts().total() <= raw.counts().total());
  else CHECK(simplified.counts().total() < raw.counts().total());
  for (std::uint64_t seed = 5; seed <= 6; ++seed) {
    const SampleState<Reference> x = sample_of<Reference>(cases::random_state(model, seed), a, &mr);
    CHECK(rbd::verify::close40(evaluated<Reference>(simplified, x, a, model), generic<Variant, Reference>(a, mr, x)));
  }
}

TEST_CASE("symbolic: simplified lists of rnea_spatial, crba, aba and ltdl_sparse agree with the generic variants in Reference",
          "[symbolic]") {
  for (const std::string& id : kCases) {
    check_in_reference<Algorithm::InverseDynamics, RneaSpatial>(id);
    check_in_reference<Algorithm::MassMatrix, Crba>(id);
    check_in_reference<Algorithm::ForwardDynamics, Aba>(id);
    check_in_reference<Algorithm::FactorSolve, LtdlSparse>(id);
  }
}

TEST_CASE("symbolic: constants stay distinct (NaN, signed zeros); the emitter refuses a non-finite one", "[symbolic]") {
  // x*NaN, x*1.5, x*(-0), x*0: a table keyed by operator< alone would merge NaN with every constant.
  Tape<double> tape;
  {
    Recording<double> on(tape);
    const Traced<double> x = Traced<double>::input(tape, "x", 2.0);
    for (double c : {std::numeric_limits<double>::quiet_NaN(), 1.5, -0.0, 0.0, 1.5}) {
      const Traced<double> y = x * Traced<double>(c) + Traced<double>(3.0);
      tape.outputs.push_back(y.node(tape));
      tape.output_names.push_back("y");
    }
  }
  const Tape<double> s = simplify(tape);
  std::vector<double> out(5), scratch;
  const std::vector<double> in = {2.0};
  evaluate<double>(s, in, out, scratch);
  CHECK(std::isnan(out[0]));
  CHECK(out[1] == 6.0);
  CHECK(out[2] == 3.0);
  CHECK(out[3] == 3.0);
  CHECK(out[4] == 6.0);
  std::ostringstream os;
  CHECK_THROWS_WITH(emit_cpp(s, "f", "test", os), Catch::Contains("not finite"));
}

TEST_CASE("symbolic: a branch on the state cannot be traced", "[symbolic]") {
  Tape<double> tape;
  Recording<double> on(tape);
  const Traced<double> x = Traced<double>::input(tape, "x", 0.5);
  CHECK_THROWS_AS((void)(x < Traced<double>(0)), std::logic_error);
  CHECK_THROWS_AS((void)abs(x), std::logic_error);
  CHECK_NOTHROW((void)(Traced<double>(1) < Traced<double>(2)));  // constants: decided now
}

TEST_CASE("symbolic: the generated C++ reproduces its list bit for bit", "[symbolic]") {
  const auto functions = generated_functions();
  REQUIRE(!functions.empty());
  std::map<std::string, int> per_case;  // every generated case has all four algorithms
  for (const GeneratedFunction& f : functions) ++per_case[f.case_id];
  for (const auto& [id, n] : per_case) {
    INFO(id);
    CHECK(n == 4);
  }
  for (const GeneratedFunction& f : functions) {
    INFO(f.case_id << " " << f.algorithm << " from " << f.variant);
    const Model<double> model = cases::build_case(f.case_id);
    const std::string alg = f.algorithm;
    const Algorithm a = alg == "inverse_dynamics" ? Algorithm::InverseDynamics
                        : alg == "mass_matrix"    ? Algorithm::MassMatrix
                        : alg == "factorization"  ? Algorithm::FactorSolve
                                                  : Algorithm::ForwardDynamics;
    // The generator traces on the model itself (cli/codegen.cpp), H from the CRBA on it.
    const auto all = trace_family(a, model, model, sample_of<double>(cases::random_state(model, 1), a, &model));
    const TracedVariant<double>& best = shortest(all);
    CHECK(best.variant == f.variant);  // the generator chose the same list
    CHECK(best.simplified.counts().m() == f.m);
    CHECK(best.simplified.counts().a() == f.a);
    REQUIRE(f.inputs == static_cast<int>(best.simplified.inputs.size()));
    REQUIRE(f.outputs == static_cast<int>(best.simplified.outputs.size()));
    for (std::uint64_t seed = 7; seed <= 9; ++seed) {
      // H from the CRBA on the model in double, as the family table's factorization entry makes it.
      const SampleState<double> x = sample_of<double>(cases::random_state(model, seed), a, &model);
      const VecX<double> want = evaluated<double>(best.simplified, x, a, model);
      const std::vector<double> in = list_inputs(x, a, model);
      std::vector<double> out(f.outputs);
      f.run(in.data(), out.data());
      int differ = 0;
      for (int i = 0; i < f.outputs; ++i) differ += !(out[i] == want[i]);
      CHECK(differ == 0);

      // Accuracy against the family's oracle in Reference, beside the generic variant in double
      // (the accuracy gate's measurement, accuracy.json). The generated code does the variant's
      // arithmetic minus operations on known zeros and ones, in scalar order where Eigen's double
      // code vectorises some sums, so its error differs from the variant's by the luck of a few
      // roundings: a bound of 8x the variant's error (tools/gate.py's RATIO_LIMIT for the same
      // kind of change), with errors below 1 eps compared at 1 eps, fails a list that lost an
      // operation's worth of accuracy (O(1) relative) by 10^15.
      const rbd::verify::FamilyEntry& family = a == Algorithm::InverseDynamics ? rbd::verify::inverse_dynamics_family()
                                               : a == Algorithm::MassMatrix    ? rbd::verify::mass_matrix_family()
                                               : a == Algorithm::FactorSolve   ? rbd::verify::factorization_family()
                                                                                : rbd::verify::forward_dynamics_family();
      cases::State plain = cases::random_state(model, seed);
      plain.f_ext.assign(model.nb, Vec6<double>::Zero());  // the generated code takes no external forces
      const Model<Reference> mr = model.cast<Reference>();
      const MatX<Reference> exact = family.oracle(mr, rbd::verify::cast_state(mr, plain));
      Workspace<double> ws(model);
      const MatX<double> generic_double =
          rbd::verify::variant_named(family, f.variant).in_double(model, rbd::verify::cast_state(model, plain), ws);
      auto err_eps = [&](auto value_at) {
        Reference num(0), den(0);
        using std::abs;
        for (int i = 0; i < f.outputs; ++i) {
          const Reference e = exact.cols() == 1 ? exact(i, 0) : exact(i / exact.cols(), i % exact.cols());
          num = std::max<Reference>(num, abs(Reference(value_at(i)) - e));
          den = std::max<Reference>(den, abs(e));
        }
        return static_cast<double>(num / den) / std::numeric_limits<double>::epsilon();
      };
      const double generated_err = err_eps([&](int i) { return out[i]; });
      const double generic_err = err_eps([&](int i) {
        return generic_double.cols() == 1 ? generic_double(i, 0) : generic_double(i / generic_double.cols(), i % generic_double.cols());
      });
      INFO("error in eps: generated " << generated_err << ", generic " << f.variant << " " << generic_err);
      CHECK(std::isfinite(generated_err));
      CHECK(generated_err <= 8 * std::max(generic_err, 1.0));
    }
  }
}

}  // namespace test_symbolic
