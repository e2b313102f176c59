// Self-test of the closed-loop oracle (reference/loop_oracle.hpp) against physics worked out
// by hand, with no algorithms/ code (and nothing from algorithms/closed_loop_dynamics/): models are
// filled in field by field, rotations come from Eigen's Geometry module, and the expected
// values are the tree oracle on an equivalent tree (merged rigid body; a tree joint of the
// loop joint's type) or closed forms of a 1-DoF Lagrangian.
//
// Tolerances (Reference, eps ~ 5e-51). One oracle call performs ~1e5-1e6 roundings on O(1)
// quantities with mild cancellation, so its error is below ~1e-44 relative; comparisons of
// two such computations use 1e-40 (as test_oracle_selftest.cpp): a margin of ~1e4, while a
// modelling or differentiation mistake shows up at O(1) (or 1e-16 for data rounded in
// double), 20+ orders above. Residuals that involve only a forward kinematics pass (~1e2
// roundings of O(1) numbers) are held to 1e-45.
#include <catch2/catch.hpp>

#include <Eigen/Geometry>

#include "verify/support/exact_model.hpp"
#include "reference/loop_oracle.hpp"
#include "reference/reference_scalar.hpp"

namespace test_loop_oracle {  // unity build: this file's names stay its own

namespace {

using rbd::JointType;
using rbd::LoopJointType;
using R = rbd::Reference;
using V3 = rbd::Vec3<R>;
using M3 = rbd::Mat3<R>;
using V6 = rbd::Vec6<R>;
using VX = rbd::VecX<R>;
using MX = rbd::MatX<R>;
using Q = Eigen::Quaternion<R>;
namespace oracle = rbd::oracle;

const R kTol("1e-40");
const R kTolTight("1e-45");

R fr(int a, int b) { return R(a) / R(b); }
R pi() { return R(4) * atan(R(1)); }
V3 v3(const R& x, const R& y, const R& z) { return V3(x, y, z); }
Q qrot(const R& angle, const V3& axis) { return Q(Eigen::AngleAxis<R>(angle, axis.normalized())); }
M3 rot(const R& angle, const V3& axis) { return qrot(angle, axis).toRotationMatrix(); }
R maxabs(const MX& a) { return a.size() ? R(a.cwiseAbs().maxCoeff()) : R(0); }

M3 inertia(int k) {
  M3 I;
  I << fr(3, 2) + fr(k, 10), fr(1, 10), -fr(1, 5),
       fr(1, 10), R(2) + fr(k, 7), fr(1, 7),
       -fr(1, 5), fr(1, 7), fr(5, 2);
  return I;
}

// A rigid pose: R maps child coordinates to parent coordinates, p = child origin in parent.
using Pose = rbd::verify::ExactPose<R>;  // R_ maps child coordinates to parent coordinates
using BodySpec = rbd::verify::ExactBody<R>;
Pose operator*(const Pose& a, const Pose& b) { return {a.R_ * b.R_, a.R_ * b.p + a.p}; }
Pose inv(const Pose& a) { return {a.R_.transpose(), -(a.R_.transpose() * a.p)}; }
// The Plucker transform of a frame with pose T (E = R^T, r = p): Xtree's and XP/XS's convention.
rbd::Transform<R> X_of(const Pose& T) { return rbd::verify::transform_of(T); }

rbd::Model<R> build(const std::vector<BodySpec>& bs, const V3& g) {
  return rbd::verify::exact_model<R>(bs, g, "loop_oracle_selftest");
}

rbd::LoopJoint<R> loop(LoopJointType t, int p, int s, const Pose& P, const Pose& S, const std::string& name, R pitch = R(0)) {
  rbd::LoopJoint<R> L;
  L.type = t; L.p = p; L.s = s; L.XP = X_of(P); L.XS = X_of(S); L.pitch = pitch; L.name = name;
  return L;
}

const Pose kId{M3::Identity(), V3::Zero()};

// A wrench [n; f] about the origin of frame B (B coordinates) re-expressed about the origin of
// frame A (A coordinates), where T_AB is B's pose in A: f' = R f, n' = R n + p x f'.
V6 wrench_to(const Pose& T_AB, const V6& w) {
  const V3 f = T_AB.R_ * w.tail<3>();
  V6 out;
  out << T_AB.R_ * w.head<3>() + T_AB.p.cross(f), f;
  return out;
}

// Series for the exponential map at small angle (finite differences below use |angle| ~ 1e-16,
// where 1 - cos would cancel to nothing): a = sin t / t, b = (1 - cos t) / t^2,
// c = (t - sin t) / t^3, truncated after t^4 (error ~ t^6 / 5040 ~ 1e-100).
struct SmallAngle { R a, b, c; };
SmallAngle small_angle(const R& t) {
  REQUIRE(abs(t) < R("1e-8"));
  const R t2 = t * t, t4 = t2 * t2;
  return {R(1) - t2 / 6 + t4 / 120, R(1) / 2 - t2 / 24 + t4 / 720, R(1) / 6 - t2 / 120 + t4 / 5040};
}
// Exp of the twist (w, v): rotation and translation (Rodrigues and its V matrix).
Pose exp_twist_small(const V3& w, const V3& v) {
  const SmallAngle k = small_angle(w.norm());
  const M3 W = rbd::skew<R>(w), W2 = W * W;
  return {M3(M3::Identity() + k.a * W + k.b * W2), V3((M3::Identity() + k.b * W + k.c * W2) * v)};
}
Q quat_of(const VX& q, int k) { return Q(q[k], q[k + 1], q[k + 2], q[k + 3]); }
void set_quat(VX& q, int k, const Q& u) { q[k] = u.w(); q[k + 1] = u.x(); q[k + 2] = u.y(); q[k + 3] = u.z(); }
Q quat_exp_small(const V3& w) {  // rotation by |w| about w / |w|: (cos |w|/2, sin(|w|/2)/|w| w)
  const R t = w.norm();
  const SmallAngle k = small_angle(t / 2);  // sin(t/2)/(t/2) = k.a
  using std::cos;
  const V3 u = w * (k.a / 2);
  return Q(cos(t / 2), u[0], u[1], u[2]);
}

// q moved along the model's velocity variables by h v: the joint pose T(q) becomes
// T(q) Exp(h xi) for planar, spherical and free joints (body-frame velocity variables), and
// q + h v for the others. Written with Eigen and closed forms, not with the oracle's duals.
VX advance(const rbd::Model<R>& m, const VX& q, const VX& v, const R& h) {
  VX out = q;
  for (int i = 0; i < m.nb; ++i) {
    const int k = m.q_idx[i], j = m.v_idx[i];
    switch (m.joint[i].type) {
      case JointType::Revolute: case JointType::Prismatic: case JointType::Helical: out[k] += h * v[j]; break;
      case JointType::Cylindrical: out[k] += h * v[j]; out[k + 1] += h * v[j + 1]; break;
      case JointType::Planar: {
        const Pose E = exp_twist_small(v3(0, 0, h * v[j]), v3(h * v[j + 1], h * v[j + 2], 0));
        const V3 d = rot(q[k], v3(0, 0, 1)) * E.p;  // positions are in F_p coordinates
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

// A tree with every joint type and one loop joint of every type, at a generic state that
// does not close the loops (phi and Phi are defined everywhere).
struct AllTypes {
  rbd::Model<R> m;
  rbd::LoopJoints<R> loops;
  VX q;
};
AllTypes all_types() {
  const V3 g = v3(fr(1, 3), -fr(981, 100), fr(1, 2));
  AllTypes a;
  a.m = build({{-1, JointType::Free, v3(0, 0, 1), R(0), {rot(fr(3, 10), v3(1, 1, 1)), v3(fr(1, 10), fr(1, 5), fr(3, 10))}, R(2), v3(fr(1, 10), 0, fr(1, 5)), inertia(1)},
               {0, JointType::Revolute, v3(fr(2, 7), fr(3, 7), fr(6, 7)), R(0), {rot(-fr(2, 5), v3(1, 0, 2)), v3(fr(1, 2), -fr(1, 10), fr(1, 5))}, fr(3, 2), v3(fr(3, 10), fr(1, 10), 0), inertia(2)},
               {-1, JointType::Planar, v3(0, 0, 1), R(0), {rot(fr(7, 10), v3(0, 1, 1)), v3(-fr(3, 10), fr(2, 5), fr(1, 10))}, R(1), v3(0, fr(1, 5), fr(1, 10)), inertia(3)},
               {1, JointType::Spherical, v3(0, 0, 1), R(0), {rot(fr(1, 2), v3(2, 1, 0)), v3(fr(2, 5), 0, -fr(1, 5))}, fr(6, 5), v3(fr(1, 10), fr(1, 10), fr(1, 10)), inertia(4)},
               {2, JointType::Prismatic, v3(fr(1, 3), fr(2, 3), fr(2, 3)), R(0), {rot(-fr(3, 10), v3(1, 2, 3)), v3(0, fr(3, 10), fr(1, 10))}, fr(4, 5), v3(0, 0, fr(1, 5)), inertia(5)},
               {3, JointType::Helical, v3(fr(2, 7), -fr(3, 7), fr(6, 7)), fr(3, 20), {rot(fr(9, 10), v3(0, 0, 1)), v3(fr(1, 5), fr(1, 5), 0)}, fr(7, 10), v3(fr(1, 5), 0, 0), inertia(6)},
               {-1, JointType::Cylindrical, v3(fr(6, 7), fr(2, 7), -fr(3, 7)), R(0), {rot(fr(2, 5), v3(1, -1, 1)), v3(fr(1, 2), fr(1, 2), 0)}, fr(9, 10), v3(0, fr(1, 10), 0), inertia(7)}},
              g);
  auto P = [](int k) { return Pose{rot(fr(k, 7), v3(k, 1, 2 - k)), v3(fr(k, 10), -fr(1, 5), fr(3 - k, 10))}; };
  a.loops = {loop(LoopJointType::Weld, 0, 2, P(1), P(2), "weld02"),
             loop(LoopJointType::Revolute, 1, 4, P(3), P(4), "rev14"),
             loop(LoopJointType::Prismatic, 3, -1, P(5), P(6), "pri3b"),
             loop(LoopJointType::Helical, 5, 6, P(7), P(8), "hel56", fr(1, 5)),
             loop(LoopJointType::Cylindrical, -1, 5, P(9), P(10), "cylb5"),
             loop(LoopJointType::Planar, 2, 3, P(11), P(12), "pla23"),
             loop(LoopJointType::Spherical, 4, 1, P(13), P(14), "sph41")};
  a.q.resize(a.m.nq);
  const Q u0 = qrot(fr(4, 5), v3(1, -2, 1)), u3 = qrot(-fr(6, 5), v3(2, 1, 3));
  a.q << u0.w(), u0.x(), u0.y(), u0.z(), fr(1, 5), -fr(1, 10), fr(3, 10),  // free
      fr(7, 10),                                                            // revolute
      -fr(2, 5), fr(1, 5), fr(3, 10),                                       // planar
      u3.w(), u3.x(), u3.y(), u3.z(),                                       // spherical
      fr(1, 4),                                                             // prismatic
      fr(9, 10),                                                            // helical
      -fr(1, 2), fr(1, 10);                                                 // cylindrical
  return a;
}

// Parallelogram four-bar in a tilted plane: crank (body 0) about O1, coupler (body 1) at the
// crank's tip A, rocker (body 2) at the coupler's tip B, closed at O2 by a Revolute loop joint
// (5 constraints, rank 2). Crank and rocker length a, coupler and ground length b. In the
// mechanism frame (pose Tm in the world) with crank angle th: q = (th, -th, th + pi), the
// coupler translates, qd = (thd, -thd, thd).
struct FourBar {
  rbd::Model<R> m;
  rbd::LoopJoints<R> loops;
  R a = fr(9, 10), b = fr(7, 5);
  Pose Tm{rot(fr(1, 2), v3(1, -2, 2)), v3(fr(1, 10), fr(1, 5), -fr(1, 10))};
  V3 g = v3(fr(3, 10), -fr(981, 100), fr(1, 2));
  R m0 = R(2), m1 = fr(3, 2), m2 = fr(6, 5);
  V3 c0 = v3(fr(7, 20), fr(1, 20), fr(1, 10)), c1 = v3(fr(3, 5), -fr(2, 25), -fr(1, 20)), c2 = v3(fr(2, 5), fr(7, 100), fr(1, 50));
};
FourBar four_bar() {
  FourBar f;
  const V3 z = v3(0, 0, 1);
  f.m = build({{-1, JointType::Revolute, z, R(0), f.Tm, f.m0, f.c0, inertia(1)},
               {0, JointType::Revolute, z, R(0), {M3::Identity(), v3(f.a, 0, 0)}, f.m1, f.c1, inertia(2)},
               {1, JointType::Revolute, z, R(0), {M3::Identity(), v3(f.b, 0, 0)}, f.m2, f.c2, inertia(3)}},
              f.g);
  f.loops = {loop(LoopJointType::Revolute, -1, 2, f.Tm * Pose{M3::Identity(), v3(f.b, 0, 0)}, {M3::Identity(), v3(f.a, 0, 0)}, "pivot O2")};
  return f;
}
VX vec3(const R& x, const R& y, const R& z) { VX v(3); v << x, y, z; return v; }

}  // namespace

// Body A on a revolute joint (generic axis and Xtree) -- to the base, or (chain = 2) to a
// link L0 on its own revolute joint --, body B on a free joint to the base, welded to A by a
// Weld loop joint at frame K (pose T_BK in B), with B placed at T_AB from A. The constrained
// system is the tree with A and B merged into one rigid body on A's joint. With chain = 1
// the motion x(t) = t qd is a rotation about a fixed axis that B follows (phi_ddot0 = 0);
// with chain = 2 it is not (phi_ddot0 != 0), so the bias term g is exercised.
void merged_body_case(int chain) {
  INFO("chain of " << chain << " revolute joint(s) to A");
  const V3 g = v3(fr(1, 2), -fr(981, 100), fr(6, 5));
  const V3 axis = v3(fr(1, 3), fr(2, 3), fr(2, 3)), axis0 = v3(fr(2, 7), -fr(6, 7), fr(3, 7));
  const Q u_FA = qrot(fr(3, 10), v3(1, 2, 3));
  const Pose T_FA{u_FA.toRotationMatrix(), v3(fr(1, 5), -fr(1, 10), fr(2, 5))};  // A's F_p in its parent
  const Q u_F0 = qrot(-fr(1, 2), v3(1, 0, 1));
  const Pose T_F0{u_F0.toRotationMatrix(), v3(-fr(1, 10), fr(1, 5), fr(1, 10))};  // L0's F_p in the base
  const Q u_AB = qrot(fr(2, 5), v3(2, -1, 3));
  const Pose T_AB{u_AB.toRotationMatrix(), v3(fr(3, 10), -fr(1, 5), fr(1, 2))};
  const Pose T_BK{rot(fr(1, 5), v3(1, 1, 0)), v3(fr(1, 10), fr(1, 5), -fr(3, 10))};
  const R m0 = fr(4, 5), mA = R(2), mB = fr(3, 2);
  const V3 c0 = v3(fr(1, 5), 0, fr(1, 10)), cA = v3(fr(3, 10), fr(1, 10), -fr(1, 5)), cB = v3(-fr(1, 10), fr(1, 4), fr(3, 20));
  const M3 I0 = inertia(4), IA = inertia(1), IB = inertia(2);
  const int a = chain - 1;  // A's body index; B is a + 1
  std::vector<BodySpec> tree;
  if (chain == 2) tree.push_back({-1, JointType::Revolute, axis0, R(0), T_F0, m0, c0, I0});
  tree.push_back({a - 1, JointType::Revolute, axis, R(0), T_FA, mA, cA, IA});
  tree.push_back({-1, JointType::Free, v3(0, 0, 1), R(0), kId, mB, cB, IB});
  const auto m = build(tree, g);
  const rbd::LoopJoints<R> loops = {loop(LoopJointType::Weld, a, a + 1, T_AB * T_BK, T_BK, "weld AB")};

  const R q0 = -fr(9, 10), qd0 = fr(4, 5), qA = fr(7, 10), qdA = fr(13, 10);
  // A's pose; its body twist (w_A, v_A) in A coordinates: L0 turns about axis0 through T_F0's
  // origin at rate qd0, A about its axis through its own origin at rate qdA.
  const Pose T_L0 = chain == 2 ? T_F0 * Pose{rot(q0, axis0), V3::Zero()} : kId;
  const Pose T_0A = T_L0 * T_FA * Pose{rot(qA, axis), V3::Zero()};
  const V3 w0_world = chain == 2 ? V3(T_L0.R_ * axis0 * qd0) : V3::Zero();
  const V3 wA = T_0A.R_.transpose() * w0_world + axis * qdA;
  const V3 vA = T_0A.R_.transpose() * w0_world.cross(T_0A.p - T_F0.p);
  const Q u_0B = (chain == 2 ? Q(u_F0 * qrot(q0, axis0)) : Q(R(1), R(0), R(0), R(0))) * u_FA * qrot(qA, axis) * u_AB;
  const Pose T_0B = T_0A * T_AB;
  VX q(m.nq), qd(m.nv), tau(m.nv);
  if (chain == 2) { q[0] = q0; qd[0] = qd0; tau[0] = -fr(1, 2); }
  q.tail(8) << qA, u_0B.w(), u_0B.x(), u_0B.y(), u_0B.z(), T_0B.p;
  // B's body twist: w_B = R_AB^T w_A, v_B = R_AB^T (v_A + w_A x p_AB).
  const V3 wB = T_AB.R_.transpose() * wA, vB = T_AB.R_.transpose() * (vA + wA.cross(T_AB.p));
  qd.tail(7) << qdA, wB, vB;
  V6 tauB;
  tauB << fr(3, 10), -fr(1, 5), fr(1, 10), R(1), fr(1, 2), -fr(7, 10);
  tau.tail(7) << fr(4, 5), tauB;
  V6 f0, fA, fB;
  f0 << fr(1, 5), R(0), -fr(1, 10), fr(1, 10), fr(3, 10), R(0);
  fA << fr(1, 10), fr(1, 5), fr(3, 10), -fr(2, 5), fr(1, 2), fr(3, 5);
  fB << -fr(1, 5), fr(1, 10), fr(2, 5), fr(3, 10), -fr(3, 5), fr(1, 5);
  rbd::ExternalForces<R> fext = {fA, fB};
  if (chain == 2) fext.insert(fext.begin(), f0);

  // The state is closed (a forward kinematics pass: 1e-45) and qd consistent.
  CHECK(maxabs(oracle::loop_closure_residual(m, loops, q)) < kTolTight);
  const MX Phi = oracle::loop_constraint_jacobian(m, loops, q);
  CHECK(Phi.rows() == 6);
  CHECK(maxabs(Phi * qd) < kTolTight);
  const auto red = oracle::closed_loop_reduction(m, loops, q, qd);
  CHECK(red.rank == 6);
  CHECK(red.G.cols() == chain);
  if (chain == 2) CHECK(red.phi_ddot0.cwiseAbs().maxCoeff() > R(1) / 10);  // g matters here

  const VX qdd = oracle::closed_loop_forward_dynamics(m, loops, q, qd, tau, &fext);

  // The merged body in A's frame: parallel-axis theorem about the joint com c.
  const R M = mA + mB;
  const V3 cB_A = T_AB.R_ * cB + T_AB.p;
  const V3 c = (mA * cA + mB * cB_A) / M;
  auto shift = [](const R& mass, const V3& d) { return M3(mass * (d.squaredNorm() * M3::Identity() - d * d.transpose())); };
  const M3 Ic = IA + shift(mA, cA - c) + T_AB.R_ * IB * T_AB.R_.transpose() + shift(mB, cB_A - c);
  std::vector<BodySpec> tree1(tree.begin(), tree.end() - 1);
  tree1.back().mass = M; tree1.back().com = c; tree1.back().Icom = Ic;
  const auto m1 = build(tree1, g);
  // B's joint force and external force are wrenches on B: carried to A's origin.
  rbd::ExternalForces<R> fext1(fext.begin(), fext.end() - 1);
  fext1.back() += wrench_to(T_AB, fB + tauB);
  const VX q1 = q.head(chain), qd1 = qd.head(chain), tau1 = tau.head(chain);
  const MX H1 = oracle::mass_matrix(m1, q1);
  const VX C1 = oracle::inverse_dynamics(m1, q1, qd1, VX(VX::Zero(chain)), &fext1);
  const VX expected = H1.partialPivLu().solve(VX(tau1 - C1));
  INFO("qdd of the tree joints = " << qdd.head(chain).transpose() << ", merged body: " << expected.transpose());
  CHECK((qdd.head(chain) - expected).cwiseAbs().maxCoeff() < kTol * expected.cwiseAbs().maxCoeff());
  if (chain == 1) {
    // B's acceleration is A's carried rigidly: wd_B = R_AB^T axis qdd_A,
    // vd_B = R_AB^T (wd_A x p_AB + w_A x (w_A x p_AB)) minus the body-frame term w_B x v_B
    // (qdd_B is the apparent derivative of B's body twist).
    const V3 wdA = axis * qdd[0];
    const V3 acc_pt = wdA.cross(T_AB.p) + wA.cross(wA.cross(T_AB.p));  // B origin, A coordinates
    const V3 wdB = T_AB.R_.transpose() * wdA, vdB = T_AB.R_.transpose() * acc_pt - wB.cross(vB);
    CHECK((V3(qdd.segment(1, 3)) - wdB).norm() < kTol * (1 + wdB.norm()));
    CHECK((V3(qdd.segment(4, 3)) - vdB).norm() < kTol * (1 + vdB.norm()));
  }
}

TEST_CASE("loop oracle: welded bodies move as one merged rigid body", "[loop_oracle]") {
  merged_body_case(1);
  merged_body_case(2);
}

TEST_CASE("loop oracle: parallelogram four-bar (rank 2 of 5) matches its 1-DoF Lagrangian", "[loop_oracle]") {
  const FourBar f = four_bar();
  using std::cos;
  using std::sin;
  const R th = fr(3, 5), thd = fr(11, 10);
  const VX q = vec3(th, -th, th + pi()), qd = vec3(thd, -thd, thd), tau = vec3(fr(7, 10), -fr(3, 10), fr(2, 5));
  CHECK(maxabs(oracle::loop_closure_residual(f.m, f.loops, q)) < kTolTight);
  const auto red = oracle::closed_loop_reduction(f.m, f.loops, q, qd);
  CHECK(red.Phi.rows() == 5);
  CHECK(red.rank == 2);  // p_z and the two axis rows vanish identically for planar motion
  REQUIRE(red.G.cols() == 1);
  CHECK(maxabs(red.Phi * red.G) < kTolTight);

  // By hand, in the mechanism frame: the crank rotates about O1 = its origin; the rocker
  // (origin at B, angle th + pi) rotates about its tip O2 = (a, 0, 0) in its frame, so its com
  // is O2 - Rz(th) c2o with c2o = c2 - (a, 0, 0); the coupler translates with
  // A = a (cos th, sin th). T = M thd^2 / 2 with
  // M = Izz0 + m0 (c0x^2 + c0y^2) + Izz2 + m2 (c2ox^2 + c2oy^2) + m1 a^2 (constant: no
  // velocity terms). V = -sum m_i gm . p_i with gm = Rm^T g; dp/dth is Rz'(th) c0 for the
  // crank, -Rz'(th) c2o for the rocker, a (-sin, cos, 0) for the coupler. Generalized force
  // Q = tau0 - tau1 + tau2 (dq/dth = (1, -1, 1)).
  auto Izz = [](int k, const R& mass, const V3& c) { return inertia(k)(2, 2) + mass * (c[0] * c[0] + c[1] * c[1]); };
  const V3 c2o = f.c2 - v3(f.a, 0, 0);
  const R Mth = Izz(1, f.m0, f.c0) + Izz(3, f.m2, c2o) + f.m1 * f.a * f.a;
  const V3 gm = f.Tm.R_.transpose() * f.g;
  auto dRz = [&](const V3& c) { return v3(-sin(th) * c[0] - cos(th) * c[1], cos(th) * c[0] - sin(th) * c[1], 0); };
  const R dV = -(f.m0 * gm.dot(dRz(f.c0)) - f.m2 * gm.dot(dRz(c2o)) + f.m1 * f.a * gm.dot(v3(-sin(th), cos(th), 0)));
  const R Qth = tau[0] - tau[1] + tau[2];
  const R thdd = (Qth - dV) / Mth;

  // The oracle's reduced inertia G^T H G is M (dq/dy)^2, with G = (1, -1, 1) dth/dy, dth/dy = +-1.
  const MX H = oracle::mass_matrix(f.m, q);
  const R G0 = red.G(0, 0);
  CHECK(abs(abs(G0) - 1) < kTolTight);
  CHECK(abs(R((red.G.transpose() * H * red.G)(0, 0)) - Mth) < kTol * Mth);

  const VX qdd = oracle::closed_loop_forward_dynamics(f.m, f.loops, q, qd, tau, nullptr);
  INFO("qdd = " << qdd.transpose() << ", th_dd by hand " << thdd);
  CHECK((qdd - vec3(thdd, -thdd, thdd)).cwiseAbs().maxCoeff() < kTol * abs(thdd));
}

TEST_CASE("loop oracle: each loop type closing a free body = the tree joint of that type", "[loop_oracle]") {
  // A free body B whose frame K (pose T_BK) is joined to the base's frame P (pose T_0P) by a
  // loop joint of each type is a one-joint tree: joint of the same type about z between P and
  // K, with B's inertia expressed in K. The tree oracle gives its qdd; the closed system's
  // qdd (B's body-twist rate) carried to K must be S qdd_tree (S of Table 4.1 for z; the
  // apparent derivative of a body twist transforms by the constant X_KB).
  const V3 g = v3(fr(2, 5), -fr(981, 100), fr(7, 10));
  const Pose T_0P{rot(fr(3, 5), v3(1, -1, 2)), v3(fr(1, 5), fr(3, 10), -fr(1, 10))};
  const Pose T_BK{rot(-fr(2, 5), v3(3, 1, -1)), v3(fr(1, 10), -fr(3, 10), fr(1, 5))};
  const R mass = fr(17, 10), pitch = fr(3, 20);
  const V3 cB = v3(fr(1, 5), -fr(1, 10), fr(3, 10));
  const M3 IB = inertia(3);
  V6 fB;
  fB << fr(1, 5), -fr(3, 10), fr(1, 10), fr(1, 2), fr(2, 5), -fr(1, 5);
  V6 tauB;
  tauB << -fr(1, 10), fr(1, 5), fr(3, 10), -fr(3, 5), fr(1, 10), fr(2, 5);
  const V3 ez = v3(0, 0, 1);
  const M3 RK = T_BK.R_;

  struct Case {
    LoopJointType lt;
    JointType jt;
    int dof;
  };
  for (const Case& c : {Case{LoopJointType::Weld, JointType::Free, 0}, Case{LoopJointType::Revolute, JointType::Revolute, 1},
                        Case{LoopJointType::Prismatic, JointType::Prismatic, 1}, Case{LoopJointType::Helical, JointType::Helical, 1},
                        Case{LoopJointType::Cylindrical, JointType::Cylindrical, 2}, Case{LoopJointType::Planar, JointType::Planar, 3},
                        Case{LoopJointType::Spherical, JointType::Spherical, 3}}) {
    const std::string name = std::string(rbd::loop_joint_type_name(c.lt));
    INFO("loop joint type " << name);
    // Joint pose J (K in P), tree state (qt, qdt) and S (K coordinates, 6 x dof).
    Pose J = kId;
    Q uJ(R(1), R(0), R(0), R(0));
    VX qt, qdt;
    Eigen::Matrix<R, 6, Eigen::Dynamic> S = Eigen::Matrix<R, 6, Eigen::Dynamic>::Zero(6, c.dof);
    const R th = fr(7, 10), d = fr(3, 10);
    switch (c.lt) {
      case LoopJointType::Weld: break;
      case LoopJointType::Revolute:
        uJ = qrot(th, ez); qt = VX::Constant(1, th); qdt = VX::Constant(1, fr(6, 5)); S(2, 0) = 1; break;
      case LoopJointType::Prismatic:
        J.p = d * ez; qt = VX::Constant(1, d); qdt = VX::Constant(1, fr(6, 5)); S(5, 0) = 1; break;
      case LoopJointType::Helical:
        uJ = qrot(th, ez); J.p = pitch * th * ez; qt = VX::Constant(1, th); qdt = VX::Constant(1, fr(6, 5));
        S(2, 0) = 1; S(5, 0) = pitch; break;
      case LoopJointType::Cylindrical:
        uJ = qrot(th, ez); J.p = d * ez; qt = vec3(th, d, 0).head(2); qdt = vec3(fr(6, 5), -fr(4, 5), 0).head(2);
        S(2, 0) = 1; S(5, 1) = 1; break;
      case LoopJointType::Planar:
        uJ = qrot(th, ez); J.p = v3(d, -fr(2, 5), 0); qt = vec3(th, d, -fr(2, 5)); qdt = vec3(fr(6, 5), -fr(4, 5), fr(1, 2));
        S(2, 0) = 1; S(3, 1) = 1; S(4, 2) = 1; break;
      case LoopJointType::Spherical: {
        uJ = qrot(fr(9, 10), v3(1, 2, -2));
        qt.resize(4); qt << uJ.w(), uJ.x(), uJ.y(), uJ.z();
        qdt = vec3(fr(6, 5), -fr(4, 5), fr(1, 2));
        S.topRows(3).setIdentity(); break;
      }
    }
    J.R_ = uJ.toRotationMatrix();
    // Closed system: B on a free joint (Xtree identity), loop joint base P -- B K.
    const auto m = build({{-1, JointType::Free, ez, R(0), kId, mass, cB, IB}}, g);
    const rbd::LoopJoints<R> loops = {loop(c.lt, -1, 0, T_0P, T_BK, name, pitch)};
    const Pose T_0B = T_0P * J * inv(T_BK);
    const Q u_0B = qrot(fr(3, 5), v3(1, -1, 2)) * uJ * Q(RK).conjugate();
    CHECK((u_0B.toRotationMatrix() - T_0B.R_).cwiseAbs().maxCoeff() < kTolTight);
    VX q(7), qd(6), tau(6);
    q << u_0B.w(), u_0B.x(), u_0B.y(), u_0B.z(), T_0B.p;
    // B's body twist from K's: w_B = R_BK w_K, v_B = R_BK v_K - w_B x p_BK.
    const V6 nuK = c.dof ? V6(S * qdt) : V6(V6::Zero());
    const V3 wB = RK * nuK.head<3>();
    qd << wB, RK * nuK.tail<3>() - wB.cross(T_BK.p);
    tau = tauB;
    const rbd::ExternalForces<R> fext = {fB};

    CHECK(maxabs(oracle::loop_closure_residual(m, loops, q)) < kTolTight);
    const MX Phi = oracle::loop_constraint_jacobian(m, loops, q);
    CHECK(Phi.rows() == 6 - c.dof);
    CHECK(maxabs(Phi * qd) < kTolTight);
    const auto red = oracle::closed_loop_reduction(m, loops, q, qd);
    CHECK(red.rank == 6 - c.dof);
    const VX qdd = oracle::closed_loop_forward_dynamics(m, loops, q, qd, tau, &fext);
    // Carried to K: wd_K = R_BK^T wd_B, vd_K = R_BK^T (vd_B + wd_B x p_BK).
    V6 nudK;
    nudK << RK.transpose() * V3(qdd.head<3>()), RK.transpose() * (V3(qdd.tail<3>()) + V3(qdd.head<3>()).cross(T_BK.p));
    if (c.dof == 0) {
      CHECK(nudK.cwiseAbs().maxCoeff() < kTolTight);  // welded to the base: at rest
      continue;
    }
    // The tree: F_p = P, body frame = K, B's inertia in K; B's wrenches carried to K.
    const Pose T_KB = inv(T_BK);
    const auto mt = build({{-1, c.jt, ez, pitch, T_0P, mass, V3(T_KB.R_ * cB + T_KB.p), M3(RK.transpose() * IB * RK)}}, g);
    const rbd::ExternalForces<R> fext_t = {wrench_to(T_KB, fB + tauB)};
    const VX Ct = oracle::inverse_dynamics(mt, qt, qdt, VX(VX::Zero(c.dof)), &fext_t);
    const MX Ht = oracle::mass_matrix(mt, qt);
    const VX qddt = Ht.partialPivLu().solve(VX(-Ct));  // tree tau = 0: the loop joint is passive
    const V6 expected = S * qddt;
    INFO("closed: " << nudK.transpose() << "\ntree:   " << expected.transpose());
    CHECK((nudK - expected).cwiseAbs().maxCoeff() < kTol * (1 + expected.cwiseAbs().maxCoeff()));
  }
}

TEST_CASE("loop oracle: refuses a state that does not close the loops", "[loop_oracle]") {
  const FourBar f = four_bar();
  const R th = fr(3, 5), thd = fr(11, 10);
  const VX q = vec3(th, -th, th + pi()), qd = vec3(thd, -thd, thd), tau = vec3(R(1), R(0), R(0));
  // A perturbation of 1e-20 (a state rounded far beyond double, still 20 orders above the
  // state tolerance ~6e-41 x scale) at position and at velocity level.
  VX qbad = q, qdbad = qd;
  qbad[1] += R("1e-20");
  qdbad[1] += R("1e-20");
  CHECK(maxabs(oracle::loop_closure_residual(f.m, f.loops, qbad)) > R("1e-21"));
  CHECK_THROWS_AS(oracle::closed_loop_forward_dynamics(f.m, f.loops, qbad, qd, tau, nullptr), std::invalid_argument);
  CHECK_THROWS_WITH(oracle::closed_loop_forward_dynamics(f.m, f.loops, qbad, qd, tau, nullptr),
                    Catch::Matchers::Contains("pivot O2") && Catch::Matchers::Contains("does not close"));
  CHECK_THROWS_WITH(oracle::closed_loop_forward_dynamics(f.m, f.loops, q, qdbad, tau, nullptr),
                    Catch::Matchers::Contains("pivot O2") && Catch::Matchers::Contains("qd is not consistent"));
  // The same four-bar state rounded to double: closure only to ~1e-16, refused in Reference.
  VX qround = q;
  for (int i = 0; i < 3; ++i) qround[i] = R(static_cast<double>(q[i]));
  CHECK_THROWS_WITH(oracle::closed_loop_forward_dynamics(f.m, f.loops, qround, qd, tau, nullptr),
                    Catch::Matchers::Contains("pivot O2"));
  // The unperturbed state is accepted.
  CHECK_NOTHROW(oracle::closed_loop_forward_dynamics(f.m, f.loops, q, qd, tau, nullptr));
}

TEST_CASE("loop oracle: Phi is the derivative of phi (all loop joint types, finite differences)", "[loop_oracle]") {
  // At a generic state that closes no loop: central differences of phi along a direction v,
  // q moved by T(q) Exp(h xi) for chart joints (closed-form exponential, advance() above).
  // h = 1e-16: truncation h^2 |phi'''| / 6 ~ 1e-32 |phi'''| (phi''' is O(1-10) here), rounding
  // ~1e-49 / h ~ 1e-33; so 1e-28 relative leaves 1e3-1e4 of margin, and a wrong column or row
  // (an O(1) difference) fails by 28 orders.
  const AllTypes a = all_types();
  const int n = a.m.nv;
  const MX Phi = oracle::loop_constraint_jacobian(a.m, a.loops, a.q);
  REQUIRE(Phi.rows() == rbd::loop_constraint_count(a.loops));
  REQUIRE(Phi.cols() == n);
  for (int dir = 0; dir < 2; ++dir) {
    VX v(n);
    for (int j = 0; j < n; ++j) v[j] = fr(((j * 7 + 3 * dir) % 11) - 5, 4 + dir);
    const R h("1e-16");
    const VX fd = (oracle::loop_closure_residual(a.m, a.loops, advance(a.m, a.q, v, h)) -
                   oracle::loop_closure_residual(a.m, a.loops, advance(a.m, a.q, v, -h))) / (2 * h);
    const VX an = Phi * v;
    INFO("direction " << dir << "\nPhi v = " << an.transpose() << "\nFD    = " << fd.transpose());
    CHECK(an.cwiseAbs().maxCoeff() > R(1) / 10);  // a non-trivial direction
    CHECK((fd - an).cwiseAbs().maxCoeff() < R("1e-28") * (1 + an.cwiseAbs().maxCoeff()));
  }
  // Every column is exercised: each joint's block of Phi is nonzero.
  for (int j = 0; j < n; ++j) CHECK(Phi.col(j).cwiseAbs().maxCoeff() > R(0));
}

TEST_CASE("loop oracle: usable in double", "[loop_oracle]") {
  // The four-bar cast to double (Model::cast, LoopJoint::cast): the state closes to ~1e-16,
  // inside the double state tolerance eps^0.8 ~ 3e-13, and qdd agrees with the Reference
  // result to ~1e3 roundings x cond(G^T H G) = O(10) x eps ~ 1e-13, and to the rounding of the
  // inputs (~1e-16 relative): 1e-12 relative.
  const FourBar f = four_bar();
  const R th = fr(3, 5), thd = fr(11, 10);
  const VX q = vec3(th, -th, th + pi()), qd = vec3(thd, -thd, thd), tau = vec3(fr(7, 10), -fr(3, 10), fr(2, 5));
  const VX ref = oracle::closed_loop_forward_dynamics(f.m, f.loops, q, qd, tau, nullptr);
  const rbd::Model<double> md = f.m.cast<double>();
  const rbd::LoopJoints<double> ld = rbd::cast_loops<double>(f.loops);
  const rbd::VecX<double> qdd = oracle::closed_loop_forward_dynamics<double>(md, ld, q.cast<double>(), qd.cast<double>(), tau.cast<double>(), nullptr);
  for (int i = 0; i < 3; ++i) CHECK(std::abs(qdd[i] - static_cast<double>(ref[i])) < 1e-12 * std::abs(static_cast<double>(ref[0])));
  // And a perturbation of 1e-9 is refused in double too.
  rbd::VecX<double> qbad = q.cast<double>();
  qbad[0] += 1e-9;
  CHECK_THROWS_WITH(oracle::closed_loop_forward_dynamics<double>(md, ld, qbad, qd.cast<double>(), tau.cast<double>(), nullptr),
                    Catch::Matchers::Contains("pivot O2"));
}

}  // namespace test_loop_oracle
