// rbdlab_bench_representations: Google Benchmark timings for Traversaro & Saccon's
// representations (algorithms/representations/, seed 002), issue 7:
//  - the geometric Jacobian of a frame on the last body: Eq. 74 by the leaf-to-root walk
//    (left_jacobian, the body representation), the other representations from it by Eq. 75,
//    and the inertial one by the independent root-to-body pass (inertial_jacobian);
//  - forward dynamics of a floating base in the mixed representation (Eq. 80: CRBA, one
//    inverse-dynamics call for h, M = Y^T H Y and a dense Cholesky solve) against aba_floating
//    (Table 9.4, body representation) on the same model and state (nu = Y^-1 qd, made untimed,
//    and no force across the free joint), checked to give the same accelerations before timing.
// These functions are the suite's reference forms (they return Eigen matrices, so they
// allocate); the timings say what that clarity costs beside the recursive algorithms.
// Names: representations/<what>/<model>/n:NV. Inputs: a pool of seeded states rotated per
// iteration. Every quantity timed here is gated at 40+ digits in Reference by `make verify`
// (verify/test_representations_jacobians.cpp).
//   rbdlab_bench_representations [Google Benchmark flags]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <string>
#include <vector>

#include "cases/states.hpp"
#include "cases/urdf_robots.hpp"
#include "floating_base/aba_floating.hpp"
#include "representations/floating_base.hpp"

namespace {

using namespace rbd;
constexpr int kPool = 16;

struct Robot {
  std::string name;
  Model<double> model;
  std::vector<cases::State> pool;
  std::vector<VecX<double>> nu;  // floating base: each state's qd in the mixed representation (qd = Y nu)
};

const Robot& robot(const std::string& name) {
  static std::deque<Robot> robots;  // a deque: references stay valid as robots are added
  for (const Robot& r : robots)
    if (r.name == name) return r;
  Robot r{name, cases::urdf_robot(name).model, {}, {}};
  for (int s = 1; s <= kPool; ++s) r.pool.push_back(cases::random_state(r.model, static_cast<std::uint64_t>(s)));
  if (ts::has_floating_base(r.model))
    for (cases::State& x : r.pool) {
      x.tau.head<6>().setZero();  // Eq. 80's base is unactuated: no force across the free joint
      r.nu.push_back(ts::mixed_to_rbdlab_velocity(r.model, x.q).fullPivLu().solve(x.qd));
    }
  robots.push_back(std::move(r));
  return robots.back();
}

// A frame E 0.1 m along the z axis of the last body (a tool or foot frame).
ts::Pose<double> tool_offset() { return ts::Pose<double>{Mat3<double>::Identity(), Vec3<double>(0, 0, 0.1)}; }

template <class F> void rotate_pool(benchmark::State& st, const Robot& r, F&& call) {
  int k = 0;
  for (auto _ : st) {
    auto out = call(k);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
    k = (k + 1) % kPool;
  }
  st.counters["nv"] = r.model.nv;
}

void register_jacobians(const std::string& name) {
  const std::string tail = "/" + name + "/n:" + std::to_string(robot(name).model.nv);
  const int body = robot(name).model.nb - 1;
  auto reg = [&](const std::string& what, ts::Representation rep) {
    benchmark::RegisterBenchmark(("representations/jacobian_" + what + tail).c_str(), [name, body, rep](benchmark::State& st) {
      const Robot& r = robot(name);
      rotate_pool(st, r, [&](int k) {
        return ts::jacobian(ts::left_jacobian(r.model, r.pool[k].q, body, tool_offset()), rep, rep);
      });
    });
  };
  reg("body", ts::Representation::Body);
  reg("inertial", ts::Representation::Inertial);
  reg("mixed", ts::Representation::Mixed);
  benchmark::RegisterBenchmark(("representations/inertial_jacobian_root_to_body" + tail).c_str(), [name, body](benchmark::State& st) {
    const Robot& r = robot(name);
    rotate_pool(st, r, [&](int k) { return ts::inertial_jacobian(r.model, r.pool[k].q, body); });
  });
}

void register_floating_fd(const std::string& name) {
  const std::string tail = "/" + name + "/n:" + std::to_string(robot(name).model.nv);
  benchmark::RegisterBenchmark(("representations/forward_dynamics_mixed_eq80" + tail).c_str(), [name](benchmark::State& st) {
    const Robot& r = robot(name);
    Workspace<double> ws(r.model);
    rotate_pool(st, r, [&](int k) {
      const cases::State& x = r.pool[k];
      return ts::mixed_forward_dynamics(r.model, x.q, r.nu[k], VecX<double>(x.tau.tail(r.model.nv - 6)), {}, ws);
    });
  });
  benchmark::RegisterBenchmark(("representations/forward_dynamics_aba_floating" + tail).c_str(), [name](benchmark::State& st) {
    const Robot& r = robot(name);
    ForwardDynamicsWorkspace<double> ws(r.model);
    VecX<double> qdd(r.model.nv);
    rotate_pool(st, r, [&](int k) {
      const cases::State& x = r.pool[k];
      AbaFloating::run<double>(r.model, x.q, x.qd, x.tau, nullptr, qdd, ws);
      return qdd;
    });
  });
}

// Before timing: the two forward-dynamics routes give the same motion on every pooled state,
// qdd = Y nu_dot + Y_dot nu (floating_base.hpp, F1-F2), to 1e-9 relative: a guard against a
// broken build, not an accuracy claim (verify/test_representations_jacobians.cpp holds the
// two to 40 digits in Reference).
bool routes_agree(const std::string& name) {
  const Robot& r = robot(name);
  Workspace<double> ws(r.model);
  ForwardDynamicsWorkspace<double> fws(r.model);
  VecX<double> qdd(r.model.nv);
  for (int k = 0; k < kPool; ++k) {
    const cases::State& x = r.pool[k];
    const VecX<double> nu_dot =
        ts::mixed_forward_dynamics(r.model, x.q, r.nu[k], VecX<double>(x.tau.tail(r.model.nv - 6)), {}, ws);
    const VecX<double> from_mixed = ts::mixed_to_rbdlab_velocity(r.model, x.q) * nu_dot +
                                    ts::mixed_to_rbdlab_velocity_dot(r.model, x.q, r.nu[k]) * r.nu[k];
    AbaFloating::run<double>(r.model, x.q, x.qd, x.tau, nullptr, qdd, fws);
    if (!((from_mixed - qdd).norm() <= 1e-9 * std::max(qdd.norm(), 1.0))) {
      std::fprintf(stderr, "rbdlab_bench_representations: %s state %d: Eq. 80 and aba_floating differ by %g\n",
                   name.c_str(), k + 1, (from_mixed - qdd).norm());
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  try {
    register_jacobians("panda");
    register_jacobians("solo12");
    if (!routes_agree("solo12")) return 1;
    register_floating_fd("solo12");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rbdlab_bench_representations: cannot build the models: %s\n", e.what());
    return 2;
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
