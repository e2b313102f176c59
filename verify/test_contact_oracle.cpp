// Self-test of the point-contact oracle (reference/contact_oracle.hpp) against physics worked out
// by hand, with no algorithms/ code (and nothing from algorithms/contact_dynamics/): models are
// filled in field by field, rotations come from Eigen's Geometry module, and the expected values
// are Newton-Euler about the centre of mass in world coordinates (Eqs. 11.5-11.10 for one rigid
// body), 1-DoF equations of motion, Example 11.1's algebra, finite differences of phi, or the
// conditions of Eqs. 11.41-11.42 themselves, never the oracle's own output.
//
// Tolerances (Reference, eps ~ 5e-51), as in test_loop_oracle.cpp: one oracle call performs
// ~1e5-1e6 roundings of O(1) quantities with mild cancellation, so 1e-40 relative leaves a
// margin of ~1e4; a modelling, sign or LCP mistake shows up at O(1), 40 orders above.
#include <catch2/catch.hpp>

#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <Eigen/Geometry>

#include "verify/support/exact_model.hpp"
#include "reference/contact_oracle.hpp"
#include "reference/reference_scalar.hpp"

namespace test_contact_oracle {  // unity build: this file's names stay its own

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

R fr(int a, int b) { return R(a) / R(b); }
V3 v3(const R& x, const R& y, const R& z) { return V3(x, y, z); }
Q qrot(const R& angle, const V3& axis) { return Q(Eigen::AngleAxis<R>(angle, axis.normalized())); }
M3 rot(const R& angle, const V3& axis) { return qrot(angle, axis).toRotationMatrix(); }
R maxabs(const MX& a) { return a.size() ? R(a.cwiseAbs().maxCoeff()) : R(0); }
VX vec(std::initializer_list<R> x) {
  VX v(static_cast<Eigen::Index>(x.size()));
  int i = 0;
  for (const R& e : x) v[i++] = e;
  return v;
}

M3 inertia(int k) {
  M3 I;
  I << fr(3, 2) + fr(k, 10), fr(1, 10), -fr(1, 5),
       fr(1, 10), R(2) + fr(k, 7), fr(1, 7),
       -fr(1, 5), fr(1, 7), fr(5, 2);
  return I;
}

using Pose = rbd::verify::ExactPose<R>;  // R_ maps child coordinates to parent coordinates
using BodySpec = rbd::verify::ExactBody<R>;
const Pose kId{M3::Identity(), V3::Zero()};

rbd::Model<R> build(const std::vector<BodySpec>& bs, const V3& g) {
  return rbd::verify::exact_model<R>(bs, g, "contact_oracle_selftest");
}

Contact contact(int p, int s, const V3& point, const V3& normal, const R& offset, const std::string& name) {
  Contact c;
  c.p = p; c.s = s; c.point = point; c.normal = normal; c.offset = offset; c.name = name;
  return c;
}

// ---- One free body, by hand (world coordinates, Newton-Euler about the centre of mass) ----
// The model's variables of a free joint: q = (quaternion, origin position), qd = body twist
// (w_b, v_b) = (R^T w, R^T v_O), qdd = its apparent derivative (R^T wdot, R^T a_O - w_b x v_b).
struct FreeBody {
  R mass;
  V3 c;     // centre of mass, body coordinates
  M3 Ic;    // about the centre of mass, body coordinates
  Q u;      // orientation
  V3 xc;    // centre of mass, world
  M3 Rw() const { return u.toRotationMatrix(); }
  V3 xO() const { return xc - Rw() * c; }
  M3 Iw() const { return Rw() * Ic * Rw().transpose(); }
  VX q() const {
    const V3 o = xO();
    return vec({u.w(), u.x(), u.y(), u.z(), o[0], o[1], o[2]});
  }
  // qd from the world angular velocity w and centre-of-mass velocity vc.
  VX qd(const V3& w, const V3& vc) const {
    const V3 vO = vc + w.cross(V3(xO() - xc));
    VX out(6);
    out << Rw().transpose() * w, Rw().transpose() * vO;
    return out;
  }
  // qdd from the world angular acceleration wdot and centre-of-mass acceleration ac.
  VX qdd(const V3& w, const V3& vc, const V3& wdot, const V3& ac) const {
    const V3 dO = xO() - xc;
    const V3 aO = ac + wdot.cross(dO) + w.cross(w.cross(dO));
    const V3 wb = Rw().transpose() * w, vb = Rw().transpose() * V3(vc + w.cross(dO));
    VX out(6);
    out << Rw().transpose() * wdot, Rw().transpose() * aO - wb.cross(vb);
    return out;
  }
  // A body-coordinate wrench [n; f] about the body origin (f_ext's and a free joint's tau's
  // convention) as a world force F and moment Tc about the centre of mass.
  void world_wrench(const V6& w, V3& F, V3& Tc) const {
    F = Rw() * V3(w.tail<3>());
    Tc = Rw() * V3(w.head<3>()) + V3(xO() - xc).cross(F);
  }
  // Newton-Euler: I wdot + w x I w = Tc, m ac = F + m g.
  void accelerations(const V3& w, const V3& F, const V3& Tc, const V3& g, V3& wdot, V3& ac) const {
    const M3 I = Iw();
    wdot = I.inverse() * V3(Tc - w.cross(V3(I * w)));
    ac = g + F / mass;
  }
  rbd::Model<R> model(const V3& g) const { return build({{-1, JointType::Free, v3(0, 0, 1), R(0), kId, mass, c, Ic}}, g); }
};

FreeBody box() {
  return FreeBody{fr(3, 2), v3(fr(1, 10), -fr(1, 5), fr(3, 10)), inertia(1), qrot(fr(4, 5), v3(1, -2, 1)),
                  v3(fr(1, 5), -fr(1, 10), fr(7, 10))};
}

// ---- Exact exponentials for finite differences (as test_loop_oracle.cpp) ----
struct SmallAngle { R a, b, c; };
SmallAngle small_angle(const R& t) {  // sin t / t, (1 - cos t) / t^2, (t - sin t) / t^3, |t| < 1e-8
  REQUIRE(abs(t) < R("1e-8"));
  const R t2 = t * t, t4 = t2 * t2;
  return {R(1) - t2 / 6 + t4 / 120, R(1) / 2 - t2 / 24 + t4 / 720, R(1) / 6 - t2 / 120 + t4 / 5040};
}
Pose exp_twist_small(const V3& w, const V3& v) {
  const SmallAngle k = small_angle(w.norm());
  const M3 W = rbd::skew<R>(w), W2 = W * W;
  return {M3(M3::Identity() + k.a * W + k.b * W2), V3((M3::Identity() + k.b * W + k.c * W2) * v)};
}
Q quat_of(const VX& q, int k) { return Q(q[k], q[k + 1], q[k + 2], q[k + 3]); }
void set_quat(VX& q, int k, const Q& u) { q[k] = u.w(); q[k + 1] = u.x(); q[k + 2] = u.y(); q[k + 3] = u.z(); }
Q quat_exp_small(const V3& w) {
  const R t = w.norm();
  const SmallAngle k = small_angle(t / 2);
  using std::cos;
  const V3 u = w * (k.a / 2);
  return Q(cos(t / 2), u[0], u[1], u[2]);
}
// q moved along the velocity variables by h v: T(q) Exp(h xi) for planar, spherical and free
// joints (body-frame velocity variables; a one-parameter subgroup, so the body twist stays v
// along it), q + h v for the others. This is the oracle's path x(t) = t v, written in closed form.
VX advance(const rbd::Model<R>& m, const VX& q, const VX& v, const R& h) {
  VX out = q;
  for (int i = 0; i < m.nb; ++i) {
    const int k = m.q_idx[i], j = m.v_idx[i];
    switch (m.joint[i].type) {
      case JointType::Revolute: case JointType::Prismatic: case JointType::Helical: out[k] += h * v[j]; break;
      case JointType::Cylindrical: out[k] += h * v[j]; out[k + 1] += h * v[j + 1]; break;
      case JointType::Planar: {
        const Pose E = exp_twist_small(v3(0, 0, h * v[j]), v3(h * v[j + 1], h * v[j + 2], 0));
        const V3 d = rot(q[k], v3(0, 0, 1)) * E.p;
        out[k] += h * v[j]; out[k + 1] += d[0]; out[k + 2] += d[1];
        break;
      }
      case JointType::Spherical:
        set_quat(out, k, quat_of(q, k) * quat_exp_small(h * V3(v.segment(j, 3))));
        break;
      case JointType::Free: {
        const Q u = quat_of(q, k);
        const Pose E = exp_twist_small(h * V3(v.segment(j, 3)), h * V3(v.segment(j + 3, 3)));
        set_quat(out, k, u * quat_exp_small(h * V3(v.segment(j, 3))));
        out.segment(k + 4, 3) += u.toRotationMatrix() * E.p;
        break;
      }
    }
  }
  return out;
}

// Checks Eq. 11.41 and the LCP conditions of Eq. 11.42 for (qdd, lambda), with H, C from the
// Lagrangian oracle and Phi, bias from contact_rows (checked against finite differences below).
// Returns zeta_dot.
VX check_contact_conditions(const rbd::Model<R>& m, const Contacts& cs, const VX& q, const VX& qd, const VX& tau,
                            const rbd::ExternalForces<R>* f_ext, const VX& qdd, const VX& lambda) {
  const MX H = oracle::mass_matrix(m, q);
  const VX C = oracle::inverse_dynamics(m, q, qd, VX(VX::Zero(m.nv)), f_ext);
  const auto rows = oracle::contact_rows(m, cs, q, qd);
  const VX tc = rows.Phi.transpose() * lambda;
  const VX res = H * qdd + C - tau - tc;
  const R scale = 1 + maxabs(H * qdd) + maxabs(C) + maxabs(tau) + maxabs(tc);
  INFO("H qdd + C - tau - Phi^T lambda = " << res.transpose());
  CHECK(maxabs(res) < kTol * scale);
  const VX zeta = rows.Phi * qdd + rows.bias;
  const R zscale = 1 + maxabs(rows.Phi) * maxabs(qdd) + maxabs(rows.bias);
  const R lscale = 1 + maxabs(lambda);
  INFO("lambda = " << lambda.transpose() << "\nzeta_dot = " << zeta.transpose());
  for (int i = 0; i < lambda.size(); ++i) {
    CHECK(lambda[i] >= -kTol * lscale);
    CHECK(zeta[i] >= -kTol * zscale);
    CHECK(abs(lambda[i] * zeta[i]) < kTol * lscale * zscale);
  }
  return zeta;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
TEST_CASE("contact oracle: a free body resting on a point below its centre of mass carries m g", "[contact_oracle]") {
  // Ground plane z = offset (normal +z, fixed in the base), gravity -z, at rest. The point is
  // h below the centre of mass (world vertical), so lambda = m g cancels gravity through the
  // centre of mass: zero net force and moment, qdd = 0 exactly.
  const FreeBody b = box();
  const V3 g = v3(0, 0, -fr(981, 100));
  const auto m = b.model(g);
  const R h = fr(2, 5);
  const V3 point = b.c + b.Rw().transpose() * v3(0, 0, -h);  // body coordinates
  const Contacts cs = {contact(-1, 0, point, v3(0, 0, 1), b.xc[2] - h, "ground")};
  const VX q = b.q(), qd = VX::Zero(6), tau = VX::Zero(6);
  VX lambda;
  const VX qdd = oracle::contact_forward_dynamics(m, cs, q, qd, tau, nullptr, &lambda);
  const R mg = b.mass * fr(981, 100);
  INFO("qdd = " << qdd.transpose() << "\nlambda = " << lambda.transpose());
  REQUIRE(lambda.size() == 1);
  CHECK(abs(lambda[0] - mg) < kTol * mg);
  CHECK(maxabs(qdd) < kTol);

  // Pulled up by an external force F > m g (world, through the centre of mass, plus a
  // horizontal part): the contact breaks, lambda = 0 and the body falls "up" freely:
  // a_c = g + F/m, wdot = 0 (w = 0, no moment about the centre of mass).
  const V3 F = v3(fr(1, 2), -fr(1, 5), 2 * mg);
  V6 fb;
  fb << b.c.cross(V3(b.Rw().transpose() * F)), b.Rw().transpose() * F;  // [moment about O; force], body
  const rbd::ExternalForces<R> fext = {fb};
  const VX qdd2 = oracle::contact_forward_dynamics(m, cs, q, qd, tau, &fext, &lambda);
  const VX expected = b.qdd(V3::Zero(), V3::Zero(), V3::Zero(), V3(g + F / b.mass));
  INFO("qdd = " << qdd2.transpose() << "\nexpected " << expected.transpose());
  CHECK(lambda[0] == 0);
  CHECK(maxabs(qdd2 - expected) < kTol * maxabs(expected));
}

TEST_CASE("contact oracle: one contact on a moving free body = Eq. 11.10 with Eqs. 11.8-11.9 by hand", "[contact_oracle]") {
  // Off-centre point C' (lever arm r from the centre of mass, world), plane normal n fixed in the
  // base, angular velocity w and a centre-of-mass velocity vc with n . v_C' = 0 (state 3).
  // Newton-Euler about the centre of mass (world): the contact-free accelerations (wdot0, ac0)
  // give d = n . a_C' = n . (ac0 + wdot0 x r + w x (w x r)) (Eq. 11.9: the plane is fixed, so
  // the separation acceleration is the normal component of C''s classical acceleration), and a
  // unit force n at C' changes a_C' . n by M = 1/m + (r x n) . Iw^-1 (r x n) (Eq. 11.8).
  // Eq. 11.10: lambda = max(0, -d/M).
  FreeBody b = box();
  b.mass = fr(7, 4); b.c = v3(fr(1, 10), -fr(1, 5), fr(3, 20)); b.Ic = inertia(2);
  b.u = qrot(fr(3, 5), v3(2, -1, 1)); b.xc = v3(fr(3, 10), fr(1, 10), fr(1, 2));
  const V3 g = v3(fr(1, 3), -fr(1, 2), -fr(981, 100));
  const auto m = b.model(g);
  const V3 pointb = v3(fr(2, 5), -fr(3, 10), -fr(1, 2));
  const V3 n = v3(2, 3, 6) / R(7);
  const V3 r = b.Rw() * V3(pointb - b.c);
  const Contacts cs = {contact(-1, 0, pointb, n, n.dot(V3(b.xc + r)), "tilted plane")};
  const V3 w = v3(fr(7, 10), -fr(1, 2), fr(3, 10)), w0 = v3(fr(1, 5), fr(3, 5), -fr(2, 5));
  const V3 vc = w0 - n * n.dot(V3(w0 + w.cross(r)));
  const VX q = b.q(), qd = b.qd(w, vc);
  V6 tau6, fb_press, fb_pull;
  tau6 << fr(1, 20), -fr(1, 10), fr(1, 10), fr(1, 5), -fr(1, 10), fr(3, 10);
  fb_press << fr(1, 20), fr(1, 10), -fr(1, 10), fr(1, 10), -fr(1, 5), fr(3, 10);
  // Pulling: a world force 3 m |g| n at the body origin, which drives C' off the plane.
  fb_pull << V3::Zero(), b.Rw().transpose() * V3(n * (3 * b.mass * R(10)));
  const VX tau = tau6;

  for (int pull = 0; pull < 2; ++pull) {
    INFO((pull ? "pulled off the plane" : "pressed on the plane"));
    const V6 fb = pull ? fb_pull : fb_press;
    const rbd::ExternalForces<R> fext = {fb};
    V3 F, Tc;
    b.world_wrench(V6(fb + tau6), F, Tc);  // a free joint's tau is a body wrench like f_ext
    V3 wdot0, ac0;
    b.accelerations(w, F, Tc, g, wdot0, ac0);
    const R d = n.dot(V3(ac0 + wdot0.cross(r) + w.cross(w.cross(r))));
    const V3 rn = r.cross(n);
    const R M = 1 / b.mass + rn.dot(V3(b.Iw().inverse() * rn));
    const R lam = d < 0 ? R(-d / M) : R(0);
    if (pull) REQUIRE(d > R(1));
    else REQUIRE(d < -R(1));

    const auto L = oracle::contact_lcp(m, cs, q, qd, tau, &fext);
    INFO("M: oracle " << L.M(0, 0) << ", by hand " << M << "\nd: oracle " << L.d[0] << ", by hand " << d);
    CHECK(abs(L.M(0, 0) - M) < kTol * M);
    CHECK(abs(L.d[0] - d) < kTol * abs(d));

    VX lambda;
    const VX qdd = oracle::contact_forward_dynamics(m, cs, q, qd, tau, &fext, &lambda);
    // With the contact force lam n at C': ac = ac0 + lam n / m, wdot = wdot0 + Iw^-1 (r x n) lam.
    const VX expected = b.qdd(w, vc, V3(wdot0 + b.Iw().inverse() * rn * lam), V3(ac0 + n * (lam / b.mass)));
    INFO("lambda: oracle " << lambda.transpose() << ", by hand " << lam << "\nqdd " << qdd.transpose() << "\nexpected "
                           << expected.transpose());
    CHECK(abs(lambda[0] - lam) < kTol * (1 + lam));
    CHECK(maxabs(qdd - expected) < kTol * maxabs(expected));
    if (!pull) {
      // Persisting: the separation acceleration of C' vanishes.
      const V3 wd = wdot0 + b.Iw().inverse() * rn * lam, ac = ac0 + n * (lam / b.mass);
      CHECK(abs(n.dot(V3(ac + wd.cross(r) + w.cross(w.cross(r))))) < kTol * abs(d));
    }
  }
}

TEST_CASE("contact oracle: revolute pendulum whose tip touches a plane fixed in the base", "[contact_oracle]") {
  // Body on a revolute joint about its z axis, joint frame at pose T0 in the base. Tip C' at
  // tip_b. By hand: I_O = Izz + m (cx^2 + cy^2) about the axis, gravity's generalized force
  // Qg = m (R0^T g) . (z x Rz(th) c), and phi = n . (r0 + R0 Rz(th) tip_b) - offset has
  // Phi = n . R0 (z x Rz(th) tip_b) and, at thd, bias = n . R0 (z x (z x Rz tip_b)) thd^2.
  // Equation of motion I_O thdd = tau + Qg + Phi lambda, so M = Phi^2 / I_O, d = Phi (tau + Qg) / I_O
  // + bias, and with thd = 0 (forced by Phi thd = 0 when Phi != 0): lambda = max(0, -(tau + Qg)/Phi).
  using std::cos;
  using std::sin;
  const Pose T0{rot(fr(2, 5), v3(1, 2, -1)), v3(fr(1, 10), fr(1, 5), -fr(3, 10))};
  const R mass = fr(6, 5);
  const V3 c = v3(fr(3, 10), fr(1, 20), fr(1, 10)), tip = v3(fr(7, 10), -fr(1, 10), fr(1, 5)), ez = v3(0, 0, 1);
  const M3 Ic = inertia(3);
  const V3 g = v3(fr(1, 5), -fr(981, 100), fr(1, 3));
  const auto m = build({{-1, JointType::Revolute, ez, R(0), T0, mass, c, Ic}}, g);
  const R th = fr(3, 5);
  const M3 Rz = rot(th, ez);
  const V3 tip_w = T0.p + T0.R_ * Rz * tip;
  const R IO = Ic(2, 2) + mass * (c[0] * c[0] + c[1] * c[1]);
  const R Qg = mass * V3(T0.R_.transpose() * g).dot(ez.cross(V3(Rz * c)));
  const VX q = vec({th});

  SECTION("generic normal, pressed and released") {
    const V3 n = v3(2, -6, 3) / R(7);
    const Contacts cs = {contact(-1, 0, tip, n, n.dot(tip_w), "wall")};
    const R Phi = n.dot(V3(T0.R_ * ez.cross(V3(Rz * tip))));
    REQUIRE(abs(Phi) > R(1) / 10);
    int branches = 0;
    for (const R& t : {R(8), R(-8)}) {
      INFO("tau = " << t);
      const R lam = std::max(R(0), R(-(t + Qg) / Phi));
      const R thdd = (t + Qg + Phi * lam) / IO;
      branches += lam > 0 ? 1 : 2;
      const auto L = oracle::contact_lcp(m, cs, q, vec({R(0)}), vec({t}), nullptr);
      CHECK(abs(L.M(0, 0) - Phi * Phi / IO) < kTol * Phi * Phi / IO);
      CHECK(abs(L.d[0] - Phi * (t + Qg) / IO) < kTol * abs(Phi * (t + Qg) / IO));
      VX lambda;
      const VX qdd = oracle::contact_forward_dynamics(m, cs, q, vec({R(0)}), vec({t}), nullptr, &lambda);
      INFO("lambda " << lambda[0] << " (by hand " << lam << "), thdd " << qdd[0] << " (by hand " << thdd << ")");
      CHECK(abs(lambda[0] - lam) < kTol * (1 + lam));
      CHECK(abs(qdd[0] - thdd) < kTol * (1 + abs(thdd)));
    }
    CHECK(branches == 3);  // one tau persists (lambda > 0, thdd = 0), the other breaks
  }

  SECTION("normal through the axis: Phi = 0, the contact cannot act") {
    // n along the tip's perpendicular offset rho from the axis. Phi = 0, so any thd is
    // consistent; bias = n . (centripetal acceleration of the tip) = -+|rho| thd^2. Outward n:
    // the tip's circle bends into the plane and no lambda can stop it (d < 0, M = 0: no
    // solution, like Example 11.1). Inward n: the tip leaves the plane, lambda = 0.
    const V3 Rt = Rz * tip;
    const V3 rho = T0.R_ * v3(Rt[0], Rt[1], 0);
    const R thd = fr(6, 5), t = fr(1, 2);
    for (int sign : {1, -1}) {
      INFO((sign > 0 ? "outward normal" : "inward normal"));
      const V3 n = rho * (R(sign) / rho.norm());
      const Contacts cs = {contact(-1, 0, tip, n, n.dot(tip_w), "radial")};
      const auto L = oracle::contact_lcp(m, cs, q, vec({thd}), vec({t}), nullptr);
      CHECK(abs(L.M(0, 0)) < R("1e-80"));
      CHECK(abs(L.d[0] - R(-sign) * rho.norm() * thd * thd) < kTol * rho.norm());
      if (sign > 0) {
        CHECK_THROWS_AS(oracle::contact_forward_dynamics(m, cs, q, vec({thd}), vec({t}), nullptr), std::domain_error);
        CHECK_THROWS_WITH(oracle::contact_forward_dynamics(m, cs, q, vec({thd}), vec({t}), nullptr),
                          Contains("has no solution"));
      } else {
        VX lambda;
        const VX qdd = oracle::contact_forward_dynamics(m, cs, q, vec({thd}), vec({t}), nullptr, &lambda);
        CHECK(lambda[0] == 0);
        CHECK(abs(qdd[0] - (t + Qg) / IO) < kTol);
      }
    }
  }
}

TEST_CASE("contact oracle: a point of one free body on a plane carried by another = Newton-Euler by hand",
          "[contact_oracle]") {
  // Body P (free) carries the plane {x : n . x = offset} (P coordinates), body S (free) the point
  // C'. In the world, with n_w = R_P n and D = C' - O_P (O_P = P's origin):
  //   phi = n_w . D - offset, phi_ddot = n_w'' . D + 2 n_w' . D' + n_w . D'',
  //   n_w' = w_P x n_w, n_w'' = wdot_P x n_w + w_P x (w_P x n_w), D' = v_C' - v_OP, D'' = a_C' - a_OP,
  // with every acceleration from Newton-Euler about each centre of mass under gravity, S's joint
  // force tau_S and the contact pair lambda n_w on S at C', -lambda n_w on P at C'. phi_ddot is
  // affine in lambda: d = phi_ddot(0), M = phi_ddot(1) - phi_ddot(0) (Eq. 11.7's form), and
  // lambda = max(0, -d/M). This n_w' is the book's n_dot of Eq. 11.30 written for a plane: the
  // contact point C slides over it, so it is not the derivative of a force line fixed in P.
  FreeBody P{fr(5, 2), v3(fr(1, 5), fr(1, 10), -fr(1, 10)), inertia(5), qrot(fr(1, 2), v3(1, 3, -1)),
             v3(-fr(1, 10), fr(1, 5), fr(1, 10))};
  FreeBody S{fr(4, 5), v3(-fr(1, 10), fr(1, 20), fr(1, 5)), inertia(6), qrot(-fr(9, 10), v3(2, 1, 1)),
             v3(fr(3, 10), fr(1, 2), fr(4, 5))};
  const V3 g = v3(fr(1, 5), -fr(1, 3), -fr(981, 100));
  const auto m = build({{-1, JointType::Free, v3(0, 0, 1), R(0), kId, P.mass, P.c, P.Ic},
                        {-1, JointType::Free, v3(0, 0, 1), R(0), kId, S.mass, S.c, S.Ic}},
                       g);
  const V3 point = v3(fr(1, 10), -fr(1, 5), -fr(3, 10));  // C' in S coordinates
  const V3 Cw = S.xO() + S.Rw() * point;
  const V3 n0 = v3(1, -4, 8) / R(9);  // in P coordinates
  const V3 nw0 = P.Rw() * n0;
  const V3 D = Cw - P.xO();
  const V3 wP = v3(fr(1, 2), -fr(3, 10), fr(7, 10)), vP = v3(fr(1, 5), fr(2, 5), -fr(1, 10));
  const V3 wS = v3(-fr(3, 5), fr(1, 5), fr(2, 5));
  const V3 rS = Cw - S.xc, rP = Cw - P.xc, dOP = P.xO() - P.xc;
  const V3 vOP = vP + wP.cross(dOP);
  // S's centre-of-mass velocity: a guess, corrected along n_w so that phi_dot = 0.
  V3 vS = v3(fr(1, 10), -fr(1, 2), fr(3, 10));
  const R phid = wP.cross(nw0).dot(D) + nw0.dot(V3(vS + wS.cross(rS) - vOP));
  vS -= nw0 * phid;
  VX q(14), qd(12);
  q << P.q(), S.q();
  qd << P.qd(wP, vP), S.qd(wS, vS);
  V6 tauS;
  tauS << fr(1, 10), -fr(1, 5), fr(1, 10), fr(3, 10), fr(1, 5), -fr(1, 2);
  VX tau(12);
  tau << V6::Zero(), tauS;

  int branches = 0;
  for (int sign : {1, -1}) {
    INFO("normal sign " << sign);
    const V3 n = n0 * R(sign), nw = nw0 * R(sign);
    const Contacts cs = {contact(0, 1, point, n, nw.dot(D), "plane on P")};
    struct Acc { V3 wdP, acP, wdS, acS; };
    auto accelerations = [&](const R& lam) {
      Acc a;
      V3 F, Tc;
      S.world_wrench(tauS, F, Tc);
      F += lam * nw;
      Tc += rS.cross(V3(lam * nw));
      S.accelerations(wS, F, Tc, g, a.wdS, a.acS);
      P.accelerations(wP, V3(-lam * nw), rP.cross(V3(-lam * nw)), g, a.wdP, a.acP);
      return a;
    };
    auto phi_ddot = [&](const Acc& a) {
      const V3 aC = a.acS + a.wdS.cross(rS) + wS.cross(wS.cross(rS));
      const V3 aOP = a.acP + a.wdP.cross(dOP) + wP.cross(wP.cross(dOP));
      const V3 nd = wP.cross(nw), ndd = a.wdP.cross(nw) + wP.cross(wP.cross(nw));
      return R(ndd.dot(D) + 2 * nd.dot(V3(vS + wS.cross(rS) - vOP)) + nw.dot(V3(aC - aOP)));
    };
    const R d = phi_ddot(accelerations(R(0)));
    const R M = phi_ddot(accelerations(R(1))) - d;
    const R lam = d < 0 ? R(-d / M) : R(0);
    branches += lam > 0 ? 1 : 2;
    const auto L = oracle::contact_lcp(m, cs, q, qd, tau, nullptr);
    INFO("M: oracle " << L.M(0, 0) << ", by hand " << M << "\nd: oracle " << L.d[0] << ", by hand " << d);
    CHECK(abs(L.M(0, 0) - M) < kTol * M);
    CHECK(abs(L.d[0] - d) < kTol * (1 + abs(d)));
    VX lambda;
    const VX qdd = oracle::contact_forward_dynamics(m, cs, q, qd, tau, nullptr, &lambda);
    const Acc a = accelerations(lam);
    VX expected(12);
    expected << P.qdd(wP, vP, a.wdP, a.acP), S.qdd(wS, vS, a.wdS, a.acS);
    INFO("lambda " << lambda[0] << " (by hand " << lam << ")\nqdd      " << qdd.transpose() << "\nexpected "
                   << expected.transpose());
    CHECK(abs(lambda[0] - lam) < kTol * (1 + lam));
    CHECK(maxabs(qdd - expected) < kTol * maxabs(expected));
  }
  CHECK(branches == 3);  // the normal that presses persists, the other breaks
}

namespace {
// Example 11.1 without curved walls: a "wedge" closing on a point. Body 0 is free; its centre of
// mass is the contact point C', which lies on the floor z = 0 (contact 0: plane in the base,
// normal +z) and on a lid (body 1: revolute about the world y axis through the origin, at angle
// 0), whose plane z_lid = 0 contains the hinge, normal -z_lid (contact 1). The lid's rows
// through the hinge give n2 = -n1 exactly, so M = [a -a; -a a] with a = 1/m (force through the
// centre of mass). With C' = (x, y, z) in the world and the lid at angle th,
// phi1 = z, phi2 = -(x sin th + z cos th), so at x = z = th = 0:
// phi1_ddot = zdd, phi2_ddot = -zdd - 2 xd thd, and d1 + d2 = -2 xd thd (Example 11.1's
// condition for no solution: d1 + d2 < 0, i.e. the lid closes on the sliding point).
struct Wedge {
  FreeBody b{fr(5, 4), v3(fr(1, 10), -fr(1, 5), fr(1, 10)), inertia(4), qrot(fr(7, 10), v3(1, 1, -2)),
             v3(0, fr(3, 10), 0)};
  R lid_mass = R(2);
  V3 lid_c = v3(fr(2, 5), fr(1, 10), -fr(1, 10));
  M3 lid_I = inertia(5);
  rbd::Model<R> m;
  Contacts cs;
  explicit Wedge(const V3& g) {
    m = build({{-1, JointType::Free, v3(0, 0, 1), R(0), kId, b.mass, b.c, b.Ic},
               {-1, JointType::Revolute, v3(0, 1, 0), R(0), kId, lid_mass, lid_c, lid_I}},
              g);
    cs = {contact(-1, 0, b.c, v3(0, 0, 1), R(0), "floor"), contact(1, 0, b.c, v3(0, 0, -1), R(0), "lid")};
  }
  VX q() const {
    VX out(8);
    out << b.q(), R(0);
    return out;
  }
  VX qd(const V3& w, const V3& vc, const R& thd) const {
    VX out(7);
    out << b.qd(w, vc), thd;
    return out;
  }
};
}  // namespace

TEST_CASE("contact oracle: two opposite normals (Example 11.1): M = [a -a; -a a], no solution when d1 + d2 < 0",
          "[contact_oracle]") {
  const V3 g = v3(fr(1, 5), -fr(1, 10), -fr(981, 100));
  const Wedge wd(g);
  const V3 w = v3(fr(3, 10), -fr(2, 5), fr(1, 2));
  const R xd = fr(4, 5);
  const VX tau = vec({0, 0, 0, 0, 0, 0, fr(1, 2)});
  const R a = 1 / wd.b.mass;

  // The lid closes (thd > 0) on the point sliding towards +x: no solution.
  {
    const VX qd = wd.qd(w, v3(xd, fr(1, 5), 0), fr(3, 2));
    const auto L = oracle::contact_lcp(wd.m, wd.cs, wd.q(), qd, tau, nullptr);
    INFO("M = \n" << L.M << "\nd = " << L.d.transpose());
    CHECK(abs(L.M(0, 0) - a) < kTol * a);
    CHECK(abs(L.M(1, 1) - a) < kTol * a);
    CHECK(abs(L.M(0, 1) + a) < kTol * a);
    CHECK(abs(L.M(1, 0) + a) < kTol * a);
    CHECK(abs(L.d[0] - g[2]) < kTol * abs(g[2]));              // d1 = zdd of the free centre of mass
    CHECK(abs(L.d[0] + L.d[1] - (-2 * xd * fr(3, 2))) < kTol * abs(g[2]));  // d1 + d2 = -2 xd thd < 0
    CHECK_THROWS_AS(oracle::contact_forward_dynamics(wd.m, wd.cs, wd.q(), qd, tau, nullptr), std::domain_error);
    CHECK_THROWS_WITH(oracle::contact_forward_dynamics(wd.m, wd.cs, wd.q(), qd, tau, nullptr),
                      Contains("contact oracle: the LCP of Eq. 11.42 has no solution"));
  }

  // The lid opens (thd < 0): d1 + d2 = 2 xd |thd| > 0. The floor carries the body:
  // lambda = (m |g_z|, 0) (lambda1 - lambda2 = -d1 / a, and zeta2 = d1 + d2 > 0 forces lambda2 = 0),
  // the centre of mass accelerates at (g_x, g_y, 0), wdot = Iw^-1 (-w x Iw w) (no moment about the
  // centre of mass), and the lid, whose contact force passes through its hinge, swings freely:
  // thdd = (tau + Qg) / (Iyy + m (cx^2 + cz^2)), Qg = m y . (c x g) at angle 0.
  {
    const V3 vc = v3(xd, fr(1, 5), 0);
    const R thd = -fr(3, 2);
    const VX qd = wd.qd(w, vc, thd);
    VX lambda;
    const VX qdd = oracle::contact_forward_dynamics(wd.m, wd.cs, wd.q(), qd, tau, nullptr, &lambda);
    const M3 I = wd.b.Iw();
    const V3 wdot = I.inverse() * V3(-w.cross(V3(I * w)));
    VX expected(7);
    expected << wd.b.qdd(w, vc, wdot, v3(g[0], g[1], 0)),
        (tau[6] + wd.lid_mass * v3(0, 1, 0).dot(wd.lid_c.cross(g))) /
            (wd.lid_I(1, 1) + wd.lid_mass * (wd.lid_c[0] * wd.lid_c[0] + wd.lid_c[2] * wd.lid_c[2]));
    INFO("qdd      " << qdd.transpose() << "\nexpected " << expected.transpose() << "\nlambda " << lambda.transpose());
    CHECK(abs(lambda[0] - wd.b.mass * (-g[2])) < kTol * wd.b.mass * abs(g[2]));
    CHECK(abs(lambda[1]) < kTol * wd.b.mass * abs(g[2]));
    CHECK(maxabs(qdd - expected) < kTol * maxabs(expected));
    const VX zeta = check_contact_conditions(wd.m, wd.cs, wd.q(), qd, tau, nullptr, qdd, lambda);
    CHECK(abs(zeta[1] - 2 * xd * fr(3, 2)) < kTol * abs(g[2]));
  }

  // Degenerate: no gravity, at rest, no force: d = 0 and the subsets {}, {0}, {1} all solve the
  // LCP (lambda = 0); {0, 1} is singular. They agree: qdd = 0.
  {
    const Wedge w0(V3::Zero());
    const VX qd = VX::Zero(7), tau0 = VX::Zero(7);
    const auto L = oracle::contact_lcp(w0.m, w0.cs, w0.q(), qd, tau0, nullptr);
    const auto sol = oracle::solve_lcp_by_enumeration<R>(L.M, L.d, L.W, L.M_scale, L.d_scale, L.u_scale);
    CHECK(sol.accepted == 3);
    VX lambda;
    const VX qdd = oracle::contact_forward_dynamics(w0.m, w0.cs, w0.q(), qd, tau0, nullptr, &lambda);
    CHECK(maxabs(qdd) < kTol);
    CHECK(maxabs(lambda) < kTol);
  }
}

TEST_CASE("contact oracle: the enumeration solves Example 11.1's algebra and detects non-unique accelerations",
          "[contact_oracle]") {
  // M = [1 -1; -1 1]: d1 + d2 < 0 has no solution; d = (-1, 2) has lambda = (1, 0), zeta = (0, 1).
  MX M(2, 2);
  M << 1, -1, -1, 1;
  const MX W = MX::Identity(2, 2);
  CHECK_THROWS_AS(oracle::solve_lcp_by_enumeration<R>(M, vec({-1, fr(1, 2)}), W, R(1), R(1), R(1)), std::domain_error);
  const auto sol = oracle::solve_lcp_by_enumeration<R>(M, vec({-1, 2}), W, R(1), R(1), R(1));
  CHECK(sol.accepted == 1);
  CHECK(maxabs(sol.lambda - vec({1, 0})) < kTol);
  CHECK(maxabs(sol.zeta_dot - vec({0, 1})) < kTol);
  // A matrix that is not positive semi-definite (never an M of Eq. 11.35): M = [-1], d = 1 has
  // the two solutions lambda = 0 and lambda = 1, with different W lambda: std::logic_error, not
  // one of its subclasses (domain_error is "no solution", invalid_argument is bad input).
  bool logic = false;
  try {
    oracle::solve_lcp_by_enumeration<R>(MX::Constant(1, 1, R(-1)), vec({1}), MX::Constant(1, 1, R(1)), R(1), R(1), R(1));
  } catch (const std::domain_error&) {
  } catch (const std::invalid_argument&) {
  } catch (const std::logic_error& e) {
    logic = std::string(e.what()).find("property 2") != std::string::npos;
  }
  CHECK(logic);
}

TEST_CASE("contact oracle: Phi and bias are the derivatives of phi (finite differences, every joint type)",
          "[contact_oracle]") {
  // A tree with every joint type and five contacts, two against the base and three between
  // moving bodies, at a generic state (not in contact: phi, Phi and bias are defined
  // everywhere). Phi's columns against central differences along each velocity variable
  // (h = 1e-16: truncation h^2 |phi'''| / 6 ~ 1e-32, rounding ~1e-50 / h ~ 1e-34; 1e-28 relative
  // leaves 1e4); bias against the second central difference of phi along x(t) = t qd (h = 1e-12:
  // truncation h^2 |phi''''| / 12 ~ 1e-25, rounding 4e-50 / h^2 ~ 4e-26; 1e-21 relative), and
  // against the first difference of phi_dot = Phi(q(t)) qd along the same path (the body twists
  // stay qd on it, so phi_dot(t) = Phi(q(t)) qd exactly; h = 1e-16, 1e-28).
  const V3 g = v3(fr(1, 3), -fr(981, 100), fr(1, 2));
  const auto m = build(
      {{-1, JointType::Free, v3(0, 0, 1), R(0), {rot(fr(3, 10), v3(1, 1, 1)), v3(fr(1, 10), fr(1, 5), fr(3, 10))}, R(2), v3(fr(1, 10), 0, fr(1, 5)), inertia(1)},
       {0, JointType::Revolute, v3(2, 3, 6) / R(7), R(0), {rot(-fr(2, 5), v3(1, 0, 2)), v3(fr(1, 2), -fr(1, 10), fr(1, 5))}, fr(3, 2), v3(fr(3, 10), fr(1, 10), 0), inertia(2)},
       {-1, JointType::Planar, v3(0, 0, 1), R(0), {rot(fr(7, 10), v3(0, 1, 1)), v3(-fr(3, 10), fr(2, 5), fr(1, 10))}, R(1), v3(0, fr(1, 5), fr(1, 10)), inertia(3)},
       {1, JointType::Spherical, v3(0, 0, 1), R(0), {rot(fr(1, 2), v3(2, 1, 0)), v3(fr(2, 5), 0, -fr(1, 5))}, fr(6, 5), v3(fr(1, 10), fr(1, 10), fr(1, 10)), inertia(4)},
       {2, JointType::Prismatic, v3(1, 2, 2) / R(3), R(0), {rot(-fr(3, 10), v3(1, 2, 3)), v3(0, fr(3, 10), fr(1, 10))}, fr(4, 5), v3(0, 0, fr(1, 5)), inertia(5)},
       {3, JointType::Helical, v3(2, -3, 6) / R(7), fr(3, 20), {rot(fr(9, 10), v3(0, 0, 1)), v3(fr(1, 5), fr(1, 5), 0)}, fr(7, 10), v3(fr(1, 5), 0, 0), inertia(6)},
       {-1, JointType::Cylindrical, v3(6, 2, -3) / R(7), R(0), {rot(fr(2, 5), v3(1, -1, 1)), v3(fr(1, 2), fr(1, 2), 0)}, fr(9, 10), v3(0, fr(1, 10), 0), inertia(7)}},
      g);
  const Contacts cs = {contact(-1, 3, v3(fr(1, 5), -fr(1, 10), fr(3, 10)), v3(2, 3, 6) / R(7), fr(1, 10), "base-sph"),
                       contact(0, 5, v3(-fr(1, 10), fr(2, 5), fr(1, 5)), v3(2, -6, 3) / R(7), -fr(1, 5), "free-hel"),
                       contact(2, 6, v3(fr(3, 10), fr(1, 10), -fr(1, 5)), v3(1, 4, 8) / R(9), R(0), "pla-cyl"),
                       contact(4, 1, v3(fr(1, 10), fr(1, 10), fr(1, 10)), v3(4, -4, 7) / R(9), fr(1, 5), "pri-rev"),
                       contact(-1, 0, v3(-fr(1, 5), fr(3, 10), fr(1, 10)), v3(6, 2, -3) / R(7), R(0), "base-free")};
  VX q(m.nq);
  const Q u0 = qrot(fr(4, 5), v3(1, -2, 1)), u3 = qrot(-fr(6, 5), v3(2, 1, 3));
  q << u0.w(), u0.x(), u0.y(), u0.z(), fr(1, 5), -fr(1, 10), fr(3, 10), fr(7, 10), -fr(2, 5), fr(1, 5), fr(3, 10),
      u3.w(), u3.x(), u3.y(), u3.z(), fr(1, 4), fr(9, 10), -fr(1, 2), fr(1, 10);
  const int n = m.nv;
  VX qd(n);
  for (int j = 0; j < n; ++j) qd[j] = fr(((j * 7 + 3) % 11) - 5, 4);
  const auto rows = oracle::contact_rows(m, cs, q, qd);
  REQUIRE(rows.Phi.rows() == 5);
  REQUIRE(rows.Phi.cols() == n);
  const R Phi_max = maxabs(rows.Phi);

  const R h("1e-16");
  for (int j = 0; j < n; ++j) {
    const VX e = VX::Unit(n, j);
    const VX fd = (oracle::contact_rows(m, cs, advance(m, q, e, h), qd).phi -
                   oracle::contact_rows(m, cs, advance(m, q, e, -h), qd).phi) / (2 * h);
    INFO("column " << j << "\nPhi = " << rows.Phi.col(j).transpose() << "\nFD  = " << fd.transpose());
    CHECK(maxabs(fd - rows.Phi.col(j)) < R("1e-28") * (1 + Phi_max));
  }
  // Every joint is seen by some contact: no column of Phi is zero.
  for (int j = 0; j < n; ++j) CHECK(rows.Phi.col(j).cwiseAbs().maxCoeff() > R(0));

  const R h2("1e-12");
  const VX fd2 = (oracle::contact_rows(m, cs, advance(m, q, qd, h2), qd).phi - 2 * rows.phi +
                  oracle::contact_rows(m, cs, advance(m, q, qd, -h2), qd).phi) / (h2 * h2);
  INFO("bias = " << rows.bias.transpose() << "\nFD2  = " << fd2.transpose());
  CHECK(maxabs(rows.bias) > R(1) / 10);
  CHECK(maxabs(fd2 - rows.bias) < R("1e-21") * (1 + maxabs(rows.bias)));
  const VX fd1 = (oracle::contact_rows(m, cs, advance(m, q, qd, h), qd).Phi * qd -
                  oracle::contact_rows(m, cs, advance(m, q, qd, -h), qd).Phi * qd) / (2 * h);
  INFO("d/dt (Phi qd) = " << fd1.transpose());
  CHECK(maxabs(fd1 - rows.bias) < R("1e-28") * (1 + maxabs(rows.bias)));
}

namespace {
// Deterministic pseudo-random numbers (std::mt19937's output is fixed by the standard; the
// distributions are not, so fractions are formed by hand).
struct Rng {
  std::mt19937 gen{20240611u};
  int idx(int n) { return static_cast<int>(gen() % static_cast<unsigned>(n)); }
  R frac(int lo, int hi, int den) { return R(lo + idx(hi - lo + 1)) / R(den); }
  V3 vec3(int lo, int hi, int den) {  // one statement per draw: argument evaluation order is unspecified
    V3 v;
    for (int k = 0; k < 3; ++k) v[k] = frac(lo, hi, den);
    return v;
  }
  V3 unit() {
    V3 v = vec3(-100, 100, 100);
    while (v.norm() < R(1) / 10) v = vec3(-100, 100, 100);
    return v / v.norm();
  }
};
}  // namespace

TEST_CASE("contact oracle: random tree with three contacts satisfies Eqs. 11.41-11.42", "[contact_oracle]") {
  // A random 6-body tree (free root, a spherical joint, the others random), three contacts
  // placed in contact at a random q (plane through C': offset = normal . C' in p), one of them
  // between two moving bodies, qd projected onto null(Phi). The normals' signs are chosen so
  // that contacts 0 and 1 press (d < 0) and contact 2 pulls (d > 0); the test then requires
  // that some contact persists with lambda > 0 and some breaks with zeta_dot > 0, and checks
  // H qdd + C = tau + Phi^T lambda, lambda >= 0, zeta_dot >= 0, lambda . zeta_dot = 0.
  Rng rng;
  const JointType kinds[] = {JointType::Revolute, JointType::Prismatic, JointType::Helical, JointType::Cylindrical,
                             JointType::Planar, JointType::Free, JointType::Spherical};
  std::vector<BodySpec> specs;
  for (int i = 0; i < 6; ++i) {
    BodySpec s;
    s.parent = i == 0 ? -1 : rng.idx(i + 1) - 1;
    s.type = i == 0 ? JointType::Free : i == 1 ? JointType::Spherical : kinds[rng.idx(7)];
    s.axis = rng.unit();
    s.pitch = rng.frac(-20, 20, 100);
    const R angle = rng.frac(-300, 300, 100);
    const V3 axis = rng.unit();
    s.tree = Pose{rot(angle, axis), rng.vec3(-50, 50, 100)};
    s.mass = rng.frac(50, 200, 100);
    s.com = rng.vec3(-30, 30, 100);
    s.Icom = inertia(i + 1);
    specs.push_back(s);
  }
  V3 g = rng.vec3(-100, 100, 100);
  g[2] = -fr(981, 100);
  const auto m = build(specs, g);
  VX q(m.nq);
  for (int i = 0; i < m.nb; ++i) {
    const int k = m.q_idx[i];
    switch (m.joint[i].type) {
      case JointType::Spherical: case JointType::Free: {
        const R angle = rng.frac(-300, 300, 100);
        set_quat(q, k, qrot(angle, rng.unit()));
        if (m.joint[i].type == JointType::Free) q.segment(k + 4, 3) = rng.vec3(-50, 50, 100);
        break;
      }
      default:
        for (int l = 0; l < m.joint[i].nq(); ++l) q[k + l] = rng.frac(-150, 150, 100);
    }
  }
  Contacts cs;
  for (const auto& [p, s, name] : {std::tuple{-1, 3, "c0 base"}, std::tuple{2, 5, "c1 moving plane"}, std::tuple{-1, 4, "c2 base"}}) {
    const V3 point = rng.vec3(-30, 30, 100);
    cs.push_back(contact(p, s, point, rng.unit(), R(0), name));
  }
  const int n = m.nv;
  VX qd(n), tau(n);
  for (int j = 0; j < n; ++j) qd[j] = rng.frac(-100, 100, 100);
  for (int j = 0; j < n; ++j) tau[j] = rng.frac(-100, 100, 100);
  rbd::ExternalForces<R> fext(m.nb);
  for (auto& f : fext) f << rng.vec3(-50, 50, 100), rng.vec3(-100, 100, 100);

  // Into contact: offsets, then qd projected onto null(Phi).
  {
    const auto rows = oracle::contact_rows(m, cs, q, qd);
    for (int i = 0; i < 3; ++i) cs[i].offset = rows.phi[i];
    const MX& P = rows.Phi;
    qd -= P.transpose() * MX(P * P.transpose()).partialPivLu().solve(VX(P * qd));
  }
  {
    const auto L = oracle::contact_lcp(m, cs, q, qd, tau, &fext);
    const int want[] = {-1, -1, 1};
    for (int i = 0; i < 3; ++i)
      if ((L.d[i] > 0 ? 1 : -1) != want[i]) {
        cs[i].normal = -cs[i].normal;
        cs[i].offset = -cs[i].offset;
      }
  }
  VX lambda;
  const VX qdd = oracle::contact_forward_dynamics(m, cs, q, qd, tau, &fext, &lambda);
  REQUIRE(lambda.size() == 3);
  const VX zeta = check_contact_conditions(m, cs, q, qd, tau, &fext, qdd, lambda);
  INFO("lambda " << lambda.transpose() << "\nzeta_dot " << zeta.transpose());
  CHECK(lambda.maxCoeff() > R(1) / 100);  // some contact persists and pushes
  CHECK(zeta.maxCoeff() > R(1) / 100);    // some contact breaks
  // The same through the LCP's own quantities: M positive definite here (three independent
  // rows), so the solution is unique and found by exactly one subset.
  const auto L = oracle::contact_lcp(m, cs, q, qd, tau, &fext);
  const auto sol = oracle::solve_lcp_by_enumeration<R>(L.M, L.d, L.W, L.M_scale, L.d_scale, L.u_scale);
  CHECK(sol.accepted == 1);
  const Eigen::MatrixXd Md = L.M.cast<double>();
  CHECK(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(Md).eigenvalues().minCoeff() > 1e-6);
}

TEST_CASE("contact oracle: refuses states out of contact, bad contact data and too many contacts", "[contact_oracle]") {
  const FreeBody b = box();
  const V3 g = v3(0, 0, -fr(981, 100));
  const auto m = b.model(g);
  const R h = fr(2, 5);
  const V3 point = b.c + b.Rw().transpose() * v3(fr(1, 10), -fr(1, 5), -h);
  const R offset = b.xc[2] - h;
  const Contacts good = {contact(-1, 0, point, v3(0, 0, 1), offset, "ground")};
  const VX q = b.q(), tau = VX::Zero(6);
  // A velocity with no normal component at C': rotation about the vertical through C', plus sliding.
  const V3 r = b.Rw() * V3(point - b.c);
  const V3 w = v3(0, 0, fr(3, 2)), vc = v3(fr(1, 2), fr(1, 5), 0) - w.cross(r);
  const VX qd = b.qd(w, vc);
  CHECK_NOTHROW(oracle::contact_forward_dynamics(m, good, q, qd, tau, nullptr));

  // Position and velocity level, 1e-20 off (20 orders above the tolerance ~6e-41 x scale).
  Contacts off = good;
  off[0].offset += R("1e-20");
  CHECK_THROWS_AS(oracle::contact_forward_dynamics(m, off, q, qd, tau, nullptr), std::domain_error);
  CHECK_THROWS_WITH(oracle::contact_forward_dynamics(m, off, q, qd, tau, nullptr),
                    Contains("contact 0 'ground'") && Contains("not in contact"));
  const VX qd_bad = b.qd(w, V3(vc + v3(0, 0, R("1e-20"))));
  CHECK_THROWS_AS(oracle::contact_forward_dynamics(m, good, q, qd_bad, tau, nullptr), std::domain_error);
  CHECK_THROWS_WITH(oracle::contact_forward_dynamics(m, good, q, qd_bad, tau, nullptr),
                    Contains("contact 0 'ground'") && Contains("qd is not consistent"));
  // A state rounded to double is 1e-17 off: refused in Reference.
  Contacts rounded = good;
  rounded[0].offset = R(static_cast<double>(offset));
  if (rounded[0].offset != offset)
    CHECK_THROWS_AS(oracle::contact_forward_dynamics(m, rounded, q, qd, tau, nullptr), std::domain_error);

  // Bad data: std::invalid_argument naming the contact.
  auto bad = [&](auto edit, const char* what) {
    Contacts cs = good;
    edit(cs[0]);
    INFO(what);
    CHECK_THROWS_AS(oracle::contact_forward_dynamics(m, cs, q, qd, tau, nullptr), std::invalid_argument);
    CHECK_THROWS_WITH(oracle::contact_forward_dynamics(m, cs, q, qd, tau, nullptr),
                      Contains("contact 0 'ground'") && Contains(what));
  };
  bad([](Contact& c) { c.s = 1; }, "point body s = 1");
  bad([](Contact& c) { c.s = -1; }, "point body s = -1");
  bad([](Contact& c) { c.p = 1; }, "plane body p = 1");
  bad([](Contact& c) { c.p = -2; }, "plane body p = -2");
  bad([](Contact& c) { c.p = 0; }, "same body");
  bad([](Contact& c) { c.normal *= 1 + R("1e-30"); }, "not a unit vector");
  bad([](Contact& c) { c.point[1] = std::numeric_limits<R>::quiet_NaN(); }, "non-finite");
  bad([](Contact& c) { c.normal[2] = std::numeric_limits<R>::infinity(); }, "non-finite");
  bad([](Contact& c) { c.offset = std::numeric_limits<R>::quiet_NaN(); }, "offset is not finite");

  // Twelve copies of the resting contact (qd = 0): the limit, and as degenerate as it gets
  // (M has rank 1; the 12 one-contact subsets all solve the LCP and must agree): at rest.
  const Contacts rest = {contact(-1, 0, b.c + b.Rw().transpose() * v3(0, 0, -h), v3(0, 0, 1), offset, "ground")};
  const Contacts twelve(12, rest[0]);
  VX lambda;
  const VX qdd = oracle::contact_forward_dynamics(m, twelve, q, VX(VX::Zero(6)), tau, nullptr, &lambda);
  CHECK(maxabs(qdd) < kTol);
  CHECK(abs(lambda.sum() - b.mass * fr(981, 100)) < kTol * 20);
  const Contacts thirteen(13, rest[0]);
  CHECK_THROWS_AS(oracle::contact_forward_dynamics(m, thirteen, q, VX(VX::Zero(6)), tau, nullptr), std::invalid_argument);
  CHECK_THROWS_WITH(oracle::contact_forward_dynamics(m, thirteen, q, VX(VX::Zero(6)), tau, nullptr),
                    Contains("13 contacts") && Contains("nc <= 12"));
}

TEST_CASE("contact oracle: usable in double", "[contact_oracle]") {
  // The resting box of the first test cast to double: lambda = m g and qdd = 0 to ~1e3 roundings
  // of O(10) quantities: 1e-12.
  const FreeBody b = box();
  const auto m = b.model(v3(0, 0, -fr(981, 100))).cast<double>();
  const R h = fr(2, 5);
  const Contacts cs = {contact(-1, 0, b.c + b.Rw().transpose() * v3(0, 0, -h), v3(0, 0, 1), b.xc[2] - h, "ground")};
  rbd::VecX<double> q = b.q().cast<double>();
  oracle::normalize_quaternions(m, q);
  rbd::VecX<double> lambda;
  const rbd::VecX<double> qdd = oracle::contact_forward_dynamics<double>(
      m, rbd::cast_contacts<double>(cs), q, rbd::VecX<double>::Zero(6), rbd::VecX<double>::Zero(6), nullptr, &lambda);
  CHECK(std::abs(lambda[0] - 1.5 * 9.81) < 1e-12 * 15);
  CHECK(qdd.cwiseAbs().maxCoeff() < 1e-12);
}

}  // namespace test_contact_oracle
