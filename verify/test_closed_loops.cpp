// Closed-loop dynamics (Featherstone chapter 8) beyond gate 1 (test_exactness.cpp runs every
// variant against reference/loop_oracle.hpp on every verify case with random loops):
//  a. Table 8.1 / Eqs. 8.25-8.27 for every loop joint type: T^T S = 0, and delta = T^T d to
//     first order in the error displacement d;
//  b. K (Table 8.4, Eqs. 8.19-8.20) is the time derivative of the loop closure along q(t);
//  c. each variant's qdd satisfies K qdd = k, the constraint forces do no work (Eq. 8.5 with
//     K qd = 0), and the variants and the oracle agree to 40 digits;
//  d. the four-bar linkage (cases/four_bar.hpp): section 8.10's numbers (n = 3, n^c = 5, r = 2,
//     mobility 1, Eqs. 8.52, 8.54, 8.55), qdd against the oracle, and the parallelogram against
//     its own 1-DoF Lagrangian;
//  e. redundant loop joints (section 8.5, Eq. 8.41) change n^c and not qdd;
//  f. malformed loops and non-finite states refused with a message;
//  g. Baumgarte stabilisation (Eq. 8.22) off the constraint manifold, and in a simulation;
//  h. a loop joint whose successor is the base, and one beside a tree joint on the same bodies.
// Section 8.13's sparse-matrix method is one of the family's variants, so it runs in all of these.
//
// Precision. Reference carries ~50 significant digits (eps ~ 1e-50). The dynamics here perform
// 1e3-1e5 roundings on O(1) numbers with the mild growth of pivoted eliminations, so results
// agree to ~45 digits; "40 digits" (relative 1e-40) is the exactness gate's bar and leaves a
// margin of ~1e4-1e5, while a wrong formula shows at O(1e-3 .. 1) relative, 37+ orders above.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "cases/four_bar.hpp"
#include "cases/loops.hpp"
#include "cases/registry.hpp"
#include "cases/states.hpp"
#include "closed_loop_dynamics/variants.hpp"
#include "model/configuration.hpp"
#include "reference/loop_oracle.hpp"
#include "reference/reference_scalar.hpp"
#include "verify/support/metrics.hpp"
#include "verify/support/state.hpp"
#include "verify/support/message_of.hpp"

namespace test_closed_loops {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

using namespace rbd;
using R = Reference;

namespace {

// Cases for the identity tests: chains and a branched tree of revolute joints, every joint
// type (all_joints: spherical and free joints, so q(t) leaves the joints' charts), a robot with
// DH geometry, and the 37-DoF floating humanoid. Seeds 1..3 each (a seed draws 1 or 2 loops).
const std::vector<std::string> kCases = {"gu:3", "gu:7", "tree:bf=2:nb=15", "all_joints", "dh:puma_like", "humanoid"};
const int kSeeds = 3;

const R kDigits40("1e-40");

template <class T> VecX<R> toR(const VecX<T>& x) { return cases::to<R>(x); }

double digits(const VecX<R>& a, const VecX<R>& b) { return verify::exact_digits(verify::rel_diff(a, b)); }

// One variant's qdd (and its workspace, for K, k, H, C, rank).
template <class V>
VecX<R> run(const Model<R>& m, const LoopJoints<R>& loops, const VecX<R>& q, const VecX<R>& qd, const VecX<R>& tau,
            const ExternalForces<R>* f, ClosedLoopWorkspace<R>& ws) {
  VecX<R> qdd(m.nv);
  V::template run<R>(m, loops, q, qd, tau, f, qdd, ws);
  return qdd;
}

// f.template operator()<V>() for each of the family's variants.
template <class F> void for_each_variant(F&& f) {
  [&]<class... V>(std::tuple<V...>*) { (f.template operator()<V>(), ...); }(static_cast<ClosedLoopVariants*>(nullptr));
}

// The state of a verify case closed in Reference: loops solved at q (cases/loops.hpp), qd
// projected onto null(K) (consistent) or left as drawn.
struct ClosedCase {
  std::string label;
  Model<R> m;
  LoopJoints<R> loops;
  VecX<R> q, qd_drawn, qd, tau;
  ExternalForces<R> f;
};

std::vector<ClosedCase> closed_cases() {
  std::vector<ClosedCase> out;
  for (const std::string& id : kCases) {
    const Model<double> md = cases::build_case(id);
    for (int seed = 1; seed <= kSeeds; ++seed) {
      const cases::State s = cases::random_state(md, static_cast<std::uint64_t>(seed));
      if (s.loops.empty()) continue;
      ClosedCase c;
      c.label = id + " seed " + std::to_string(seed);
      c.m = md.cast<R>();
      const verify::StateOf<R> x = verify::cast_state<R>(c.m, s);  // quaternions unit in Reference
      c.q = x.q;
      c.loops = cases::close_loops<R>(c.m, c.q, s.loops);
      c.qd_drawn = x.qd;
      c.qd = cases::consistent_velocity<R>(c.m, c.loops, c.q, c.qd_drawn);
      c.tau = x.tau;
      c.f = x.f_ext;
      out.push_back(std::move(c));
    }
  }
  return out;
}

// delta of every loop joint at q (Table 8.1 on Eq. 8.24's transform), stacked like k.
VecX<R> loop_errors(const Model<R>& m, const LoopJoints<R>& loops, const VecX<R>& q) {
  const std::vector<Transform<R>> X0 = cases::body_transforms<R>(m, q);
  VecX<R> out(loop_constraint_count(loops));
  int row = 0;
  for (const LoopJoint<R>& L : loops) {
    const Transform<R> Xs = L.s < 0 ? L.XS : L.XS * X0[L.s];
    const Transform<R> Xp = L.p < 0 ? L.XP : L.XP * X0[L.p];
    R d[6];
    loops::loop_position_error<R>(L.type, L.pitch, Xs * Xp.inverse(), d);
    for (int c = 0; c < L.nc(); ++c) out[row + c] = d[c];
    row += L.nc();
  }
  return out;
}

// exp(-w x) by Rodrigues in Reference (written here, not core/so3.hpp's): the rotation part of
// the error transform of Eq. 8.26.
Mat3<R> exp_minus(const Vec3<R>& w) {
  const R t = sqrt(R(w.squaredNorm()));
  if (t == 0) return Mat3<R>::Identity();
  Mat3<R> K;
  const Vec3<R> u = w / t;
  K << R(0), R(-u[2]), R(u[1]), R(u[2]), R(0), R(-u[0]), R(-u[1]), R(u[0]), R(0);
  return Mat3<R>::Identity() - R(sin(t)) * K + R(R(1) - cos(t)) * (K * K);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// a. Table 8.1 (section 8.3, Eqs. 8.25-8.27).
// ---------------------------------------------------------------------------------------------
TEST_CASE("closed loops: Table 8.1's T^T S = 0 and delta = T^T d to first order, every loop joint type",
          "[closed_loops]") {
  cases::Rng rng(8125);
  for (const LoopJointType t : kAllLoopJointTypes) {
    INFO("loop joint type " << loop_joint_type_name(t));
    const R pitch = t == LoopJointType::Helical ? R("0.15") : R(0);
    const Mat6N<R> T = loops::constraint_subspace<R>(t, pitch);
    const Mat6N<R> S = loops::loop_motion_subspace<R>(t, pitch);
    REQUIRE(T.cols() == loop_joint_nc(t));
    REQUIRE(S.cols() == loop_joint_dof(t));
    // T^T S = 0 exactly: every entry is a sum of products with 0, 1 and the pitch, and the
    // helical column's -h * 1 + 1 * h cancels exactly.
    if (S.cols() > 0) CHECK((T.transpose() * S).cwiseAbs().maxCoeff() == R(0));
    // [S T] spans R^6 (T is the whole complement, not part of it): its determinant is 1 or
    // 1 + h^2 up to sign, far from 0.
    MatX<R> ST(6, 6);
    ST << S, T;
    CHECK(abs(R(ST.determinant())) >= R(1));

    for (int trial = 0; trial < 6; ++trial) {
      // A joint coordinate: angles in [-2.5, 2.5] (helical: atan2 in Table 8.1's helical row
      // takes the principal angle, so |angle| < pi), displacements in [-0.3, 0.3].
      R qJ[4];
      const double ang = rng.uniform(-2.5, 2.5);
      switch (t) {
        case LoopJointType::Spherical: {
          const Eigen::Vector4d u = rng.unit_quaternion();
          for (int c = 0; c < 4; ++c) qJ[c] = R(u[c]);
          const R n = sqrt(R(qJ[0] * qJ[0] + qJ[1] * qJ[1] + qJ[2] * qJ[2] + qJ[3] * qJ[3]));
          for (R& x : qJ) x /= n;
          break;
        }
        case LoopJointType::Prismatic: qJ[0] = R(rng.uniform(-0.3, 0.3)); break;
        default:
          qJ[0] = R(ang);
          qJ[1] = R(rng.uniform(-0.3, 0.3));
          qJ[2] = R(rng.uniform(-0.3, 0.3));
      }
      const Transform<R> XJ = loops::loop_joint_transform<R>(t, pitch, qJ);
      // The error displacement d (Eq. 8.26), |d| = 1e-12, in a random direction of M^6: its
      // components along S are absorbed into the joint's own motion, the others must show.
      Vec6<R> d;
      for (int c = 0; c < 6; ++c) d[c] = R(rng.uniform(-1, 1));
      d *= R("1e-12") / R(d.norm());
      // X_err = rot(exp(-w x)) xlt(v): its Plucker matrix [E 0; -E v x, E] is 1 - d x + O(|d|^2)
      // (Eq. 2.28 and the motion cross product [w x 0; v x w x]), exactly rigid in Reference.
      Transform<R> Xerr;
      Xerr.E = exp_minus(Vec3<R>(d.head<3>()));
      Xerr.r = d.tail<3>();
      const Transform<R> Xsp = Xerr * XJ;  // Eq. 8.25: ^sX_p = X_err X_J
      R delta[6], Td[6];
      loops::loop_position_error<R>(t, pitch, Xsp, delta);
      loops::apply_T<R>(t, pitch, d, Td);
      // Tolerance 100 |d|^2 = 1e-22. X_err - (1 - d x) has entries <= |w|^2/2 + |w||v| <= 1.5 |d|^2;
      // Table 8.1's entries are linear in X's entries with coefficients <= 1, or products of two
      // of them whose first factors are O(|d|) and second O(1) (a displacement of <= 0.3 in X_J's
      // lower-left block), so each entry's remainder is at most ~10 |d|^2; atan2's (helical) is
      // O(|d|^2) with coefficient 1. Rounding is ~1e-50. A wrong sign or a wrong index (another
      // entry of X) leaves a first-order error of size |d_i| ~ 1e-13..1e-12, 9 orders above.
      R worst = R(0), first = R(0);
      for (int c = 0; c < loop_joint_nc(t); ++c) {
        worst = std::max<R>(worst, abs(R(delta[c] - Td[c])));
        first = std::max<R>(first, abs(Td[c]));
      }
      INFO("trial " << trial << ": |delta - T^T d| = " << worst << ", |T^T d| = " << first);
      CHECK(worst <= R("1e-22"));
      if (t != LoopJointType::Weld) CHECK(first >= R("1e-14"));  // the first-order term is there to be matched

      // Along the joint's own freedoms d is no error at all: delta(X_J(qJ) perturbed by
      // d = S s) = O(|s|^2).
      if (S.cols() > 0) {
        Vec6<R> ds = S * VecX<R>::Constant(S.cols(), R("1e-12"));
        Transform<R> Xs;
        Xs.E = exp_minus(Vec3<R>(ds.head<3>()));
        Xs.r = ds.tail<3>();
        loops::loop_position_error<R>(t, pitch, Xs * XJ, delta);
        R w2 = R(0);
        for (int c = 0; c < loop_joint_nc(t); ++c) w2 = std::max<R>(w2, abs(delta[c]));
        CHECK(w2 <= R("1e-22"));
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// b. K qd = d/dt delta(q(t)) at t = 0 (Eqs. 8.9, 8.19-8.20 against Eqs. 8.23-8.24).
// ---------------------------------------------------------------------------------------------
TEST_CASE("closed loops: K is the derivative of the loop closure along q(t), qd not projected (Reference)",
          "[closed_loops]") {
  int checked = 0;
  for (const ClosedCase& c : closed_cases()) {
    INFO(c.label);
    ClosedLoopWorkspace<R> ws(c.m);
    loops::tree_and_loop_terms<R>(c.m, c.loops, c.q, c.qd_drawn, c.tau, nullptr, ws);
    const VecX<R> Kqd = ws.K * c.qd_drawn;
    // The loops close at t = 0 (close_loops solved X_P there): delta(0) = 0 to rounding.
    CHECK(loop_errors(c.m, c.loops, c.q).cwiseAbs().maxCoeff() <= R("1e-45"));
    // Central difference with step h = 1e-15: truncation h^2/6 |delta'''|, with |delta'''| <=
    // ~1e4 for |qd_i| <= 1 on trees of <= 37 joints and O(1) lengths, so <= 2e-27; rounding
    // of delta (absolute ~1e-49 on O(1) transform entries) / h ~ 1e-34. Tolerance 1e-22: 5
    // orders above both, while a wrong column, sign or frame of K errs by O(|qd|) ~ 1e-2..1.
    const R h("1e-15");
    const VecX<R> dp = loop_errors(c.m, c.loops, integrate(c.m, c.q, c.qd_drawn, h));
    const VecX<R> dm = loop_errors(c.m, c.loops, integrate(c.m, c.q, c.qd_drawn, R(-h)));
    const VecX<R> deriv = (dp - dm) / R(R(2) * h);
    INFO("|K qd| = " << R(Kqd.norm()) << ", |K qd - d delta/dt| = " << R((Kqd - deriv).norm()));
    // qd as drawn violates the loop: K qd is not zero, so the comparison has content.
    CHECK(R(Kqd.norm()) >= R("1e-3"));
    CHECK(R((Kqd - deriv).cwiseAbs().maxCoeff()) <= R("1e-22"));
    ++checked;
  }
  CHECK(checked >= 12);
}

// ---------------------------------------------------------------------------------------------
// c. Identities of every variant's qdd; agreement with each other and the oracle.
// ---------------------------------------------------------------------------------------------
TEST_CASE("closed loops: K qdd = k, constraint forces do no work, variants and oracle agree (Reference)",
          "[closed_loops]") {
  int checked = 0;
  for (const ClosedCase& c : closed_cases()) {
    INFO(c.label);
    // (The oracle refuses a state whose quaternions are unit only to 1e-16: hence cast_state.)
    const VecX<R> oracle_qdd = oracle::closed_loop_forward_dynamics<R>(c.m, c.loops, c.q, c.qd, c.tau, &c.f);
    std::vector<VecX<R>> results;
    for_each_variant([&]<class V>() {
      INFO("variant " << V::name);
      ClosedLoopWorkspace<R> vs(c.m);
      const VecX<R> qdd = run<V>(c.m, c.loops, c.q, c.qd, c.tau, &c.f, vs);
      // K, k, H and C from the shared steps, not from the variant's workspace (section 8.13's
      // method computes neither K nor H).
      ClosedLoopWorkspace<R> ws(c.m);
      loops::tree_and_loop_terms<R>(c.m, c.loops, c.q, c.qd, c.tau, &c.f, ws);
      // K qdd = k (Eq. 8.4): relative to the size of the terms, |K| |qdd| + |k|, 1e-40.
      const R scale = R(ws.K.norm()) * R(qdd.norm()) + R(ws.k.norm());
      CHECK(R((ws.K * qdd - ws.k).cwiseAbs().maxCoeff()) <= kDigits40 * scale);
      // tau^c = H qdd + C - tau lies in range(K^T) (Eq. 8.5), so its power on a consistent qd
      // (K qd = 0 to ~1e-49, Eq. 8.9) is zero: qd^T tau^c relative to |qd| |tau^c terms|.
      const VecX<R> tau_c = ws.H * qdd + ws.C - c.tau;
      const R pscale = R(c.qd.norm()) * (R((ws.H * qdd).norm()) + R(ws.C.norm()) + R(c.tau.norm()));
      CHECK(abs(R(c.qd.dot(tau_c))) <= kDigits40 * pscale);
      // ... and the constraint force is not zero: the loops do act on the tree here.
      CHECK(R(tau_c.norm()) >= R("1e-6"));
      CHECK(digits(qdd, oracle_qdd) >= 40);
      results.push_back(qdd);
    });
    for (std::size_t i = 1; i < results.size(); ++i) CHECK(digits(results[i], results[0]) >= 40);
    ++checked;
  }
  CHECK(checked >= 12);
}

// ---------------------------------------------------------------------------------------------
// d. The four-bar linkage.
// ---------------------------------------------------------------------------------------------
namespace {

// The parallelogram's equation of motion in its crank angle th, derived by hand (cases/four_bar.hpp
// gives the geometry): on the parallelogram branch the coupler translates (phi_2 = 0) and the
// rocker turns about D with the crank's rate (phi_3 = th + pi), so with q = (th, -th, th + pi)
// and G = dq/dth = (1, -1, 1) constant,
//   kinetic energy  1/2 M th'^2,  M = J_A(crank) + J_D(rocker) + m_coupler a^2   (constant),
//   generalised force  Q = tau_0 - tau_1 + tau_2 - dV/dth,
//   V = g (m_1 y_1 + m_2 y_2 + m_3 y_3) with the centres of mass c_i = (x_i, y_i) in body
//     coordinates: y_1 = sin th x_1 + cos th y_1', y_2 = a sin th + y_2', y_3 = a sin th -
//     (sin th x_3 + cos th y_3'),
// and M th'' = Q: no velocity term at all, since M does not depend on th. So qdd = G th''.
VecX<R> parallelogram_qdd(const Model<R>& m, const cases::FourBarParams& p, const R& th, const VecX<R>& tau) {
  const R a = R(p.crank), c = R(p.rocker), g = R(p.gravity);
  const R m1 = m.mass[0], m2 = m.mass[1], m3 = m.mass[2];
  const Vec3<R> c1 = m.com[0], c3 = m.com[2];
  const R JA = m.Icom[0](2, 2) + m1 * (c1[0] * c1[0] + c1[1] * c1[1]);
  const R JD = m.Icom[2](2, 2) + m3 * ((c3[0] - c) * (c3[0] - c) + c3[1] * c3[1]);
  const R M = JA + JD + m2 * a * a;
  const R ct = cos(th), st = sin(th);
  const R dV = g * (m1 * (ct * c1[0] - st * c1[1]) + m2 * a * ct + m3 * (a * ct - ct * c3[0] + st * c3[1]));
  const R thdd = (tau[0] - tau[1] + tau[2] - dV) / M;
  VecX<R> qdd(3);
  qdd << thdd, R(-thdd), thdd;
  return qdd;
}

}  // namespace

TEST_CASE("closed loops: four-bar linkage: section 8.10's counts, oracle, parallelogram Lagrangian (Reference)",
          "[closed_loops]") {
  const R pi = R(4) * atan(R(1));
  struct Closing {
    LoopJointType type;
    int nc;
    int joint_dof;
  };
  const Closing closings[] = {{LoopJointType::Revolute, 5, 1}, {LoopJointType::Spherical, 3, 3},
                              {LoopJointType::Cylindrical, 4, 2}};
  cases::Rng rng(4242);
  for (const cases::FourBarParams& p : {cases::four_bar_crank_rocker(), cases::four_bar_parallelogram()}) {
    INFO(p.name);
    const bool parallelogram = p.crank == p.rocker && p.coupler == p.ground;
    // Crank angles in (0, pi) for the parallelogram (its branch +1), all round for the crank-rocker.
    const std::vector<R> angles = parallelogram ? std::vector<R>{R("0.3"), R("1.2"), R("2.5")}
                                                : std::vector<R>{R("0.3"), R("1.9"), R("-2.2"), R("4.0")};
    for (const R& th : angles) {
      INFO("crank angle " << th);
      const R rate("1.7");
      const cases::FourBarState<R> st = cases::four_bar_state<R>(p, th, rate);
      VecX<R> tau(3);
      for (int i = 0; i < 3; ++i) tau[i] = R(rng.uniform(-1, 1));
      if (parallelogram) {
        // The circle intersection lands on the parallelogram: q = (th, -th, th + pi), the last
        // as atan2's principal value th - pi for th in (0, pi).
        CHECK(abs(R(st.q[1] + th)) <= R("1e-45"));
        CHECK(abs(R(st.q[2] - th + pi)) <= R("1e-45"));
      }
      std::vector<VecX<R>> per_closing;
      for (const Closing& cl : closings) {
        INFO("closed by a " << loop_joint_type_name(cl.type) << " loop joint");
        const cases::FourBar fb = cases::four_bar(p, cl.type);
        const Model<R> m = fb.model.cast<R>();
        const LoopJoints<R> loops = cast_loops<R>(fb.loops);
        // The state closes the loop (oracle's own closure rows, 4x4 kinematics) to ~1e-49.
        CHECK(oracle::loop_closure_residual<R>(m, loops, st.q).cwiseAbs().maxCoeff() <= R("1e-45"));
        ClosedLoopWorkspace<R> ws(m);
        loops::tree_and_loop_terms<R>(m, loops, st.q, st.qd, tau, nullptr, ws);
        loops::eliminate<R>(ws);
        // Section 8.10 (the planar loop of Figure 8.2(b)): n = 3, n^c = 5 (revolute loop
        // joint), r = 2, mobility n - r = 1 (Eq. 8.52); Eq. 8.54 in the plane: n_tot - 3 N_L =
        // 4 - 3 = 1; Eq. 8.55 in space: n_tot - 6 N_L + (n^c - r) = 1 for every closing joint.
        const int n = m.nv, N_L = 1, n_tot = n + cl.joint_dof;
        CHECK(n == 3);
        CHECK(ws.nc == cl.nc);
        CHECK(ws.rank == 2);
        CHECK(n - ws.rank == 1);
        if (cl.type == LoopJointType::Revolute) CHECK(n_tot - 3 * N_L == 1);
        CHECK(n_tot - 6 * N_L + (ws.nc - ws.rank) == 1);
        // Consistent velocity from the closure's derivative: K qd = 0 to rounding.
        CHECK(R((ws.K * st.qd).cwiseAbs().maxCoeff()) <= R("1e-45"));
        const VecX<R> oracle_qdd = oracle::closed_loop_forward_dynamics<R>(m, loops, st.q, st.qd, tau, nullptr);
        for_each_variant([&]<class V>() {
          INFO("variant " << V::name);
          ClosedLoopWorkspace<R> w(m);
          const VecX<R> qdd = run<V>(m, loops, st.q, st.qd, tau, nullptr, w);
          CHECK(digits(qdd, oracle_qdd) >= 40);
          if (parallelogram) {
            // The parallelogram branch moves with q1 = -q0 and q2 = q0 + pi: qdd = (1, -1, 1) th''.
            CHECK(digits(qdd, parallelogram_qdd(m, p, th, tau)) >= 40);
          }
        });
        per_closing.push_back(oracle_qdd);
      }
      // The closing joint changes the constraint forces' basis, not the motion.
      CHECK(digits(per_closing[1], per_closing[0]) >= 40);
      CHECK(digits(per_closing[2], per_closing[0]) >= 40);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// e. Redundant constraints (section 8.5, Eq. 8.41).
// ---------------------------------------------------------------------------------------------
TEST_CASE("closed loops: a duplicated loop joint adds n^c, not rank, and leaves qdd unchanged (Reference)",
          "[closed_loops]") {
  auto check = [](const std::string& label, const Model<R>& m, const LoopJoints<R>& loops, const VecX<R>& q,
                  const VecX<R>& qd, const VecX<R>& tau, const ExternalForces<R>* f) {
    INFO(label);
    LoopJoints<R> twice = loops;
    for (const LoopJoint<R>& L : loops) twice.push_back(L);
    for_each_variant([&]<class V>() {
      INFO("variant " << V::name);
      ClosedLoopWorkspace<R> w1(m), w2(m);
      const VecX<R> a = run<V>(m, loops, q, qd, tau, f, w1);
      const VecX<R> b = run<V>(m, twice, q, qd, tau, f, w2);
      CHECK(w2.nc == 2 * w1.nc);
      CHECK(digits(b, a) >= 40);
    });
    ClosedLoopWorkspace<R> w1(m), w2(m);
    loops::tree_and_loop_terms<R>(m, loops, q, qd, tau, f, w1);
    loops::tree_and_loop_terms<R>(m, twice, q, qd, tau, f, w2);
    loops::eliminate<R>(w1);
    loops::eliminate<R>(w2);
    CHECK(w2.rank == w1.rank);
    CHECK(w2.rank < w2.nc);  // A = K H^-1 K^T is singular: Eq. 8.41's case
  };
  for (const cases::FourBarParams& p : {cases::four_bar_crank_rocker(), cases::four_bar_parallelogram()}) {
    const cases::FourBar fb = cases::four_bar(p, LoopJointType::Revolute, 1);
    const cases::FourBar fb2 = cases::four_bar(p, LoopJointType::Revolute, 2);
    REQUIRE(fb2.loops.size() == 2);
    const Model<R> m = fb.model.cast<R>();
    const cases::FourBarState<R> st = cases::four_bar_state<R>(p, R("0.8"), R("-1.3"));
    VecX<R> tau(3);
    tau << R("0.4"), R("-0.25"), R("0.1");
    check(p.name, m, cast_loops<R>(fb.loops), st.q, st.qd, tau, nullptr);
  }
  int checked = 0;
  for (const ClosedCase& c : closed_cases()) {
    if (c.label.rfind("gu:7", 0) != 0 && c.label.rfind("all_joints", 0) != 0) continue;
    check(c.label, c.m, c.loops, c.q, c.qd, c.tau, &c.f);
    ++checked;
  }
  CHECK(checked >= 4);
}

// ---------------------------------------------------------------------------------------------
// f. Refusals.
// ---------------------------------------------------------------------------------------------
using rbd::verify::message_of;  // verify/support/message_of.hpp

TEST_CASE("closed loops: malformed loop joints and non-finite states are refused with a message", "[closed_loops]") {
  using Catch::Matchers::Contains;
  const cases::FourBar fb = cases::four_bar(cases::four_bar_crank_rocker());
  const Model<double>& m = fb.model;
  const cases::FourBarState<double> st = cases::four_bar_state<double>(fb.params, 0.7, 1.0);
  const VecX<double> tau = VecX<double>::Zero(3);
  VecX<double> qdd(3);
  for_each_variant([&]<class V>() {
    INFO("variant " << V::name);
    {  // p == s
      LoopJoints<double> bad = fb.loops;
      bad[0].p = bad[0].s;
      ClosedLoopWorkspace<double> ws(m);
      CHECK_THAT(message_of<ModelError>([&] { V::template run<double>(m, bad, st.q, st.qd, tau, nullptr, qdd, ws); }), Contains("must be different bodies"));
      CHECK_THAT(message_of<ModelError>([&] { validate_loop_joints(m, bad); }), Contains("same body"));
    }
    {  // a body that does not exist
      LoopJoints<double> bad = fb.loops;
      bad[0].s = m.nb;
      ClosedLoopWorkspace<double> ws(m);
      CHECK_THAT(message_of<ModelError>([&] { V::template run<double>(m, bad, st.q, st.qd, tau, nullptr, qdd, ws); }), Contains("s = 3"));
      CHECK_THAT(message_of<ModelError>([&] { validate_loop_joints(m, bad); }), Contains("is not a body"));
      bad[0].s = 2;
      bad[0].p = -2;
      CHECK_THAT(message_of<ModelError>([&] { V::template run<double>(m, bad, st.q, st.qd, tau, nullptr, qdd, ws); }), Contains("p = -2"));
    }
    {  // NaN in q: K is not finite (section 8.13's method forms no K: its S_i are not finite)
      VecX<double> q = st.q;
      q[1] = std::nan("");
      ClosedLoopWorkspace<double> ws(m);
      const char* expected = std::is_same_v<V, LoopSparseMatrix> ? "motion subspace of variable 1 has a non-finite entry"
                                                                 : "K has a non-finite entry";
      CHECK_THAT(message_of<std::domain_error>([&] { V::template run<double>(m, fb.loops, q, st.qd, tau, nullptr, qdd, ws); }), Contains(expected));
    }
    {  // NaN in qd: K (a function of q) is finite, k is not
      VecX<double> qd = st.qd;
      qd[2] = std::nan("");
      ClosedLoopWorkspace<double> ws(m);
      CHECK_THAT(message_of<std::domain_error>([&] { V::template run<double>(m, fb.loops, st.q, qd, tau, nullptr, qdd, ws); }), Contains("k has a non-finite entry"));
    }
    {  // and a good call after the refusals works (the workspace re-prepares)
      ClosedLoopWorkspace<double> ws(m);
      V::template run<double>(m, fb.loops, st.q, st.qd, tau, nullptr, qdd, ws);
      CHECK(qdd.allFinite());
    }
  });
}

// The loop joints the random draws do not produce: one whose successor is the base, and one
// beside a tree joint on the same two bodies (which gives section 8.13's A two coupling terms in
// one block, and K zero rows: Table 8.1's T^T S = 0 on a one-joint path).
TEST_CASE("closed loops: a loop joint with the base as successor, and one beside a tree joint (Reference)",
          "[closed_loops]") {
  const cases::FourBar fb = cases::four_bar(cases::four_bar_crank_rocker());
  const Model<R> m = fb.model.cast<R>();
  const LoopJoints<R> loops = {fb.loops[0].cast<R>()};
  const cases::FourBarState<R> st = cases::four_bar_state<R>(fb.params, 0.7, 1.0);
  const VecX<R> tau = VecX<R>::Constant(3, R("0.3"));
  ClosedLoopWorkspace<R> w0(m);
  const VecX<R> plain = run<LoopKkt>(m, loops, st.q, st.qd, tau, nullptr, w0);
  // The same revolute joint with its ends swapped: p = the rocker, s = the base, frames swapped.
  // A revolute joint constrains the same relative motion read from either side.
  LoopJoints<R> swapped = loops;
  std::swap(swapped[0].p, swapped[0].s);
  std::swap(swapped[0].XP, swapped[0].XS);
  REQUIRE(swapped[0].s == -1);
  // A revolute loop joint on the coupler's own tree joint (p = crank, s = coupler, X_P its
  // tree transform, X_S the identity): it repeats that joint, so it adds 5 redundant constraints.
  LoopJoints<R> beside = loops;
  LoopJoint<R> twin;
  twin.type = LoopJointType::Revolute;
  twin.p = 0;
  twin.s = 1;
  twin.XP = m.Xtree[1];
  twin.XS = Transform<R>();
  twin.name = "twin of the coupler's joint";
  beside.push_back(twin);
  for_each_variant([&]<class V>() {
    INFO("variant " << V::name);
    ClosedLoopWorkspace<R> w1(m), w2(m);
    CHECK(digits(run<V>(m, swapped, st.q, st.qd, tau, nullptr, w1), plain) >= 40);
    CHECK(digits(run<V>(m, beside, st.q, st.qd, tau, nullptr, w2), plain) >= 40);
  });
}

// ---------------------------------------------------------------------------------------------
// g. Baumgarte stabilisation (section 8.3, Eq. 8.22).
// ---------------------------------------------------------------------------------------------
TEST_CASE("closed loops: Baumgarte's k_stab off the constraint manifold (Reference)", "[closed_loops]") {
  const R Tstab("0.05"), alpha = R(1) / Tstab, beta = alpha;
  auto check = [&](const std::string& label, const Model<R>& m, const LoopJoints<R>& loops, const VecX<R>& q,
                   const VecX<R>& qd, const VecX<R>& tau, const ExternalForces<R>* f) -> bool {
    INFO(label);
    ClosedLoopWorkspace<R> plain(m);
    loops::tree_and_loop_terms<R>(m, loops, q, qd, tau, f, plain);
    loops::eliminate<R>(plain);
    if (plain.rank < plain.nc) return false;  // off the manifold, redundant rows can be inconsistent
    // T^T v_J = K qd (Eqs. 8.9, 8.17: the Jacobian route, not Table 8.4's velocities); delta
    // from the tree's forward kinematics (Eq. 8.24).
    const VecX<R> TvJ = plain.K * qd;
    const VecX<R> delta = loop_errors(m, loops, q);
    CHECK(R(delta.norm()) >= R("1e-5"));  // the state is off the constraint: the test has content
    const VecX<R> target = plain.k - R(2) * alpha * TvJ - beta * beta * delta;
    for_each_variant([&]<class V>() {
      INFO("variant " << V::name);
      ClosedLoopWorkspace<R> ws(m);
      ws.stab.alpha = alpha;
      ws.stab.beta = beta;
      const VecX<R> qdd = run<V>(m, loops, q, qd, tau, f, ws);
      // Relative 1e-40 of the terms' size (the section's precision note).
      const R scale = R(plain.K.norm()) * R(qdd.norm()) + R(target.norm()) + R(plain.k.norm());
      CHECK(R((plain.K * qdd - target).cwiseAbs().maxCoeff()) <= kDigits40 * scale);
    });
    return true;
  };
  // The four-bar with each closing joint (its redundant rows are exactly zero at every planar
  // state, so the system stays consistent off the manifold), q perturbed by 1e-3 rad at the rocker.
  int checked = 0;
  for (const LoopJointType t : {LoopJointType::Revolute, LoopJointType::Spherical, LoopJointType::Cylindrical}) {
    const cases::FourBar fb = cases::four_bar(cases::four_bar_crank_rocker(), t);
    const Model<R> m = fb.model.cast<R>();
    cases::FourBarState<R> st = cases::four_bar_state<R>(fb.params, R("1.1"), R("0.9"));
    st.q[2] += R("1e-3");
    st.qd[1] += R("0.2");  // and qd not consistent either
    VecX<R> tau(3);
    tau << R("0.3"), R("-0.2"), R("0.5");
    // The four-bar's redundant rows are dropped by pruning: rank 2 < n^c, but consistent. Check
    // those too, with K qdd = target only on rows that are not identically zero.
    ClosedLoopWorkspace<R> plain(m);
    loops::tree_and_loop_terms<R>(m, cast_loops<R>(fb.loops), st.q, st.qd, tau, nullptr, plain);
    const VecX<R> TvJ = plain.K * st.qd;
    const VecX<R> delta = loop_errors(m, cast_loops<R>(fb.loops), st.q);
    const VecX<R> target = plain.k - R(2) * alpha * TvJ - beta * beta * delta;
    CHECK(R(delta.norm()) >= R("1e-4"));
    CHECK(R(TvJ.norm()) >= R("1e-2"));
    for_each_variant([&]<class V>() {
      INFO(loop_joint_type_name(t) << " four-bar, variant " << V::name);
      ClosedLoopWorkspace<R> ws(m);
      ws.stab.alpha = alpha;
      ws.stab.beta = beta;
      const VecX<R> qdd = run<V>(m, cast_loops<R>(fb.loops), st.q, st.qd, tau, nullptr, ws);
      const R scale = R(plain.K.norm()) * R(qdd.norm()) + R(target.norm()) + R(plain.k.norm());
      CHECK(R((plain.K * qdd - target).cwiseAbs().maxCoeff()) <= kDigits40 * scale);
    });
    ++checked;
  }
  // Random trees and loops, perturbed off the manifold, where K has full row rank.
  int full_rank = 0;
  cases::Rng rng(31);
  for (const ClosedCase& c : closed_cases()) {
    VecX<R> dq(c.m.nv);
    for (int i = 0; i < c.m.nv; ++i) dq[i] = R(rng.uniform(-1, 1));
    const VecX<R> q = integrate(c.m, c.q, dq, R("1e-3"));
    if (check(c.label, c.m, c.loops, q, c.qd_drawn, c.tau, &c.f)) ++full_rank;
  }
  CHECK(checked == 3);
  CHECK(full_rank >= 4);  // 4 of the 18 perturbed draws keep K of full row rank
}

namespace {

// |delta| of the four-bar's loop joint at q, in double.
double four_bar_error(const Model<double>& m, const LoopJoints<double>& loops, const VecX<double>& q) {
  const std::vector<Transform<double>> X0 = cases::body_transforms<double>(m, q);
  const LoopJoint<double>& L = loops[0];
  double d[6];
  loops::loop_position_error<double>(L.type, L.pitch, L.XS * X0[L.s] * L.XP.inverse(), d);
  double s = 0;
  for (int c = 0; c < L.nc(); ++c) s += d[c] * d[c];
  return std::sqrt(s);
}

// |delta| after `seconds` of classical RK4 (step dt) from (q, qd), tau = 0, with the given
// stabilisation, in double.
double simulate(const cases::FourBar& fb, VecX<double> q, VecX<double> qd, double alpha, double seconds, double dt) {
  const Model<double>& m = fb.model;
  ClosedLoopWorkspace<double> ws(m);
  ws.stab.alpha = alpha;
  ws.stab.beta = alpha;
  const VecX<double> tau = VecX<double>::Zero(m.nv);
  auto acc = [&](const VecX<double>& x, const VecX<double>& v) {
    VecX<double> a(m.nv);
    LoopNullspace::run<double>(m, fb.loops, x, v, tau, nullptr, a, ws);
    return a;
  };
  const int steps = static_cast<int>(std::lround(seconds / dt));
  for (int s = 0; s < steps; ++s) {  // revolute joints only: q' = qd
    const VecX<double> k1v = acc(q, qd), k1q = qd;
    const VecX<double> k2v = acc(q + dt / 2 * k1q, qd + dt / 2 * k1v), k2q = qd + dt / 2 * k1v;
    const VecX<double> k3v = acc(q + dt / 2 * k2q, qd + dt / 2 * k2v), k3q = qd + dt / 2 * k2v;
    const VecX<double> k4v = acc(q + dt * k3q, qd + dt * k3v), k4q = qd + dt * k3v;
    q += dt / 6 * (k1q + 2 * k2q + 2 * k3q + k4q);
    qd += dt / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
  }
  return four_bar_error(m, fb.loops, q);
}

}  // namespace

TEST_CASE("closed loops: Baumgarte stabilisation makes the four-bar's closure error decay; without it, it stays",
          "[closed_loops]") {
  // The crank-rocker released from rest under gravity at crank angle 1.1 rad, its rocker joint
  // turned 1e-3 rad off the closed configuration: the rocker's tip misses the ground pivot D by
  // c * 1e-3 = 3.75e-4 m.
  const cases::FourBar fb = cases::four_bar(cases::four_bar_crank_rocker());
  cases::FourBarState<double> st = cases::four_bar_state<double>(fb.params, 1.1, 0.0);
  st.q[2] += 1e-3;
  const double e0 = four_bar_error(fb.model, fb.loops, st.q);
  REQUIRE(e0 == Approx(3.75e-4).epsilon(1e-3));  // |delta| = the tip's miss distance (rotation rows are 0)
  const double Tstab = 0.05, t_end = 1.0, dt = 1e-3;
  const double e_free = simulate(fb, st.q, st.qd, 0.0, t_end, dt);
  const double e_stab = simulate(fb, st.q, st.qd, 1.0 / Tstab, t_end, dt);
  INFO("|delta|: start " << e0 << ", after 1 s without stabilisation " << e_free << ", with T_stab = 0.05 s " << e_stab);
  // Without stabilisation, Eq. 8.16 keeps the error's second derivative at zero: starting at rest
  // (T^T v_J = 0), T^T v_J stays 0, i.e. the rocker's tip does not move relative to D, so the
  // miss distance |delta| stays e0 up to RK4's truncation (~dt^4 per unit time, 1e-12 relative).
  // Band [0.9, 1.1]: the integrator cannot move it 10%.
  CHECK(e_free >= 0.9 * e0);
  CHECK(e_free <= 1.1 * e0);
  // With alpha = beta = 1/T_stab, the error (seen in the rocker's turning frame) obeys
  // e'' + (2 alpha - i w) e' + alpha^2 e = 0 to first order, w the rocker's rate: for |w| <= 3
  // rad/s its roots have real parts <= -15/s, so after 1 s = 20 T_stab, |delta| <= ~e^-15 e0 ~
  // 3e-7 e0 (critically damped, w = 0: 21 e^-20 ~ 4e-8). Bound 1e-4 e0: 300x that, and 1e4x
  // below the unstabilised 0.9 e0.
  CHECK(e_stab <= 1e-4 * e0);
}

}  // namespace test_closed_loops
