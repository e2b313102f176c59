// Impulsive dynamics (Featherstone section 11.7) beyond gate 1 (test_exactness.cpp runs every
// impact variant against reference/impact_oracle.hpp on every verify case):
//  a. Eq. 11.65 for two free bodies colliding at one point, against the classical 3D-vector
//     impulse formula (effective inverse masses 1/m + (r x n)^T I_c^-1 (r x n), no spatial
//     algebra), with linear and angular momentum conserved and the kinetic energy changed by
//     -(1 - e^2) mu zeta^2 / 2;
//  b. the impact LCP's conditions, H (qd^+ - qd^-) = Phi^T lambda with the Lagrangian oracle's H
//     and Phi, zeta^+ = Phi qd^+ and the energy identity on random states, in Reference;
//  c. a bouncing ball: apex heights e^(2k) h_0 and the finite accumulation time
//     t_0 (1 + e) / (1 - e) of the impacts;
//  d. Newton's cradle: the simultaneous-impact law gives (-1/3, 2/3, 2/3) v at e = 1 and v/3 each
//     at e = 0; impacts resolved one contact at a time give the cradle's (0, 0, v);
//  e. Example 11.1's situation for impacts (a ball between two walls): no solution for e > 0,
//     rest for e = 0; refusals of a restitution outside [0, 1] and of non-finite states;
//  f. impacts with Coulomb friction (friction_impact.hpp): a spinning ball hitting the ground
//     sticks or slides through the impact as the closed form of its uncoupled rows says;
//  g. Housner's rocking block: the plastic impact of a rocking edge keeps (1 - 3/2 sin^2 alpha)
//     of the angular velocity when friction holds the edge, and less when it slides.
//
// Precision: as test_contact_dynamics.cpp. Reference carries ~50 digits; these computations are
// at most ~1e4 roundings on O(1) numbers and small positive-definite solves, so results agree to
// ~45 digits: relative 1e-40 leaves a margin of ~1e4-1e5, while a wrong formula errs at O(1e-2..1).
#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <Eigen/Geometry>

#include "cases/contact_scenes.hpp"
#include "cases/contacts.hpp"
#include "cases/registry.hpp"
#include "cases/states.hpp"
#include "impact_dynamics/friction_impact.hpp"
#include "impact_dynamics/sticking_impact.hpp"
#include "impact_dynamics/variants.hpp"
#include "model/contact.hpp"
#include "reference/impact_oracle.hpp"
#include "reference/reference_scalar.hpp"
#include "verify/support/body_kinematics.hpp"
#include "verify/support/close40.hpp"
#include "verify/support/message_of.hpp"
#include "verify/support/metrics.hpp"
#include "verify/support/state.hpp"

namespace test_impact_dynamics {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

using namespace rbd;
using R = Reference;

namespace {

const R kRel40("1e-40");

using verify::close40;
using verify::max_abs;

// f.template operator()<V>() for each impact variant.
template <class F> void for_each_variant(F&& f) {
  [&]<class... V>(std::tuple<V...>*) { (f.template operator()<V>(), ...); }(static_cast<ImpactVariants*>(nullptr));
}

template <class V, class S>
VecX<S> impact(const Model<S>& m, const PointContacts<S>& c, const VecX<S>& q, const VecX<S>& qd, ImpactWorkspace<S>& ws) {
  VecX<S> out(m.nv);
  V::template run<S>(m, c, q, qd, out, ws);
  return out;
}

Joint<double> free_joint() {
  Joint<double> j;
  j.type = JointType::Free;
  return j;
}

Joint<double> slider(const Vec3<double>& axis) {
  Joint<double> j;
  j.type = JointType::Prismatic;
  j.axis = axis;
  return j;
}

// A solid ball of radius r and mass m (I_c = 2/5 m r^2), centre at the body origin.
Mat3<double> ball_inertia(double mass, double r) { return Mat3<double>::Identity() * (0.4 * mass * r * r); }

// Two free bodies about to collide at one point (cases a and a2): body 0 carries the plane (B_1
// of Figure 11.8), body 1 the point (B_2); centres of mass at their origins, turned by unit
// quaternions; body 1 moves into the plane at 2.5 along -n, which outweighs the other terms of
// zeta (<= ~1). Velocities in body coordinates (model/joint.hpp's Free joint).
struct TwoBodies {
  Model<R> m;
  VecX<R> q, qd;
  cases::ContactSpec spec;
  Mat3<R> R0, R1, I0w_inv, I1w_inv;
  Vec3<R> c0, c1, w0b, v0b, w1b, v1b;
  double m0 = 1.3, m1 = 0.8;
};

TwoBodies two_free_bodies() {
  TwoBodies t;
  Mat3<double> I0, I1;
  I0 << 0.31, 0.02, -0.03, 0.02, 0.27, 0.015, -0.03, 0.015, 0.22;
  I1 << 0.12, -0.01, 0.02, -0.01, 0.15, 0.005, 0.02, 0.005, 0.1;
  const double m0 = t.m0, m1 = t.m1;
  ModelBuilder b("two free bodies");
  b.gravity(Vec3<double>(0, 0, -9.81));
  b.add_body("plane carrier", -1, free_joint(), Transform<double>{}, m0, Vec3<double>::Zero(), I0);
  b.add_body("point carrier", -1, free_joint(), Transform<double>{}, m1, Vec3<double>::Zero(), I1);
  const Model<R> m = b.finish().cast<R>();
  const Eigen::Quaternion<R> u0 = Eigen::Quaternion<R>(R("0.9"), R("0.2"), R("-0.3"), R("0.1")).normalized();
  const Eigen::Quaternion<R> u1 = Eigen::Quaternion<R>(R("0.5"), R("-0.4"), R("0.6"), R("0.3")).normalized();
  const Vec3<R> c0(R("0.1"), R("0.2"), R("0.3")), c1(R("0.3"), R("-0.1"), R("0.45"));
  VecX<R> q(14);
  q << u0.w(), u0.x(), u0.y(), u0.z(), c0, u1.w(), u1.x(), u1.y(), u1.z(), c1;
  cases::ContactSpec spec;
  spec.p = 0;
  spec.s = 1;
  spec.point = Vec3<double>(0.05, -0.1, -0.2);
  spec.normal = Vec3<double>(0.2, -0.1, 1.0).normalized();
  const Mat3<R> R0 = u0.toRotationMatrix(), R1 = u1.toRotationMatrix();
  const Vec3<R> w0b(R("0.4"), R("-0.7"), R("0.2")), w1b(R("-0.3"), R("0.5"), R("0.9"));
  // Body 1 moves into the plane at 2.5 along -n, which outweighs the other terms of zeta (<= ~1).
  const Vec3<R> n_world = R0 * Vec3<R>(spec.normal.cast<R>().normalized());
  const Vec3<R> v0b(R("0.1"), R("0.2"), R("-0.3"));
  const Vec3<R> v1b = R1.transpose() * (Vec3<R>(R("-0.2"), R("0.4"), R(0)) - R("2.5") * n_world);
  VecX<R> qd(12);
  qd << w0b, v0b, w1b, v1b;  // body coordinates (model/joint.hpp's Free joint)
  const Mat3<R> I0w_inv = R0 * I0.cast<R>().inverse() * R0.transpose(), I1w_inv = R1 * I1.cast<R>().inverse() * R1.transpose();
  t.m = m;
  t.q = q;
  t.qd = qd;
  t.spec = spec;
  t.R0 = R0; t.R1 = R1; t.I0w_inv = I0w_inv; t.I1w_inv = I1w_inv;
  t.c0 = c0; t.c1 = c1; t.w0b = w0b; t.v0b = v0b; t.w1b = w1b; t.v1b = v1b;
  return t;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// a. Eq. 11.65 against the classical impulse formula.
// ---------------------------------------------------------------------------------------------
TEST_CASE("impact: two free bodies at one point follow Eq. 11.65 and the classical 3D impulse formula (Reference)",
          "[impact_dynamics]") {
  // Body 0 carries the plane (B_1 of Figure 11.8), body 1 the point (B_2); both free, centres of
  // mass at their origins, turned by unit quaternions. The classical form: with r_k = x - c_k
  // (world) and w_k = 1/m_k + (r_k x n)^T (R_k I_k^-1 R_k^T) (r_k x n), the impulse is
  // lambda = -(1 + e) zeta^- / (w_1 + w_2) (Eq. 11.65's n . (I_1^-1 + I_2^-1) n written with
  // 3-vectors), and v_c2 += lambda n / m_2, omega_2 += I_2w^-1 (r_2 x n) lambda, body 1 opposite.
  const TwoBodies tb = two_free_bodies();
  const Model<R>& m = tb.m;
  const VecX<R>&q = tb.q, &qd = tb.qd;
  cases::ContactSpec spec = tb.spec;
  const Mat3<R>&R0 = tb.R0, &R1 = tb.R1, &I0w_inv = tb.I0w_inv, &I1w_inv = tb.I1w_inv;
  const Vec3<R>&c0 = tb.c0, &c1 = tb.c1, &w0b = tb.w0b, &v0b = tb.v0b, &w1b = tb.w1b, &v1b = tb.v1b;
  const double m0 = tb.m0, m1 = tb.m1;
  for (double e : {0.0, 0.35, 1.0}) {
    spec.restitution = e;
    const PointContacts<R> cs = cases::place_contacts<R>(m, q, {spec});
    const Vec3<R> x = c1 + R1 * cs[0].point, n = R0 * cs[0].normal;
    const Vec3<R> r0 = x - c0, r1 = x - c1;
    const Vec3<R> vp0 = R0 * v0b + (R0 * w0b).cross(r0), vp1 = R1 * v1b + (R1 * w1b).cross(r1);
    const R zeta = n.dot(vp1 - vp0);
    REQUIRE(zeta < R(0));  // approaching: an impact
    const R w0 = R(1) / R(m0) + r0.cross(n).dot(I0w_inv * r0.cross(n));
    const R w1 = R(1) / R(m1) + r1.cross(n).dot(I1w_inv * r1.cross(n));
    const R lambda = -(R(1) + R(e)) * zeta / (w0 + w1);
    VecX<R> expected(12);
    expected << R0.transpose() * (R0 * w0b - I0w_inv * r0.cross(n) * lambda), R0.transpose() * (R0 * v0b - n * lambda / R(m0)),
        R1.transpose() * (R1 * w1b + I1w_inv * r1.cross(n) * lambda), R1.transpose() * (R1 * v1b + n * lambda / R(m1));
    const R ke0 = verify::kinetic_energy_by_body<R>(m, q, qd);
    const Vec6<R> h0 = verify::momentum_in_base<R>(m, q, qd);
    const R mu = R(1) / (w0 + w1);
    auto check = [&](const std::string& who, const VecX<R>& qd_plus, const R& lam) {
      INFO(who << ", e = " << e);
      CHECK(close40(qd_plus, expected));
      CHECK(abs_(lam - lambda) <= kRel40 * abs_(lambda));
      // Momentum: no external impulse (gravity delivers none, Eq. 11.54).
      CHECK(close40(VecX<R>(verify::momentum_in_base<R>(m, q, qd_plus)), VecX<R>(h0)));
      // Kinetic energy: -(1 - e^2) mu zeta^2 / 2 (0 at e = 1).
      const R dke = verify::kinetic_energy_by_body<R>(m, q, qd_plus) - ke0;
      CHECK(abs_(dke + (R(1) - R(e) * R(e)) * mu * zeta * zeta / R(2)) <= kRel40 * ke0);
    };
    for_each_variant([&]<class V>() {
      ImpactWorkspace<R> ws(m);
      const VecX<R> qd_plus = impact<V>(m, cs, q, qd, ws);
      check(std::string(V::name), qd_plus, ws.lambda[0]);
      CHECK(abs_(ws.zeta_minus[0] - zeta) <= kRel40 * abs_(zeta));
      CHECK(abs_(ws.zeta_plus[0] + R(e) * zeta) <= kRel40 * abs_(zeta));  // Eq. 11.64
    });
    VecX<R> lam;
    const VecX<R> qd_oracle = oracle::impact_response<R>(m, cs, q, qd, &lam);
    check("oracle", qd_oracle, lam[0]);
  }
}

// ---------------------------------------------------------------------------------------------
// a2. Eq. 11.72: the impact that arrests the tangential motion, against the book's two-body form.
// ---------------------------------------------------------------------------------------------
TEST_CASE("impact: sticking friction (Eq. 11.72) on two free bodies equals the book's 3D form and stops the slip "
          "(Reference)",
          "[impact_dynamics]") {
  // The bodies of case a. The book's form with 3-vectors: the relative velocity of the contact
  // points responds to an impulse iota (on body 1 at C, -iota on body 0) through
  // K = sum_k (1/m_k 1 - [r_k]x I_kw^-1 [r_k]x); with N = [t1 t2 n] (world), zeta = N^T (v_C1 - v_C0)
  // and lambda = -(N^T K N)^-1 (1 + E) zeta (Eq. 11.72 with N^T (I_1^-1 + I_2^-1) N written as
  // N^T K N); then v_c1 += iota / m_1, omega_1 += I_1w^-1 (r_1 x iota), body 0 the opposite.
  const TwoBodies tb = two_free_bodies();
  const Model<R>& m = tb.m;
  const VecX<R>&q = tb.q, &qd = tb.qd;
  cases::ContactSpec spec = tb.spec;
  const Mat3<R>&R0 = tb.R0, &R1 = tb.R1, &I0w_inv = tb.I0w_inv, &I1w_inv = tb.I1w_inv;
  const Vec3<R>&c0 = tb.c0, &c1 = tb.c1, &w0b = tb.w0b, &v0b = tb.v0b, &w1b = tb.w1b, &v1b = tb.v1b;
  const double m0 = tb.m0, m1 = tb.m1;
  spec.tangent = Vec3<double>(1.0, 0.0, -0.2).normalized();  // perpendicular to the normal
  spec.friction = 0.5;
  for (double e : {0.0, 0.6, 1.0}) {
    spec.restitution = e;
    const PointContacts<R> cs = cases::place_contacts<R>(m, q, {spec});
    const Vec3<R> x = c1 + R1 * cs[0].point;
    Mat3<R> N;
    N.col(0) = R0 * cs[0].tangent;
    N.col(2) = R0 * cs[0].normal;
    N.col(1) = N.col(2).cross(N.col(0));  // t2 = n x t1
    const Vec3<R> r0 = x - c0, r1 = x - c1;
    const Vec3<R> vp0 = R0 * v0b + (R0 * w0b).cross(r0), vp1 = R1 * v1b + (R1 * w1b).cross(r1);
    const Vec3<R> zeta = N.transpose() * (vp1 - vp0);
    const Mat3<R> K = Mat3<R>::Identity() * (R(1) / R(m0) + R(1) / R(m1)) - skew<R>(r0) * I0w_inv * skew<R>(r0) -
                      skew<R>(r1) * I1w_inv * skew<R>(r1);
    Vec3<R> target = -zeta;
    target[2] *= R(1) + R(e);  // (1 + E) zeta, E = diag(0, 0, e) with the normal last (Eq. 11.71)
    const Vec3<R> lambda = Mat3<R>(N.transpose() * K * N).inverse() * target;
    const Vec3<R> iota = N * lambda;
    VecX<R> expected(12);
    expected << w0b - R0.transpose() * (I0w_inv * r0.cross(iota)), v0b - R0.transpose() * iota / R(m0),
        w1b + R1.transpose() * (I1w_inv * r1.cross(iota)), v1b + R1.transpose() * iota / R(m1);
    FrictionWorkspace<R> ws(m);
    VecX<R> qd_plus(12);
    const StickingImpactResult res = sticking_impact<R>(m, cs, q, qd, qd_plus, ws);
    INFO("e = " << e);
    CHECK(close40(qd_plus, expected));
    // The impulses in rbdlab's order (normal, t1, t2) against the book's (t1, t2, normal).
    CHECK(abs_(ws.f[0] - lambda[2]) <= kRel40 * abs_(lambda[2]));
    CHECK(abs_(ws.f[1] - lambda[0]) <= kRel40 * abs_(lambda[2]));
    CHECK(abs_(ws.f[2] - lambda[1]) <= kRel40 * abs_(lambda[2]));
    // After the impact: no slip, and the normal separation speed -e zeta_z.
    const VecX<R> zeta_plus = ws.T3.transpose() * qd_plus;
    CHECK(abs_(zeta_plus[0] + R(e) * zeta[2]) <= kRel40 * abs_(zeta[2]));
    CHECK(abs_(zeta_plus[1]) <= kRel40 * abs_(zeta[2]));
    CHECK(abs_(zeta_plus[2]) <= kRel40 * abs_(zeta[2]));
    // The book's assumption checked: pressing, and inside the cone for this mu iff the closed form says so.
    CHECK(res.pressing[0]);
    using std::sqrt;
    CHECK(static_cast<bool>(res.in_cone[0]) == (sqrt(lambda[0] * lambda[0] + lambda[1] * lambda[1]) <= R("0.5") * lambda[2]));
  }
}

// ---------------------------------------------------------------------------------------------
// b. The impact LCP on random states, with the oracle's H and Phi as the independent witnesses.
// ---------------------------------------------------------------------------------------------
TEST_CASE("impact: complementarity, H dqd = Phi^T lambda, zeta^+ = Phi qd^+ and the energy identity on random "
          "states (Reference)",
          "[impact_dynamics]") {
  // Per contact, with zeta scale Z = max|zeta^-| + max|zeta^+| and lambda scale L = max|lambda|:
  //  - w_i = zeta^+_i + e_i min(zeta^-_i, 0) >= -1e-40 Z, lambda_i >= -1e-40 L, |w_i lambda_i| <=
  //    1e-40 Z L: the LCP (impact_dynamics/steps.hpp);
  //  - H (qd^+ - qd^-) - Phi^T lambda and Phi qd^+ - zeta^+ within 1e-40 of their terms' sizes;
  //  - dKE = lambda^T (zeta^- + zeta^+) / 2 (steps.hpp's identity) within 1e-40 of KE^-; with every
  //    e_i = 0 (re-run), dKE <= 1e-40 KE^- (a plastic impact never gains energy).
  const std::vector<std::string> ids = {"gu:5", "tree:bf=2:nb=15", "all_joints", "humanoid", "urdf:panda", "urdf:solo12"};
  int checked = 0, pushed = 0, idle = 0;
  for (const std::string& id : ids) {
    const Model<double> md = cases::build_case(id);
    const Model<R> m = md.cast<R>();
    for (int seed = 1; seed <= 3; ++seed) {
      const cases::State s = cases::random_state(md, seed);
      if (s.contacts.empty()) continue;
      const verify::StateOf<R> x = verify::cast_state<R>(m, s);
      PointContacts<R> cs = cases::place_contacts<R>(m, x.q, s.contacts);
      const VecX<R> qd = cases::approaching_velocity<R>(m, cs, x.q, x.qd);
      const auto rows = oracle::contact_rows<R>(m, cs, x.q, qd);
      const MatX<R> H = oracle::mass_matrix<R>(m, x.q);
      const R ke0 = verify::kinetic_energy_by_body<R>(m, x.q, qd);
      INFO(id << " seed " << seed << ", " << cs.size() << " contacts");
      for (bool plastic : {false, true}) {
        if (plastic)
          for (auto& c : cs) c.restitution = R(0);
        for_each_variant([&]<class V>() {
          INFO(V::name << (plastic ? " (every e = 0)" : ""));
          ImpactWorkspace<R> ws(m);
          const VecX<R> qd_plus = impact<V>(m, cs, x.q, qd, ws);
          const R Z = max_abs<R>(ws.zeta_minus) + max_abs<R>(ws.zeta_plus), L = max_abs<R>(ws.lambda);
          for (int i = 0; i < ws.nc; ++i) {
            const R w = ws.zeta_plus[i] + cs[i].restitution * std::min<R>(ws.zeta_minus[i], R(0));
            CHECK(w >= -kRel40 * Z);
            CHECK(ws.lambda[i] >= -kRel40 * L);
            CHECK(abs_(w * ws.lambda[i]) <= kRel40 * Z * L);
            if (ws.lambda[i] > kRel40 * L) ++pushed;
            else ++idle;
          }
          const VecX<R> dqd = qd_plus - qd;
          const VecX<R> res = H * dqd - rows.Phi.transpose() * ws.lambda;
          CHECK(max_abs<R>(res) <= kRel40 * (max_abs<R>(VecX<R>(H * dqd)) + R(1)));
          CHECK(close40(VecX<R>(rows.Phi * qd_plus), ws.zeta_plus));
          const R dke = verify::kinetic_energy_by_body<R>(m, x.q, qd_plus) - ke0;
          CHECK(abs_(dke - ws.lambda.dot(VecX<R>(ws.zeta_minus + ws.zeta_plus)) / R(2)) <= kRel40 * ke0);
          if (plastic) CHECK(dke <= kRel40 * ke0);
        });
      }
      ++checked;
    }
  }
  CHECK(checked >= 12);
  // Both sides of the complementarity occur: contacts given an impulse and contacts left alone.
  CHECK(pushed >= 20);
  CHECK(idle >= 5);
}

// ---------------------------------------------------------------------------------------------
// c. The bouncing ball.
// ---------------------------------------------------------------------------------------------
TEST_CASE("impact: a bouncing ball's apex heights are e^(2k) h_0 and its impacts end at t_0 (1 + e) / (1 - e) "
          "(Reference)",
          "[impact_dynamics]") {
  // A free ball of radius r dropped from apex height h_0 (of its lowest point) with a horizontal
  // velocity and a spin. Between impacts it flies ballistically (exact in closed form: no
  // integrator); at each touchdown the variant maps qd^- to qd^+ at the contact between the ball's
  // lowest point and the ground plane. With v_k the speed leaving impact k, the apex is v_k^2 / 2g
  // and the flight 2 v_k / g; Newton's law makes v_k = e^k v_0, so h_k = e^(2k) h_0 and the impacts
  // accumulate at t_0 + 2 t_0 e / (1 - e) = t_0 (1 + e) / (1 - e), t_0 = sqrt(2 h_0 / g): after
  // K impacts the elapsed time is t_0 + 2 t_0 (e - e^(K+1)) / (1 - e). A frictionless impact
  // through the centre leaves the spin and the horizontal velocity alone.
  const double radius = 0.1, mass = 0.6, g = 9.81;
  const cases::ContactScene scene = cases::bouncing_ball(radius, mass, g, 0.0, 0.0, 0.0);  // touching at the start
  const Model<R> m = scene.model.cast<R>();
  const R h0("0.8"), gR(g), r(radius);
  const R t0 = sqrt_(R(R(2) * h0 / gR)), v0 = sqrt_(R(R(2) * gR * h0));
  PointContacts<R> cs = cast_contacts<R>(scene.contacts);  // the lowest point; the orientation stays the identity
  for (const char* e_text : {"0.5", "0.9", "0.1"}) {
    const R e(e_text);
    cs[0].restitution = e;
    for_each_variant([&]<class V>() {
      INFO(V::name << ", e = " << e_text);
      VecX<R> q(7), qd(6);
      q << R(1), R(0), R(0), R(0), R(0), R(0), r;  // touching: the ball's lowest point at z = 0
      qd << R("0.3"), R("-1.1"), R("2"), R("0.4"), R("-0.25"), -v0;
      ImpactWorkspace<R> ws(m);
      R elapsed = t0;
      bool ok = true;
      const int K = 25;
      for (int k = 1; k <= K && ok; ++k) {
        const VecX<R> qd_plus = impact<V>(m, cs, q, qd, ws);
        const R up = qd_plus[5], apex = up * up / (R(2) * gR);
        const R expected_apex = h0 * pow(e, R(2 * k));
        ok = abs_(apex - expected_apex) <= kRel40 * expected_apex &&
             close40(VecX<R>(qd_plus.head(5)), VecX<R>(qd.head(5)));
        CHECK(ok);
        elapsed += R(2) * up / gR;
        qd = qd_plus;
        qd[5] = -up;  // the next touchdown: the same speed downwards, the rest untouched in flight
      }
      const R predicted = t0 + R(2) * t0 * (e - pow(e, R(K + 1))) / (R(1) - e);
      CHECK(abs_(elapsed - predicted) <= kRel40 * predicted);
      // And the limit the series reaches: t_0 (1 + e) / (1 - e), approached as e^(K+1).
      const R limit = t0 * (R(1) + e) / (R(1) - e);
      CHECK(abs_(limit - predicted - R(2) * t0 * pow(e, R(K + 1)) / (R(1) - e)) <= kRel40 * limit);
    });
  }
}

// ---------------------------------------------------------------------------------------------
// d. Newton's cradle.
// ---------------------------------------------------------------------------------------------
TEST_CASE("impact: Newton's cradle, simultaneous impacts vs one contact at a time (Reference)", "[impact_dynamics]") {
  // Three unit masses, the first arriving at speed v. Simultaneously (one LCP): with both contacts
  // pushed, M = [2 -1; -1 2] and b = [-(1 + e) v, 0], so lambda = [(2/3)(1 + e) v, (1/3)(1 + e) v]:
  // at e = 1 the balls leave with (-1/3, 2/3, 2/3) v and at e = 0 with (1/3, 1/3, 1/3) v. Both
  // conserve momentum, and e = 1 conserves energy too (1/9 + 4/9 + 4/9 = 1): two answers that
  // satisfy every law, and not what a real cradle does. Resolved one contact at a time, each impact
  // a two-ball exchange at e = 1, the velocity passes down the row to (0, 0, v): the sequential
  // outcome that section 11.7's caution after Eq. 11.58 attributes to waves the rigid model omits.
  const R v("1.7"), third = v / R(3);
  // cases::newtons_cradle with no gap: ball 0 touches ball 1 as it arrives.
  const cases::ContactScene scene = cases::newtons_cradle(3, 0.05, 0.0, 1.0, 1.0);
  struct {
    Model<R> m;
    PointContacts<R> contacts;
    VecX<R> q;
  } c{scene.model.cast<R>(), cast_contacts<R>(scene.contacts), cases::to<R>(scene.q)};
  VecX<R> qd(3);
  qd << v, R(0), R(0);
  VecX<R> elastic(3), plastic(3);
  elastic << -third, R(2) * third, R(2) * third;
  plastic << third, third, third;
  for (const auto& e_and_outcome : {std::pair{R(1), elastic}, std::pair{R(0), plastic}}) {
    const R e = e_and_outcome.first;  // not structured bindings: Clang 14 cannot capture them
    const VecX<R> expected = e_and_outcome.second;
    for (auto& pc : c.contacts) pc.restitution = e;
    for_each_variant([&]<class V>() {
      INFO(V::name << " simultaneous, e = " << e);
      ImpactWorkspace<R> ws(c.m);
      CHECK(close40(impact<V>(c.m, c.contacts, c.q, qd, ws), expected));
    });
    INFO("oracle, e = " << e);
    CHECK(close40(oracle::impact_response<R>(c.m, c.contacts, c.q, qd), expected));
  }
  // One contact at a time, e = 1, until no contact approaches.
  for (auto& pc : c.contacts) pc.restitution = R(1);
  for_each_variant([&]<class V>() {
    INFO(V::name << " sequential");
    VecX<R> u = qd;
    int impacts = 0;
    for (bool again = true; again && impacts < 10;) {
      again = false;
      for (std::size_t k = 0; k < c.contacts.size(); ++k) {
        const PointContacts<R> one = {c.contacts[k]};
        if (!(u[static_cast<Eigen::Index>(k) + 1] - u[static_cast<Eigen::Index>(k)] < R(0))) continue;  // not approaching
        ImpactWorkspace<R> ws(c.m);
        u = impact<V>(c.m, one, c.q, u, ws);
        ++impacts;
        again = true;
      }
    }
    VecX<R> expected(3);
    expected << R(0), R(0), v;
    CHECK(impacts == 2);
    CHECK(close40(u, expected));
  });
}

// ---------------------------------------------------------------------------------------------
// e. No solution, and refusals.
// ---------------------------------------------------------------------------------------------
TEST_CASE("impact: a ball between two walls has no impact solution for e > 0 and stops for e = 0",
          "[impact_dynamics]") {
  // A ball on an x slider touching two walls, x = -r (normal +x) and x = +r (normal -x), moving
  // right at v: zeta^- = (v, -v), M = [1 -1; -1 1] / m and b = (v, -(1 + e) v). Adding the two
  // conditions w >= 0 gives -e v >= 0: for e > 0 no impulses exist (bouncing off the right wall
  // would drive the ball into the left one; Example 11.1's situation at the velocity level), and
  // every variant and the oracle refuse; for e = 0 the ball stops.
  const double r = 0.05;
  ModelBuilder b("ball between walls");
  b.gravity(Vec3<double>(0, 0, -9.81));
  b.add_body("ball", -1, slider(Vec3<double>::UnitX()), Transform<double>{}, 2.0, Vec3<double>::Zero(),
             ball_inertia(2.0, r));
  const Model<R> m = b.finish().cast<R>();
  PointContacts<R> cs(2);
  cs[0].s = cs[1].s = 0;
  cs[0].point = Vec3<R>(-R(r), R(0), R(0));
  cs[0].normal = Vec3<R>(R(1), R(0), R(0));
  cs[0].offset = -R(r);
  cs[1].point = Vec3<R>(R(r), R(0), R(0));
  cs[1].normal = Vec3<R>(R(-1), R(0), R(0));
  cs[1].offset = -R(r);
  const VecX<R> q = VecX<R>::Zero(1), qd = VecX<R>::Constant(1, R("0.8"));
  cs[1].restitution = R("0.5");
  for_each_variant([&]<class V>() {
    INFO(V::name);
    ImpactWorkspace<R> ws(m);
    CHECK_THROWS_WITH(impact<V>(m, cs, q, qd, ws), Catch::Contains("has no solution"));
  });
  CHECK_THROWS_WITH(oracle::impact_response<R>(m, cs, q, qd), Catch::Contains("no impulses satisfy"));
  cs[1].restitution = R(0);
  for_each_variant([&]<class V>() {
    INFO(V::name);
    ImpactWorkspace<R> ws(m);
    CHECK(close40(impact<V>(m, cs, q, qd, ws), VecX<R>(VecX<R>::Zero(1)), R(1)));
  });
}

TEST_CASE("impact: a restitution outside [0, 1] and non-finite states are refused with a message naming them",
          "[impact_dynamics]") {
  const Model<double> m = cases::build_case("all_joints");
  const cases::State s = cases::random_state(m, 2);
  REQUIRE(s.contacts.size() >= 1);
  const PointContacts<double> good = cases::place_contacts<double>(m, s.q, s.contacts);
  const VecX<double> qd = cases::approaching_velocity<double>(m, good, s.q, s.qd);
  const std::size_t last = good.size() - 1;
  for_each_variant([&]<class V>() {
    INFO(V::name);
    for (double bad_e : {-0.1, 1.2, std::nan("")}) {
      PointContacts<double> bad = good;
      bad[last].restitution = bad_e;
      ImpactWorkspace<double> ws(m);
      const std::string msg = verify::message_of<std::exception>([&] { impact<V>(m, bad, s.q, qd, ws); });
      INFO(msg);
      CHECK(msg.find("contact " + std::to_string(last)) != std::string::npos);
      CHECK(msg.find("restitution") != std::string::npos);
    }
    // NaN in every velocity: every contact's zeta^- (a NaN confined to joints on no contact's path
    // cannot reach the LCP, and comes out as NaN in qd^+, not as a number).
    const VecX<double> qd_nan = VecX<double>::Constant(m.nv, std::nan(""));
    ImpactWorkspace<double> ws(m);
    const std::string msg = verify::message_of<std::exception>([&] { impact<V>(m, good, s.q, qd_nan, ws); });
    INFO(msg);
    CHECK(msg.find("impact") != std::string::npos);
    CHECK(msg.find("non-finite") != std::string::npos);
  });
  PointContacts<double> bad = good;
  bad[last].restitution = 1.5;
  CHECK_THROWS_WITH(validate_contacts(m, bad), Catch::Contains("restitution"));
}

TEST_CASE("impact dynamics: a spinning ball hits rough ground -- it sticks or slides through the impact (Reference)",
          "[impact_dynamics]") {
  // A solid ball (mass m, radius r, I = 2/5 m r^2) at the identity orientation touches the ground
  // at its lowest point C = (0, 0, -r) with centre velocity (vx, 0, -vz) and spin wy about y. C
  // slides at u_t = vx - wy r along x = t1. The normal through C passes through the centre, so the
  // normal and tangential rows are uncoupled: p_n = m (1 + e) vz (Newton), and a tangential impulse
  // p_t changes u_t by p_t (1/m + r^2 / I) = 7 p_t / (2 m). It sticks if p_t = -u_t / (1/m + r^2 / I) lies
  // within mu p_n (I = 2/5 m r^2: -2 m u_t / 7); else p_t = -mu p_n sign(u_t) and C keeps sliding. Then vx+ = vx + p_t / m,
  // vz+ = e vz, wy+ = wy - r p_t / I (the moment of (p_t, 0, p_n) at C about the centre). The
  // slip is along a facet of the 4-facet pyramid, where it equals the cone. 1e-40 relative: a few
  // hundred roundings in Reference.
  // The model is built in double: m, r and I are the doubles it holds, exactly, in Reference.
  const double md = 0.6, rd = 0.1, Id = 0.4 * md * rd * rd;
  const R m(md), r(rd), I(Id), vz("2"), e("0.5"), mu("0.3");
  ModelBuilder b("ball");
  b.gravity(Vec3<double>(0, 0, -9.81));
  Joint<double> j;
  j.type = JointType::Free;
  b.add_body("ball", -1, j, Transform<double>{}, md, Vec3<double>::Zero(), Mat3<double>::Identity() * Id);
  const Model<R> model = b.finish().cast<R>();
  PointContacts<R> cs(1);
  cs[0].s = 0;
  cs[0].point = Vec3<R>(R(0), R(0), -r);
  cs[0].normal = Vec3<R>(R(0), R(0), R(1));
  cs[0].tangent = Vec3<R>(R(1), R(0), R(0));
  cs[0].offset = R(0);
  cs[0].friction = mu;
  cs[0].restitution = e;
  cs[0].name = "ball on rough ground";
  VecX<R> q = VecX<R>::Zero(7);
  q[0] = R(1);
  q[6] = r;
  int sticks = 0, slides = 0;
  for (const auto& [vx, wy] : {std::pair<R, R>{R("0.5"), R("0")}, {R("0.2"), R("5")}, {R("5"), R("0")}, {R("-3"), R("10")}}) {
    VecX<R> qd = VecX<R>::Zero(6), after(6);
    qd[1] = wy;
    qd[3] = vx;
    qd[5] = -vz;
    FrictionWorkspace<R> ws(model);
    impacts::friction_impact<R>(model, cs, q, qd, ws, after);
    const R pn = m * (R(1) + e) * vz, ut = vx - wy * r, stick = -ut / (R(1) / m + r * r / I);
    const bool sticking = abs(stick) <= mu * pn;
    const R pt = sticking ? stick : R(ut > R(0) ? R(-mu * pn) : R(mu * pn));
    (sticking ? sticks : slides)++;
    INFO("vx " << vx << ", wy " << wy << (sticking ? ": sticks" : ": slides"));
    CHECK(abs(R(ws.f[0] - pn)) <= kRel40 * pn);
    CHECK(abs(R(ws.f[1] - pt)) <= kRel40 * pn);
    CHECK(abs(ws.f[2]) <= kRel40 * pn);
    VecX<R> expected = qd;
    expected[1] = wy - r * pt / I;
    expected[3] = vx + pt / m;
    expected[5] = e * vz;
    CHECK(close40(after, expected));
    // No energy gained: the rows are uncoupled and friction only removes slip.
    const R ke_before = (m * qd.tail<3>().squaredNorm() + I * qd.head<3>().squaredNorm()) / R(2);
    const R ke_after = (m * after.tail<3>().squaredNorm() + I * after.head<3>().squaredNorm()) / R(2);
    CHECK(ke_after <= ke_before);
  }
  CHECK(sticks == 2);
  CHECK(slides == 2);
}

TEST_CASE("impact dynamics: Housner's rocking block keeps 1 - 3/2 sin^2 alpha of its angular velocity at each "
          "impact, when friction holds the landing edge (Reference)",
          "[impact_dynamics]") {
  // cases::rocking_block: a 2b x 2h section (alpha = atan(b / h)), rocking about its edge A
  // (y = -b) at omega^- < 0, lands flat on edge B (y = +b), e = 0. Housner (1963): if B sticks and
  // A lifts, the only impulse acts at B, so the angular momentum about B is conserved:
  //   before, about A: I_c omega^- + m ((c - B) x v_c)_x = omega^- (I_c + m (h^2 - b^2)),
  //   after, about B:  omega^+ (I_c + m R^2),        R^2 = b^2 + h^2,
  // and with I_c = m R^2 / 3 (the section's) omega^+ / omega^- = 1 - 3/2 sin^2 alpha. The impulse
  // at B is m (v_c^+ - v_c^-): J_y = -m h (omega^+ - omega^-), J_z = -m b (omega^+ + omega^-),
  // inside a 4-facet pyramid along x and y iff |J_y| <= mu J_z, here mu >= 0.353. The four
  // corner contacts all enter the LCP (A's touch with zero approach speed): that the solver
  // gives A no impulse and B no slip is what is checked, not assumed.
  const double bd = 0.1, hd = 0.2, dd = 0.15, md = 2;
  const R b(bd), h(hd), m(md), w_minus("-1.5");
  const R R2 = b * b + h * h;
  auto momentum_ratio = [&](const R& I_c) { return (I_c + m * (h * h - b * b)) / (I_c + m * R2); };
  CHECK(abs(R(momentum_ratio(m * R2 / R(3)) - (R(1) - R("1.5") * b * b / R2))) <= kRel40);  // Housner's printed form
  // The model holds I_c as rocking_block computed it in double (the same expression, so the same
  // double), exactly in Reference; the impact is checked against the ratio with that I_c.
  const R ratio = momentum_ratio(R(md * (bd * bd + hd * hd) / 3));
  const R w_plus = ratio * w_minus;
  const R Jy = -m * h * (w_plus - w_minus), Jz = -m * b * (w_plus + w_minus);
  for (const char* mu_text : {"0.6", "0.2"}) {
    const R mu(mu_text);
    const cases::ContactScene scene = cases::rocking_block(bd, hd, dd, md, 9.81, std::stod(mu_text), -1.5);
    const Model<R> model = scene.model.cast<R>();
    PointContacts<R> cs;
    for (const auto& c : scene.contacts) cs.push_back(c.cast<R>());
    for (auto& c : cs) c.friction = mu;  // the decimal exactly, not its double
    const VecX<R> q = scene.q.cast<R>();
    VecX<R> qd(6), after(6);
    qd << w_minus, R(0), R(0), R(0), -w_minus * h, w_minus * b;  // about A: scene.qd, in Reference
    CHECK((scene.qd - qd.cast<double>()).norm() <= 1e-15);
    FrictionWorkspace<R> ws(model);
    impacts::friction_impact<R>(model, cs, q, qd, ws, after);
    R pn_A(0), pt_A(0), pn_B(0), px_B(0), py_B(0);
    for (int k = 0; k < 4; ++k) {
      (k < 2 ? pn_A : pn_B) += ws.f[3 * k];
      if (k < 2) pt_A += abs(ws.f[3 * k + 1]) + abs(ws.f[3 * k + 2]);
      else px_B += ws.f[3 * k + 1], py_B += ws.f[3 * k + 2];
    }
    INFO("mu " << mu << ": impulse at A " << pn_A << ", at B (" << px_B << ", " << py_B << ", " << pn_B << "), omega+ "
               << after[0]);
    CHECK(abs(px_B) <= kRel40 * Jz);
    CHECK(after.segment(1, 3).norm() <= kRel40 * abs(w_minus));  // no yaw, roll or sideways motion
    if (mu_text == std::string("0.6")) {  // |J_y| / J_z = 0.353 < mu: B sticks, Housner's answer
      CHECK(abs(pn_A) <= kRel40 * Jz);  // A lifts: no impulse there
      CHECK(abs(pt_A) <= kRel40 * Jz);
      VecX<R> expected(6);
      expected << w_plus, R(0), R(0), R(0), -w_plus * h, -w_plus * b;  // about B
      CHECK(close40(after, expected));
      CHECK(abs(R(pn_B - Jz)) <= kRel40 * Jz);
      CHECK(abs(R(abs(py_B) - abs(Jy))) <= kRel40 * Jz);
    } else {  // 0.2 < 0.353: B slides through the impact, the friction impulse on the pyramid's edge
      CHECK(abs(R(abs(py_B) - mu * pn_B)) <= kRel40 * pn_B);
      CHECK(abs(R(after[5] + after[0] * b)) <= kRel40 * abs(w_minus));  // B's normal speed after: 0 (e = 0)
      CHECK(abs(after[0]) < abs(w_plus));                               // sliding dissipates more
    }
  }
}

}  // namespace test_impact_dynamics
