// rbdlab_bench_constraints: Google Benchmark timings for the constraints family
// (algorithms/constraints/, seed 001):
//  - one lock's terms: C, C_q (7-coordinate), C_v (6-velocity), C_t, gamma7, gamma6;
//  - forward dynamics of the lock mechanism (verify/support/constraints_mechanism.hpp) by the
//    maximal route (KKT in absolute coordinates) and the minimal route (ABA).
// Names: constraints/<what>/lock or constraints/forward_dynamics/<route>/lock_mechanism.
// The KKT route's accelerations equal ABA's at 40+ digits (verify/test_constraints.cpp) before
// anything here is timed. Inputs: a pool of seeded states rotated per iteration.
//   rbdlab_bench_constraints [Google Benchmark flags]
#include <benchmark/benchmark.h>

#include <vector>

#include "verify/support/constraints_mechanism.hpp"

namespace {

using namespace rbd;
using namespace rbd::verify::constraints;
constexpr int kPool = 32;

struct LockInput {
  LockConstraint<double> lock;
  BodyPose<double> A, B;
  BodyRates<double> rA, rB;
  BodyTwist<double> tA, tB;
};
std::vector<LockInput> lock_pool() {
  cases::Rng rng(11);
  auto v3 = [&] { return Vec3<double>(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)); };
  auto uq = [&] {
    const Eigen::Vector4d q = rng.unit_quaternion();
    return Quaternion<double>{q[0], Vec3<double>(q[1], q[2], q[3])};
  };
  std::vector<LockInput> out(kPool);
  for (auto& x : out) {
    x.lock.marker_P = Marker<double>{v3(), uq()};
    x.lock.marker_S = Marker<double>{v3(), uq()};
    x.A = BodyPose<double>{v3(), uq()};
    x.B = BodyPose<double>{v3(), uq()};
    x.tA = BodyTwist<double>{v3(), v3()};
    x.tB = BodyTwist<double>{v3(), v3()};
    x.rA = BodyRates<double>{x.tA.x_dot, as_quaternion(Vec4<double>(rate_matrix(x.A.q) * x.tA.omega))};
    x.rB = BodyRates<double>{x.tB.x_dot, as_quaternion(Vec4<double>(rate_matrix(x.B.q) * x.tB.omega))};
  }
  return out;
}

template <class F> void lock_bench(benchmark::State& st, F&& f) {
  const auto pool = lock_pool();
  int i = 0;
  for (auto _ : st) {
    const LockInput& x = pool[i++ % kPool];
    benchmark::DoNotOptimize(f(x));
  }
}

void mechanism_bench(benchmark::State& st, bool maximal) {
  const Model<double> m = lock_mechanism();
  const MaximalSystem<double> sys = maximal_system(m);
  MaximalWorkspace<double> mws(sys);
  ForwardDynamicsWorkspace<double> ws(m);
  std::vector<VecX<double>> qs(kPool), vs(kPool);
  std::vector<MaximalState<double>> xs;
  for (int k = 0; k < kPool; ++k) {
    mechanism_state(m, 100 + k, qs[k], vs[k]);
    xs.push_back(maximal_state_of(m, qs[k], vs[k]));
  }
  const VecX<double> tau = VecX<double>::Zero(m.nv);
  VecX<double> out(maximal ? 6 * m.nb : m.nv);
  int i = 0;
  for (auto _ : st) {
    const int k = i++ % kPool;
    if (maximal)
      maximal_forward_dynamics(sys, xs[k], out, mws);
    else
      Aba::run<double>(m, qs[k], vs[k], tau, static_cast<const ExternalForces<double>*>(nullptr), out, ws);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  st.counters["nv_minimal"] = m.nv;
  st.counters["nv_maximal"] = 6 * m.nb;
  st.counters["lock_rows"] = sys.nc();
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::RegisterBenchmark("constraints/C/lock", [](benchmark::State& s) { lock_bench(s, [](const LockInput& x) { return lock_c(x.lock, x.A, x.B); }); });
  benchmark::RegisterBenchmark("constraints/C_q7/lock", [](benchmark::State& s) { lock_bench(s, [](const LockInput& x) { return lock_cq7(x.lock, x.A, x.B); }); });
  benchmark::RegisterBenchmark("constraints/C_v/lock", [](benchmark::State& s) { lock_bench(s, [](const LockInput& x) { return lock_cv(x.lock, x.A, x.B); }); });
  benchmark::RegisterBenchmark("constraints/C_t/lock", [](benchmark::State& s) { lock_bench(s, [](const LockInput& x) { return lock_ct(x.lock, x.A, x.B); }); });
  benchmark::RegisterBenchmark("constraints/gamma7/lock", [](benchmark::State& s) { lock_bench(s, [](const LockInput& x) { return lock_gamma7(x.lock, x.A, x.B, x.rA, x.rB); }); });
  benchmark::RegisterBenchmark("constraints/gamma6/lock", [](benchmark::State& s) { lock_bench(s, [](const LockInput& x) { return lock_gamma6(x.lock, x.A, x.B, x.tA, x.tB); }); });
  benchmark::RegisterBenchmark("constraints/forward_dynamics/maximal_kkt/lock_mechanism", [](benchmark::State& s) { mechanism_bench(s, true); });
  benchmark::RegisterBenchmark("constraints/forward_dynamics/minimal_aba/lock_mechanism", [](benchmark::State& s) { mechanism_bench(s, false); });
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
