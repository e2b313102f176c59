// Contact dynamics (Featherstone sections 11.1-11.5) beyond gate 1 (test_exactness.cpp runs every
// variant against reference/contact_oracle.hpp on every verify case with random contacts):
//  a. the contact kinematics against the definition of phi (model/contact.hpp): T^T qd = dphi/dt
//     and T^T qdd + T_dot^T qd = d^2phi/dt^2 along q(t), by central differences in Reference, on
//     random trees and on a contact that slides while its two bodies turn relative to each other
//     (the case steps.hpp's sliding term u x n3 exists for);
//  b. the LCP conditions (Eq. 11.42) and the equation of motion (Eq. 11.41 with an independent
//     H and C) for every variant on random states, in double and in Reference;
//  c. the variants agree with each other in double (bounded by cond * eps) and in Reference;
//  d. closed forms: a free body on one contact (Eqs. 11.8-11.10), a box on its four corners
//     (M singular, lambda not unique), tipping; Example 11.1 (no solution); duplicated contacts;
//  e. refusals of malformed contacts and non-finite states;
//  f. agreement with the enumerating oracle (M, d, T, T_dot^T qd, lambda, qdd) in Reference.
//
// Precision. Reference carries ~50 significant digits (eps ~ 5e-51). The computations here are
// at most ~1e5 roundings on O(1) numbers, pivoted eliminations on small positive-definite
// systems, so results agree to ~45 digits; "40 digits" (relative 1e-40) leaves a margin of
// ~1e4-1e5, while a wrong formula errs at O(1e-3 .. 1) relative. Double tolerances are stated
// where they are used, from eps = 2.2e-16, the sizes n and n_c, and the condition numbers of H
// and M measured on the state.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include "cases/contacts.hpp"
#include "cases/registry.hpp"
#include "cases/states.hpp"
#include "contact_dynamics/least_distance.hpp"
#include "contact_dynamics/variants.hpp"
#include "inverse_dynamics/rnea_spatial.hpp"
#include "mass_matrix/crba.hpp"
#include "model/configuration.hpp"
#include "model/contact.hpp"
#include "reference/contact_oracle.hpp"
#include "reference/reference_scalar.hpp"
#include "verify/support/metrics.hpp"
#include "verify/support/state.hpp"
#include "verify/support/message_of.hpp"

namespace test_contact_dynamics {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

using namespace rbd;
using R = Reference;

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();
const R kDigits40("1e-40");

template <class T> VecX<R> toR(const VecX<T>& x) { return cases::to<R>(x); }
MatX<R> toR(const MatX<double>& x) { return x.unaryExpr([](double v) { return R(v); }); }

double digits(const VecX<R>& a, const VecX<R>& b) { return verify::exact_digits(verify::rel_diff(a, b)); }
double digits(const MatX<R>& a, const MatX<R>& b) { return verify::exact_digits(verify::rel_diff(a, b)); }

template <class S> S maxabs(const MatX<S>& a) {
  S r = S(0);
  for (Eigen::Index i = 0; i < a.size(); ++i) {
    using std::abs;
    r = std::max<S>(r, S(abs(a.data()[i])));
  }
  return r;
}
template <class S> S maxabs(const VecX<S>& a) { return maxabs<S>(MatX<S>(a)); }

// f.template operator()<V>() for each variant.
template <class F> void for_each_variant(F&& f) {
  [&]<class... V>(std::tuple<V...>*) { (f.template operator()<V>(), ...); }(static_cast<ContactVariants*>(nullptr));
}

// V's qdd. A std::domain_error (the LCP "has no solution", a non-finite M or d) where a solution
// is expected is a failed check with its message, and the qdd returned is NaN, so that the
// caller's checks fail too and its loop goes on to the next state instead of ending the test
// case (the tests that expect a refusal call V::run themselves).
template <class V, class S>
VecX<S> run(const Model<S>& m, const PointContacts<S>& c, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& tau,
            const std::type_identity_t<ExternalForces<S>>* f, ContactWorkspace<S>& ws) {
  VecX<S> qdd(m.nv);
  try {
    V::template run<S>(m, c, q, qd, tau, f, qdd, ws);
  } catch (const std::domain_error& e) {
    FAIL_CHECK(V::name << " refused the state: " << e.what());
    qdd.setConstant(std::numeric_limits<S>::quiet_NaN());
  }
  return qdd;
}

// phi by its definition (model/contact.hpp): normal . (C' in p's coordinates) - offset, from the
// tree's forward kinematics at q.
template <class S> VecX<S> phi_of(const Model<S>& m, const PointContacts<S>& cs, const VecX<S>& q) {
  const std::vector<Transform<S>> X0 = cases::body_transforms<S>(m, q);
  VecX<S> out(static_cast<Eigen::Index>(cs.size()));
  for (std::size_t i = 0; i < cs.size(); ++i) {
    const PointContact<S>& c = cs[i];
    const Vec3<S> world = X0[c.s].r + X0[c.s].E.transpose() * c.point;
    const Vec3<S> in_p = c.p < 0 ? world : Vec3<S>(X0[c.p].E * (world - X0[c.p].r));
    out[static_cast<Eigen::Index>(i)] = c.normal.dot(in_p) - c.offset;
  }
  return out;
}

// Rotation matrix (body to world) of a unit quaternion [w x y z], written out here.
template <class S> Mat3<S> rot_of(const S& w, const S& x, const S& y, const S& z) {
  Mat3<S> M;
  M << S(1) - S(2) * (y * y + z * z), S(2) * (x * y - w * z), S(2) * (x * z + w * y),
       S(2) * (x * y + w * z), S(1) - S(2) * (x * x + z * z), S(2) * (y * z - w * x),
       S(2) * (x * z - w * y), S(2) * (y * z + w * x), S(1) - S(2) * (x * x + y * y);
  return M;
}

template <class S> Eigen::Matrix<S, 4, 1> unit_quat(double w, double x, double y, double z) {
  Eigen::Matrix<S, 4, 1> u(scalar_cast<S>(w), scalar_cast<S>(x), scalar_cast<S>(y), scalar_cast<S>(z));
  using std::sqrt;
  return u / S(sqrt(S(u.squaredNorm())));
}

template <class S> Vec3<S> unit3(double x, double y, double z) {
  Vec3<S> u(scalar_cast<S>(x), scalar_cast<S>(y), scalar_cast<S>(z));
  using std::sqrt;
  return u / S(sqrt(S(u.squaredNorm())));
}

// cond_2 of a symmetric positive-definite matrix (its eigenvalue ratio); inf if singular.
double cond_spd(const MatX<double>& A) {
  if (A.rows() == 0) return 1.0;
  const Eigen::SelfAdjointEigenSolver<MatX<double>> es(A, Eigen::EigenvaluesOnly);
  const double lo = es.eigenvalues().minCoeff(), hi = es.eigenvalues().maxCoeff();
  return lo > 0 ? hi / lo : std::numeric_limits<double>::infinity();
}

// A random verify case in double, in contact: planes through their points at q, qd projected
// onto null(T^T) (cases/contacts.hpp).
struct DoubleCase {
  std::string label;
  Model<double> m;
  cases::State s;
  PointContacts<double> contacts;
  VecX<double> qd;
};

bool make_double_case(const std::string& id, int seed, const Model<double>& m, DoubleCase& out) {
  out.s = cases::random_state(m, static_cast<std::uint64_t>(seed));
  if (out.s.contacts.empty()) return false;
  out.label = id + " seed " + std::to_string(seed);
  out.m = m;
  out.contacts = cases::place_contacts<double>(m, out.s.q, out.s.contacts);
  out.qd = cases::consistent_contact_velocity<double>(m, out.contacts, out.s.q, out.s.qd);
  return true;
}

// The same draw in Reference: quaternions unit in Reference (cast_state), planes placed and qd
// projected in Reference, so phi = 0 and zeta = 0 to ~1e-49 (the oracle's state check needs it).
struct RefCase {
  std::string label;
  Model<R> m;
  verify::StateOf<R> x;
  PointContacts<R> contacts;
  VecX<R> qd;
};

bool make_ref_case(const std::string& id, int seed, RefCase& out) {
  const Model<double> md = cases::build_case(id);
  const cases::State s = cases::random_state(md, static_cast<std::uint64_t>(seed));
  if (s.contacts.empty()) return false;
  out.label = id + " seed " + std::to_string(seed);
  out.m = md.cast<R>();
  out.x = verify::cast_state<R>(out.m, s);
  out.contacts = cases::place_contacts<R>(out.m, out.x.q, s.contacts);
  out.qd = cases::consistent_contact_velocity<R>(out.m, out.contacts, out.x.q, out.x.qd);
  return true;
}

// H and C = ID(q, qd, 0, f_ext) by the CRBA and the RNEA in Reference.
void mass_and_bias(const Model<R>& m, const VecX<R>& q, const VecX<R>& qd, const ExternalForces<R>* f, MatX<R>& H,
                   VecX<R>& C) {
  Workspace<R> w(m);
  H.resize(m.nv, m.nv);
  C.resize(m.nv);
  Crba::run<R>(m, q, H, w);
  RneaSpatial::run<R>(m, q, qd, VecX<R>(VecX<R>::Zero(m.nv)), f, C, w);
}

// A free body (JointType::Free at the base, centre of mass at the body origin) under gravity
// (0, 0, -9.81); its q is [quaternion w x y z; position], qd the body twist [omega; v_O] in body
// coordinates (model/configuration.hpp).
Model<double> free_body(const std::string& name, double mass, const Mat3<double>& Ic) {
  ModelBuilder b(name);
  b.gravity(Vec3<double>(0, 0, -9.81));
  Joint<double> j;
  j.type = JointType::Free;
  b.add_body("body", -1, j, Transform<double>{}, mass, Vec3<double>::Zero(), Ic);
  return b.finish();
}

Mat3<double> generic_inertia() {
  Mat3<double> Ic;
  Ic << 0.31, 0.02, -0.03, 0.02, 0.27, 0.015, -0.03, 0.015, 0.22;
  return Ic;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// a. The contact kinematics against phi's derivatives along q(t).
// ---------------------------------------------------------------------------------------------
namespace {

// Along q(t) = q (+) (qd t + a t^2 / 2) (model/configuration.hpp's integrate: q's own joints, and
// for spherical, free and planar joints the group exponential on the right), the velocity
// variables at t = 0 are qd and their derivative is a: for g(t) = g exp(xi(t)), xi(0) = 0, the
// body twist is dexp_{-xi} xi' = xi' - 1/2 [xi, xi'] + O(xi^2), which is qd at t = 0 with
// derivative xi'' - 1/2 [xi', xi'] = a. So the central differences of phi(q(t)) at t = +-h
// estimate phi_dot = T^T qd and phi_ddot = T^T a + T_dot^T qd (Eqs. 11.28-11.30: these hold at
// any state, not only at phi = 0, since steps.hpp evaluates n at C' itself).
struct PhiDerivatives {
  VecX<R> phi0, first, second;
};

PhiDerivatives phi_derivatives(const Model<R>& m, const PointContacts<R>& cs, const VecX<R>& q, const VecX<R>& qd,
                               const VecX<R>& a, const R& h) {
  const VecX<R> wp = qd * h + a * R(h * h / R(2));
  const VecX<R> wm = qd * R(-h) + a * R(h * h / R(2));
  const VecX<R> pp = phi_of<R>(m, cs, integrate(m, q, wp, R(1)));
  const VecX<R> pm = phi_of<R>(m, cs, integrate(m, q, wm, R(1)));
  PhiDerivatives out;
  out.phi0 = phi_of<R>(m, cs, q);
  out.first = (pp - pm) / R(R(2) * h);
  out.second = (pp - R(2) * out.phi0 + pm) / R(h * h);
  return out;
}

// Step and tolerances of the central differences (h = 1e-12):
//  - first derivative: truncation h^2/6 |phi'''| <= 1e-24 * 1e4 for |qd|, |a| <= 1 on trees of
//    <= 37 joints and O(1) lengths; rounding of phi (~1e-49 absolute) / h ~ 1e-37. Tolerance 1e-18.
//  - second derivative: truncation h^2/12 |phi''''| <= 1e-24 * 1e5, rounding 1e-49 / h^2 = 1e-25.
//    Tolerance 1e-16.
// A wrong column, sign or frame of T, or a missing term of T_dot^T qd, errs by O(|qd|^2) ~ 1e-2..1:
// 14+ orders above.
// Measured worst over the cases below: 9e-25 (first) and 1.1e-24 (second), 6 and 8 orders
// under the tolerances.
const R kStep("1e-12");
const R kTolFirst("1e-18");
const R kTolSecond("1e-16");

}  // namespace

TEST_CASE("contact dynamics: T^T qd = dphi/dt and T^T qdd + T_dot^T qd = d2phi/dt2 along q(t), random trees "
          "(Reference)",
          "[contact_dynamics]") {
  const std::vector<std::string> ids = {"gu:4", "tree:bf=2:nb=10", "all_joints", "joint:spherical", "joint:free",
                                        "humanoid"};
  int checked = 0, contacts_seen = 0, moving_plane = 0, big_bias = 0;
  R worst1 = R(0), worst2 = R(0);
  for (const std::string& id : ids) {
    for (int seed = 1; seed <= 3; ++seed) {
      RefCase c;
      if (!make_ref_case(id, seed, c)) continue;
      INFO(c.label);
      const Model<R>& m = c.m;
      // qd as drawn (not projected: zeta != 0, so the first-order identity has content) and a
      // random acceleration a (the state's qdd draw).
      const VecX<R>& qd = c.x.qd;
      const VecX<R>& a = c.x.qdd;
      const VecX<R> zero = VecX<R>::Zero(m.nv);
      ContactWorkspace<R> wd(m), wa(m);
      contacts::dense_lcp<R>(m, c.contacts, c.x.q, qd, zero, nullptr, wd);
      contacts::articulated_lcp<R>(m, c.contacts, c.x.q, qd, zero, nullptr, wa);
      const PhiDerivatives D = phi_derivatives(m, c.contacts, c.x.q, qd, a, kStep);
      const VecX<R> zeta = wd.T.transpose() * qd;
      const VecX<R> zdot = wd.T.transpose() * a + wd.Tdot_qd;
      // place_contacts put every plane through its point: phi(0) = 0 to rounding.
      CHECK(maxabs<R>(D.phi0) <= R("1e-45"));
      const R e1 = maxabs<R>(VecX<R>(zeta - D.first)), e2 = maxabs<R>(VecX<R>(zdot - D.second));
      INFO("|T^T qd - dphi/dt| = " << e1 << ", |T^T a + Tdot_qd - d2phi/dt2| = " << e2);
      CHECK(e1 <= kTolFirst);
      CHECK(e2 <= kTolSecond);
      worst1 = std::max(worst1, e1);
      worst2 = std::max(worst2, e2);
      // The articulated-body route forms the velocity-product accelerations from the ABA's c_i,
      // not the RNEA's: the same T and T_dot^T qd to 40 digits.
      CHECK(digits(MatX<R>(wa.T), MatX<R>(wd.T)) >= 40);
      CHECK(digits(VecX<R>(wa.Tdot_qd), VecX<R>(wd.Tdot_qd)) >= 40);
      for (const PointContact<R>& pc : c.contacts) moving_plane += pc.p >= 0;
      for (Eigen::Index i = 0; i < wd.Tdot_qd.size(); ++i) big_bias += abs(wd.Tdot_qd[i]) >= R("1e-2");
      contacts_seen += static_cast<int>(c.contacts.size());
      ++checked;
    }
  }
  INFO("worst: first " << worst1 << ", second " << worst2);
  CHECK(checked >= 12);
  CHECK(moving_plane >= 3);                 // planes on moving bodies (p >= 0) are among them
  CHECK(2 * big_bias >= contacts_seen);     // T_dot^T qd is not negligible: the comparison has content
}

TEST_CASE("contact dynamics: a contact sliding between two turning bodies needs n_dot's sliding term (Reference)",
          "[contact_dynamics]") {
  // Two free bodies: the plane on body 0 (p), the point on body 1 (s), both moving. The state is
  // built in world coordinates: n3 the plane's normal, t1, t2 = n3 x t1 tangent to it; the point
  // slides over the plane with u = t1 + 0.3 t2 (relative to body 0's point at C, zeta = n3 . u
  // = 0), and the bodies turn relative to each other with w_s - w_p = 0.5 t1 + 1.5 t2 + 0.4 n3.
  // The sliding term of steps.hpp's n_dot contributes u . (n3 x (w_s - w_p)) = u . (0.5 t2 -
  // 1.5 t1) = 0.15 - 1.5 = -1.35 to T_dot^T qd.
  ModelBuilder b("two free bodies");
  b.gravity(Vec3<double>(0, 0, -9.81));
  Joint<double> jf;
  jf.type = JointType::Free;
  Mat3<double> I0 = generic_inertia(), I1;
  I1 << 0.12, -0.01, 0.02, -0.01, 0.15, 0.005, 0.02, 0.005, 0.1;
  b.add_body("plane carrier", -1, jf, Transform<double>{}, 1.3, Vec3<double>::Zero(), I0);
  b.add_body("point carrier", -1, jf, Transform<double>{}, 0.8, Vec3<double>::Zero(), I1);
  const Model<R> m = b.finish().cast<R>();
  using Q = Eigen::Matrix<R, 4, 1>;
  const Q u0 = unit_quat<R>(0.9, 0.2, -0.3, 0.1), u1 = unit_quat<R>(0.5, -0.4, 0.6, 0.3);
  const Vec3<R> p0(R("0.1"), R("0.2"), R("0.3")), p1(R("0.3"), R("-0.1"), R("0.45"));
  VecX<R> q(14);
  q << u0, p0, u1, p1;
  cases::ContactSpec spec;
  spec.p = 0;
  spec.s = 1;
  spec.point = Vec3<double>(0.05, -0.1, -0.2);
  spec.normal = Vec3<double>(0.2, -0.1, 1.0).normalized();
  const PointContacts<R> cs = cases::place_contacts<R>(m, q, {spec});

  const Mat3<R> R0 = rot_of<R>(u0[0], u0[1], u0[2], u0[3]), R1 = rot_of<R>(u1[0], u1[1], u1[2], u1[3]);
  const Vec3<R> x = p1 + R1 * cs[0].point;  // C' in world coordinates
  const Vec3<R> n3 = R0 * cs[0].normal;
  const Vec3<R> t1 = n3.cross(Vec3<R>(R(1), R(0), R(0))).normalized(), t2 = n3.cross(t1);
  const Vec3<R> u = t1 + R("0.3") * t2;
  const Vec3<R> w0(R("0.4"), R("-0.7"), R("0.2"));
  const Vec3<R> w1 = w0 + R("0.5") * t1 + R("1.5") * t2 + R("0.4") * n3;
  const Vec3<R> v0(R("0.1"), R("0.2"), R("-0.3"));
  const Vec3<R> v1 = v0 + w0.cross(x - p0) + u - w1.cross(x - p1);  // velocity of C' on body 1 = body 0's + u
  VecX<R> qd(12);
  qd << R0.transpose() * w0, R0.transpose() * v0, R1.transpose() * w1, R1.transpose() * v1;
  VecX<R> a(12);
  a << R("0.3"), R("-0.5"), R("0.2"), R("0.7"), R("-0.1"), R("0.4"), R("-0.6"), R("0.25"), R("0.1"), R("-0.3"),
      R("0.8"), R("-0.2");

  // The sliding term from the state, by hand: u = v_C'(body 1) - v_C(body 0), both from each
  // body's world twist.
  const Vec3<R> uu = (v1 + w1.cross(x - p1)) - (v0 + w0.cross(x - p0));
  const R term = uu.dot(n3.cross(Vec3<R>(w1 - w0)));
  CHECK(abs(R(term + R("1.35"))) <= R("1e-45"));  // the construction above

  ContactWorkspace<R> ws(m);
  contacts::dense_lcp<R>(m, cs, q, qd, VecX<R>(VecX<R>::Zero(12)), nullptr, ws);
  const PhiDerivatives D = phi_derivatives(m, cs, q, qd, a, kStep);
  const R zeta = R(ws.T.col(0).dot(qd)), zdot = R(ws.T.col(0).dot(a) + ws.Tdot_qd[0]);
  INFO("zeta = " << zeta << ", dphi/dt = " << D.first[0] << ", zeta_dot = " << zdot << ", d2phi/dt2 = "
                 << D.second[0] << ", sliding term = " << term);
  CHECK(abs(D.phi0[0]) <= R("1e-45"));
  CHECK(abs(zeta) <= R("1e-45"));  // sliding, not separating: zeta = n3 . u = 0
  CHECK(abs(R(D.first[0])) <= kTolFirst);
  CHECK(abs(R(zdot - D.second[0])) <= kTolSecond);
  // Without the sliding term zeta_dot would miss phi_ddot by |term| = 1.35, 16 orders above the
  // tolerance: the check above is the one that sees a missing or wrong-signed u x n3.
  CHECK(abs(R(zdot - term - D.second[0])) >= R(1));
  // The same state through a full variant: its zeta_dot is T^T qdd + T_dot^T qd of its own qdd,
  // again phi_ddot along a trajectory with that acceleration.
  for_each_variant([&]<class V>() {
    INFO("variant " << V::name);
    ContactWorkspace<R> w(m);
    const VecX<R> tau = VecX<R>::Zero(12);
    const VecX<R> qdd = run<V>(m, cs, q, qd, tau, nullptr, w);
    const PhiDerivatives E = phi_derivatives(m, cs, q, qd, qdd, kStep);
    CHECK(abs(R(w.zeta_dot[0] - E.second[0])) <= kTolSecond);
  });
}

// ---------------------------------------------------------------------------------------------
// b, c. The LCP conditions and the equation of motion; agreement of the variants.
// ---------------------------------------------------------------------------------------------
namespace {

const std::vector<std::string> kRandomCases = {"gu:5",        "gu:12",      "tree:bf=2:nb=15", "all_joints",
                                               "dh:puma_like", "humanoid",   "urdf:ur5",        "urdf:panda",
                                               "urdf:iiwa14",  "urdf:solo12"};

}  // namespace

TEST_CASE("contact dynamics: every variant's lambda, zeta_dot and qdd satisfy Eqs. 11.41-11.42 on random states "
          "(double)",
          "[contact_dynamics]") {
  // Tolerances, each a bound on the double rounding of a correct computation (violations of a
  // wrong one are O(1) of the same scale):
  //  - zeta_dot and lambda: the final lambda solves M_AA lambda_A = -d_A for the active set A, with
  //    a forward error <= c n_c cond(M_AA) eps |lambda| (c ~ 1 for Cholesky, the pivoting's
  //    growth for Lemke's tableau), and cond(M_AA) <= cond(M) for a principal submatrix of a
  //    positive-definite M (eigenvalue interlacing). So |zeta_dot_i| <= 10 n_c cond(M) eps Z on
  //    A, Z = n_c max|M| max|lambda| + max|d|; lambda_i >= -10 n_c cond(M) eps L, L = max|lambda| +
  //    max|d| / max|M|; free contacts have lambda_i = 0 exactly (every solver sets it).
  //  - complementarity: on A |zeta_dot_i lambda_i| <= tolZ max|lambda|; off A it is 0.
  //  - H qdd + C - tau - T lambda, with H and C in Reference (the truth, not the code's): the
  //    dense routes solve H qdd = rhs backward-stably (n eps E), the articulated route's qdd_0 and
  //    H^-1 T carry the ABA's forward error cond(H) eps; bound 10 n cond(H) eps E, E = |H| |qdd| +
  //    |C| + |tau| + |T| |lambda| (Frobenius / 2-norms).
  //  - zeta_dot = T^T qdd + T_dot^T qd (the solver's zeta_dot is that of the returned qdd): the two
  //    differ by T^T (qdd's error), <= 10 n cond(H) eps (|T| |qdd| + |T_dot^T qd| + Z).
  int checked = 0, active = 0, released = 0;
  double worst_z = 0, worst_l = 0, worst_c = 0, worst_e = 0, worst_k = 0;  // in units of the bound
  for (const std::string& id : kRandomCases) {
    const Model<double> md = cases::build_case(id);
    const Model<R> mR = md.cast<R>();
    for (int seed = 1; seed <= 12; ++seed) {
      DoubleCase c;
      if (!make_double_case(id, seed, md, c)) continue;
      INFO(c.label);
      const int n = md.nv, nc = static_cast<int>(c.contacts.size());
      MatX<R> HR;
      VecX<R> CR;
      const ExternalForces<R> fR = cases::to<R>(c.s.f_ext);
      verify::StateOf<R> xR = verify::cast_state<R>(mR, c.s);
      mass_and_bias(mR, xR.q, toR(c.qd), &fR, HR, CR);
      const double condH = cond_spd(HR.unaryExpr([](const R& v) { return static_cast<double>(v); }));
      for_each_variant([&]<class V>() {
        INFO("variant " << V::name);
        ContactWorkspace<double> ws(md);
        const VecX<double> qdd = run<V>(md, c.contacts, c.s.q, c.qd, c.s.tau, &c.s.f_ext, ws);
        CHECK(qdd.allFinite());
        const double condM = cond_spd(ws.M);
        CHECK(std::isfinite(condM));
        if (!qdd.allFinite() || !std::isfinite(condM)) return;
        const double Mmax = ws.M.cwiseAbs().maxCoeff(), lmax = ws.lambda.cwiseAbs().maxCoeff(),
                     dmax = ws.d.cwiseAbs().maxCoeff();
        const double Z = nc * Mmax * lmax + dmax, L = lmax + dmax / Mmax;
        const double tolZ = 10 * nc * condM * kEps * Z, tolL = 10 * nc * condM * kEps * L;
        for (int i = 0; i < nc; ++i) {
          INFO("contact " << i << ": zeta_dot " << ws.zeta_dot[i] << ", lambda " << ws.lambda[i] << ", tolZ " << tolZ
                          << ", tolL " << tolL << ", cond(M) " << condM);
          CHECK(ws.zeta_dot[i] >= -tolZ);
          CHECK(ws.lambda[i] >= -tolL);
          CHECK(std::abs(ws.zeta_dot[i] * ws.lambda[i]) <= tolZ * lmax);
          worst_z = std::max(worst_z, -ws.zeta_dot[i] / tolZ);
          worst_l = std::max(worst_l, -ws.lambda[i] / tolL);
          if (lmax > 0) worst_c = std::max(worst_c, std::abs(ws.zeta_dot[i] * ws.lambda[i]) / (tolZ * lmax));
          active += ws.lambda[i] > 1e-6 * L;
          released += ws.zeta_dot[i] > 1e-6 * Z;
        }
        // The equation of motion with the Reference H and C.
        const MatX<R> TR = toR(ws.T);
        const VecX<R> qddR = toR(qdd), lamR = toR(ws.lambda), tauR = toR(c.s.tau);
        const VecX<R> res = HR * qddR + CR - tauR - TR * lamR;
        const double E = static_cast<double>(R(HR.norm() * qddR.norm() + CR.norm() + tauR.norm() + TR.norm() * lamR.norm()));
        const double tolE = 10 * n * condH * kEps * E;
        const double eres = static_cast<double>(R(res.norm()));
        INFO("|H qdd + C - tau - T lambda| = " << eres << ", bound " << tolE << ", cond(H) " << condH);
        CHECK(eres <= tolE);
        worst_e = std::max(worst_e, eres / tolE);
        // zeta_dot is the separation acceleration of the returned qdd.
        const VecX<double> z2 = ws.T.transpose() * qdd + ws.Tdot_qd;
        const double tolK = 10 * n * condH * kEps * (ws.T.norm() * qdd.norm() + ws.Tdot_qd.norm() + Z);
        const double ek = (z2 - ws.zeta_dot).cwiseAbs().maxCoeff();
        INFO("|T^T qdd + Tdot_qd - zeta_dot| = " << ek << ", bound " << tolK);
        CHECK(ek <= tolK);
        worst_k = std::max(worst_k, ek / tolK);
      });
      ++checked;
    }
  }
  INFO("worst fractions of the bounds: zeta_dot " << worst_z << ", lambda " << worst_l << ", complementarity "
                                                  << worst_c << ", equation of motion " << worst_e << ", zeta link "
                                                  << worst_k);
  CHECK(checked >= 80);
  // Both branches of Eq. 11.10's generalisation occur: contacts that press and contacts that release.
  CHECK(active >= 30);
  CHECK(released >= 30);
}

TEST_CASE("contact dynamics: the variants agree in double within a multiple of cond * eps", "[contact_dynamics]") {
  // qdd = H^-1 (tau - C + T lambda): each route's rounding reaches qdd through H^-1 (cond(H) eps)
  // and through lambda, the solution of M_AA lambda_A = -d_A, whose relative perturbation is
  // cond(M_AA) (|dM| / |M| + |dd| / |d|); M and d carry H^-1's error, cond(H) eps relative to
  // |T|^2 |H^-1| >= |M|. Hence the bound 100 n cond(H) cond(M) eps on the relative difference of
  // qdd (and of lambda, unique since draw_contacts keeps T of full column rank). It is loose (the
  // measured worst is reported below); a variant that solves the LCP wrongly differs by O(1).
  int checked = 0;
  double worst_ratio = 0, worst_rel = 0;
  std::string worst_label;
  for (const std::string& id : kRandomCases) {
    const Model<double> md = cases::build_case(id);
    for (int seed = 1; seed <= 30; ++seed) {
      DoubleCase c;
      if (!make_double_case(id, seed, md, c)) continue;
      INFO(c.label);
      std::vector<VecX<double>> qdds, lambdas;
      double condH = 0, condM = 0;
      for_each_variant([&]<class V>() {
        ContactWorkspace<double> ws(md);
        qdds.push_back(run<V>(md, c.contacts, c.s.q, c.qd, c.s.tau, &c.s.f_ext, ws));
        lambdas.push_back(ws.lambda);
        if (qdds.size() == 1) {  // the dense route's H and M
          condH = cond_spd(ws.Hd);
          condM = cond_spd(ws.M);
        }
      });
      const double bound = 100 * md.nv * condH * condM * kEps;
      for (std::size_t k = 1; k < qdds.size(); ++k) {
        INFO("variant " << k << " vs 0, cond(H) " << condH << ", cond(M) " << condM);
        const double rq = (qdds[k] - qdds[0]).norm() / qdds[0].norm();
        const double lscale = std::max(lambdas[0].norm(), 1e-300);
        const double rl = (lambdas[k] - lambdas[0]).norm() / lscale;
        CHECK(rq <= bound);
        if (lambdas[0].norm() > 0) CHECK(rl <= bound);
        // The first-order estimate: each route's rounding reaches qdd through H^-1 (cond(H) eps)
        // and through lambda (cond(M) eps relative to M's and d's own rounding), accumulated over
        // ~n operations each: 10 n (cond(H) + cond(M)) eps. Measured worst: 0.4 (cond(H) +
        // cond(M)) eps over these 300 states, so >= 125x below it for n >= 5.
        CHECK(std::max(rq, rl) <= 10 * md.nv * (condH + condM) * kEps);
        const double ratio = std::max(rq, rl) / ((condH + condM) * kEps);
        if (ratio > worst_ratio) {
          worst_ratio = ratio;
          worst_label = c.label;
        }
        worst_rel = std::max(worst_rel, std::max(rq, rl));
      }
      ++checked;
    }
  }
  INFO("worst relative difference " << worst_rel << "; worst in units of (cond(H) + cond(M)) eps " << worst_ratio
                                    << " (" << worst_label << ")");
  CHECK(checked >= 200);
  CHECK(worst_rel <= 1e-8);  // and in absolute terms the variants agree to 8+ digits on every state
}

TEST_CASE("contact dynamics: LCP conditions to 1e-40 and the variants' agreement to 40 digits (Reference)",
          "[contact_dynamics]") {
  int checked = 0;
  for (const char* id : {"gu:5", "all_joints", "humanoid", "urdf:ur5"}) {
    for (int seed = 1; seed <= 2; ++seed) {
      RefCase c;
      if (!make_ref_case(id, seed, c)) continue;
      INFO(c.label);
      const Model<R>& m = c.m;
      MatX<R> H;
      VecX<R> C;
      mass_and_bias(m, c.x.q, c.qd, &c.x.f_ext, H, C);
      std::vector<VecX<R>> qdds, lambdas;
      for_each_variant([&]<class V>() {
        INFO("variant " << V::name);
        ContactWorkspace<R> ws(m);
        const VecX<R> qdd = run<V>(m, c.contacts, c.x.q, c.qd, c.x.tau, &c.x.f_ext, ws);
        const R Z = R(maxabs<R>(ws.M) * maxabs<R>(ws.lambda) * R(ws.nc) + maxabs<R>(ws.d));
        const R L = R(maxabs<R>(ws.lambda) + maxabs<R>(ws.d) / maxabs<R>(ws.M));
        for (int i = 0; i < ws.nc; ++i) {
          CHECK(ws.zeta_dot[i] >= R(-kDigits40 * Z));
          CHECK(ws.lambda[i] >= R(-kDigits40 * L));
          CHECK(abs(R(ws.zeta_dot[i] * ws.lambda[i])) <= kDigits40 * Z * L);
        }
        const VecX<R> res = H * qdd + C - c.x.tau - ws.T * ws.lambda;
        const R E = R(H.norm() * qdd.norm() + C.norm() + c.x.tau.norm() + ws.T.norm() * ws.lambda.norm());
        CHECK(R(res.norm()) <= kDigits40 * E);
        const VecX<R> z2 = ws.T.transpose() * qdd + ws.Tdot_qd;
        CHECK(maxabs<R>(VecX<R>(z2 - ws.zeta_dot)) <= kDigits40 * R(ws.T.norm() * qdd.norm() + ws.Tdot_qd.norm() + Z));
        qdds.push_back(qdd);
        lambdas.push_back(ws.lambda);
      });
      for (std::size_t k = 1; k < qdds.size(); ++k) {
        CHECK(digits(qdds[k], qdds[0]) >= 40);
        CHECK(digits(lambdas[k], lambdas[0]) >= 40);
      }
      ++checked;
    }
  }
  CHECK(checked >= 6);
}

// ---------------------------------------------------------------------------------------------
// d. Closed forms.
// ---------------------------------------------------------------------------------------------
namespace {

// One free body (centre of mass at its origin, orientation u, a point r_b of it on the plane
// {n3 . x = offset} of the base), velocity omega (world) and v_O (world, projected so that zeta =
// 0), an extra force F (world) at the centre of mass. Section 11.1 by hand, in world-aligned
// coordinates at the centre of mass: I = diag(Ic_w, m 1), v = [omega; v_O], f = [0; m g + F],
// n = [r x n3; n3] with r = C' - com, and (base plane, C' sliding with v_C' = v_O + omega x r)
// n_dot = [v_C' x n3; 0]. Then
//   M = n . I^-1 n = (r x n3) . Ic_w^-1 (r x n3) + 1/m                            (Eq. 11.8)
//   d = n . I^-1 (f - v x* I v) + n_dot . v,  v x* I v = [omega x Ic_w omega; m omega x v_O]
//     = -(r x n3) . Ic_w^-1 (omega x Ic_w omega) + n3 . (g + F/m - omega x v_O) + (v_C' x n3) . omega   (Eq. 11.9)
//   lambda = -d/M if d < 0, else 0                                                 (Eq. 11.10)
//   a = I^-1 (n lambda + f - v x* I v): omega_dot = Ic_w^-1 ((r x n3) lambda - omega x Ic_w omega),
//                                        a_O = n3 lambda / m + g + F/m - omega x v_O  (Eq. 11.6)
// and the free joint's qdd is a in body coordinates: [R^T omega_dot; R^T a_O] (the spatial
// acceleration in body coordinates is the derivative of the body-coordinate twist).
template <class S> struct OneContact {
  Model<S> m;
  PointContacts<S> contacts;
  VecX<S> q, qd, tau;
  ExternalForces<S> f;
  S M, d, lambda;  // by hand
  VecX<S> qdd;     // by hand
};

template <class S>
OneContact<S> one_contact(const Model<double>& md, const Eigen::Matrix<S, 4, 1>& u, const Vec3<double>& r_b,
                          const Vec3<S>& n3, const Vec3<S>& omega, const Vec3<S>& v_rand, const Vec3<S>& F) {
  OneContact<S> o;
  o.m = md.cast<S>();
  const Mat3<S> Rm = rot_of<S>(u[0], u[1], u[2], u[3]);
  const Vec3<S> pos(scalar_cast<S>(0.1), scalar_cast<S>(-0.2), scalar_cast<S>(0.35));
  PointContact<double> cd;
  cd.p = -1;
  cd.s = 0;
  cd.point = r_b;
  cd.name = "under the body";
  PointContact<S> c = cd.cast<S>();
  c.normal = n3;
  const Vec3<S> r = Rm * c.point;
  c.offset = n3.dot(Vec3<S>(pos + r));
  o.contacts = {c};
  o.q.resize(7);
  o.q << u, pos;
  const Vec3<S> v = v_rand - n3 * S(n3.dot(Vec3<S>(v_rand + omega.cross(r))));
  o.qd.resize(6);
  o.qd << Rm.transpose() * omega, Rm.transpose() * v;
  o.tau = VecX<S>::Zero(6);
  Vec6<S> fb;
  fb << Vec3<S>::Zero(), Rm.transpose() * F;
  o.f = {fb};
  const S mass = o.m.mass[0];
  const Vec3<S> g = o.m.gravity;
  const Mat3<S> Icw = Rm * o.m.Icom[0] * Rm.transpose();
  const Mat3<S> Iinv = Icw.inverse();
  const Vec3<S> b = r.cross(n3), gyro = omega.cross(Vec3<S>(Icw * omega));
  const Vec3<S> vC = v + omega.cross(r);
  o.M = b.dot(Iinv * b) + S(1) / mass;
  o.d = -b.dot(Iinv * gyro) + n3.dot(Vec3<S>(g + F / mass - omega.cross(v))) + vC.cross(n3).dot(omega);
  o.lambda = o.d < S(0) ? S(-o.d / o.M) : S(0);
  const Vec3<S> wdot = Iinv * (b * o.lambda - gyro);
  const Vec3<S> aO = n3 * S(o.lambda / mass) + g + F / mass - omega.cross(v);
  o.qdd.resize(6);
  o.qdd << Rm.transpose() * wdot, Rm.transpose() * aO;
  return o;
}

// Checks every variant against the hand values: M, d, lambda and qdd, to rel_tol relative to
// the sizes of the terms.
template <class S> void check_one_contact(const OneContact<S>& o, const S& rel_tol) {
  using std::abs;
  for_each_variant([&]<class V>() {
    INFO("variant " << V::name);
    ContactWorkspace<S> ws(o.m);
    const VecX<S> qdd = run<V>(o.m, o.contacts, o.q, o.qd, o.tau, &o.f, ws);
    INFO("M " << ws.M(0, 0) << " (hand " << o.M << "), d " << ws.d[0] << " (hand " << o.d << "), lambda "
              << ws.lambda[0] << " (hand " << o.lambda << ")");
    const S dscale = S(abs(o.d) + S(10));  // d's terms are g ~ 9.81 and O(|omega|^2 |r|) <= 1
    CHECK(abs(S(ws.M(0, 0) - o.M)) <= rel_tol * o.M);
    CHECK(abs(S(ws.d[0] - o.d)) <= rel_tol * dscale);
    CHECK(abs(S(ws.lambda[0] - o.lambda)) <= rel_tol * S(dscale / o.M));
    CHECK(maxabs<S>(VecX<S>(qdd - o.qdd)) <= rel_tol * S(maxabs<S>(o.qdd) + dscale));
    CHECK(ws.zeta_dot[0] >= S(-rel_tol * dscale));
  });
}

}  // namespace

TEST_CASE("contact dynamics: a free body on one contact, Eqs. 11.8-11.10 by hand (double and Reference)",
          "[contact_dynamics]") {
  // Double tolerance 1e-13: a single body (cond(H) = max(m, I) / min(m, I) ~ 10) and ~200 flops on
  // O(1) numbers: ~100 eps of rounding, a 4x margin.
  const Model<double> md = free_body("free body", 2.5, generic_inertia());
  const double tol_d = 1e-13;
  const Vec3<double> below(0, 0, -0.35);
  SECTION("contact straight below the centre of mass, at rest: lambda = m g, qdd = 0") {
    // Orientation a rotation about z, so that the body's -z point is straight below its centre.
    for (int k = 0; k < 2; ++k) {
      const double th = 0.7 + k;
      const auto uD = unit_quat<double>(std::cos(th / 2), 0, 0, std::sin(th / 2));
      const auto uR = unit_quat<R>(std::cos(th / 2), 0, 0, std::sin(th / 2));
      const OneContact<double> o = one_contact<double>(md, uD, below, Vec3<double>::UnitZ(), Vec3<double>::Zero(),
                                                       Vec3<double>::Zero(), Vec3<double>::Zero());
      const OneContact<R> oR = one_contact<R>(md, uR, below, Vec3<R>(R(0), R(0), R(1)), Vec3<R>::Zero(),
                                              Vec3<R>::Zero(), Vec3<R>::Zero());
      // The hand values themselves: lambda = m g = 2.5 * 9.81 and a = 0.
      CHECK(o.lambda == Approx(2.5 * 9.81).epsilon(1e-15));
      CHECK(o.qdd.cwiseAbs().maxCoeff() <= 1e-14);
      CHECK(abs(R(oR.lambda - R(2.5) * R(9.81))) <= R("1e-45"));
      check_one_contact<double>(o, tol_d);
      check_one_contact<R>(oR, kDigits40);
    }
  }
  SECTION("the same, spinning about the vertical through the contact: lambda = m g, gyroscopic qdd") {
    const auto uR = unit_quat<R>(std::cos(0.35), 0, 0, std::sin(0.35));
    const OneContact<R> oR = one_contact<R>(md, uR, below, Vec3<R>(R(0), R(0), R(1)), Vec3<R>(R(0), R(0), R("2.5")),
                                            Vec3<R>::Zero(), Vec3<R>::Zero());
    CHECK(abs(R(oR.lambda - R(2.5) * R(9.81))) <= R("1e-45"));
    CHECK(maxabs<R>(VecX<R>(oR.qdd.head(3))) >= R("0.1"));  // Ic not diagonal: omega x Ic omega != 0
    check_one_contact<R>(oR, kDigits40);
  }
  SECTION("pulled up by a force larger than m g: lambda = 0, free fall plus the force") {
    const Vec3<double> F(0.3, -0.2, 1.5 * 2.5 * 9.81);
    const auto uD = unit_quat<double>(0.8, 0.1, -0.3, 0.2);
    const OneContact<double> o = one_contact<double>(md, uD, below, Vec3<double>::UnitZ(), Vec3<double>::Zero(),
                                                     Vec3<double>::Zero(), F);
    CHECK(o.lambda == 0.0);
    const Mat3<double> Rm = rot_of<double>(uD[0], uD[1], uD[2], uD[3]);
    const Vec3<double> aO = Rm.transpose() * (F / 2.5 + Vec3<double>(0, 0, -9.81));
    CHECK((o.qdd.tail(3) - aO).cwiseAbs().maxCoeff() <= 1e-14);
    CHECK(o.qdd.head(3).cwiseAbs().maxCoeff() == 0.0);
    check_one_contact<double>(o, tol_d);
    const auto uR = unit_quat<R>(0.8, 0.1, -0.3, 0.2);
    const Vec3<R> FR(R("0.3"), R("-0.2"), R(R("1.5") * R("2.5") * R(9.81)));
    check_one_contact<R>(one_contact<R>(md, uR, below, Vec3<R>(R(0), R(0), R(1)), Vec3<R>::Zero(), Vec3<R>::Zero(), FR),
                         kDigits40);
  }
  SECTION("an off-centre point on a tilted plane, moving (Eq. 11.10, both branches)") {
    const Vec3<double> r_b(0.12, -0.25, -0.3);
    int pressing = 0, releasing = 0;
    for (double nz : {0.9, -0.9}) {  // normal against gravity (presses) or along it (releases)
      const auto uD = unit_quat<double>(0.7, -0.2, 0.4, 0.3);
      const auto uR = unit_quat<R>(0.7, -0.2, 0.4, 0.3);
      const OneContact<double> o =
          one_contact<double>(md, uD, r_b, unit3<double>(0.3, -0.2, nz), Vec3<double>(0.4, -0.9, 0.6),
                              Vec3<double>(0.2, 0.1, -0.3), Vec3<double>::Zero());
      const OneContact<R> oR =
          one_contact<R>(md, uR, r_b, unit3<R>(0.3, -0.2, nz), Vec3<R>(R("0.4"), R("-0.9"), R("0.6")),
                         Vec3<R>(R("0.2"), R("0.1"), R("-0.3")), Vec3<R>::Zero());
      pressing += oR.d < R(0);
      releasing += oR.d > R(0);
      check_one_contact<double>(o, tol_d);
      check_one_contact<R>(oR, kDigits40);
    }
    CHECK(pressing == 1);
    CHECK(releasing == 1);
  }
}

namespace {

// A box of mass 2 and half-sizes (a, b, c) = (0.15, 0.1, 0.25), centre of mass at its origin,
// standing on the ground z = 0 on its four bottom corners (+-a, +-b, -c), turned by 0.6 rad about
// the vertical (a rotation about z keeps the corners at z = 0 exactly), at rest.
struct Box {
  double mass = 2.0, a = 0.15, b = 0.1, c = 0.25;
  Mat3<double> Ic() const {
    return Vec3<double>(mass / 3 * (b * b + c * c), mass / 3 * (a * a + c * c), mass / 3 * (a * a + b * b)).asDiagonal();
  }
  Model<double> model() const { return free_body("box", mass, Ic()); }
  std::vector<cases::ContactSpec> corners() const {
    std::vector<cases::ContactSpec> out;
    for (double sx : {1.0, -1.0})
      for (double sy : {1.0, -1.0}) {
        cases::ContactSpec s;
        s.p = -1;
        s.s = 0;
        s.point = Vec3<double>(sx * a, sy * b, -c);
        s.normal = Vec3<double>::UnitZ();
        out.push_back(s);
      }
    return out;  // corners 0, 1 at x = +a; 2, 3 at x = -a (body coordinates)
  }
  template <class S> VecX<S> q() const {
    VecX<S> q(7);
    q << unit_quat<S>(std::cos(0.3), 0, 0, std::sin(0.3)), scalar_cast<S>(0.1), scalar_cast<S>(-0.2),
        scalar_cast<S>(c);
    return q;
  }
};

}  // namespace

TEST_CASE("contact dynamics: a box resting on four corners (M singular), and tipping (double and Reference)",
          "[contact_dynamics]") {
  const Box box;
  const Model<double> md = box.model();
  const Model<R> mR = md.cast<R>();
  const VecX<double> q = box.q<double>(), zero = VecX<double>::Zero(6);
  const VecX<R> qR = box.q<R>(), zeroR = VecX<R>::Zero(6);
  const PointContacts<double> cs = cases::place_contacts<double>(md, q, box.corners());
  const PointContacts<R> csR = cases::place_contacts<R>(mR, qR, box.corners());
  const double g = 9.81, mg = box.mass * g;
  SECTION("at rest: qdd = 0, sum(lambda) = m g, no net moment, complementarity") {
    // The four normals [r_i x z; z] span only 3 dimensions (coplanar points, parallel normals):
    // M = T^T H^-1 T has rank 3, and lambda is not unique (any lambda >= 0 with the right total
    // force and moments). Every variant must still give qdd = 0.
    // Double tolerance: 1e3 eps (m g = 19.6 and lambda ~ 5, cond(H) ~ 10, a rank-deficient
    // pivoting): qdd <= 1e3 eps g, the force and moment sums <= 1e3 eps m g.
    for_each_variant([&]<class V>() {
      INFO("variant " << V::name);
      ContactWorkspace<double> ws(md);
      const VecX<double> qdd = run<V>(md, cs, q, zero, zero, nullptr, ws);
      INFO("lambda " << ws.lambda.transpose() << ", qdd " << qdd.transpose());
      CHECK(qdd.cwiseAbs().maxCoeff() <= 1e3 * kEps * g);
      CHECK(std::abs(ws.lambda.sum() - mg) <= 1e3 * kEps * mg);
      double mx = 0, my = 0;  // moments of the contact forces about the centre (body coordinates)
      for (int i = 0; i < 4; ++i) {
        mx += ws.lambda[i] * cs[i].point[1];
        my += ws.lambda[i] * cs[i].point[0];
        CHECK(ws.lambda[i] >= -1e3 * kEps * mg);
        CHECK(std::abs(ws.zeta_dot[i]) <= 1e3 * kEps * g);
      }
      CHECK(std::abs(mx) <= 1e3 * kEps * mg);
      CHECK(std::abs(my) <= 1e3 * kEps * mg);
      const Eigen::SelfAdjointEigenSolver<MatX<double>> es(ws.M, Eigen::EigenvaluesOnly);
      CHECK(es.eigenvalues().minCoeff() <= 1e-12 * es.eigenvalues().maxCoeff());  // singular, as said
    });
    for_each_variant([&]<class V>() {
      INFO("variant " << V::name << " (Reference)");
      ContactWorkspace<R> ws(mR);
      const VecX<R> qdd = run<V>(mR, csR, qR, zeroR, zeroR, nullptr, ws);
      const R mgR = R(2) * R(9.81);
      CHECK(maxabs<R>(qdd) <= kDigits40 * R(10));
      CHECK(abs(R(ws.lambda.sum() - mgR)) <= kDigits40 * mgR);
      for (int i = 0; i < 4; ++i) {
        CHECK(ws.lambda[i] >= R(-kDigits40 * mgR));
        CHECK(abs(ws.zeta_dot[i]) <= kDigits40 * R(10));
      }
      // The oracle's qdd (its enumeration accepts several active sets here and checks that they
      // all give the same qdd) is 0 too.
      CHECK(maxabs<R>(VecX<R>(qdd - oracle::contact_forward_dynamics<R>(mR, csR, qR, zeroR, zeroR, nullptr))) <=
            kDigits40 * R(10));
    });
  }
  SECTION("tipped by a horizontal force high up: the far corners release") {
    // A force F along the body's x axis at the top centre (0, 0, c): f = [(0, c F, 0); (F, 0, 0)]
    // in body coordinates. By hand (body axes, gravity along -z, frictionless, at rest): with the
    // x = -a corners released and the x = +a corners held (zeta_dot = 0),
    //   m a_z = lambda_+ - m g,  I_yy alpha_y = c F - a lambda_+,  a_z - a alpha_y = 0
    //   => lambda_+ = (g + a c F / I_yy) / (1/m + a^2 / I_yy),  split equally by symmetry in y;
    // the released corners separate with zeta_dot = a_z + a alpha_y = 2 a alpha_y > 0, which
    // holds iff F > m g a / c (here F = m g, a / c = 0.6). The frictionless floor leaves a_x = F/m.
    const double F = mg, Iyy = box.Ic()(1, 1), a = box.a, c = box.c;
    const double lplus = (g + a * c * F / Iyy) / (1 / box.mass + a * a / Iyy);
    const double alpha = (c * F - a * lplus) / Iyy, az = (lplus - mg) / box.mass;
    REQUIRE(std::abs(az - a * alpha) <= 1e-14);  // the hand solution is consistent
    REQUIRE(alpha > 0.1);
    VecX<double> qdd_hand(6);
    qdd_hand << 0, alpha, 0, F / box.mass, 0, az;
    const ExternalForces<double> f = {(Vec6<double>() << 0, c * F, 0, F, 0, 0).finished()};
    // Double tolerance 1e3 eps of g and m g, as above; M_AA of the two held corners is 2x2 and
    // well conditioned (cond ~ 10).
    for_each_variant([&]<class V>() {
      INFO("variant " << V::name);
      ContactWorkspace<double> ws(md);
      const VecX<double> qdd = run<V>(md, cs, q, zero, zero, &f, ws);
      INFO("lambda " << ws.lambda.transpose() << ", zeta_dot " << ws.zeta_dot.transpose());
      CHECK((qdd - qdd_hand).cwiseAbs().maxCoeff() <= 1e3 * kEps * g);
      for (int i = 0; i < 2; ++i) {
        CHECK(std::abs(ws.lambda[i] - lplus / 2) <= 1e3 * kEps * mg);
        CHECK(std::abs(ws.zeta_dot[i]) <= 1e3 * kEps * g);
      }
      for (int i = 2; i < 4; ++i) {
        CHECK(ws.lambda[i] == 0.0);
        CHECK(std::abs(ws.zeta_dot[i] - 2 * a * alpha) <= 1e3 * kEps * g);
      }
    });
  }
}

TEST_CASE("contact dynamics: Example 11.1, opposite normals n2 = -n1: no solution iff d1 + d2 < 0", "[contact_dynamics]") {
  // A free body with two contacts on the line through its centre along e (body y axis): points
  // r1 = -h e and r2 = +h e against base planes with normals -+e ("clamp": each point is pushed
  // outwards) or +-e ("slot": each is pushed inwards, the disc of Figure 11.3). Then n1 = -n2 as
  // spatial forces (both lines pass through the centre along e), M = (1/m) [1 -1; -1 1] (a force
  // along a line through the centre only translates the body), and, by hand, the accelerations of
  // the two points along their normals differ only by the centripetal terms (the translation and
  // gravity cancel, the angular acceleration moves them across e):
  //   d1 + d2 = n3_1 . (omega x (omega x r1)) + n3_2 . (omega x (omega x r2)) = -+ 2 h |omega x e|^2.
  // So the clamp has no solution for omega x e != 0 (Example 11.1's d1 + d2 < 0), the slot has one.
  const Model<double> md = free_body("slot", 1.7, generic_inertia());
  const Model<R> mR = md.cast<R>();
  const double h = 0.2;
  auto make = [&](bool clamp, const Vec3<R>& omega, const Eigen::Matrix<R, 4, 1>& u, PointContacts<R>& cs,
                  VecX<R>& q, VecX<R>& qd, R& expected_sum) {
    const Mat3<R> Rm = rot_of<R>(u[0], u[1], u[2], u[3]);
    const Vec3<R> e = Rm.col(1);
    q.resize(7);
    q << u, R("0.1"), R("0.3"), R("-0.2");
    std::vector<cases::ContactSpec> specs(2);
    specs[0].s = specs[1].s = 0;
    specs[0].point = Vec3<double>(0, -h, 0);
    specs[1].point = Vec3<double>(0, h, 0);
    const Vec3<double> ed = Rm.col(1).unaryExpr([](const R& v) { return static_cast<double>(v); });
    specs[0].normal = clamp ? Vec3<double>(-ed) : ed;
    specs[1].normal = clamp ? ed : Vec3<double>(-ed);
    cs = cases::place_contacts<R>(mR, q, specs);
    // place_contacts renormalises the double normal in Reference; make them exactly opposite
    // unit vectors along e in Reference instead (and re-place the planes).
    cs[0].normal = clamp ? Vec3<R>(-e) : e;
    cs[1].normal = -cs[0].normal;
    for (int i = 0; i < 2; ++i) cs[i].offset = cs[i].normal.dot(Vec3<R>(q.segment<3>(4) + Rm * cs[i].point));
    Vec3<R> v(R("0.3"), R("-0.2"), R("0.5"));
    v -= e * R(e.dot(v));  // zeta_i = -+e . (v + omega x r_i) = -+e . v = 0
    qd.resize(6);
    qd << Rm.transpose() * omega, Rm.transpose() * v;
    const R w2 = R(omega.cross(e).squaredNorm());
    expected_sum = (clamp ? R(-2) : R(2)) * R(h) * w2;
  };
  const auto u = unit_quat<R>(0.6, 0.3, -0.5, 0.2);
  const Vec3<R> omega(R("0.8"), R("-0.4"), R("1.1"));
  const VecX<R> tauR = VecX<R>::Zero(6);
  for (bool clamp : {true, false}) {
    for (bool spinning : {true, false}) {
      INFO((clamp ? "clamp" : "slot") << (spinning ? ", spinning" : ", not spinning"));
      PointContacts<R> cs;
      VecX<R> q, qd;
      R expected = R(0);
      make(clamp, spinning ? omega : Vec3<R>(Vec3<R>::Zero()), u, cs, q, qd, expected);
      // Reference: M and d1 + d2 by hand to 40 digits, then the verdict of every variant.
      for_each_variant([&]<class V>() {
        INFO("variant " << V::name << " (Reference)");
        ContactWorkspace<R> ws(mR);
        VecX<R> qdd(6);
        const bool no_solution = clamp && spinning;
        if (no_solution) {
          CHECK_THROWS_AS(V::template run<R>(mR, cs, q, qd, tauR, nullptr, qdd, ws), std::domain_error);
        } else {
          CHECK_NOTHROW(V::template run<R>(mR, cs, q, qd, tauR, nullptr, qdd, ws));
          const R Z = R(maxabs<R>(ws.d) + R(10));
          for (int i = 0; i < 2; ++i) {
            CHECK(ws.zeta_dot[i] >= R(-kDigits40 * Z));
            CHECK(ws.lambda[i] >= R(-kDigits40 * Z));
            CHECK(abs(R(ws.zeta_dot[i] * ws.lambda[i])) <= kDigits40 * Z * Z);
          }
          CHECK(digits(qdd, oracle::contact_forward_dynamics<R>(mR, cs, q, qd, tauR, nullptr)) >= 40);
        }
        // M and d were formed before the LCP (the no-solution case too).
        const R mi = R(1) / mR.mass[0];
        CHECK(abs(R(ws.M(0, 0) - mi)) <= kDigits40 * mi);
        CHECK(abs(R(ws.M(1, 1) - mi)) <= kDigits40 * mi);
        CHECK(abs(R(ws.M(0, 1) + mi)) <= kDigits40 * mi);
        CHECK(abs(R(ws.d[0] + ws.d[1] - expected)) <= kDigits40 * R(10));
      });
      if (spinning) CHECK(abs(expected) >= R("0.1"));
      // Double, with the same state rounded: a clear d1 + d2 = -+0.5 decides the same way. (With
      // omega = 0, d1 + d2 = 0 in exact arithmetic and +-eps in double: the next test.)
      if (!spinning) continue;
      const Model<double>& m = md;
      auto dbl = [](const VecX<R>& x) { return VecX<double>(x.unaryExpr([](const R& v) { return static_cast<double>(v); })); };
      PointContacts<double> csd = cast_contacts<double>(cs);
      const VecX<double> qdbl = dbl(q), qddbl = dbl(qd), taud = VecX<double>::Zero(6);
      for_each_variant([&]<class V>() {
        INFO("variant " << V::name << " (double)");
        ContactWorkspace<double> ws(m);
        VecX<double> qdd(6);
        if (clamp) {
          CHECK_THROWS_AS(V::template run<double>(m, csd, qdbl, qddbl, taud, nullptr, qdd, ws), std::domain_error);
        } else {
          CHECK_NOTHROW(V::template run<double>(m, csd, qdbl, qddbl, taud, nullptr, qdd, ws));
          // 1e3 eps of the terms (g, |omega|^2 h ~ 0.4): a 2-contact problem on one body.
          for (int i = 0; i < 2; ++i) {
            CHECK(ws.zeta_dot[i] >= -1e3 * kEps * 10);
            CHECK(ws.lambda[i] >= -1e3 * kEps * 10);
            CHECK(std::abs(ws.zeta_dot[i] * ws.lambda[i]) <= 1e3 * kEps * 100);
          }
        }
      });
    }
  }
}

TEST_CASE("contact dynamics: a duplicated contact leaves qdd unchanged and shares lambda (Reference and double)",
          "[contact_dynamics]") {
  // The contact carrying the largest force is appended once more: T gets two equal columns, M
  // becomes singular (rank n_c), lambda is no longer unique, qdd must not change (section 11.5's
  // property 2), and the pair's lambdas must add up to the single contact's.
  int checked = 0, pressed = 0;
  for (const char* id : {"gu:5", "all_joints", "humanoid"}) {
    for (int seed = 1; seed <= 3; ++seed) {
      RefCase c;
      if (!make_ref_case(id, seed, c)) continue;
      INFO(c.label);
      const int nc = static_cast<int>(c.contacts.size());
      int k = 0;
      {
        ContactWorkspace<R> w(c.m);
        run<ContactLemke>(c.m, c.contacts, c.x.q, c.qd, c.x.tau, &c.x.f_ext, w);
        for (int i = 1; i < nc; ++i)
          if (w.lambda[i] > w.lambda[k]) k = i;
        pressed += w.lambda[k] > R("1e-3");
      }
      INFO("duplicated contact " << k);
      PointContacts<R> twice = c.contacts;
      twice.push_back(c.contacts[static_cast<std::size_t>(k)]);
      for_each_variant([&]<class V>() {
        INFO("variant " << V::name);
        ContactWorkspace<R> w1(c.m), w2(c.m);
        const VecX<R> a = run<V>(c.m, c.contacts, c.x.q, c.qd, c.x.tau, &c.x.f_ext, w1);
        const VecX<R> b = run<V>(c.m, twice, c.x.q, c.qd, c.x.tau, &c.x.f_ext, w2);
        CHECK(digits(b, a) >= 40);
        // The pair carries what the single contact did (T's other columns are independent of it).
        VecX<R> shared = w2.lambda.head(nc);
        shared[k] += w2.lambda[nc];
        const R L = R(maxabs<R>(w1.lambda) + R(1));
        CHECK(maxabs<R>(VecX<R>(shared - w1.lambda)) <= kDigits40 * L);
        CHECK(w2.lambda.minCoeff() >= R(-kDigits40 * L));
      });
      // Double, the same draw: qdd within the first-order agreement bound of the test above,
      // 10 n (cond(H) + cond(M)) eps, with cond(M) of the original contacts (the duplicate's M is
      // singular; the solvers work on the same nonsingular active sets). Measured: 0 (bit for
      // bit) on 8 of the 9 draws, 6e-16 on the other.
      const Model<double> md = cases::build_case(id);
      DoubleCase d;
      REQUIRE(make_double_case(id, seed, md, d));
      PointContacts<double> twiced = d.contacts;
      twiced.push_back(d.contacts[static_cast<std::size_t>(k)]);
      ContactWorkspace<double> wl(md);
      run<ContactLemke>(md, d.contacts, d.s.q, d.qd, d.s.tau, &d.s.f_ext, wl);  // cond(H), cond(M) for the bound
      const double bound = 10 * md.nv * (cond_spd(wl.Hd) + cond_spd(wl.M)) * kEps;
      for_each_variant([&]<class V>() {
        INFO("variant " << V::name << " (double)");
        ContactWorkspace<double> w1(md), w2(md);
        const VecX<double> a = run<V>(md, d.contacts, d.s.q, d.qd, d.s.tau, &d.s.f_ext, w1);
        const VecX<double> b = run<V>(md, twiced, d.s.q, d.qd, d.s.tau, &d.s.f_ext, w2);
        CHECK((b - a).norm() <= bound * a.norm());
      });
      ++checked;
    }
  }
  CHECK(checked >= 6);
  CHECK(pressed >= 4);  // the duplicated contact presses in most draws: the test has content
}

TEST_CASE("contact dynamics: Example 11.1's slot at rest (d1 + d2 = 0 exactly) has a solution in every orientation",
          "[contact_dynamics]") {
  // The slot of the test above at rest: M = (1/m) [1 -1; -1 1] and d1 + d2 = 0 in exact
  // arithmetic, so the LCP has solutions (lambda_1 - lambda_2 = -m d_1). Driving the pressed
  // contact to zeta_dot = 0 leaves the other's zeta_dot = d1 + d2 + rounding, of either sign; a
  // Cottle-Dantzig drive of that residue has a zero Schur complement (n2 = -n1) and nothing that
  // limits the step, i.e. a "no solution" refusal. dantzig.hpp's first version did exactly that in
  // 4 of these 60 orientations (Rng(5) draws 1, 18, 34, 38; found by this test); it now starts a
  // drive only below -64 n_c eps (|d| + |M| |lambda|). Every variant must find a solution.
  const Model<double> md = free_body("slot at rest", 1.7, generic_inertia());
  const double h = 0.2;
  cases::Rng rng(5);
  for (int t = 0; t < 60; ++t) {
    const Eigen::Vector4d u = rng.unit_quaternion();
    VecX<double> q(7);
    q << u, 0.1, 0.3, -0.2;
    const Vec3<double> e = rot_of<double>(u[0], u[1], u[2], u[3]).col(1);
    std::vector<cases::ContactSpec> specs(2);
    specs[0].s = specs[1].s = 0;
    specs[0].point = Vec3<double>(0, -h, 0);
    specs[1].point = Vec3<double>(0, h, 0);
    specs[0].normal = e;
    specs[1].normal = -e;
    const PointContacts<double> cs = cases::place_contacts<double>(md, q, specs);
    const VecX<double> zero = VecX<double>::Zero(6);
    for_each_variant([&]<class V>() {
      INFO("orientation " << t << " (Rng(5) draw), variant " << V::name);
      ContactWorkspace<double> ws(md);
      VecX<double> qdd(6);
      std::string what;
      try {
        V::template run<double>(md, cs, q, zero, zero, nullptr, qdd, ws);
      } catch (const std::domain_error& ex) {
        what = ex.what();
      }
      INFO(what);
      CHECK(what.empty());
      if (!what.empty()) return;
      // 1e3 eps of g: one body, cond(H) ~ 10.
      for (int i = 0; i < 2; ++i) {
        CHECK(ws.zeta_dot[i] >= -1e3 * kEps * 10);
        CHECK(ws.lambda[i] >= -1e3 * kEps * 10);
      }
    });
  }
  // The same in Reference (rounding at 1e-50 instead of 1e-16: the same mechanism).
  const Model<R> mR = md.cast<R>();
  for (int t = 0; t < 20; ++t) {
    const Eigen::Vector4d ud = rng.unit_quaternion();
    const Eigen::Matrix<R, 4, 1> u = unit_quat<R>(ud[0], ud[1], ud[2], ud[3]);
    VecX<R> q(7);
    q << u, R("0.1"), R("0.3"), R("-0.2");
    const Vec3<R> e = rot_of<R>(u[0], u[1], u[2], u[3]).col(1);
    std::vector<cases::ContactSpec> specs(2);
    specs[0].s = specs[1].s = 0;
    specs[0].point = Vec3<double>(0, -h, 0);
    specs[1].point = Vec3<double>(0, h, 0);
    PointContacts<R> cs = cases::place_contacts<R>(mR, q, specs);
    cs[0].normal = e;  // exactly opposite unit normals in Reference, planes through the points
    cs[1].normal = -e;
    for (int i = 0; i < 2; ++i) cs[i].offset = cs[i].normal.dot(Vec3<R>(q.segment<3>(4) + rot_of<R>(u[0], u[1], u[2], u[3]) * cs[i].point));
    const VecX<R> zero = VecX<R>::Zero(6);
    for_each_variant([&]<class V>() {
      INFO("Reference orientation " << t << ", variant " << V::name);
      ContactWorkspace<R> ws(mR);
      VecX<R> qdd(6);
      std::string what;
      try {
        V::template run<R>(mR, cs, q, zero, zero, nullptr, qdd, ws);
      } catch (const std::domain_error& ex) {
        what = ex.what();
      }
      INFO(what);
      CHECK(what.empty());
    });
  }
}

// ---------------------------------------------------------------------------------------------
// The least-distance solver of contact_gauss_qp (least_distance.hpp) on problems given directly as
// Y and d, so that its drops and its dependent-column steps are exercised on purpose: the verify
// cases' one to three contacts rarely make an active multiplier turn negative.
// ---------------------------------------------------------------------------------------------

// A workspace holding only what least_distance reads and writes, for Y (n x n_c) and d.
ContactWorkspace<R> ldp_workspace(const MatX<R>& Y, const VecX<R>& d) {
  ContactWorkspace<R> ws;
  const auto n = Y.rows(), nc = Y.cols();
  ws.nc = static_cast<int>(nc);
  ws.Y = Y;
  ws.d = d;
  ws.lambda = ws.zeta_dot = VecX<R>::Zero(nc);
  ws.clamped.assign(nc, 0);
  ws.qp_Q = ws.qp_R = MatX<R>::Zero(n, n);
  ws.qp_y = ws.qp_dv = ws.qp_r = ws.qp_u = VecX<R>::Zero(n);
  ws.qp_active.assign(n, 0);
  return ws;
}

TEST_CASE("contact dynamics: the least-distance solver drops a constraint whose multiplier turns negative (by hand)",
          "[contact_dynamics]") {
  // minimize |y|^2 / 2 subject to y_1^T y >= 1, y_2^T y >= 0.9, with y_1 = (1, 0), y_2 = (0.5, 0.1).
  // At y = 0 the first is the more violated and is added first: y = (1, 0). The second is then
  // violated (0.5 - 0.9 < 0); with both active, y = (1, 4) = lambda_1 y_1 + lambda_2 y_2 needs
  // lambda_2 = 40 and lambda_1 = -19 < 0, so the first must leave on the way. The answer is the
  // second alone: y = 0.9 y_2 / |y_2|^2 with lambda_2 = 0.9 / 0.26, and y_1^T y = 0.45 / 0.26 > 1.
  MatX<R> Y(2, 2);
  Y << R(1), R("0.5"), R(0), R("0.1");
  VecX<R> d(2);
  d << R(-1), R("-0.9");
  auto ws = ldp_workspace(Y, d);
  contacts::least_distance<R>(ws);
  const R lambda2 = R("0.9") / R("0.26");
  CHECK(ws.qp_drops == 1);
  CHECK(ws.lambda[0] == R(0));
  CHECK(abs(R(ws.lambda[1] - lambda2)) <= kDigits40 * lambda2);
  CHECK(abs(R(ws.qp_y[0] - R("0.5") * lambda2)) <= kDigits40 * lambda2);
  CHECK(abs(R(ws.qp_y[1] - R("0.1") * lambda2)) <= kDigits40 * lambda2);
  CHECK(abs(R(ws.zeta_dot[0] - (R("0.45") / R("0.26") - R(1)))) <= kDigits40 * lambda2);
  CHECK(abs(ws.zeta_dot[1]) <= kDigits40 * lambda2);
}

TEST_CASE("contact dynamics: the least-distance solver against the enumerated LCP on random problems (Reference)",
          "[contact_dynamics]") {
  // Random Y (n = 1..5 rows, n_c = 1..8 columns, entries in [-1, 1]) and d: more columns than rows
  // half the time, and a column copied or combined from two others in a third of the problems, so
  // that the solver's drops and dependent-column steps all occur (counted below). The oracle is
  // the contact oracle's LCP by enumeration with M = Y^T Y; y = Y lambda is unique (section 11.5,
  // property 2) and lambda is where Y has full column rank. Precision: entries O(1), at most a few
  // hundred rotations and eliminations, cond(Y) of such random matrices rarely above 1e6, so ~44 of
  // Reference's 50 digits survive; 1e-40 relative to the solution's size keeps a 1e4 margin, while
  // a wrong step or a stale factor errs by O(1). A problem with no solution (contradictory rows)
  // must be refused by both.
  cases::Rng rng(11);
  int solved = 0, infeasible = 0, with_drops = 0, with_dependent = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int n = 1 + static_cast<int>(rng.uniform(0, 5)), nc = 1 + static_cast<int>(rng.uniform(0, 8));
    MatX<R> Y(n, nc);
    for (int c = 0; c < nc; ++c)
      for (int r = 0; r < n; ++r) Y(r, c) = R(rng.uniform(-1, 1));
    if (nc >= 3 && rng.uniform01() < 0.33) Y.col(nc - 1) = R(rng.uniform(-1, 1)) * Y.col(0) + R(rng.uniform(-1, 1)) * Y.col(1);
    VecX<R> d(nc);
    for (int i = 0; i < nc; ++i) d[i] = R(rng.uniform(-1, 1));
    INFO("trial " << trial << ", n = " << n << ", n_c = " << nc);
    auto ws = ldp_workspace(Y, d);
    const MatX<R> M = Y.transpose() * Y;
    std::optional<oracle::LcpSolution<R>> expected;
    try {
      expected = oracle::solve_lcp_by_enumeration<R>(M, d, Y, maxabs<R>(M), maxabs<R>(d), R(0));
    } catch (const std::domain_error&) {
    }
    if (!expected) {
      ++infeasible;
      CHECK_THROWS_AS(contacts::least_distance<R>(ws), std::domain_error);
      continue;
    }
    contacts::least_distance<R>(ws);
    ++solved;
    with_drops += ws.qp_drops > 0;
    with_dependent += ws.qp_dual_steps > 0;
    const VecX<R> y = Y * expected->lambda;
    const R scale = R(1) + maxabs<R>(y) + maxabs<R>(expected->lambda);
    CHECK(maxabs<R>(VecX<R>(ws.qp_y - y)) <= kDigits40 * scale);
    CHECK(maxabs<R>(VecX<R>(ws.zeta_dot - expected->zeta_dot)) <= kDigits40 * scale);
    for (int i = 0; i < nc; ++i) {  // Eq. 11.42's conditions on the solver's own lambda
      CHECK(ws.lambda[i] >= R(0));
      CHECK(abs(R(ws.lambda[i] * ws.zeta_dot[i])) <= kDigits40 * scale * scale);
    }
    CHECK(maxabs<R>(VecX<R>(Y * ws.lambda - ws.qp_y)) <= kDigits40 * scale);
    if (Eigen::FullPivLU<MatX<R>>(Y).rank() == nc) CHECK(maxabs<R>(VecX<R>(ws.lambda - expected->lambda)) <= kDigits40 * scale);
  }
  INFO(solved << " solved, " << infeasible << " without solution, " << with_drops << " with drops, " << with_dependent
              << " with dependent-column steps");
  // The draw must exercise every path, or the checks above prove less than they say.
  CHECK(with_drops >= 20);
  CHECK(with_dependent >= 10);
  CHECK(infeasible >= 5);
}

// ---------------------------------------------------------------------------------------------
// e. Refusals.
// ---------------------------------------------------------------------------------------------
using rbd::verify::message_of;  // verify/support/message_of.hpp

TEST_CASE("contact dynamics: malformed contacts and non-finite states are refused with a message", "[contact_dynamics]") {
  using Catch::Matchers::Contains;
  const Model<double> m = cases::build_case("all_joints");
  DoubleCase c;
  int seed = 1;
  while (!make_double_case("all_joints", seed, m, c) || c.contacts.size() < 2) ++seed;
  c.contacts[1].name = "heel";
  VecX<double> qdd(m.nv);
  const VecX<double> good_q = c.s.q, good_qd = c.qd, good_tau = c.s.tau;
  for_each_variant([&]<class V>() {
    INFO("variant " << V::name);
    auto call = [&](const PointContacts<double>& cs, const VecX<double>& q, const VecX<double>& qd,
                    const VecX<double>& tau, const ExternalForces<double>* f) {
      ContactWorkspace<double> ws(m);
      V::template run<double>(m, cs, q, qd, tau, f, qdd, ws);
    };
    {  // a body that does not exist, p == s, p below -1
      PointContacts<double> bad = c.contacts;
      bad[1].s = m.nb;
      CHECK_THAT(message_of<ModelError>([&] { call(bad, good_q, good_qd, good_tau, nullptr); }),
                 Contains("contact 1 'heel'") && Contains("point body s = " + std::to_string(m.nb)));
      bad = c.contacts;
      bad[1].p = bad[1].s;
      CHECK_THAT(message_of<ModelError>([&] { call(bad, good_q, good_qd, good_tau, nullptr); }),
                 Contains("contact 1 'heel'") && Contains("both on body"));
      bad = c.contacts;
      bad[0].p = -2;
      CHECK_THAT(message_of<ModelError>([&] { call(bad, good_q, good_qd, good_tau, nullptr); }),
                 Contains("contact 0") && Contains("p = -2"));
    }
    {  // NaN in q: M (a function of q) is not finite
      VecX<double> q = good_q;
      q[2] = std::nan("");
      CHECK_THAT(message_of<std::domain_error>([&] { call(c.contacts, q, good_qd, good_tau, nullptr); }),
                 Contains("M (Eq. 11.35)"));
    }
    {  // NaN in qd, tau or f_ext: M is finite, d is not
      VecX<double> qd = good_qd;
      qd[3] = std::nan("");
      CHECK_THAT(message_of<std::domain_error>([&] { call(c.contacts, good_q, qd, good_tau, nullptr); }),
                 Contains("d (Eq. 11.36)"));
      VecX<double> tau = good_tau;
      tau[0] = std::numeric_limits<double>::infinity();
      CHECK_THAT(message_of<std::domain_error>([&] { call(c.contacts, good_q, good_qd, tau, nullptr); }),
                 Contains("d (Eq. 11.36)"));
      ExternalForces<double> f = c.s.f_ext;
      f[0][4] = std::nan("");
      CHECK_THAT(message_of<std::domain_error>([&] { call(c.contacts, good_q, good_qd, good_tau, &f); }),
                 Contains("d (Eq. 11.36)"));
    }
    {  // and a good call after the refusals works, in the same workspace
      ContactWorkspace<double> ws(m);
      PointContacts<double> bad = c.contacts;
      bad[0].s = -1;
      CHECK_THROWS_AS(V::template run<double>(m, bad, good_q, good_qd, good_tau, nullptr, qdd, ws), ModelError);
      V::template run<double>(m, c.contacts, good_q, good_qd, good_tau, nullptr, qdd, ws);
      CHECK(qdd.allFinite());
    }
  });
  // validate_contacts: the data checks a caller runs once (bodies as above, plus numbers).
  CHECK_NOTHROW(validate_contacts(m, c.contacts));
  {
    PointContacts<double> bad = c.contacts;
    bad[1].normal *= 1.01;
    CHECK_THAT(message_of<ModelError>([&] { validate_contacts(m, bad); }),
               Contains("contact 1 'heel'") && Contains("unit vector"));
    bad = c.contacts;
    bad[1].normal *= 1 + 1e-14;  // within ModelBuilder's 1e-12: accepted
    CHECK_NOTHROW(validate_contacts(m, bad));
    bad = c.contacts;
    bad[1].point[2] = std::nan("");
    CHECK_THAT(message_of<ModelError>([&] { validate_contacts(m, bad); }),
               Contains("contact 1 'heel'") && Contains("point has a non-finite"));
    bad = c.contacts;
    bad[0].offset = std::numeric_limits<double>::infinity();
    CHECK_THAT(message_of<ModelError>([&] { validate_contacts(m, bad); }),
               Contains("contact 0") && Contains("non-finite"));
    bad = c.contacts;
    bad[0].normal[0] = std::nan("");
    CHECK_THAT(message_of<ModelError>([&] { validate_contacts(m, bad); }), Contains("contact 0") && Contains("normal"));
    bad = c.contacts;
    bad[1].s = m.nb + 3;
    CHECK_THAT(message_of<ModelError>([&] { validate_contacts(m, bad); }), Contains("contact 1 'heel'"));
  }
}

// ---------------------------------------------------------------------------------------------
// f. The enumerating oracle.
// ---------------------------------------------------------------------------------------------
TEST_CASE("contact dynamics: M, d, T, T_dot^T qd, lambda and qdd against the enumerating oracle (Reference)",
          "[contact_dynamics]") {
  // The oracle (reference/contact_oracle.hpp) differentiates phi itself (duals on 4x4 forward
  // kinematics: its Phi is T^T and its bias T_dot^T qd), forms H and C from the Lagrangian, and
  // solves the LCP by enumerating active sets: nothing is shared with algorithms/.
  int checked = 0;
  for (const char* id : {"gu:5", "all_joints", "tree:bf=2:nb=7", "joint:free"}) {
    for (int seed = 1; seed <= 2; ++seed) {
      RefCase c;
      if (!make_ref_case(id, seed, c)) continue;
      INFO(c.label);
      const oracle::ContactLcp<R> L = oracle::contact_lcp<R>(c.m, c.contacts, c.x.q, c.qd, c.x.tau, &c.x.f_ext);
      VecX<R> lambda_o;
      const VecX<R> qdd_o = oracle::contact_forward_dynamics<R>(c.m, c.contacts, c.x.q, c.qd, c.x.tau, &c.x.f_ext, &lambda_o);
      for_each_variant([&]<class V>() {
        INFO("variant " << V::name);
        ContactWorkspace<R> ws(c.m);
        const VecX<R> qdd = run<V>(c.m, c.contacts, c.x.q, c.qd, c.x.tau, &c.x.f_ext, ws);
        CHECK(digits(MatX<R>(ws.T.transpose()), L.rows.Phi) >= 40);
        // T_dot^T qd against an absolute scale, the size of its velocity-product terms
        // (|qd|^2 times T's lengths): projecting qd onto null(T^T) can stop every joint between p
        // and s (gu:5 seed 1: two contacts on 2 joints), and then both are 0 to rounding.
        const R vscale = R(maxabs<R>(c.qd) * maxabs<R>(c.qd) * (R(1) + maxabs<R>(ws.T)) + R(1e-30));
        CHECK(maxabs<R>(VecX<R>(ws.Tdot_qd - L.rows.bias)) <= kDigits40 * vscale);
        CHECK(digits(MatX<R>(ws.M), L.M) >= 40);
        CHECK(digits(VecX<R>(ws.d), L.d) >= 40);
        CHECK(digits(VecX<R>(ws.lambda), lambda_o) >= 40);
        CHECK(digits(qdd, qdd_o) >= 40);
      });
      ++checked;
    }
  }
  CHECK(checked >= 6);
}

TEST_CASE("contact states: a velocity the contacts must hold entirely is exactly zero, else T^T qd = 0 (Reference)",
          "[contact_dynamics]") {
  // cases::chain_contacts puts two contacts on GU(n): on GU(1) and GU(2) their rows span every
  // joint velocity, so the consistent qd is 0 exactly (before, a projection left 8.7e-49 |qd| of
  // rounding on GU(2), which the contact oracle rightly refused: rbdlab_bench's start-up abort);
  // from GU(3) on a velocity is left with T^T qd = 0 to Reference's rounding (1e-45 of |qd|
  // leaves a margin of ~1e4 over the ~50-digit arithmetic of a few small solves).
  using Rf = Reference;
  for (int n : {1, 2, 3, 7}) {
    const Model<double> md = cases::build_case("gu:" + std::to_string(n));
    const Model<Rf> m = md.cast<Rf>();
    const cases::State s = cases::random_state(md, 1);
    const VecX<Rf> q = s.q.cast<Rf>(), qd = s.qd.cast<Rf>();
    const PointContacts<Rf> cs = cases::place_contacts<Rf>(m, q, cases::chain_contacts(n));
    const VecX<Rf> v = cases::consistent_contact_velocity<Rf>(m, cs, q, qd);
    const MatX<Rf> T = cases::contact_T<Rf>(m, cs, q);
    INFO("GU(" << n << "): |v| / |qd| = " << Rf(v.norm() / qd.norm()));
    if (n <= 2) {
      CHECK(v.isZero(0));
    } else {
      CHECK(v.norm() > Rf("0.01") * qd.norm());
      CHECK((T.transpose() * v).norm() <= Rf("1e-45") * qd.norm());
    }
  }
}

}  // namespace test_contact_dynamics
