// Joints beyond Table 4.1 (algorithms/extended_joints/): rack-and-pinion (Example 4.6),
// opposite polarity (Table 4.2), time dependence (Eq. 3.32). Three witnesses besides the
// variants themselves:
//  1. the Lagrangian oracle (reference/lagrange_oracle.hpp), which writes each extended joint
//     as a 4x4 pose (drive, then joint, inverted if reversed) and differentiates energies;
//  2. the same mechanisms as plain trees with massless intermediate bodies, solved by the
//     geared (rack) and hybrid (drive) families (verify/extended_joints_expanded.hpp);
//  3. identities: no extension is the tree variants; a reversed 1-DoF joint is the forward one
//     about the negated axis; a rack of radius 0 is the revolute joint.
// Reference comparisons use close40 (verify/support/close40.hpp: 1e-40 relative, Reference
// carries 50 digits, a wrong formula errs at O(1e-2)).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "cases/extended_joints.hpp"
#include "cases/states.hpp"
#include "extended_joints/variants.hpp"
#include "forward_dynamics/aba.hpp"
#include "geared_dynamics/variants.hpp"
#include "hybrid_dynamics/hybrid_crba_dense.hpp"
#include "inverse_dynamics/rnea_spatial.hpp"
#include "reference/gepp.hpp"
#include "reference/lagrange_oracle.hpp"
#include "reference/reference_scalar.hpp"
#include "verify/extended_joints_expanded.hpp"
#include "verify/support/close40.hpp"
#include "verify/support/message_of.hpp"

namespace test_extended_joints {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

using namespace rbd;
using namespace rbd::verify;
using R = Reference;

namespace {

struct Sample {
  R t;
  VecX<R> q, qd, qdd, tau;
  std::vector<Vec6<R>> f_ext;
};

Sample sample(const ExtendedModel<R>& em, std::uint64_t seed) {
  const cases::State s = cases::random_state(em.tree.template cast<double>(), seed);  // draws from types only
  Sample x{R(cases::extended_time(seed)), cases::to<R>(s.q), cases::to<R>(s.qd), cases::to<R>(s.qdd),
           cases::to<R>(s.tau), cases::to<R>(s.f_ext)};
  oracle::normalize_quaternions(em.tree, x.q);
  return x;
}

template <class V> VecX<R> forward(const ExtendedModel<R>& em, const Sample& s) {
  ExtendedWorkspace<R> ws(em);
  VecX<R> qdd(em.tree.nv);
  V::run(em, s.t, s.q, s.qd, s.tau, &s.f_ext, qdd, ws);
  return qdd;
}
VecX<R> inverse(const ExtendedModel<R>& em, const Sample& s) {
  ExtendedWorkspace<R> ws(em);
  VecX<R> tau(em.tree.nv);
  RneaExtended::run(em, s.t, s.q, s.qd, s.qdd, &s.f_ext, tau, ws);
  return tau;
}

// The oracle's forward dynamics: its H and C, solved densely (reference/gepp.hpp).
VecX<R> oracle_forward(const ExtendedModel<R>& em, const Sample& s) {
  const MatX<R> H = oracle::mass_matrix(em, s.t, s.q);
  const VecX<R> C = oracle::inverse_dynamics(em, s.t, s.q, s.qd, VecX<R>(VecX<R>::Zero(em.tree.nv)), &s.f_ext);
  return oracle::solve_gepp(H, VecX<R>(s.tau - C), "extended-joint oracle H");
}

const cases::ExtendedFeatures kAll{}, kRackOnly{true, false, false}, kDriveOnly{false, false, true},
    kReverseOnly{false, true, false}, kNone{false, false, false};

}  // namespace

TEST_CASE("extended joints: every variant against the Lagrangian oracle to 40 digits", "[extended_joints]") {
  for (const auto& [label, what] : {std::pair{"all", kAll}, std::pair{"rack", kRackOnly}, std::pair{"drive", kDriveOnly},
                                    std::pair{"reverse", kReverseOnly}}) {
    for (std::uint64_t seed : {1, 2, 3}) {
      const ExtendedModel<R> em = cases::extended_joints_tree(seed, what).cast<R>();
      const Sample s = sample(em, seed);
      INFO(label << ", seed " << seed);
      CHECK(close40(inverse(em, s), oracle::inverse_dynamics(em, s.t, s.q, s.qd, s.qdd, &s.f_ext)));
      const VecX<R> qdd = oracle_forward(em, s);
      CHECK(close40(forward<AbaExtended>(em, s), qdd));
      CHECK(close40(forward<CrbaExtended>(em, s), qdd));
    }
  }
}

TEST_CASE("extended joints: the case draws what it says", "[extended_joints]") {
  // Guards the tests above against vacuity: every feature is present in the 'all' trees.
  int racks = 0, reversed = 0, drives = 0, rotational = 0;
  for (std::uint64_t seed : {1, 2, 3})
    for (const auto& e : cases::extended_joints_tree(seed).ext) {
      racks += e.rack_and_pinion;
      reversed += e.reversed;
      drives += e.drive.active();
      rotational += e.drive.active() && e.drive.rotational;
    }
  CHECK(racks == 3);
  CHECK(reversed >= 6);
  CHECK(drives >= 6);
  CHECK(rotational >= 2);
  CHECK(rotational < drives);
}

TEST_CASE("extended joints: no extension is the tree variants (Reference, 40 digits)", "[extended_joints]") {
  for (std::uint64_t seed : {1, 2}) {
    const ExtendedModel<R> em = cases::extended_joints_tree(seed, kNone).cast<R>();
    const Sample s = sample(em, seed);
    Workspace<R> ws(em.tree);
    VecX<R> tau(em.tree.nv), qdd(em.tree.nv);
    RneaSpatial::run(em.tree, s.q, s.qd, s.qdd, &s.f_ext, tau, ws);
    CHECK(close40(inverse(em, s), tau));
    ForwardDynamicsWorkspace<R> fws(em.tree);
    Aba::run(em.tree, s.q, s.qd, s.tau, &s.f_ext, qdd, fws);
    CHECK(close40(forward<AbaExtended>(em, s), qdd));
    CHECK(close40(forward<CrbaExtended>(em, s), qdd));
  }
}

TEST_CASE("extended joints: a rack-and-pinion is a carriage geared to its pinion (Eq. 9.26)", "[extended_joints]") {
  for (std::uint64_t seed : {1, 2, 3}) {
    const ExtendedModel<R> em = cases::extended_joints_tree(seed, kRackOnly).cast<R>();
    const Sample s = sample(em, seed);
    const ExpandedTree<R> x = expand(em);
    REQUIRE(x.gears.size() == 1);
    // y = the expanded q without the carriage's coordinate (the driven joint), which is the
    // extended model's q in the same order; tau of the carriage is 0 (nothing drives it).
    VecX<R> tau_tree = VecX<R>::Zero(x.model.nv);
    std::vector<Vec6<R>> f_tree(x.model.nb, Vec6<R>::Zero());
    for (int i = 0; i < em.tree.nb; ++i) {
      const int b = x.body_of[i], n = em.tree.joint[i].nv();
      tau_tree.segment(x.model.v_idx[b], n) = s.tau.segment(em.tree.v_idx[i], n);
      f_tree[b] = s.f_ext[i];
    }
    GearedWorkspace<R> ws(x.model);
    VecX<R> ydd(em.tree.nv);
    GearedDense::run(x.model, x.gears, s.q, s.qd, tau_tree, &f_tree, ydd, ws);
    INFO("seed " << seed);
    CHECK(close40(forward<AbaExtended>(em, s), ydd));
    CHECK(close40(forward<CrbaExtended>(em, s), ydd));
  }
}

TEST_CASE("extended joints: a drive is a massless joint with given motion (hybrid dynamics, 9.1)", "[extended_joints]") {
  for (std::uint64_t seed : {1, 2, 3}) {
    const ExtendedModel<R> em = cases::extended_joints_tree(seed, kDriveOnly).cast<R>();
    REQUIRE(em.time_dependent());
    const Sample s = sample(em, seed);
    const ExpandedTree<R> x = expand(em);
    const Model<R>& m = x.model;
    VecX<R> q(m.nq), qd(m.nv), qdd = VecX<R>::Zero(m.nv), tau = VecX<R>::Zero(m.nv);
    ForwardJoints fd(m.nb, 1);
    std::vector<Vec6<R>> f_tree(m.nb, Vec6<R>::Zero());
    for (int i = 0; i < em.tree.nb; ++i) {
      const int b = x.body_of[i], d = x.extra_of[i];
      const Joint<R>& j = em.tree.joint[i];
      q.segment(m.q_idx[b], j.nq()) = s.q.segment(em.tree.q_idx[i], j.nq());
      qd.segment(m.v_idx[b], j.nv()) = s.qd.segment(em.tree.v_idx[i], j.nv());
      tau.segment(m.v_idx[b], j.nv()) = s.tau.segment(em.tree.v_idx[i], j.nv());
      f_tree[b] = s.f_ext[i];
      if (d >= 0) {  // the drive's joint: phi, phi_dot, phi_ddot given (an inverse-dynamics joint)
        const Drive<R>& dr = em.ext[i].drive;
        q[m.q_idx[d]] = dr.phi(s.t);
        qd[m.v_idx[d]] = dr.phi_dot(s.t);
        qdd[m.v_idx[d]] = dr.phi_ddot(s.t);
        fd[d] = 0;
      }
    }
    HybridDynamicsWorkspace<R> ws(m);
    HybridCrbaDense::run(m, q, qd, fd, qdd, tau, &f_tree, ws);
    VecX<R> expected(em.tree.nv);
    for (int i = 0; i < em.tree.nb; ++i)
      expected.segment(em.tree.v_idx[i], em.tree.joint[i].nv()) =
          qdd.segment(m.v_idx[x.body_of[i]], em.tree.joint[i].nv());
    INFO("seed " << seed);
    CHECK(close40(forward<AbaExtended>(em, s), expected));
    CHECK(close40(forward<CrbaExtended>(em, s), expected));
  }
}

TEST_CASE("extended joints: identities of Example 4.6 and Table 4.2 (Reference, 40 digits)", "[extended_joints]") {
  SECTION("a reversed 1-DoF joint is the forward joint about the negated axis") {
    // Table 4.2 gives X' = X_J^-1 = X_J(-q) and S' = -^pX_s S = -S for a joint whose motion is
    // a screw along its own axis (revolute, prismatic, helical): the forward joint about -a.
    for (std::uint64_t seed : {1, 2}) {
      ExtendedModel<R> em = cases::extended_joints_tree(seed, kNone).cast<R>();
      ExtendedModel<R> flipped = em;
      int count = 0;
      for (int i = 0; i < em.tree.nb; ++i)
        if (is_single_dof(em.tree.joint[i].type)) {
          em.ext[i].reversed = true;
          flipped.tree.joint[i].axis = -flipped.tree.joint[i].axis;
          flipped.tree.joint[i].aligned = -1;
          ++count;
        }
      REQUIRE(count >= 6);
      const Sample s = sample(em, seed);
      CHECK(close40(forward<AbaExtended>(em, s), forward<AbaExtended>(flipped, s)));
      CHECK(close40(inverse(em, s), inverse(flipped, s)));
    }
  }
  SECTION("a rack of radius 0 is the revolute joint it is declared as") {
    ExtendedModel<R> em = cases::extended_joints_tree(1, kRackOnly).cast<R>();
    em.ext[1].radius = R(0);
    const Sample s = sample(em, 1);
    ExtendedModel<R> plain = em;
    plain.ext[1] = JointExtension<R>{};
    CHECK(close40(forward<AbaExtended>(em, s), forward<AbaExtended>(plain, s)));
    CHECK(close40(forward<CrbaExtended>(em, s), forward<CrbaExtended>(plain, s)));
    CHECK(close40(inverse(em, s), inverse(plain, s)));
  }
  SECTION("Table 4.2 on a Table 4.1 joint keeps c_J = 0") {
    const ExtendedModel<R> em = cases::extended_joints_tree(1, kReverseOnly).cast<R>();
    const Sample s = sample(em, 1);
    int reversed = 0;
    for (int i = 0; i < em.tree.nb; ++i) {
      JointKinematics<R> J;
      const Joint<R>& j = em.tree.joint[i];
      jcalc_extended(j, em.ext[i], s.q.segment(em.tree.q_idx[i], j.nq()), s.qd.segment(em.tree.v_idx[i], j.nv()), s.t, J);
      reversed += em.ext[i].reversed;
      CHECK(J.cJ.isZero(0));
    }
    REQUIRE(reversed >= 3);
  }
  SECTION("a rack's c_J is (dS/dq) qd^2 (Eq. 3.42, Example 4.6), forward and reversed") {
    // dS/dq by a central difference of jcalc_extended's own S in Reference: truncation ~h^2 |S'''|
    // ~1e-34 and rounding ~eps/h ~1e-33 at h = 1e-17, so 1e-30 (relative to r qd^2) holds a
    // consistent S and c_J, while a wrong c_J (sign, factor, missing term) errs at O(1).
    for (bool reversed : {false, true}) {
      ExtendedModel<R> em = cases::extended_joints_tree(2, kRackOnly).cast<R>();
      REQUIRE(em.ext[1].rack_and_pinion);
      em.ext[1].reversed = reversed;
      const Sample s = sample(em, 2);
      const Joint<R>& j = em.tree.joint[1];
      const R q = s.q[em.tree.q_idx[1]], qd = s.qd[em.tree.v_idx[1]], h("1e-17");
      auto at = [&](const R& qq) {
        JointKinematics<R> J;
        jcalc_extended(j, em.ext[1], VecX<R>::Constant(1, qq), VecX<R>::Constant(1, qd), s.t, J);
        return J;
      };
      const JointKinematics<R> J = at(q), Jp = at(R(q + h)), Jm = at(R(q - h));
      const Vec6<R> expected = (Jp.S_.col(0) - Jm.S_.col(0)) / (R(2) * h) * (qd * qd);
      const R scale = em.ext[1].radius * qd * qd;
      INFO("reversed " << reversed);
      CHECK(R((J.cJ - expected).cwiseAbs().maxCoeff()) <= R("1e-30") * scale);
      CHECK(R((J.vJ - J.S_.col(0) * qd).cwiseAbs().maxCoeff()) <= R("1e-45") * scale);  // no drive: v_J = S qd
    }
  }
}

// Double against Reference is gate 3's (verify/support/budgets.hpp: extended_articulated_solves,
// solve_with_extended_H, recursion) on every sweep case, held to its baseline by tools/gate.py;
// a looser copy of it here would guard nothing more.

TEST_CASE("extended joints: bad extensions are refused by body and reason", "[extended_joints]") {
  const Model<double> tree = cases::all_joints_tree(1);
  auto refused = [&](int body, auto edit) {
    std::vector<JointExtension<double>> ext(tree.nb);
    edit(ext[body]);
    return message_of<ModelError>([&] { make_extended_model(tree, ext); });
  };
  CHECK_THAT(refused(3, [](auto& e) { e.rack_and_pinion = true; e.radius = 0.1; }),
             Catch::Contains("body 3 'spherical'") && Catch::Contains("revolute joint about exactly z"));
  CHECK_THAT(refused(2, [](auto& e) { e.rack_and_pinion = true; e.radius = 0.1; }),
             Catch::Contains("body 2 'revolute_x'") && Catch::Contains("not about z"));
  CHECK_THAT(refused(1, [](auto& e) { e.radius = 0.1; }), Catch::Contains("rack_and_pinion is not set"));
  CHECK_THAT(refused(1, [](auto& e) { e.rack_and_pinion = true; e.radius = NAN; }), Catch::Contains("radius is not finite"));
  CHECK_THAT(refused(4, [](auto& e) { e.drive.amplitude = 0.1; e.drive.axis = Vec3<double>(1, 1, 0); }),
             Catch::Contains("body 4") && Catch::Contains("drive axis must be a unit vector"));
  CHECK_THAT(refused(4, [](auto& e) { e.drive.amplitude = 0.1; e.drive.pitch = 0.1; }),
             Catch::Contains("translational drive has no pitch"));
  CHECK_THAT(refused(5, [](auto& e) { e.drive.omega = INFINITY; }), Catch::Contains("non-finite"));
  CHECK_THAT(message_of<ModelError>([&] { make_extended_model(tree, std::vector<JointExtension<double>>(3)); }),
             Catch::Contains("3 joint extensions for 13 joints"));
}

}  // namespace test_extended_joints
