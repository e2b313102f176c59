// rbdlab_bench_integration: Google Benchmark timings for the integration family
// (algorithms/integration/, issue 6, seed 004): the cost of one RK4 step of each variant on each
// of the paper's four systems, in the same run, and the cost per body update (a counter:
// time per step / bodies). Names: integration/<variant>/<case>/n:<bodies>. Deterministic op
// counts of the same steps are in reports/data/integration.json (verify/integration_study.cpp).
// Inputs: a pool of states along the trajectory (one every 10 ms of a 1 s run), rotated per
// iteration so the step does not see the same numbers twice in a row; results go through
// benchmark::DoNotOptimize.
//   rbdlab_bench_integration [Google Benchmark flags], e.g. --benchmark_out=integration_bench.json
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "cases/lie_systems.hpp"
#include "integration/variants.hpp"

namespace {

using namespace rbd;
using namespace rbd::integration;

template <class V> std::vector<State<double>> pool(const cases::LieCase& c) {
  std::vector<State<double>> out;
  State<double> x = cases::initial_state<typename V::Group, double>(c);
  const Tableau<double> tab = classical_rk4<double>();
  for (int k = 0; k < 100; ++k) {
    out.push_back(x);
    integrate<V, double>(c.sys, x, 1e-3, 10, tab);
  }
  return out;
}

template <class V> void BM_step(benchmark::State& st, const cases::LieCase& c) {
  const std::vector<State<double>> states = pool<V>(c);
  const Tableau<double> tab = classical_rk4<double>();
  size_t i = 0;
  for (auto _ : st) {
    State<double> x = states[i];
    V::template step<double>(c.sys, x, 1e-3, tab);
    benchmark::DoNotOptimize(x.V.data());
    benchmark::ClobberMemory();
    i = (i + 1) % states.size();
  }
  st.counters["bodies"] = c.sys.n;
  st.counters["per_body_update"] =
      benchmark::Counter(static_cast<double>(c.sys.n), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

template <class V> void register_variant() {
  for (const cases::LieCase& c : cases::lie_cases()) {
    const std::string name = std::string("integration/") + V::name + "/" + c.id + "/n:" + std::to_string(c.sys.n);
    benchmark::RegisterBenchmark(name.c_str(), [c](benchmark::State& st) { BM_step<V>(st, c); });
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_variant<RkmkSe3>();
  register_variant<RkmkSo3R3>();
  register_variant<QuaternionRk>();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
