// Floating-base algorithms (Featherstone ch. 9.3-9.5, algorithms/floating_base/) against the
// same model as a tree with a free joint at the root, and the physics of a free-floating
// system, in the 50-digit Reference scalar.
//
// Tolerances. Results that are equal in exact arithmetic are held to 1e-40 relative: both
// sides carry ~50 digits, and the recursions lose at most a few digits to cancellation on
// these models (n <= 37, cond(H) < 1e6; verify/support/exactness.hpp), while a wrong formula
// differs at O(1). The momentum test differentiates along a trajectory with a five-point
// stencil: truncation h^4 |f^(5)| / 30, round-off ~ 1e-50 |f| / h. With unit joint torques on
// the humanoid's 0.2 kg wrist links qdd reaches ~8e3 and |f^(5)| is large: measured, dh/dt
// scales exactly as h^4 from h = 1e-7 to 1e-11 and is 1.2e-35 at h = 1e-11 on the humanoid
// (|h| = 59), 1.5e-37 on solo12, 2e-38 on all_joints, where round-off is ~1e-38. So h = 1e-11
// and 1e-30 relative (test_identities.cpp's bound) leave a margin of 1e5 or more, while a
// failure of conservation would show at O(1).
//
// The cases: every verify case whose body 0 is on a free joint and nothing else is on the
// base (all_joints: every joint type below the floating base; joint:free; urdf:solo12; the
// humanoid), found through the registry's "floating_base" tag, not listed by hand.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "cases/gu.hpp"
#include "cases/registry.hpp"
#include "core/counting_scalar.hpp"
#include "floating_base/id_floating.hpp"
#include "floating_base/schur_complement.hpp"
#include "forward_dynamics/variants.hpp"
#include "inverse_dynamics/variants.hpp"
#include "mass_matrix/variants.hpp"
#include "model/configuration.hpp"
#include "verify/support/body_kinematics.hpp"
#include "verify/support/family_table.hpp"
#include "verify/support/metrics.hpp"
#include "verify/support/state.hpp"

namespace test_floating_base {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

using namespace rbd;
using namespace rbd::verify;
using R = Reference;

namespace {

const R kExactTol("1e-40");
const R kFdTol("1e-30");

std::vector<cases::CaseSpec> floating_cases() {
  std::vector<cases::CaseSpec> out;
  for (const auto& spec : cases::verify_cases())
    if (std::find(spec.tags.begin(), spec.tags.end(), "floating_base") != spec.tags.end()) out.push_back(spec);
  return out;
}

// ||a - b|| <= tol * scale, with the numbers in the message.
template <class A, class B> void check_close(const A& a, const B& b, const R& scale, const R& tol = kExactTol) {
  const R d = (a - b).norm();
  INFO("difference " << static_cast<double>(d) << ", scale " << static_cast<double>(scale) << ", digits "
                     << exact_digits(scale == 0 ? d : R(d / scale)));
  CHECK(d <= tol * scale);
}

// Five-point central difference f'(0) of a 6-vector function, as in test_identities.cpp but
// returning a Vec6 (an `auto` return would be an Eigen expression referring to the four
// temporaries f(.), which die when the function returns).
template <class F> Vec6<R> derivative_at_zero(F&& f) {
  const R h("1e-11");
  const Vec6<R> f2 = f(R(2) * h), f1 = f(h), fm1 = f(-h), fm2 = f(R(-2) * h);
  return (-f2 + R(8) * f1 - R(8) * fm1 + fm2) / (R(12) * h);
}

// ^0X_ref of the floating base from the model's own kinematics (body_kinematics: jcalc and the
// tree transform, written independently of the floating-base code).
Transform<R> base_pose(const Model<R>& m, const VecX<R>& q) {
  return body_kinematics(m, q, VecX<R>(VecX<R>::Zero(m.nv))).X0[0];
}

// Total spatial momentum sum ^0X_i^* I_i v_i in FLOATING-BASE coordinates (Example 9.3).
Vec6<R> momentum_in_floating_base(const Model<R>& m, const VecX<R>& q, const VecX<R>& qd) {
  const auto k = body_kinematics(m, q, qd);
  Vec6<R> h = Vec6<R>::Zero();
  for (int i = 0; i < m.nb; ++i) {
    const Transform<R> Xi0 = k.X0[i] * k.X0[0].inverse();  // ^iX_0 = ^iX_ref ^refX_0
    h += Xi0.apply_transpose(m.I[i] * k.v[i]);
  }
  return h;
}

}  // namespace

TEST_CASE("floating base: the verify set has floating-base cases of every kind", "[floating_base]") {
  std::vector<std::string> ids;
  for (const auto& spec : floating_cases()) ids.push_back(spec.id);
  INFO("floating cases found: " << ids.size());
  for (const char* id : {"all_joints", "joint:free", "urdf:solo12", "humanoid"})
    CHECK(std::find(ids.begin(), ids.end(), id) != ids.end());
  for (const auto& spec : floating_cases()) CHECK(is_floating_base(spec.build()));
}

// Table 9.4 vs Table 7.1 on the free-joint tree: the same qdd in exact arithmetic, with the
// free joint's force tau[0..6), external forces on every body and gravity all present.
TEST_CASE("floating base: aba_floating (Table 9.4) = aba on the free-joint tree, 40 digits", "[floating_base]") {
  for (const auto& spec : floating_cases()) {
    const Model<double> md = spec.build();
    const Model<R> m = md.cast<R>();
    ForwardDynamicsWorkspace<R> ws(m);
    for (int seed = 1; seed <= 2; ++seed) {
      const auto x = cast_state<R>(m, cases::random_state(md, seed));
      VecX<R> tree(m.nv), floating(m.nv);
      Aba::run<R>(m, x.q, x.qd, x.tau, &x.f_ext, tree, ws);
      AbaFloating::run<R>(m, x.q, x.qd, x.tau, &x.f_ext, floating, ws);
      INFO(spec.id << " seed " << seed);
      check_close(floating, tree, tree.norm());
      // Without external forces too (the null pointer path).
      Aba::run<R>(m, x.q, x.qd, x.tau, nullptr, tree, ws);
      AbaFloating::run<R>(m, x.q, x.qd, x.tau, nullptr, floating, ws);
      check_close(floating, tree, tree.norm());
    }
  }
}

// Table 9.5: the CRBA's [I_0^c F; F^T H] and the RNEA's [p_0^c; C] are the tree's H and C, and
// their blocks mean what Eq. 9.13 and Example 9.3 say, checked against body-by-body sums.
TEST_CASE("floating base: crba_floating and rnea_floating (Table 9.5) = crba and rnea on the tree, 40 digits",
          "[floating_base]") {
  for (const auto& spec : floating_cases()) {
    const Model<double> md = spec.build();
    const Model<R> m = md.cast<R>();
    Workspace<R> ws(m);
    const auto x = cast_state<R>(m, cases::random_state(md, 4));
    INFO(spec.id);
    MatX<R> H_tree = MatX<R>::Zero(m.nv, m.nv), H_fl = MatX<R>::Zero(m.nv, m.nv);
    Crba::run<R>(m, x.q, H_tree, ws);
    CrbaFloating::run<R>(m, x.q, H_fl, ws);
    check_close(H_fl, H_tree, H_tree.norm());
    // I_0^c = sum_i ^iX_0^T I_i ^iX_0: the whole system as one rigid body, in base coordinates.
    const auto k = body_kinematics(m, x.q, x.qd);
    Mat6<R> Ic0 = Mat6<R>::Zero();
    for (int i = 0; i < m.nb; ++i) {
      const Transform<R> Xi0 = k.X0[i] * k.X0[0].inverse();
      Mat6<R> X = Mat6<R>::Zero();  // ^iX_0 as a 6x6 motion transform: rot(E) xlt(r)
      X.topLeftCorner<3, 3>() = Xi0.E;
      X.bottomRightCorner<3, 3>() = Xi0.E;
      X.bottomLeftCorner<3, 3>() = -Xi0.E * skew<R>(Xi0.r);
      Ic0 += X.transpose() * m.I[i].matrix() * X;
    }
    check_close(Mat6<R>(H_fl.topLeftCorner<6, 6>()), Ic0, Ic0.norm());
    // Example 9.3: the momentum in base coordinates is I_0^c v_0 + F qd.
    const Vec6<R> h = momentum_in_floating_base(m, x.q, x.qd);
    check_close(Vec6<R>(H_fl.topRows<6>() * x.qd), h, h.norm());
    // The RNEA: tau of the tree for a full qdd, and [p_0^c; C] with qdd = 0.
    VecX<R> tau_tree(m.nv), tau_fl(m.nv);
    RneaSpatial::run<R>(m, x.q, x.qd, x.qdd, &x.f_ext, tau_tree, ws);
    RneaFloating::run<R>(m, x.q, x.qd, x.qdd, &x.f_ext, tau_fl, ws);
    check_close(tau_fl, tau_tree, tau_tree.norm());
    VecX<R> C_tree(m.nv), C_fl(m.nv);
    BiasFrom<RneaSpatial>::run<R>(m, x.q, x.qd, &x.f_ext, C_tree, ws);
    BiasFrom<RneaFloating>::run<R>(m, x.q, x.qd, &x.f_ext, C_fl, ws);
    check_close(C_fl, C_tree, C_tree.norm());
    // Eq. 9.13 assembled: H qdd + C = tau, every block from the floating-base algorithms.
    check_close(VecX<R>(H_fl * x.qdd + C_fl), tau_fl, tau_fl.norm() + C_fl.norm());
  }
}

// Table 9.6, both ways round against Table 9.4 and the tree's RNEA:
//  FD then ID: qdd = aba_floating(tau with tau_0 = 0); id_floating(qdd_*) returns a_0 = qdd_0
//    and the joint forces tau_*;
//  ID then FD: id_floating(qdd_*) gives a_0, tau_*; the tree's ABA with [0; tau_*] returns
//    [a_0; qdd_*], and the tree's RNEA with [a_0; qdd_*] needs no force at the free joint.
TEST_CASE("floating base: id_floating (Table 9.6) consistent with Table 9.4 and the tree, 40 digits",
          "[floating_base]") {
  for (const auto& spec : floating_cases()) {
    const Model<double> md = spec.build();
    const Model<R> m = md.cast<R>();
    Workspace<R> ws(m);
    ForwardDynamicsWorkspace<R> fws(m);
    for (int seed = 5; seed <= 6; ++seed) {
      const auto x = cast_state<R>(m, cases::random_state(md, seed));
      INFO(spec.id << " seed " << seed);
      VecX<R> tau = x.tau;
      tau.head<6>().setZero();  // an unactuated base
      VecX<R> qdd(m.nv);
      AbaFloating::run<R>(m, x.q, x.qd, tau, &x.f_ext, qdd, fws);
      Vec6<R> a0;
      VecX<R> tau_id(m.nv);
      IdFloating::run<R>(m, x.q, x.qd, qdd, &x.f_ext, a0, tau_id, ws);
      check_close(a0, Vec6<R>(qdd.head<6>()), qdd.norm());
      check_close(tau_id, tau, tau.norm());

      VecX<R> qdd_in = x.qdd;
      qdd_in.head<6>().setConstant(R(1000));  // ignored by id_floating: an output there
      IdFloating::run<R>(m, x.q, x.qd, qdd_in, &x.f_ext, a0, tau_id, ws);
      VecX<R> qdd_tree(m.nv);
      Aba::run<R>(m, x.q, x.qd, tau_id, &x.f_ext, qdd_tree, fws);
      VecX<R> expect = x.qdd;
      expect.head<6>() = a0;
      check_close(qdd_tree, expect, expect.norm());
      VecX<R> tau_tree(m.nv), C(m.nv);
      RneaSpatial::run<R>(m, x.q, x.qd, expect, &x.f_ext, tau_tree, ws);
      BiasFrom<RneaSpatial>::run<R>(m, x.q, x.qd, &x.f_ext, C, ws);
      check_close(tau_tree, tau_id, tau_id.norm() + C.norm());
      CHECK(tau_id.head<6>().norm() == 0);
    }
  }
}

// Momentum conservation: with no gravity, no external force and no force at the free joint,
// the total momentum (world coordinates) of the motion that aba_floating predicts has zero
// time derivative, whatever the joint forces. The motion through (q0, qd0) with the computed
// qdd0 is q(t) = q0 (+) (qd0 t + qdd0 t^2 / 2), qd(t) = qd0 + qdd0 t: its first derivative at
// t = 0 is (qd0, qdd0) for every joint (for the Lie-group joints the body velocity of that
// path is qd0 + qdd0 t + O(t^2), the O(t^2) being dexp's commutator term), which is all
// dh/dt(0) depends on. Also: the momentum is I_0^c v_0 + F qd from crba_floating (Example 9.3).
TEST_CASE("floating base: momentum is conserved without gravity (aba_floating, Reference)", "[floating_base]") {
  for (const auto& spec : floating_cases()) {
    Model<double> md = spec.build();
    md.gravity.setZero();
    const Model<R> m = md.cast<R>();
    ForwardDynamicsWorkspace<R> fws(m);
    const auto x = cast_state<R>(m, cases::random_state(md, 8));
    VecX<R> tau = x.tau;
    tau.head<6>().setZero();
    VecX<R> qdd(m.nv);
    AbaFloating::run<R>(m, x.q, x.qd, tau, nullptr, qdd, fws);
    auto h_world = [&](const R& t) {
      const VecX<R> q = integrate(m, x.q, VecX<R>(x.qd * t + qdd * (t * t / R(2))), R(1));
      return momentum_in_base(m, q, VecX<R>(x.qd + qdd * t));
    };
    const Vec6<R> h0 = h_world(R(0));
    const Vec6<R> hdot = derivative_at_zero(h_world);
    INFO(spec.id << ": |h| = " << static_cast<double>(R(h0.norm())) << ", |dh/dt| = " << static_cast<double>(R(hdot.norm())));
    CHECK(hdot.norm() <= kFdTol * (h0.norm() + R(1)));
    // The same check must fail when the base is pushed: a force at the free joint changes h.
    VecX<R> pushed = tau;
    pushed[3] = R(1);  // 1 N along the base's x axis
    AbaFloating::run<R>(m, x.q, x.qd, pushed, nullptr, qdd, fws);
    CHECK(derivative_at_zero(h_world).norm() > R("1e-3"));
  }
}

// Gravity: a uniform field accelerates every body of a free-floating system by the same a_g,
// so the joint accelerations do not depend on it and the base acceleration changes by
// ^0a_g = [0; E_0 g] exactly. Checked on the independent Lagrangian oracle (which knows
// nothing of Table 9.4's trick of adding a_g at the end), on aba_floating and on the
// inertia-matrix route crba_ltdl (H^-1 (tau - C), gravity inside C).
TEST_CASE("floating base: joint accelerations of a free-floating system are independent of gravity (Reference)",
          "[floating_base]") {
  const FamilyEntry& fd = forward_dynamics_family();
  for (const auto& spec : floating_cases()) {
    Model<double> md0 = spec.build();
    md0.gravity.setZero();
    Model<double> md1 = spec.build();
    md1.gravity = Vec3<double>(0.3, -1.7, -9.81);  // not along an axis of anything
    const Model<R> m0 = md0.cast<R>(), m1 = md1.cast<R>();
    StateOf<R> x = cast_state<R>(m1, cases::random_state(md1, 10));
    x.tau.head<6>().setZero();  // free floating: nothing holds the base
    const Vec3<R> g0 = base_pose(m1, x.q).E * m1.gravity;  // linear part of ^0a_g
    auto check_pair = [&](const VecX<R>& with_g, const VecX<R>& without_g, const char* who) {
      INFO(spec.id << " by " << who);
      VecX<R> expect = without_g;
      expect.segment<3>(3) += g0;
      check_close(with_g, expect, with_g.norm() + g0.norm());
      CHECK((with_g - without_g).segment<3>(3).norm() > R("0.1"));  // gravity did act on the base
    };
    check_pair(fd.oracle(m1, x), fd.oracle(m0, x), "oracle");
    Workspace<R> ws0(m0), ws1(m1);
    for (const char* name : {"aba_floating", "crba_ltdl"}) {
      const VariantEntry& v = variant_named(fd, name);
      check_pair(v.in_reference(m1, x, ws1), v.in_reference(m0, x, ws0), name);
    }
  }
}

// Example 9.2 (Eqs. 9.14-9.16): H^fl and C^fl from schur_complement.hpp against three things
// they do not compute with:
//  - the free-floating motion aba_floating predicts (Table 9.4, no H at all): with tau_0 = 0,
//    H^fl qdd + C^fl = tau for its qdd;
//  - the inverse of the tree's whole H (Table 6.2's crba, Eigen's LU): the joint block of H^-1
//    is (H^fl)^-1 (block inversion), so H^fl (H^-1)_** = 1;
//  - the kinetic energy of momentum-free motion (Example 9.3): with v_0 chosen so that the total
//    momentum is zero, every body moves at J^fl_i qd, and sum_i (J^fl_i)^T I_i J^fl_i = H^fl
//    body by body. (With F replaced by any other F' the sum is H - F^T (I_0^c)^-1 F'
//    - F'^T (I_0^c)^-1 F + F'^T (I_0^c)^-1 F', not H - F'^T (I_0^c)^-1 F', so a wrong F cannot pass.)
// And section 9.3's remark: H^fl is dense, and on a branched tree has more nonzero entries than
// H's joint block, whose branch-induced zeros are exact.
TEST_CASE("floating base: H^fl and C^fl (Eqs. 9.14-9.16) against ABA, H^-1 and the kinetic energy, 40 digits",
          "[floating_base]") {
  for (const auto& spec : floating_cases()) {
    const Model<double> md = spec.build();
    const Model<R> m = md.cast<R>();
    const int n = m.nv - 6;
    if (n == 0) continue;  // joint:free has no joints below its base
    ForwardDynamicsWorkspace<R> ws(m);
    const auto x = cast_state<R>(m, cases::random_state(md, 12));
    INFO(spec.id);
    MatX<R> Hfl = MatX<R>::Zero(n, n);
    VecX<R> Cfl(n);
    floating_coefficients<R>(m, x.q, x.qd, &x.f_ext, Hfl, Cfl, ws);

    VecX<R> tau = x.tau, qdd(m.nv);
    tau.head<6>().setZero();
    AbaFloating::run<R>(m, x.q, x.qd, tau, &x.f_ext, qdd, ws);
    check_close(VecX<R>(Hfl * qdd.tail(n) + Cfl), VecX<R>(tau.tail(n)), tau.norm() + Cfl.norm());

    MatX<R> H = MatX<R>::Zero(m.nv, m.nv);
    Crba::run<R>(m, x.q, H, ws);
    const MatX<R> Hinv = H.fullPivLu().inverse();
    const MatX<R> product = Hfl * Hinv.bottomRightCorner(n, n);
    check_close(product, MatX<R>(MatX<R>::Identity(n, n)), R(n));

    const auto k = body_kinematics(m, x.q, x.qd);
    MatX<R> energy = MatX<R>::Zero(n, n), Jfl(6, n), Jbody(6, n);
    for (int i = 0; i < m.nb; ++i) {
      floating_jacobian<R>(m, x.q, i, Jfl, ws);
      const Transform<R> Xi0 = k.X0[i] * k.X0[0].inverse();  // ^iX_0
      for (int c = 0; c < n; ++c) Jbody.col(c) = Xi0.apply(Vec6<R>(Jfl.col(c)));
      energy += Jbody.transpose() * m.I[i].matrix() * Jbody;
    }
    check_close(energy, Hfl, Hfl.norm());

    // Sparsity: exact zeros of H's joint block (branch-induced) against H^fl's.
    int zeros_H = 0, zeros_Hfl = 0;
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        zeros_H += H(6 + r, 6 + c) == 0;
        zeros_Hfl += Hfl(r, c) == 0;
      }
    INFO("exact zeros in H's joint block " << zeros_H << ", in H^fl " << zeros_Hfl << " (of " << n * n << ")");
    CHECK(zeros_Hfl <= zeros_H);
    if (spec.id == "urdf:solo12" || spec.id == "humanoid") {  // branched at the base: H^fl fills in
      CHECK(zeros_H > 0);
      CHECK(zeros_Hfl == 0);
    }
  }
}

// Example 9.4: J^fl_i maps a change of qd made by forces inside the system (the total momentum
// kept, Example 9.3) to the change of body i's velocity. Checked without J^fl's ingredients:
// the momentum is summed body by body (body_kinematics, Example 4.4), the base velocity change
// that keeps it is solved for by probing that sum with unit base velocities, and the body
// velocities of the new state come from the same independent kinematics.
TEST_CASE("floating base: J^fl (Example 9.4) = the velocity change of a momentum-preserving qd change, 40 digits",
          "[floating_base]") {
  for (const auto& spec : floating_cases()) {
    const Model<double> md = spec.build();
    const Model<R> m = md.cast<R>();
    const int n = m.nv - 6;
    if (n == 0) continue;
    ForwardDynamicsWorkspace<R> ws(m);
    const auto x = cast_state<R>(m, cases::random_state(md, 13));
    const auto dx = cast_state<R>(m, cases::random_state(md, 14));
    INFO(spec.id);
    // Momentum (base coordinates) is linear in qd at fixed q: h(qd) = A v_0 + B qd_*.
    Mat6<R> A;
    for (int c = 0; c < 6; ++c) {
      VecX<R> e = VecX<R>::Zero(m.nv);
      e[c] = R(1);
      A.col(c) = momentum_in_floating_base(m, x.q, e);
    }
    VecX<R> dqd = VecX<R>::Zero(m.nv);
    dqd.tail(n) = dx.qd.tail(n);
    dqd.head<6>() = -A.fullPivLu().solve(momentum_in_floating_base(m, x.q, dqd));  // keeps h
    const auto k0 = body_kinematics(m, x.q, x.qd);
    const auto k1 = body_kinematics(m, x.q, VecX<R>(x.qd + dqd));
    MatX<R> Jfl(6, n);
    for (int i = 0; i < m.nb; ++i) {
      floating_jacobian<R>(m, x.q, i, Jfl, ws);
      const Transform<R> Xi0 = k0.X0[i] * k0.X0[0].inverse();  // ^iX_0
      const Vec6<R> dv = Xi0.apply_inverse(Vec6<R>(k1.v[i] - k0.v[i]));  // base coordinates
      INFO("body " << i);
      check_close(Vec6<R>(Jfl * dqd.tail(n)), dv, dv.norm() + dqd.norm());
    }
    // The same check fails for the plain Jacobian (base held still): the base recoils.
    floating_jacobian<R>(m, x.q, 0, Jfl, ws);
    CHECK((Jfl * dqd.tail(n)).norm() > R("1e-3"));
  }
}

TEST_CASE("floating base: a model that is not one floating tree is refused, naming the problem", "[floating_base]") {
  const Model<double> fixed = cases::gu(3);
  CHECK_FALSE(AbaFloating::applicable(fixed));
  CHECK_FALSE(CrbaFloating::applicable(fixed));
  CHECK_FALSE(RneaFloating::applicable(fixed));
  CHECK_FALSE(IdFloating::applicable(fixed));
  CHECK_FALSE(CrbaFloatingSchur::applicable(fixed));
  // A free root plus a second body on the fixed base: two subsystems.
  ModelBuilder mb("two_roots");
  Joint<double> free;
  free.type = JointType::Free;
  mb.add_body("base", -1, free, Transform<double>{}, 2.0, Vec3<double>(0.1, 0, 0), Mat3<double>::Identity());
  mb.add_body("other", -1, Joint<double>{}, Transform<double>{}, 1.0, Vec3<double>(0, 0.1, 0), Mat3<double>::Identity());
  const Model<double> two = mb.finish();
  CHECK_FALSE(is_floating_base(two));
  for (const Model<double>* m : {&fixed, &two}) {
    const cases::State x = cases::random_state(*m, 1);
    ForwardDynamicsWorkspace<double> fws(*m);
    Workspace<double> ws(*m);
    VecX<double> out(m->nv);
    MatX<double> H = MatX<double>::Zero(m->nv, m->nv);
    Vec6<double> a0;
    const std::string msg = "is not a floating-base tree";
    CHECK_THROWS_WITH(AbaFloating::run<double>(*m, x.q, x.qd, x.tau, nullptr, out, fws), Catch::Contains(msg) && Catch::Contains(m->name));
    CHECK_THROWS_WITH(CrbaFloating::run<double>(*m, x.q, H, ws), Catch::Contains(msg));
    CHECK_THROWS_WITH(RneaFloating::run<double>(*m, x.q, x.qd, x.qdd, nullptr, out, ws), Catch::Contains(msg));
    CHECK_THROWS_WITH(IdFloating::run<double>(*m, x.q, x.qd, x.qdd, nullptr, a0, out, ws), Catch::Contains(msg));
    CHECK_THROWS_WITH(CrbaFloatingSchur::run<double>(*m, x.q, x.qd, x.tau, nullptr, out, fws), Catch::Contains(msg));
    MatX<double> Hfl(1, 1), J(6, 1);
    CHECK_THROWS_WITH(floating_coefficients<double>(*m, x.q, x.qd, nullptr, Hfl, out, fws), Catch::Contains(msg));
    CHECK_THROWS_WITH(floating_jacobian<double>(*m, x.q, 0, J, fws), Catch::Contains(msg));
  }
  const Model<double> humanoid = cases::humanoid();
  ForwardDynamicsWorkspace<double> hws(humanoid);
  MatX<double> J(6, humanoid.nv - 6);
  CHECK_THROWS_WITH(floating_jacobian<double>(humanoid, cases::random_state(humanoid, 1).q, humanoid.nb, J, hws),
                    Catch::Contains("is not a body") && Catch::Contains(humanoid.name));
}

// Cost, from the counting scalar: Table 9.4 skips the free joint's 6x6 D_0 = S^T I^A_0 S and
// its inverse, and the base's a' = ^0X_world a_0, for one 6x6 L D L^T solve; so it must cost
// less than the tree's ABA on the same model. The per-body counts are printed for the README.
TEST_CASE("floating base: aba_floating costs fewer operations than aba on the same floating model", "[floating_base]") {
  for (const Model<double>& md : {cases::humanoid(), cases::gu_floating(30)}) {
    const Model<Counted> m = md.cast<Counted>();
    const verify::StateOf<Counted> x = cast_state<Counted>(m, cases::random_state(md, 1));
    ForwardDynamicsWorkspace<Counted> fws(m);
    VecX<Counted> qdd(m.nv);
    const OpCounts tree = count_ops([&] { Aba::run<Counted>(m, x.q, x.qd, x.tau, nullptr, qdd, fws); });
    const OpCounts fl = count_ops([&] { AbaFloating::run<Counted>(m, x.q, x.qd, x.tau, nullptr, qdd, fws); });
    WARN(md.name << ": aba " << tree.m() << "m + " << tree.a() << "a, aba_floating " << fl.m() << "m + " << fl.a()
                 << "a (" << md.nb << " bodies, nv = " << md.nv << ")");
    CHECK(fl.m() < tree.m());
    CHECK(fl.m() + fl.a() < tree.m() + tree.a());
  }
}

}  // namespace test_floating_base
