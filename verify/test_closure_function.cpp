// Closed-loop forward dynamics through an explicit loop-closure function (Featherstone section
// 8.11, algorithms/closed_loop_dynamics/closure_function.hpp), on the mechanisms whose loops
// have closed-form solutions: Figure 8.3's arm (the figure's own formulas,
// cases::Figure83Closure), the planar four-bar (cases::FourBarClosure) and the five-bar of
// examples/mjcf/ read through MuJoCo (cases::FiveBarClosure, two independent variables). Checked against
// computations that share nothing with the closure formulas:
//  a. Figure 8.3's gamma and G against the case's vector derivation of the same closure
//     (figure_8_3_state: P - D, not the triangle);
//  b. G and g against central differences of gamma and G in Reference;
//  c. the oracle's loop-closure residual at gamma(y), its constraint Jacobian Phi G = 0 and its
//     acceleration bias Phi g = -phi_ddot0 (reference/loop_oracle.hpp: its own kinematics on 4x4
//     poses, derivatives by dual numbers);
//  d. qdd = G ydd + g against the closed-loop family (loop_kkt, loop_nullspace: section 8.8's
//     K, k and elimination) and the oracle's closed-loop forward dynamics;
//  e. in double, within the budget of the G^T H G solve;
//  f. refusals.
//
// Precision: the Reference states are computed in 50 digits and every quantity compared is
// O(1) (lengths 0.1-0.5 m, masses 0.25-2 kg, rates O(1)), so exact identities hold to ~1e-48;
// 1e-45 for closure residuals and 1e-40 for accelerations (through a solve with cond2 < 1e4)
// leave margins of >= 1e3 while a wrong formula errs by O(1e-3 .. 1).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "cases/actuated_arm.hpp"
#include "cases/five_bar_closure.hpp"
#include "cases/four_bar.hpp"
#include "cases/mjcf_loader.hpp"
#include "closed_loop_dynamics/closure_function.hpp"
#include "closed_loop_dynamics/variants.hpp"
#include "reference/loop_oracle.hpp"
#include "reference/reference_scalar.hpp"
#include "verify/support/budgets.hpp"
#include "verify/support/message_of.hpp"

namespace test_closure_function {  // unity build: this file's names stay its own

using namespace rbd;
using R = Reference;

namespace {

const R kClose("1e-45");
const R kDigits40("1e-40");

template <class S> LoopJoints<S> loops_as(const LoopJoints<double>& loops) { return cast_loops<S>(loops); }

// Both mechanisms as (model, loops, closure, states y/yd/tau) in scalar S.
template <class S, class Closure> struct Mechanism {
  std::string label;
  Model<S> m;
  LoopJoints<S> loops;
  Closure closure;
  std::vector<VecX<S>> ys, yds;
};

template <class S> Mechanism<S, cases::Figure83Closure<S>> figure_8_3() {
  const cases::ActuatedArm arm = cases::figure_8_3_arm();
  Mechanism<S, cases::Figure83Closure<S>> out{"Figure 8.3 arm", arm.model.cast<S>(), loops_as<S>(arm.loops),
                                              {arm.params}, {}, {}};
  // theta1 = y1 - phi_D (phi_D ~ -1.107) in all four quadrants, and 1e-3 past the atan2 cut of
  // theta2 at theta1 = 0 (l2 < l1 here, so l2 cos(theta1) - l1 < 0 and theta2 passes +-pi there),
  // where d = l1 - l2 is smallest. The values are doubles, so the double and Reference runs of
  // the accuracy test below start from the same y, yd.
  const double phi_D = std::atan2(arm.params.dy, arm.params.dx);
  for (const double a : {0.7, -1.3, 2.9, -2.6, 0.05, phi_D + 1e-3}) {
    VecX<S> y(2), yd(2);
    y << S(a), S(-0.4);
    yd << S(1.1), S(-0.9);
    out.ys.push_back(y);
    out.yds.push_back(yd);
  }
  return out;
}

template <class S> Mechanism<S, cases::FourBarClosure<S>> four_bar() {
  const cases::FourBar fb = cases::four_bar(cases::four_bar_crank_rocker());
  Mechanism<S, cases::FourBarClosure<S>> out{"four-bar crank-rocker", fb.model.cast<S>(), loops_as<S>(fb.loops),
                                             {fb.params}, {}, {}};
  for (const double a : {0.3, 1.9, 3.0, -2.2, -0.8}) {  // the crank turns fully; doubles, as above
    VecX<S> y(1), yd(1);
    y << S(a);
    yd << S(1.7);
    out.ys.push_back(y);
    out.yds.push_back(yd);
  }
  return out;
}

// The five-bar of examples/mjcf/five_bar.xml as MuJoCo's compiler reads it (cases/mjcf_loader.hpp),
// cast to S: the closure reads its geometry from the cast model, so it is exact in S. Base angles
// within +-0.4 rad of the drawn pose, where the distal links stay 40-100 degrees apart.
template <class S> Mechanism<S, cases::FiveBarClosure<S>> five_bar() {
  const cases::MjcfModel mj = cases::load_mjcf(std::string(RBDLAB_SOURCE_DIR) + "/examples/mjcf/five_bar.xml");
  const Model<S> m = mj.model.template cast<S>();
  const LoopJoints<S> loops = loops_as<S>(mj.loops);
  Mechanism<S, cases::FiveBarClosure<S>> out{"five-bar", m, loops, cases::FiveBarClosure<S>(m, loops.at(0)), {}, {}};
  for (const auto& [a, b] : {std::pair{0.0, 0.0}, std::pair{0.3, -0.2}, std::pair{-0.35, 0.25}, std::pair{0.2, 0.4},
                             std::pair{-0.4, -0.3}}) {
    VecX<S> y(2), yd(2);
    y << S(a), S(b);
    yd << S(1.3), S(-0.7);
    out.ys.push_back(y);
    out.yds.push_back(yd);
  }
  return out;
}

template <class S> VecX<S> forces(int n) {
  VecX<S> tau(n);
  for (int i = 0; i < n; ++i) tau[i] = scalar_cast<S>(R(i % 2 ? "-0.75" : "1.25") * R(i + 1));
  return tau;
}

struct Evaluated {
  VecX<R> q, g;
  MatX<R> G;
};
template <class Closure> Evaluated evaluate(const Closure& f, const Model<R>& m, const VecX<R>& y, const VecX<R>& yd) {
  Evaluated e{VecX<R>(m.nq), VecX<R>(m.nv), MatX<R>(m.nv, f.ny())};
  f.evaluate(y, yd, e.q, e.G, e.g);
  return e;
}

// b: G = d gamma / dy and g = d/dt (G) yd by central differences, step h = 1e-20: truncation
// h^2 / 6 times the third and fourth derivatives, which reach ~2e2 and ~2e3 on the arm where d is
// small (y1 = -1.3, d = 0.059; at the cut, d = 0.03, a few times more): ~1e-36; rounding
// 1e-50 / h = 1e-30. 1e-27 is 1e3 above both and some 20 orders below a wrong formula's error.
template <class Closure> void check_derivatives(const Closure& f, const Model<R>& m, const VecX<R>& y, const VecX<R>& yd) {
  const R h("1e-20"), tol("1e-27");
  const Evaluated e = evaluate(f, m, y, yd);
  for (int j = 0; j < f.ny(); ++j) {
    VecX<R> yp = y, ym = y;
    yp[j] += h;
    ym[j] -= h;
    const VecX<R> dq = (evaluate(f, m, yp, yd).q - evaluate(f, m, ym, yd).q) / (2 * h);
    INFO("column " << j);
    CHECK((dq - e.G.col(j)).cwiseAbs().maxCoeff() < tol);
  }
  const VecX<R> yp = y + h * yd, ym = y - h * yd;  // along the motion: dG/dt = (dG/dy) yd
  const VecX<R> Gdot_yd = (evaluate(f, m, yp, yd).G - evaluate(f, m, ym, yd).G) / (2 * h) * yd;
  CHECK((Gdot_yd - e.g).cwiseAbs().maxCoeff() < tol);
}

template <class Closure>
void check_against_section_8_8(const Mechanism<R, Closure>& mc) {
  const Model<R>& m = mc.m;
  const VecX<R> tau = forces<R>(m.nv);
  ClosureFunctionWorkspace<R> ws(m, mc.closure.ny());
  ClosedLoopWorkspace<R> wl(m);
  for (std::size_t i = 0; i < mc.ys.size(); ++i) {
    INFO(mc.label << " state " << i);
    VecX<R> ydd(mc.closure.ny());
    closure_function_dynamics<R>(m, mc.closure, mc.ys[i], mc.yds[i], tau, nullptr, ydd, ws);
    // c: the oracle's closure and constraint derivatives at gamma(y).
    CHECK(oracle::loop_closure_residual<R>(m, mc.loops, ws.q).cwiseAbs().maxCoeff() < kClose);
    const oracle::LoopReduction<R> red = oracle::closed_loop_reduction<R>(m, mc.loops, ws.q, ws.qd);
    CHECK((red.Phi * ws.G).cwiseAbs().maxCoeff() < kClose);
    CHECK((red.Phi * ws.g + red.phi_ddot0).cwiseAbs().maxCoeff() < kClose);
    CHECK(red.rank == m.nv - mc.closure.ny());  // G spans the whole null space, not part of it
    // d: the same acceleration by section 8.5's methods and by the oracle.
    VecX<R> qdd(m.nv);
    LoopKkt::run<R>(m, mc.loops, ws.q, ws.qd, tau, nullptr, qdd, wl);
    CHECK((qdd - ws.qdd).cwiseAbs().maxCoeff() < kDigits40);
    LoopNullspace::run<R>(m, mc.loops, ws.q, ws.qd, tau, nullptr, qdd, wl);
    CHECK((qdd - ws.qdd).cwiseAbs().maxCoeff() < kDigits40);
    const VecX<R> qo = oracle::closed_loop_forward_dynamics<R>(m, mc.loops, ws.q, ws.qd, tau, nullptr);
    CHECK((qo - ws.qdd).cwiseAbs().maxCoeff() < kDigits40);
  }
}

}  // namespace

TEST_CASE("Figure 8.3's formulas give the closure that the case derives with vectors", "[closure_fn]") {
  const auto mc = figure_8_3<R>();
  const R two_pi = 2 * boost::multiprecision::acos(R(-1));
  for (std::size_t i = 0; i < mc.ys.size(); ++i) {
    INFO("state " << i);
    const Evaluated e = evaluate(mc.closure, mc.m, mc.ys[i], mc.yds[i]);
    const auto st = cases::figure_8_3_state<R>(mc.closure.p, mc.ys[i][0], mc.yds[i][0], mc.ys[i][1], mc.yds[i][1]);
    VecX<R> dq = e.q - st.q;
    dq[1] -= two_pi * boost::multiprecision::round(dq[1] / two_pi);  // the same angle, possibly 2 pi apart
    CHECK(dq.cwiseAbs().maxCoeff() < kClose);
    CHECK((e.G * mc.yds[i] - st.qd).cwiseAbs().maxCoeff() < kClose);
  }
}

TEST_CASE("G and g of both closure functions are the derivatives of gamma", "[closure_fn]") {
  const auto arm = figure_8_3<R>();
  for (std::size_t i = 0; i < arm.ys.size(); ++i) {
    INFO("Figure 8.3, state " << i);
    check_derivatives(arm.closure, arm.m, arm.ys[i], arm.yds[i]);
  }
  const auto fb = four_bar<R>();
  for (std::size_t i = 0; i < fb.ys.size(); ++i) {
    INFO("four-bar, state " << i);
    check_derivatives(fb.closure, fb.m, fb.ys[i], fb.yds[i]);
  }
  const auto fv = five_bar<R>();
  for (std::size_t i = 0; i < fv.ys.size(); ++i) {
    INFO("five-bar, state " << i);
    check_derivatives(fv.closure, fv.m, fv.ys[i], fv.yds[i]);
  }
}

// The five-bar's closure at y = 0 is the pose the file draws: q = 0 (MuJoCo's qpos0).
TEST_CASE("the five-bar's closure function returns the drawn pose at y = 0", "[closure_fn]") {
  const auto fv = five_bar<R>();
  const Evaluated e = evaluate(fv.closure, fv.m, fv.ys[0], fv.yds[0]);
  // The file gives its angles to 1e-10 degrees (~2e-12 rad) and MuJoCo computes the right arm's
  // anchor in double: the drawn pose closes the loop to ~1e-12, so gamma(0) is q = 0 to that.
  CHECK(e.q.cwiseAbs().maxCoeff() < R("1e-9"));
  CHECK(e.q[0] == R(0));
  CHECK(e.q[2] == R(0));
}

TEST_CASE("closure-function dynamics equals section 8.5's methods and the loop oracle", "[closure_fn]") {
  check_against_section_8_8(figure_8_3<R>());
  check_against_section_8_8(four_bar<R>());
  check_against_section_8_8(five_bar<R>());
}

// e: in double against Reference on the same inputs (the states are doubles), within the
// budget of a solve with G^T H G (solve_with_geared_H, budgets.hpp: cond2(G^T H G) (32 (d + 1)
// + 4 nv) eps, d the tree's depth), which assumes G and g exact, plus the closure's own
// rounding: its entries are a few dozen roundings each, amplified by the cancellation in the
// formulas, kappa, so 32 kappa eps more, with
//   Figure 8.3: kappa = 2 (l1^2 + l2^2) / d^2  (d^2 = l1^2 + l2^2 - 2 l1 l2 cos(theta1) cancels,
//               and g's u3 goes like 1 / d^4: twice the relative error of d^2);
//   four-bar:   kappa = 1 / |sin(phi3 - phi2)|  (the 2 x 2 solve of the closure's derivative);
//   five-bar:   kappa = 1 / |sin| of the angle between the distal links (its 2 x 2 solve).
TEST_CASE("closure-function dynamics in double is within its budget", "[closure_fn]") {
  auto run = [](const auto& md, const auto& mr, auto kappa_of) {
    const double eps = std::numeric_limits<double>::epsilon();
    ClosureFunctionWorkspace<double> wd(md.m, md.closure.ny());
    ClosureFunctionWorkspace<R> wr(mr.m, mr.closure.ny());
    for (std::size_t i = 0; i < md.ys.size(); ++i) {
      VecX<double> ydd(md.closure.ny());
      VecX<R> yddr(mr.closure.ny());
      closure_function_dynamics<double>(md.m, md.closure, md.ys[i], md.yds[i], forces<double>(md.m.nv), nullptr, ydd, wd);
      closure_function_dynamics<R>(mr.m, mr.closure, mr.ys[i], mr.yds[i], forces<R>(mr.m.nv), nullptr, yddr, wr);
      const double err = static_cast<double>((ydd.cast<R>() - yddr).cwiseAbs().maxCoeff() / yddr.cwiseAbs().maxCoeff());
      const MatX<double> GHG = wd.G.transpose() * wd.H * wd.G;
      const double kappa = kappa_of(md.ys[i][0]);
      const double budget =
          verify::cond2_spd_double(GHG) * (32.0 * (md.m.depth() + 1) + 4.0 * md.m.nv + 32.0 * kappa) * eps;
      INFO(md.label << " state " << i << ": error " << err / eps << " eps, budget " << budget / eps << " eps, kappa "
                    << kappa);
      CHECK(err <= budget);
    }
  };
  const cases::ActuatedArmParams ap = cases::figure_8_3_arm().params;
  run(figure_8_3<double>(), figure_8_3<R>(), [&](double y1) {
    const double l1 = std::hypot(ap.dx, ap.dy), l2 = ap.attach, t1 = y1 - std::atan2(ap.dy, ap.dx);
    return 2 * (l1 * l1 + l2 * l2) / (l1 * l1 + l2 * l2 - 2 * l1 * l2 * std::cos(t1));
  });
  const cases::FourBarParams fp = cases::four_bar_crank_rocker();
  run(four_bar<double>(), four_bar<R>(), [&](double y1) {
    const cases::FourBarState<double> st = cases::four_bar_state<double>(fp, y1, 1.0);
    return 1 / std::abs(std::sin(st.phi3 - st.phi2));
  });
  const auto fv = five_bar<double>();
  std::size_t k = 0;  // run() asks for kappa state by state, in order
  run(fv, five_bar<R>(), [&](double) { return 1 / fv.closure.transmission_sine(fv.ys[k++]); });
}

namespace {
// A closure that returns a G of the wrong shape, as a careless user's might.
struct WrongShapeClosure {
  int ny() const { return 1; }
  void evaluate(const VecX<double>&, const VecX<double>&, VecX<double>& q, MatX<double>& G, VecX<double>& g) const {
    q.setZero();
    G = MatX<double>::Zero(2, 1);
    g.setZero();
  }
};
}  // namespace

TEST_CASE("closure-function dynamics refuses bad input", "[closure_fn]") {
  const auto fb = four_bar<double>();
  ClosureFunctionWorkspace<double> ws(fb.m, 1);
  VecX<double> ydd(1), y(1), yd(1);
  y << 0.3;
  yd << 1.0;
  const VecX<double> tau = forces<double>(fb.m.nv);
  auto message = [&](auto&& call) { return verify::message_of<std::logic_error>(call); };
  CHECK_THAT(message([&] { closure_function_dynamics<double>(fb.m, fb.closure, VecX<double>(2), yd, tau, nullptr, ydd, ws); }),
             Catch::Contains("y, yd and ydd must have ny = 1"));
  CHECK_THAT(message([&] { closure_function_dynamics<double>(fb.m, fb.closure, y, yd, VecX<double>(2), nullptr, ydd, ws); }),
             Catch::Contains("tau must have nv = 3"));
  VecX<double> bad = y;
  bad[0] = std::numeric_limits<double>::quiet_NaN();
  CHECK_THAT(message([&] { closure_function_dynamics<double>(fb.m, fb.closure, bad, yd, tau, nullptr, ydd, ws); }),
             Catch::Contains("not finite"));
  ClosureFunctionWorkspace<double> other(fb.m, 2);
  CHECK_THAT(message([&] { closure_function_dynamics<double>(fb.m, fb.closure, y, yd, tau, nullptr, ydd, other); }),
             Catch::Contains("another ny"));
  CHECK_THAT(message([&] { closure_function_dynamics<double>(fb.m, WrongShapeClosure{}, y, yd, tau, nullptr, ydd, ws); }),
             Catch::Contains("wrong size"));
  // y outside C: the parallelogram at crank angle 0 folds flat (B, C and D collinear, the two
  // circles of four_bar_state touching), where gamma is not differentiable.
  const cases::FourBar par = cases::four_bar(cases::four_bar_parallelogram());
  const cases::FourBarClosure<double> pc{par.params};
  ClosureFunctionWorkspace<double> wp(par.model, 1);  // WrongShapeClosure above resized ws.G (and was caught)
  y << 0.0;
  CHECK_THAT(message([&] { closure_function_dynamics<double>(par.model, pc, y, yd, tau, nullptr, ydd, wp); }),
             Catch::Contains("cannot close at this crank angle"));
}

}  // namespace test_closure_function
