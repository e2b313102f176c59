// rbdlab_bench_planar: Google Benchmark timings of section 2.16's planar vectors against spatial
// ones: the planar RNEA, CRBA and ABA (algorithms/planar/) and the spatial rnea_spatial, crba and
// aba on the same planar revolute chain (planar::to_spatial), so that the report can set the
// measured time ratio beside the counted operation ratio (opcounts.json's "planar" rows).
// Names: planar/<algorithm>_<planar|spatial>/chain/n:N, n = 2..32. Inputs: 16 seeded states per
// chain, rotated every iteration; outputs through benchmark::DoNotOptimize.
//   rbdlab_bench_planar [Google Benchmark flags], e.g. --benchmark_out=bench_planar.json
#include <benchmark/benchmark.h>

#include <vector>

#include "cases/planar.hpp"
#include "forward_dynamics/aba.hpp"
#include "inverse_dynamics/rnea_spatial.hpp"
#include "mass_matrix/crba.hpp"
#include "planar/variants.hpp"

namespace {

using namespace rbd;
namespace pl = rbd::planar;
constexpr int kStates = 16;

// The chain the op counts use (verify/opcounts.cpp, planar_counts: seed 77, revolute only).
struct Chain {
  pl::Model<double> planar_model;
  Model<double> spatial_model;
  std::vector<cases::PlanarState> states;
  explicit Chain(int n) : planar_model(cases::random_planar(77, n, false, true)), spatial_model(pl::to_spatial(planar_model)) {
    for (int s = 0; s < kStates; ++s) states.push_back(cases::random_pstate(77 + s, n));
  }
};

enum class Algorithm { rnea, crba, aba };

template <Algorithm A> void BM_planar(benchmark::State& st) {
  const int n = static_cast<int>(st.range(0));
  const Chain c(n);
  pl::Workspace<double> ws(c.planar_model);
  VecX<double> out(n);
  MatX<double> H(n, n);
  int i = 0;
  for (auto _ : st) {
    const cases::PlanarState& x = c.states[i];
    if constexpr (A == Algorithm::rnea) pl::Rnea::run(c.planar_model, x.q, x.qd, x.qdd, out, ws);
    if constexpr (A == Algorithm::crba) pl::Crba::run(c.planar_model, x.q, H, ws);
    if constexpr (A == Algorithm::aba) pl::Aba::run(c.planar_model, x.q, x.qd, x.tau, out, ws);
    benchmark::DoNotOptimize(out.data());
    benchmark::DoNotOptimize(H.data());
    benchmark::ClobberMemory();
    i = (i + 1) % kStates;
  }
  st.SetComplexityN(n);
}

template <Algorithm A> void BM_spatial(benchmark::State& st) {
  const int n = static_cast<int>(st.range(0));
  const Chain c(n);
  ForwardDynamicsWorkspace<double> ws(c.spatial_model);  // a Workspace too (RNEA, CRBA)
  VecX<double> out(n);
  MatX<double> H(n, n);
  int i = 0;
  for (auto _ : st) {
    const cases::PlanarState& x = c.states[i];
    if constexpr (A == Algorithm::rnea) RneaSpatial::run<double>(c.spatial_model, x.q, x.qd, x.qdd, nullptr, out, ws);
    if constexpr (A == Algorithm::crba) Crba::run<double>(c.spatial_model, x.q, H, ws);
    if constexpr (A == Algorithm::aba) Aba::run<double>(c.spatial_model, x.q, x.qd, x.tau, nullptr, out, ws);
    benchmark::DoNotOptimize(out.data());
    benchmark::DoNotOptimize(H.data());
    benchmark::ClobberMemory();
    i = (i + 1) % kStates;
  }
  st.SetComplexityN(n);
}

#define RBDLAB_PLANAR_BENCH(fn, alg, name) \
  BENCHMARK(fn<Algorithm::alg>)->Name("planar/" name "/chain")->ArgName("n")->Arg(2)->Arg(4)->Arg(8)->Arg(16)->Arg(32)

RBDLAB_PLANAR_BENCH(BM_planar, rnea, "rnea_planar");
RBDLAB_PLANAR_BENCH(BM_spatial, rnea, "rnea_spatial");
RBDLAB_PLANAR_BENCH(BM_planar, crba, "crba_planar");
RBDLAB_PLANAR_BENCH(BM_spatial, crba, "crba_spatial");
RBDLAB_PLANAR_BENCH(BM_planar, aba, "aba_planar");
RBDLAB_PLANAR_BENCH(BM_spatial, aba, "aba_spatial");

}  // namespace

BENCHMARK_MAIN();
