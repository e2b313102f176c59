// Self-test of the Coulomb-friction contact oracle (reference/friction_oracle.hpp) against physics
// worked out by hand, with no algorithms/ code (nothing from friction_dynamics/ or
// contact_dynamics/): models are filled in field by field (verify/support/exact_model.hpp),
// rotations come from Eigen's Geometry module, and every expected value is a closed form: Newton's
// and Euler's equations about the centre of mass in world coordinates for one free body (a_c = F/m,
// wdot = I^-1 (r x F) at w = 0, plus the gyroscopic term otherwise), the friction law solved by
// hand (the incline's threshold mu = tan(theta), a rolling ball's 2/7, the pyramid's edge at
// distance mu lambda cos(pi/k)), Painleve's coefficient k(mu), never the oracle's own output.
//
// Tolerances (Reference, eps ~ 5e-51), as test_contact_oracle.cpp: one oracle call performs
// ~1e5-1e6 roundings of O(1) quantities with mild cancellation, so 1e-40 relative to the problem's
// scale (g, or the accelerations themselves when they are O(1)) leaves a margin of ~1e4; a wrong
// mode, sign or friction direction shows up at O(1e-2..1), and the threshold cases at 1e-30.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include "verify/support/exact_model.hpp"
#include "reference/friction_oracle.hpp"
#include "reference/reference_scalar.hpp"

namespace test_friction_oracle {  // unity build: this file's names stay its own

namespace {

using rbd::JointType;
using R = rbd::Reference;
using V3 = rbd::Vec3<R>;
using M3 = rbd::Mat3<R>;
using V6 = rbd::Vec6<R>;
using VX = rbd::VecX<R>;
using MX = rbd::MatX<R>;
using Q = Eigen::Quaternion<R>;
using Contact = rbd::PointContact<R>;
using Contacts = rbd::PointContacts<R>;
using Catch::Matchers::Contains;
namespace oracle = rbd::oracle;

const R kTol("1e-40");
const R kG = R(981) / R(100);

R fr(int a, int b) { return R(a) / R(b); }
V3 v3(const R& x, const R& y, const R& z) { return V3(x, y, z); }
Q qrot(const R& angle, const V3& axis) { return Q(Eigen::AngleAxis<R>(angle, axis.normalized())); }
M3 rot_z(const R& a) { return qrot(a, V3(0, 0, 1)).toRotationMatrix(); }
R maxabs(const VX& a) { return a.size() ? R(a.cwiseAbs().maxCoeff()) : R(0); }
R pi() {
  using std::acos;
  return acos(R(-1));
}

M3 inertia(int k) {
  M3 I;
  I << fr(3, 2) + fr(k, 10), fr(1, 10), -fr(1, 5),
       fr(1, 10), R(2) + fr(k, 7), fr(1, 7),
       -fr(1, 5), fr(1, 7), fr(5, 2);
  return I;
}

using Pose = rbd::verify::ExactPose<R>;
using BodySpec = rbd::verify::ExactBody<R>;
const Pose kId{M3::Identity(), V3::Zero()};

// ---- One free body, by hand (as test_contact_oracle.cpp) ----
// The model's variables of a free joint: q = (quaternion, origin position), qd = body twist
// (w_b, v_b) = (R^T w, R^T v_O), qdd = its apparent derivative (R^T wdot, R^T a_O - w_b x v_b).
struct FreeBody {
  R mass;
  V3 c;   // centre of mass, body coordinates
  M3 Ic;  // about the centre of mass, body coordinates
  Q u;    // orientation
  V3 xc;  // centre of mass, world
  M3 Rw() const { return u.toRotationMatrix(); }
  V3 xO() const { return xc - Rw() * c; }
  M3 Iw() const { return Rw() * Ic * Rw().transpose(); }
  VX q() const {
    const V3 o = xO();
    VX out(7);
    out << u.w(), u.x(), u.y(), u.z(), o[0], o[1], o[2];
    return out;
  }
  VX qd(const V3& w, const V3& vc) const {  // from world w and centre-of-mass velocity
    const V3 vO = vc + w.cross(V3(xO() - xc));
    VX out(6);
    out << Rw().transpose() * w, Rw().transpose() * vO;
    return out;
  }
  VX qdd(const V3& w, const V3& vc, const V3& wdot, const V3& ac) const {  // from world wdot, a_c
    const V3 dO = xO() - xc;
    const V3 aO = ac + wdot.cross(dO) + w.cross(w.cross(dO));
    const V3 wb = Rw().transpose() * w, vb = Rw().transpose() * V3(vc + w.cross(dO));
    VX out(6);
    out << Rw().transpose() * wdot, Rw().transpose() * aO - wb.cross(vb);
    return out;
  }
  // f_ext of a world force F through the centre of mass: [moment about O; force], body coordinates.
  rbd::ExternalForces<R> force_at_com(const V3& F) const {
    V6 fb;
    fb << c.cross(V3(Rw().transpose() * F)), Rw().transpose() * F;
    return {fb};
  }
  // Euler about the centre of mass with world moment Tc: I wdot + w x I w = Tc.
  V3 wdot(const V3& w, const V3& Tc) const {
    const M3 I = Iw();
    return I.inverse() * V3(Tc - w.cross(V3(I * w)));
  }
  rbd::Model<R> model(const V3& g) const {
    return rbd::verify::exact_model<R>({{-1, JointType::Free, v3(0, 0, 1), R(0), kId, mass, c, Ic}}, g,
                                       "friction_oracle_selftest");
  }
};

FreeBody box() {
  return FreeBody{fr(3, 2), v3(fr(1, 10), -fr(1, 5), fr(3, 10)), inertia(1), qrot(fr(4, 5), v3(1, -2, 1)),
                  v3(fr(1, 5), -fr(1, 10), fr(7, 10))};
}

// A contact of body 0 (point in body coordinates) against a plane of the base through the world
// point x0 with unit normal n; friction mu, tangent t1, k facets.
Contact contact(const V3& point, const V3& n, const V3& x0, const R& mu, const V3& t1, int k,
                const std::string& name = "ground") {
  Contact c;
  c.p = -1; c.s = 0; c.point = point; c.normal = n; c.offset = n.dot(x0);
  c.friction = mu; c.tangent = t1; c.facets = k; c.name = name;
  return c;
}

// The friction force of contact i in the world, from forces_out's (f_1, f_2) and the contact's t1, t2.
V3 friction_world(const MX& forces, const Contact& c, int i = 0) {
  return forces(1, i) * c.tangent + forces(2, i) * V3(c.normal.cross(c.tangent));
}

// ---- The incline shared by the first two tests ----
// Plane through the origin with normal n = (-sin, 0, cos) (sin = 3/5, cos = 4/5: tan(theta) = 3/4),
// gravity (0, 0, -g): the downhill unit vector is a = (-cos, 0, -sin), the tangential gravity g sin a
// and the normal one -g cos n. The pyramid has k = 6 facets turned so that d_2 = a: with b = n x a,
// t1 = cos(psi) a + sin(psi) b, t2 = n x t1 = cos(psi) b - sin(psi) a gives d_j = cos(2 pi j/6 + psi) a
// + sin(2 pi j/6 + psi) b, and psi = -2 pi/3 puts d_2 on a, d_5 = -a uphill.
struct Incline {
  R s = fr(3, 5), c = fr(4, 5);
  V3 n = v3(-s, 0, c), a = v3(-c, 0, -s), b = V3(n.cross(a)), g = v3(0, 0, -kG);
  V3 t1() const {
    using std::sqrt;
    return V3(-a / 2 - b * (sqrt(R(3)) / 2));  // cos(-2 pi/3) a + sin(-2 pi/3) b
  }
};

}  // namespace

// ---------------------------------------------------------------------------------------------
TEST_CASE("friction oracle: a particle on an incline sticks iff mu >= tan(theta), else slides at g (sin - mu cos)",
          "[friction_oracle]") {
  // The contact point is the box's centre of mass (so neither the normal nor the friction force has
  // a moment: the box cannot tip or spin, wdot = 0 at w = 0). At rest, sticking law. By hand:
  // lambda_n = m g cos; the friction needed to hold is m g sin uphill, inside P iff m g sin <= mu m g cos
  // (uphill is the vertex d_5 of P: the polygon reaches exactly mu lambda_n there). Beyond, the
  // maximum-dissipation force is mu lambda_n at the vertex opposite the acceleration, d_5 = -a, and
  // a_c = g (sin - mu cos) a. Both sides of the threshold mu = 3/4 are checked 1e-30 away from it.
  const Incline in;
  const FreeBody bx = box();
  const auto m = bx.model(in.g);
  const VX q = bx.q(), qd = VX::Zero(6), tau = VX::Zero(6);
  const R lam = bx.mass * kG * in.c;
  const R delta("1e-30");
  for (const R& mu : {R(fr(3, 4) + delta), R(1), R(fr(3, 4) - delta), fr(1, 2), fr(1, 5)}) {
    INFO("mu = " << mu);
    const Contacts cs = {contact(bx.c, in.n, bx.xc, mu, in.t1(), 6)};
    MX forces;
    const VX qdd = oracle::friction_forward_dynamics(m, cs, q, qd, tau, nullptr, &forces);
    REQUIRE(forces.rows() == 3);
    REQUIRE(forces.cols() == 1);
    const V3 ft = friction_world(forces, cs[0]);
    INFO("qdd = " << qdd.transpose() << "\nforces = " << forces.transpose());
    CHECK(abs(forces(0, 0) - lam) < kTol * lam);
    if (mu >= fr(3, 4)) {  // sticks: friction m g sin uphill, qdd = 0
      CHECK(maxabs(qdd) < kTol * kG);
      CHECK(maxabs(VX(ft + in.a * (bx.mass * kG * in.s))) < kTol * lam);
    } else {  // slides from rest along d_2 = a; friction mu lambda_n uphill
      const R acc = kG * (in.s - mu * in.c);
      REQUIRE(acc > 0);
      const VX expected = bx.qdd(V3::Zero(), V3::Zero(), V3::Zero(), V3(in.a * acc));
      CHECK(maxabs(VX(qdd - expected)) < kTol * kG);
      CHECK(maxabs(VX(qdd - expected)) < kTol * maxabs(expected) + R("1e-48") * kG);
      CHECK(maxabs(VX(ft + in.a * (mu * lam))) < kTol * lam);
      if (mu < fr(3, 4) - delta / 2) CHECK(maxabs(qdd) > delta / 10);  // not stuck, even 1e-30 below
    }
  }
}

TEST_CASE("friction oracle: a ball on an incline rolls at 5/7 g sin when mu >= 2/7 tan(theta), else slides and spins",
          "[friction_oracle]") {
  // A uniform ball (I_c = 2/5 m r^2) touching the incline at the foot of its centre, r_C = -r n from
  // the centre of mass, at rest. Rolling: the contact point's acceleration a_c + wdot x r_C = 0 with
  // m a_c = m g + lambda_n n - f a, I_c wdot = r_C x (-f a) gives f = 2/7 m g sin, a_c = 5/7 g sin a:
  // possible iff 2/7 m g sin <= mu m g cos (uphill = the vertex d_5 again). Otherwise the contact
  // point slides downhill (its acceleration g (sin - 7/2 mu cos) a) and the friction is mu lambda_n
  // at d_5: a_c = g (sin - mu cos) a, wdot = I_c^-1 (r_C x (-mu lambda_n a)). This checks the
  // tangential rows' angular part, which the particle of the previous test does not see.
  const Incline in;
  FreeBody ball{fr(5, 4), v3(fr(1, 5), fr(1, 10), -fr(1, 10)), M3::Identity(), qrot(-fr(7, 10), v3(2, 1, -1)),
                v3(fr(1, 2), fr(1, 4), fr(3, 2))};
  const R rad = fr(2, 5);
  ball.Ic = M3::Identity() * (fr(2, 5) * ball.mass * rad * rad);
  const auto m = ball.model(in.g);
  const V3 rC = -rad * in.n;                                       // contact point from the centre, world
  const V3 point = ball.c + ball.Rw().transpose() * rC;            // body coordinates
  const VX q = ball.q(), qd = VX::Zero(6), tau = VX::Zero(6);
  const R lam = ball.mass * kG * in.c;
  const R mu_roll = fr(2, 7) * in.s / in.c;  // 3/14
  for (const R& mu : {fr(1, 2), R(mu_roll + R("1e-30")), R(mu_roll - R("1e-30")), fr(1, 10)}) {
    INFO("mu = " << mu);
    const Contacts cs = {contact(point, in.n, V3(ball.xc + rC), mu, in.t1(), 6)};
    MX forces;
    const VX qdd = oracle::friction_forward_dynamics(m, cs, q, qd, tau, nullptr, &forces);
    const R f = mu >= mu_roll ? R(fr(2, 7) * ball.mass * kG * in.s) : R(mu * lam);
    const V3 F = lam * in.n - f * in.a;  // contact force on the ball
    const V3 ac = in.g + F / ball.mass, wd = ball.wdot(V3::Zero(), V3(rC.cross(F)));
    const VX expected = ball.qdd(V3::Zero(), V3::Zero(), wd, ac);
    INFO("qdd      " << qdd.transpose() << "\nexpected " << expected.transpose() << "\nforces " << forces.transpose());
    CHECK(maxabs(VX(qdd - expected)) < kTol * maxabs(expected));
    CHECK(abs(forces(0, 0) - lam) < kTol * lam);
    CHECK(maxabs(VX(friction_world(forces, cs[0]) + f * in.a)) < kTol * lam);
    if (mu >= mu_roll) {  // rolling: a_c = 5/7 g sin a and the contact point does not accelerate
      CHECK(maxabs(VX(ac - in.a * (fr(5, 7) * kG * in.s))) < kTol * kG);
      CHECK(maxabs(VX(ac + wd.cross(rC))) < kTol * kG);
    }
  }
}

TEST_CASE("friction oracle: a body sliding in any direction decelerates at mu lambda_n / m against its slip (kinetic "
          "law, exact direction)", "[friction_oracle]") {
  // The box on a tilted plane n = (2, 3, 6)/7, contact at its centre of mass, spinning (w != 0: the
  // centre's acceleration along the chart path carries the gyroscopic and centripetal terms), with
  // a world force F at the centre and gravity with a tangential part. The slip u is the centre's
  // velocity vc (n . vc = 0). Newton: m a_c = m g + F + lambda_n (n - mu u/|u|) with n . a_c = 0, so
  // lambda_n = -m n.g - n.F, independent of the slip direction; Euler: I wdot = -w x I w. Three slip
  // directions, none along the k = 3 pyramid's d_j (the kinetic law does not use the pyramid).
  const FreeBody bx = box();
  const V3 g = v3(fr(1, 3), -fr(1, 2), -kG), n = v3(2, 3, 6) / R(7);
  using std::sqrt;
  const V3 t1 = v3(3, -2, 0) / sqrt(R(13));
  const auto m = bx.model(g);
  const V3 F = v3(fr(1, 2), -fr(3, 10), fr(1, 5)), w = v3(fr(7, 10), -fr(1, 2), fr(3, 10));
  const rbd::ExternalForces<R> fext = bx.force_at_com(F);
  const R mu = fr(2, 5);
  const R lam = -bx.mass * n.dot(g) - n.dot(F);
  REQUIRE(lam > 1);
  const Contacts cs = {contact(bx.c, n, bx.xc, mu, t1, 3)};
  int directions = 0;
  for (const V3& v0 : {v3(fr(1, 5), fr(3, 5), -fr(2, 5)), v3(-fr(7, 10), fr(1, 10), fr(1, 2)), v3(fr(1, 1000), -fr(3, 1000), 0)}) {
    const V3 vc = v0 - n * n.dot(v0);  // tangential
    const V3 uhat = vc / vc.norm();
    INFO("vc = " << vc.transpose());
    MX forces;
    const VX qdd = oracle::friction_forward_dynamics(m, cs, bx.q(), bx.qd(w, vc), VX(VX::Zero(6)), &fext, &forces);
    const V3 ac = g + (F + lam * V3(n - mu * uhat)) / bx.mass;
    const VX expected = bx.qdd(w, vc, bx.wdot(w, V3::Zero()), ac);
    INFO("qdd      " << qdd.transpose() << "\nexpected " << expected.transpose());
    CHECK(maxabs(VX(qdd - expected)) < kTol * maxabs(expected));
    CHECK(abs(forces(0, 0) - lam) < kTol * lam);
    CHECK(maxabs(VX(friction_world(forces, cs[0]) + uhat * (mu * lam))) < kTol * lam);
    ++directions;
  }
  CHECK(directions == 3);
}

TEST_CASE("friction oracle: the pyramid is smaller than the cone between its edges (polyhedral static law)",
          "[friction_oracle]") {
  // The box at rest on the floor z = 0 (contact at its centre of mass, lambda_n = m g), pushed by a
  // horizontal world force F at angle alpha = atan2(4, 3), t1 = x. The friction that would hold it,
  // -F, points between the vertices d_j and d_j+1 of P (j = floor(angle(-F) / (2 pi/k))), whose edge
  // has outward normal nu (angle (2j+1) pi/k) and lies at distance mu lambda_n cos(pi/k) from 0. It
  // holds iff -F . nu <= mu lambda_n cos(pi/k), which with k = 4 or 8 is below |F| = mu m g: a round
  // cone would hold. Otherwise maximum dissipation puts f_t on that edge with a_t normal to it:
  // a = -c nu, f_t . nu = mu lambda_n cos(pi/k), so m c = -F . nu - mu lambda_n cos(pi/k); and f_t =
  // mu lambda_n cos(pi/k) nu - (F . tau) tau (tau along the edge) must lie on the edge:
  // |F . tau| <= mu lambda_n sin(pi/k) (checked).
  const FreeBody bx = box();
  const V3 g = v3(0, 0, -kG), n = v3(0, 0, 1);
  const auto m = bx.model(g);
  const R mu = fr(1, 2), lam = bx.mass * kG;
  struct Case { int k; R frac; V3 dir; bool slides; };
  using std::atan2;
  using std::cos;
  using std::floor;
  using std::sin;
  using std::sqrt;
  const V3 d34 = v3(fr(3, 5), fr(4, 5), 0), d71 = v3(7, 1, 0) / sqrt(R(50));
  // The last k = 4 case slides with f_t on the edge near its vertex d_2 (beta_2 ~ 0.9 mu lambda_n).
  for (const Case& cs_ : {Case{4, fr(85, 100), d34, true}, Case{4, fr(70, 100), d34, false},
                          Case{8, fr(97, 100), d34, true}, Case{8, fr(90, 100), d34, false},
                          Case{64, fr(97, 100), d34, false}, Case{4, fr(95, 100), d71, true}}) {
    INFO("k = " << cs_.k << ", |F| = " << cs_.frac << " mu m g along " << cs_.dir.transpose());
    const V3 dirF = cs_.dir;
    const V3 F = dirF * (cs_.frac * mu * lam);
    const rbd::ExternalForces<R> fext = bx.force_at_com(F);
    R ang = atan2(R(-F[1]), R(-F[0]));
    if (ang < 0) ang += 2 * pi();
    const int j = static_cast<int>(floor(R(ang / (2 * pi() / cs_.k))));
    const R th = R(2 * j + 1) * pi() / cs_.k;
    const V3 nu = v3(cos(th), sin(th), 0), tau = v3(-sin(th), cos(th), 0);
    const R ch = cos(R(pi() / cs_.k)), sh = sin(R(pi() / cs_.k));
    const bool slides = -F.dot(nu) > mu * lam * ch;
    REQUIRE(slides == cs_.slides);
    REQUIRE(F.norm() < mu * lam);  // a round cone would hold every case
    const Contacts cs = {contact(bx.c, n, bx.xc, mu, v3(1, 0, 0), cs_.k)};
    MX forces;
    const VX qdd = oracle::friction_forward_dynamics(m, cs, bx.q(), VX(VX::Zero(6)), VX(VX::Zero(6)), &fext, &forces);
    const V3 ft = friction_world(forces, cs[0]);
    INFO("qdd = " << qdd.transpose() << "\nforces = " << forces.transpose());
    CHECK(abs(forces(0, 0) - lam) < kTol * lam);
    if (!slides) {
      CHECK(maxabs(qdd) < kTol * kG);
      CHECK(maxabs(VX(ft + F)) < kTol * lam);
    } else {
      REQUIRE(abs(F.dot(tau)) <= mu * lam * sh);
      const R c = (-F.dot(nu) - mu * lam * ch) / bx.mass;
      const VX expected = bx.qdd(V3::Zero(), V3::Zero(), V3::Zero(), V3(-c * nu));
      CHECK(maxabs(VX(qdd - expected)) < kTol * maxabs(expected));
      CHECK(maxabs(VX(ft - (mu * lam * ch * nu - F.dot(tau) * tau))) < kTol * lam);
    }
  }
}

TEST_CASE("friction oracle: Painleve's rod, one solution below the critical mu, none or two above", "[friction_oracle]") {
  // A rod of mass m and length 2 l (I = m l^2 / 3 about the centre, perpendicular to its axis e;
  // I_axial = m l^2 / 20 keeps H regular), its lower end C' on the floor z = 0 at angle theta
  // (e = (cos, 0, sin), cos = 3/5, sin = 4/5), spinning at w = (0, omega, 0), the end sliding at
  // (-V, 0, 0) (centre velocity vc = v_end - w x r, r = -l e). The contact force is lambda_n Fh,
  // Fh = n - mu u/|u| = (mu, 0, 1). Classical 3D formulas: the end's normal acceleration is
  //   a_n = n . (a_c + wdot x r + w x (w x r)),  a_c = g + lambda_n Fh / m,
  //   wdot = I^-1 (-w x I w) + lambda_n I^-1 (r x Fh),
  // so a_n = d + k lambda_n with d = n . (g + I^-1(-w x I w) x r + w x (w x r)) = -g + omega^2 l sin,
  // k = n . (Fh/m + (I^-1 (r x Fh)) x r) = 1/m + (l^2/I) cos (cos - mu sin): negative beyond
  // mu_c = (1/m + l^2 cos^2/I) / (l^2 sin cos / I) = 13/9 here. Below mu_c with d < 0: lambda_n =
  // -d/k (slides, pressed). Above mu_c: d < 0 has no solution (lambda_n = -d/k < 0 and a_n = d < 0
  // without force), d > 0 has two (lambda_n = 0 and -d/k > 0).
  using std::atan2;
  const R mass = 2, l = fr(1, 2), V = 1;
  const R Ip = mass * l * l / 3;
  M3 Ic = M3::Zero();
  Ic(0, 0) = mass * l * l / 20;
  Ic(1, 1) = Ip;
  Ic(2, 2) = Ip;
  const R theta = atan2(R(4), R(3));
  FreeBody rod{mass, v3(fr(1, 10), -fr(1, 5), fr(3, 10)), Ic, qrot(-theta, v3(0, 1, 0)), V3::Zero()};
  const V3 e = rod.Rw() * v3(1, 0, 0);
  REQUIRE(abs(e[0] - fr(3, 5)) < kTol);
  REQUIRE(abs(e[2] - fr(4, 5)) < kTol);
  const R cth = e[0], sth = e[2];
  rod.xc = v3(fr(1, 5), -fr(1, 10), l * sth);
  const V3 g = v3(0, 0, -kG), n = v3(0, 0, 1), r = -l * e;
  const auto m = rod.model(g);
  const Contacts base = {contact(V3(rod.c - l * v3(1, 0, 0)), n, V3(rod.xc + r), R(0), v3(1, 0, 0), 4, "rod end")};
  const R mu_c = (1 / mass + l * l * cth * cth / Ip) / (l * l * sth * cth / Ip);
  CHECK(abs(mu_c - fr(13, 9)) < kTol);

  struct Sol { R d, k; VX qd; std::function<VX(const R&)> qdd; };
  auto solve_by_hand = [&](const R& mu, const R& omega) {
    const V3 w = v3(0, omega, 0), vend = v3(-V, 0, 0), vc = vend - w.cross(r);
    const V3 Fh = v3(mu, 0, 1);  // n - mu u/|u|, u = (-V, 0)
    const M3 Iinv = rod.Iw().inverse();
    const V3 wd0 = rod.wdot(w, V3::Zero());
    Sol s;
    s.d = n.dot(V3(g + wd0.cross(r) + w.cross(w.cross(r))));
    s.k = n.dot(V3(Fh / mass + V3(Iinv * r.cross(Fh)).cross(r)));
    // The scalar forms of the header comment, as a check of the 3D ones.
    CHECK(abs(s.d - (-kG + omega * omega * l * sth)) < kTol * kG);
    CHECK(abs(s.k - (1 / mass + l * l / Ip * cth * (cth - mu * sth))) < kTol);
    s.qd = rod.qd(w, vc);
    s.qdd = [=](const R& lam) { return rod.qdd(w, vc, V3(wd0 + Iinv * r.cross(Fh) * lam), V3(g + Fh * (lam / mass))); };
    return s;
  };
  const VX tau = VX::Zero(6);

  SECTION("below mu_c, pressed: lambda_n = -d/k") {
    for (const R& mu : {fr(1, 2), fr(13, 9) - fr(1, 100)}) {
      INFO("mu = " << mu);
      Contacts cs = base;
      cs[0].friction = mu;
      const Sol s = solve_by_hand(mu, R(0));
      REQUIRE(s.d < 0);
      REQUIRE(s.k > 0);
      const R lam = -s.d / s.k;
      MX forces;
      const VX qdd = oracle::friction_forward_dynamics(m, cs, rod.q(), s.qd, tau, nullptr, &forces);
      const VX expected = s.qdd(lam);
      INFO("lambda_n: oracle " << forces(0, 0) << ", by hand " << lam << "\nqdd " << qdd.transpose() << "\nexpected "
                               << expected.transpose());
      CHECK(abs(forces(0, 0) - lam) < kTol * lam);
      CHECK(abs(forces(1, 0) - mu * lam) < kTol * lam);  // f_t = -mu lambda_n u/|u| = +mu lambda_n t1
      CHECK(abs(forces(2, 0)) < kTol * lam);
      CHECK(maxabs(VX(qdd - expected)) < kTol * maxabs(expected));
    }
  }
  SECTION("below mu_c, the end pulled up by the spin (d > 0): it leaves the floor, lambda_n = 0") {
    Contacts cs = base;
    cs[0].friction = fr(1, 2);
    const Sol s = solve_by_hand(cs[0].friction, R(6));
    REQUIRE(s.d > 1);
    MX forces;
    const VX qdd = oracle::friction_forward_dynamics(m, cs, rod.q(), s.qd, tau, nullptr, &forces);
    CHECK(forces.cwiseAbs().maxCoeff() == 0);
    CHECK(maxabs(VX(qdd - s.qdd(R(0)))) < kTol * maxabs(s.qdd(R(0))));
  }
  SECTION("above mu_c, d < 0: no solution (std::domain_error)") {
    Contacts cs = base;
    cs[0].friction = 2;
    const Sol s = solve_by_hand(cs[0].friction, R(0));
    REQUIRE(s.d < 0);
    REQUIRE(s.k < 0);
    CHECK_THROWS_AS(oracle::friction_forward_dynamics(m, cs, rod.q(), s.qd, tau, nullptr), std::domain_error);
    CHECK_THROWS_WITH(oracle::friction_forward_dynamics(m, cs, rod.q(), s.qd, tau, nullptr),
                      Contains("no contact forces satisfy") && Contains("Painleve"));
  }
  SECTION("above mu_c, d > 0: two solutions, lambda_n = 0 and -d/k (std::logic_error)") {
    Contacts cs = base;
    cs[0].friction = 2;
    const Sol s = solve_by_hand(cs[0].friction, R(6));
    REQUIRE(s.d > 1);
    REQUIRE(s.k < 0);
    std::string what;
    bool other = false;
    try {
      oracle::friction_forward_dynamics(m, cs, rod.q(), s.qd, tau, nullptr);
    } catch (const std::domain_error&) {
      other = true;
    } catch (const std::invalid_argument&) {
      other = true;
    } catch (const std::logic_error& e) {
      what = e.what();
    }
    INFO(what);
    CHECK(!other);
    CHECK(what.find("several solutions with different accelerations") != std::string::npos);
    CHECK(what.find("contact 0: separate") != std::string::npos);
    CHECK(what.find("contact 0: slide") != std::string::npos);
    // The two motions, by hand: they differ at O(1), far above the agreement tolerance.
    CHECK(maxabs(VX(s.qdd(R(0)) - s.qdd(R(-s.d / s.k)))) > R(1));
  }
}

TEST_CASE("friction oracle: a stuck point foot on a spinning body is a spherical pivot", "[friction_oracle]") {
  // The box spinning (w generic) about its foot C', which touches a tilted plane and does not slip
  // (v_c = w x rho, rho = x_c - C'). If the foot sticks, C' does not accelerate at all (a_n = 0 and
  // a_t = 0 for a point fixed in the body: its tangential bias, the centripetal w x (w x -rho), is what
  // the friction must cancel), so the box moves as on a ball joint at C': Euler about the fixed point,
  // I_C wdot + w x I_C w = rho x m g with I_C = I + m (|rho|^2 1 - rho rho^T), a_c = wdot x rho +
  // w x (w x rho), and the foot carries F = m (a_c - g): lambda_n = n . F, f_t = F - lambda_n n,
  // required inside the pyramid (k = 5) for mu = 2.
  const FreeBody bx = box();
  const V3 g = v3(fr(1, 3), -fr(1, 2), -kG), n = v3(2, 3, 6) / R(7);
  using std::sqrt;
  const V3 t1 = v3(3, -2, 0) / sqrt(R(13));
  const auto m = bx.model(g);
  const V3 point = v3(fr(2, 5), -fr(3, 10), -fr(1, 2));
  const V3 rho = -(bx.Rw() * V3(point - bx.c));
  const V3 w = v3(fr(3, 5), -fr(2, 5), fr(9, 10)), vc = w.cross(rho);
  const M3 IC = bx.Iw() + bx.mass * (rho.squaredNorm() * M3::Identity() - rho * rho.transpose());
  const V3 wd = IC.inverse() * V3(rho.cross(V3(bx.mass * g)) - w.cross(V3(IC * w)));
  const V3 ac = wd.cross(rho) + w.cross(w.cross(rho));
  const V3 F = bx.mass * (ac - g);
  const R lam = n.dot(F), mu = 2;
  const V3 ft = F - lam * n;
  REQUIRE(lam > 1);
  REQUIRE(ft.norm() > fr(1, 10));                     // friction is needed
  REQUIRE(ft.norm() < mu * lam * cos(R(pi() / 5)));  // inside the pyramid (its inscribed circle)
  const Contacts cs = {contact(point, n, V3(bx.xc - rho), mu, t1, 5)};
  MX forces;
  const VX qdd = oracle::friction_forward_dynamics(m, cs, bx.q(), bx.qd(w, vc), VX(VX::Zero(6)), nullptr, &forces);
  const VX expected = bx.qdd(w, vc, wd, ac);
  INFO("qdd      " << qdd.transpose() << "\nexpected " << expected.transpose() << "\nforces " << forces.transpose());
  CHECK(maxabs(VX(qdd - expected)) < kTol * maxabs(expected));
  CHECK(abs(forces(0, 0) - lam) < kTol * lam);
  CHECK(maxabs(VX(friction_world(forces, cs[0]) - ft)) < kTol * lam);
}

TEST_CASE("friction oracle: a block stuck on a spinning, driven turntable turns with it", "[friction_oracle]") {
  // Body 0, a turntable on a revolute joint about the world z axis (its centre of mass on the axis,
  // I_zz about it), carries the plane z = h0 of its own frame; body 1, a free box whose centre of
  // mass C' touches that plane at horizontal radius rho, moves with the table (slip u = 0). The
  // table turns at Omega under a joint torque tau. If the box sticks it is carried: its centre's
  // acceleration is that of the table's point, a = Omegadot z x x_c - Omega^2 rho (horizontal part
  // rho of x_c), with no rotation (the force acts at its centre), and the horizontal force the table
  // exerts on it, f = m a, acts back on the table: I_zz Omegadot = tau - (rho x f)_z = tau - m |rho|^2
  // Omegadot, so Omegadot = tau / (I_zz + m |rho|^2), lambda_n = m g. Here the tangential rows'
  // bias (the plane's rotation: the centripetal and frame terms of C' seen from p) is what the
  // friction cancels, and the plane is on a moving body (the blocks of K between the two bodies).
  FreeBody bx = box();
  bx.xc = v3(fr(3, 5), -fr(2, 5), fr(1, 5));
  const R h0 = bx.xc[2];
  const R mT = 3, Omega = fr(6, 5), tauT = fr(7, 5), phi = fr(3, 10);
  const M3 IT = inertia(3);
  const V3 g = v3(0, 0, -kG);
  const auto m = rbd::verify::exact_model<R>({{-1, JointType::Revolute, v3(0, 0, 1), R(0), kId, mT, v3(0, 0, -fr(1, 10)), IT},
                                              {-1, JointType::Free, v3(0, 0, 1), R(0), kId, bx.mass, bx.c, bx.Ic}},
                                             g, "turntable");
  const V3 t1 = v3(4, -3, 0) / R(5);  // table coordinates
  Contact c = contact(bx.c, v3(0, 0, 1), v3(0, 0, h0), R(1), t1, 4, "on table");
  c.p = 0;
  c.s = 1;
  const Contacts cs = {c};
  const V3 z = v3(0, 0, 1), rho = v3(bx.xc[0], bx.xc[1], 0);
  const V3 vc = Omega * z.cross(bx.xc);
  VX q(8), qd(7), tau = VX::Zero(7);
  q << phi, bx.q();
  qd << Omega, bx.qd(V3::Zero(), vc);
  tau[0] = tauT;
  const R Omegadot = tauT / (IT(2, 2) + bx.mass * rho.squaredNorm());
  const V3 a = Omegadot * z.cross(bx.xc) - Omega * Omega * rho;
  const R lam = bx.mass * kG;
  REQUIRE(bx.mass * a.norm() < lam * cos(R(pi() / 4)) / 2);  // well inside the pyramid (mu = 1)
  MX forces;
  const VX qdd = oracle::friction_forward_dynamics(m, cs, q, qd, tau, nullptr, &forces);
  VX expected(7);
  expected << Omegadot, bx.qdd(V3::Zero(), vc, V3::Zero(), a);
  const M3 Rt = rot_z(phi);  // table coordinates -> world
  INFO("qdd      " << qdd.transpose() << "\nexpected " << expected.transpose() << "\nforces " << forces.transpose());
  CHECK(maxabs(VX(qdd - expected)) < kTol * maxabs(expected));
  CHECK(abs(forces(0, 0) - lam) < kTol * lam);
  CHECK(maxabs(VX(Rt * friction_world(forces, cs[0]) - bx.mass * a)) < kTol * lam);
}

TEST_CASE("friction oracle: a sled sliding on two feet transfers weight to the leading foot", "[friction_oracle]") {
  // The box at w = 0 sliding at -V s on a tilted plane (normal n, s a unit tangent), on two feet at
  // r_1,2 = +-a s - h n from its centre of mass. Both slide: F_i = lambda_i (n + mu s). With both
  // pressed, their normal accelerations n . (a_c + wdot x r_i) vanish; the moments r_i x F_i =
  // lambda_i (+-a + h mu) (s x n) must then cancel (else wdot x (r_1 - r_2) would have a normal part),
  // so lambda_1 (a + h mu) = lambda_2 (a - h mu), lambda_1 + lambda_2 = -m n . g: the leading foot
  // (at -a s) carries -m n.g (a + h mu) / 2a, the trailing one -m n.g (a - h mu) / 2a; wdot = 0 and
  // a_c = g + (lambda_1 + lambda_2)(n + mu s) / m. Two contacts: the blocks of K that couple them.
  const FreeBody bx = box();
  const V3 g = v3(fr(1, 3), -fr(1, 2), -kG), n = v3(2, 3, 6) / R(7);
  using std::sqrt;
  const V3 s = v3(3, -2, 0) / sqrt(R(13)), t1 = V3(n.cross(s));
  const auto m = bx.model(g);
  const R a = fr(1, 2), h = fr(3, 10), mu = fr(1, 2), V = fr(3, 2);
  const R N = -bx.mass * n.dot(g);
  const R lam1 = N * (a - h * mu) / (2 * a), lam2 = N * (a + h * mu) / (2 * a);
  REQUIRE(lam1 > 1);
  const V3 r1 = a * s - h * n, r2 = -a * s - h * n;
  const Contacts cs = {contact(V3(bx.c + bx.Rw().transpose() * r1), n, V3(bx.xc + r1), mu, t1, 4, "trailing"),
                       contact(V3(bx.c + bx.Rw().transpose() * r2), n, V3(bx.xc + r2), mu, t1, 4, "leading")};
  MX forces;
  const VX qdd =
      oracle::friction_forward_dynamics(m, cs, bx.q(), bx.qd(V3::Zero(), V3(-V * s)), VX(VX::Zero(6)), nullptr, &forces);
  const V3 ac = g + (lam1 + lam2) * V3(n + mu * s) / bx.mass;
  const VX expected = bx.qdd(V3::Zero(), V3(-V * s), V3::Zero(), ac);
  INFO("qdd      " << qdd.transpose() << "\nexpected " << expected.transpose() << "\nforces\n" << forces);
  CHECK(maxabs(VX(qdd - expected)) < kTol * maxabs(expected));
  CHECK(abs(forces(0, 0) - lam1) < kTol * N);
  CHECK(abs(forces(0, 1) - lam2) < kTol * N);
  CHECK(maxabs(VX(friction_world(forces, cs[0], 0) - mu * lam1 * s)) < kTol * N);
  CHECK(maxabs(VX(friction_world(forces, cs[1], 1) - mu * lam2 * s)) < kTol * N);
}

TEST_CASE("friction oracle: mu = 0 is frictionless, whatever the tangent", "[friction_oracle]") {
  // The sliding box of the kinetic test with mu = 0 and a tangent parallel to the normal (not read):
  // m a_c = m g + F + lambda_n n, lambda_n = -m n.g - n.F.
  const FreeBody bx = box();
  const V3 g = v3(fr(1, 3), -fr(1, 2), -kG), n = v3(2, 3, 6) / R(7);
  const auto m = bx.model(g);
  const V3 F = v3(fr(1, 2), -fr(3, 10), fr(1, 5)), w = v3(fr(7, 10), -fr(1, 2), fr(3, 10));
  const rbd::ExternalForces<R> fext = bx.force_at_com(F);
  const V3 v0 = v3(fr(1, 5), fr(3, 5), -fr(2, 5)), vc = v0 - n * n.dot(v0);
  const R lam = -bx.mass * n.dot(g) - n.dot(F);
  for (const V3& qdv : {vc, V3(V3::Zero())}) {  // sliding, and at rest (the sticking modes)
    const Contacts cs = {contact(bx.c, n, bx.xc, R(0), n, 4)};
    MX forces;
    const VX qdd = oracle::friction_forward_dynamics(m, cs, bx.q(), bx.qd(w, qdv), VX(VX::Zero(6)), &fext, &forces);
    const VX expected = bx.qdd(w, qdv, bx.wdot(w, V3::Zero()), V3(g + (F + lam * n) / bx.mass));
    CHECK(maxabs(VX(qdd - expected)) < kTol * maxabs(expected));
    CHECK(abs(forces(0, 0) - lam) < kTol * lam);
    CHECK(forces(1, 0) == 0);
    CHECK(forces(2, 0) == 0);
  }
}

TEST_CASE("friction oracle: duplicate sticking contacts (singular modes skipped, all accepted ones agree)",
          "[friction_oracle]") {
  // Three copies of the centre-of-mass contact of the incline test with mu = 2 (sticks: the
  // 0.6 m g uphill is well inside the k = 4 polygon of radius >= 2 cos(pi/4) lambda_n = 1.13 m g): many mode
  // combinations are singular (duplicate rows) and many accept (the load can be shared in any way):
  // they must all give qdd = 0, and the total force must be m g's opposite.
  const Incline in;
  const FreeBody bx = box();
  const auto m = bx.model(in.g);
  const Contact c = contact(bx.c, in.n, bx.xc, R(2), in.t1(), 4);
  const Contacts cs(3, c);  // 10^3 combinations
  MX forces;
  const VX qdd = oracle::friction_forward_dynamics(m, cs, bx.q(), VX(VX::Zero(6)), VX(VX::Zero(6)), nullptr, &forces);
  CHECK(maxabs(qdd) < kTol * kG);
  V3 total = V3::Zero();
  for (int i = 0; i < 3; ++i) total += forces(0, i) * in.n + friction_world(forces, cs[i], i);
  CHECK(maxabs(VX(total + bx.mass * in.g)) < kTol * bx.mass * kG);
}

TEST_CASE("friction oracle: refuses bad friction data, states out of contact and too many combinations",
          "[friction_oracle]") {
  const FreeBody bx = box();
  const V3 g = v3(0, 0, -kG), n = v3(0, 0, 1);
  const auto m = bx.model(g);
  const VX q = bx.q(), tau = VX::Zero(6);
  const VX qd = bx.qd(v3(0, 0, fr(1, 2)), v3(fr(1, 2), fr(1, 5), 0));
  const Contacts good = {contact(bx.c, n, bx.xc, fr(1, 2), v3(1, 0, 0), 4)};
  CHECK_NOTHROW(oracle::friction_forward_dynamics(m, good, q, qd, tau, nullptr));

  auto bad = [&](auto edit, const char* what) {
    Contacts cs = good;
    edit(cs[0]);
    INFO(what);
    CHECK_THROWS_AS(oracle::friction_forward_dynamics(m, cs, q, qd, tau, nullptr), std::invalid_argument);
    CHECK_THROWS_WITH(oracle::friction_forward_dynamics(m, cs, q, qd, tau, nullptr),
                      Contains("friction oracle") && Contains("contact 0 'ground'") && Contains(what));
  };
  bad([](Contact& c) { c.friction = -fr(1, 10); }, "friction coefficient mu");
  bad([](Contact& c) { c.friction = std::numeric_limits<R>::quiet_NaN(); }, "friction coefficient mu");
  bad([](Contact& c) { c.friction = std::numeric_limits<R>::infinity(); }, "friction coefficient mu");
  bad([](Contact& c) { c.facets = 2; }, "3 to 64 facets, not 2");
  bad([](Contact& c) { c.facets = 65; }, "3 to 64 facets, not 65");
  bad([](Contact& c) { c.slip_speed = 0; }, "slip_speed");
  bad([](Contact& c) { c.slip_speed = std::numeric_limits<R>::infinity(); }, "slip_speed");
  bad([](Contact& c) {
        c.tangent = v3(1, 0, R("1e-30"));
        c.tangent /= c.tangent.norm();
      },
      "not perpendicular to the normal");
  bad([](Contact& c) { c.tangent *= 1 + R("1e-30"); }, "not a unit vector");
  bad([](Contact& c) { c.tangent[1] = std::numeric_limits<R>::quiet_NaN(); }, "non-finite");
  // A tangent rounded to double would be refused too; mu = 0 does not read it.
  {
    Contacts cs = good;
    cs[0].friction = 0;
    cs[0].tangent = v3(0, 0, 5);
    CHECK_NOTHROW(oracle::friction_forward_dynamics(m, cs, q, qd, tau, nullptr));
  }
  // The contact oracle's own data checks still apply.
  {
    Contacts cs = good;
    cs[0].normal *= 1 + R("1e-30");
    CHECK_THROWS_AS(oracle::friction_forward_dynamics(m, cs, q, qd, tau, nullptr), std::invalid_argument);
    CHECK_THROWS_WITH(oracle::friction_forward_dynamics(m, cs, q, qd, tau, nullptr),
                      Contains("contact 0 'ground'") && Contains("the normal is not a unit vector"));
  }

  // Out of contact (1e-20, 20 orders above the tolerance): std::domain_error naming the contact.
  Contacts off = good;
  off[0].offset += R("1e-20");
  CHECK_THROWS_AS(oracle::friction_forward_dynamics(m, off, q, qd, tau, nullptr), std::domain_error);
  CHECK_THROWS_WITH(oracle::friction_forward_dynamics(m, off, q, qd, tau, nullptr),
                    Contains("friction oracle") && Contains("contact 0 'ground'") && Contains("not in contact"));
  const VX qd_bad = bx.qd(v3(0, 0, fr(1, 2)), v3(fr(1, 2), fr(1, 5), R("1e-20")));
  CHECK_THROWS_AS(oracle::friction_forward_dynamics(m, good, q, qd_bad, tau, nullptr), std::domain_error);

  // Three sticking contacts with 64 facets: 130^3 combinations > 20000.
  Contacts many(3, good[0]);
  for (auto& c : many) c.facets = 64;
  CHECK_THROWS_AS(oracle::friction_forward_dynamics(m, many, q, VX(VX::Zero(6)), tau, nullptr), std::invalid_argument);
  CHECK_THROWS_WITH(oracle::friction_forward_dynamics(m, many, q, VX(VX::Zero(6)), tau, nullptr),
                    Contains("130 x 130 x 130") && Contains("20000"));
  // Sliding, the same contacts have 2 modes each: accepted.
  CHECK_NOTHROW(oracle::friction_forward_dynamics(m, many, q, qd, tau, nullptr));
  // The contact oracle's limit of 12 contacts applies too.
  CHECK_THROWS_WITH(oracle::friction_forward_dynamics(m, Contacts(13, good[0]), q, qd, tau, nullptr),
                    Contains("nc <= 12"));
}

TEST_CASE("friction oracle: usable in double", "[friction_oracle]") {
  // Cast to double: the kinetic test's first direction (SLIDE), and the incline's particle sticking
  // (mu = 1: STICK) and sliding from rest (mu = 1/2: VERTEX). ~1e3 roundings of O(10) quantities,
  // with the mode tests at eps^0.8 = 3e-13 relative: 1e-12 of the scale.
  auto run = [](const FreeBody& bx, const V3& g, const Contacts& cs, const V3& w, const V3& vc, const VX& expected) {
    const auto m = bx.model(g).cast<double>();
    rbd::VecX<double> q = bx.q().cast<double>();
    oracle::normalize_quaternions(m, q);
    const rbd::VecX<double> qdd = oracle::friction_forward_dynamics<double>(
        m, rbd::cast_contacts<double>(cs), q, bx.qd(w, vc).cast<double>(), rbd::VecX<double>::Zero(6), nullptr);
    const double err = (qdd - expected.cast<double>()).cwiseAbs().maxCoeff();
    INFO("qdd " << qdd.transpose() << "\nerror " << err);
    CHECK(err < 1e-12 * 10);
  };
  const FreeBody bx = box();
  {
    const V3 g = v3(fr(1, 3), -fr(1, 2), -kG), n = v3(2, 3, 6) / R(7);
    using std::sqrt;
    const V3 t1 = v3(3, -2, 0) / sqrt(R(13));
    const V3 w = v3(fr(7, 10), -fr(1, 2), fr(3, 10)), v0 = v3(fr(1, 5), fr(3, 5), -fr(2, 5)), vc = v0 - n * n.dot(v0);
    const R mu = fr(2, 5), lam = -bx.mass * n.dot(g);
    run(bx, g, {contact(bx.c, n, bx.xc, mu, t1, 5)}, w, vc,
        bx.qdd(w, vc, bx.wdot(w, V3::Zero()), V3(g + lam * V3(n - mu * vc / vc.norm()) / bx.mass)));
  }
  const Incline in;
  for (const R& mu : {R(1), fr(1, 2)}) {
    const R acc = mu >= fr(3, 4) ? R(0) : R(kG * (in.s - mu * in.c));
    run(bx, in.g, {contact(bx.c, in.n, bx.xc, mu, in.t1(), 6)}, V3::Zero(), V3::Zero(),
        bx.qdd(V3::Zero(), V3::Zero(), V3::Zero(), V3(in.a * acc)));
  }
}

}  // namespace test_friction_oracle
