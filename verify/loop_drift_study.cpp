// Loop-closure drift in simulation (Featherstone sections 8.3 and 8.11, issue 14): the same
// closed-loop mechanism integrated five ways in double with the classic fourth-order Runge-Kutta
// method at two steps, passive (tau = 0) under gravity, so the mechanical energy is conserved:
//   closure_function   the state is (y, yd); q = gamma(y), qd = G yd each step
//                      (closure_function.hpp), so the loop cannot open (section 8.11);
//   unstabilised       the state is the tree's (q, qd), qdd by loop_nullspace (section 8.5,
//                      Method 3) with k_stab = 0: rounding and truncation errors in q and qd
//                      are not corrected (section 8.3, Eq. 8.16's "noise");
//   baumgarte_0.1, baumgarte_0.01
//                      the same with Baumgarte's k_stab (Eq. 8.22), alpha = beta = 1 / T_stab,
//                      T_stab = 0.1 s ("reasonable" for a large robot) and 0.01 s ("a bit small,
//                      but still reasonable"), section 8.3's guidance;
//   projection         the unstabilised run with (q, qd) projected back onto the loops after
//                      every step (projection.hpp: Gauss-Newton on Table 8.1's errors).
// Measured each 0.05 s of simulated time: the loop-closure residual (the oracle's own closure
// function on 4x4 poses, reference/loop_oracle.hpp, evaluated in double: max-norm of its rows, in
// metres and radians) and the relative change of the mechanical energy (1/2 qd^T H qd from the
// CRBA plus the oracle's potential energy, zero at the base origin: |E(t) - E(0)| / |E(0)| depends
// on that choice, harmlessly here, where E(0) is far from zero on both mechanisms).
// Writes <data_dir>/loop_drift.json (atomically; to <data_dir>/failed/ with exit status 1 when
// a check fails). Checks: every figure finite; the projection runs' residual <= 4e3 eps
// (project_onto_loops stops at max |delta| <= 1e3 eps, Table 8.1's errors; the oracle's rows
// measure the same error in other coordinates, through lever arms of up to 1 m: an empirical
// margin of 3 over the largest measured, 1.27e3 eps); and the closure-function runs' residual at
// rounding level, <= 64 eps: q = gamma(y) is a few dozen roundings of O(0.1-1) lengths and
// angles, and the oracle's residual adds its own few dozen; a residual above that means the
// loop opened, which section 8.11 says cannot happen.
// Usage: rbdlab_loop_drift_study DATA_DIR
#include <cmath>
#include <filesystem>
#include <functional>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "cases/actuated_arm.hpp"
#include "cases/four_bar.hpp"
#include "closed_loop_dynamics/closure_function.hpp"
#include "closed_loop_dynamics/loop_nullspace.hpp"
#include "closed_loop_dynamics/projection.hpp"
#include "reference/lagrange_oracle.hpp"
#include "reference/loop_oracle.hpp"
#include "verify/support/json_out.hpp"

using namespace rbd;
using nlohmann::json;

namespace {

const double kEps = std::numeric_limits<double>::epsilon();
constexpr double kDuration = 20.0;   // s of simulated time
constexpr double kSample = 0.05;     // s between samples
const double kSteps[] = {1e-2, 1e-3};

struct Sample {
  double t, residual, energy_err;
};

struct Mechanism {
  std::string id, title;
  Model<double> m;
  LoopJoints<double> loops;
  std::function<void(const VecX<double>&, const VecX<double>&, VecX<double>&, MatX<double>&, VecX<double>&)> closure;
  int ny;
  VecX<double> y0, yd0;
};

// A closure function object over any of the cases' closures (closure_function.hpp's concept).
struct AnyClosure {
  const Mechanism* mc;
  int ny() const { return mc->ny; }
  void evaluate(const VecX<double>& y, const VecX<double>& yd, VecX<double>& q, MatX<double>& G, VecX<double>& g) const {
    mc->closure(y, yd, q, G, g);
  }
};

double energy(const Model<double>& m, const VecX<double>& q, const VecX<double>& qd, Workspace<double>& ws) {
  MatX<double> H = MatX<double>::Zero(m.nv, m.nv);
  Crba::run<double>(m, q, H, ws);
  return 0.5 * qd.dot(H * qd) + oracle::potential_energy<double>(m, q);
}

double residual(const Mechanism& mc, const VecX<double>& q) {
  return oracle::loop_closure_residual<double>(mc.m, mc.loops, q).cwiseAbs().maxCoeff();
}

// RK4 on x = (p, pd) with acceleration a(p, pd): the textbook stages.
template <class Acc>
void rk4_step(VecX<double>& p, VecX<double>& pd, double h, Acc&& acc) {
  const VecX<double> k1p = pd, k1v = acc(p, pd);
  const VecX<double> k2p = pd + h / 2 * k1v, k2v = acc(VecX<double>(p + h / 2 * k1p), k2p);
  const VecX<double> k3p = pd + h / 2 * k2v, k3v = acc(VecX<double>(p + h / 2 * k2p), k3p);
  const VecX<double> k4p = pd + h * k3v, k4v = acc(VecX<double>(p + h * k3p), k4p);
  p += h / 6 * (k1p + 2 * k2p + 2 * k3p + k4p);
  pd += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
}

std::vector<Sample> run_closure(const Mechanism& mc, double h) {
  const AnyClosure f{&mc};
  ClosureFunctionWorkspace<double> ws(mc.m, mc.ny);
  Workspace<double> we(mc.m);
  const VecX<double> tau = VecX<double>::Zero(mc.m.nv);
  VecX<double> y = mc.y0, yd = mc.yd0, ydd(mc.ny);
  auto acc = [&](const VecX<double>& p, const VecX<double>& pd) {
    closure_function_dynamics<double>(mc.m, f, p, pd, tau, nullptr, ydd, ws);
    return ydd;
  };
  auto state = [&](VecX<double>& q, VecX<double>& qd) {
    VecX<double> g(mc.m.nv);
    MatX<double> G(mc.m.nv, mc.ny);
    q.resize(mc.m.nq);
    f.evaluate(y, yd, q, G, g);
    qd = G * yd;
  };
  std::vector<Sample> out;
  VecX<double> q, qd;
  state(q, qd);
  const double E0 = energy(mc.m, q, qd, we);
  const int steps = static_cast<int>(std::lround(kDuration / h)), every = static_cast<int>(std::lround(kSample / h));
  for (int k = 0; k <= steps; ++k) {
    if (k % every == 0) {
      state(q, qd);
      out.push_back({k * h, residual(mc, q), std::abs(energy(mc.m, q, qd, we) - E0) / std::abs(E0)});
    }
    if (k < steps) rk4_step(y, yd, h, acc);
  }
  return out;
}

std::vector<Sample> run_tree(const Mechanism& mc, double h, double t_stab, bool project) {
  ClosedLoopWorkspace<double> ws(mc.m);
  LoopProjectionWorkspace<double> wp(mc.m);
  Workspace<double> we(mc.m);
  if (t_stab > 0) ws.stab.alpha = ws.stab.beta = 1.0 / t_stab;  // Eq. 8.22 with section 8.3's choice
  const VecX<double> tau = VecX<double>::Zero(mc.m.nv);
  VecX<double> q(mc.m.nq), qd(mc.m.nv), qdd(mc.m.nv), g(mc.m.nv);
  MatX<double> G(mc.m.nv, mc.ny);
  mc.closure(mc.y0, mc.yd0, q, G, g);
  qd = G * mc.yd0;
  auto acc = [&](const VecX<double>& p, const VecX<double>& pd) {
    LoopNullspace::run<double>(mc.m, mc.loops, p, pd, tau, nullptr, qdd, ws);
    return qdd;
  };
  std::vector<Sample> out;
  const double E0 = energy(mc.m, q, qd, we);
  const int steps = static_cast<int>(std::lround(kDuration / h)), every = static_cast<int>(std::lround(kSample / h));
  for (int k = 0; k <= steps; ++k) {
    if (k % every == 0) out.push_back({k * h, residual(mc, q), std::abs(energy(mc.m, q, qd, we) - E0) / std::abs(E0)});
    if (k < steps) {
      rk4_step(q, qd, h, acc);
      if (project) project_onto_loops<double>(mc.m, mc.loops, q, qd, wp);
    }
  }
  return out;
}

std::vector<Mechanism> mechanisms() {
  std::vector<Mechanism> out;
  {
    const cases::FourBar fb = cases::four_bar(cases::four_bar_crank_rocker());
    const cases::FourBarClosure<double> c{fb.params};
    Mechanism mc{"four_bar", "planar four-bar, Grashof crank-rocker (cases/four_bar.hpp)", fb.model, fb.loops,
                 [c](const VecX<double>& y, const VecX<double>& yd, VecX<double>& q, MatX<double>& G, VecX<double>& g) {
                   c.evaluate(y, yd, q, G, g);
                 },
                 1, VecX<double>(1), VecX<double>(1)};
    mc.y0 << 0.3;
    mc.yd0 << 6.0;  // fast enough to turn the crank fully against gravity
    out.push_back(mc);
  }
  {
    const cases::ActuatedArm arm = cases::figure_8_3_arm();
    const cases::Figure83Closure<double> c{arm.params};
    Mechanism mc{"figure_8_3_arm", "Figure 8.3's arm with its linear actuator (cases/actuated_arm.hpp)", arm.model,
                 arm.loops,
                 [c](const VecX<double>& y, const VecX<double>& yd, VecX<double>& q, MatX<double>& G, VecX<double>& g) {
                   c.evaluate(y, yd, q, G, g);
                 },
                 2, VecX<double>(2), VecX<double>(2)};
    mc.y0 << 0.7, -0.4;
    mc.yd0 << -1.3, 0.9;
    out.push_back(mc);
  }
  return out;
}

std::string step_name(double h) { return h == 1e-2 ? "0.01" : "0.001"; }

}  // namespace

int main(int argc, char** argv) {
  const std::filesystem::path data_dir = argc > 1 ? argv[1] : "reports/data";
  bool pass = true;
  std::vector<std::string> failures;
  json mechs = json::array();
  try {
    for (const Mechanism& mc : mechanisms()) {
      json runs = json::array();
      for (const double h : kSteps) {
        struct Method {
          std::string name;
          double t_stab;  // < 0: closure function; 0: none (or projection); > 0: Baumgarte
          bool project;
        };
        for (const Method& meth : {Method{"closure_function", -1, false}, Method{"unstabilised", 0, false},
                                   Method{"baumgarte_0.1", 0.1, false}, Method{"baumgarte_0.01", 0.01, false},
                                   Method{"projection", 0, true}}) {
          const std::vector<Sample> s =
              meth.t_stab < 0 ? run_closure(mc, h) : run_tree(mc, h, meth.t_stab, meth.project);
          double max_res = 0, max_e = 0;
          bool finite = true;
          json series = json::array();
          for (const Sample& x : s) {
            finite = finite && std::isfinite(x.residual) && std::isfinite(x.energy_err);
            max_res = std::max(max_res, x.residual);
            max_e = std::max(max_e, x.energy_err);
            series.push_back({x.t, x.residual, x.energy_err});
          }
          const std::string id = meth.name + "_dt_" + step_name(h);
          if (!finite) {
            pass = false;
            failures.push_back(mc.id + "/" + id + ": a non-finite residual or energy");
          }
          if (meth.project && !(max_res <= 4e3 * kEps)) {
            pass = false;
            failures.push_back(mc.id + "/" + id + ": projection left the loop open (residual " +
                               std::to_string(max_res / kEps) + " eps > 4e3 eps)");
          }
          if (meth.t_stab < 0 && !(max_res <= 64 * kEps)) {
            pass = false;
            failures.push_back(mc.id + "/" + id + ": the closure-function run opened the loop (residual " +
                               std::to_string(max_res / kEps) + " eps > 64 eps)");
          }
          runs.push_back({{"id", id}, {"method", meth.name}, {"dt", h}, {"t_stab", meth.t_stab > 0 ? json(meth.t_stab) : json()},
                          {"max_residual", max_res}, {"final_residual", s.back().residual},
                          {"max_residual_eps", max_res / kEps}, {"max_energy_err", max_e},
                          {"final_energy_err", s.back().energy_err}, {"series", series}});
          std::cout << mc.id << " " << id << ": residual max " << max_res << " (final " << s.back().residual
                    << "), energy error max " << max_e << "\n";
        }
      }
      mechs.push_back({{"id", mc.id}, {"title", mc.title}, {"runs", runs}});
    }
  } catch (const std::exception& e) {
    pass = false;
    failures.push_back(std::string("exception: ") + e.what());
  }
  for (const auto& f : failures) std::cerr << "loop drift study: " << f << "\n";
  verify::write_json_atomically(
      verify::result_path(data_dir, "loop_drift.json", pass),
      {{"what", "loop-closure drift of closed-loop simulations: closure function (section 8.11) vs the tree's q "
                "integrated with no stabilisation, Baumgarte's (section 8.3, Eq. 8.22) and projection; RK4, tau = 0, gravity"},
       {"duration_s", kDuration}, {"sample_s", kSample},
       {"series_columns", {"t", "residual", "energy_err"}},
       {"residual", "max-norm of the loop oracle's closure rows (reference/loop_oracle.hpp) in double: m and rad"},
       {"energy_err", "|E(t) - E(0)| / |E(0)|, E = 1/2 qd^T H qd + potential (oracle)"},
       {"mechanisms", mechs}, {"pass", pass}, {"failures", failures}});
  std::cout << (pass ? "loop drift study: done" : "loop drift study: FAILED") << "\n";
  return pass ? 0 : 1;
}
