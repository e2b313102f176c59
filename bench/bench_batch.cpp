// rbdlab_bench_batch: throughput of batches of states (core/batch_scalar.hpp, batch/evaluate_batch.hpp;
// issue 17). For each case, algorithm and variant, the same kStates seeded states are evaluated
//   batch/<algorithm>/<variant>/<case>/lanes:1   one double call per state (the single-state variant)
//   batch/<algorithm>/<variant>/<case>/lanes:N   N states per call in Batch<N>, N = 2, 4, 8
//   batch/<algorithm>/mujoco/<case>/lanes:1      MuJoCo's call per state (bench/mujoco_peer.hpp)
// per iteration; the reported time is per iteration, the counter "states" says how many it covers
// (time per state = time / states). This program alone is compiled with RBDLAB_BATCH_FLAGS
// (default -march=native: the vector width of the machine that runs it), single calls and MuJoCo's
// included, so that the ratios compare code built alike; the flags are in the JSON context.
// Before timing, every batched result is checked against the single calls (to 1e-9 of the largest
// output: a guard against a broken build; verify/test_batch.cpp is the gate, bit for bit).
//   rbdlab_bench_batch [Google Benchmark flags]
#include <benchmark/benchmark.h>

#include <cstdio>
#include <deque>
#include <string>

#include "batch/evaluate_batch.hpp"
#include "bench/mujoco_peer.hpp"
#include "cases/registry.hpp"
#include "cases/states.hpp"
#include "forward_dynamics/variants.hpp"
#include "inverse_dynamics/variants.hpp"
#include "mass_matrix/variants.hpp"
#include "rbdlab/api.hpp"

namespace {

using namespace rbd;
using bench::MujocoPeer;
using bench::MujocoState;
constexpr int kStates = 64;
enum class Kind { Id, Mm, Fd };
const char* name_of(Kind k) { return k == Kind::Id ? "inverse_dynamics" : k == Kind::Mm ? "mass_matrix" : "forward_dynamics"; }

struct Case {
  std::string id;
  Model<double> model;
  MatX<double> Q, QD, QDD, TAU;
};

const Case& case_of(const std::string& id) {
  static std::deque<Case> all;
  for (const Case& c : all)
    if (c.id == id) return c;
  Case c{id, cases::build_case(id), {}, {}, {}, {}};
  const Model<double>& m = c.model;
  c.Q.resize(m.nq, kStates); c.QD.resize(m.nv, kStates); c.QDD.resize(m.nv, kStates); c.TAU.resize(m.nv, kStates);
  for (int j = 0; j < kStates; ++j) {
    const cases::State x = cases::random_state(m, 1 + j);
    c.Q.col(j) = x.q; c.QD.col(j) = x.qd; c.QDD.col(j) = x.qdd; c.TAU.col(j) = x.tau;
  }
  all.push_back(std::move(c));
  return all.back();
}

std::string slug(const std::string& id) { return id.rfind("urdf:", 0) == 0 ? id.substr(5) : id; }
int rows_of(Kind k, const Model<double>& m) { return k == Kind::Mm ? m.nv * m.nv : m.nv; }

// The single-state calls over all states, results in Y. Each state is copied into preallocated
// vectors first (as the batch copies it into its lanes), so nothing allocates.
struct SingleBuffers {
  ForwardDynamicsWorkspace<double> ws;
  VecX<double> q, qd, x3, y;
  MatX<double> H;
  explicit SingleBuffers(const Model<double>& m)
      : ws(m), q(m.nq), qd(m.nv), x3(m.nv), y(m.nv), H(MatX<double>::Zero(m.nv, m.nv)) {}
};

template <Kind K, class Variant> void singles(const Case& c, SingleBuffers& s, MatX<double>& Y) {
  const Model<double>& m = c.model;
  for (int j = 0; j < kStates; ++j) {
    s.q = c.Q.col(j);
    if constexpr (K == Kind::Mm) {
      rbdlab::run_inlined<double>([&] { Variant::template run<double>(m, s.q, s.H, s.ws); });
      Y.col(j) = Eigen::Map<const VecX<double>>(s.H.data(), s.H.size());
    } else {
      s.qd = c.QD.col(j);
      s.x3 = K == Kind::Fd ? c.TAU.col(j) : c.QDD.col(j);
      rbdlab::run_inlined<double>([&] { Variant::template run<double>(m, s.q, s.qd, s.x3, nullptr, s.y, s.ws); });
      Y.col(j) = s.y;
    }
  }
}

template <Kind K, class Variant, int N> void batched(const Case& c, BatchWorkspace<N>& b, MatX<double>& Y) {
  if constexpr (K == Kind::Mm) mass_matrix_batch<Variant>(b, c.Q, Y);
  else if constexpr (K == Kind::Fd) forward_dynamics_batch<Variant>(b, c.Q, c.QD, c.TAU, Y);
  else inverse_dynamics_batch<Variant>(b, c.Q, c.QD, c.QDD, Y);
}

bool build_ok = true;

template <Kind K, class Variant, int N> void register_batched(const std::string& id) {
  const Case& c = case_of(id);
  // The guard: the batch against the single calls.
  {
    SingleBuffers sb(c.model);
    MatX<double> Ys(rows_of(K, c.model), kStates), Yb = Ys;
    singles<K, Variant>(c, sb, Ys);
    BatchWorkspace<N> b(c.model);
    batched<K, Variant, N>(c, b, Yb);
    if (!((Yb - Ys).cwiseAbs().maxCoeff() <= 1e-9 * (Ys.cwiseAbs().maxCoeff() + 1))) {
      std::fprintf(stderr, "rbdlab_bench_batch: %s %s lanes %d on %s differs from the single calls\n", name_of(K),
                   std::string(Variant::name).c_str(), N, id.c_str());
      build_ok = false;
      return;
    }
  }
  const std::string name = std::string("batch/") + name_of(K) + "/" + std::string(Variant::name) + "/" + slug(id) +
                           "/lanes:" + std::to_string(N);
  benchmark::RegisterBenchmark(name.c_str(), [id](benchmark::State& st) {
    const Case& c = case_of(id);
    BatchWorkspace<N> b(c.model);
    MatX<double> Y(rows_of(K, c.model), kStates);
    for (auto _ : st) {
      batched<K, Variant, N>(c, b, Y);
      benchmark::DoNotOptimize(Y.data());
      benchmark::ClobberMemory();
    }
    st.counters["states"] = kStates;
    st.counters["nv"] = c.model.nv;
  });
}

template <Kind K, class Variant> void register_variant(const std::string& id) {
  const std::string name = std::string("batch/") + name_of(K) + "/" + std::string(Variant::name) + "/" + slug(id) + "/lanes:1";
  benchmark::RegisterBenchmark(name.c_str(), [id](benchmark::State& st) {
    const Case& c = case_of(id);
    SingleBuffers sb(c.model);
    MatX<double> Y(rows_of(K, c.model), kStates);
    for (auto _ : st) {
      singles<K, Variant>(c, sb, Y);
      benchmark::DoNotOptimize(Y.data());
      benchmark::ClobberMemory();
    }
    st.counters["states"] = kStates;
    st.counters["nv"] = c.model.nv;
  });
  register_batched<K, Variant, 2>(id);
  register_batched<K, Variant, 4>(id);
  register_batched<K, Variant, 8>(id);
}

// MuJoCo's inverse dynamics, mass matrix and forward dynamics on the same states, one call each.
void register_mujoco(const std::string& id) {
  for (Kind k : {Kind::Id, Kind::Mm, Kind::Fd}) {
    const std::string name = std::string("batch/") + name_of(k) + "/mujoco/" + slug(id) + "/lanes:1";
    benchmark::RegisterBenchmark(name.c_str(), [id, k](benchmark::State& st) {
      const Case& c = case_of(id);
      MujocoPeer P(c.model);
      std::vector<MujocoState> s;
      for (int j = 0; j < kStates; ++j) s.push_back(P.convert(c.Q.col(j), c.QD.col(j), c.QDD.col(j)));
      // tau in MuJoCo's order: convert() carries it in the qacc slot (a plain reordering for these
      // fixed-base robots; a free joint's slot would transform it as an acceleration).
      std::vector<MujocoState> t;
      for (int j = 0; j < kStates; ++j) t.push_back(P.convert(c.Q.col(j), c.QD.col(j), c.TAU.col(j)));
      std::vector<mjtNum> out(static_cast<std::size_t>(c.model.nv));
      for (auto _ : st) {
        for (int j = 0; j < kStates; ++j) {
          P.use_state(s[j]);
          if (k == Kind::Id) P.inverse_dynamics(out.data());
          else if (k == Kind::Mm) P.mass_matrix();
          else P.forward_dynamics(t[j].qacc.data(), out.data());
        }
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
      }
      P.restore_state();
      st.counters["states"] = kStates;
      st.counters["nv"] = c.model.nv;
    });
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  try {
    for (const std::string id : {"urdf:ur5", "urdf:panda"}) {
      register_variant<Kind::Id, RneaSpatial>(id);
      register_variant<Kind::Id, RneaDh>(id);
      register_variant<Kind::Mm, Crba>(id);
      register_variant<Kind::Mm, CrbaDh>(id);
      register_variant<Kind::Fd, Aba>(id);
      register_variant<Kind::Fd, AbaDh>(id);
      register_mujoco(id);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rbdlab_bench_batch: cannot build the cases: %s\n", e.what());
    return 2;
  }
  if (!build_ok) return 1;
  benchmark::AddCustomContext("batch_flags", RBDLAB_BATCH_FLAGS_STRING);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
