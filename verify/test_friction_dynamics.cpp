// Contact dynamics with Coulomb friction (friction_dynamics/) beyond gate 1 (test_exactness.cpp
// runs both variants against reference/friction_oracle.hpp on every verify case), against
// closed forms derived here with 3-vectors, no spatial algebra:
//  a. a point mass on a plane inclined by theta, downhill along a pyramid edge: it sticks for
//     mu >= tan(theta) and otherwise slides with g (sin theta - mu cos theta), on both sides of
//     the threshold;
//  b. kinetic friction is exact in every direction: a point mass sliding on level ground
//     decelerates at mu g against its velocity, whatever the pyramid;
//  c. the pyramid is not the cone: a sideways push of |F| < mu m g, which the round cone would
//     hold, slides the mass when F is outside the 4-facet pyramid, with the friction force at the
//     maximally dissipating point of the pyramid's edge; turning t1 by 45 degrees moves the edge
//     and changes the answer; with 64 facets the same push is held;
//  d. lift-off: pulled up harder than gravity, no force acts, friction included;
//  e. Painleve's paradox: a rod sliding on one end. The normal acceleration's coefficient of
//     lambda_n is k = 1/M_z + r_x (r_x - mu_s r_z) / I (derived in the test case); for small mu it
//     is positive and lambda_n = -d / k; past mu's critical value, with the rod pressed (d < 0),
//     no contact force exists and every variant says so;
//  f. with mu = 0 everywhere the friction LCP is the frictionless one: qdd equals
//     contact_dynamics' on the verify cases' contacts (a different LCP, N = nc + sum (k + 1)
//     unknowns instead of nc, and different code for its rows);
//  g. refusals: mu < 0, fewer than 3 facets, a tangent not perpendicular to the normal, NaN;
//  h. the solo12 quadruped standing on its four feet: joint torques designed (with the oracle's
//     rows and C, not the variants') so that given foot forces hold the robot still; every variant
//     returns qdd = 0 and those forces; with one foot's mu below its force ratio that foot slips,
//     and the variants agree with the friction oracle.
//
// Precision: Reference carries ~50 digits; each case is a few hundred roundings on O(1) numbers
// and a pivoting solve of size <= 14 with O(1) condition, so results agree to ~47 digits:
// relative 1e-40 leaves ~1e6 of margin, while a wrong friction direction or facet errs at O(0.1).
#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "cases/contacts.hpp"
#include "cases/registry.hpp"
#include "cases/urdf_robots.hpp"
#include "cases/states.hpp"
#include "contact_dynamics/contact_lemke.hpp"
#include "friction_dynamics/variants.hpp"
#include "model/contact.hpp"
#include "reference/friction_oracle.hpp"
#include "reference/reference_scalar.hpp"
#include "verify/support/close40.hpp"
#include "verify/support/message_of.hpp"

namespace test_friction_dynamics {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

using namespace rbd;
using R = Reference;

namespace {

const R kRel40("1e-40");

using verify::close40;
using verify::max_abs;

template <class F> void for_each_variant(F&& f) {
  [&]<class... V>(std::tuple<V...>*) { (f.template operator()<V>(), ...); }(static_cast<FrictionVariants*>(nullptr));
}

template <class V, class S>
VecX<S> solve(const Model<S>& m, const PointContacts<S>& c, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& tau,
              FrictionWorkspace<S>& ws) {
  VecX<S> out(m.nv);
  V::template run<S>(m, c, q, qd, tau, nullptr, out, ws);
  return out;
}

const double kG = 9.81, kMass = 2.0;

// A point mass: one body on a free joint, its contact point at its centre of mass, so a contact
// force has no moment and the body's rotation is untouched. At the identity orientation with no
// spin, qd = (omega, v) and qdd = (omega_dot, a) in body = world coordinates.
Model<R> point_mass() {
  ModelBuilder b("point mass");
  b.gravity(Vec3<double>(0, 0, -kG));
  Joint<double> j;
  j.type = JointType::Free;
  b.add_body("mass", -1, j, Transform<double>{}, kMass, Vec3<double>::Zero(), Mat3<double>::Identity() * 0.1);
  return b.finish().cast<R>();
}

VecX<R> at_rest_q() {
  VecX<R> q = VecX<R>::Zero(7);
  q[0] = R(1);
  return q;
}

// The contact of the point mass's centre on the plane through it with this normal and t1.
PointContacts<R> plane_contact(const Vec3<R>& normal, const Vec3<R>& t1, const R& mu, int facets) {
  PointContacts<R> cs(1);
  cs[0].s = 0;
  cs[0].normal = normal;
  cs[0].tangent = t1;
  cs[0].friction = mu;
  cs[0].facets = facets;
  cs[0].name = "point mass on plane";
  return cs;
}

VecX<R> linear_acceleration(const Vec3<R>& a) {
  VecX<R> out = VecX<R>::Zero(6);
  out.tail<3>() = a;
  return out;
}

}  // namespace

TEST_CASE("friction: a point mass on an incline sticks iff mu >= tan(theta), else slides at g (sin - mu cos) (Reference)",
          "[friction_dynamics]") {
  const Model<R> m = point_mass();
  const VecX<R> q = at_rest_q(), zero = VecX<R>::Zero(6);
  using std::cos;
  using std::sin;
  using std::tan;
  const R theta = R("0.3");
  const Vec3<R> n(-sin(theta), R(0), cos(theta)), downhill(-cos(theta), R(0), -sin(theta));
  const R t = tan(theta);  // 0.3093...
  for (const R& mu : {R("0.1"), R(t - R("1e-6")), R(t + R("1e-6")), R("0.8")}) {
    for (int facets : {4, 6}) {  // downhill is d_0 in both pyramids
      const PointContacts<R> cs = plane_contact(n, downhill, mu, facets);
      const R slide = mu < t ? R(kG * (sin(theta) - mu * cos(theta))) : R(0);
      const VecX<R> expected = linear_acceleration(Vec3<R>(downhill * slide));
      for_each_variant([&]<class V>() {
        FrictionWorkspace<R> ws(m);
        const VecX<R> qdd = solve<V>(m, cs, q, zero, zero, ws);
        INFO(V::name << " mu = " << static_cast<double>(mu) << " facets " << facets);
        CHECK(close40(qdd, expected));
        CHECK(abs(ws.f[0] - R(kMass * kG) * cos(theta)) <= kRel40 * R(kMass * kG));  // lambda_n = m g cos theta
      });
    }
  }
}

TEST_CASE("friction: kinetic friction decelerates a sliding mass at mu g against its velocity in any direction (Reference)",
          "[friction_dynamics]") {
  const Model<R> m = point_mass();
  const VecX<R> q = at_rest_q(), zero = VecX<R>::Zero(6);
  const R mu("0.45");
  for (int facets : {3, 4, 7}) {
    for (const Vec3<R>& v : {Vec3<R>(R(1), R(2), R(0)), Vec3<R>(R("-0.3"), R("0.05"), R(0)), Vec3<R>(R(0), R(-3), R(0))}) {
      const PointContacts<R> cs = plane_contact(Vec3<R>::UnitZ(), Vec3<R>::UnitX(), mu, facets);
      VecX<R> qd = zero;
      qd.tail<3>() = v;
      using std::sqrt;
      const VecX<R> expected = linear_acceleration(Vec3<R>(v * (-mu * R(kG) / sqrt(v.squaredNorm()))));
      for_each_variant([&]<class V>() {
        FrictionWorkspace<R> ws(m);
        const VecX<R> qdd = solve<V>(m, cs, q, qd, zero, ws);
        INFO(V::name << " facets " << facets << " v = " << v.transpose().cast<double>());
        CHECK(ws.sliding[0]);
        CHECK(close40(qdd, expected));
      });
    }
  }
}

TEST_CASE("friction: the pyramid is not the cone -- a push inside the cone but outside the pyramid slides (Reference)",
          "[friction_dynamics]") {
  // mu lambda_n = mu m g = 0.4 * 2 * 9.81 = 7.848. The push F = (6, 4, 0) has |F| = 7.21 < 7.848:
  // the round cone would hold it. The 4-facet pyramid with t1 = x has vertices at +-7.848 on the
  // x and y axes; F's friction must lie on the edge f_x + f_y = -7.848 (6 + 4 > 7.848), and
  // maximum dissipation puts a_t along that edge's outward normal (1, 1): F + f_t = m s (1, 1)
  // gives s = (F_x + F_y - mu m g) / (2 m) and f_t = m s (1, 1) - F, inside the edge's segment.
  // With t1 at 45 degrees the vertices are on the diagonals and the edges are |f_x|, |f_y| <=
  // 7.848 / sqrt 2 = 5.549: only F_x exceeds it, so a_t = ((F_x - 5.549) / m, 0). With 64 facets
  // the pyramid's inscribed radius is 7.848 cos(pi / 64) = 7.839 > |F|: held.
  const Model<R> m = point_mass();
  const VecX<R> q = at_rest_q(), zero = VecX<R>::Zero(6);
  const R mu("0.4"), mg = R(kMass * kG), Fx(6), Fy(4);
  VecX<R> tau = zero;
  tau[3] = Fx;
  tau[4] = Fy;
  using std::sqrt;
  const R s = (Fx + Fy - mu * mg) / R(2 * kMass);
  const R half_side = mu * mg / sqrt(R(2));
  struct Case {
    Vec3<R> t1;
    int facets;
    Vec3<R> a;
    const char* what;
  };
  const std::vector<Case> cases = {
      {Vec3<R>::UnitX(), 4, Vec3<R>(s, s, R(0)), "4 facets, t1 = x: slides along (1, 1)"},
      {Vec3<R>(R(1), R(1), R(0)) / sqrt(R(2)), 4, Vec3<R>((Fx - half_side) / R(kMass), R(0), R(0)),
       "4 facets, t1 at 45 degrees: slides along x"},
      {Vec3<R>::UnitX(), 64, Vec3<R>::Zero(), "64 facets: held"}};
  for (const Case& c : cases) {
    const PointContacts<R> cs = plane_contact(Vec3<R>::UnitZ(), c.t1, mu, c.facets);
    for_each_variant([&]<class V>() {
      FrictionWorkspace<R> ws(m);
      const VecX<R> qdd = solve<V>(m, cs, q, zero, tau, ws);
      INFO(V::name << ": " << c.what);
      CHECK(close40(qdd, linear_acceleration(c.a)));
    });
  }
}

TEST_CASE("friction: a mass pulled up harder than gravity lifts off with no contact force (Reference)",
          "[friction_dynamics]") {
  const Model<R> m = point_mass();
  const VecX<R> q = at_rest_q(), zero = VecX<R>::Zero(6);
  VecX<R> tau = zero;
  tau[3] = R(5);
  tau[5] = R(30);  // > m g = 19.62
  const PointContacts<R> cs = plane_contact(Vec3<R>::UnitZ(), Vec3<R>::UnitX(), R("0.9"), 4);
  for_each_variant([&]<class V>() {
    FrictionWorkspace<R> ws(m);
    const VecX<R> qdd = solve<V>(m, cs, q, zero, tau, ws);
    INFO(V::name);
    CHECK(close40(qdd, linear_acceleration(Vec3<R>(R(5) / R(kMass), R(0), R(30) / R(kMass) - R(kG)))));
    CHECK(max_abs<R>(ws.f) <= kRel40 * R(kMass * kG));  // zero up to the pivots' rounding
  });
}

TEST_CASE("friction: Painleve's paradox -- a sliding rod with large mu has no contact force; with small mu, the closed form",
          "[friction_dynamics]") {
  // A rod of half-length l and mass m_r on a planar chain: carriage x (mass 1), carriage z (mass
  // 1), then the rod on a revolute joint about y through its centre (I = m_r l^2 / 3). H is
  // diag(M_x, M_z, I) with M_x = 2 + m_r, M_z = 1 + m_r (the rod's centre is on the axis). The
  // rod is turned by -theta, so its end (-l, 0, 0) is at r = (-l cos theta, 0, -l sin theta) from
  // the centre, on the ground z = 0. A force F = lambda (mu_s, 0, 1) at the end (mu_s = -mu
  // sign(u_x), the kinetic law) gives a_x = F_x / M_x, a_z = F_z / M_z - g and, about y,
  // I alpha = r_z F_x - r_x F_z; the end's vertical acceleration is
  //   a_n = a_z - alpha r_x - omega^2 r_z = d + k lambda,
  //   d = -g - omega^2 r_z,   k = 1 / M_z + r_x (r_x - mu_s r_z) / I.
  // k < 0 needs mu_s > 0 (the end sliding towards -x) and mu_s > (1/M_z + r_x^2/I) / (r_x r_z / I).
  const double l = 0.5, mr = 2.0;
  ModelBuilder b("sliding rod");
  b.gravity(Vec3<double>(0, 0, -kG));
  Joint<double> px, pz, ry;
  px.type = pz.type = JointType::Prismatic;
  px.axis = Vec3<double>::UnitX();
  pz.axis = Vec3<double>::UnitZ();
  ry.type = JointType::Revolute;
  ry.axis = Vec3<double>::UnitY();
  const double I = mr * l * l / 3;
  b.add_body("carriage x", -1, px, Transform<double>{}, 1.0, Vec3<double>::Zero(), Mat3<double>::Identity() * 0.01);
  b.add_body("carriage z", 0, pz, Transform<double>{}, 1.0, Vec3<double>::Zero(), Mat3<double>::Identity() * 0.01);
  b.add_body("rod", 1, ry, Transform<double>{}, mr, Vec3<double>::Zero(), Vec3<double>(0.001, I, I).asDiagonal());
  const Model<R> m = b.finish().cast<R>();
  using std::cos;
  using std::sin;
  const R theta = R("0.5235987755982988730771072305465838140328615665625176368291574320");  // pi / 6
  const R rx = -R(l) * cos(theta), rz = -R(l) * sin(theta);
  VecX<R> q(3);
  q << R(0), -rz, -theta;  // the end on the ground
  cases::ContactSpec spec;
  spec.s = 2;
  spec.point = Vec3<double>(-l, 0, 0);
  spec.tangent = Vec3<double>::UnitX();
  const R Mx(2 + mr), Mz(1 + mr), Ir(I);
  const R mu_crit = (R(1) / Mz + rx * rx / Ir) / (rx * rz / Ir);  // about 2.245
  REQUIRE(mu_crit > R(2));
  REQUIRE(mu_crit < R(3));
  const VecX<R> zero = VecX<R>::Zero(3);
  for (const double mu : {0.3, 3.0}) {
    for (const double ux : {-1.0, 1.0}) {
      spec.friction = mu;
      const PointContacts<R> cs = cases::place_contacts<R>(m, q, {spec});
      VecX<R> qd = zero;
      qd[0] = R(ux);  // omega = 0: the end slides at u_x = ux
      const R mu_s = ux < 0 ? R(mu) : R(-mu);
      const R k = R(1) / Mz + rx * (rx - mu_s * rz) / Ir, d = R(-kG);
      for_each_variant([&]<class V>() {
        FrictionWorkspace<R> ws(m);
        INFO(V::name << " mu = " << mu << " u_x = " << ux << " k = " << static_cast<double>(k));
        if (k > R(0)) {
          const VecX<R> qdd = solve<V>(m, cs, q, qd, zero, ws);
          const R lambda = -d / k;
          VecX<R> expected(3);
          expected << mu_s * lambda / Mx, lambda / Mz - R(kG), (rz * mu_s * lambda - rx * lambda) / Ir;
          CHECK(close40(qdd, expected));
        } else {
          const std::string what = verify::message_of<std::domain_error>([&] { solve<V>(m, cs, q, qd, zero, ws); });
          CHECK(what.find("no solution") != std::string::npos);
        }
      });
      if (mu == 3.0 && ux < 0) CHECK(k < R(0));  // the paradox case is reached
    }
  }
}

TEST_CASE("friction: with mu = 0 everywhere the friction variants equal the frictionless contact family", "[friction_dynamics]") {
  // Double, on every verify case: the frictionless LCP (nc unknowns, contact_lemke) against the
  // friction family with mu = 0 (three rows per contact, its own LCP build). Both are backward
  // stable solves of the same problem; their largest measured difference over these cases and
  // seeds is 2.7e-14 relative (123 eps, humanoid seed 1). 1e-11 leaves a margin of ~370, while a
  // friction force that is not zero, or a wrong tangent row leaking into the normal one, moves
  // qdd by O(1e-2..1).
  for (const auto& entry : cases::verify_cases()) {
    const Model<double> m = entry.build();
    for (int seed = 1; seed <= 3; ++seed) {
      cases::State x = cases::random_state(m, seed);
      for (auto& c : x.contacts) c.friction = 0;
      const PointContacts<double> cs = cases::place_contacts<double>(m, x.q, x.contacts);
      const VecX<double> qd = cases::frictional_velocity<double>(m, cs, x.q, x.qd, x.contacts);
      ContactWorkspace<double> cws(m);
      VecX<double> expected(m.nv);
      ContactLemke::run<double>(m, cs, x.q, qd, x.tau, &x.f_ext, expected, cws);
      for_each_variant([&]<class V>() {
        FrictionWorkspace<double> ws(m);
        VecX<double> qdd(m.nv);
        V::template run<double>(m, cs, x.q, qd, x.tau, &x.f_ext, qdd, ws);
        INFO(V::name << " on " << m.name << " seed " << seed);
        CHECK((qdd - expected).lpNorm<Eigen::Infinity>() <= 1e-11 * std::max(1.0, expected.lpNorm<Eigen::Infinity>()));
      });
    }
  }
}

TEST_CASE("friction: solo12 stands still on four feet under designed torques, and one foot slips when mu is too low (Reference)",
          "[friction_dynamics]") {
  const cases::UrdfModel u = cases::urdf_robot("solo12");
  const Model<R> m = u.model.cast<R>();
  VecX<R> q = VecX<R>::Zero(m.nq);
  q[0] = R(1);  // the base's free joint: identity quaternion, position 0
  std::vector<cases::ContactSpec> specs;
  for (int b = 0; b < m.nb; ++b) {
    const std::string& j = u.joint_names[b];
    const bool front = j.rfind("F", 0) == 0, left = j.size() > 1 && j[1] == 'L';
    if (j.find("HFE") != std::string::npos) q[m.q_idx[b]] = R(front ? "0.8" : "-0.8");
    if (j.find("KFE") != std::string::npos) {
      q[m.q_idx[b]] = R(front ? "-1.6" : "1.6");
      cases::ContactSpec c;  // the foot: FL_ANKLE's origin in the lower leg (solo12.urdf)
      c.s = b;
      c.point = Vec3<double>(0, left ? 0.008 : -0.008, -0.16);
      c.friction = 0.8;
      c.facets = 4;
      specs.push_back(c);
    }
  }
  REQUIRE(specs.size() == 4);
  const PointContacts<R> cs = cases::place_contacts<R>(m, q, specs);  // level planes through the feet
  const int n = m.nv;
  const VecX<R> qd = VecX<R>::Zero(n);
  // Rows of each foot's world x, y, z from the oracle (copies of the contacts with those normals):
  // a force F = (f_x, f_y, f_z) at foot i has generalized force sum_c Phi_c(i)^T F_c.
  std::vector<oracle::ContactRows<R>> rows;
  for (int c = 0; c < 3; ++c) {
    PointContacts<R> axis = cs;
    for (auto& k : axis) { k.normal = Vec3<R>::Unit(c); k.offset = R(0); }
    rows.push_back(oracle::contact_rows<R>(m, axis, q, qd));
  }
  const VecX<R> C = oracle::inverse_dynamics<R>(m, q, qd, VecX<R>(VecX<R>::Zero(n)), nullptr);
  // The base (v 0..5) is not actuated: the foot forces must balance C there: A F = C_base, A's
  // column (c, i) = Phi_c(i, 0..5)^T. F = the minimum-norm solution (nearly vertical: the stance
  // is symmetric) plus an internal squeeze -- front feet pushed forward, hind feet back by 2 N --
  // projected onto null(A), so that every foot needs friction.
  MatX<R> A(6, 12);
  for (int c = 0; c < 3; ++c)
    for (int i = 0; i < 4; ++i) A.col(4 * c + i) = rows[c].Phi.row(i).head(6).transpose();
  const Eigen::LDLT<MatX<R>> AAt(MatX<R>(A * A.transpose()));
  VecX<R> squeeze = VecX<R>::Zero(12);
  for (int i = 0; i < 4; ++i) squeeze[i] = u.joint_names[specs[i].s].rfind("F", 0) == 0 ? R(2) : R(-2);
  squeeze -= A.transpose() * AAt.solve(VecX<R>(A * squeeze));
  const VecX<R> F = A.transpose() * AAt.solve(VecX<R>(C.head(6))) + squeeze;
  VecX<R> tau = C;
  for (int c = 0; c < 3; ++c) tau -= rows[c].Phi.transpose() * F.segment(4 * c, 4);
  using std::abs;
  using std::sqrt;
  for (int i = 0; i < 4; ++i) {  // the design stands: pressing, and well inside the 4-facet pyramid
    const R fx = F[i], fy = F[4 + i], fz = F[8 + i];
    REQUIRE(fz > R(1));
    REQUIRE(abs(fx) > R(1));                                 // the squeeze needs friction
    REQUIRE(abs(fx) + abs(fy) < R("0.5") * R("0.8") * fz);  // the square |f_x| + |f_y| <= mu f_z, halved
  }
  REQUIRE(max_abs<R>(VecX<R>(tau.head(6))) <= kRel40 * max_abs<R>(C));  // base unactuated
  for_each_variant([&]<class V>() {
    FrictionWorkspace<R> ws(m);
    const VecX<R> qdd = solve<V>(m, cs, q, qd, tau, ws);
    INFO(V::name << ": standing");
    CHECK(max_abs<R>(qdd) <= kRel40 * R(kG));
    for (int i = 0; i < 4; ++i) {  // t1 = x, t2 = z x x = y
      CHECK(abs(ws.f[3 * i] - F[8 + i]) <= kRel40 * F[8 + i]);
      CHECK(abs(ws.f[3 * i + 1] - F[i]) <= kRel40 * F[8 + i]);
      CHECK(abs(ws.f[3 * i + 2] - F[4 + i]) <= kRel40 * F[8 + i]);
    }
  });
  // Foot 0's mu just below what its design needs at the pyramid's edge (|f_x| + |f_y| <= mu f_z):
  // it cannot hold, the robot moves, and the variants must agree with the mode enumeration.
  PointContacts<R> weak = cs;
  weak[0].friction = R("0.5") * (abs(F[0]) + abs(F[4])) / F[8];
  const VecX<R> expected = oracle::friction_forward_dynamics<R>(m, weak, q, qd, tau, nullptr);
  REQUIRE(max_abs<R>(expected) > R("1e-3"));
  for_each_variant([&]<class V>() {
    FrictionWorkspace<R> ws(m);
    INFO(V::name << ": foot 0 slipping");
    CHECK(close40(solve<V>(m, weak, q, qd, tau, ws), expected));
  });
}

TEST_CASE("friction: bad friction data and non-finite states are refused with the contact named", "[friction_dynamics]") {
  ModelBuilder b("point mass");
  Joint<double> j;
  j.type = JointType::Free;
  b.add_body("mass", -1, j, Transform<double>{}, 1.0, Vec3<double>::Zero(), Mat3<double>::Identity() * 0.1);
  const Model<double> m = b.finish();
  VecX<double> q = VecX<double>::Zero(7), qd = VecX<double>::Zero(6), tau = VecX<double>::Zero(6);
  q[0] = 1;
  auto message = [&](PointContacts<double> cs, const VecX<double>& v) {
    return verify::message_of<std::exception>([&] {
      FrictionWorkspace<double> ws(m);
      VecX<double> qdd(6);
      FrictionLemke::run<double>(m, cs, q, v, tau, nullptr, qdd, ws);
    });
  };
  PointContacts<double> good(1);
  good[0].s = 0;
  good[0].name = "foot";
  good[0].friction = 0.5;
  CHECK(message(good, qd) == "(no exception)");
  auto bad = good;
  bad[0].friction = -0.1;
  CHECK(message(bad, qd).find("contact 0 'foot': the friction coefficient") != std::string::npos);
  bad = good;
  bad[0].facets = 2;
  CHECK(message(bad, qd).find("3 to 64 facets") != std::string::npos);
  bad = good;
  bad[0].tangent = Vec3<double>(0.6, 0, 0.8);
  CHECK(message(bad, qd).find("perpendicular to the normal") != std::string::npos);
  CHECK_THROWS_AS(validate_contacts(m, bad), ModelError);
  VecX<double> nan_qd = qd;
  nan_qd[4] = std::nan("");
  CHECK(message(good, nan_qd).find("non-finite") != std::string::npos);
}

}  // namespace test_friction_dynamics
