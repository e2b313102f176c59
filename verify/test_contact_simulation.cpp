// The contact simulators (algorithms/contact_simulation/) beyond the study's checks
// (verify/contact_simulation_study.cpp: the bouncing ball and Newton's cradle in double):
//  a. the event-driven procedure in Reference: Heun's method is exact under constant gravity and
//     the bisection finds each crossing to Reference's eps, so the first impacts' times and apex
//     heights equal their closed forms to 40 digits -- the simulator adds no error of its own;
//  b. Heun's interpolant (Eq. 11.51) meets the step's end (Eq. 11.50) at delta = 1 and the start
//     at delta = 0, and is exact for a quadratic trajectory at every delta;
//  c. refusals: a step h <= 0, a state that starts penetrating, a restitution outside [0, 1].
#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>
#include <string>

#include "cases/contact_scenes.hpp"
#include "contact_simulation/event_driven.hpp"
#include "contact_simulation/time_stepping.hpp"
#include "reference/reference_scalar.hpp"
#include "verify/support/message_of.hpp"

namespace test_contact_simulation {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

using namespace rbd;
using R = Reference;

TEST_CASE("contact simulation: the event-driven bouncing ball in Reference meets its closed form to 40 digits",
          "[contact_simulation]") {
  // Closed forms (impact k = 0, 1, ...): t_k = t_0 + 2 t_0 (e - e^(k+1)) / (1 - e) and rebound
  // speed e^(k+1) v_0, t_0 = sqrt(2 h_0 / g), v_0 = sqrt(2 g h_0). Tolerance 1e-40 (relative):
  // the computation is ~1e3 steps of a few hundred roundings each (~5e-51 apiece).
  const double g = 9.81, h0 = 0.5, e = 0.6;
  const cases::ContactScene sc = cases::bouncing_ball(0.1, 0.6, g, h0, e, 0.3);
  const Model<R> m = sc.model.cast<R>();
  const PointContacts<R> cs = cast_contacts<R>(sc.contacts);
  const VecX<R> q = sc.q.unaryExpr([](double x) { return R(x); }), qd = sc.qd.unaryExpr([](double x) { return R(x); });
  simulation::EventDrivenOptions<R> opt;
  opt.h = R("0.01");
  opt.rest_speed = R(0);
  simulation::EventDrivenSimulator<R> ed(m, cs, q, qd, VecX<R>(VecX<R>::Zero(6)), opt);
  ed.advance_to(R("1.0"));  // three impacts: at 0.319, 0.702 and 0.932 s (the fourth at 1.07)
  // The drop height as the Reference run sees it: the double scene's z - r (not 0.5 exactly).
  const R gR(g), eR(e), h0R = q[6] + cs[0].point[2];
  const R t0 = sqrt_(R(R(2) * h0R / gR)), v0 = sqrt_(R(R(2) * gR * h0R));
  int k = 0;
  for (const auto& ev : ed.events) {
    if (ev.kind != simulation::ContactEvent<R>::Kind::impact) continue;
    const R t_closed = t0 + R(2) * t0 * (eR - pow(eR, R(k + 1))) / (R(1) - eR);
    const R up_closed = v0 * pow(eR, R(k + 1));
    INFO("impact " << k << ": t = " << ev.t << " (closed " << t_closed << "), rebound " << ev.speed_after << " (closed "
                   << up_closed << ")");
    CHECK(abs_(ev.t - t_closed) <= R("1e-40") * t_closed);
    CHECK(abs_(ev.speed_after - up_closed) <= R("1e-40") * up_closed);
    ++k;
  }
  CHECK(k == 3);
  // The sideways motion is untouched.
  CHECK(abs_(ed.qd[3] - R(sc.qd[3])) <= R("1e-40"));
}

TEST_CASE("contact simulation: Heun's interpolant meets Eq. 11.50 at delta = 1 and is exact for a parabola",
          "[contact_simulation]") {
  // A free ball under gravity alone: q(t) is a parabola in the position, which a second-order
  // polynomial in delta represents exactly; so y(delta) = the closed form at t = delta h.
  const cases::ContactScene sc = cases::bouncing_ball(0.1, 0.6, 9.81, 2.0, 0.5, 0.7);
  const Model<double>& m = sc.model;
  VecX<double> qd = sc.qd;
  qd[5] = 1.3;  // rising
  ForwardDynamicsWorkspace<double> ws(m);
  const VecX<double> tau = VecX<double>::Zero(6);
  VecX<double> qdd(6);
  Aba::run<double>(m, sc.q, qd, tau, nullptr, qdd, ws);
  simulation::HeunStep<double> step;
  const double h = 0.05;
  step.begin(m, sc.q, qd, qdd, h);
  step.qdd2.resize(6);  Aba::run<double>(m, step.q2, step.qd2, tau, nullptr, step.qdd2, ws);
  for (double delta : {0.0, 0.25, 0.5, 0.9, 1.0}) {
    VecX<double> q, v;
    step.at(m, delta, q, v);
    const double t = delta * h;
    INFO("delta " << delta);
    // 1e-14: a few roundings on O(1) numbers.
    CHECK(std::abs(q[6] - (sc.q[6] + 1.3 * t - 0.5 * 9.81 * t * t)) <= 1e-14);
    CHECK(std::abs(q[4] - 0.7 * t) <= 1e-14);
    CHECK(std::abs(v[5] - (1.3 - 9.81 * t)) <= 1e-14);
  }
}

TEST_CASE("contact simulation: a bad step, a penetrating start and a bad restitution are refused with a message",
          "[contact_simulation]") {
  const cases::ContactScene sc = cases::bouncing_ball(0.1, 0.6, 9.81, 1.0, 0.5, 0.0);
  const Model<double>& m = sc.model;
  const VecX<double> tau = VecX<double>::Zero(6);
  simulation::EventDrivenOptions<double> bad_step;
  bad_step.h = 0;
  CHECK_THROWS_WITH(simulation::EventDrivenSimulator<double>(m, sc.contacts, sc.q, sc.qd, tau, bad_step),
                    Catch::Contains("step h must be > 0"));
  CHECK_THROWS_WITH(simulation::TimeSteppingSimulator<double>(m, sc.contacts, sc.q, sc.qd, tau, -1e-3),
                    Catch::Contains("step h must be > 0"));
  VecX<double> sunk = sc.q;
  sunk[6] = 0.05;  // the ball's lowest point 5 cm below the ground
  const std::string msg = verify::message_of<std::domain_error>(
      [&] { simulation::EventDrivenSimulator<double>(m, sc.contacts, sunk, sc.qd, tau); });
  INFO(msg);
  CHECK(msg.find("contact 0 'ball on ground'") != std::string::npos);
  CHECK(msg.find("starts penetrating") != std::string::npos);
  PointContacts<double> bad = sc.contacts;
  bad[0].restitution = 1.01;
  CHECK_THROWS_WITH(simulation::EventDrivenSimulator<double>(m, bad, sc.q, sc.qd, tau), Catch::Contains("restitution"));
  CHECK_THROWS_WITH(simulation::TimeSteppingSimulator<double>(m, bad, sc.q, sc.qd, tau, 1e-3), Catch::Contains("restitution"));
  // The gains-per-step guard (EventDrivenOptions::max_gains_per_step): with at most 3 gains per
  // step length and a step of 2 s, the ball's bounces (the first after 0.45 s, then at intervals
  // of 0.9 s times 0.5^k, accumulating at 1.35 s) exceed it within the first step length: refused,
  // naming the contact. With the default (1000) the same run comes to rest and reaches its end.
  simulation::EventDrivenOptions<double> few;
  few.h = 2.0;
  few.max_gains_per_step = 3;
  const std::string zeno = verify::message_of<std::domain_error>([&] {
    simulation::EventDrivenSimulator<double> sim(m, sc.contacts, sc.q, sc.qd, tau, few);
    sim.advance_to(2.0);
  });
  INFO(zeno);
  CHECK(zeno.find("3 contact gains within one step length") != std::string::npos);
  CHECK(zeno.find("contact 0 'ball on ground'") != std::string::npos);
  few.max_gains_per_step = 1000;
  simulation::EventDrivenSimulator<double> sim(m, sc.contacts, sc.q, sc.qd, tau, few);
  sim.advance_to(2.0);
  CHECK(sim.t >= 2.0);
}

}  // namespace test_contact_simulation
