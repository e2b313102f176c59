// rbdlab_bench_frames: Google Benchmark timings for the frames family (algorithms/frames/),
// the questions of issue 7 and of Tasora's seed 000, section 4:
//  - cost of one composition a >> b, of the inverse, and of the chain variants per length;
//  - a point through a frame by quaternion (r + q x q*) vs by a cached rotation matrix;
//  - p >> f1 >> f2 (two frame-by-point products) vs f2 * f1 * p (a frame-by-frame product first).
// Names: frames/<what>/chain/n:N. Deterministic op counts of the same operations are in
// reports/data/frames.json (verify/frames_study.cpp). Inputs: a pool of seeded random
// frames rotated per iteration; results go through benchmark::DoNotOptimize.
//   rbdlab_bench_frames [Google Benchmark flags], e.g. --benchmark_out=frames_bench.json
#include <benchmark/benchmark.h>

#include <vector>

#include "cases/random.hpp"
#include "frames/variants.hpp"

namespace {

using namespace rbd;
constexpr int kPool = 64;

// Random frames: unit quaternion from cases::Rng, all other components uniform in [-1, 1).
std::vector<MovingFrame<double>> pool(int count, std::uint64_t seed) {
  cases::Rng rng(seed);
  auto v3 = [&] { return Vec3<double>(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)); };
  std::vector<MovingFrame<double>> out(count);
  for (auto& f : out) {
    const Eigen::Vector4d q = rng.unit_quaternion();
    f.q = Quaternion<double>{q[0], Vec3<double>(q[1], q[2], q[3])};
    f.r = v3();
    f.r_dot = v3();
    f.omega = v3();
    f.r_ddot = v3();
    f.alpha = v3();
  }
  return out;
}

void BM_compose(benchmark::State& st) {
  const auto f = pool(kPool + 1, 1);
  int i = 0;
  for (auto _ : st) {
    MovingFrame<double> c = f[i] >> f[i + 1];
    benchmark::DoNotOptimize(c);
    i = (i + 1) % kPool;
  }
}
void BM_inverse(benchmark::State& st) {
  const auto f = pool(kPool, 2);
  int i = 0;
  for (auto _ : st) {
    MovingFrame<double> c = !f[i];
    benchmark::DoNotOptimize(c);
    i = (i + 1) % kPool;
  }
}
void BM_point_quaternion(benchmark::State& st) {
  const auto f = pool(kPool, 3);
  const Vec3<double> x(0.3, -0.7, 1.1);
  int i = 0;
  for (auto _ : st) {
    Vec3<double> y = x >> f[i];
    benchmark::DoNotOptimize(y);
    i = (i + 1) % kPool;
  }
}
void BM_point_cached_matrix(benchmark::State& st) {
  const auto f = pool(kPool, 3);
  std::vector<Mat3<double>> A;
  for (const auto& g : f) A.push_back(g.q.matrix());  // Chrono's cached [A(q)] (seed section 4)
  const Vec3<double> x(0.3, -0.7, 1.1);
  int i = 0;
  for (auto _ : st) {
    Vec3<double> y = f[i].r + A[i] * x;
    benchmark::DoNotOptimize(y);
    i = (i + 1) % kPool;
  }
}
void BM_point_left_to_right(benchmark::State& st) {  // p >> f1 >> f2
  const auto f = pool(kPool + 1, 4);
  const MovingPoint<double> p{Vec3<double>(0.3, -0.7, 1.1), Vec3<double>(1, 0.5, -0.2), Vec3<double>(0.1, 0.2, 0.3)};
  int i = 0;
  for (auto _ : st) {
    MovingPoint<double> y = p >> f[i] >> f[i + 1];
    benchmark::DoNotOptimize(y);
    i = (i + 1) % kPool;
  }
}
void BM_point_right_to_left(benchmark::State& st) {  // f2 * f1 * p
  const auto f = pool(kPool + 1, 4);
  const MovingPoint<double> p{Vec3<double>(0.3, -0.7, 1.1), Vec3<double>(1, 0.5, -0.2), Vec3<double>(0.1, 0.2, 0.3)};
  int i = 0;
  for (auto _ : st) {
    MovingPoint<double> y = f[i + 1] * f[i] * p;
    benchmark::DoNotOptimize(y);
    i = (i + 1) % kPool;
  }
}
template <class V> void BM_chain(benchmark::State& st) {
  const int n = static_cast<int>(st.range(0));
  const auto f = pool(n + kPool, 5);
  MovingFrame<double> out;
  int i = 0;
  for (auto _ : st) {
    V::template run<double>(std::span<const MovingFrame<double>>(f.data() + i, n), out);
    benchmark::DoNotOptimize(out);
    i = (i + 1) % kPool;
  }
  st.SetComplexityN(n);
}

}  // namespace

BENCHMARK(BM_compose)->Name("frames/compose/pair/n:2");
BENCHMARK(BM_inverse)->Name("frames/inverse/single/n:1");
BENCHMARK(BM_point_quaternion)->Name("frames/point_quaternion/single/n:1");
BENCHMARK(BM_point_cached_matrix)->Name("frames/point_cached_matrix/single/n:1");
BENCHMARK(BM_point_left_to_right)->Name("frames/point_left_to_right/pair/n:2");
BENCHMARK(BM_point_right_to_left)->Name("frames/point_right_to_left/pair/n:2");
BENCHMARK(BM_chain<rbd::ChainLeftToRight>)->Name("frames/chain_left_to_right/chain")->ArgName("n")->Arg(2)->Arg(8)->Arg(32)->Complexity();
BENCHMARK(BM_chain<rbd::ChainRightToLeft>)->Name("frames/chain_right_to_left/chain")->ArgName("n")->Arg(2)->Arg(8)->Arg(32)->Complexity();
BENCHMARK(BM_chain<rbd::QuaternionRates>)->Name("frames/quaternion_rates/chain")->ArgName("n")->Arg(2)->Arg(8)->Arg(32)->Complexity();
BENCHMARK(BM_chain<rbd::SpatialPropagation>)->Name("frames/spatial_propagation/chain")->ArgName("n")->Arg(2)->Arg(8)->Arg(32)->Complexity();

BENCHMARK_MAIN();
