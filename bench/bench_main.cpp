// rbdlab_bench: Google Benchmark timings of every variant of every family (the same variant
// lists the tests use, verify/support/families.hpp), with MuJoCo timed in the same run on
// the same models as a peer. See bench/README.md for what is timed, the names, the counters,
// the checks made before timing and the output.
//
//   rbdlab_bench [--quick] [Google Benchmark flags]
//     --quick (or RBDLAB_BENCH_QUICK=1): sizes n = 7 and 30 only, one repetition (smoke run)
//     --model=MODEL [--floating]: only that model (a URDF file or a case id), at n = nv
//       (what `rbdlab bench MODEL` runs)
//     e.g. --benchmark_out=bench.json --benchmark_out_format=json
// Exit status: 0 when everything passed its checks and was timed; 1 when some benchmark
// was refused (failed a check; listed on stderr and in the context key rbdlab_refused), so a
// Makefile keeps the last good bench.json; 2 for a non-Release build or bad usage.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <boost/version.hpp>

#include "bench/checks.hpp"
#include "bench/family_calls.hpp"
#include "bench/mujoco_peer.hpp"
#include "cases/auto_tree.hpp"
#include "cases/model_loop_states.hpp"
#include "cases/model_source.hpp"
#include "cases/urdf_robots.hpp"
#include "cases/gu.hpp"
#include "cases/humanoid.hpp"
#include "cases/states.hpp"
#include "core/counting_scalar.hpp"

#ifndef RBDLAB_BUILD_TYPE
#define RBDLAB_BUILD_TYPE "unknown"
#endif
#ifndef RBDLAB_CXX_FLAGS
#define RBDLAB_CXX_FLAGS "unknown"
#endif
#ifndef RBDLAB_COMPILER
#define RBDLAB_COMPILER "unknown"
#endif
#ifndef RBDLAB_SOURCE_DIR
#define RBDLAB_SOURCE_DIR "."
#endif
#ifndef RBDLAB_BENCHMARK_VERSION
#define RBDLAB_BENCHMARK_VERSION "unknown"
#endif

namespace rbd::bench {
namespace {

// ---------------------------------------------------------------------------------------
// Configuration

constexpr int kPool = 16;  // states per model, rotated per iteration (a power of 2)
static_assert((kPool & (kPool - 1)) == 0);

struct Config {
  bool quick = false;
  std::vector<int> sizes;
  int repetitions = 5;
  double min_time = 0.05;  // seconds per repetition
};

Config make_config(bool quick) {
  Config c;
  c.quick = quick;
  if (quick) {
    c.sizes = {7, 30};
    c.repetitions = 1;
    c.min_time = 0.05;
  } else {
    // 0.025 s per repetition: >= 1e4 iterations for the O(n) calls at the sizes quoted, and
    // the whole run (~770 benchmarks x 5 repetitions, plus Google Benchmark's iteration-count
    // estimation) near 3.5 min of CPU, so under 10 min of wall time even at half a core.
    // Powers of two for the fitted exponents, plus 7, 15, 30, 63 for the summary tables.
    c.sizes = {1, 2, 4, 7, 8, 15, 16, 30, 32, 63, 64, 128, 256};
    c.repetitions = 5;
    c.min_time = 0.025;
  }
  return c;
}

// The benchmark cases: id -> model of size n.
// A case with `fixed_n` set is one model (a robot) benchmarked at that size only (its nv);
// the others are families built at every size of the configuration.
struct BenchCase {
  std::string id;
  std::string description;
  std::function<Model<double>(int)> build;
  int fixed_n = 0;
};

// A fixed model as a benchmark case; its size n is its nv.
BenchCase fixed_case(const std::string& id, const std::string& description, Model<double> model) {
  const int n = model.nv;
  return {id, description, [m = std::move(model)](int) { return m; }, n};
}

// The default cases (the shared robots are read from their URDF files: may throw UrdfError).
std::vector<BenchCase> default_bench_cases() {
    std::vector<BenchCase> c = {
        {"gu", "GU(n), Featherstone section 10.3 (cases::gu(n), seed 1)", [](int n) { return cases::gu(n); }, 0},
        {"tree_bf1", "chain, auto_tree(n, bf = 1)", [](int n) { return cases::auto_tree(n, 1); }, 0},
        {"tree_bf2", "binary tree, auto_tree(n, bf = 2)", [](int n) { return cases::auto_tree(n, 2); }, 0},
        {"tree_bf1.5", "auto_tree(n, bf = 1.5)", [](int n) { return cases::auto_tree(n, 1.5); }, 0},
    };
    // The shared robots (../shared/cases/urdf, dynamics-only copies), at n = nv.
    for (const cases::UrdfRobot& r : cases::urdf_robots())
      c.push_back(fixed_case(r.name, "../shared/cases/urdf/dynamics_only/" + r.name + ".urdf" +
                                         (r.floating ? " with a free joint at the root" : ""),
                             cases::urdf_robot(r.name).model));
    // Issue 5's floating-base bar: the 37-DoF humanoid-like floating tree, at n = nv.
    c.push_back(fixed_case("humanoid", "cases::humanoid(), 37-DoF humanoid-like floating tree (free pelvis, "
                                       "3-DoF waist, 2-DoF neck, 7-DoF arms, 6-DoF legs)",
                           cases::humanoid()));
    return c;
}

// What this run benchmarks: default_bench_cases(), or (--model=MODEL, `rbdlab bench MODEL`)
// the user's model alone; set once in main.
std::vector<BenchCase>& bench_cases() {
  static std::vector<BenchCase> cases;
  return cases;
}

std::vector<int> sizes_of(const BenchCase& bc, const std::vector<int>& sizes) {
  return bc.fixed_n > 0 ? std::vector<int>{bc.fixed_n} : sizes;
}

// Bench case ids are one path segment of the benchmark name: keep [A-Za-z0-9_.-].
std::string case_id_from(const std::string& name) {
  std::string id;
  for (char c : name) id += (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-') ? c : '_';
  return id.empty() ? "model" : id;
}

// ---------------------------------------------------------------------------------------
// One model at one size, with everything the timed calls read, prepared before timing.

struct Instance {
  std::string case_id;
  int n = 0;
  Model<double> model;
  std::vector<cases::State> pool;                 // kPool states, seeds 1..kPool
  std::unique_ptr<MujocoPeer> peer;               // null when MuJoCo cannot represent the model
  std::string peer_note;                          // why there is no peer
  std::vector<MujocoState> mj_pool;               // the pool in MuJoCo's variables
  std::vector<std::vector<mjtNum>> mj_tau_pool;   // the pool's tau in MuJoCo's order and coordinates
  std::vector<std::vector<mjtNum>> mj_H_pool;     // the pool's H in MuJoCo's sparse qM form
  std::map<std::string, VariantCheck> checks;     // "family/variant" -> pre-timing check
  std::map<std::string, OpCounts> ops;            // "family/variant" -> counted ops per call
  std::map<std::string, double> peer_digits;      // "family" -> MuJoCo vs rbdlab digits (double)
};

using InstanceKey = std::pair<std::string, int>;
std::map<InstanceKey, std::unique_ptr<Instance>>& instances() {
  static std::map<InstanceKey, std::unique_ptr<Instance>> all;
  return all;
}
Instance& instance(const std::string& case_id, int n) { return *instances().at({case_id, n}); }

std::vector<std::string>& refused() {
  static std::vector<std::string> r;
  return r;
}
std::vector<std::string>& notes() {
  static std::vector<std::string> r;
  return r;
}

// Operation counts of one timed call, from the counting scalar, on the pool's first state.
template <class Family> void count_family(Instance& I) {
  using C = Call<Family>;
  const Model<Counted> m = I.model.template cast<Counted>();
  const verify::StateOf<Counted> x = verify::cast_state<Counted>(m, I.pool[0]);
  typename C::template Ws<Counted> ws(m);
  const typename C::template Arg<Counted> arg = C::template prepare<Counted>(m, x);
  verify::for_each_type<typename Family::Variants>([&]<class V>() {
    if (!V::template applicable<Counted>(m)) return;
    typename C::template Out<Counted> out = C::template make_output<Counted>(m);
    const OpCounts c = count_ops([&] { C::template run<V, Counted>(m, arg, out, ws); });
    I.ops[std::string(Family::name) + "/" + std::string(V::name)] = c;
  });
}

// MuJoCo vs rbdlab in double, before MuJoCo is timed: tau against rnea_spatial (no external
// forces) and H against crba, normwise difference relative to max(norm, 1) (as the exactness
// checks, bench_checks.cpp), worst over the state pool, held to peer_tolerance(nv)
// (bench/mujoco_peer.hpp, measured by verify/test_mjcf_peer.cpp).
void cross_check_peer(Instance& I) {
  MujocoPeer& P = *I.peer;
  Workspace<double> ws(I.model);
  double worst_tau = 0, worst_H = 0;
  for (const cases::State& x : I.pool) {
    VecX<double> tau(I.model.nv);
    RneaSpatial::run<double>(I.model, x.q, x.qd, x.qdd, nullptr, tau, ws);
    const VecX<double> tau_mj = P.tau(x.q, x.qd, x.qdd);
    worst_tau = std::max(worst_tau, (tau_mj - tau).norm() / std::max(tau.norm(), 1.0));
    MatX<double> H = MatX<double>::Zero(I.model.nv, I.model.nv);
    Crba::run<double>(I.model, x.q, H, ws);
    const MatX<double> H_mj = P.H(x.q);
    worst_H = std::max(worst_H, (H_mj - H).norm() / std::max(H.norm(), 1.0));
  }
  // Forward dynamics and factorization, each against its first-order bound
  // (bench/mujoco_peer.hpp derives them; verify/test_mjcf_peer.cpp measures them).
  double worst_fd = 0, worst_fd_ratio = 0, worst_x = 0, worst_x_ratio = 0;
  for (const cases::State& x : I.pool) {
    const PeerDifference fd = forward_dynamics_difference(P, I.model, x, ws);
    worst_fd = std::max(worst_fd, fd.rel);
    worst_fd_ratio = std::max(worst_fd_ratio, fd.rel / fd.bound);
    const PeerDifference sol = solve_difference(P, I.model, x, ws);
    worst_x = std::max(worst_x, sol.rel);
    worst_x_ratio = std::max(worst_x_ratio, sol.rel / sol.bound);
  }
  auto digits = [](double rel) { return rel > 0 ? -std::log10(rel) : 17.0; };
  I.peer_digits["factorization"] = digits(worst_x);
  I.peer_digits["inverse_dynamics"] = digits(worst_tau);
  I.peer_digits["mass_matrix"] = digits(worst_H);
  I.peer_digits["forward_dynamics"] = digits(worst_fd);
  const double tol = peer_tolerance(I.model.nv);
  auto refuse = [&](const char* family, const char* what, double rel, const std::string& allowed) {
    std::ostringstream os;
    os << family << "/mujoco/" << I.case_id << "/n:" << I.n << ": MuJoCo's " << what << " by " << rel
       << " (normwise relative; allowed " << allowed << ")";
    refused().push_back(os.str());
  };
  std::ostringstream tol_text;
  tol_text << tol;
  if (!(worst_tau <= tol)) refuse("inverse_dynamics", "tau differs from rnea_spatial", worst_tau, tol_text.str());
  if (!(worst_H <= tol)) refuse("mass_matrix", "H differs from crba", worst_H, tol_text.str());
  const std::string first_order = "the first-order bound of bench/mujoco_peer.hpp; reached ";
  if (!(worst_x_ratio <= 1))
    refuse("factorization", "x = H^-1 tau differs from Eigen's LDL^T on rbdlab's H", worst_x,
           first_order + std::to_string(worst_x_ratio) + " of it");
  if (!(worst_fd_ratio <= 1))
    refuse("forward_dynamics", "qacc differs from the qdd behind rnea_spatial's tau", worst_fd,
           first_order + std::to_string(worst_fd_ratio) + " of it");
}

void prepare_instance(const BenchCase& bc, int n) {
  auto I = std::make_unique<Instance>();
  I->case_id = bc.id;
  I->n = n;
  I->model = bc.build(n);
  for (int s = 1; s <= kPool; ++s)
    I->pool.push_back(model_has_own_loops()
                          ? cases::closed_random_state(I->model, model_loops(), static_cast<std::uint64_t>(s))
                          : cases::random_state(I->model, static_cast<std::uint64_t>(s)));
  // Exactness first, on the pool's first state, with the timed call.
  for (const VariantCheck& c : check_variants(I->model, I->pool[0])) {
    I->checks[c.family + "/" + c.variant] = c;
    if (!c.passed) {
      std::ostringstream os;
      os << c.family << "/" << c.variant << "/" << bc.id << "/n:" << n << ": " << c.digits << " digits vs "
         << c.against << " (need " << kExactDigitsRequired << "), double run " << c.double_err_eps
         << " eps from the truth (allowed " << kDoubleSanityEps << ")";
      refused().push_back(os.str());
    }
  }
  verify::for_each_type<verify::AllFamilies>([&]<class Family>() {
    if constexpr (Call<Family>::available) count_family<Family>(*I);
  });
  try {
    I->peer = std::make_unique<MujocoPeer>(I->model);
    for (const cases::State& x : I->pool) {
      I->mj_pool.push_back(I->peer->convert(x.q, x.qd, x.qdd));
      I->mj_tau_pool.push_back(I->peer->convert_tau(x.q, x.tau));
      I->mj_H_pool.push_back(I->peer->sparse_H(x.q));
    }
    cross_check_peer(*I);
  } catch (const std::invalid_argument& e) {  // MuJoCo cannot represent this model
    I->peer.reset();
    I->peer_note = e.what();
    notes().push_back("mujoco skipped on " + bc.id + "/n:" + std::to_string(n) + ": " + e.what());
  } catch (const std::exception& e) {  // MuJoCo should have loaded it: a failure
    I->peer.reset();
    I->peer_note = e.what();
    for (const char* fam : {"inverse_dynamics", "mass_matrix", "forward_dynamics", "factorization"})
      refused().push_back(std::string(fam) + "/mujoco/" + bc.id + "/n:" + std::to_string(n) + ": " + e.what());
  }
  instances()[{bc.id, n}] = std::move(I);
}

// ---------------------------------------------------------------------------------------
// Timing

// Before the timed loop: one pass over the pool, and at least 200 microseconds, so caches,
// branch predictors and the CPU clock are warm (the loop itself then rotates the pool).
template <class F> void warm_up(F&& call_state) {
  const auto t0 = std::chrono::steady_clock::now();
  int k = 0;
  do {
    for (int s = 0; s < kPool; ++s) call_state(s);
    ++k;
  } while (std::chrono::steady_clock::now() - t0 < std::chrono::microseconds(200) && k < 1000);
}

void set_common_counters(benchmark::State& st, const Instance& I) {
  st.counters["nv"] = I.model.nv;
  st.counters["depth"] = I.model.depth();
  st.SetComplexityN(I.n);
}

template <class Family, class V> void time_rbdlab(benchmark::State& st, const std::string& case_id) {
  using C = Call<Family>;
  Instance& I = instance(case_id, static_cast<int>(st.range(0)));
  const Model<double>& m = I.model;
  // Untimed: scratch, output and the pool's arguments (e.g. H for the factorizations).
  typename C::template Ws<double> ws(m);
  typename C::template Out<double> out = C::template make_output<double>(m);
  std::vector<typename C::template Arg<double>> args;
  args.reserve(kPool);
  for (const cases::State& x : I.pool) args.push_back(C::template prepare<double>(m, verify::cast_state<double>(m, x)));
  auto call = [&](int s) {
    C::template run<V, double>(m, args[s], out, ws);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  };
  warm_up(call);
  int s = 0;
  for (auto _ : st) {
    call(s);
    s = (s + 1) & (kPool - 1);
  }
  const std::string key = std::string(Family::name) + "/" + std::string(V::name);
  set_common_counters(st, I);
  const OpCounts& ops = I.ops.at(key);
  st.counters["ops_m"] = static_cast<double>(ops.m());
  st.counters["ops_a"] = static_cast<double>(ops.a());
  st.counters["check_digits"] = I.checks.at(key).digits;
  st.counters["double_err_eps"] = I.checks.at(key).double_err_eps;
}

template <class Family> void time_mujoco(benchmark::State& st, const std::string& case_id) {
  Instance& I = instance(case_id, static_cast<int>(st.range(0)));
  MujocoPeer& P = *I.peer;
  std::vector<mjtNum> tau(static_cast<std::size_t>(I.model.nv)), qacc(tau.size());
  auto call = [&](int s) {
    P.use_state(I.mj_pool[s]);
    if constexpr (std::is_same_v<Family, verify::InverseDynamicsFamily>) {
      P.inverse_dynamics(tau.data());
      benchmark::DoNotOptimize(tau.data());
    } else if constexpr (std::is_same_v<Family, verify::ForwardDynamicsFamily>) {
      P.forward_dynamics(I.mj_tau_pool[s].data(), qacc.data());
      benchmark::DoNotOptimize(qacc.data());
    } else if constexpr (std::is_same_v<Family, verify::FactorizationFamily>) {
      P.use_sparse_H(I.mj_H_pool[s]);
      P.factor_and_solve(I.mj_tau_pool[s].data(), qacc.data());
      benchmark::DoNotOptimize(qacc.data());
    } else {
      P.mass_matrix();
      benchmark::DoNotOptimize(P.d()->qM);
    }
    benchmark::ClobberMemory();
  };
  warm_up(call);
  int s = 0;
  for (auto _ : st) {
    call(s);
    s = (s + 1) & (kPool - 1);
  }
  P.restore_state();
  set_common_counters(st, I);
  st.counters["check_digits"] = I.peer_digits.at(std::string(Family::name));
}

bool refused_key(const std::string& name) {
  for (const std::string& r : refused())
    if (r.compare(0, name.size() + 1, name + ":") == 0) return true;
  return false;
}

// Per-benchmark settings. Repetitions, minimum time and aggregate reporting are set through
// Google Benchmark's flags (defaults injected in main), not per benchmark: per-benchmark
// values would be appended to the names ("/min_time:0.100/repeats:5"), which must stay
// family/variant/case/n:N.
void apply_settings(benchmark::internal::Benchmark* b, const std::vector<int>& ns) {
  b->ArgName("n");
  for (int n : ns) b->Arg(n);
  b->Unit(benchmark::kNanosecond);
  if (ns.size() >= 2) b->Complexity(benchmark::oAuto);
}

template <class Family> void register_family(const Config& cfg) {
  const std::string fam(Family::name);
  for (const BenchCase& bc : bench_cases()) {
    verify::for_each_type<typename Family::Variants>([&]<class V>() {
      const std::string base = fam + "/" + std::string(V::name) + "/" + bc.id;
      std::vector<int> ns;
      for (int n : sizes_of(bc, cfg.sizes)) {
        const Instance& I = instance(bc.id, n);
        if (!V::template applicable<double>(I.model)) continue;
        if (refused_key(base + "/n:" + std::to_string(n))) continue;
        ns.push_back(n);
      }
      if (ns.empty()) return;
      auto* b = benchmark::RegisterBenchmark(base.c_str(), [id = bc.id](benchmark::State& st) {
        time_rbdlab<Family, V>(st, id);
      });
      apply_settings(b, ns);
    });
    if constexpr (Call<Family>::has_mujoco_peer) {
      const std::string base = fam + "/mujoco/" + bc.id;
      std::vector<int> ns;
      for (int n : sizes_of(bc, cfg.sizes)) {
        const Instance& I = instance(bc.id, n);
        if (!I.peer || refused_key(base + "/n:" + std::to_string(n))) continue;
        ns.push_back(n);
      }
      if (ns.empty()) continue;
      auto* b = benchmark::RegisterBenchmark(base.c_str(), [id = bc.id](benchmark::State& st) {
        time_mujoco<Family>(st, id);
      });
      apply_settings(b, ns);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Context

std::string run_command(const std::string& cmd) {
  std::string out;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[256];
    while (fgets(buf, sizeof buf, p)) out += buf;
    pclose(p);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

std::string cpu_model() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  return "unknown";
}

void add_context(const Config& cfg, const std::string& command_line) {
  const std::string src = RBDLAB_SOURCE_DIR;
  // Read-only git queries; --no-optional-locks so that `status` never takes the index lock.
  const std::string sha = run_command("git -C '" + src + "' rev-parse HEAD 2>/dev/null");
  const std::string dirty =
      run_command("git --no-optional-locks -C '" + src + "' status --porcelain --untracked-files=no 2>/dev/null");
  benchmark::AddCustomContext("rbdlab_git_sha", sha.empty() ? "unknown" : sha);
  benchmark::AddCustomContext("rbdlab_git_dirty", sha.empty() ? "unknown" : (dirty.empty() ? "false" : "true"));
  benchmark::AddCustomContext("rbdlab_build_type", RBDLAB_BUILD_TYPE);
  benchmark::AddCustomContext("rbdlab_compiler", RBDLAB_COMPILER);
  // Every flag the timed code was compiled with (bench/CMakeLists.txt: the build type's, C++20,
  // rbdlab_core's, RBDLAB_BENCH_TIMING_FLAGS), for the report; MuJoCo's calls are compiled with them too.
  benchmark::AddCustomContext("rbdlab_cxx_flags", RBDLAB_CXX_FLAGS);
  benchmark::AddCustomContext("rbdlab_peer_build",
                              std::string("MuJoCo ") + mj_versionString() +
                                  ": the system's prebuilt libmujoco (built with its own flags); the calls into it "
                                  "and their timing loops are compiled in bench_main.cpp with rbdlab_cxx_flags, as "
                                  "the variants are");
  benchmark::AddCustomContext("rbdlab_cpu_model", cpu_model());
  benchmark::AddCustomContext("eigen_version", std::to_string(EIGEN_WORLD_VERSION) + "." +
                                                   std::to_string(EIGEN_MAJOR_VERSION) + "." +
                                                   std::to_string(EIGEN_MINOR_VERSION));
  benchmark::AddCustomContext("boost_version", std::to_string(BOOST_VERSION / 100000) + "." +
                                                   std::to_string(BOOST_VERSION / 100 % 1000) + "." +
                                                   std::to_string(BOOST_VERSION % 100));
  benchmark::AddCustomContext("mujoco_version", mj_versionString());
  benchmark::AddCustomContext("google_benchmark_version", RBDLAB_BENCHMARK_VERSION);
  benchmark::AddCustomContext("rbdlab_mode", cfg.quick ? "quick" : "full");
  std::string sizes;
  for (int n : cfg.sizes) sizes += (sizes.empty() ? "" : ",") + std::to_string(n);
  benchmark::AddCustomContext("rbdlab_sizes", sizes);
  // The effective command line, with the defaults injected for repetitions, minimum time,
  // aggregates and random interleaving (a flag given by the user wins).
  benchmark::AddCustomContext("rbdlab_command_line", command_line);
  benchmark::AddCustomContext("rbdlab_state_pool", std::to_string(kPool) + " random states per model (seeds 1.." +
                                                       std::to_string(kPool) + "), rotated per iteration");
  std::string cases;
  for (const BenchCase& bc : bench_cases()) cases += (cases.empty() ? "" : "; ") + bc.id + " = " + bc.description;
  benchmark::AddCustomContext("rbdlab_cases", cases);
  benchmark::AddCustomContext(
      "rbdlab_timed_call",
      "rbdlab: one call of the variant's run() in double, preallocated Workspace and output, no external "
      "forces (inverse_dynamics: tau from q, qd, qdd; mass_matrix: dense H from q; bias: C from q, qd). "
      "mujoco inverse_dynamics: mj_kinematics + mj_comPos + mj_comVel + mj_rne(flg_acc=1). mujoco "
      "mass_matrix: mj_kinematics + mj_comPos + mj_crb (sparse d->qM; mj_fullM not timed). mujoco "
      "forward_dynamics: mj_kinematics + mj_comPos + mj_comVel + mj_crb + mj_factorM + mj_rne(flg_acc=0) + "
      "(tau - C) + mj_solveM. mujoco factorization: mj_factorM + mj_solveM on a precomputed qM. MuJoCo "
      "models come from cases/mjcf_export.hpp (same parameters).");
  // What each peer timing includes, per family (the report's family pages quote these).
  benchmark::AddCustomContext("mujoco:inverse_dynamics", "mj_kinematics + mj_comPos + mj_comVel + mj_rne(flg_acc=1): "
                                                         "tau from qpos, qvel, qacc, gravity included");
  benchmark::AddCustomContext("mujoco:mass_matrix", "mj_kinematics + mj_comPos + mj_crb: H into MuJoCo's sparse qM "
                                                    "(mj_fullM, the dense copy, not timed)");
  benchmark::AddCustomContext("mujoco:factorization",
                              "mj_factorM + mj_solveM: x = H^-1 tau with H in MuJoCo's sparse qM (filled by mj_crb "
                              "beforehand, untimed), as rbdlab's factorization variants get H made beforehand");
  benchmark::AddCustomContext("mujoco:forward_dynamics",
                              "mj_kinematics + mj_comPos + mj_comVel + mj_crb + mj_factorM + mj_rne(flg_acc=0) + "
                              "(tau - C) + mj_solveM: qacc from qpos, qvel, tau, gravity included");
  benchmark::AddCustomContext(
      "rbdlab_counters",
      "nv, depth: of the model; ops_m, ops_a: multiplications+divisions and additions per call, counting "
      "scalar; check_digits: rbdlab variants: significant digits of agreement in the 50-digit Reference "
      "scalar with the Lagrangian oracle (n <= " +
          std::to_string(kOracleMaxBodies) +
          ") or with another variant (larger n); mujoco: -log10 of the worst normwise relative difference from "
          "rbdlab's rnea_spatial/crba in double over the state pool (forward_dynamics: MuJoCo's qacc against the "
          "qdd whose tau rnea_spatial gave); double_err_eps: the double run vs the "
          "Reference truth, in eps = 2.2e-16");
  std::string r;
  for (const std::string& x : refused()) r += (r.empty() ? "" : " | ") + x;
  benchmark::AddCustomContext("rbdlab_refused", r.empty() ? "none" : r);
  std::string nn;
  for (const std::string& x : notes()) nn += (nn.empty() ? "" : " | ") + x;
  benchmark::AddCustomContext("rbdlab_notes", nn.empty() ? "none" : nn);
}

}  // namespace
}  // namespace rbd::bench

int main(int argc, char** argv) {
  using namespace rbd::bench;
  if (std::string(RBDLAB_BUILD_TYPE) != "Release") {
    std::cerr << "rbdlab_bench: refusing to run: this binary was built with CMAKE_BUILD_TYPE=" << RBDLAB_BUILD_TYPE
              << ". Timings are only meaningful for optimised code; reconfigure with "
                 "-DCMAKE_BUILD_TYPE=Release and rebuild.\n";
    return 2;
  }
  // Our own flag, then defaults for Google Benchmark's flags unless given on the command line.
  bool quick = false, floating = false;
  std::string model_arg;
  if (const char* e = std::getenv("RBDLAB_BENCH_QUICK")) quick = std::string(e) == "1" || std::string(e) == "true";
  std::vector<std::string> user;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0)
      quick = true;
    else if (std::strcmp(argv[i], "--floating") == 0)
      floating = true;
    else if (std::strncmp(argv[i], "--model=", 8) == 0)
      model_arg = argv[i] + 8;
    else
      user.push_back(argv[i]);
  }
  if (floating && model_arg.empty()) {
    std::cerr << "rbdlab_bench: --floating needs --model=MODEL (a URDF file)\n";
    return 2;
  }
  try {
    if (model_arg.empty()) {
      bench_cases() = default_bench_cases();
    } else {  // `rbdlab bench MODEL`: that model alone, at its own size
      rbd::cases::ModelSourceOptions opt;
      opt.floating = floating;
      rbd::cases::LoadedModel lm = rbd::cases::load_model_source(model_arg, opt);
      const std::string id = case_id_from(lm.model.name);
      bench_cases() = {fixed_case(id, model_arg + (floating ? " with a free joint at the root" : ""), lm.model)};
      rbd::bench::model_loops() = lm.loops;
      if (!lm.loops.empty())
        std::cerr << "rbdlab_bench: " << lm.loops.size() << " loop joint(s) of the model: the states lie on them, and "
                  << "the loop families time them; the tree families time the spanning tree\n";
    }
  } catch (const std::exception& e) {
    std::cerr << "rbdlab_bench: cannot build the benchmark models: " << e.what() << "\n";
    return 2;
  }
  const Config cfg = make_config(quick);
  std::vector<std::string> defaults = {
      "--benchmark_enable_random_interleaving=true",
      "--benchmark_repetitions=" + std::to_string(cfg.repetitions),
      "--benchmark_min_time=" + std::to_string(cfg.min_time),
      "--benchmark_report_aggregates_only=" + std::string(cfg.repetitions > 1 ? "true" : "false"),
  };
  std::vector<std::string> all = {argv[0]};
  for (const std::string& d : defaults) {
    const std::string key = d.substr(0, d.find('='));
    bool given = false;
    for (const std::string& u : user) given = given || u.rfind(key + "=", 0) == 0 || u == key;
    if (!given) all.push_back(d);
  }
  all.insert(all.end(), user.begin(), user.end());
  std::vector<char*> args;
  for (std::string& a : all) args.push_back(a.data());
  int n_args = static_cast<int>(args.size());
  args.push_back(nullptr);
  benchmark::Initialize(&n_args, args.data());
  if (benchmark::ReportUnrecognizedArguments(n_args, args.data())) return 2;

  const auto t0 = std::chrono::steady_clock::now();
  std::cerr << "rbdlab_bench (" << (quick ? "quick" : "full") << "): preparing models, checking every variant "
            << "(Reference vs oracle for n <= " << kOracleMaxBodies << ") and MuJoCo...\n";
  for (const BenchCase& bc : bench_cases())
    for (int n : sizes_of(bc, cfg.sizes)) prepare_instance(bc, n);
  const double prep_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cerr << "rbdlab_bench: checks done in " << prep_s << " s\n";

  rbd::verify::for_each_type<rbd::verify::AllFamilies>([&]<class Family>() {
    if constexpr (Call<Family>::available)
      register_family<Family>(cfg);
    else
      notes().push_back("family " + std::string(Family::name) +
                        " not benchmarked: no adapter in bench/family_calls.hpp yet");
  });
  for (const std::string& x : notes()) std::cerr << "  note: " << x << "\n";
  for (const std::string& x : refused()) std::cerr << "  REFUSED (not timed): " << x << "\n";
  std::string command_line;
  for (const std::string& a : all) command_line += (command_line.empty() ? "" : " ") + a;
  add_context(cfg, command_line);
  benchmark::AddCustomContext("rbdlab_check_seconds", std::to_string(prep_s));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (!refused().empty()) {
    std::cerr << "rbdlab_bench: " << refused().size() << " benchmark(s) refused after failing a check (above); "
              << "exit status 1\n";
    return 1;
  }
  return 0;
}
