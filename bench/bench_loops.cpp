// rbdlab_bench_loops: MuJoCo's forward dynamics with equality constraints as a peer for rbdlab's
// closed-loop variants (issue 14, "Peers and performance"), on the mechanisms of
// cases/closed_mjcf.hpp, each read from the same MJCF by rbdlab (tree + loop joints) and by MuJoCo
// (tree + <connect>/<weld>): the four-bar, the five-bar, the Stewart-Gough platform and the
// humanoid standing with both feet welded.
//
// State: the drawn pose (qpos0, rbdlab's q = 0), qd a fixed velocity on the loops (K qd = 0,
// Eq. 8.9) and tau on every joint that is not free, as verify/test_mjcf_loader.cpp's peer test.
// Timed calls:
//   loops/<mechanism>/<variant>        V::run(model, loops, q, qd, tau): the whole closed-loop
//                                      forward dynamics (tree terms, K and k, the solve)
//   loops/<mechanism>/mujoco_forward   mj_forward with collisions off (mjDSBL_CONTACT): kinematics,
//                                      CRB, factorisation, the equality rows and MuJoCo's
//                                      constraint solver (its default Newton solver, tolerance and
//                                      iterations), solimp 0.9999 (the stiffest MuJoCo allows)
// Before timing, each variant's qdd is held to loop_kkt's (1e-9 relative: every variant is exact,
// the worst double error the gates measure on these cases is 9e4 eps = 2e-11) and MuJoCo's at rest
// to rbdlab's (1e-3 relative: its softness, verify/test_mjcf_loader.cpp says why); a failed check
// is not timed, is listed in rbdlab_refused and on stderr, and the program exits 1. The figures
// are in the context key rbdlab_loop_agreement (JSON). Counters: nv, nc (loop constraint rows),
// rank (of K), loops. Repetitions are randomly interleaved unless the flag is given.
//   rbdlab_bench_loops [Google Benchmark flags]
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "cases/closed_mjcf.hpp"
#include "cases/loops.hpp"
#include "closed_loop_dynamics/variants.hpp"
#include "model/configuration.hpp"
#include "bench/interleaved.hpp"
#include "rbdlab/api.hpp"

#ifndef RBDLAB_SOURCE_DIR
#error "RBDLAB_SOURCE_DIR (the repository's root, for examples/mjcf/) must be defined by the build"
#endif

namespace {

using namespace rbd;

constexpr double kImpedance = 0.9999;  // MuJoCo's solimp ceiling (mjMAXIMP)

struct Mechanism {
  std::string id;
  cases::MjcfModel mj;
  std::string xml;
  VecX<double> q, qd, tau;
  std::vector<int> jointed;  // velocity indices of the joints that are not free
  int nc = 0, rank = 0;
};

std::deque<Mechanism>& mechanisms() {
  static std::deque<Mechanism> all;
  return all;
}
std::string refused;
std::ostringstream agreement;
bool first_record = true;

std::string jnum(double x) {
  if (!std::isfinite(x)) return "null";
  char b[40];
  std::snprintf(b, sizeof b, "%.17g", x);
  return b;
}

void refuse(const std::string& name, const std::string& why) {
  std::fprintf(stderr, "rbdlab_bench_loops: %s refused: %s\n", name.c_str(), why.c_str());
  refused += (refused.empty() ? "" : "; ") + name + ": " + why;
}

double rel(const VecX<double>& a, const VecX<double>& b) { return (a - b).norm() / std::max(1e-300, b.norm()); }

// MuJoCo's model of a mechanism, as timed: contacts off, solimp at its ceiling.
struct MujocoLoops {
  std::unique_ptr<mjModel, void (*)(mjModel*)> m{nullptr, mj_deleteModel};
  std::unique_ptr<mjData, void (*)(mjData*)> d{nullptr, mj_deleteData};
  explicit MujocoLoops(const Mechanism& k, const VecX<double>& qd) {
    const std::string path = "/tmp/rbdlab_bench_loops_" + std::to_string(::getpid()) + ".xml";
    { std::ofstream(path) << k.xml; }
    char error[1000] = "";
    m.reset(mj_loadXML(path.c_str(), nullptr, error, sizeof error));
    std::remove(path.c_str());
    if (!m) throw std::runtime_error(k.id + ": MuJoCo refused the model: " + error);
    d.reset(mj_makeData(m.get()));
    m->opt.disableflags |= mjDSBL_CONTACT;
    for (int e = 0; e < m->neq; ++e)
      for (int c = 0; c < 2; ++c) m->eq_solimp[5 * e + c] = kImpedance;
    for (int i = 0; i < k.mj.model.nv; ++i) {
      d->qvel[i] = qd[i];
      d->qfrc_applied[i] = k.tau[i];
    }
  }
};

Mechanism make(const std::string& id, cases::MjcfModel mj, std::string xml) {
  Mechanism k{id, std::move(mj), std::move(xml), {}, {}, {}, {}, 0, 0};
  const Model<double>& m = k.mj.model;
  for (int i = 0; i < m.nb; ++i)
    if (m.joint[i].type != JointType::Free)
      for (int c = 0; c < m.joint[i].nv(); ++c) k.jointed.push_back(m.v_idx[i] + c);
  k.tau = VecX<double>::Zero(m.nv);
  VecX<double> r = VecX<double>::Zero(m.nv);
  for (int i : k.jointed) {
    k.tau[i] = 0.3 * std::sin(1.7 * i + 0.4);
    r[i] = std::cos(2.1 * i + 0.3);
  }
  k.q = neutral_configuration(m);
  k.qd = cases::consistent_velocity<double>(m, k.mj.loops, k.q, r);
  return k;
}

VecX<double> jointed_part(const Mechanism& k, const VecX<double>& v) {
  VecX<double> out(static_cast<Eigen::Index>(k.jointed.size()));
  for (std::size_t c = 0; c < k.jointed.size(); ++c) out[static_cast<Eigen::Index>(c)] = v[k.jointed[c]];
  return out;
}

template <class V> VecX<double> qdd_of(const Mechanism& k, ClosedLoopWorkspace<double>& ws) {
  VecX<double> qdd(k.mj.model.nv);
  V::template run<double>(k.mj.model, k.mj.loops, k.q, k.qd, k.tau, nullptr, qdd, ws);
  return qdd;
}

template <class V> void register_variant(Mechanism& k, const VecX<double>& reference) {
  const std::string name = "loops/" + k.id + "/" + std::string(V::name);
  ClosedLoopWorkspace<double> ws(k.mj.model);
  const VecX<double> qdd = qdd_of<V>(k, ws);
  const double diff = rel(qdd, reference);
  agreement << (first_record ? "" : ",\n") << "{\"mechanism\": \"" << k.id << "\", \"method\": \"" << V::name
            << "\", \"rel_diff_vs_loop_kkt\": " << jnum(diff) << "}";
  first_record = false;
  if (!(diff <= 1e-9)) return refuse(name, "qdd differs from loop_kkt's by " + jnum(diff) + " (relative)");
  const Mechanism* kp = &k;
  benchmark::RegisterBenchmark(name.c_str(), [kp](benchmark::State& st) {
    const Mechanism& k = *kp;
    ClosedLoopWorkspace<double> ws(k.mj.model);
    VecX<double> qdd(k.mj.model.nv);
    // Warm-up: the first call sizes the workspace for the loops' shape; later calls allocate nothing.
    rbdlab::run_inlined<double>([&] { V::template run<double>(k.mj.model, k.mj.loops, k.q, k.qd, k.tau, nullptr, qdd, ws); });
    for (auto _ : st) {
      rbdlab::run_inlined<double>([&] { V::template run<double>(k.mj.model, k.mj.loops, k.q, k.qd, k.tau, nullptr, qdd, ws); });
      benchmark::DoNotOptimize(qdd.data());
      benchmark::ClobberMemory();
    }
    st.counters["nv"] = k.mj.model.nv;
    st.counters["nc"] = k.nc;
    st.counters["rank"] = k.rank;
    st.counters["loops"] = static_cast<double>(k.mj.loops.size());
  });
}

template <class... V> void register_all(Mechanism& k, std::tuple<V...>*) {
  ClosedLoopWorkspace<double> ws(k.mj.model);
  const VecX<double> reference = qdd_of<LoopKkt>(k, ws);
  k.nc = ws.nc;
  k.rank = ws.rank;
  (register_variant<V>(k, reference), ...);
}

void register_mujoco(Mechanism& k) {
  const std::string name = "loops/" + k.id + "/mujoco_forward";
  {  // agreement at rest (qd = 0): MuJoCo's softness only (verify/test_mjcf_loader.cpp)
    MujocoLoops mj(k, VecX<double>::Zero(k.mj.model.nv));
    mj_forward(mj.m.get(), mj.d.get());
    ClosedLoopWorkspace<double> ws(k.mj.model);
    VecX<double> qdd(k.mj.model.nv), mq(k.mj.model.nv);
    LoopKkt::run<double>(k.mj.model, k.mj.loops, k.q, VecX<double>::Zero(k.mj.model.nv), k.tau, nullptr, qdd, ws);
    for (int i = 0; i < k.mj.model.nv; ++i) mq[i] = mj.d->qacc[i];
    const double diff = rel(jointed_part(k, mq), jointed_part(k, qdd));
    agreement << (first_record ? "" : ",\n") << "{\"mechanism\": \"" << k.id
              << "\", \"method\": \"mujoco_forward\", \"rel_diff_at_rest\": " << jnum(diff)
              << ", \"solimp\": " << jnum(kImpedance) << ", \"nefc\": " << mj.d->nefc << "}";
    first_record = false;
    if (!(diff <= 1e-3)) return refuse(name, "MuJoCo's qacc at rest differs from rbdlab's by " + jnum(diff));
  }
  const Mechanism* kp = &k;
  benchmark::RegisterBenchmark(name.c_str(), [kp](benchmark::State& st) {
    const Mechanism& k = *kp;
    MujocoLoops mj(k, k.qd);
    for (int w = 0; w < 20; ++w) mj_forward(mj.m.get(), mj.d.get());
    for (auto _ : st) {
      mj_forward(mj.m.get(), mj.d.get());  // reads qpos, qvel, qfrc_applied: unchanged between calls
      benchmark::DoNotOptimize(mj.d->qacc);
      benchmark::ClobberMemory();
    }
    st.counters["nv"] = k.mj.model.nv;
    st.counters["nc"] = k.nc;
    st.counters["rank"] = k.rank;
    st.counters["loops"] = static_cast<double>(k.mj.loops.size());
  });
}

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace

int main(int argc, char** argv) {
#ifndef NDEBUG
  std::fprintf(stderr, "rbdlab_bench_loops: refusing to time a build with assertions (use CMAKE_BUILD_TYPE=Release)\n");
  return 2;
#endif
  if (!rbd::bench::initialize_interleaved(argc, argv)) return 2;
  agreement << "[";
  try {
    const std::string dir = std::string(RBDLAB_SOURCE_DIR) + "/examples/mjcf/";
    for (const std::string name : {"four_bar", "five_bar", "stewart_platform"}) {
      const std::string xml = slurp(dir + name + ".xml");
      mechanisms().push_back(make("mjcf:" + name, cases::load_mjcf(dir + name + ".xml"), xml));
    }
    const std::string humanoid = cases::humanoid_standing_mjcf();
    mechanisms().push_back(make("mjcf:humanoid_standing", cases::load_mjcf_text(humanoid, "humanoid_standing"), humanoid));
    for (Mechanism& k : mechanisms()) {
      register_all(k, static_cast<ClosedLoopVariants*>(nullptr));
      register_mujoco(k);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rbdlab_bench_loops: cannot build the mechanisms: %s\n", e.what());
    return 2;
  }
  agreement << "]";
  benchmark::AddCustomContext("rbdlab_loop_agreement", agreement.str());
  benchmark::AddCustomContext("rbdlab_refused", refused);
  benchmark::AddCustomContext("mujoco_version", std::to_string(mj_version()));
  benchmark::AddCustomContext(
      "rbdlab_timed_call",
      "rbdlab: V::run(model, loops, q, qd, tau) at the drawn pose with qd on the loops; mujoco_forward: "
      "mj_forward with contacts disabled and solimp 0.9999 on every equality, default solver settings");
  if (!refused.empty()) {
    std::fprintf(stderr, "rbdlab_bench_loops: the measured figures:\n%s\n", agreement.str().c_str());
    return 1;
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
