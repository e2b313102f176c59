// Gate 2 (DESIGN.md section 2): physics identities that need no reference solution.
// Run on every verify case. Reference-scalar checks use 1e-40 (see exactness.hpp for why
// 40 digits separates round-off from a wrong formula); finite-difference checks state
// their own truncation bound.
#include <catch2/catch.hpp>

#include <type_traits>

#include <Eigen/Cholesky>

#include "cases/registry.hpp"
#include "model/configuration.hpp"
#include "verify/support/body_kinematics.hpp"
#include "verify/support/families.hpp"
#include "verify/support/metrics.hpp"

namespace test_identities {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

using namespace rbd;
using namespace rbd::verify;
using R = Reference;

namespace {

bool is_lie_group_joint(JointType t) {
  return t == JointType::Planar || t == JointType::Spherical || t == JointType::Free;
}

// A smooth trajectory through (q0, qd0) whose velocity variables are known exactly:
// vector-space joints move as q0 + qd0 t + qdd0 t^2 / 2; joints on a Lie group (planar,
// spherical, free) move along q0 exp(qd0 t) with constant body velocity, so their qdd = 0.
struct Trajectory {
  const Model<R>& m;
  VecX<R> q0, qd0, qdd0;
  Trajectory(const Model<R>& model, const StateOf<R>& x) : m(model), q0(x.q), qd0(x.qd), qdd0(x.qdd) {
    for (int i = 0; i < m.nb; ++i)
      if (is_lie_group_joint(m.joint[i].type)) qdd0.segment(m.v_idx[i], m.joint[i].nv()).setZero();
  }
  VecX<R> q(const R& t) const { return integrate(m, q0, VecX<R>(qd0 * t + qdd0 * (t * t / R(2))), R(1)); }
  VecX<R> qd(const R& t) const { return qd0 + qdd0 * t; }
};

// Five-point central difference f'(0) = (-f(2h) + 8 f(h) - 8 f(-h) + f(-2h)) / 12h + O(h^4).
// Evaluated into f's own value type: an Eigen expression over the four temporaries f returns
// would outlive them.
template <class F> auto derivative_at_zero(F&& f) {
  using Value = std::decay_t<decltype(f(R(0)))>;
  const R h("1e-9");
  return Value((-f(R(2) * h) + R(8) * f(h) - R(8) * f(-h) + f(R(-2) * h)) / (R(12) * h));
}
// Truncation ~ h^4 |f^(5)| / 30 ~ 1e-36 |f^(5)| and round-off ~ 1e-50 |f| / 1e-8 = 1e-42 |f|
// for the O(1) smooth functions here: 1e-30 relative leaves a margin of 1e5 or more.
const R kFdTol("1e-30");
const R kExactTol("1e-40");

}  // namespace

TEST_CASE("H is symmetric positive definite (double)", "[identities][mass_matrix]") {
  for (const auto& spec : cases::verify_cases()) {
    const Model<double> m = spec.build();
    Workspace<double> ws(m);
    for (int seed = 1; seed <= 3; ++seed) {
      const auto x = cast_state<double>(m, cases::random_state(m, seed));
      for_each_type<MassMatrixVariants>([&]<class V>() {
        if (!V::template applicable<double>(m)) return;  // e.g. crba_floating on a fixed base
        const MatX<double> H = MassMatrixFamily::evaluate<V, double>(m, x, ws);
        INFO(V::name << " on " << spec.id << " seed " << seed);
        // Asymmetry from round-off: each H_ij is a sum of ~n terms, < 4 n eps relative.
        CHECK((H - H.transpose()).norm() <= 4 * m.nv * 2.2e-16 * H.norm());
        CHECK(Eigen::LLT<MatX<double>>(H).info() == Eigen::Success);
      });
    }
  }
}

TEST_CASE("0.5 qd^T H qd equals the kinetic energy summed body by body (Reference)", "[identities]") {
  for (const auto& spec : cases::verify_cases()) {
    const Model<double> md = spec.build();
    const Model<R> m = md.cast<R>();
    Workspace<R> ws(m);
    const auto x = cast_state<R>(m, cases::random_state(md, 7));
    const R T = kinetic_energy_by_body(m, x.q, x.qd);
    for_each_type<MassMatrixVariants>([&]<class V>() {
      if (!V::template applicable<R>(m)) return;  // e.g. crba_floating on a fixed base
      const MatX<R> H = MassMatrixFamily::evaluate<V, R>(m, x, ws);
      const R THq = x.qd.dot(H * x.qd) / 2;
      INFO(V::name << " on " << spec.id);
      CHECK(abs(THq - T) <= kExactTol * abs(T));
    });
  }
}

TEST_CASE("power balance: dT/dt = qd^T (tau - g(q)) along a trajectory (Reference)", "[identities]") {
  for (const auto& spec : cases::verify_cases()) {
    const Model<double> md = spec.build();
    const Model<R> m = md.cast<R>();
    Workspace<R> ws(m);
    const Trajectory traj(m, cast_state<R>(m, cases::random_state(md, 11)));
    const R dTdt = derivative_at_zero([&](const R& t) { return kinetic_energy_by_body(m, traj.q(t), traj.qd(t)); });
    for_each_type<InverseDynamicsVariants>([&]<class V>() {
      if (!V::template applicable<R>(m)) return;
      VecX<R> tau(m.nv), g(m.nv);
      const VecX<R> zero = VecX<R>::Zero(m.nv);
      V::template run<R>(m, traj.q0, traj.qd0, traj.qdd0, nullptr, tau, ws);
      V::template run<R>(m, traj.q0, zero, zero, nullptr, g, ws);  // gravity terms g(q)
      const R power = traj.qd0.dot(tau - g);
      INFO(V::name << " on " << spec.id << ": dT/dt " << dTdt.str(10) << ", power " << power.str(10));
      CHECK(abs(dTdt - power) <= kFdTol * (abs(power) + traj.qd0.norm() * tau.norm()));
    });
  }
}

TEST_CASE("C(q, qd) - C(q, 0) is quadratic in qd (Reference)", "[identities][bias]") {
  for (const auto& spec : cases::verify_cases()) {
    const Model<double> md = spec.build();
    const Model<R> m = md.cast<R>();
    Workspace<R> ws(m);
    const auto x = cast_state<R>(m, cases::random_state(md, 5));
    for_each_type<BiasVariants>([&]<class V>() {
      if (!V::template applicable<R>(m)) return;
      VecX<R> C1(m.nv), C3(m.nv), C0(m.nv);
      const VecX<R> zero = VecX<R>::Zero(m.nv), qd3 = x.qd * R(3);
      V::template run<R>(m, x.q, x.qd, nullptr, C1, ws);
      V::template run<R>(m, x.q, qd3, nullptr, C3, ws);
      V::template run<R>(m, x.q, zero, nullptr, C0, ws);
      INFO(V::name << " on " << spec.id);
      // Scaled by the magnitudes that enter the combination: for GU(1) the velocity terms
      // vanish identically and C3 - C0 is itself round-off.
      CHECK((C3 - C0 - R(9) * (C1 - C0)).norm() <= kExactTol * (C3.norm() + C0.norm() + R(9) * C1.norm()));
    });
  }
}

TEST_CASE("free-floating, gravity-free: d/dt of total momentum = wrench across the free joint (Reference)",
          "[identities][floating]") {
  int checked = 0;
  for (const auto& spec : cases::verify_cases()) {
    Model<double> md = spec.build();
    if (md.joint[0].type != JointType::Free) continue;
    md.gravity.setZero();
    const Model<R> m = md.cast<R>();
    Workspace<R> ws(m);
    const Trajectory traj(m, cast_state<R>(m, cases::random_state(md, 3)));
    const Vec6<R> hdot = derivative_at_zero([&](const R& t) { return momentum_in_base(m, traj.q(t), traj.qd(t)); });
    for_each_type<InverseDynamicsVariants>([&]<class V>() {
      if (!V::template applicable<R>(m)) return;
      VecX<R> tau(m.nv);
      V::template run<R>(m, traj.q0, traj.qd0, traj.qdd0, nullptr, tau, ws);
      // Free joint: S = 1, so tau[0..5] is the wrench on body 0 across the joint, in body-0
      // coordinates; ^0X_1^* carries it to base coordinates.
      const Vec6<R> f_base = body_kinematics(m, traj.q0, traj.qd0).X0[0].apply_transpose(Vec6<R>(tau.head<6>()));
      INFO(V::name << " on " << spec.id);
      CHECK((hdot - f_base).norm() <= kFdTol * (f_base.norm() + hdot.norm() + 1));
      ++checked;
    });
  }
  CHECK(checked >= 2);  // the all-joints tree and the lone free joint, at least
}

}  // namespace test_identities
