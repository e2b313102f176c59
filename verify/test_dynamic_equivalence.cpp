// Dynamic equivalence (Featherstone section 9.7, model/dynamic_equivalence.hpp): Table 9.7's
// inertia families meet Eq. 9.30 for every joint type, the simplified model has the original's
// equation of motion to 40 digits, the zeros fall where the section says, and what needs a
// physical model refuses an equivalent one. Reference values come from the compiled family
// table (verify/support/family_table.hpp); this file instantiates only the simplification itself
// in Reference.
#include <catch2/catch.hpp>

#include "cases/registry.hpp"
#include "forward_dynamics/aba_inverse_inertia.hpp"
#include "inverse_dynamics/rnea_lwp.hpp"
#include "model/dynamic_equivalence.hpp"
#include "reference/lagrange_oracle.hpp"
#include "verify/support/family_table.hpp"
#include "verify/support/metrics.hpp"

namespace test_dynamic_equivalence {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

using namespace rbd;
using namespace rbd::verify;

namespace {

// A rigid body with no zero parameter: every entry of (m, h, Ibar) nonzero.
Inertia<double> generic_body() {
  Mat3<double> Ic;
  Ic << 0.31, 0.02, -0.03, 0.02, 0.27, 0.015, -0.03, 0.015, 0.22;
  return Inertia<double>::from_com(1.7, Vec3<double>(0.11, -0.23, 0.37), Ic);
}

// The largest violation of Eq. 9.30 by d on joint j, over the states of seeds 1..5: |I_d S|,
// |X_J^T I_d X_J - I_d| and |S^T (v x* I_d v)| (v a random spatial velocity of the predecessor).
// Entries of d, S, X_J and v are O(1) and each condition is a few dozen roundings, so a member
// of the family gives ~1e-15; a non-member gives O(1) (the negative control below).
double eq_9_30_violation(const Model<double>& one_joint, const Inertia<double>& d) {
  const Joint<double>& j = one_joint.joint[0];
  double worst = 0;
  for (int seed = 1; seed <= 5; ++seed) {
    const cases::State s = cases::random_state(one_joint, seed);
    JointKinematics<double> jk;
    jcalc_position(j, s.q.segment(0, j.nq()), jk);
    const Mat6<double> D = d.matrix();
    worst = std::max(worst, (D * jk.S_).cwiseAbs().maxCoeff());
    worst = std::max(worst, (transform_transpose(jk.XJ, d).matrix() - D).cwiseAbs().maxCoeff());
    Vec6<double> v;
    for (int k = 0; k < 6; ++k) v[k] = std::sin(1.3 * seed + 0.7 * k);
    worst = std::max(worst, (jk.S_.transpose() * crf<double>(v, d * v)).cwiseAbs().maxCoeff());
  }
  return worst;
}

Model<double> single_joint(JointType type, const Vec3<double>& axis, double pitch = 0.0) {
  ModelBuilder b("one joint");
  Joint<double> j;
  j.type = type;
  j.axis = axis;
  j.pitch = pitch;
  Mat3<double> Ic = Mat3<double>::Identity() * 0.1;
  b.add_body("b", -1, j, Transform<double>{}, 1.0, Vec3<double>::Zero(), Ic);
  return b.finish();
}

}  // namespace

TEST_CASE("dynamic equivalence: every joint type's best match meets Eq. 9.30, and a non-member does not",
          "[dynamic_equivalence]") {
  const Vec3<double> skew_axis = Vec3<double>(0.36, -0.48, 0.8);  // unit (0.36^2 + 0.48^2 + 0.8^2 = 1)
  const Inertia<double> I = generic_body();
  for (JointType t : kAllJointTypes) {
    for (const Vec3<double>& axis : {Vec3<double>(Vec3<double>::UnitX()), Vec3<double>(Vec3<double>::UnitY()),
                                     Vec3<double>(Vec3<double>::UnitZ()), skew_axis}) {
      const Model<double> m = single_joint(t, axis, t == JointType::Helical ? 0.05 : 0.0);
      const Inertia<double> d = best_match(m.joint[0], I);
      INFO(joint_type_name(t) << " axis " << axis.transpose());
      CHECK(eq_9_30_violation(m, d) < 1e-13);
    }
  }
  // Negative control: Table 9.7's revolute particle moved off the axis, and a prismatic row with
  // mass, are not in their families; the check must see it.
  const Model<double> rz = single_joint(JointType::Revolute, Vec3<double>::UnitZ());
  Inertia<double> off_axis = best_match(rz.joint[0], I);
  off_axis.h[0] += 0.1;
  CHECK(eq_9_30_violation(rz, off_axis) > 1e-3);
  const Model<double> pz = single_joint(JointType::Prismatic, Vec3<double>::UnitZ());
  Inertia<double> with_mass = best_match(pz.joint[0], I);
  with_mass.m = 0.5;
  CHECK(eq_9_30_violation(pz, with_mass) > 1e-3);
}

TEST_CASE("dynamic equivalence: the parameters each joint type zeroes (Table 9.7 and section 9.7's best_match)",
          "[dynamic_equivalence]") {
  const Inertia<double> I = generic_body();
  REQUIRE(zero_parameters(I) == 0);
  auto zeroed = [&](JointType t, const Vec3<double>& axis) {
    const Model<double> m = single_joint(t, axis, t == JointType::Helical ? 0.05 : 0.0);
    const Inertia<double> d = best_match(m.joint[0], I);
    return zero_parameters(Inertia<double>{I.m - d.m, I.h - d.h, I.Ibar - d.Ibar});
  };
  // Bits: 0 m; 1-3 h_x,y,z; 4-6 Ibar_xx,yy,zz; 7 Ibar_xy, 8 Ibar_xz, 9 Ibar_yz.
  CHECK(zeroed(JointType::Revolute, Vec3<double>::UnitZ()) == ((1u << 0) | (1u << 3) | (1u << 4)));  // m, h_z, Ibar_xx
  CHECK(zeroed(JointType::Revolute, Vec3<double>::UnitX()) == ((1u << 0) | (1u << 1) | (1u << 5)));  // m, h_x, Ibar_yy
  CHECK(zeroed(JointType::Revolute, Vec3<double>(0.36, -0.48, 0.8)) == (1u << 0));                    // m only
  CHECK(zeroed(JointType::Prismatic, Vec3<double>::UnitY()) == 0x3F0u);                               // all of Ibar
  CHECK(zeroed(JointType::Spherical, Vec3<double>::UnitZ()) == (1u << 0));                            // m
  CHECK(zeroed(JointType::Cylindrical, Vec3<double>::UnitZ()) == (1u << 4));                          // Ibar_xx
  CHECK(zeroed(JointType::Helical, Vec3<double>::UnitY()) == (1u << 6));                              // Ibar_zz
  CHECK(zeroed(JointType::Planar, Vec3<double>::UnitZ()) == (1u << 4));                               // Ibar_xx
  CHECK(zeroed(JointType::Free, Vec3<double>::UnitZ()) == 0u);
}

TEST_CASE("dynamic equivalence: a two-body z-revolute chain, worked by hand", "[dynamic_equivalence]") {
  // Body 1 (leaf) on a z revolute at X_T = translation (0.5, 0, 0) from body 0, itself on a z
  // revolute at the base. The leaf loses m, h_z and Ibar_xx: I_delta = (m, (0, 0, h_z),
  // diag(Ibar_xx, Ibar_xx, 0)); its parent gains X_T^T I_delta X_T, i.e. (Table A.2, E = 1,
  // r = (0.5, 0, 0)): mass m, first moment (0.5 m, 0, h_z), and Ibar + the parallel-axis terms.
  const Inertia<double> I = generic_body();
  Mat3<double> Ic0 = Mat3<double>::Identity() * 0.4;
  ModelBuilder b("two z revolutes");
  Joint<double> rz;
  b.add_body("b0", -1, rz, Transform<double>{}, 2.0, Vec3<double>(0.2, 0, 0), Ic0);
  Transform<double> XT;
  XT.r = Vec3<double>(0.5, 0, 0);
  Mat3<double> Ic1;
  Ic1 << 0.31, 0.02, -0.03, 0.02, 0.27, 0.015, -0.03, 0.015, 0.22;
  b.add_body("b1", 0, rz, XT, 1.7, Vec3<double>(0.11, -0.23, 0.37), Ic1);
  const Model<double> m = b.finish();
  const Model<double> e = dynamically_equivalent(m);
  CHECK(e.inertia_kind == InertiaKind::DynamicallyEquivalent);
  // Leaf: exact, a subtraction of equal numbers.
  CHECK(e.I[1].m == 0.0);
  CHECK(e.I[1].h == Vec3<double>(I.h[0], I.h[1], 0.0));
  CHECK(e.I[1].Ibar(0, 0) == 0.0);
  CHECK(e.I[1].Ibar(1, 1) == I.Ibar(1, 1) - I.Ibar(0, 0));
  CHECK(e.I[1].Ibar(2, 2) == I.Ibar(2, 2));
  CHECK(std::isnan(e.com[1][0]));  // no mass, no centre of mass (model.hpp, InertiaKind)
  // Parent: what it had, plus the leaf's I_delta carried by X_T, then its own best match:
  // mass 2 + 1.7 -> 0; h_z = 0 + h_z(leaf) -> 0; h_x = 0.4 + 0.5 * 1.7 stays.
  CHECK(e.I[0].m == 0.0);
  CHECK(e.I[0].h[2] == 0.0);
  // 1e-15: the values are O(1) and each side is one or two roundings (eps = 2.2e-16).
  CHECK(e.I[0].h[0] == Approx(2.0 * 0.2 + 0.5 * 1.7).epsilon(1e-15));
  // Its Ibar before its own match (Table A.2 with E = 1, r = (0.5, 0, 0), worked out: X_T
  // adds diag(k, k + 0.25 m, 0.25 m) with k = the leaf's Ibar_xx, m = 1.7) is
  // diag(0.4 + k, 0.48 + k + 0.425, 0.48 + 0.425); its own match removes 0.4 + k from xx and yy.
  const double yy0 = 0.4 + 2.0 * 0.2 * 0.2 + I.Ibar(0, 0) + 1.7 * 0.25;
  const double xx0 = 0.4 + I.Ibar(0, 0);
  CHECK(e.I[0].Ibar(0, 0) == 0.0);
  // 1e-14: each side is about six roundings of numbers up to 1.2, and the difference (0.505)
  // cancels by a factor of ~2.4, so the sides agree to ~3e-15 relative; 1e-14 is 3x that.
  CHECK(e.I[0].Ibar(1, 1) == Approx(yy0 - xx0).epsilon(1e-14));
}

TEST_CASE("dynamic equivalence: the simplified model's tau, H and qdd are the original's to 40 digits (oracle on the "
          "original, rnea_spatial, crba and aba on the simplified model, in Reference)",
          "[dynamic_equivalence]") {
  int cases_with_zeros = 0;
  for (const auto& spec : cases::verify_cases()) {
    const Model<double> md = spec.build();
    const Model<Reference> m = md.template cast<Reference>();
    const Model<Reference> e = dynamically_equivalent(m);
    const cases::State s = cases::random_state(md, 3);
    const StateOf<Reference> x = cast_state<Reference>(m, s);
    Workspace<Reference> ws(e);
    INFO(spec.id);
    for (auto [family, variant] : {std::pair{&inverse_dynamics_family(), "rnea_spatial"},
                                   std::pair{&mass_matrix_family(), "crba"},
                                   std::pair{&forward_dynamics_family(), "aba"}}) {
      INFO(family->name << " / " << variant);
      CHECK(exact_digits(rel_diff(variant_named(*family, variant).in_reference(e, x, ws), family->oracle(m, x))) >= 40);
    }
    if (EquivalentInertias<Reference>::build(m).zeros > 0) ++cases_with_zeros;
  }
  // Every case has revolute, prismatic or spherical joints except a lone free joint.
  CHECK(cases_with_zeros >= int(cases::verify_cases().size()) - 2);
}

TEST_CASE("dynamic equivalence: what needs a physical model refuses an equivalent one", "[dynamic_equivalence]") {
  const Model<double> m = cases::build_case("gu:4");
  const Model<double> e = dynamically_equivalent(m);
  CHECK(RneaLwp::applicable<double>(m));
  CHECK_FALSE(RneaLwp::applicable<double>(e));          // needs each body's centre of mass
  CHECK(AbaInverseInertia::applicable<double>(m));
  CHECK_FALSE(AbaInverseInertia::applicable<double>(e));  // inverts I_i, singular without mass
  const Model<Reference> er = e.template cast<Reference>();
  CHECK(er.inertia_kind == InertiaKind::DynamicallyEquivalent);
  // The cast keeps the equivalent inertias (it cannot rebuild them from mass, com, Icom).
  for (int i = 0; i < e.nb; ++i) CHECK(er.I[i].m == Reference(e.I[i].m));
  REQUIRE_THROWS_WITH(oracle::mass_matrix(er, cast_state<Reference>(er, cases::random_state(m, 1)).q),
                      Catch::Contains("dynamically equivalent"));
}

}  // namespace test_dynamic_equivalence
