// Gates for algorithms/representations/jacobians.hpp and the mixed floating-base equations of
// floating_base.hpp (Traversaro & Saccon, seed 002_d23876e329e2c98a, sections 8-9, Eqs. 70-82),
// all in the 50-digit Reference scalar. The judge is the oracle of reference/: world poses by
// 4x4 homogeneous forward kinematics (reference/lagrange_oracle.hpp, which reads only Model's
// data) whose entries are dual numbers in time, so every twist and acceleration below is an
// exact time derivative of a pose, never a Jacobian or a transform formula of algorithms/.
//
// Tolerance: every quantity is a sum of a few hundred to a few thousand products of O(1)-O(100)
// numbers (masses up to ~15 kg, gravity 9.81) at eps = 1e-50; the forward dynamics add a solve
// with M (cond(M) < 1e5 here). So the round-off is below 1e-44 relative to max(1, |value|), and
// 40 digits leave four of margin; a wrong formula disagrees at O(1) (the failing forms shown
// below miss by more than kWrong). digits() is -log10 of that relative error; each test checks
// its worst case over all models, bodies, frames and seeds.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "cases/all_joints.hpp"
#include "cases/gu.hpp"
#include "cases/humanoid.hpp"
#include "forward_dynamics/aba.hpp"
#include "reference/lagrange_oracle.hpp"
#include "reference/reference_scalar.hpp"
#include "representations/floating_base.hpp"
#include "representations/jacobians.hpp"
#include "verify/support/state.hpp"

namespace test_representations_jacobians {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

using namespace rbd;
using namespace rbd::ts;
using rbd::oracle::Dual;
using R = Reference;
using DR = Dual<R>;
using D2R = Dual<DR>;
using Rep = Representation;

namespace {
const double kDigits = 40;
// kStateNote: state seeds differ from the model seed (1). all_joints_tree(1) and
// random_state(., 1) draw the same first quaternion (Rng(1)), once as the free joint's tree
// rotation E and once as its q, so at state seed 1 the base orientation A_R_B = E^T R(q) is
// exactly 1 and the body and mixed representations coincide: a degenerate test.
const R kWrong = R("1e-3");

template <class A, class B> double digits(const Eigen::MatrixBase<A>& a, const Eigen::MatrixBase<B>& b) {
  const R err = (a - b).cwiseAbs().maxCoeff();
  const R scale = std::max(R(1), R(b.cwiseAbs().maxCoeff()));
  if (err == 0) return 99;
  using std::log10;
  return -static_cast<double>(log10(err / scale));
}

Vec3<R> vee(const Mat3<R>& W) { return Vec3<R>(W(2, 1), W(0, 2), W(1, 0)); }
Vec6<R> lin_ang(const Vec3<R>& v, const Vec3<R>& w) { Vec6<R> x; x << v, w; return x; }

// The three twists of a pose moving in time (entries a + e d/dt), by their definitions:
// body [R^T o_dot; vee(R^T R_dot)] (Eqs. 18-21), inertial [o_dot - W o; vee(W)] with
// W = R_dot R^T (Eqs. 23-26), mixed [o_dot; vee(W)] (Eq. 35). Index 0, 1, 2 = Rep order.
struct Twists { Vec6<R> v[3]; };
Twists twists_of(const oracle::Pose<DR>& T) {
  Mat3<R> Rm, Rd;
  Vec3<R> o, od;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) { Rm(i, j) = T.R[i][j].a; Rd(i, j) = T.R[i][j].b; }
    o[i] = T.p[i].a;
    od[i] = T.p[i].b;
  }
  const Mat3<R> W = Rd * Rm.transpose();
  return Twists{{lin_ang(Rm.transpose() * od, vee(Mat3<R>(Rm.transpose() * Rd))), lin_ang(od - W * o, vee(W)), lin_ang(od, vee(W))}};
}
Pose<R> value_pose(const oracle::Pose<R>& T) {
  Pose<R> P;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) P.R(i, j) = T.R[i][j];
    P.o[i] = T.p[i];
  }
  return P;
}
Pose<R> value_pose(const oracle::Pose<DR>& T) {
  oracle::Pose<R> V;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) V.R[i][j] = T.R[i][j].a;
    V.p[i] = T.p[i].a;
  }
  return value_pose(V);
}
oracle::Pose<R> to_oracle(const Pose<R>& P) {
  oracle::Pose<R> T;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) T.R[i][j] = P.R(i, j);
    T.p[i] = P.o[i];
  }
  return T;
}

// World poses of every body from the oracle along x(t) = t qd (+ t^2/2 qdd) in its local
// coordinates, whose rates are the model's velocity variables (reference/README.md).
std::vector<oracle::Pose<DR>> fk1(const Model<R>& m, const VecX<R>& q, const VecX<R>& qd) {
  const auto P = oracle::detail::prepare(m, q);
  std::vector<DR> x(m.nv);
  for (int k = 0; k < m.nv; ++k) x[k] = DR(R(0), qd[k]);
  return oracle::detail::forward_kinematics<DR, R>(P, x);
}
std::vector<oracle::Pose<D2R>> fk2(const Model<R>& m, const VecX<R>& q, const VecX<R>& qd, const VecX<R>& qdd) {
  const auto P = oracle::detail::prepare(m, q);
  std::vector<D2R> x(m.nv);  // t = e1 + e2: x = qd e1 + qd e2 + qdd e1 e2
  for (int k = 0; k < m.nv; ++k) x[k] = D2R(DR(R(0), qd[k]), DR(qd[k], qdd[k]));
  return oracle::detail::forward_kinematics<D2R, R>(P, x);
}

// A frame on a body: an exact rotation in Reference (quaternion normalised in R) and an offset.
Pose<R> random_pose(cases::Rng& rng) {
  const Eigen::Vector4d u = rng.unit_quaternion();
  const R w(u[0]), x(u[1]), y(u[2]), z(u[3]);
  using std::sqrt;
  const R n = sqrt(w * w + x * x + y * y + z * z);
  const auto Q = oracle::quaternion_rotation<R>(w / n, x / n, y / n, z / n);
  Pose<R> P;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) P.R(i, j) = Q[i][j];
  P.o = Vec3<R>(R(rng.uniform(-0.3, 0.3)), R(rng.uniform(-0.3, 0.3)), R(rng.uniform(-0.3, 0.3)));
  return P;
}

// all_joints without its floating base: bodies 1..12, the base's children become roots. A
// fixed-base branched tree with every joint type but the free one, several roots.
Model<double> fixed_all_joints() {
  const Model<double> a = cases::all_joints_tree(1);
  ModelBuilder mb("all_joints_fixed");
  mb.gravity(a.gravity);
  for (int i = 1; i < a.nb; ++i)
    mb.add_body(a.body_name[i], a.parent[i] - 1, a.joint[i], a.Xtree[i], a.mass[i], a.com[i], a.Icom[i]);
  return mb.finish();
}
struct Case { const char* name; Model<double> md; };
std::vector<Case> jacobian_cases() {
  return {{"gu:7 (fixed chain)", cases::gu(7)}, {"all_joints without base (fixed tree)", fixed_all_joints()},
          {"all_joints (floating)", cases::all_joints_tree(1)}, {"humanoid (floating)", cases::humanoid(1)}};
}
// diag(B_X_C, 1) of Eq. 76 (the identity for a fixed base).
MatX<R> Ymat(const Model<R>& m, const Mat6<R>& X) {
  MatX<R> Y = MatX<R>::Identity(m.nv, m.nv);
  if (has_floating_base(m)) Y.topLeftCorner<6, 6>() = X;
  return Y;
}
}  // namespace

TEST_CASE("jacobians: J nu is frame E's twist by AD of 4x4 kinematics, every representation (Eqs. 74-76)",
          "[representations][jacobians]") {
  // For every body of every case a random frame E; for each output representation D (E, A,
  // E[A]) and base representation C (B, A, B[A]): D_J_A,E/C nu_C = D_v_A,E, with nu_C = (C
  // base twist, s_dot), both twists from the oracle's poses, and the inertial one also from
  // inertial_jacobian's separate pass.
  double worst = 99;
  for (const Case& c : jacobian_cases()) {
    const Model<R> m = c.md.cast<R>();
    for (std::uint64_t seed = 2; seed <= 3; ++seed) {  // not 1: see kStateNote
      INFO(c.name << ", seed " << seed);
      const auto x = verify::cast_state<R>(m, cases::random_state(c.md, seed));
      const auto T = fk1(m, x.q, x.qd);
      const bool floating = has_floating_base(m);
      const Twists base = floating ? twists_of(T[0]) : Twists{};
      auto nu = [&](int r) { VecX<R> n = x.qd; if (floating) n.head<6>() = base.v[r]; return n; };
      cases::Rng rng(100 + seed);
      R least_wrong = R(1e300);  // control: the body Jacobian fed the mixed base twist
      for (int b = 0; b < m.nb; ++b) {
        const Pose<R> b_H_E = random_pose(rng);
        const Twists E = twists_of(oracle::compose<DR>(T[b], to_oracle(b_H_E)));
        const FrameJacobian<R> L = left_jacobian(m, x.q, b, b_H_E);
        for (int d = 0; d < 3; ++d)
          for (int r = 0; r < 3; ++r) worst = std::min(worst, digits(jacobian(L, Rep(d), Rep(r)) * nu(r), E.v[d]));
        worst = std::min(worst, digits(inertial_jacobian(m, x.q, b) * nu(1), E.v[1]));
        worst = std::min(worst, digits(L.A_H_E.matrix(), value_pose(oracle::compose<DR>(T[b], to_oracle(b_H_E))).matrix()));
        if (floating) worst = std::min(worst, digits(L.A_H_B.matrix(), value_pose(T[0]).matrix()));
        least_wrong = std::min(least_wrong, R((L.J * nu(2) - E.v[0]).cwiseAbs().maxCoeff()));
      }
      if (floating) CHECK(least_wrong > kWrong);
    }
  }
  CHECK(worst >= kDigits);
}

TEST_CASE("jacobians: Eq. 75 links the representations; power is invariant (Eq. 82)", "[representations][jacobians]") {
  double worst75 = 99, worst82 = 99;
  for (const Case& c : jacobian_cases()) {
    const Model<R> m = c.md.cast<R>();
    INFO(c.name);
    const auto x = verify::cast_state<R>(m, cases::random_state(c.md, 3));
    const auto T = fk1(m, x.q, x.qd);
    const bool floating = has_floating_base(m);
    const Pose<R> A_H_B = floating ? value_pose(T[0]) : Pose<R>{};  // the oracle's poses, not the walk's
    cases::Rng rng(200);
    R control82 = 0;  // control: L_X_C in place of the wrench transform L_X^C breaks Eq. 82
    for (int b = 0; b < m.nb; ++b) {
      const Pose<R> b_H_E = random_pose(rng);
      const Pose<R> A_H_E = value_pose(oracle::compose<DR>(T[b], to_oracle(b_H_E)));
      const FrameJacobian<R> L = left_jacobian(m, x.q, b, b_H_E);  // leaf-to-root walk
      const Mat6X<R> AJ = inertial_jacobian(m, x.q, b);              // root-to-leaf pass, no E
      const Mat6<R> A_X_E = velocity_transform(A_H_E), E_X_A = velocity_transform(A_H_E.inverse());
      const Mat6<R> EA_X_A = velocity_transform(Pose<R>{Mat3<R>::Identity(), -A_H_E.o});  // E[A]_H_A
      // A_J_A,E/A = A_X_E E_J_A,E/B B_Y_A and back; E[A]_J_A,E/B[A] = E[A]_X_A A_J_A,E/A A_Y_B[A].
      worst75 = std::min(worst75, digits(A_X_E * L.J * Ymat(m, velocity_transform(A_H_B.inverse())), AJ));
      worst75 = std::min(worst75, digits(E_X_A * AJ * Ymat(m, velocity_transform(A_H_B)), L.J));
      worst75 = std::min(worst75, digits(EA_X_A * AJ * Ymat(m, velocity_transform(Pose<R>{Mat3<R>::Identity(), A_H_B.o})),
                                         jacobian(L, Rep::Mixed, Rep::Mixed)));
      // Eq. 82 for a contact frame C on link L = body b and a wrench C_f: <C_f, C_J nu> =
      // <L_X^C C_f, L_J nu> = <C_f, C_X_L L_J nu>, with C_J computed for C as the output frame
      // D (jacobian_in) and L_J as E = L's own frame, then moved.
      const Pose<R> L_H_C = random_pose(rng);
      const FrameJacobian<R> LL = left_jacobian(m, x.q, b, Pose<R>{});
      const Vec6<R> f(R(rng.uniform(-1, 1)), R(rng.uniform(-1, 1)), R(rng.uniform(-1, 1)), R(rng.uniform(-1, 1)),
                      R(rng.uniform(-1, 1)), R(rng.uniform(-1, 1)));
      VecX<R> nu = x.qd;
      if (floating) nu.head<6>() = twists_of(T[0]).v[2];
      const Mat6X<R> CJ = jacobian_in(LL, LL.A_H_E * L_H_C, Rep::Mixed), LJ = jacobian(LL, Rep::Body, Rep::Mixed);
      Eigen::Matrix<R, 1, 1> p1, p2, p3;
      p1 << f.dot(CJ * nu);
      p2 << (wrench_transform(L_H_C) * f).dot(LJ * nu);
      p3 << f.dot(velocity_transform(L_H_C.inverse()) * LJ * nu);
      worst82 = std::min({worst82, digits(p1, p2), digits(p3, p2)});
      control82 = std::max(control82, R(abs(f.dot(CJ * nu) - (velocity_transform(L_H_C) * f).dot(LJ * nu))));
      // The Jacobian of the link-fixed frame at C is that of a frame E = C on the link.
      worst82 = std::min(worst82, digits(CJ, jacobian(left_jacobian(m, x.q, b, L_H_C), Rep::Body, Rep::Mixed)));
    }
    CHECK(control82 > kWrong);
  }
  CHECK(worst75 >= kDigits);
  CHECK(worst82 >= kDigits);
}

namespace {
// The same physical wrench as rbdlab's external force on the link (body coordinates, angular
// first, moment about the body origin), by hand from the oracle's world pose (R_b, p_b) of the
// link: C[A]_f = [F; n] with n about C's origin and world axes gives f_b = R_b^T F,
// n_b = R_b^T n + L_o_C x f_b.
Vec6<R> body_force(const Pose<R>& A_H_L, const Contact<R>& c) {
  const Vec3<R> fb = A_H_L.R.transpose() * c.f.head<3>();
  Vec6<R> out;
  out << A_H_L.R.transpose() * c.f.tail<3>() + c.L_H_C.o.cross(fb), fb;
  return out;
}
}  // namespace

TEST_CASE("floating base: Eq. 80 in the mixed representation vs ABA with external forces; nu_dot by AD",
          "[representations][jacobians][floating_base]") {
  double worst_Y = 99, worst_aba = 99, worst_ad = 99;
  for (const Case& c : {Case{"all_joints", cases::all_joints_tree(1)}, Case{"humanoid", cases::humanoid(1)}}) {
    const Model<R> m = c.md.cast<R>();
    for (std::uint64_t seed = 2; seed <= 3; ++seed) {  // not 1: see kStateNote
      INFO(c.name << ", seed " << seed);
      const auto x = verify::cast_state<R>(m, cases::random_state(c.md, seed));
      const auto T = fk1(m, x.q, x.qd);
      // nu from the oracle: the base's mixed twist (A_o_dot_B, A_omega) by AD, and the joint rates.
      VecX<R> nu = x.qd;
      nu.head<6>() = twists_of(T[0]).v[2];
      const MatX<R> Y = mixed_to_rbdlab_velocity(m, x.q);
      worst_Y = std::min(worst_Y, digits(Y * nu, x.qd));  // F1 against AD
      // Three contacts (on the base, a middle link and the last one), random frames and wrenches.
      cases::Rng rng(300 + seed);
      std::vector<Contact<R>> contacts;
      ExternalForces<R> f_ext(m.nb, Vec6<R>::Zero());
      for (int b : {0, m.nb / 2, m.nb - 1}) {
        Contact<R> k{b, random_pose(rng), Vec6<R>::Zero()};
        for (int i = 0; i < 6; ++i) k.f[i] = R(rng.uniform(-5, 5));
        contacts.push_back(k);
        f_ext[b] += body_force(value_pose(T[b]), k);
      }
      VecX<R> tau = x.tau;
      tau.head<6>().setZero();  // the base is unactuated: S tau
      ForwardDynamicsWorkspace<R> ws(m);
      VecX<R> qdd(m.nv);
      Aba::run<R>(m, x.q, x.qd, tau, &f_ext, qdd, ws);
      Workspace<R> ws2(m);
      const VecX<R> nu_dot = mixed_forward_dynamics(m, x.q, nu, VecX<R>(x.tau.tail(m.nv - 6)), contacts, ws2);
      // qdd = Y nu_dot + Y_dot nu (F2).
      const VecX<R> Yd_nu = mixed_to_rbdlab_velocity_dot(m, x.q, nu) * nu;
      worst_aba = std::min(worst_aba, digits(Y * nu_dot + Yd_nu, qdd));
      // Controls: without Y_dot nu (F2), or without the contacts, the comparison fails at O(1).
      CHECK((Y * nu_dot - qdd).cwiseAbs().maxCoeff() > kWrong);
      const VecX<R> no_contact = mixed_forward_dynamics(m, x.q, nu, VecX<R>(x.tau.tail(m.nv - 6)), {}, ws2);
      CHECK((Y * no_contact + Yd_nu - qdd).cwiseAbs().maxCoeff() > kWrong);
      // Along x(t) = t qd + t^2/2 qdd the base's mixed velocity changes at (A_o_ddot_B,
      // A_omega_dot) (Eq. 52), the joints' at qdd: that is nu_dot.
      const auto T2 = fk2(m, x.q, x.qd, qdd);
      const auto& Q = T2[0];  // entries a + e1 (...) + e2 (...) + e1 e2 (...)
      auto W = [&](int i, int j) {  // (R_dot R^T)_ij as a function of time (.a value, .b derivative)
        return Q.R[i][0].b * Q.R[j][0].a + Q.R[i][1].b * Q.R[j][1].a + Q.R[i][2].b * Q.R[j][2].a;
      };
      const Vec3<R> oddot(Q.p[0].b.b, Q.p[1].b.b, Q.p[2].b.b), wdot(W(2, 1).b, W(0, 2).b, W(1, 0).b);
      VecX<R> expect = qdd;
      expect.head<6>() = lin_ang(oddot, wdot);
      worst_ad = std::min(worst_ad, digits(nu_dot, expect));
      // The free joint's tree transform is not the identity in all_joints: a Y that took A as the
      // joint's parent frame (R = R(quaternion) alone) is not the map from the world-mixed velocity.
      if (c.md.Xtree[0].E != Mat3<double>::Identity()) {
        const Mat3<R> Rq = quat_to_matrix<R>(x.q[0], x.q[1], x.q[2], x.q[3]);
        MatX<R> Yq = Y;
        Yq.block<3, 3>(0, 3) = Yq.block<3, 3>(3, 0) = Rq.transpose();
        CHECK((Yq * nu - x.qd).cwiseAbs().maxCoeff() > kWrong);
      }
    }
  }
  CHECK(worst_Y >= kDigits);
  CHECK(worst_aba >= kDigits);
  CHECK(worst_ad >= kDigits);
}

TEST_CASE("floating base: G of Eq. 80 in the mixed representation", "[representations][jacobians][floating_base]") {
  // h(q, nu = 0) = G. Its base part is the gradient of V = -sum m_i g . p_com,i over a mixed
  // displacement (d o_B, d theta in world axes): [-M g; -(c - o_B) x M g], M the total mass and
  // c the centre of mass (from the oracle's poses); its joint part is the oracle's gravity torque.
  double worst = 99;
  for (const Case& c : {Case{"all_joints", cases::all_joints_tree(1)}, Case{"humanoid", cases::humanoid(1)}}) {
    const Model<R> m = c.md.cast<R>();
    const auto x = verify::cast_state<R>(m, cases::random_state(c.md, 4));
    Workspace<R> ws(m);
    const VecX<R> G = mixed_bias(m, x.q, VecX<R>(VecX<R>::Zero(m.nv)), ws);
    const auto P = oracle::detail::prepare(m, x.q);
    const auto T = oracle::detail::forward_kinematics<R, R>(P, std::vector<R>(m.nv, R(0)));
    R M = 0;
    Vec3<R> mc = Vec3<R>::Zero();
    for (int i = 0; i < m.nb; ++i) {
      const Pose<R> H = value_pose(T[i]);
      M += m.mass[i];
      mc += m.mass[i] * (H.o + H.R * m.com[i]);
    }
    const VecX<R> zero = VecX<R>::Zero(m.nv);
    VecX<R> expect = oracle::inverse_dynamics<R>(m, x.q, zero, zero, nullptr);
    const Vec3<R> Mg = M * m.gravity;
    expect.head<6>() = lin_ang(-Mg, -(mc / M - value_pose(T[0]).o).cross(Mg));
    INFO(c.name);
    worst = std::min(worst, digits(G, expect));
  }
  CHECK(worst >= kDigits);
}

TEST_CASE("jacobians and Eq. 80 run in double too, within round-off of Reference", "[representations][jacobians]") {
  // The same templates in double on the humanoid (37 DoF): the Jacobians are O(1) sums of
  // ~100 products (error ~1e-15), nu_dot adds a solve with M (cond(M) < 1e5): 1e-9 relative
  // is a loose bound that still catches any double-only mistake (a literal, a narrowing).
  const Model<double> md = cases::humanoid(1);
  const Model<R> m = md.cast<R>();
  const cases::State s = cases::random_state(md, 2);
  const auto x = verify::cast_state<R>(m, s);
  VecX<double> q = s.q;
  normalize_quaternions(md, q);
  const Pose<R> E{Mat3<R>::Identity(), Vec3<R>(R(1) / R(10), R(0), R(-1) / R(20))};
  const Pose<double> Ed{Mat3<double>::Identity(), Vec3<double>(0.1, 0, -0.05)};
  const Mat6X<double> Jd = jacobian(left_jacobian(md, q, md.nb - 1, Ed), Rep::Mixed, Rep::Mixed);
  const Mat6X<R> Jr = jacobian(left_jacobian(m, x.q, m.nb - 1, E), Rep::Mixed, Rep::Mixed);
  CHECK(digits(Jd.cast<R>(), Jr) >= 9);
  std::vector<Contact<double>> cd{{md.nb - 1, Ed, Vec6<double>(1, -2, 3, 0.5, 0.25, -1)}};
  std::vector<Contact<R>> cr{{m.nb - 1, E, Vec6<R>(R(1), R(-2), R(3), R(1) / R(2), R(1) / R(4), R(-1))}};
  Workspace<double> wd(md);
  Workspace<R> wr(m);
  const VecX<double> nd = mixed_forward_dynamics(md, q, s.qd, VecX<double>(s.tau.tail(md.nv - 6)), cd, wd);
  const VecX<R> nr = mixed_forward_dynamics(m, x.q, x.qd, VecX<R>(x.tau.tail(m.nv - 6)), cr, wr);
  CHECK(digits(nd.cast<R>(), nr) >= 9);
}

}  // namespace test_representations_jacobians
