// Self-test of the Lagrangian oracle (reference/lagrange_oracle.hpp) against physics worked
// out by hand, with no algorithms/ code: models are filled in field by field (not through
// ModelBuilder), rotations come from Eigen's Geometry module, and the expected values are
// closed forms or Newton-Euler equations written below in plain 3D vectors.
//
// Tolerance: everything is in the 50-digit Reference scalar (eps ~ 1e-50). One oracle call
// performs at most ~1e5 roundings on O(1) quantities with mild cancellation, so its error
// is below ~1e-45 relative; 1e-40 leaves a margin of ~1e5 and still fails any modelling
// or differentiation mistake by ~25 orders of magnitude (those show up at O(1) or, for data
// rounded in double, at 1e-16). Identities that involve fewer steps are checked at 1e-45.
#include <catch2/catch.hpp>

#include <Eigen/Geometry>

#include "verify/support/exact_model.hpp"
#include "reference/lagrange_oracle.hpp"
#include "reference/reference_scalar.hpp"

namespace test_oracle_selftest {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

namespace {

using rbd::JointType;
using R = rbd::Reference;
using V3 = rbd::Vec3<R>;
using M3 = rbd::Mat3<R>;
using V6 = rbd::Vec6<R>;
using VX = rbd::VecX<R>;
using MX = rbd::MatX<R>;
namespace oracle = rbd::oracle;

const R kTol("1e-40");
const R kTolTight("1e-45");

R fr(int a, int b) { return R(a) / R(b); }
V3 v3(const R& x, const R& y, const R& z) { return V3(x, y, z); }
M3 rot(const R& angle, const V3& axis) { return Eigen::AngleAxis<R>(angle, axis.normalized()).toRotationMatrix(); }
V3 cross(const V3& a, const V3& b) { return a.cross(b); }
R rel(const MX& a, const MX& b) { return (a - b).norm() / b.norm(); }

// A generic symmetric positive-definite rotational inertia.
M3 inertia(int k) {
  M3 I;
  I << fr(3, 2) + fr(k, 10), fr(1, 10), -fr(1, 5),
       fr(1, 10), R(2) + fr(k, 7), fr(1, 7),
       -fr(1, 5), fr(1, 7), fr(5, 2);
  return I;
}

struct BodySpec {
  int parent;
  JointType type;
  V3 axis;
  R pitch;
  M3 E;   // Xtree rotation (coordinate transform parent -> F_p)
  V3 r;   // Xtree translation (F_p origin in parent coordinates)
  R mass;
  V3 com;
  M3 Icom;
};

rbd::Model<R> build(const std::vector<BodySpec>& bs, const V3& g) {
  rbd::Model<R> m;
  m.name = "oracle_selftest";
  m.gravity = g;
  for (const BodySpec& b : bs)
    rbd::verify::append_exact_body<R>(m, b.parent, b.type, b.axis, b.pitch, rbd::Transform<R>{b.E, b.r}, b.mass, b.com, b.Icom);
  return m;
}

// Wrench [n; f] about the body origin, body coordinates, that the joint must apply to a
// single rigid body with body twist (w, v) and its rate (wd, vd), under gravity g_b (body
// coordinates) and an external wrench fx. Derivation: linear momentum p = m (v + w x c) and
// angular momentum about the origin L = Ibar w + m c x v, Ibar = Ic - m [c]x^2. Newton:
// F = dp/dt|inertial = pdot + w x p. Euler about the moving origin O: N = dL_O/dt + v_O x p
// = Ldot + w x L + v x p. Here pdot = m (vd + wd x c), Ldot = Ibar wd + m c x vd
// (components in the body frame, c constant). F and N are the totals, so the joint supplies
// (N, F) minus gravity (c x m g_b, m g_b) minus fx. (= Featherstone's I a + v x* I v - f.)
V6 newton_euler(const R& m, const V3& c, const M3& Ic, const V6& V, const V6& A, const V3& gb, const V6& fx) {
  const V3 w = V.head<3>(), v = V.tail<3>(), wd = A.head<3>(), vd = A.tail<3>();
  const M3 Ibar = Ic - m * rbd::skew<R>(c) * rbd::skew<R>(c);
  const V3 p = m * (v + cross(w, c)), L = Ibar * w + m * cross(c, v);
  const V3 pdot = m * (vd + cross(wd, c)), Ldot = Ibar * wd + m * cross(c, vd);
  V6 out;
  out << Ldot + cross(w, L) + cross(v, p) - cross(c, m * gb) - fx.head<3>(), pdot + cross(w, p) - m * gb - fx.tail<3>();
  return out;
}

}  // namespace

TEST_CASE("oracle: single pendulum matches its closed form", "[oracle]") {
  // Revolute about z at the origin, com (l, 0, d), gravity -g0 y. The com is at
  // (l cos q, l sin q, d), so V = m g0 l sin q and H = Izz + m l^2 (z offset and products
  // of inertia do not enter a rotation about z): tau = (Izz + m l^2) qdd + m g0 l cos q.
  const R mass = fr(3, 2), l = fr(7, 10), d = fr(1, 5), g0 = fr(981, 100);
  const M3 Ic = inertia(1);
  const auto m = build({{-1, JointType::Revolute, v3(0, 0, 1), R(0), M3::Identity(), V3::Zero(), mass, v3(l, 0, d), Ic}}, v3(0, -g0, 0));
  VX q(1), qd(1), qdd(1);
  q << fr(3, 10); qd << R(2); qdd << -fr(1, 2);
  using std::cos;
  using std::sin;
  const R H = Ic(2, 2) + mass * l * l;
  const R expected = H * qdd[0] + mass * g0 * l * cos(q[0]);
  CHECK(abs(oracle::inverse_dynamics(m, q, qd, qdd, nullptr)[0] - expected) < kTol * abs(expected));
  CHECK(abs(oracle::mass_matrix(m, q)(0, 0) - H) < kTolTight * H);
  CHECK(abs(oracle::kinetic_energy(m, q, qd) - H * qd[0] * qd[0] / 2) < kTolTight * H);
  CHECK(abs(oracle::potential_energy(m, q) - mass * g0 * l * sin(q[0])) < kTolTight);
  // An external wrench [n; f] in body coordinates: only n_z does virtual work (the origin is
  // on the axis), and it helps the joint, so tau drops by n_z.
  rbd::ExternalForces<R> fx{(V6() << R(1), R(2), fr(5, 4), R(3), -R(1), R(7)).finished()};
  const R with_f = oracle::inverse_dynamics(m, q, qd, qdd, &fx)[0];
  CHECK(abs(with_f - (expected - fr(5, 4))) < kTol * abs(expected));
}

TEST_CASE("oracle: two-link planar arm matches the textbook equations", "[oracle]") {
  // Spong, Hutchinson & Vidyasagar, Robot Modeling and Control, section 7.3.3: links rotate
  // about parallel z axes, com of link i at lc_i along the link, gravity -g0 y.
  const R m1 = R(2), m2 = fr(3, 2), l1 = fr(9, 10), lc1 = fr(2, 5), lc2 = fr(7, 20), g0 = fr(981, 100);
  const M3 I1 = inertia(1), I2 = inertia(2);
  const auto m = build({{-1, JointType::Revolute, v3(0, 0, 1), R(0), M3::Identity(), V3::Zero(), m1, v3(lc1, 0, fr(1, 10)), I1},
                        {0, JointType::Revolute, v3(0, 0, 1), R(0), M3::Identity(), v3(l1, 0, 0), m2, v3(lc2, 0, -fr(1, 5)), I2}},
                       v3(0, -g0, 0));
  VX q(2), qd(2), qdd(2);
  q << fr(3, 10), -fr(11, 10); qd << fr(13, 10), -fr(7, 10); qdd << fr(1, 2), fr(9, 4);
  using std::cos;
  using std::sin;
  const R c2 = cos(q[1]), h = -m2 * l1 * lc2 * sin(q[1]);
  MX H(2, 2);
  H(0, 0) = m1 * lc1 * lc1 + m2 * (l1 * l1 + lc2 * lc2 + 2 * l1 * lc2 * c2) + I1(2, 2) + I2(2, 2);
  H(0, 1) = H(1, 0) = m2 * (lc2 * lc2 + l1 * lc2 * c2) + I2(2, 2);
  H(1, 1) = m2 * lc2 * lc2 + I2(2, 2);
  const R phi2 = m2 * lc2 * g0 * cos(q[0] + q[1]);
  const R phi1 = (m1 * lc1 + m2 * l1) * g0 * cos(q[0]) + phi2;
  VX expected = H * qdd;
  expected[0] += h * qd[1] * qd[1] + 2 * h * qd[0] * qd[1] + phi1;
  expected[1] += -h * qd[0] * qd[0] + phi2;
  CHECK(rel(oracle::mass_matrix(m, q), H) < kTol);
  CHECK(rel(oracle::inverse_dynamics(m, q, qd, qdd, nullptr), expected) < kTol);
}

TEST_CASE("oracle: free body has the spatial inertia and the gyroscopic wrench", "[oracle]") {
  // No gravity. Velocity variables are the body twist (w, v), so H is the spatial inertia
  // about the body origin [Ibar, m[c]x; m[c]x^T, m 1] and tau is the Newton-Euler wrench.
  const R mass = fr(5, 2);
  const V3 c = v3(fr(1, 5), -fr(3, 10), fr(1, 10));
  const M3 Ic = inertia(3);
  const auto m = build({{-1, JointType::Free, v3(0, 0, 1), R(0), rot(fr(1, 3), v3(1, 1, 0)), v3(1, 2, 3), mass, c, Ic}}, V3::Zero());
  const Eigen::Quaternion<R> Q(Eigen::AngleAxis<R>(fr(7, 5), v3(1, -2, 2).normalized()));
  VX q(7), qd(6), qdd(6);
  q << Q.w(), Q.x(), Q.y(), Q.z(), fr(1, 2), -R(1), fr(3, 2);
  qd << fr(3, 10), -fr(6, 5), fr(7, 10), fr(1, 2), fr(2, 5), -fr(9, 10);
  qdd << -fr(1, 3), fr(1, 7), R(2), fr(1, 9), -fr(4, 3), fr(1, 2);
  MX I(6, 6);
  const M3 cx = rbd::skew<R>(c);
  I << Ic - mass * cx * cx, mass * cx, mass * cx.transpose(), mass * M3::Identity();
  CHECK(rel(oracle::mass_matrix(m, q), I) < kTol);
  const V6 zero = V6::Zero();
  const VX gyro = newton_euler(mass, c, Ic, qd, zero, V3::Zero(), zero);
  CHECK(rel(oracle::inverse_dynamics(m, q, qd, VX(V6::Zero()), nullptr), gyro) < kTol);
  // Written out for the first component: w x (Ibar w + m c x v) + v x (m (v + w x c)).
  const V3 w = qd.head<3>(), v = qd.tail<3>();
  CHECK(abs(gyro[0] - (cross(w, (Ic - mass * cx * cx) * w + mass * cross(c, v)) + cross(v, mass * (v + cross(w, c))))[0]) < kTolTight);
  rbd::ExternalForces<R> fx{(V6() << R(1), -R(2), fr(1, 3), fr(5, 4), R(0), -R(3)).finished()};
  CHECK(rel(oracle::inverse_dynamics(m, q, qd, qdd, &fx), newton_euler(mass, c, Ic, qd, qdd, V3::Zero(), fx[0])) < kTol);
}

TEST_CASE("oracle: one body on each joint type obeys Newton-Euler with gravity", "[oracle]") {
  // Body attached to the fixed base through a tilted, offset Xtree. Its twist in body
  // coordinates is S qd and its acceleration S qdd, with S the joint's constant screw axes
  // (Featherstone Table 4.1, written here from their meaning), so tau = S^T (joint wrench).
  const V3 a = v3(2, -1, 2) / R(3), g = v3(fr(1, 10), -fr(981, 100), fr(1, 5));
  const R pitch = fr(3, 20), mass = fr(7, 4);
  const V3 c = v3(fr(1, 4), fr(1, 10), -fr(3, 10));
  const M3 Ic = inertia(4), E = rot(fr(2, 3), v3(1, 2, 3)).transpose();
  const Eigen::Quaternion<R> Q(Eigen::AngleAxis<R>(fr(9, 10), v3(-1, 3, 1).normalized()));
  const R vals[7] = {fr(1, 2), -fr(7, 10), fr(6, 5), fr(3, 10), -fr(1, 4), fr(9, 10), fr(2, 5)};
  for (JointType t : {JointType::Revolute, JointType::Prismatic, JointType::Helical, JointType::Cylindrical,
                      JointType::Planar, JointType::Spherical, JointType::Free}) {
    CAPTURE(static_cast<int>(t));
    const auto m = build({{-1, t, a, pitch, E, v3(fr(1, 2), fr(1, 3), fr(1, 4)), mass, c, Ic}}, g);
    const int nv = m.nv;
    MX S = MX::Zero(6, nv);
    M3 RJ = M3::Identity();  // joint rotation, F_s in F_p
    VX q(m.nq), qd(nv), qdd(nv);
    for (int k = 0; k < nv; ++k) { qd[k] = vals[k]; qdd[k] = vals[6 - k] - fr(1, 3); }
    switch (t) {
      case JointType::Revolute: q << fr(4, 5); S.col(0) << a, V3::Zero(); RJ = rot(q[0], a); break;
      case JointType::Prismatic: q << fr(4, 5); S.col(0) << V3::Zero(), a; break;
      case JointType::Helical: q << fr(4, 5); S.col(0) << a, pitch * a; RJ = rot(q[0], a); break;
      case JointType::Cylindrical: q << fr(4, 5), -fr(1, 2); S.col(0) << a, V3::Zero(); S.col(1) << V3::Zero(), a; RJ = rot(q[0], a); break;
      case JointType::Planar:
        q << fr(4, 5), -fr(1, 2), fr(1, 3);
        S(2, 0) = S(3, 1) = S(4, 2) = R(1);
        RJ = rot(q[0], v3(0, 0, 1));
        break;
      case JointType::Spherical: q << Q.w(), Q.x(), Q.y(), Q.z(); S.topRows<3>().setIdentity(); RJ = Q.toRotationMatrix(); break;
      case JointType::Free: q << Q.w(), Q.x(), Q.y(), Q.z(), R(1), -R(2), fr(1, 2); S.setIdentity(); RJ = Q.toRotationMatrix(); break;
    }
    const V3 gb = (E.transpose() * RJ).transpose() * g;  // body orientation in world is E^T RJ
    rbd::ExternalForces<R> fx{(V6() << fr(1, 2), -R(1), fr(1, 3), R(2), fr(3, 4), -fr(1, 5)).finished()};
    const V6 V = S * qd, A = S * qdd;
    const VX expected = S.transpose() * newton_euler(mass, c, Ic, V, A, gb, fx[0]);
    CHECK(rel(oracle::inverse_dynamics(m, q, qd, qdd, &fx), expected) < kTol);
    const MX Ibar = Ic - mass * rbd::skew<R>(c) * rbd::skew<R>(c);
    MX I6(6, 6);
    I6 << Ibar, mass * rbd::skew<R>(c), mass * rbd::skew<R>(c).transpose(), mass * M3::Identity();
    CHECK(rel(oracle::mass_matrix(m, q), MX(S.transpose() * I6 * S)) < kTol);
  }
}

namespace {
// A tree with every joint type, two branches, tilted axes and offset frames.
rbd::Model<R> all_joint_tree() {
  const V3 g = v3(fr(1, 5), fr(3, 10), -fr(981, 100));
  std::vector<BodySpec> bs;
  const JointType types[7] = {JointType::Free, JointType::Revolute, JointType::Spherical, JointType::Helical,
                              JointType::Planar, JointType::Cylindrical, JointType::Prismatic};
  const int parents[7] = {-1, 0, 1, 2, 0, 4, 5};
  for (int i = 0; i < 7; ++i)
    bs.push_back({parents[i], types[i], v3(R(i % 3), R(1), R(2)).normalized(), fr(1, 10 + i),
                  rot(fr(i + 1, 4), v3(R(1), R(i), -R(1))).transpose(), v3(fr(1, 3), fr(i, 5), fr(1, 7)),
                  R(1) + fr(i, 3), v3(fr(1, 5), -fr(i, 10), fr(1, 8)), inertia(i)});
  return build(bs, g);
}
VX tree_q(const rbd::Model<R>& m) {
  VX q(m.nq);
  for (int k = 0; k < m.nq; ++k) q[k] = fr((k * 7) % 11 - 5, 6);
  oracle::normalize_quaternions(m, q);
  return q;
}
}  // namespace

TEST_CASE("oracle: H is symmetric and T = qd^T H qd / 2 on a tree of all joint types", "[oracle]") {
  const auto m = all_joint_tree();
  const VX q = tree_q(m);
  VX qd(m.nv);
  for (int k = 0; k < m.nv; ++k) qd[k] = fr((k * 5) % 13 - 6, 5);
  const MX H = oracle::mass_matrix(m, q);
  CHECK(rel(H.transpose(), H) < kTolTight);  // entries (j,k), (k,j) come from separate AD runs
  CHECK(H.ldlt().info() == Eigen::Success);
  CHECK(H.ldlt().isPositive());
  const R T = oracle::kinetic_energy(m, q, qd);
  CHECK(abs(T - R(qd.dot(H * qd)) / 2) < kTolTight * T);
}

namespace {
// Euler angles ZYX (a, b, c), R = Rz(a) Ry(b) Rx(c): the body angular velocity is
// w = J edot with the columns of J the z, y, x axes seen from the body:
// (Ry Rx)^T e_z = (-sb, sc cb, cc cb), Rx^T e_y = (0, cc, -sc), e_x.
M3 euler_J(const R& b, const R& c) {
  using std::cos;
  using std::sin;
  M3 J;
  J << -sin(b), 0, 1, sin(c) * cos(b), cos(c), 0, cos(c) * cos(b), -sin(c), 0;
  return J;
}
M3 euler_Jdot(const R& b, const R& c, const R& bd, const R& cd) {
  using std::cos;
  using std::sin;
  M3 J;
  J << -cos(b) * bd, 0, 0,
       cos(c) * cos(b) * cd - sin(c) * sin(b) * bd, -sin(c) * cd, 0,
       -sin(c) * cos(b) * cd - cos(c) * sin(b) * bd, -cos(c) * cd, 0;
  return J;
}
}  // namespace

TEST_CASE("oracle: chart joints agree with equivalent chains of 1-DoF joints", "[oracle]") {
  // A planar joint is Px Py Rz, a spherical joint Rz Ry Rx and a free joint Px Py Pz Rz Ry Rx
  // with massless intermediate bodies. Placed on a moving parent and carrying a child, the
  // chain (plain coordinates, sin/cos path) and the chart joint (Exp path) must give the same
  // dynamics: if the chart velocities are u = M r of the chain rates r, then u_dot = M rdd +
  // Mdot r, and equal power gives tau_chain = M^T tau_chart, H_chain = M^T H_chart M.
  using std::cos;
  using std::sin;
  const V3 g = v3(fr(1, 10), -fr(1, 5), -fr(981, 100));
  const BodySpec root{-1, JointType::Revolute, v3(1, 2, 2) / R(3), R(0), rot(fr(1, 2), v3(1, 0, 1)).transpose(),
                      v3(fr(1, 10), 0, fr(1, 5)), fr(3, 2), v3(fr(1, 5), fr(1, 10), 0), inertia(1)};
  const M3 E1 = rot(fr(3, 4), v3(0, 1, 1)).transpose();
  const V3 r1 = v3(fr(1, 2), -fr(1, 4), fr(1, 3)), c1 = v3(fr(1, 10), fr(3, 10), -fr(1, 5));
  const R m1 = fr(9, 4);
  const BodySpec child{-2, JointType::Helical, v3(0, 3, 4) / R(5), fr(1, 20), rot(fr(1, 5), v3(1, 1, 1)).transpose(),
                       v3(fr(1, 3), fr(1, 3), 0), fr(5, 4), v3(0, fr(1, 4), fr(1, 10)), inertia(2)};
  const BodySpec massless{0, JointType::Revolute, V3::UnitX(), R(0), M3::Identity(), V3::Zero(), R(0), V3::Zero(), M3::Zero()};
  // Chain state: root angle, chain coordinates (positions then Euler a, b, c), child angle.
  const R ea = fr(2, 5), eb = fr(-3, 5), ec = fr(7, 10), ead = fr(1, 2), ebd = -fr(4, 5), ecd = fr(3, 10);
  const V3 pos = v3(fr(1, 3), -fr(1, 2), fr(1, 5)), posd = v3(fr(3, 5), fr(1, 4), -fr(7, 10));
  const V3 edd = v3(fr(1, 3), -fr(2, 3), fr(3, 4)), posdd = v3(-fr(1, 2), fr(2, 7), fr(1, 9));
  const M3 Rot = rot(ea, V3::UnitZ()) * rot(eb, V3::UnitY()) * rot(ec, V3::UnitX());
  const Eigen::Quaternion<R> Q(Rot);
  for (JointType t : {JointType::Planar, JointType::Spherical, JointType::Free}) {
    CAPTURE(static_cast<int>(t));
    std::vector<BodySpec> chart{root}, chain{root};
    chart.push_back({0, t, V3::UnitZ(), R(0), E1, r1, m1, c1, inertia(3)});
    std::vector<std::pair<JointType, V3>> steps;  // the equivalent chain
    if (t == JointType::Planar) steps = {{JointType::Prismatic, V3::UnitX()}, {JointType::Prismatic, V3::UnitY()}, {JointType::Revolute, V3::UnitZ()}};
    if (t == JointType::Spherical) steps = {{JointType::Revolute, V3::UnitZ()}, {JointType::Revolute, V3::UnitY()}, {JointType::Revolute, V3::UnitX()}};
    if (t == JointType::Free)
      steps = {{JointType::Prismatic, V3::UnitX()}, {JointType::Prismatic, V3::UnitY()}, {JointType::Prismatic, V3::UnitZ()},
               {JointType::Revolute, V3::UnitZ()}, {JointType::Revolute, V3::UnitY()}, {JointType::Revolute, V3::UnitX()}};
    for (size_t s = 0; s < steps.size(); ++s) {
      BodySpec b = massless;
      b.parent = static_cast<int>(chain.size()) - 1;
      b.type = steps[s].first;
      b.axis = steps[s].second;
      if (s == 0) { b.E = E1; b.r = r1; }
      if (s + 1 == steps.size()) { b.mass = m1; b.com = c1; b.Icom = inertia(3); }
      chain.push_back(b);
    }
    BodySpec ch = child;
    ch.parent = 1;
    chart.push_back(ch);
    ch.parent = static_cast<int>(chain.size()) - 1;
    chain.push_back(ch);
    const auto mA = build(chart, g), mB = build(chain, g);
    const int nB = mB.nv, nA = mA.nv, nc = nB - 2;  // nc = chain dofs = chart dofs
    // Chain state (r, rd, rdd) in model B's order.
    VX qB(nB), rd(nB), rdd(nB);
    VX cq(nc), cd(nc), cdd(nc);
    if (t == JointType::Planar) { cq << pos[0], pos[1], ea; cd << posd[0], posd[1], ead; cdd << posdd[0], posdd[1], edd[0]; }
    if (t == JointType::Spherical) { cq << ea, eb, ec; cd << ead, ebd, ecd; cdd = edd; }
    if (t == JointType::Free) { cq << pos, ea, eb, ec; cd << posd, ead, ebd, ecd; cdd << posdd, edd; }
    qB << fr(3, 10), cq, -fr(2, 5);
    rd << fr(7, 10), cd, fr(6, 5);
    rdd << -fr(1, 2), cdd, fr(1, 4);
    // M (chart velocities from chain rates) and Mdot, identity for root and child.
    MX M = MX::Zero(nA, nB), Md = MX::Zero(nA, nB);
    M(0, 0) = M(nA - 1, nB - 1) = R(1);
    VX qA(mA.nq);
    if (t == JointType::Planar) {
      const M3 Rz = rot(ea, V3::UnitZ());
      const V3 w = v3(0, 0, ead);
      M(1, 3) = R(1);
      M.block<2, 2>(2, 1) = Rz.transpose().topLeftCorner<2, 2>();
      Md.block<2, 2>(2, 1) = (-rbd::skew<R>(w) * Rz.transpose()).topLeftCorner<2, 2>();  // d(R^T)/dt = -[w]x R^T
      qA << qB[0], ea, pos[0], pos[1], qB[nB - 1];
    } else {
      const int o = t == JointType::Free ? 3 : 0;  // Euler rates' column offset inside the chain
      const M3 J = euler_J(eb, ec), Jd = euler_Jdot(eb, ec, ebd, ecd);
      M.block<3, 3>(1, 1 + o) = J;
      Md.block<3, 3>(1, 1 + o) = Jd;
      if (t == JointType::Free) {
        const V3 w = J * v3(ead, ebd, ecd);
        M.block<3, 3>(4, 1) = Rot.transpose();
        Md.block<3, 3>(4, 1) = -rbd::skew<R>(w) * Rot.transpose();
        qA << qB[0], Q.w(), Q.x(), Q.y(), Q.z(), pos, qB[nB - 1];
      } else {
        qA << qB[0], Q.w(), Q.x(), Q.y(), Q.z(), qB[nB - 1];
      }
    }
    const VX qdA = M * rd, qddA = M * rdd + Md * rd;
    rbd::ExternalForces<R> fA(mA.nb, V6::Zero()), fB(mB.nb, V6::Zero());
    fA[1] << fr(1, 2), -R(1), fr(1, 3), R(2), fr(3, 4), -fr(1, 5);
    fA[2] << -fr(1, 4), fr(1, 2), R(1), fr(1, 3), -fr(1, 2), fr(2, 3);
    fB[mB.nb - 2] = fA[1];
    fB[mB.nb - 1] = fA[2];
    const VX tauA = oracle::inverse_dynamics(mA, qA, qdA, qddA, &fA);
    const VX tauB = oracle::inverse_dynamics(mB, qB, rd, rdd, &fB);
    CHECK(rel(MX(M.transpose() * tauA), tauB) < kTol);
    CHECK(rel(MX(M.transpose() * oracle::mass_matrix(mA, qA) * M), oracle::mass_matrix(mB, qB)) < kTol);
    CHECK(abs(oracle::potential_energy(mA, qA) - oracle::potential_energy(mB, qB)) < kTol);
    CHECK(abs(oracle::kinetic_energy(mA, qA, qdA) / oracle::kinetic_energy(mB, qB, rd) - 1) < kTol);
  }
}

TEST_CASE("oracle: refuses inputs it cannot judge", "[oracle]") {
  const auto m = all_joint_tree();
  const VX q = tree_q(m), v = VX::Zero(m.nv);
  CHECK_THROWS_AS(oracle::mass_matrix(m, VX(q.head(m.nq - 1))), std::invalid_argument);
  CHECK_THROWS_WITH(oracle::inverse_dynamics(m, q, VX(v.head(m.nv - 1)), v, nullptr), Catch::Contains("qd has size"));
  CHECK_THROWS_WITH(oracle::inverse_dynamics(m, q, v, VX(v.head(m.nv - 1)), nullptr), Catch::Contains("qdd has size"));
  rbd::ExternalForces<R> f(2, V6::Zero());
  CHECK_THROWS_WITH(oracle::inverse_dynamics(m, q, v, v, &f), Catch::Contains("f_ext has size"));
  // A quaternion or rotation rounded in double is not rigid to 50 digits.
  VX qbad = q;
  qbad.head<4>() = q.head<4>().unaryExpr([](const R& x) { return R(static_cast<double>(x)); });
  CHECK_THROWS_WITH(oracle::potential_energy(m, qbad), Catch::Contains("quaternion"));
  auto mbad = m;
  mbad.Xtree[1].E = m.Xtree[1].E.unaryExpr([](const R& x) { return R(static_cast<double>(x)); });
  CHECK_THROWS_WITH(oracle::potential_energy(mbad, q), Catch::Contains("Xtree"));
  CHECK_NOTHROW(oracle::potential_energy(oracle::exact_rigid(mbad), q));
}

}  // namespace test_oracle_selftest
