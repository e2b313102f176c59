// rbdlab_bench_contact: MuJoCo's contact dynamics as a peer for rbdlab's contact solvers (issue 15,
// "Peers and performance"). Scenes, models and what each timed call includes:
// bench/mujoco_contact_peer.hpp. Names are contact/<scene>/<solver>:
//   contact_lemke, contact_dantzig, contact_aba_dantzig, contact_gauss_qp   frictionless contacts
//   friction_lemke, friction_aba_lemke                                   mu = 0.8, 4-facet pyramid
//   mujoco_step_condim1, mujoco_forward_condim1, mujoco_no_collision_condim1, and the same with
//   condim3 (pyramidal cone, mu = 0.8)
// Counters: nc (contacts), nv, friction (0 or 1). The context key rbdlab_contact_forces holds, as a
// JSON string, the contact-force figures of measure_mujoco() and of rbdlab per scene and condim.
// Repetitions are randomly interleaved unless --benchmark_enable_random_interleaving is given.
// Before timing every pair is checked (check_frictionless / check_frictional / measure_mujoco); a
// failed check is not timed, is listed in rbdlab_refused and on stderr, and the program exits 1.
//   rbdlab_bench_contact [Google Benchmark flags]
#include <benchmark/benchmark.h>

#include <cstdio>
#include <deque>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "bench/mujoco_contact_peer.hpp"
#include "bench/interleaved.hpp"
#include "rbdlab/api.hpp"

namespace {

using namespace rbd;
using namespace rbd::bench;

std::deque<ContactPeerScene>& scenes() {
  static std::deque<ContactPeerScene> all;
  return all;
}
std::string refused;
std::ostringstream forces;  // the JSON of rbdlab_contact_forces
bool first_record = true;

std::string jnum(double x) {
  if (!std::isfinite(x)) return "null";
  char b[40];
  std::snprintf(b, sizeof b, "%.17g", x);
  return b;
}
std::string jvec(const VecX<double>& v) {
  std::string s = "[";
  for (int i = 0; i < v.size(); ++i) s += (i ? ", " : "") + jnum(v[i]);
  return s + "]";
}

void refuse(const std::string& name, const std::string& why) {
  std::fprintf(stderr, "rbdlab_bench_contact: %s refused: %s\n", name.c_str(), why.c_str());
  refused += (refused.empty() ? "" : "; ") + name + ": " + why;
}

void counters(benchmark::State& st, const ContactPeerScene& s, bool friction) {
  st.counters["nc"] = static_cast<double>(s.frictionless.size());
  st.counters["nv"] = s.model.nv;
  st.counters["friction"] = friction ? 1 : 0;
}

template <class V, bool Friction> void register_rbdlab(const ContactPeerScene& s) {
  const std::string name = "contact/" + s.id + "/" + std::string(V::name);
  RbdlabRest r;
  if constexpr (Friction) r = check_frictional<V>(s);
  else r = check_frictionless<V>(s);
  forces << (first_record ? "" : ",\n") << "{\"scene\": \"" << s.id << "\", \"solver\": \"" << V::name
         << "\", \"sum_over_weight\": " << jnum(r.sum_over_weight) << ", \"max_qdd\": " << jnum(r.max_qdd)
         << ", \"max_tangential\": " << jnum(r.max_tangential) << ", \"fn\": " << jvec(r.fn) << "}";
  first_record = false;
  if (!r.ok) return refuse(name, r.why);
  const ContactPeerScene* sp = &s;
  benchmark::RegisterBenchmark(name.c_str(), [sp](benchmark::State& st) {
    const ContactPeerScene& s = *sp;
    using Ws = std::conditional_t<Friction, FrictionWorkspace<double>, ContactWorkspace<double>>;
    Ws ws(s.model);
    VecX<double> qdd(s.model.nv);
    const PointContacts<double>& c = Friction ? s.frictional : s.frictionless;
    // Warm-up: the first call sizes the workspace for the contacts' shape; later calls allocate nothing.
    rbdlab::run_inlined<double>([&] { V::template run<double>(s.model, c, s.q, s.qd, s.tau, nullptr, qdd, ws); });
    for (auto _ : st) {
      rbdlab::run_inlined<double>([&] { V::template run<double>(s.model, c, s.q, s.qd, s.tau, nullptr, qdd, ws); });
      benchmark::DoNotOptimize(qdd.data());
      benchmark::ClobberMemory();
    }
    counters(st, s, Friction);
  });
}

template <bool Friction, class... V> void register_all(const ContactPeerScene& s, std::tuple<V...>*) {
  (register_rbdlab<V, Friction>(s), ...);
}

void register_mujoco(const ContactPeerScene& s, int condim) {
  const std::string tail = "_condim" + std::to_string(condim);
  {
    MujocoContactModel mj(s, condim);
    const MujocoForces f = measure_mujoco(s, mj);
    forces << (first_record ? "" : ",\n") << "{\"scene\": \"" << s.id << "\", \"solver\": \"mujoco" << tail
           << "\", \"condim\": " << condim << ", \"ok\": " << (f.ok ? "true" : "false") << ", \"ncon\": " << f.ncon
           << ", \"weight\": " << jnum(s.weight) << ", \"determinate\": " << (s.determinate ? "true" : "false")
           << ", \"sum_over_weight\": " << jnum(f.sum_over_weight)
           << ", \"max_vs_prediction\": " << jnum(f.max_vs_prediction)
           << ", \"max_vs_rbdlab\": " << (s.determinate ? jnum(f.max_vs_rbdlab) : "null")
           << ", \"max_tangential_over_weight\": " << jnum(f.max_tangential_over_weight)
           << ", \"max_point_distance\": " << jnum(f.max_point_distance)
           << ", \"qacc_over_g\": " << jnum(f.qacc_norm_over_g)
           << ", \"qacc_pieces_vs_forward\": " << jnum(f.qacc_pieces_vs_forward)
           << ", \"fn\": " << jvec(f.fn) << ", \"fn_predicted\": " << jvec(f.fn_predicted)
           << ", \"fn_rbdlab\": " << (s.determinate ? jvec(s.lambda_static) : "null")
           << ", \"fn_rel_diff\": " << (s.determinate ? jvec(VecX<double>((f.fn.cwiseQuotient(s.lambda_static).array() - 1).matrix())) : "null")
           << ", \"R\": " << jvec(f.R)
           << ", \"solimp_dmin\": " << jnum(mj.m()->opt.o_solimp[0])
           << ", \"settled\": " << (f.settled ? "true" : "false")
           << ", \"settled_sum_over_weight\": " << (f.settled ? jnum(f.settled_sum_over_weight) : "null")
           << ", \"settled_penetration\": " << (f.settled ? jnum(f.settled_penetration) : "null")
           << ", \"settled_speed\": " << (f.settled ? jnum(f.settled_speed) : "null")
           << ", \"settle_steps\": " << kSettleSteps << ", \"timestep\": " << jnum(mj.m()->opt.timestep) << "}";
    first_record = false;
    if (!f.ok) return refuse("contact/" + s.id + "/mujoco" + tail, f.why);
  }
  const ContactPeerScene* sp = &s;
  const bool friction = condim == 3;
  for (int kind = 0; kind < 3; ++kind) {
    const char* what = kind == 0 ? "mujoco_step" : kind == 1 ? "mujoco_forward" : "mujoco_no_collision";
    const std::string name = "contact/" + s.id + "/" + what + tail;
    benchmark::RegisterBenchmark(name.c_str(), [sp, condim, kind, friction](benchmark::State& st) {
      MujocoContactModel mj(*sp, condim);  // reset(): the resting state, one mj_forward (warm-up)
      for (int k = 0; k < 50; ++k) kind == 0 ? mj.step() : kind == 1 ? mj.forward() : mj.forward_without_collision();
      for (auto _ : st) {
        if (kind == 0) mj.step();
        else if (kind == 1) mj.forward();
        else mj.forward_without_collision();
        benchmark::DoNotOptimize(mj.d()->qacc);
        benchmark::ClobberMemory();
      }
      counters(st, *sp, friction);
    });
  }
}

}  // namespace

int main(int argc, char** argv) {
#ifndef NDEBUG
  std::fprintf(stderr, "rbdlab_bench_contact: refusing to time a build with assertions (use CMAKE_BUILD_TYPE=Release)\n");
  return 2;
#endif
  if (!rbd::bench::initialize_interleaved(argc, argv)) return 2;
  forces << "[";
  try {
    for (const std::string& id : contact_scene_ids()) {
      scenes().push_back(contact_scene(id));
      const ContactPeerScene& s = scenes().back();
      register_all<false>(s, static_cast<ContactVariants*>(nullptr));
      register_all<true>(s, static_cast<FrictionVariants*>(nullptr));
      register_mujoco(s, 1);
      register_mujoco(s, 3);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rbdlab_bench_contact: cannot build the scenes: %s\n", e.what());
    return 2;
  }
  forces << "]";
  benchmark::AddCustomContext("rbdlab_contact_forces", forces.str());
  benchmark::AddCustomContext("rbdlab_refused", refused);
  benchmark::AddCustomContext("mujoco_version", std::to_string(mj_version()));
  benchmark::AddCustomContext(
      "rbdlab_timed_call",
      "rbdlab: V::run at the resting state, contacts given (no collision detection); mujoco_step: mj_step "
      "(collision, constraint solver, Euler) after copying the resting qpos and qvel back; mujoco_forward: "
      "mj_forward; mujoco_no_collision: mj_forward's stages without mj_collision, sensors and energy "
      "(bench/mujoco_contact_peer.hpp)");
  if (!refused.empty()) {
    std::fprintf(stderr, "rbdlab_bench_contact: the measured figures:\n%s\n", forces.str().c_str());
    return 1;
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
