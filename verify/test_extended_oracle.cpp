// Self-test of the Lagrangian oracle's extended joints (reference/lagrange_oracle.hpp on an
// ExtendedModel: Featherstone's rack and pinion, Example 4.6; reversed polarity, Table 4.2;
// prescribed drives, the sigma of Eq. 3.32). No algorithms/ code is called: models are filled
// in field by field (verify/support/exact_model.hpp), rotations come from Eigen's Geometry
// module, and the expected values are closed forms derived below, Newton-Euler equations in
// plain 3D vectors, or the (separately self-tested, verify/test_oracle_selftest.cpp) plain
// oracle applied to a hand-built chain of Table 4.1 joints that has the same motion.
//
// Tolerances (tol<S>(), tight<S>()):
//  - Reference (eps ~ 1e-50): as in test_oracle_selftest.cpp, one oracle call performs at most
//    ~1e5 roundings on O(1) quantities with mild cancellation, so its relative error is below
//    ~1e-45; 1e-40 leaves a margin of 1e5 and still fails a modelling or differentiation
//    mistake (O(1), or 1e-16 for data rounded in double) by 25 orders of magnitude. Checks
//    with fewer steps (one energy, one H entry) use 1e-45.
//  - double (eps = 1.1e-16): the same ~1e5 roundings bound the error by ~1e-11 relative when
//    they accumulate linearly (worst case); 1e-11 is that bound, ~1e3 above the errors seen
//    (~1e-14), and 10 orders of magnitude below an O(1) mistake. Fewer steps: 1e-13.
//  - Exact identities (radius 0 is the revolute joint, time-independence without a drive) are
//    checked with ==: the oracle evaluates the same operations in the same order there.
#include <catch2/catch.hpp>

#include <Eigen/Geometry>

#include "extended_joints/extended_model.hpp"
#include "reference/lagrange_oracle.hpp"
#include "reference/reference_scalar.hpp"
#include "verify/support/exact_model.hpp"

namespace test_extended_oracle {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

namespace {

using rbd::JointType;
using R = rbd::Reference;
namespace oracle = rbd::oracle;
template <class S> using V3 = rbd::Vec3<S>;
template <class S> using M3 = rbd::Mat3<S>;
template <class S> using V6 = rbd::Vec6<S>;
template <class S> using VX = rbd::VecX<S>;
template <class S> using MX = rbd::MatX<S>;

template <class S> S tol() {
  if constexpr (std::is_same_v<S, double>) return 1e-11;
  else return S("1e-40");
}
template <class S> S tight() {
  if constexpr (std::is_same_v<S, double>) return 1e-13;
  else return S("1e-45");
}
template <class S> const char* name() { return std::is_same_v<S, double> ? "double" : "Reference"; }

template <class S> S fr(int a, int b) { return S(a) / S(b); }
template <class S> V3<S> v3(const S& x, const S& y, const S& z) { return V3<S>(x, y, z); }
template <class S> M3<S> rot(const S& angle, const V3<S>& axis) {
  return Eigen::AngleAxis<S>(angle, axis.normalized()).toRotationMatrix();
}
template <class S> M3<S> skew3(const V3<S>& c) {
  M3<S> X;
  X << S(0), -c[2], c[1], c[2], S(0), -c[0], -c[1], c[0], S(0);
  return X;
}
template <class S> S rel(const MX<S>& a, const MX<S>& b) { return (a - b).norm() / b.norm(); }

// A generic symmetric positive-definite rotational inertia.
template <class S> M3<S> inertia(int k) {
  M3<S> I;
  I << fr<S>(3, 2) + fr<S>(k, 10), fr<S>(1, 10), -fr<S>(1, 5),
       fr<S>(1, 10), S(2) + fr<S>(k, 7), fr<S>(1, 7),
       -fr<S>(1, 5), fr<S>(1, 7), fr<S>(5, 2);
  return I;
}

// One body of an extended model: the Table 4.1 joint and tree data, plus its extension.
template <class S> struct Spec {
  int parent;
  JointType type;
  V3<S> axis;
  S pitch;
  M3<S> E;  // Xtree rotation (coordinate transform parent -> F_p)
  V3<S> r;  // Xtree translation (F_p origin in parent coordinates)
  S mass;
  V3<S> com;
  M3<S> Icom;
  rbd::JointExtension<S> ext;
};

template <class S> rbd::ExtendedModel<S> build(const std::vector<Spec<S>>& bs, const V3<S>& g) {
  rbd::ExtendedModel<S> m;
  m.tree.name = "extended_oracle_selftest";
  m.tree.gravity = g;
  for (const Spec<S>& b : bs) {
    rbd::verify::append_exact_body<S>(m.tree, b.parent, b.type, b.axis, b.pitch, rbd::Transform<S>{b.E, b.r}, b.mass,
                                      b.com, b.Icom);
    m.ext.push_back(b.ext);
  }
  return m;
}

template <class S> rbd::Drive<S> drive(bool rotational, const V3<S>& axis, const S& pitch, const S& A, const S& w,
                                       const S& ph) {
  return rbd::Drive<S>{rotational, axis, pitch, A, w, ph};
}
template <class S> rbd::JointExtension<S> ext(bool rack, const S& radius, bool reversed, const rbd::Drive<S>& d) {
  return rbd::JointExtension<S>{rack, radius, reversed, d};
}
template <class S> rbd::JointExtension<S> no_ext() { return ext<S>(false, S(0), false, rbd::Drive<S>{}); }

// phi(t) = A sin(w t + ph) and its first two derivatives, written out (Drive's own member
// functions are what the algorithms use; the test does not lean on them either).
template <class S> std::array<S, 3> phi(const rbd::Drive<S>& d, const S& t) {
  using std::cos;
  using std::sin;
  const S a = d.omega * t + d.phase;
  return {d.amplitude * sin(a), d.amplitude * d.omega * cos(a), -d.amplitude * d.omega * d.omega * sin(a)};
}

// Wrench [n; f] about the body origin, body coordinates, that the joint must apply to one
// rigid body with body twist (w, v), its rate (wd, vd), gravity gb (body coordinates) and
// external wrench fx: with p = m (v + w x c) and L = Ibar w + m c x v (Ibar = Ic - m [c]x^2),
// F = pdot + w x p and N = Ldot + w x L + v x p (test_oracle_selftest.cpp derives it).
template <class S>
V6<S> newton_euler(const S& m, const V3<S>& c, const M3<S>& Ic, const V6<S>& V, const V6<S>& A, const V3<S>& gb,
                   const V6<S>& fx) {
  const V3<S> w = V.template head<3>(), v = V.template tail<3>(), wd = A.template head<3>(), vd = A.template tail<3>();
  const M3<S> Ibar = Ic - m * skew3<S>(c) * skew3<S>(c);
  const V3<S> p = m * (v + w.cross(c)), L = Ibar * w + m * c.cross(v);
  const V3<S> pdot = m * (vd + wd.cross(c)), Ldot = Ibar * wd + m * c.cross(vd);
  V6<S> out;
  out << Ldot + w.cross(L) + v.cross(p) - c.cross(m * gb) - fx.template head<3>(),
      pdot + w.cross(p) - m * gb - fx.template tail<3>();
  return out;
}

// ---------------------------------------------------------------------------------------
// (a) Rack and pinion.
template <class S> void check_rack() {
  CAPTURE(name<S>());
  using std::cos;
  using std::sin;
  const S r = fr<S>(3, 10), mass = fr<S>(7, 4), g0 = fr<S>(981, 100);
  const M3<S> Ic = inertia<S>(2);
  VX<S> q(1), qd(1), qdd(1);
  q << fr<S>(4, 5);
  qd << -fr<S>(13, 10);
  qdd << fr<S>(3, 7);
  const S t = fr<S>(1, 3);  // no drive: the time must not matter
  const S H = mass * r * r + Ic(2, 2);
  {
    // Com at the pinion centre (the body origin), Xtree identity. The centre is at (r q, 0, 0),
    // moving at r qd along x; the body spins at qd about z. T = (m r^2 + Izz) qd^2 / 2
    // (products of inertia do not enter a rotation about z), with no q in it, so no velocity
    // terms. Gravity -g0 y, perpendicular to the rack: V = 0, tau = (m r^2 + Izz) qdd.
    // Gravity -g0 x, along the rack: V = -m g . p = m g0 r q, tau = (m r^2 + Izz) qdd + m g0 r.
    const Spec<S> b{-1, JointType::Revolute, v3<S>(0, 0, 1), S(0), M3<S>::Identity(), V3<S>::Zero(),
                    mass, V3<S>::Zero(), Ic, ext<S>(true, r, false, rbd::Drive<S>{})};
    const auto m_perp = build<S>({b}, v3<S>(0, -g0, 0)), m_along = build<S>({b}, v3<S>(-g0, 0, 0));
    CHECK(abs(oracle::inverse_dynamics(m_perp, t, q, qd, qdd, nullptr)[0] - H * qdd[0]) < tol<S>() * H);
    CHECK(abs(oracle::inverse_dynamics(m_along, t, q, qd, qdd, nullptr)[0] - (H * qdd[0] + mass * g0 * r)) <
          tol<S>() * H);
    CHECK(abs(oracle::mass_matrix(m_perp, t, q)(0, 0) - H) < tight<S>() * H);
    CHECK(abs(oracle::kinetic_energy(m_perp, t, q, qd) - H * qd[0] * qd[0] / 2) < tight<S>() * H);
    CHECK(abs(oracle::potential_energy(m_along, t, q) - mass * g0 * r * q[0]) < tight<S>() * H);
  }
  {
    // General: tilted offset Xtree, com off the axis, generic gravity and external wrench. In
    // body coordinates the twist is V = S(q) qd with S = (0, 0, 1, r cos q, -r sin q, 0):
    // w = qd z and v = Rz(q)^T (r qd, 0, 0). The components' rate is A = S qdd + dS/dq qd^2,
    // dS/dq = (0, 0, 0, -r sin q, -r cos q, 0), and tau = S^T (Newton-Euler wrench).
    const M3<S> E = rot<S>(fr<S>(2, 3), v3<S>(1, 2, 3)).transpose();
    const V3<S> c = v3<S>(fr<S>(1, 4), fr<S>(1, 10), -fr<S>(3, 10)), g = v3<S>(fr<S>(1, 10), -g0, fr<S>(1, 5));
    const auto m = build<S>({{-1, JointType::Revolute, v3<S>(0, 0, 1), S(0), E, v3<S>(fr<S>(1, 2), fr<S>(1, 3), S(0)),
                              mass, c, Ic, ext<S>(true, r, false, rbd::Drive<S>{})}},
                            g);
    V6<S> Sq, dS;
    Sq << S(0), S(0), S(1), r * cos(q[0]), -r * sin(q[0]), S(0);
    dS << S(0), S(0), S(0), -r * sin(q[0]), -r * cos(q[0]), S(0);
    const V6<S> V = Sq * qd[0], A = Sq * qdd[0] + dS * qd[0] * qd[0];
    const V3<S> gb = (E.transpose() * rot<S>(q[0], V3<S>::UnitZ())).transpose() * g;
    rbd::ExternalForces<S> fx{(V6<S>() << fr<S>(1, 2), -S(1), fr<S>(1, 3), S(2), fr<S>(3, 4), -fr<S>(1, 5)).finished()};
    const S expected = Sq.dot(newton_euler<S>(mass, c, Ic, V, A, gb, fx[0]));
    CHECK(abs(oracle::inverse_dynamics(m, t, q, qd, qdd, &fx)[0] - expected) < tol<S>() * abs(expected));
    MX<S> I6(6, 6);
    const M3<S> cx = skew3<S>(c);
    I6 << Ic - mass * cx * cx, mass * cx, mass * cx.transpose(), mass * M3<S>::Identity();
    const S Hq = Sq.dot(I6 * Sq);
    CHECK(abs(oracle::mass_matrix(m, t, q)(0, 0) - Hq) < tight<S>() * Hq);
  }
}

TEST_CASE("extended oracle: rack and pinion matches its closed forms and Newton-Euler", "[oracle][extended]") {
  check_rack<double>();
  check_rack<R>();
}

// (c) A rack of radius 0 is the revolute joint about z: the oracle must give bit-identical
// results through the extended path (rack pose, p = 0 * q) and the plain one.
template <class S> void check_rack_zero() {
  CAPTURE(name<S>());
  const V3<S> g = v3<S>(fr<S>(1, 5), fr<S>(3, 10), -fr<S>(981, 100));
  std::vector<Spec<S>> bs = {
      {-1, JointType::Revolute, v3<S>(2, -1, 2) / S(3), S(0), rot<S>(fr<S>(1, 2), v3<S>(1, 0, 1)).transpose(),
       v3<S>(fr<S>(1, 10), 0, fr<S>(1, 5)), fr<S>(3, 2), v3<S>(fr<S>(1, 5), fr<S>(1, 10), 0), inertia<S>(1), no_ext<S>()},
      {0, JointType::Revolute, v3<S>(0, 0, 1), S(0), rot<S>(fr<S>(3, 4), v3<S>(0, 1, 1)).transpose(),
       v3<S>(fr<S>(1, 2), -fr<S>(1, 4), fr<S>(1, 3)), fr<S>(9, 4), v3<S>(fr<S>(1, 10), fr<S>(3, 10), -fr<S>(1, 5)),
       inertia<S>(3), ext<S>(true, S(0), false, rbd::Drive<S>{})},
      {1, JointType::Helical, v3<S>(0, 3, 4) / S(5), fr<S>(1, 20), rot<S>(fr<S>(1, 5), v3<S>(1, 1, 1)).transpose(),
       v3<S>(fr<S>(1, 3), fr<S>(1, 3), 0), fr<S>(5, 4), v3<S>(0, fr<S>(1, 4), fr<S>(1, 10)), inertia<S>(2), no_ext<S>()}};
  const auto me = build<S>(bs, g);
  CHECK(me.ext[1].rack_and_pinion);  // the extended path is taken
  const rbd::Model<S>& mp = me.tree;
  VX<S> q(3), qd(3), qdd(3);
  q << fr<S>(3, 10), -fr<S>(11, 10), fr<S>(2, 5);
  qd << fr<S>(13, 10), -fr<S>(7, 10), fr<S>(1, 2);
  qdd << fr<S>(1, 2), fr<S>(9, 4), -fr<S>(1, 3);
  rbd::ExternalForces<S> fx(3, (V6<S>() << S(1), -S(2), fr<S>(1, 3), fr<S>(5, 4), S(0), -S(3)).finished());
  const S t = fr<S>(7, 5);
  CHECK(oracle::inverse_dynamics(me, t, q, qd, qdd, &fx) == oracle::inverse_dynamics(mp, q, qd, qdd, &fx));
  CHECK(oracle::mass_matrix(me, t, q) == oracle::mass_matrix(mp, q));
  CHECK(oracle::kinetic_energy(me, t, q, qd) == oracle::kinetic_energy(mp, q, qd));
  CHECK(oracle::potential_energy(me, t, q) == oracle::potential_energy(mp, q));
  // And a radius does change the dynamics (the comparison above can fail).
  auto m2 = me;
  m2.ext[1].radius = fr<S>(1, 4);
  CHECK(abs(oracle::mass_matrix(m2, t, q)(1, 1) - oracle::mass_matrix(mp, q)(1, 1)) > S(1e-3));
}

TEST_CASE("extended oracle: a rack of radius 0 is the revolute joint exactly", "[oracle][extended]") {
  check_rack_zero<double>();
  check_rack_zero<R>();
}

// (b) Reversing a 1-DoF joint (Table 4.2): the pose of F_s in F_p is T(q)^-1. For a revolute
// joint about a, R(a, q)^-1 = R(a, -q) = R(-a, q); for a prismatic joint along a, the
// translation q a inverts to q (-a). So a reversed revolute about z is a forward revolute about
// -z, and a reversed prismatic along a is a prismatic along -a, with the same q, qd, qdd: tau
// and H must be identical (to the tolerance; the rotation is evaluated by a different path).
template <class S> void check_reversed_1dof(JointType type, const V3<S>& axis) {
  CAPTURE(name<S>(), static_cast<int>(type));
  const V3<S> g = v3<S>(fr<S>(1, 10), -fr<S>(981, 100), fr<S>(1, 5));
  std::vector<Spec<S>> bs = {
      {-1, JointType::Revolute, v3<S>(1, 2, 2) / S(3), S(0), rot<S>(fr<S>(1, 2), v3<S>(1, 0, 1)).transpose(),
       v3<S>(fr<S>(1, 10), 0, fr<S>(1, 5)), fr<S>(3, 2), v3<S>(fr<S>(1, 5), fr<S>(1, 10), 0), inertia<S>(1), no_ext<S>()},
      {0, type, axis, S(0), rot<S>(fr<S>(3, 4), v3<S>(0, 1, 1)).transpose(), v3<S>(fr<S>(1, 2), -fr<S>(1, 4), fr<S>(1, 3)),
       fr<S>(9, 4), v3<S>(fr<S>(1, 10), fr<S>(3, 10), -fr<S>(1, 5)), inertia<S>(3), ext<S>(false, S(0), true, rbd::Drive<S>{})},
      {1, JointType::Revolute, v3<S>(0, 3, 4) / S(5), S(0), rot<S>(fr<S>(1, 5), v3<S>(1, 1, 1)).transpose(),
       v3<S>(fr<S>(1, 3), fr<S>(1, 3), 0), fr<S>(5, 4), v3<S>(0, fr<S>(1, 4), fr<S>(1, 10)), inertia<S>(2), no_ext<S>()}};
  const auto mr = build<S>(bs, g);
  bs[1].axis = -axis;
  bs[1].ext.reversed = false;
  const auto mf = build<S>(bs, g);
  VX<S> q(3), qd(3), qdd(3);
  q << fr<S>(3, 10), -fr<S>(11, 10), fr<S>(2, 5);
  qd << fr<S>(13, 10), -fr<S>(7, 10), fr<S>(1, 2);
  qdd << fr<S>(1, 2), fr<S>(9, 4), -fr<S>(1, 3);
  rbd::ExternalForces<S> fx(3, (V6<S>() << S(1), -S(2), fr<S>(1, 3), fr<S>(5, 4), S(0), -S(3)).finished());
  const S t(0);
  CHECK(rel<S>(oracle::inverse_dynamics(mr, t, q, qd, qdd, &fx), oracle::inverse_dynamics(mf, t, q, qd, qdd, &fx)) <
        tol<S>());
  CHECK(rel<S>(oracle::mass_matrix(mr, t, q), oracle::mass_matrix(mf, t, q)) < tol<S>());
  // Not reversing changes the answer (the check above can fail).
  CHECK(rel<S>(oracle::inverse_dynamics(mr, t, q, qd, qdd, &fx), oracle::inverse_dynamics(mr.tree, q, qd, qdd, &fx)) >
        S(1e-3));
}

TEST_CASE("extended oracle: reversed revolute and prismatic joints are the forward joints about -axis",
          "[oracle][extended]") {
  check_reversed_1dof<double>(JointType::Revolute, v3<double>(0, 0, 1));
  check_reversed_1dof<R>(JointType::Revolute, v3<R>(0, 0, 1));
  check_reversed_1dof<R>(JointType::Revolute, v3<R>(2, -1, 2) / R(3));
  check_reversed_1dof<double>(JointType::Prismatic, v3<double>(2, -1, 2) / 3.0);
  check_reversed_1dof<R>(JointType::Prismatic, v3<R>(2, -1, 2) / R(3));
}

// (d) A pendulum on a support oscillating along x (translational drive along x of F_p),
// revolute about z, com at (0, -l, d) in the body (hanging straight down at q = 0), gravity
// -g0 y, support position phi(t). The com is at (phi + l sin q, -l cos q, d), so with
// I = Izz + m l^2 (a rotation about z sees only Izz):
//   T = m/2 (phid^2 + 2 l cos q qd phid) + I qd^2 / 2,   V = -m g0 l cos q,
//   dL/dqd = I qd + m l cos q phid,  d/dt: I qdd - m l sin q qd phid + m l cos q phidd,
//   dL/dq = -m l sin q qd phid - m g0 l sin q,
//   tau = I qdd + m g0 l sin q + m l cos q phidd(t).
// H = I must not see the b^T qd term (b = m l cos q phid).
template <class S> void check_pendulum_on_shaker() {
  CAPTURE(name<S>());
  using std::cos;
  using std::sin;
  const S mass = fr<S>(3, 2), l = fr<S>(7, 10), d = fr<S>(1, 5), g0 = fr<S>(981, 100);
  const M3<S> Ic = inertia<S>(1);
  const rbd::Drive<S> dr = drive<S>(false, v3<S>(1, 0, 0), S(0), fr<S>(3, 10), fr<S>(5, 2), fr<S>(1, 7));
  const auto m = build<S>({{-1, JointType::Revolute, v3<S>(0, 0, 1), S(0), M3<S>::Identity(), V3<S>::Zero(), mass,
                            v3<S>(0, -l, d), Ic, ext<S>(false, S(0), false, dr)}},
                          v3<S>(0, -g0, 0));
  VX<S> q(1), qd(1), qdd(1);
  q << fr<S>(3, 10);
  qd << S(2);
  qdd << -fr<S>(1, 2);
  for (const S t : {S(0), fr<S>(7, 10), fr<S>(-13, 4)}) {
    CAPTURE(static_cast<double>(t));
    const auto [p, pd, pdd] = phi<S>(dr, t);
    const S I = Ic(2, 2) + mass * l * l;
    const S expected = I * qdd[0] + mass * g0 * l * sin(q[0]) + mass * l * cos(q[0]) * pdd;
    CHECK(abs(oracle::inverse_dynamics(m, t, q, qd, qdd, nullptr)[0] - expected) < tol<S>() * I);
    CHECK(abs(oracle::mass_matrix(m, t, q)(0, 0) - I) < tight<S>() * I);
    const S T = mass / 2 * (pd * pd + 2 * l * cos(q[0]) * qd[0] * pd) + I * qd[0] * qd[0] / 2;
    CHECK(abs(oracle::kinetic_energy(m, t, q, qd) - T) < tight<S>() * I);
    CHECK(abs(oracle::potential_energy(m, t, q) + mass * g0 * l * cos(q[0])) < tight<S>() * I);
  }
}

TEST_CASE("extended oracle: pendulum on an oscillating support matches its closed form", "[oracle][extended]") {
  check_pendulum_on_shaker<double>();
  check_pendulum_on_shaker<R>();
}

// A rotational drive about z (pitch 0) followed by a revolute joint about z: the pose
// Rz(phi(t)) Rz(q) = Rz(q + phi(t)), so the body moves as on a plain revolute joint with angle
// q + phi, rate qd + phid, acceleration qdd + phidd; the joint torque (and a child's) is the
// plain model's there, and H is the plain H at angle q + phi.
template <class S> void check_rotational_drive() {
  CAPTURE(name<S>());
  const V3<S> g = v3<S>(fr<S>(1, 10), -fr<S>(981, 100), fr<S>(1, 5));
  const rbd::Drive<S> dr = drive<S>(true, v3<S>(0, 0, 1), S(0), fr<S>(2, 5), fr<S>(3, 2), -fr<S>(1, 3));
  std::vector<Spec<S>> bs = {
      {-1, JointType::Revolute, v3<S>(0, 0, 1), S(0), rot<S>(fr<S>(1, 2), v3<S>(1, 0, 1)).transpose(),
       v3<S>(fr<S>(1, 10), 0, fr<S>(1, 5)), fr<S>(3, 2), v3<S>(fr<S>(1, 5), fr<S>(1, 10), fr<S>(1, 7)), inertia<S>(1),
       ext<S>(false, S(0), false, dr)},
      {0, JointType::Revolute, v3<S>(0, 3, 4) / S(5), S(0), rot<S>(fr<S>(1, 5), v3<S>(1, 1, 1)).transpose(),
       v3<S>(fr<S>(1, 3), fr<S>(1, 3), 0), fr<S>(5, 4), v3<S>(0, fr<S>(1, 4), fr<S>(1, 10)), inertia<S>(2), no_ext<S>()}};
  const auto m = build<S>(bs, g);
  VX<S> q(2), qd(2), qdd(2);
  q << fr<S>(3, 10), -fr<S>(11, 10);
  qd << fr<S>(13, 10), -fr<S>(7, 10);
  qdd << fr<S>(1, 2), fr<S>(9, 4);
  rbd::ExternalForces<S> fx(2, (V6<S>() << S(1), -S(2), fr<S>(1, 3), fr<S>(5, 4), S(0), -S(3)).finished());
  for (const S t : {fr<S>(1, 4), fr<S>(-9, 5)}) {
    CAPTURE(static_cast<double>(t));
    const auto [p, pd, pdd] = phi<S>(dr, t);
    VX<S> qp = q, qdp = qd, qddp = qdd;
    qp[0] += p;
    qdp[0] += pd;
    qddp[0] += pdd;
    CHECK(rel<S>(oracle::inverse_dynamics(m, t, q, qd, qdd, &fx), oracle::inverse_dynamics(m.tree, qp, qdp, qddp, &fx)) <
          tol<S>());
    CHECK(rel<S>(oracle::mass_matrix(m, t, q), oracle::mass_matrix(m.tree, qp)) < tol<S>());
    CHECK(abs(oracle::kinetic_energy(m, t, q, qd) - oracle::kinetic_energy(m.tree, qp, qdp)) <
          tight<S>() * oracle::kinetic_energy(m.tree, qp, qdp));
  }
}

TEST_CASE("extended oracle: a rotational drive about a revolute joint's axis adds phi(t) to its angle",
          "[oracle][extended]") {
  check_rotational_drive<double>();
  check_rotational_drive<R>();
}

// ---------------------------------------------------------------------------------------
// Every joint type x polarity x drive against a hand-built chain of plain Table 4.1 joints
// with the same motion, judged by the plain oracle (self-tested on its own).
//
// The chain for one extended body i (massless bodies except the last, which carries i's
// inertia; the first takes i's Xtree, the others identity):
//   forward:  [drive steps] then [core steps];  reversed: [core^-1 steps] then [drive^-1 steps]
// since T_fwd = D C and T_fwd^-1 = C^-1 D^-1. With a = drive axis, h = pitch:
//   D  = Trans(h phi a) Rot(a, phi) -> prismatic along a at h phi, revolute about a at phi
//        (translational drive: prismatic along a at phi alone);
//   D^-1 = Trans(-h phi a) Rot(a, -phi) -> the same steps at -h phi and -phi.
//   rack C = Trans(r q x) Rz(q) -> prismatic along x at r q, revolute about z at q;
//   rack C^-1 = Rz(-q) Trans(-r q x) -> revolute about -z at q, prismatic along x at -r q.
//   revolute/prismatic/helical/cylindrical C^-1: the same joint about -axis (R(a,-q) = R(-a,q),
//   helical [R(a,-q), -h q a] = helical about -a with pitch h), same coordinates.
//   chart joint C(q) Exp(xi): C^-1 comes from a forward chart joint at the inverse pose T^-1,
//   whose body twist is -Ad_T xid (P = T^-1: Pdot = -xi^ P = P (-Ad_T xi)^, Ad_T = [R 0;
//   [p]R R]); its rate is -Ad_T xidd because d/dt(Ad_T xi) = Ad_T (ad_xi xi + xid) and
//   ad_xi xi = 0. So the chart coordinates map by M = -S^T Ad_T S (S selects the joint's
//   twist subspace, which Ad_T of a planar pose preserves).
// Chain velocities: rd = M qd + (drive rates), rdd = M qdd + (drive accelerations) (M is
// constant along the motion in every case above). Virtual displacements at fixed t are
// M dq, so equal virtual power gives tau_ext = M^T tau_chain and H_ext = M^T H_chain M.
template <class S> struct Chain {
  rbd::Model<S> m;
  VX<S> q, rd, rdd;
  MX<S> M;
  std::vector<int> last;  // chain body carrying extended body i's inertia
};

template <class S> MX<S> adjoint(const M3<S>& Rm, const V3<S>& p) {
  MX<S> A = MX<S>::Zero(6, 6);
  A.template topLeftCorner<3, 3>() = Rm;
  A.template bottomRightCorner<3, 3>() = Rm;
  A.template bottomLeftCorner<3, 3>() = skew3<S>(p) * Rm;
  return A;
}

template <class S>
Chain<S> chain_of(const std::vector<Spec<S>>& bs, const rbd::ExtendedModel<S>& A, const S& t, const VX<S>& qA,
                  const VX<S>& qdA, const VX<S>& qddA) {
  struct Step {
    JointType type;
    V3<S> axis;
    S pitch;
    std::vector<S> q;
    MX<S> Mi;       // rows: this step's rates; cols: body i's velocity variables
    VX<S> dr, da;   // drive rate and acceleration added
  };
  Chain<S> c;
  c.m.name = "extended_oracle_chain";
  c.m.gravity = A.tree.gravity;
  std::vector<S> q, rd, rdd;
  std::vector<MX<S>> Mrows;  // per chain coordinate: its row of M (1 x nv of body i)
  std::vector<int> col;     // and body i's first velocity column
  for (size_t i = 0; i < bs.size(); ++i) {
    const Spec<S>& b = bs[i];
    const rbd::JointExtension<S>& e = b.ext;
    const int nv = rbd::joint_nv(b.type), nq = rbd::joint_nq(b.type), qi = A.tree.q_idx[i];
    std::vector<S> qs(qA.data() + qi, qA.data() + qi + nq);
    auto scalar = [](const S& x) { MX<S> M1(1, 1); M1(0, 0) = x; return M1; };
    auto zrow = [&](int rows) { return MX<S>(MX<S>::Zero(rows, nv)); };
    auto vz = [](int n) { return VX<S>(VX<S>::Zero(n)); };
    auto v1 = [](const S& x) { VX<S> v(1); v[0] = x; return v; };
    std::vector<Step> drive_steps, core_steps;
    if (!(e.drive.amplitude == S(0))) {
      const auto [p, pd, pdd] = phi<S>(e.drive, t);
      const S sg = e.reversed ? S(-1) : S(1);
      const S lead = e.drive.rotational ? e.drive.pitch : S(1);
      drive_steps.push_back({JointType::Prismatic, e.drive.axis, S(0), {sg * lead * p}, zrow(1), v1(sg * lead * pd),
                             v1(sg * lead * pdd)});
      if (e.drive.rotational)
        drive_steps.push_back({JointType::Revolute, e.drive.axis, S(0), {sg * p}, zrow(1), v1(sg * pd), v1(sg * pdd)});
    }
    const MX<S> Id = MX<S>::Identity(nv, nv);
    if (e.rack_and_pinion) {
      const S r = e.radius;
      if (!e.reversed) {
        core_steps.push_back({JointType::Prismatic, V3<S>::UnitX(), S(0), {r * qs[0]}, scalar(r), vz(1), vz(1)});
        core_steps.push_back({JointType::Revolute, V3<S>::UnitZ(), S(0), {qs[0]}, scalar(S(1)), vz(1), vz(1)});
      } else {
        core_steps.push_back({JointType::Revolute, -V3<S>::UnitZ(), S(0), {qs[0]}, scalar(S(1)), vz(1), vz(1)});
        core_steps.push_back({JointType::Prismatic, V3<S>::UnitX(), S(0), {-r * qs[0]}, scalar(-r), vz(1), vz(1)});
      }
    } else if (!e.reversed || b.type == JointType::Revolute || b.type == JointType::Prismatic ||
               b.type == JointType::Helical || b.type == JointType::Cylindrical) {
      core_steps.push_back({b.type, e.reversed ? V3<S>(-b.axis) : b.axis, b.pitch, qs, Id, vz(nv), vz(nv)});
    } else {  // reversed chart joint: forward chart joint at T^-1, M = -S^T Ad_T S
      M3<S> Rm;
      V3<S> p = V3<S>::Zero();
      std::vector<int> sel;
      std::vector<S> qn;
      if (b.type == JointType::Planar) {
        Rm = rot<S>(qs[0], V3<S>::UnitZ());
        p = v3<S>(qs[1], qs[2], S(0));
        const V3<S> pn = -(Rm.transpose() * p);
        qn = {-qs[0], pn[0], pn[1]};
        sel = {2, 3, 4};
      } else {
        const Eigen::Quaternion<S> Q(qs[0], qs[1], qs[2], qs[3]);
        Rm = Q.toRotationMatrix();
        qn = {qs[0], -qs[1], -qs[2], -qs[3]};
        sel = {0, 1, 2};
        if (b.type == JointType::Free) {
          p = v3<S>(qs[4], qs[5], qs[6]);
          const V3<S> pn = -(Rm.transpose() * p);
          qn.insert(qn.end(), {pn[0], pn[1], pn[2]});
          sel = {0, 1, 2, 3, 4, 5};
        }
      }
      const MX<S> Ad = adjoint<S>(Rm, p);
      MX<S> Mi(nv, nv);
      for (int r = 0; r < nv; ++r)
        for (int k = 0; k < nv; ++k) Mi(r, k) = -Ad(sel[r], sel[k]);
      core_steps.push_back({b.type, b.axis, b.pitch, qn, Mi, vz(nv), vz(nv)});
    }
    std::vector<Step> steps;
    const std::vector<Step>& first = e.reversed ? core_steps : drive_steps;
    const std::vector<Step>& second = e.reversed ? drive_steps : core_steps;
    steps.insert(steps.end(), first.begin(), first.end());
    steps.insert(steps.end(), second.begin(), second.end());
    for (size_t s = 0; s < steps.size(); ++s) {
      const Step& st = steps[s];
      const bool head = s == 0, tail = s + 1 == steps.size();
      const int parent = head ? (b.parent < 0 ? -1 : c.last[b.parent]) : c.m.nb - 1;
      const rbd::Transform<S> X = head ? rbd::Transform<S>{b.E, b.r} : rbd::Transform<S>{M3<S>::Identity(), V3<S>::Zero()};
      rbd::verify::append_exact_body<S>(c.m, parent, st.type, st.axis, st.pitch, X, tail ? b.mass : S(0),
                                        tail ? b.com : V3<S>::Zero(), tail ? b.Icom : M3<S>::Zero());
      q.insert(q.end(), st.q.begin(), st.q.end());
      for (int r = 0; r < st.Mi.rows(); ++r) {
        const int vi = A.tree.v_idx[i];
        S rate = st.dr[r], acc = st.da[r];
        for (int k = 0; k < nv; ++k) {
          rate += st.Mi(r, k) * qdA[vi + k];
          acc += st.Mi(r, k) * qddA[vi + k];
        }
        rd.push_back(rate);
        rdd.push_back(acc);
        Mrows.push_back(st.Mi.row(r));
        col.push_back(vi);
      }
    }
    c.last.push_back(c.m.nb - 1);
  }
  c.q = Eigen::Map<const VX<S>>(q.data(), static_cast<Eigen::Index>(q.size()));
  c.rd = Eigen::Map<const VX<S>>(rd.data(), static_cast<Eigen::Index>(rd.size()));
  c.rdd = Eigen::Map<const VX<S>>(rdd.data(), static_cast<Eigen::Index>(rdd.size()));
  c.M = MX<S>::Zero(c.m.nv, A.tree.nv);
  for (size_t k = 0; k < Mrows.size(); ++k)
    c.M.block(static_cast<Eigen::Index>(k), col[k], 1, Mrows[k].cols()) = Mrows[k];
  return c;
}

// Compares the extended model of `bs` with its chain: tau (with an external wrench on every
// body), H, T and V.
template <class S>
void check_against_chain(const std::vector<Spec<S>>& bs, const V3<S>& g, const VX<S>& q, const VX<S>& qd,
                         const VX<S>& qdd, const S& t) {
  const rbd::ExtendedModel<S> A = build<S>(bs, g);
  const Chain<S> c = chain_of<S>(bs, A, t, q, qd, qdd);
  REQUIRE(c.q.size() == c.m.nq);
  REQUIRE(c.rd.size() == c.m.nv);
  rbd::ExternalForces<S> fA(A.tree.nb), fB(c.m.nb, V6<S>::Zero());
  for (int i = 0; i < A.tree.nb; ++i) {
    fA[i] << fr<S>(1, 2 + i), -S(1), fr<S>(i, 3), S(2), fr<S>(3, 4 + i), -fr<S>(1, 5);
    fB[c.last[i]] = fA[i];
  }
  const MX<S> Mt = c.M.transpose();
  const VX<S> tauA = oracle::inverse_dynamics(A, t, q, qd, qdd, &fA);
  const VX<S> tauB = oracle::inverse_dynamics(c.m, c.q, c.rd, c.rdd, &fB);
  CHECK(rel<S>(tauA, Mt * tauB) < tol<S>());
  CHECK(rel<S>(oracle::mass_matrix(A, t, q), Mt * oracle::mass_matrix(c.m, c.q) * c.M) < tol<S>());
  const S TB = oracle::kinetic_energy(c.m, c.q, c.rd), VB = oracle::potential_energy(c.m, c.q);
  CHECK(abs(oracle::kinetic_energy(A, t, q, qd) - TB) < tol<S>() * TB);
  CHECK(abs(oracle::potential_energy(A, t, q) - VB) < tol<S>() * (abs(VB) + TB));
}

template <class S> rbd::Drive<S> translational_drive() {
  return drive<S>(false, v3<S>(1, -2, 2) / S(3), S(0), fr<S>(3, 10), fr<S>(5, 2), fr<S>(1, 7));
}
template <class S> rbd::Drive<S> rotational_drive() {
  return drive<S>(true, v3<S>(2, 3, 6) / S(7), fr<S>(1, 10), fr<S>(2, 5), fr<S>(3, 2), -fr<S>(1, 3));
}

// Joint coordinates of a sample state of one joint (rack: its revolute q).
template <class S> std::vector<S> joint_q(JointType type) {
  const Eigen::Quaternion<S> Q(Eigen::AngleAxis<S>(fr<S>(9, 10), v3<S>(-1, 3, 1).normalized()));
  switch (type) {
    case JointType::Revolute: case JointType::Prismatic: case JointType::Helical: return {fr<S>(4, 5)};
    case JointType::Cylindrical: return {fr<S>(4, 5), -fr<S>(1, 2)};
    case JointType::Planar: return {fr<S>(4, 5), -fr<S>(1, 2), fr<S>(1, 3)};
    case JointType::Spherical: return {Q.w(), Q.x(), Q.y(), Q.z()};
    case JointType::Free: return {Q.w(), Q.x(), Q.y(), Q.z(), S(1), -S(2), fr<S>(1, 2)};
  }
  return {};
}

template <class S> VX<S> concat(const std::vector<std::vector<S>>& parts) {
  std::vector<S> all;
  for (const auto& p : parts) all.insert(all.end(), p.begin(), p.end());
  return Eigen::Map<const VX<S>>(all.data(), static_cast<Eigen::Index>(all.size()));
}
template <class S> VX<S> ramp(int n, int a, int b) {  // a generic vector of size n
  VX<S> v(n);
  for (int k = 0; k < n; ++k) v[k] = fr<S>((k * a) % 13 - 6, b);
  return v;
}

template <class S> void check_each_joint_against_chain() {
  CAPTURE(name<S>());
  const V3<S> g = v3<S>(fr<S>(1, 5), fr<S>(3, 10), -fr<S>(981, 100));
  const S t = fr<S>(7, 10);
  const Spec<S> root{-1, JointType::Revolute, v3<S>(1, 2, 2) / S(3), S(0), rot<S>(fr<S>(1, 2), v3<S>(1, 0, 1)).transpose(),
                     v3<S>(fr<S>(1, 10), 0, fr<S>(1, 5)), fr<S>(3, 2), v3<S>(fr<S>(1, 5), fr<S>(1, 10), 0), inertia<S>(1),
                     no_ext<S>()};
  const Spec<S> child{1, JointType::Helical, v3<S>(0, 3, 4) / S(5), fr<S>(1, 20), rot<S>(fr<S>(1, 5), v3<S>(1, 1, 1)).transpose(),
                      v3<S>(fr<S>(1, 3), fr<S>(1, 3), 0), fr<S>(5, 4), v3<S>(0, fr<S>(1, 4), fr<S>(1, 10)), inertia<S>(2),
                      no_ext<S>()};
  const std::vector<rbd::Drive<S>> drives = {rbd::Drive<S>{}, translational_drive<S>(), rotational_drive<S>()};
  for (int kind = 0; kind < 8; ++kind) {  // the seven Table 4.1 types, then the rack and pinion
    const bool rack = kind == 7;
    const JointType type = rack ? JointType::Revolute : static_cast<JointType>(kind);
    for (bool reversed : {false, true})
      for (size_t d = 0; d < drives.size(); ++d) {
        CAPTURE(kind, reversed, d);
        Spec<S> mid{0, type, rack ? V3<S>(V3<S>::UnitZ()) : V3<S>(v3<S>(2, -1, 2) / S(3)), fr<S>(3, 20),
                    rot<S>(fr<S>(3, 4), v3<S>(0, 1, 1)).transpose(), v3<S>(fr<S>(1, 2), -fr<S>(1, 4), fr<S>(1, 3)),
                    fr<S>(9, 4), v3<S>(fr<S>(1, 10), fr<S>(3, 10), -fr<S>(1, 5)), inertia<S>(3),
                    ext<S>(rack, rack ? fr<S>(2, 7) : S(0), reversed, drives[d])};
        const VX<S> q = concat<S>({{fr<S>(3, 10)}, joint_q<S>(type), {-fr<S>(2, 5)}});
        const int nv = 2 + rbd::joint_nv(type);
        check_against_chain<S>({root, mid, child}, g, q, ramp<S>(nv, 5, 4), ramp<S>(nv, 7, 3), t);
      }
  }
}

TEST_CASE("extended oracle: every joint type, polarity and drive equals a chain of plain joints", "[oracle][extended]") {
  check_each_joint_against_chain<double>();
  check_each_joint_against_chain<R>();
}

// A tree whose bodies are all extended, so that drives and reversals compose along paths.
template <class S> std::vector<Spec<S>> extended_tree() {
  // The lambdas return values, not Eigen expressions: a transpose of a temporary would dangle.
  auto E = [](int i) -> M3<S> { return rot<S>(fr<S>(i + 1, 4), v3<S>(S(1), S(i), -S(1))).transpose(); };
  auto r = [](int i) -> V3<S> { return v3<S>(fr<S>(1, 3), fr<S>(i, 5), fr<S>(1, 7)); };
  auto com = [](int i) -> V3<S> { return v3<S>(fr<S>(1, 5), -fr<S>(i, 10), fr<S>(1, 8)); };
  const V3<S> a = v3<S>(2, -1, 2) / S(3);
  return {
      {-1, JointType::Revolute, V3<S>::UnitZ(), S(0), E(0), r(0), fr<S>(4, 3), com(0), inertia<S>(0),
       ext<S>(true, fr<S>(1, 3), false, rotational_drive<S>())},
      {0, JointType::Spherical, a, S(0), E(1), r(1), fr<S>(5, 3), com(1), inertia<S>(1),
       ext<S>(false, S(0), true, translational_drive<S>())},
      {1, JointType::Revolute, a, S(0), E(2), r(2), S(2), com(2), inertia<S>(2),
       ext<S>(false, S(0), true, rotational_drive<S>())},
      {0, JointType::Free, a, S(0), E(3), r(3), fr<S>(7, 3), com(3), inertia<S>(3),
       ext<S>(false, S(0), false, rotational_drive<S>())},
      {3, JointType::Cylindrical, a, S(0), E(4), r(4), fr<S>(8, 3), com(4), inertia<S>(4),
       ext<S>(false, S(0), true, translational_drive<S>())},
      {4, JointType::Revolute, V3<S>::UnitZ(), S(0), E(5), r(5), fr<S>(3, 2), com(5), inertia<S>(5),
       ext<S>(true, fr<S>(1, 4), true, rotational_drive<S>())}};
}
template <class S> VX<S> extended_tree_q() {
  const std::vector<S> sph = joint_q<S>(JointType::Spherical), fre = joint_q<S>(JointType::Free);
  return concat<S>({{fr<S>(3, 10)}, sph, {-fr<S>(6, 5)}, fre, {fr<S>(1, 3), -fr<S>(3, 4)}, {fr<S>(2, 3)}});
}

TEST_CASE("extended oracle: a tree of extended joints equals its chain of plain joints", "[oracle][extended]") {
  const V3<R> g = v3<R>(fr<R>(1, 5), fr<R>(3, 10), -fr<R>(981, 100));
  const auto bs = extended_tree<R>();
  const VX<R> q = extended_tree_q<R>();
  const int nv = build<R>(bs, g).tree.nv;
  for (const R& t : {R(0), fr<R>(-11, 10)}) check_against_chain<R>(bs, g, q, ramp<R>(nv, 5, 4), ramp<R>(nv, 7, 3), t);
}

// (e) Structure of tau with drives: tau is affine in qdd with slope H, so tau(e_j) - tau(0)
// is column j of mass_matrix (which takes its own path: d2T/dqd2 with b subtracted); the
// bias C = tau(qdd = 0) changes with t when a drive is active and is bit-identical across t
// when every drive is inactive (amplitude 0, omega and phase left nonzero: no phi term may
// leak); forward_dynamics inverts inverse_dynamics.
TEST_CASE("extended oracle: H is the qdd-slope of tau, C depends on t only through drives, FD inverts ID",
          "[oracle][extended]") {
  const V3<R> g = v3<R>(fr<R>(1, 5), fr<R>(3, 10), -fr<R>(981, 100));
  const auto bs = extended_tree<R>();
  const auto m = build<R>(bs, g);
  const VX<R> q = extended_tree_q<R>();
  const int n = m.tree.nv;
  const VX<R> qd = ramp<R>(n, 5, 4), zero = VX<R>::Zero(n);
  const R t = fr<R>(3, 4);
  const MX<R> H = oracle::mass_matrix(m, t, q);
  CHECK(rel<R>(H.transpose(), H) < tol<R>());
  CHECK(H.ldlt().isPositive());
  const VX<R> c = oracle::inverse_dynamics(m, t, q, qd, zero, nullptr);
  MX<R> Hd(n, n);
  for (int j = 0; j < n; ++j) Hd.col(j) = oracle::inverse_dynamics(m, t, q, qd, VX<R>(VX<R>::Unit(n, j)), nullptr) - c;
  CHECK(rel<R>(Hd, H) < tol<R>());
  const VX<R> c2 = oracle::inverse_dynamics(m, R(t + fr<R>(1, 2)), q, qd, zero, nullptr);
  CHECK(rel<R>(c2, c) > R(1e-3));
  auto still = m;
  for (auto& e : still.ext) e.drive.amplitude = R(0);
  CHECK(oracle::inverse_dynamics(still, t, q, qd, zero, nullptr) ==
        oracle::inverse_dynamics(still, R(t + fr<R>(1, 2)), q, qd, zero, nullptr));
  CHECK(oracle::mass_matrix(still, t, q) == oracle::mass_matrix(still, R(t + fr<R>(1, 2)), q));
  const VX<R> qdd = ramp<R>(n, 7, 3);
  rbd::ExternalForces<R> fx(m.tree.nb, (V6<R>() << R(1), -R(2), fr<R>(1, 3), fr<R>(5, 4), R(0), -R(3)).finished());
  const VX<R> tau = oracle::inverse_dynamics(m, t, q, qd, qdd, &fx);
  CHECK(rel<R>(oracle::forward_dynamics(m, t, q, qd, tau, &fx), qdd) < tol<R>());
}

// Reversed spherical joint, autonomous (no drive, no external force): H symmetric positive
// definite, and power balance tau . qd = dE/dt along a motion with that qd and qdd. The motion
// is chosen so that each joint's velocity variables are plain derivatives: the root revolute
// at q0 + a0 s + b0 s^2/2, the spherical joint's forward rotation R0 Rot(n, u(s)) with
// u = a s + b s^2/2 (its body angular velocity u'(s) n about a fixed axis is exactly the chart
// velocity at every s, so qd(s) = u'(s) n, qdd = b n), the child revolute likewise.
// dE/dt at s = 0 by the 4th-order central difference [8 (E(h) - E(-h)) - (E(2h) - E(-2h))] / 12h,
// error h^4 |E^(5)| / 30 + ~eps |E| / h: with h = 1e-10 in Reference both are ~1e-40 for
// E, its derivatives O(10); 1e-34 relative to |tau||qd| leaves a margin of ~1e5.
TEST_CASE("extended oracle: a reversed spherical joint has SPD H and balances power", "[oracle][extended]") {
  using std::cos;
  using std::sin;
  const V3<R> g = v3<R>(fr<R>(1, 5), fr<R>(3, 10), -fr<R>(981, 100));
  const V3<R> n = v3<R>(1, -2, 2) / R(3);
  std::vector<Spec<R>> bs = {
      {-1, JointType::Revolute, v3<R>(1, 2, 2) / R(3), R(0), rot<R>(fr<R>(1, 2), v3<R>(1, 0, 1)).transpose(),
       v3<R>(fr<R>(1, 10), 0, fr<R>(1, 5)), fr<R>(3, 2), v3<R>(fr<R>(1, 5), fr<R>(1, 10), 0), inertia<R>(1), no_ext<R>()},
      {0, JointType::Spherical, V3<R>::UnitZ(), R(0), rot<R>(fr<R>(3, 4), v3<R>(0, 1, 1)).transpose(),
       v3<R>(fr<R>(1, 2), -fr<R>(1, 4), fr<R>(1, 3)), fr<R>(9, 4), v3<R>(fr<R>(1, 10), fr<R>(3, 10), -fr<R>(1, 5)),
       inertia<R>(3), ext<R>(false, R(0), true, rbd::Drive<R>{})},
      {1, JointType::Revolute, v3<R>(0, 3, 4) / R(5), R(0), rot<R>(fr<R>(1, 5), v3<R>(1, 1, 1)).transpose(),
       v3<R>(fr<R>(1, 3), fr<R>(1, 3), 0), fr<R>(5, 4), v3<R>(0, fr<R>(1, 4), fr<R>(1, 10)), inertia<R>(2), no_ext<R>()}};
  const auto m = build<R>(bs, g);
  const Eigen::Quaternion<R> Q0(Eigen::AngleAxis<R>(fr<R>(9, 10), v3<R>(-1, 3, 1).normalized()));
  const R q0 = fr<R>(3, 10), a0 = fr<R>(7, 10), b0 = -fr<R>(1, 2), a = fr<R>(6, 5), b = fr<R>(1, 3);
  const R q2 = -fr<R>(2, 5), a2 = -fr<R>(9, 10), b2 = fr<R>(5, 4), t = fr<R>(1, 3);
  auto state = [&](const R& s, VX<R>& q, VX<R>& qd) {
    const R u = a * s + b * s * s / 2, ud = a + b * s;
    const Eigen::Quaternion<R> Q = Q0 * Eigen::Quaternion<R>(cos(u / 2), sin(u / 2) * n[0], sin(u / 2) * n[1], sin(u / 2) * n[2]);
    q.resize(6);
    qd.resize(5);
    q << q0 + a0 * s + b0 * s * s / 2, Q.w(), Q.x(), Q.y(), Q.z(), q2 + a2 * s + b2 * s * s / 2;
    qd << a0 + b0 * s, ud * n, a2 + b2 * s;
  };
  auto energy = [&](const R& s) {
    VX<R> q, qd;
    state(s, q, qd);
    oracle::normalize_quaternions(m.tree, q);
    return oracle::kinetic_energy(m, t, q, qd) + oracle::potential_energy(m, t, q);
  };
  VX<R> q, qd;
  state(R(0), q, qd);
  VX<R> qdd(5);
  qdd << b0, b * n, b2;
  const MX<R> H = oracle::mass_matrix(m, t, q);
  CHECK(rel<R>(H.transpose(), H) < tol<R>());
  CHECK(H.ldlt().isPositive());
  const VX<R> tau = oracle::inverse_dynamics(m, t, q, qd, qdd, nullptr);
  const R h("1e-10");
  const R dE = (8 * (energy(h) - energy(-h)) - (energy(2 * h) - energy(-2 * h))) / (12 * h);
  CHECK(abs(tau.dot(qd) - dE) < R("1e-34") * tau.norm() * qd.norm());
  // The balance is sensitive: a wrong sign of the spherical joint's acceleration breaks it.
  VX<R> qdd_bad = qdd;
  qdd_bad.segment<3>(1) = -qdd.segment<3>(1);
  CHECK(abs(oracle::inverse_dynamics(m, t, q, qd, qdd_bad, nullptr).dot(qd) - dE) > R(1e-6));
}

// The oracle refuses extension data it cannot judge, with an rbd::oracle message.
TEST_CASE("extended oracle: refuses bad extension data", "[oracle][extended]") {
  const V3<R> g = v3<R>(0, 0, -fr<R>(981, 100));
  auto bs = extended_tree<R>();
  const auto good = build<R>(bs, g);
  const VX<R> q = extended_tree_q<R>();
  const R t(0);
  CHECK_NOTHROW(oracle::potential_energy(good, t, q));
  auto m = good;
  m.ext.pop_back();
  CHECK_THROWS_WITH(oracle::mass_matrix(m, t, q), Catch::Contains("rbd::oracle") && Catch::Contains("5 joint extensions for nb = 6"));
  m = good;
  m.tree.joint[0].type = JointType::Prismatic;  // rack on a prismatic joint
  CHECK_THROWS_WITH(oracle::potential_energy(m, t, q), Catch::Contains("rack-and-pinion"));
  m = good;
  m.tree.joint[5].axis = V3<R>::UnitX();  // rack on a revolute joint about x
  CHECK_THROWS_WITH(oracle::kinetic_energy(m, t, q, VX<R>(VX<R>::Zero(m.tree.nv))), Catch::Contains("about exactly z"));
  m = good;
  m.ext[1].radius = fr<R>(1, 3);  // a radius without a rack
  CHECK_THROWS_WITH(oracle::potential_energy(m, t, q), Catch::Contains("radius"));
  m = good;
  m.ext[1].drive.axis = v3<R>(1, 1, 0);  // not unit
  CHECK_THROWS_WITH(oracle::potential_energy(m, t, q), Catch::Contains("drive axis"));
  m = good;
  m.ext[1].drive.pitch = fr<R>(1, 10);  // pitch on a translational drive
  CHECK_THROWS_WITH(oracle::potential_energy(m, t, q), Catch::Contains("translational drive"));
  CHECK_THROWS_AS(oracle::inverse_dynamics(good, t, q, VX<R>(VX<R>::Zero(3)), VX<R>(VX<R>::Zero(good.tree.nv)), nullptr),
                  std::invalid_argument);
}

}  // namespace

}  // namespace test_extended_oracle
