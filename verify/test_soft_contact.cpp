// Compliant contact, Featherstone section 11.8 (algorithms/contact_simulation/soft_contact*.hpp):
//  a. a block dropped on a soft surface against the closed forms of its flight, its damped
//     contact oscillation, the release (when -K p - D pdot reaches 0, before p returns to 0) and
//     its exit velocity; after release the integrated z against the book's z0 exp(-K (t - t0) / D);
//  b. resting equilibrium: the static deflection p = -m g / K;
//  c. friction: a push below mu m g sticks with the patch deflected by F / K_t; a push above it
//     slides with |f_t| = mu f_n against the slip and acceleration (F - mu m g) / m;
//  d. f_n is never negative (a pull-off), and p > z gives no force at all;
//  e. the force on the plane's body is the opposite of the point's, on the same line;
//  f. the force law in Reference against a hand computation to 40 digits, and a whole evaluation
//     (kinematics, law, ABA) in Reference against Newton's law for a point mass;
//  g. refusals: bad parameters, a bad step, NaN in the state.
#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "cases/contact_scenes.hpp"
#include "contact_simulation/soft_contact.hpp"
#include "reference/reference_scalar.hpp"
#include "verify/support/message_of.hpp"
#include "verify/support/soft_drop.hpp"

namespace test_soft_contact {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

using namespace rbd;
using simulation::SoftContactParameters;
using simulation::SoftContactSimulator;
using simulation::Vec2;
using R = Reference;

SoftContactParameters<double> soft(double Kn, double Dn, double Kt, double Dt) { return {Kn, Dn, Kt, Dt}; }

// A ball (free joint, mass m, radius r, gravity g along -z) whose contact point is its centre,
// against the plane z = r: the same gap as its lowest point on z = 0, but a force through the
// centre, so the ball never turns and moves as a point mass (a point fixed on its surface would
// tip it under friction; model/contact.hpp). Resting with its patch pressed in to depth `press`.
cases::ContactScene point_mass(double m, double r, double g, double press, double mu) {
  cases::ContactScene sc = cases::bouncing_ball(r, m, g, 0.0, 0.0, 0.0);
  sc.contacts[0].point = Vec3<double>::Zero();
  sc.contacts[0].offset = r;
  sc.contacts[0].friction = mu;
  sc.q[6] = r + press;
  return sc;
}

TEST_CASE("soft contact: a dropped block meets the closed forms of flight, contact, release and the patch's recovery",
          "[soft_contact]") {
  // A block (prismatic z) of mass 1 kg dropped from h0 = 5 cm onto K = 1e4 N/m, D = 20 N s/m
  // (sqrt(K / m) = 100 rad/s, damping ratio 0.1), step h = 1e-4 s (h sqrt(K / m) = 0.01).
  const double m = 1, g = 9.81, K = 1e4, D = 20, h0 = 0.05, h = 1e-4, height = 0.1;
  const cases::ContactScene sc = cases::block_stack(1, {m}, height, g);
  VecX<double> q = sc.q;
  q[0] += h0;  // the block's bottom h0 above the ground: p = h0
  SoftContactSimulator<double> sim(sc.model, sc.contacts, q, sc.qd, VecX<double>::Zero(1), h, {soft(K, D, 1e4, 100)});
  // Closed forms: touch at t_c = sqrt(2 h0 / g) with speed v0 = sqrt(2 g h0); then the
  // oscillation above until the force -K p - D pdot reaches 0 at t_c + tau_r, with p_r < 0 and
  // pdot_r = -K p_r / D > 0 (at release the damper balances the spring); then flight from there.
  const double tc = std::sqrt(2 * h0 / g), v0 = std::sqrt(2 * g * h0);
  const verify::SoftImpact osc(m, g, K, D, v0);  // the contact phase, verify/support/soft_drop.hpp
  const double tau_r = osc.release(), tr = tc + tau_r, pr = osc.p(tau_r), vr = osc.pdot(tau_r);
  REQUIRE(pr < 0);                                          // released while still pressed in
  REQUIRE(std::abs(vr - (-K * pr / D)) <= 1e-12 * vr);      // the release condition, as a check of the root
  double t_on = -1, v_on = 0, t_off = -1;
  bool was = false;
  while (sim.t < tr + 0.05) {
    sim.step();
    const bool now = sim.touching(0);
    if (now && !was) { t_on = sim.t; v_on = sim.qd[0]; }
    if (!now && was) { t_off = sim.t; break; }
    // f_n never negative, and only in contact.
    CHECK(sim.forces()[0].normal >= 0);
    if (!now) CHECK(sim.forces()[0].normal == 0);
    was = now;
  }
  INFO("onset " << t_on << " (closed " << tc << "), release step end " << t_off << " (closed " << tr << ")");
  CHECK(sim.onsets == 1);
  // Flight under constant gravity is a quadratic, which RK4 integrates exactly; the onset is then
  // bisected to eps of the step. Left: rounding of t over ~1000 steps (~1e3 * 1e-17 s) and of q.
  CHECK(std::abs(t_on - tc) <= 1e-12);
  CHECK(std::abs(v_on + v0) <= 1e-12);
  // Release is not located: it shows at the first step end after the force reaches 0, so
  // 0 <= t_off - t_r <= h (plus 1e-9 s for the contact phase's own error moving the root:
  // RK4's (w h)^4 / 120 ~ 1e-10 relative error in p and pdot over a few periods, divided by the
  // force's slope at release).
  CHECK(t_off - tr >= -1e-9);
  CHECK(t_off - tr <= h + 1e-9);
  // The exit: from t_r on, free flight. The step containing the release integrates a force with a
  // kink (SoftImpact::kink_velocity_bound: twice Simpson's Delta h^2 / 24), plus 1e-8 for the
  // smooth phases' RK4 error.
  const double dv = osc.kink_velocity_bound(h) + 1e-8;
  const double s = t_off - tr;
  INFO("exit speed " << vr << " m/s; velocity error " << sim.qd[0] - (vr - g * s) << " (bound " << dv << ")");
  CHECK(std::abs(sim.qd[0] - (vr - g * s)) <= dv);
  // Position: the same velocity error over at most one step, plus the flight's exact parabola.
  CHECK(std::abs((sim.q[0] - height / 2) - (pr + vr * s - g * s * s / 2)) <= dv * h + 1e-10);
  // After release the patch recovers with zdot = -K z / D (Eq. 11.76 with f_n = 0), which the
  // book solves as z = z0 exp(-K (t - t0) / D). Integrated from the simulator's own (t0, z0)
  // (the first step end after release), RK4's error per step is (h K / D)^5 / 120 of the value at
  // the step's start, exp(h K / D) times that of the value at its end, over (t - t0) / h steps:
  // with h K / D = 0.05 and K (t - t0) / D <= 25, at most 25 * 0.05^4 / 120 * exp(0.05) = 1.37e-6
  // relative; bound 2e-6.
  const double t0 = sim.t, z0 = sim.z[0];
  CHECK(z0 < 0);
  double worst = 0;
  while (sim.t < t0 + 25 * D / K) {
    sim.step();
    REQUIRE_FALSE(sim.touching(0));
    const double closed = z0 * std::exp(-K * (sim.t - t0) / D);
    worst = std::max(worst, std::abs(sim.z[0] - closed) / std::abs(closed));
    CHECK(sim.forces()[0].normal == 0);
    CHECK(sim.points()[0].gap > sim.z[0]);  // the block stays above the recovering patch
  }
  INFO("worst relative error of the integrated z against z0 exp(-K (t - t0) / D): " << worst);
  CHECK(worst <= 2e-6);
  // From the exact release (t_r, p_r) instead: the release step adds the kink's error in z, whose
  // zddot jumps by |K v_r / D - g|: at most (that) h^2 / 24, twice for the bound, carried on
  // decaying with the same exponential.
  const double dz = 2 * std::abs(K * vr / D - g) * h * h / 24 * std::exp(-K * (sim.t - tr) / D);
  CHECK(std::abs(sim.z[0] - pr * std::exp(-K * (sim.t - tr) / D)) <= dz + 1e-6 * std::abs(sim.z[0]));
}

TEST_CASE("soft contact: a resting body settles at the static deflection p = -m g / K", "[soft_contact]") {
  // A point-mass ball (free joint) of 2 kg put on the undeformed surface at rest, critically
  // damped (D = 2 sqrt(K m)): the deflection decays like exp(-sqrt(K / m) t) (1 + sqrt(K / m) t),
  // below 1e-30 after 1 s. Left: rounding, a few eps relative.
  const double m = 2, g = 9.81, K = 2e4, D = 2 * std::sqrt(K * m);
  const cases::ContactScene sc = point_mass(m, 0.1, g, 0.0, 0.5);
  SoftContactSimulator<double> sim(sc.model, sc.contacts, sc.q, sc.qd, VecX<double>::Zero(6), 1e-4,
                                   {soft(K, D, 1e4, 100)});
  sim.advance_to(1.0);
  const double p_static = -m * g / K;
  INFO("p = " << sim.points()[0].gap << ", closed " << p_static);
  CHECK(sim.touching(0));
  CHECK(std::abs(sim.points()[0].gap - p_static) <= 1e-12 * std::abs(p_static));
  CHECK(std::abs(sim.forces()[0].normal - m * g) <= 1e-12 * m * g);
  CHECK(sim.z[0] == sim.points()[0].gap);  // the patch rides on the body
  CHECK(sim.qd.norm() <= 1e-12);
  CHECK(sim.q.head<4>() == Eigen::Vector4d(1, 0, 0, 0));  // a force through the centre: no turn
}

TEST_CASE("soft contact: a push below mu m g sticks, with the patch deflected by F / K_t", "[soft_contact]") {
  // 1 kg at its static deflection, mu = 0.5, pushed with F = 0.5 mu m g along (cos 0.6, sin 0.6),
  // oblique to t1 so that both tangent axes carry force. While stuck, xdot = v (Eq. 11.77 with
  // f_t = f_stick) and m xdd + D_t xd + K_t x = F: damping ratio D_t / (2 sqrt(K_t m)) = 0.5, so
  // the largest |f_stick| overshoots F by 16% -- still below mu f_n -- and the transient
  // exp(-D_t t / 2m) = exp(-50 t) is below 1e-30 after 1.5 s. At rest: xdot = 0 gives
  // f_t = -K_t x, and the body's balance F + f_t = 0, so x = F / K_t (the patch is dragged along
  // the push) and f_t = -F. Left: rounding (1e-10 relative covers a few thousand steps).
  const double m = 1, g = 9.81, mu = 0.5, K = 1e4, Kt = 1e4, Dt = 100, a = 0.6;
  const cases::ContactScene sc = point_mass(m, 0.1, g, -m * g / K, mu);
  const double F = 0.5 * mu * m * g;
  const Vec2<double> dir(std::cos(a), std::sin(a));
  VecX<double> tau = VecX<double>::Zero(6);
  tau.segment<2>(3) = F * dir;  // the free joint's force (body axes = world axes: it never turns)
  SoftContactSimulator<double> sim(sc.model, sc.contacts, sc.q, sc.qd, tau, 1e-4, {soft(K, 200, Kt, Dt)});
  bool ever_slid = false;
  while (sim.t < 1.5) {
    sim.step();
    ever_slid = ever_slid || sim.forces()[0].sliding;
    CHECK(sim.forces()[0].tangential.norm() <= mu * sim.forces()[0].normal);
  }
  CHECK_FALSE(ever_slid);
  const Vec2<double> x = sim.tangential_deflection(0), ft = sim.forces()[0].tangential;
  INFO("x = " << x.transpose() << ", F / K_t = " << (F / Kt * dir).transpose());
  CHECK((x - F / Kt * dir).norm() <= 1e-10 * F / Kt);
  CHECK((ft + F * dir).norm() <= 1e-10 * F);
  // Stuck: the body has moved exactly as far as the patch was dragged.
  CHECK((sim.q.segment<2>(4) - sc.q.segment<2>(4) - x).norm() <= 1e-10 * F / Kt);
}

TEST_CASE("soft contact: a push above mu m g slides with |f_t| = mu f_n against the slip, at (F - mu m g) / m",
          "[soft_contact]") {
  // F = 2 mu m g along (cos 0.6, sin 0.6). By symmetry x, v and f_stick stay on that line, so once
  // |f_stick| exceeds mu f_n the disc of Eq. 11.79's extension gives f_t = -mu f_n v / |v| and the
  // acceleration is constant, (F - mu m g) / m -- which RK4 integrates exactly. A square clamp
  // (each tangent axis bounded by mu f_n alone) would give a larger, misdirected force here.
  // Checked from 0.3 s (slip starts within ~2 ms) on. Tolerances: f_n = m g to rounding, so
  // 1e-12 relative on the force and acceleration; the velocity gain over 0.2 s to 1e-10.
  const double m = 1, g = 9.81, mu = 0.5, K = 1e4, a = 0.6;
  const cases::ContactScene sc = point_mass(m, 0.1, g, -m * g / K, mu);
  const double F = 2 * mu * m * g, accel = (F - mu * m * g) / m;
  const Vec2<double> dir(std::cos(a), std::sin(a));
  VecX<double> tau = VecX<double>::Zero(6);
  tau.segment<2>(3) = F * dir;
  SoftContactSimulator<double> sim(sc.model, sc.contacts, sc.q, sc.qd, tau, 1e-4, {soft(K, 200, 1e4, 100)});
  sim.advance_to(0.3);
  const Vec2<double> v1 = sim.qd.segment<2>(3);
  const double t1 = sim.t;
  while (sim.t < 0.5) {
    sim.step();
    const auto& f = sim.forces()[0];
    const Vec2<double> slip = sim.points()[0].slip;
    REQUIRE(f.sliding);
    CHECK(std::abs(f.tangential.norm() - mu * f.normal) <= 1e-12 * mu * f.normal);
    CHECK((f.tangential / f.tangential.norm() + slip / slip.norm()).norm() <= 1e-12);
    CHECK((sim.qdd().segment<2>(3) - accel * dir).norm() <= 1e-12 * accel);
  }
  const Vec2<double> gain = sim.qd.segment<2>(3) - v1;
  CHECK((gain - accel * (sim.t - t1) * dir).norm() <= 1e-10 * accel);
}

TEST_CASE("soft contact: f_n is never negative, and p > z gives no force", "[soft_contact]") {
  // Pull-off: a 1 kg block resting at its static deflection, pulled up with 3 m g from t = 0. The
  // force falls to 0 without going below, the contact is released, and the block leaves.
  const double m = 1, g = 9.81, K = 1e4, D = 20;
  const cases::ContactScene sc = cases::block_stack(1, {m}, 0.1, g);
  VecX<double> q = sc.q;
  q[0] -= m * g / K;
  SoftContactSimulator<double> sim(sc.model, sc.contacts, q, sc.qd, VecX<double>::Constant(1, 3 * m * g), 1e-4,
                                   {soft(K, D, 1e4, 100)});
  CHECK(sim.touching(0));
  CHECK(std::abs(sim.forces()[0].normal - m * g) <= 1e-12 * m * g);
  bool released = false;
  while (sim.t < 0.1) {
    sim.step();
    CHECK(sim.forces()[0].normal >= 0);
    released = released || !sim.touching(0);
  }
  CHECK(released);
  CHECK(sim.forces()[0].normal == 0);
  CHECK(sim.points()[0].gap > sim.z[0]);
  CHECK(sim.qd[0] > 0);

  // The law alone. Apart (p > z), even approaching fast and with the patch deflected both ways:
  // no force, and the patch relaxes on its own: zdot = -K_n z / D_n, xdot = -K_t x / D_t.
  const SoftContactParameters<double> k = soft(K, D, 2e3, 40);
  const Vec2<double> x(1e-3, -2e-3), v(3, 4);
  const auto apart = simulation::soft_contact_force<double>(k, 0.8, -1e-3, -100, v, -2e-3, x);
  CHECK(apart.normal == 0);
  CHECK(apart.tangential == Vec2<double>::Zero());
  CHECK(apart.z_rate == -K * -2e-3 / D);
  CHECK(apart.x_rate == Vec2<double>(-2e3 * x / 40));
  // The body below the patch's free position (p < z, as within a step before the simulator's
  // onset is located): the patch is pushed down to the body, so the spring is compressed by p,
  // not z: f_n = -K p - D pdot = 10 + 20 * 0.5 = 20 N (Eq. 11.75 with z = p).
  const auto pressed = simulation::soft_contact_force<double>(k, 0.8, -1e-3, -0.5, v, -0.5e-3, x);
  CHECK(pressed.normal == -K * -1e-3 - D * -0.5);
  // Touching but pulling away (-K p - D pdot < 0): clamped to 0, not negative; the tangential
  // force with it (the disc has radius mu * 0).
  const auto pulling = simulation::soft_contact_force<double>(k, 0.8, -1e-3, 2, v, -1e-3, x,
                                                                 simulation::SoftContactCase::touching);
  CHECK(pulling.normal == 0);
  CHECK(pulling.tangential == Vec2<double>::Zero());
  CHECK(pulling.z_rate == -K * -1e-3 / D);
}

TEST_CASE("soft contact: the plane's body gets the opposite force on the same line", "[soft_contact]") {
  // Two free balls in space (no gravity): A carries the plane z = 0.1 (its frame), B the point at
  // its centre, pressed 1 mm in and sliding. The contact is their only force, so the total
  // momentum does not change: m_A a_A + m_B a_B = 0; and A, pushed at B's centre, not its own,
  // turns: I_A wdot_A = r x (-F) with r = C' - A's centre (both start without spin, so no
  // gyroscopic term). Tolerance: rounding of a few operations on O(10) numbers.
  ModelBuilder b("two balls");
  b.gravity(Vec3<double>::Zero());
  Joint<double> j;
  j.type = JointType::Free;
  const double mA = 2, mB = 0.5, IA = 0.03;
  b.add_body("A", -1, j, Transform<double>{}, mA, Vec3<double>::Zero(), Mat3<double>::Identity() * IA);
  b.add_body("B", -1, j, Transform<double>{}, mB, Vec3<double>::Zero(), Mat3<double>::Identity() * 0.01);
  const Model<double> model = b.finish();
  PointContacts<double> cs(1);
  cs[0].p = 0;
  cs[0].s = 1;
  cs[0].offset = 0.1;
  cs[0].friction = 0.3;
  VecX<double> q(14), qd = VecX<double>::Zero(12);
  q << 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0.3, -0.2, 0.099;
  qd.segment<3>(9) << 0.4, 0.1, -0.05;  // B slides and presses in
  SoftContactSimulator<double> sim(model, cs, q, qd, VecX<double>::Zero(12), 1e-4, {soft(1e4, 20, 1e3, 10)});
  const VecX<double>& a = sim.qdd();
  const auto& f = sim.forces()[0];
  REQUIRE(f.normal > 0);
  REQUIRE(f.tangential.norm() > 0);
  CHECK((mA * a.segment<3>(3) + mB * a.segment<3>(9)).norm() <= 1e-12 * (f.normal + f.tangential.norm()));
  const Vec3<double> F(f.tangential[0], f.tangential[1], f.normal), r(0.3, -0.2, 0.099);
  CHECK((IA * a.segment<3>(0) - r.cross(-F)).norm() <= 1e-12 * F.norm());
  CHECK(a.segment<3>(6).norm() <= 1e-12);  // B is pushed through its centre
}

TEST_CASE("soft contact: the force law and a whole evaluation in Reference equal hand computations to 40 digits",
          "[soft_contact]") {
  // By hand: K_n = 1000, D_n = 10, p = z = -0.002, pdot = -0.1: f_n = 2 + 1 = 3, zdot = -(-2 + 3) / 10
  // = -0.1 (= pdot: the patch follows). K_t = 500, D_t = 5, x = (0.001, 0), v = (0.5, -0.8):
  // f_stick = -(0.5, 0) - (2.5, -4) = (-3, 4), |f_stick| = 5 > mu f_n = 0.5 * 3 = 1.5: sliding,
  // f_t = 1.5 (-3, 4) / 5 = (-0.9, 1.2); xdot = -((0.5, 0) + (-0.9, 1.2)) / 5 = (0.08, -0.24).
  // Tolerance 1e-40: a few dozen roundings of ~1e-50 each on O(1) numbers.
  const R tol("1e-40");
  const auto touching = simulation::SoftContactCase::touching;
  const SoftContactParameters<R> k{R(1000), R(10), R(500), R(5)};
  const Vec2<R> x(R("0.001"), R(0)), v(R("0.5"), R("-0.8"));
  const auto f = simulation::soft_contact_force<R>(k, R("0.5"), R("-0.002"), R("-0.1"), v, R("-0.002"), x, touching);
  CHECK(abs_(f.normal - R(3)) <= tol);
  CHECK(abs_(f.z_rate - R("-0.1")) <= tol);
  CHECK(f.sliding);
  CHECK(abs_(f.tangential[0] - R("-0.9")) <= tol);
  CHECK(abs_(f.tangential[1] - R("1.2")) <= tol);
  CHECK(abs_(f.x_rate[0] - R("0.08")) <= tol);
  CHECK(abs_(f.x_rate[1] - R("-0.24")) <= tol);
  // On one axis the disc is Eq. 11.79 itself: f_stick = -500 * 0.001 - 5 * 0.5 = -3 < -mu f_n,
  // so f_t = -mu f_n = -1.5; with mu = 2 (limit 6) it sticks: f_t = f_stick = -3.
  const Vec2<R> x1(R("0.001"), R(0)), v1(R("0.5"), R(0));
  const auto slide1 = simulation::soft_contact_force<R>(k, R("0.5"), R("-0.002"), R("-0.1"), v1, R("-0.002"), x1, touching);
  CHECK(abs_(slide1.tangential[0] + R("1.5")) <= tol);
  CHECK(slide1.tangential[1] == R(0));
  const auto stick1 = simulation::soft_contact_force<R>(k, R(2), R("-0.002"), R("-0.1"), v1, R("-0.002"), x1, touching);
  CHECK_FALSE(stick1.sliding);
  CHECK(abs_(stick1.tangential[0] + R(3)) <= tol);

  // The same contact through the model: a point-mass ball (mass 2, free joint) pressed to
  // p = -0.002 and moving with (0.5, -0.8, -0.1), tangent t1 = x, so t2 = z x x = y. The
  // simulator's first evaluation (contact_gaps, the RNEA's velocities, the law, the ABA) must
  // give Newton's a = (f_t1, f_t2, f_n) / m + gravity, and no angular acceleration.
  const cases::ContactScene sc = point_mass(2.0, 0.1, 9.81, 0.0, 0.5);
  const Model<R> m = sc.model.cast<R>();
  PointContacts<R> cs = cast_contacts<R>(sc.contacts);
  cs[0].offset = R("0.1");
  cs[0].friction = R("0.5");
  VecX<R> q = VecX<R>::Zero(7), qd = VecX<R>::Zero(6), xs = VecX<R>::Zero(2);
  q[0] = R(1);
  q[6] = R("0.098");
  qd[3] = R("0.5");
  qd[4] = R("-0.8");
  qd[5] = R("-0.1");
  xs[0] = R("0.001");
  SoftContactSimulator<R> sim(m, cs, q, qd, VecX<R>::Zero(6), R("1e-4"), {k}, VecX<R>(), xs);
  REQUIRE(sim.touching(0));
  const R mass = m.I[0].m;
  const VecX<R>& a = sim.qdd();
  CHECK(abs_(a[3] - R("-0.9") / mass) <= tol);
  CHECK(abs_(a[4] - R("1.2") / mass) <= tol);
  CHECK(abs_(a[5] - (R(3) / mass + m.gravity[2])) <= tol);
  CHECK(a.head<3>().norm() <= tol);
}

TEST_CASE("soft contact: bad parameters, a bad step and a non-finite state are refused, naming the field",
          "[soft_contact]") {
  const cases::ContactScene sc = point_mass(1, 0.1, 9.81, 0.0, 0.5);
  const Model<double>& m = sc.model;
  const VecX<double> tau = VecX<double>::Zero(6);
  auto make = [&](const PointContacts<double>& cs, const VecX<double>& q, const VecX<double>& qd, double h,
                  const SoftContactParameters<double>& k, const VecX<double>& z0 = VecX<double>()) {
    return verify::message_of<std::invalid_argument>(
        [&] { SoftContactSimulator<double>(m, cs, q, qd, tau, h, {k}, z0); });
  };
  const SoftContactParameters<double> good = soft(1e4, 20, 1e4, 100);
  auto expect = [](const std::string& msg, const std::string& what) {
    INFO(msg);
    CHECK(msg.find(what) != std::string::npos);
  };
  SoftContactParameters<double> bad = good;
  bad.normal_stiffness = -5;
  expect(make(sc.contacts, sc.q, sc.qd, 1e-4, bad), "contact 0 'ball on ground': normal_stiffness K_n = -5");
  bad = good;
  bad.normal_damping = 0;
  expect(make(sc.contacts, sc.q, sc.qd, 1e-4, bad), "contact 0 'ball on ground': normal_damping D_n = 0");
  bad = good;
  bad.tangential_stiffness = std::nan("");
  expect(make(sc.contacts, sc.q, sc.qd, 1e-4, bad), "tangential_stiffness K_t = nan must be finite and > 0");
  bad = good;
  bad.tangential_damping = INFINITY;
  expect(make(sc.contacts, sc.q, sc.qd, 1e-4, bad), "tangential_damping D_t = inf");
  PointContacts<double> neg = sc.contacts;
  neg[0].friction = -0.1;
  expect(make(neg, sc.q, sc.qd, 1e-4, good), "contact 0 'ball on ground': friction mu = -0.1");
  expect(make(sc.contacts, sc.q, sc.qd, 0, good), "the step h = 0 must be finite and > 0");
  VecX<double> q = sc.q;
  q[5] = std::nan("");
  expect(make(sc.contacts, q, sc.qd, 1e-4, good), "q0 has a non-finite entry (index 5)");
  VecX<double> qd = sc.qd;
  qd[2] = INFINITY;
  expect(make(sc.contacts, sc.q, qd, 1e-4, good), "qd0 has a non-finite entry (index 2)");
  expect(make(sc.contacts, sc.q, sc.qd, 1e-4, good, VecX<double>::Constant(1, std::nan(""))),
         "z0 has a non-finite entry (index 0)");
  // A step far beyond RK4's stability (a block held between floor and ceiling by K = 1e6 N/m:
  // h sqrt(K / m) = 10, h K / D = 1000) blows up: refused once the state is non-finite, with the
  // time and a hint, never a silent NaN.
  cases::ContactScene held = cases::block_stack(1, {1.0}, 0.1, 9.81);
  PointContact<double> top = held.contacts[0];
  top.point = Vec3<double>(0, 0, 0.05);  // the block's top against the plane z = 0.1, normal down
  top.normal = -Vec3<double>::UnitZ();
  top.offset = -0.1;
  top.name = "block under ceiling";
  held.contacts.push_back(top);
  const SoftContactParameters<double> stiff = soft(1e6, 10, 1e4, 10);
  SoftContactSimulator<double> wild(held.model, held.contacts, held.q, held.qd, VecX<double>::Zero(1), 0.01, {stiff, stiff});
  const std::string blow = verify::message_of<std::domain_error>([&] { wild.advance_to(10); });
  expect(blow, "became non-finite at t = ");
  expect(blow, "too large for the contacts? RK4 needs h sqrt(K / m) < 2.8 and h K / D < 2.7");
}

}  // namespace test_soft_contact
