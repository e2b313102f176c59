// rbdlab_bench_generated: Google Benchmark timings of the straight-line code of section 10.4
// (algorithms/symbolic/, cmake/generated_code.cmake) against every generic variant of the same
// algorithm on the same model, in one run (issue 17). Names:
//   generated/<algorithm>/<case>/n:NV              the generated function
//   <algorithm>/<variant>/<case>/n:NV              the generic variant, through rbdlab::run_inlined
// (factor + solve: H(q) is made by the CRBA before timing, for both).
// Inputs: a pool of seeded states rotated per iteration, the same for both. Each generated function
// is checked against its variant on every pooled state before timing, to 1e-9 of the largest output:
// a guard against a broken build (verify/test_symbolic.cpp is the gate: bit for bit against the
// variant's source-order arithmetic, and by accuracy against the oracle; a plain double call
// differs in the last bits where Eigen vectorises a sum).
//   rbdlab_bench_generated [Google Benchmark flags]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <string>
#include <tuple>
#include <vector>

#include "cases/registry.hpp"
#include "cases/states.hpp"
#include "factorization/variants.hpp"
#include "forward_dynamics/variants.hpp"
#include "inverse_dynamics/variants.hpp"
#include "mass_matrix/variants.hpp"
#include "rbdlab/api.hpp"
#include "symbolic/generated_registry.hpp"
#include "symbolic/trace_dynamics.hpp"

namespace {

using namespace rbd;
constexpr int kPool = 16;

struct Case {
  std::string id;
  Model<double> model;  // model.cast<double>(): the constants the generated code holds
  std::vector<cases::State> pool;
  std::vector<MatX<double>> H;  // H(q) of each pooled state (CRBA), the input of factor + solve
};

const Case& case_of(const std::string& id) {
  static std::deque<Case> all;
  for (const Case& c : all)
    if (c.id == id) return c;
  const Model<double> m = cases::build_case(id);
  Case c{id, m.cast<double>(), {}, {}};
  Workspace<double> ws(c.model);
  for (int s = 1; s <= kPool; ++s) {
    c.pool.push_back(cases::random_state(m, static_cast<std::uint64_t>(s)));
    c.H.push_back(MatX<double>::Zero(c.model.nv, c.model.nv));
    Crba::run<double>(c.model, c.pool.back().q, c.H.back(), ws);
  }
  all.push_back(std::move(c));
  return all.back();
}

std::string slug(const std::string& id) { return id.rfind("urdf:", 0) == 0 ? id.substr(5) : id; }

// The generated function's argument vector for pooled state k: q, qd, then qdd or tau (q only for
// H; H's pattern entries then tau for factor + solve, symbolic/trace_dynamics.hpp).
std::vector<double> inputs_of(const std::string& algorithm, const Case& c, int k) {
  const cases::State& x = c.pool[k];
  if (algorithm == "factorization") {
    std::vector<double> in;
    for (const auto& [i, j] : symbolic::factor_solve_pattern(c.model)) in.push_back(c.H[k](i, j));
    in.insert(in.end(), x.tau.data(), x.tau.data() + x.tau.size());
    return in;
  }
  std::vector<double> in(x.q.data(), x.q.data() + x.q.size());
  if (algorithm == "mass_matrix") return in;
  in.insert(in.end(), x.qd.data(), x.qd.data() + x.qd.size());
  const VecX<double>& third = algorithm == "forward_dynamics" ? x.tau : x.qdd;
  in.insert(in.end(), third.data(), third.data() + third.size());
  return in;
}

enum class Algorithm { InverseDynamics, MassMatrix, ForwardDynamics, FactorSolve };

// One call of a generic variant of algorithm A; its result lands in H (mass matrix) or y.
template <Algorithm A, class Variant>
void run_generic(const Case& c, int k, Workspace<double>& ws, ForwardDynamicsWorkspace<double>& fws,
                 FactorizationWorkspace<double>& factor_ws, MatX<double>& H, VecX<double>& y) {
  const Model<double>& m = c.model;
  const cases::State& x = c.pool[k];
  if constexpr (A == Algorithm::FactorSolve)
    rbdlab::run_inlined<double>([&] { Variant::template run<double>(m, c.H[k], x.tau, y, factor_ws); });
  else if constexpr (A == Algorithm::MassMatrix)
    rbdlab::run_inlined<double>([&] { Variant::template run<double>(m, x.q, H, ws); });
  else if constexpr (A == Algorithm::ForwardDynamics)
    rbdlab::run_inlined<double>([&] { Variant::template run<double>(m, x.q, x.qd, x.tau, nullptr, y, fws); });
  else
    rbdlab::run_inlined<double>([&] { Variant::template run<double>(m, x.q, x.qd, x.qdd, nullptr, y, ws); });
}

bool build_ok = true;

// Registers the generic variant; if it is the one f was generated from, first checks that f
// gives its results bit for bit on every pooled state.
template <Algorithm A, class Variant> void register_generic(const symbolic::GeneratedFunction& f) {
  const std::string id = f.case_id, algorithm = f.algorithm;
  const Case& c = case_of(id);
  if (!Variant::template applicable<double>(c.model)) return;
  if (std::string(Variant::name) == f.variant) {
    Workspace<double> ws(c.model);
    ForwardDynamicsWorkspace<double> fws(c.model);
    FactorizationWorkspace<double> factor_ws(c.model);
    MatX<double> H = MatX<double>::Zero(c.model.nv, c.model.nv);
    VecX<double> y(c.model.nv);
    std::vector<double> out(f.outputs);
    for (int k = 0; k < kPool; ++k) {
      run_generic<A, Variant>(c, k, ws, fws, factor_ws, H, y);
      f.run(inputs_of(algorithm, c, k).data(), out.data());
      double scale = 1;
      for (int i = 0; i < f.outputs; ++i) scale = std::max(scale, std::abs(out[i]));
      for (int i = 0; i < f.outputs; ++i) {
        const double want = A == Algorithm::MassMatrix ? H(i / c.model.nv, i % c.model.nv) : y[i];
        if (!(std::abs(out[i] - want) <= 1e-9 * scale)) {
          std::fprintf(stderr, "rbdlab_bench_generated: generated %s of %s differs from %s at output %d\n",
                       f.algorithm, f.case_id, f.variant, i);
          build_ok = false;
          return;
        }
      }
    }
  }
  const std::string name = algorithm + "/" + std::string(Variant::name) + "/" + slug(id) + "/n:" + std::to_string(c.model.nv);
  benchmark::RegisterBenchmark(name.c_str(), [id](benchmark::State& st) {
    const Case& c = case_of(id);
    Workspace<double> ws(c.model);
    ForwardDynamicsWorkspace<double> fws(c.model);
    FactorizationWorkspace<double> factor_ws(c.model);
    MatX<double> H = MatX<double>::Zero(c.model.nv, c.model.nv);
    VecX<double> y(c.model.nv);
    int k = 0;
    for (auto _ : st) {
      run_generic<A, Variant>(c, k, ws, fws, factor_ws, H, y);
      benchmark::DoNotOptimize(H.data());
      benchmark::DoNotOptimize(y.data());
      benchmark::ClobberMemory();
      k = (k + 1) % kPool;
    }
    st.counters["nv"] = c.model.nv;
  });
}

template <Algorithm A, class Variants> void register_family(const symbolic::GeneratedFunction& f) {
  std::apply([&](auto... tag) { (register_generic<A, decltype(tag)>(f), ...); }, Variants{});
}

void register_generated(const symbolic::GeneratedFunction& f) {
  const Case& c = case_of(f.case_id);
  const std::string algorithm = f.algorithm;
  const std::string name = "generated/" + algorithm + "/" + slug(f.case_id) + "/n:" + std::to_string(c.model.nv);
  benchmark::RegisterBenchmark(name.c_str(), [&f, algorithm](benchmark::State& st) {
    const Case& c = case_of(f.case_id);
    std::vector<std::vector<double>> in;
    for (int k = 0; k < kPool; ++k) in.push_back(inputs_of(algorithm, c, k));
    std::vector<double> out(f.outputs);
    int k = 0;
    for (auto _ : st) {
      f.run(in[k].data(), out.data());
      benchmark::DoNotOptimize(out.data());
      benchmark::ClobberMemory();
      k = (k + 1) % kPool;
    }
    st.counters["nv"] = c.model.nv;
    st.counters["m"] = static_cast<double>(f.m);
    st.counters["a"] = static_cast<double>(f.a);
    st.SetLabel(std::string("from ") + f.variant);
  });
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  try {
    for (const symbolic::GeneratedFunction& f : symbolic::generated_functions()) {
      register_generated(f);
      const std::string a = f.algorithm;
      if (a == "inverse_dynamics") register_family<Algorithm::InverseDynamics, InverseDynamicsVariants>(f);
      else if (a == "mass_matrix") register_family<Algorithm::MassMatrix, MassMatrixVariants>(f);
      else if (a == "factorization") register_family<Algorithm::FactorSolve, FactorizationVariants>(f);
      else register_family<Algorithm::ForwardDynamics, ForwardDynamicsVariants>(f);
    }
    if (!build_ok) return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rbdlab_bench_generated: cannot build the cases: %s\n", e.what());
    return 2;
  }
  benchmark::AddCustomContext("generated_cases", std::to_string(symbolic::generated_functions().size()) + " functions");
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
