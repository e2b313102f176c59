// The contact simulators (algorithms/contact_simulation/) beyond the study's checks
// (verify/contact_simulation_study.cpp: the bouncing ball and Newton's cradle in double):
//  a. the event-driven procedure in Reference: Heun's method is exact under constant gravity and
//     the bisection finds each crossing to Reference's eps, so the first impacts' times and apex
//     heights equal their closed forms to 40 digits -- the simulator adds no error of its own;
//  b. Heun's interpolant (Eq. 11.51) meets the step's end (Eq. 11.50) at delta = 1 and the start
//     at delta = 0, and is exact for a quadratic trajectory at every delta;
//  c. refusals: a step h <= 0, a state that starts penetrating, a restitution outside [0, 1];
//  d. time-stepping with Coulomb friction (friction_time_stepping.hpp) against its discrete closed
//     forms: a sliding mass loses exactly mu g h of speed per step and then stops; along a
//     pyramid edge it loses mu g h / sqrt(2) (the 4-facet pyramid is inscribed in the cone); on an
//     incline it sticks iff mu >= tan(theta); with mu = 0 it is the frictionless scheme;
//  e. Housner's rocking block on its four corners under the frictional time-stepping scheme,
//     against Housner's model (a pendulum about the pivot edge between impacts, 1 - 3/2 sin^2 alpha
//     of the angular speed kept at each): five impacts, first-order convergence of the impact
//     ratio, Coulomb's law at every pressed corner, rest at the end; and the same steps in
//     Reference (test_impact_dynamics.cpp checks the single impulse in Reference to 40 digits).
#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include "cases/contact_scenes.hpp"
#include "contact_simulation/event_driven.hpp"
#include "contact_simulation/friction_time_stepping.hpp"
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

// ---------------------------------------------------------------------------------------------
// d. Time-stepping with friction.
// ---------------------------------------------------------------------------------------------
namespace {

constexpr double kG = 9.81;

// A point mass (mass 2) on a free joint whose contact point is its centre of mass, so contact
// impulses have no moment and it never turns; the plane through the origin with this normal and
// t1 (gravity along -z).
struct SlidingMass {
  Model<double> m;
  PointContacts<double> c;
  SlidingMass(const Vec3<double>& normal, const Vec3<double>& t1, double mu) {
    ModelBuilder b("point mass");
    b.gravity(Vec3<double>(0, 0, -kG));
    Joint<double> j;
    j.type = JointType::Free;
    b.add_body("mass", -1, j, Transform<double>{}, 2.0, Vec3<double>::Zero(), Mat3<double>::Identity() * 0.1);
    m = b.finish();
    c.resize(1);
    c[0].s = 0;
    c[0].normal = normal;
    c[0].tangent = t1;
    c[0].friction = mu;
    c[0].name = "mass on plane";
  }
};

VecX<double> rest_q() {
  VecX<double> q = VecX<double>::Zero(7);
  q[0] = 1;
  return q;
}

}  // namespace

TEST_CASE("contact simulation: time-stepping with friction -- a sliding mass loses mu g h per step and stops",
          "[contact_simulation]") {
  // On the ground (n = z), sliding along x = t1 at v0: each step's normal impulse is m g h
  // (qd_free's -g h is cancelled, the target is 0 on the plane), the friction impulse is at most
  // mu m g h against the slip, so the speed after step k is v0 - k mu g h until that would be
  // negative; that step sticks (speed 0) and every later one does. x grows by h times the speed
  // after each step (semi-implicit Euler). With facets d_j at multiples of 90 degrees the slip is
  // along the facet d_2 = -t1, where the pyramid touches the cone. Tolerances: ~200 steps of a
  // few hundred roundings on O(1) numbers, 1e-12 absolute (v0 = 2, x ~ 0.5).
  const double mu = 0.4, h = 1e-3, v0 = 2.0;
  SlidingMass s(Vec3<double>(0, 0, 1), Vec3<double>(1, 0, 0), mu);
  VecX<double> qd = VecX<double>::Zero(6);
  qd[3] = v0;
  simulation::FrictionTimeSteppingSimulator<double> sim(s.m, s.c, rest_q(), qd, VecX<double>::Zero(6), h);
  double v = v0, x = 0;
  int stopped_at = -1;
  for (int k = 1; k <= 700; ++k) {
    sim.step();
    v = std::max(0.0, v - mu * kG * h);
    x += h * v;
    if (v == 0 && stopped_at < 0) stopped_at = k;
    INFO("step " << k);
    REQUIRE(std::abs(sim.qd[3] - v) <= 1e-12);
    REQUIRE(std::abs(sim.q[4] - x) <= 1e-12);
    REQUIRE(std::abs(sim.qd[5]) <= 1e-12);  // no vertical motion
    REQUIRE(std::abs(sim.q[6]) <= 1e-12);
    REQUIRE(std::abs(sim.qd[4]) <= 1e-12);  // no sideways drift
  }
  // The continuum answer, stop time v0 / (mu g) = 0.510 s and distance v0^2 / (2 mu g) = 0.510 m,
  // within one step (time) and h v0 (distance, the scheme's O(h) error).
  CHECK(stopped_at > 0);
  CHECK(std::abs(stopped_at * h - v0 / (mu * kG)) <= h);
  CHECK(std::abs(x - v0 * v0 / (2 * mu * kG)) <= h * v0);
  // The last impulses: normal m g h, no friction once stopped.
  CHECK(std::abs(sim.impulses()[0] - 2.0 * kG * h) <= 1e-12);
  CHECK(std::abs(sim.impulses()[1]) <= 1e-12);
}

TEST_CASE("contact simulation: time-stepping with friction -- the 4-facet pyramid slows a diagonal slide by mu g h / sqrt(2)",
          "[contact_simulation]") {
  // Sliding at 45 degrees between t1 and t2 the slip points at the pyramid's edge between the
  // facets -t1 and -t2; the impulse of largest dissipation there is (mu p_n / 2)(-t1 - t2), of size
  // mu p_n / sqrt(2): the inscribed pyramid's friction along that direction. With 64 facets the
  // slip is at a facet, where the pyramid touches the cone: mu g h per step. Tolerances as above.
  const double mu = 0.4, h = 1e-3, v0 = 2.0;
  for (int facets : {4, 64}) {
    SlidingMass s(Vec3<double>(0, 0, 1), Vec3<double>(1, 0, 0), mu);
    s.c[0].facets = facets;
    VecX<double> qd = VecX<double>::Zero(6);
    qd[3] = qd[4] = v0 / std::sqrt(2.0);
    simulation::FrictionTimeSteppingSimulator<double> sim(s.m, s.c, rest_q(), qd, VecX<double>::Zero(6), h);
    for (int k = 0; k < 100; ++k) sim.step();
    const double loss = facets == 4 ? 100 * mu * kG * h / std::sqrt(2.0) : 100 * mu * kG * h;
    INFO(facets << " facets: speed " << sim.qd.segment<2>(3).norm());
    CHECK(std::abs(sim.qd.segment<2>(3).norm() - (v0 - loss)) <= 1e-12);
    CHECK(std::abs(sim.qd[3] - sim.qd[4]) <= 1e-12);  // still along the diagonal
  }
}

TEST_CASE("contact simulation: time-stepping with friction -- on an incline the mass sticks iff mu >= tan(theta)",
          "[contact_simulation]") {
  // Plane tilted by theta about y; downhill = t1. Stuck: qd stays 0 (to rounding, the impulses
  // cancel gravity's h g each step). Sliding: the speed after k steps is k h g (sin - mu cos), the
  // velocity is along downhill and its normal part is 0. 1e-12: 500 steps of O(1) roundings.
  const double theta = 0.3, h = 1e-3;
  const Vec3<double> n(-std::sin(theta), 0, std::cos(theta)), downhill(-std::cos(theta), 0, -std::sin(theta));
  for (double mu : {0.1, 0.8}) {
    SlidingMass s(n, downhill, mu);
    simulation::FrictionTimeSteppingSimulator<double> sim(s.m, s.c, rest_q(), VecX<double>::Zero(6),
                                                          VecX<double>::Zero(6), h);
    for (int k = 0; k < 500; ++k) sim.step();
    const double speed = mu < std::tan(theta) ? 500 * h * kG * (std::sin(theta) - mu * std::cos(theta)) : 0.0;
    const Vec3<double> v = sim.qd.tail<3>();
    INFO("mu " << mu << ": v = " << v.transpose());
    CHECK((v - speed * downhill).norm() <= 1e-12);
  }
}

TEST_CASE("contact simulation: time-stepping with mu = 0 equals the frictionless scheme (the bouncing ball)",
          "[contact_simulation]") {
  // The same impulse LCP in two forms: one row per contact solved by Dantzig's pivoting
  // (time_stepping.hpp), three rows solved by Lemke (friction_time_stepping.hpp; mu = 0 gives no
  // friction unknowns). 1.5 s at h = 1e-3 with four impacts: 1e-10 absolute on O(1) positions and
  // speeds (the two LCP solves differ by rounding, ~1e-15 per step, accumulated over 1500 steps
  // and amplified by the impacts' restitution, which is below 1).
  const cases::ContactScene sc = cases::bouncing_ball(0.1, 0.6, kG, 0.5, 0.6, 0.3);
  const VecX<double> tau = VecX<double>::Zero(6);
  simulation::TimeSteppingSimulator<double> plain(sc.model, sc.contacts, sc.q, sc.qd, tau, 1e-3);
  simulation::FrictionTimeSteppingSimulator<double> rough(sc.model, sc.contacts, sc.q, sc.qd, tau, 1e-3);
  plain.advance_to(1.5);
  rough.advance_to(1.5);
  CHECK(plain.steps == rough.steps);
  CHECK((plain.q - rough.q).lpNorm<Eigen::Infinity>() <= 1e-10);
  CHECK((plain.qd - rough.qd).lpNorm<Eigen::Infinity>() <= 1e-10);
  // And friction refused where it is malformed.
  PointContacts<double> bad = sc.contacts;
  bad[0].friction = -0.1;
  CHECK_THROWS_WITH(simulation::FrictionTimeSteppingSimulator<double>(sc.model, bad, sc.q, sc.qd, tau, 1e-3),
                    Catch::Contains("friction"));
}

// Housner's model of free rocking (Housner 1963): between impacts the block is a pendulum about
// its pivot edge, theta'' = -(3 g / (4 R)) sin(alpha - theta) with theta >= 0 the tilt onto that
// edge (I_A = 4/3 m R^2: the mass cancels), and each impact keeps r = 1 - 3/2 sin^2 alpha of the
// angular speed. From theta_0 at rest: the impact times and the speeds |omega^-| just before each,
// by RK4 at 1e-6 s (each flight rises to the tilt where energy runs out and falls back: twice the
// fall from that peak). Independent of the spatial algorithms, of contact and of the LCP.
struct HousnerImpacts {
  std::vector<double> t, omega;
};
HousnerImpacts housner_impacts(double b, double h, double g, double theta0, int impacts) {
  const double R = std::sqrt(b * b + h * h), alpha = std::atan2(b, h), k = 3 * g / (4 * R);
  const double r = 1 - 1.5 * std::sin(alpha) * std::sin(alpha), dt = 1e-6;
  auto fall = [&](double th, double& time) {  // from rest at th to theta = 0: returns |omega|
    double om = 0;
    time = 0;
    auto acc = [&](double x) { return -k * std::sin(alpha - x); };
    for (;;) {
      const double a1 = acc(th), k1 = om;
      const double a2 = acc(th + dt / 2 * k1), k2 = om + dt / 2 * a1;
      const double a3 = acc(th + dt / 2 * k2), k3 = om + dt / 2 * a2;
      const double a4 = acc(th + dt * k3), k4 = om + dt * a3;
      const double th_next = th + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4), om_next = om + dt / 6 * (a1 + 2 * a2 + 2 * a3 + a4);
      if (th_next <= 0) {  // linear interpolation within the last RK4 step
        const double s = th / (th - th_next);
        time += s * dt;
        return std::abs(om + s * (om_next - om));
      }
      th = th_next, om = om_next, time += dt;
    }
  };
  HousnerImpacts out;
  double time = 0, t = 0, om = fall(theta0, time);
  for (int i = 0; i < impacts; ++i) {
    t += time;
    out.t.push_back(t);
    out.omega.push_back(om);
    // after the impact: r om on the other edge, up to the peak where cos(alpha - th) =
    // cos(alpha) + (r om)^2 / (2 k), and back
    const double peak = alpha - std::acos(std::cos(alpha) + (r * om) * (r * om) / (2 * k));
    om = fall(peak, time);
    time *= 2;
  }
  return out;
}

// The rocking block under friction time-stepping at step h, released at rest tilted by theta_0
// onto its edge y = -b, to t_end. Records each impact (a step in which |omega| drops by more than
// 15% of itself, from above 0.1 rad/s: Housner's impacts drop it by 30%; between impacts gravity
// changes it by at most h 3 g / (4 R) = 3.3e-4 rad/s per step at h = 1e-4; the scheme's secondary
// landing a few steps after an impact, where the edge's approach speed was zeroed a little above
// the ground, is a further plastic impact of ~3% of |omega|) and checks Coulomb's law at every
// pressed corner of every step.
struct RockingRun {
  std::vector<double> t, before, ratio;
  double worst_coulomb = 0;  // largest violation of Coulomb's law (below)
  VecX<double> q, qd;
};
RockingRun rock(double b, double h, double d, double mass, double g, double mu, double theta0, double step, double t_end) {
  cases::ContactScene sc = cases::rocking_block(b, h, d, mass, g, mu, 0.0);
  // Tilted by theta_0 about the x axis through the pivot edge (y = -b, z = 0): the body-to-world
  // rotation R_x(theta_0) (quaternion scalar first), centre (0, -b, 0) + R_x(theta_0) (0, b, h).
  sc.q << std::cos(theta0 / 2), std::sin(theta0 / 2), 0, 0, 0, -b + b * std::cos(theta0) - h * std::sin(theta0),
      b * std::sin(theta0) + h * std::cos(theta0);
  simulation::FrictionTimeSteppingSimulator<double> sim(sc.model, sc.contacts, sc.q, sc.qd, VecX<double>::Zero(6), step);
  RockingRun run;
  double last_omega = 0;
  while (sim.t < t_end) {
    // the scheme's contact rows are those of the step's start, T3(q_k)
    const Eigen::Quaterniond body_to_world(sim.q[0], sim.q[1], sim.q[2], sim.q[3]);
    sim.step();
    const double w = sim.qd[0];
    if (std::abs(last_omega) > 0.1 && std::abs(last_omega) - std::abs(w) > 0.15 * std::abs(last_omega)) {
      run.t.push_back(sim.t);
      run.before.push_back(std::abs(last_omega));
      run.ratio.push_back(std::abs(w / last_omega));
    }
    last_omega = w;
    // Coulomb's law in the 4-facet pyramid along x and y, |p_x| + |p_y| <= mu p_n, at each corner
    // with p_n > 0: it sticks (no horizontal velocity after the step), or it slides with its
    // friction on the pyramid's boundary, opposing the slip. A violation is the sliding speed of a
    // corner whose friction is inside the pyramid (by more than 1e-9 of mu p_n) or pushes along the
    // slip. Sliding means faster than slip_tol = 1e-10 m/s: the velocities after the step carry
    // the LCP's rounding, ~ n eps max|b| = 24 x 2.2e-16 x 277 m/s (the far corners' -phi / h
    // targets) = 1.5e-12 m/s (measured up to 1.2e-12); a corner that slips where it should stick
    // moves at the impacts' speeds, 1e-2 to 1 m/s. (Corners do slide legitimately: in the few
    // steps of a secondary landing, p_n ~ 4e-7 N s bounds friction below what would stop them.)
    const double slip_tol = 1e-10;
    const Vec3<double> omega = sim.qd.head<3>(), v = sim.qd.tail<3>();
    for (int k = 0; k < 4; ++k) {
      const VecX<double>& p = sim.impulses();
      if (!(p[3 * k] > 0)) continue;
      const Vec3<double> u = body_to_world * (v + omega.cross(sc.contacts[k].point));
      const double slip = std::hypot(u[0], u[1]), bound = mu * p[3 * k];
      const double shortfall = (bound - std::abs(p[3 * k + 1]) - std::abs(p[3 * k + 2])) / bound;
      double violation = 0;
      if (slip > slip_tol && shortfall > 1e-9) violation = slip;  // sticking force, yet sliding
      if (slip > slip_tol && p[3 * k + 1] * u[0] + p[3 * k + 2] * u[1] > 0) violation = slip;  // friction along the slip
      run.worst_coulomb = std::max(run.worst_coulomb, violation);
    }
  }
  run.q = sim.q;
  run.qd = sim.qd;
  return run;
}

TEST_CASE("contact simulation: Housner's rocking block on its four corners rocks, loses 1 - 3/2 sin^2 alpha of its "
          "speed at every impact (first order in the step) and comes to rest (friction time-stepping)",
          "[contact_simulation]") {
  // cases::rocking_block (b = 0.1, h = 0.2: alpha = atan(1/2), R = sqrt(b^2 + h^2); d = 0.15),
  // its four corners the contacts, released at rest tilted by theta_0 = 0.3 alpha onto its edge
  // y = -b, with mu = 0.8 (above the 0.353 an impact needs: test_impact_dynamics.cpp). Each edge's
  // two corners have identical tangent-x rows, a degenerate LCP on which Lemke's ratio and
  // lexicographic ties must not be decided by rounding: before contact_dynamics/lemke.hpp's tie
  // tolerances took that into account, this scene ended in a ray within 3 ms (and, with one contact
  // per edge, at the third impact).
  const double b = 0.1, h = 0.2, d = 0.15, mass = 2, g = 9.81, mu = 0.8;
  const double alpha = std::atan2(b, h), theta0 = 0.3 * alpha, r = 1 - 1.5 * std::sin(alpha) * std::sin(alpha);
  const int impacts = 5;  // compared with Housner's model: |omega^-| >= 0.44 rad/s at all five
  const HousnerImpacts model = housner_impacts(b, h, g, theta0, impacts);
  // The model's first impact speed against energy conservation, sqrt(2 k (cos(alpha - theta_0) -
  // cos alpha)): the two witnesses agree to RK4's error at 1e-6 s.
  const double k = 3 * g / (4 * std::sqrt(b * b + h * h));
  const double w_energy = std::sqrt(2 * k * (std::cos(alpha - theta0) - std::cos(alpha)));
  CHECK(std::abs(model.omega[0] - w_energy) <= 1e-9 * w_energy);
  const double step = 1e-4;
  const RockingRun coarse = rock(b, h, d, mass, g, mu, theta0, step, 1.5);
  const RockingRun fine = rock(b, h, d, mass, g, mu, theta0, step / 2, 1.5);
  REQUIRE(coarse.t.size() >= static_cast<std::size_t>(impacts));
  REQUIRE(fine.t.size() >= static_cast<std::size_t>(impacts));
  for (int i = 0; i < impacts; ++i) {
    INFO("impact " << i << ": t = " << coarse.t[i] << " / " << fine.t[i] << " s (model " << model.t[i] << "), |omega^-| "
                   << coarse.before[i] << " / " << fine.before[i] << " (model " << model.omega[i] << "), ratio "
                   << coarse.ratio[i] << " / " << fine.ratio[i] << " (Housner " << r << ") at h / (h / 2)");
    // The scheme is first order: each impact is resolved with the rows of the step's start, up to
    // h |omega| ~ 2e-4 rad before the flat position, and the impulse of gravity in that step adds
    // to it. So the ratio's error halves with h (measured: ratios of the errors 0.49-0.51 over
    // these five impacts; second order would give 0.25, a wrong impact law no convergence to r),
    // and at h = 1e-4 it stays within 1% of r (measured: 0.1% to 0.5%, growing as |omega| shrinks and
    // gravity's impulse per step weighs more).
    const double e_coarse = std::abs(coarse.ratio[i] - r), e_fine = std::abs(fine.ratio[i] - r);
    CHECK(e_coarse <= 0.01 * r);
    CHECK(e_fine >= 0.4 * e_coarse);
    CHECK(e_fine <= 0.6 * e_coarse);
    // Times and speeds accumulate the ratios' errors from impact to impact; at h / 2 they stay
    // within 1.5 ms and 1.5% of the model's over the first five (measured: 1.1 ms and 0.9%, at
    // the fifth). A ratio 5% off Housner's would put the fifth impact's speed 20% off.
    CHECK(std::abs(fine.t[i] - model.t[i]) <= 1.5e-3);
    CHECK(std::abs(fine.before[i] - model.omega[i]) <= 0.015 * model.omega[i]);
  }
  // Coulomb's law held at every pressed corner of every step (1e-12 m/s: rounding of O(1) speeds).
  CHECK(coarse.worst_coulomb <= 1e-12);
  INFO("Coulomb: " << coarse.worst_coulomb << " / " << fine.worst_coulomb);
  CHECK(fine.worst_coulomb <= 1e-12);
  // At rest, flat on its four corners: the impacts accumulate in finite time (the speeds fall
  // geometrically, the flights with them), so 1.5 s is long after the last (measured: the last
  // impact above 0.1 rad/s before 0.75 s). Rest is exact up to rounding in the scheme.
  for (const RockingRun* run : {&coarse, &fine}) {
    CHECK(run->qd.norm() <= 1e-12);
    CHECK(std::abs(2 * std::atan2(run->q[1], run->q[0])) <= 1e-12);
    CHECK(std::abs(run->q[6] - h) <= 1e-12);
  }
}

TEST_CASE("contact simulation: the rocking block's first impact is the same in Reference as in double",
          "[contact_simulation]") {
  // The degenerate ties of the four-corner LCP (identical tangent-x rows per edge) reach Lemke in
  // Reference with rounding of 1e-50 instead of 1e-16, and ratios that are equal in exact
  // arithmetic (9.2e-22 apiece at one step) then differ at a level a purely relative tolerance
  // misses: so the Reference run is a witness of its own, not a repetition of the double one.
  // Both runs take the same steps; the first impact's ratio agrees to 1e-12 (rounding of the
  // double run, amplified by the ~2000 steps before it: measured 2.2e-16).
  const double b = 0.1, h = 0.2, d = 0.15, mass = 2, g = 9.81, mu = 0.8, step = 1e-4, t_end = 0.2;
  const double theta0 = 0.3 * std::atan2(b, h);
  const RockingRun in_double = rock(b, h, d, mass, g, mu, theta0, step, t_end);
  cases::ContactScene sc = cases::rocking_block(b, h, d, mass, g, mu, 0.0);
  sc.q << std::cos(theta0 / 2), std::sin(theta0 / 2), 0, 0, 0, -b + b * std::cos(theta0) - h * std::sin(theta0),
      b * std::sin(theta0) + h * std::cos(theta0);
  const Model<R> m = sc.model.cast<R>();
  const VecX<R> q = sc.q.unaryExpr([](double x) { return R(x); }), qd = VecX<R>::Zero(6);
  simulation::FrictionTimeSteppingSimulator<R> sim(m, cast_contacts<R>(sc.contacts), q, qd, VecX<R>::Zero(6), R(step));
  std::vector<double> ratio, t;
  R last_omega = R(0);
  while (sim.t < R(t_end)) {
    sim.step();
    const R w = sim.qd[0];
    if (abs_(last_omega) > R("0.1") && abs_(last_omega) - abs_(w) > R("0.15") * abs_(last_omega)) {
      t.push_back(double(sim.t));
      ratio.push_back(double(abs_(R(w / last_omega))));
    }
    last_omega = w;
  }
  REQUIRE(ratio.size() == 1);
  REQUIRE(in_double.ratio.size() == 1);
  INFO("Reference: impact at " << t[0] << " s, ratio " << ratio[0] << "; double: " << in_double.t[0] << " s, "
                               << in_double.ratio[0]);
  CHECK(std::abs(t[0] - in_double.t[0]) <= step / 2);
  INFO("difference " << std::abs(ratio[0] - in_double.ratio[0]));
  CHECK(std::abs(ratio[0] - in_double.ratio[0]) <= 1e-12);
}

}  // namespace test_contact_simulation
