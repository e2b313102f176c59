// Gates for algorithms/representations/ (Traversaro & Saccon, seed 002_d23876e329e2c98a,
// "Multibody dynamics notation (version 2)"): every conversion round-trips exactly; the
// seed's identities hold, with time derivatives taken by forward-mode AD of poses moving on
// the frames oracle's trajectories (reference/frame_chain_oracle.hpp); a printed identity
// found wrong is shown failing beside its correction. All in the 50-digit Reference scalar.
#include <catch2/catch.hpp>

#include "cases/all_joints.hpp"
#include "cases/states.hpp"
#include "mass_matrix/crba.hpp"
#include "reference/lagrange_oracle.hpp"
#include "representations/conversions.hpp"
#include "representations/floating_base.hpp"
#include "representations/inertia.hpp"
#include "verify/support/frames_cases.hpp"
#include "verify/support/state.hpp"

namespace test_representations {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

using namespace rbd;
using namespace rbd::ts;
using rbd::oracle::D2;
using rbd::oracle::Dual;
using R = Reference;
using DR = Dual<R>;

namespace {
// O(1) random data and at most a few hundred operations per entry: round-off ~1e-48, so
// 1e-40 is ten digits of margin; a wrong identity shows at O(1) (the failing halves require
// more than 1e-3).
const R kTol = R("1e-40");
const R kWrong = R("1e-3");

template <class T> using M3 = std::array<std::array<T, 3>, 3>;
template <class T> using A3 = std::array<T, 3>;
template <class T> M3<T> mul(const M3<T>& a, const M3<T>& b) {
  M3<T> c;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) c[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
  return c;
}
template <class T> M3<T> tr(const M3<T>& a) {
  M3<T> c;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) c[i][j] = a[j][i];
  return c;
}
template <class T> A3<T> mv(const M3<T>& a, const A3<T>& x) {
  return {a[0][0] * x[0] + a[0][1] * x[1] + a[0][2] * x[2], a[1][0] * x[0] + a[1][1] * x[1] + a[1][2] * x[2],
          a[2][0] * x[0] + a[2][1] * x[1] + a[2][2] * x[2]};
}
template <class T> M3<T> hat3(const A3<T>& w) {
  const T z = T(R(0));
  return {{{z, -w[2], w[1]}, {w[2], z, -w[0]}, {-w[1], w[0], z}}};
}
template <class T> A3<T> vee3(const M3<T>& W) { return {W[2][1], W[0][2], W[1][0]}; }
template <class T> std::array<T, 6> join6(const A3<T>& a, const A3<T>& b) { return {a[0], a[1], a[2], b[0], b[1], b[2]}; }

// A pose moving in time, first order: every entry a Dual (value + e d/dt).
struct MovingPose {
  M3<DR> R_, Rd;  // R and R_dot, each with its own derivative
  A3<DR> o, od;
};
MovingPose moving(const oracle::Pose<D2<R>>& T) {
  MovingPose P;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      P.R_[i][j] = T.R[i][j].a;
      P.Rd[i][j] = T.R[i][j].b;
    }
    P.o[i] = T.p[i].a;
    P.od[i] = T.p[i].b;
  }
  return P;
}
// Eq. 21 and Eq. 26 evaluated on dual numbers: the twists as functions of time.
std::array<DR, 6> body_dual(const MovingPose& P) { return join6(mv(tr(P.R_), P.od), vee3(mul(tr(P.R_), P.Rd))); }
std::array<DR, 6> inertial_dual(const MovingPose& P) {
  const M3<DR> W = mul(P.Rd, tr(P.R_));
  const A3<DR> Wo = mv(W, P.o);
  return join6(A3<DR>{P.od[0] - Wo[0], P.od[1] - Wo[1], P.od[2] - Wo[2]}, vee3(W));
}
// C_X_A(t) A_x(t) for C moving in A (pose A_H_C), on dual numbers: Eq. 27 of C_H_A = A_H_C^-1.
std::array<DR, 6> to_C(const MovingPose& C, const std::array<DR, 6>& x) {
  const M3<DR> Rt = tr(C.R_);
  const A3<DR> mo = mv(Rt, C.o);
  const A3<DR> o = {-mo[0], -mo[1], -mo[2]};  // C_o_A = -C_R_A A_o_C
  const A3<DR> v = {x[0], x[1], x[2]}, w = {x[3], x[4], x[5]};
  const A3<DR> Rv = mv(Rt, v), Rw = mv(Rt, w), oRw = mv(hat3(o), Rw);
  return join6(A3<DR>{Rv[0] + oRw[0], Rv[1] + oRw[1], Rv[2] + oRw[2]}, Rw);
}
Vec6<R> value(const std::array<DR, 6>& x) { Vec6<R> y; for (int i = 0; i < 6; ++i) y[i] = x[i].a; return y; }
Vec6<R> deriv(const std::array<DR, 6>& x) { Vec6<R> y; for (int i = 0; i < 6; ++i) y[i] = x[i].b; return y; }
Pose<R> pose_value(const MovingPose& P) {
  Pose<R> H;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) H.R(i, j) = P.R_[i][j].a;
    H.o[i] = P.o[i].a;
  }
  return H;
}
Mat3<R> Rdot_value(const MovingPose& P) { Mat3<R> M; for (int i = 0; i < 3; ++i) for (int j = 0; j < 3; ++j) M(i, j) = P.Rd[i][j].a; return M; }
Vec3<R> odot_value(const MovingPose& P) { return Vec3<R>(P.od[0].a, P.od[1].a, P.od[2].a); }

std::vector<oracle::LinkTrajectory<R>> links(std::uint64_t seed) { return rbd::verify::frames::random_chain(3, seed); }
const R kT = R(3) / R(10);
MovingPose pose_of(const oracle::LinkTrajectory<R>& L) { return moving(oracle::link_pose(L, kT)); }
template <class D> R maxabs(const Eigen::MatrixBase<D>& m) { return m.cwiseAbs().maxCoeff(); }
}  // namespace

TEST_CASE("representations: conversions round-trip exactly", "[representations][conversions]") {
  const auto L = links(1);
  const Pose<R> H = pose_value(pose_of(L[0]));
  const Vec6<R> v = body_twist(H, Rdot_value(pose_of(L[0])), odot_value(pose_of(L[0])));
  const Mat6<R> X = velocity_transform(H);
  CHECK(from_featherstone(to_featherstone(v)) == v);
  CHECK(from_pinocchio(to_pinocchio(v)) == v);
  CHECK(from_featherstone(to_featherstone(X)) == X);
  Mat6<R> P = Mat6<R>::Zero();  // the swap as a matrix: to_featherstone(X) = P X P
  P.topRightCorner<3, 3>() = P.bottomLeftCorner<3, 3>() = Mat3<R>::Identity();
  CHECK(maxabs(to_featherstone(X) - P * X * P) == 0);
  CHECK(maxabs(to_featherstone(v) - P * v) == 0);
  const Pose<R> back = from_transform(to_transform(H));
  CHECK(back.R == H.R);
  CHECK(back.o == H.o);
  CHECK(vee<R>(hat<R>(v)) == v);
  CHECK(vee<R>(hat<R>(Vec3<R>(angular<R>(v)))) == angular<R>(v));
  // Pinocchio's ordering is the seed's: converting is the identity, spelled out.
  CHECK(to_pinocchio(v).head<3>() == linear<R>(v));
}

TEST_CASE("representations: the seed's transforms agree with rbdlab's Featherstone core", "[representations][conversions]") {
  const auto L = links(2);
  const MovingPose P = pose_of(L[0]);
  const Pose<R> H = pose_value(P);
  // A_X_B (Eq. 27) is Featherstone's ^A X_B with the halves swapped; rbdlab's Transform of
  // the same pose is ^B X_A (E = B_R_A, r = A_o_B), whose inverse is ^A X_B.
  CHECK(maxabs(to_featherstone(velocity_transform(H)) - to_transform(H).inverse().matrix()) < kTol);
  // A_X^B (Eq. 59) is Featherstone's ^A X_B^* = (^B X_A)^T.
  CHECK(maxabs(to_featherstone(wrench_transform(H)) - to_transform(H).matrix().transpose()) < kTol);
  // Cross products: Eq. 38 and 62 are crm and crf (Featherstone Eqs. 2.31-2.32) reordered.
  const Vec6<R> v = body_twist(H, Rdot_value(P), odot_value(P));
  CHECK(maxabs(to_featherstone(cross(v)) - crm_matrix<R>(to_featherstone(v))) == 0);
  CHECK(maxabs(to_featherstone(dual_cross(v)) - crf_matrix<R>(to_featherstone(v))) == 0);
  CHECK(maxabs(dual_cross(v) + cross(v).transpose()) == 0);  // Eq. 62 = -(Eq. 38)^T
}

TEST_CASE("representations: transforms of products, inverses, twists (Eqs. 17-35)", "[representations][identities]") {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const auto L = links(10 + seed);
    const MovingPose PB = pose_of(L[0]);
    const Pose<R> AB = pose_value(PB), BC = pose_value(pose_of(L[1]));
    CHECK(maxabs(velocity_transform(AB * BC) - velocity_transform(AB) * velocity_transform(BC)) < kTol);  // (33)
    CHECK(maxabs(velocity_transform(AB) * velocity_transform(AB.inverse()) - Mat6<R>::Identity()) < kTol);
    CHECK(maxabs(wrench_transform(AB) - velocity_transform(AB.inverse()).transpose()) < kTol);  // (59)
    const Mat3<R> Rd = Rdot_value(PB);
    const Vec3<R> od = odot_value(PB);
    Mat4<R> Hd = Mat4<R>::Zero();
    Hd.topLeftCorner<3, 3>() = Rd;
    Hd.topRightCorner<3, 1>() = od;
    const Vec6<R> Bv = body_twist(AB, Rd, od), Av = inertial_twist(AB, Rd, od), Mv = mixed_twist(AB, Rd, od);
    CHECK(maxabs(hat<R>(Bv) - AB.inverse().matrix() * Hd) < kTol);  // (21)
    CHECK(maxabs(hat<R>(Av) - Hd * AB.inverse().matrix()) < kTol);  // (26)
    CHECK(maxabs(Av - velocity_transform(AB) * Bv) < kTol);          // (28)
    const Pose<R> BA_H_B{AB.R, Vec3<R>::Zero()};                     // B[A]_H_B
    CHECK(maxabs(Mv - velocity_transform(BA_H_B) * Bv) < kTol);      // (35)
    CHECK(maxabs(linear<R>(Mv) - od) == 0);
    // Power is coordinate independent (60), with A_f = A_X^B B_f.
    const Vec6<R> Bf = twist<R>(Vec3<R>(R(1), R(-2), R(3)), Vec3<R>(R(1) / R(2), R(5), R(-1) / R(3)));
    CHECK(abs(power<R>(Bf, Bv) - power<R>(Vec6<R>(wrench_transform(AB) * Bf), Av)) < kTol);
    // (41) and (63): the transforms carry the cross products along.
    CHECK(maxabs(velocity_transform(AB) * cross(Bv) - cross(Av) * velocity_transform(AB)) < kTol);
    CHECK(maxabs(wrench_transform(AB) * dual_cross(Bv) - dual_cross(Av) * wrench_transform(AB)) < kTol);
    CHECK(maxabs(cross(Bv) * Bv) < kTol);  // (40)
  }
}

TEST_CASE("representations: derivatives of the transforms (Eqs. 37, 61) by AD", "[representations][identities]") {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const MovingPose P = pose_of(links(20 + seed)[0]);
    const Pose<R> H = pose_value(P);
    const Vec6<R> Bv = body_twist(H, Rdot_value(P), odot_value(P));
    // X(t) and X^B(t) entries on dual numbers: d/dt is their e part.
    const M3<DR> oR = mul(hat3(P.o), P.R_);
    Mat6<R> Xd = Mat6<R>::Zero(), Wd = Mat6<R>::Zero();
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        Xd(i, j) = Xd(i + 3, j + 3) = Wd(i, j) = Wd(i + 3, j + 3) = P.R_[i][j].b;
        Xd(i, j + 3) = Wd(i + 3, j) = oR[i][j].b;
      }
    CHECK(maxabs(Xd - velocity_transform(H) * cross(Bv)) < kTol);      // (37)
    CHECK(maxabs(Wd - wrench_transform(H) * dual_cross(Bv)) < kTol);   // (61)
  }
}

TEST_CASE("representations: intrinsic, apparent and mixed accelerations (Eqs. 44-55) by AD", "[representations][identities]") {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const auto L = links(30 + seed);
    const MovingPose PB = pose_of(L[0]), PC = pose_of(L[1]);  // B and C both move in A
    const Pose<R> AB = pose_value(PB), AC = pose_value(PC);
    const auto Bv_t = body_dual(PB), Av_t = inertial_dual(PB);
    const Vec6<R> Bv = value(Bv_t), Bvd = deriv(Bv_t), Avd = deriv(Av_t);
    const Mat6<R> AXB = velocity_transform(AB);
    CHECK(maxabs(Avd - AXB * Bvd) < kTol);  // (46): no cross product between A and B trivialised
    // C rotating and translating in A: apparent acceleration C_v_dot = d/dt (C_X_A A_v).
    const auto Cv_t = to_C(PC, Av_t);
    const Vec6<R> Cv = value(Cv_t), Cvd = deriv(Cv_t);
    const Mat6<R> CXA = velocity_transform(AC.inverse()), CXB = CXA * AXB;
    const Vec6<R> Cv_AC = CXA * value(inertial_dual(PC));        // C_v_A,C
    const Vec6<R> Bv_CB = Bv - velocity_transform(AB.inverse()) * value(inertial_dual(PC));  // v_C,B = v_C,A + v_A,B
    CHECK(maxabs(Cvd - CXB * (cross(Bv_CB) * Bv + Bvd)) < kTol);  // (45)
    const Vec6<R> Ca = CXB * Bvd;                                  // (47), intrinsic
    CHECK(maxabs(Ca - CXA * Avd) < kTol);                          // (47), both forms
    CHECK(maxabs(Ca - (Cvd + cross(Cv_AC) * Cv)) < kTol);          // (49)
    // Mixed: B[A]_v_dot = [A_o_ddot; A_omega_dot] (52), and (53)-(55).
    const auto Mv_t = join6(PB.od, vee3(mul(PB.Rd, tr(PB.R_))));
    const Vec6<R> Mv = value(Mv_t), Mvd = deriv(Mv_t);
    const Vec6<R> Ma = velocity_transform(Pose<R>{AB.R, Vec3<R>::Zero()}) * Bvd;  // B[A]_a_A,B
    Vec3<R> oddot;
    for (int i = 0; i < 3; ++i) oddot[i] = PB.od[i].b;
    CHECK(maxabs(linear<R>(Mvd) - oddot) == 0);
    CHECK(maxabs(linear<R>(Mvd) - (linear<R>(Ma) - linear<R>(Mv).cross(angular<R>(Mv)))) < kTol);  // (54)
    CHECK(maxabs(angular<R>(Mvd) - angular<R>(Ma)) < kTol);                                   // (55)
    // Apparent != intrinsic in general: (45) has a real cross term here.
    CHECK(maxabs(Cvd - CXB * Bvd) > kWrong);
  }
}

TEST_CASE("representations: inertia transport (Eqs. 67-69); the seed's o^o^ remark has the wrong signs", "[representations][identities][discrepancy]") {
  const auto L = links(41);
  const Pose<R> CB = pose_value(pose_of(L[0]));  // C_H_B, C at the centre of mass
  const R m = R(3) / R(2);
  Mat3<R> I_C;
  I_C << R(2), R(1) / R(10), R(-1) / R(5), R(1) / R(10), R(3), R(1) / R(7), R(-1) / R(5), R(1) / R(7), R(4);
  const Mat6<R> M_B = inertia_at(m, I_C, CB);
  CHECK(maxabs(M_B - wrench_transform(CB.inverse()) * inertia_at_com(m, I_C) * velocity_transform(CB)) < kTol);  // (68)
  // Kinetic energy is the same computed at B and at C.
  const Vec6<R> Bv = twist<R>(Vec3<R>(R(1), R(2), R(-1)), Vec3<R>(R(-1) / R(2), R(1), R(3)));
  const Vec6<R> Cv = velocity_transform(CB) * Bv;
  CHECK(abs(Bv.dot(M_B * Bv) - Cv.dot(inertia_at_com(m, I_C) * Cv)) < kTol);
  // After Eq. 69: o^ o^ "is sometimes written as o.o 1 + o (x) o". It is o (x) o - o.o 1.
  const Vec3<R> o = CB.inverse().o;
  const Mat3<R> printed = o.dot(o) * Mat3<R>::Identity() + o * o.transpose();
  const Mat3<R> corrected = o * o.transpose() - o.dot(o) * Mat3<R>::Identity();
  CHECK(maxabs(hat<R>(o) * hat<R>(o) - printed) > kWrong);
  CHECK(maxabs(hat<R>(o) * hat<R>(o) - corrected) < kTol);
}

TEST_CASE("representations: floating-base mass matrix in the mixed representation (section 9)", "[representations][floating_base]") {
  // all_joints: a free-floating base (rbdlab's free joint: body-frame velocities, angular
  // first) with three branches of every joint type. M_mixed = Y^T H Y with Y mapping the
  // mixed velocity nu = (B[A]_v_A,B, s_dot) to rbdlab's qd, against the Lagrangian oracle's
  // kinetic energy T(Y nu) differentiated in nu by AD (reference/lagrange_oracle.hpp).
  const Model<double> md = cases::all_joints_tree(1);
  REQUIRE(md.joint[0].type == JointType::Free);
  const Model<R> m = md.template cast<R>();
  const auto x = rbd::verify::cast_state<R>(m, cases::random_state(md, 3));
  const MatX<R> Y = mixed_to_rbdlab_velocity(m, x.q);
  MatX<R> H(m.nv, m.nv);
  Workspace<R> ws(m);
  Crba::run<R>(m, x.q, H, ws);
  const MatX<R> M = mixed_mass_matrix(m, x.q, H);
  const auto P = oracle::detail::prepare(m, x.q);
  const std::vector<DR> zero(m.nv, DR(R(0)));
  std::vector<DR> xd(m.nv);
  R worst = 0;
  for (int j = 0; j < m.nv; ++j)
    for (int k = 0; k < m.nv; ++k) {
      for (int l = 0; l < m.nv; ++l) xd[l] = DR(Y(l, j), Y(l, k));  // Y (e_j + eps e_k)
      worst = std::max(worst, R(abs(oracle::detail::energies<DR, R>(P, zero, xd).T.b - M(k, j))));
    }
  CHECK(worst < R("1e-40") * M.norm());  // O(1) entries, 50-digit round-off: as the exactness gates
  // The mixed representation decouples the base's linear velocity: its block is m_total 1.
  R m_total = 0;
  for (int i = 0; i < m.nb; ++i) m_total += m.mass[i];
  CHECK(maxabs(M.topLeftCorner<3, 3>() - m_total * Mat3<R>::Identity()) < kTol);
  // ... which the body representation has too, but its linear-angular block is in body axes:
  // the two differ by the base rotation unless it is the identity.
  CHECK(maxabs(M.topRightCorner<3, 3>() - to_featherstone(Mat6<R>(H.topLeftCorner<6, 6>())).topRightCorner<3, 3>()) > kWrong);
}

}  // namespace test_representations
