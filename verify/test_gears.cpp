// Geared dynamics (Featherstone section 9.6) beyond gate 1 (test_exactness.cpp runs every
// variant against the oracle on every verify case with the states' random gear pairs):
//  - Figure 9.2's arm: G as the section prints it, H's zeros, and Eq. 9.27's closed form of
//    G^T H G, entry by entry, in Reference;
//  - Eq. 9.27's operation counts: 44m + 33a for the dense product, 5m + 3a for the sparse one;
//  - no gear pairs is forward dynamics (aba) to 40 digits; the three variants agree with each
//    other and with the oracle on the arm at several ratios;
//  - every malformed gear pair refused with the pair named;
//  - Example 9.5: the reflected-inertia approximation against the exact model.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "cases/geared_arm.hpp"
#include "cases/registry.hpp"
#include "core/counting_scalar.hpp"
#include "forward_dynamics/aba.hpp"
#include "geared_dynamics/reflected_inertia.hpp"
#include "model/configuration.hpp"
#include "geared_dynamics/variants.hpp"
#include "reference/lagrange_oracle.hpp"
#include "reference/reference_scalar.hpp"
#include "verify/support/exactness.hpp"
#include "verify/support/message_of.hpp"
#include "verify/support/metrics.hpp"
#include "verify/support/oracles.hpp"
#include "verify/support/reflected_inertia.hpp"

namespace test_gears {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

using namespace rbd;
using namespace rbd::verify;
using R = Reference;

namespace {

// The oracle's ydd for the arm at (y, yd, tau): the state as the family passes it.
MatX<R> oracle_on(const Model<R>& m, const GearPairs& pairs, const VecX<R>& q, const VecX<R>& qd, const VecX<R>& tau) {
  StateOf<R> x{q, qd, VecX<R>::Zero(m.nv), tau, ExternalForces<R>(m.nb, Vec6<R>::Zero()), {}, pairs, {}, {}, {}, R(0)};
  return oracle_value<GearedDynamicsFamily>(m, x);
}

}  // namespace

TEST_CASE("gears: Figure 9.2's G, H's zeros and Eq. 9.27's G^T H G on the arm (Reference)", "[gears]") {
  const double rho1 = 7.5, rho2 = 12.25;  // exact in binary: the products below are exact too
  const cases::GearedArm arm = cases::geared_arm(rho1, rho2);
  const Model<R> m = arm.model.cast<R>();
  GearedWorkspace<R> ws(m);
  ws.prepare(m, arm.pairs);
  // G = [1 0; rho_1 0; 0 1; 0 rho_2], y = (q_0, q_2): the section's choice.
  MatX<R> G_book = MatX<R>::Zero(4, 2);
  G_book(0, 0) = R(1); G_book(1, 0) = R(rho1); G_book(2, 1) = R(1); G_book(3, 1) = R(rho2);
  CHECK(ws.G == G_book);
  CHECK(ws.map.ny == 2);
  CHECK(ws.map.v_of_y == std::vector<int>{0, 2});

  VecX<R> q(4);
  q << R("0.3"), R(rho1) * R("0.3"), R("-0.7"), R(rho2) * R("-0.7");
  MatX<R> H = MatX<R>::Zero(4, 4);
  Crba::run<R>(m, q, H, ws);
  // The zeros of the matrix in Eq. 9.27: rotor 1 is on the base, rotor 2 and the forearm are
  // siblings, so H_01 = H_12 = H_13 = H_23 = 0 exactly (the book's H_12, H_23, H_24, H_34).
  CHECK(H(0, 1) == R(0));
  CHECK(H(1, 2) == R(0));
  CHECK(H(1, 3) == R(0));
  CHECK(H(2, 3) == R(0));
  MatX<R> Hy_book(2, 2);
  Hy_book << H(0, 0) + R(rho1) * R(rho1) * H(1, 1), H(0, 2) + R(rho2) * H(0, 3),
             H(0, 2) + R(rho2) * H(0, 3), H(2, 2) + R(rho2) * R(rho2) * H(3, 3);
  // 40 digits: both sides are a handful of roundings in 50 digits of the same products.
  MatX<R> Hs = MatX<R>::Zero(2, 2), Hd = MatX<R>::Zero(2, 2), HG(4, 2);
  GearedSparse::project<R>(ws.plan, ws.map, H, Hs);
  GearedDense::project<R>(H, ws.G, HG, Hd);
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c <= r; ++c) {
      INFO("entry (" << r << ", " << c << ")");
      CHECK(exact_digits(rel_diff(MatX<R>::Constant(1, 1, Hs(r, c)), MatX<R>::Constant(1, 1, Hy_book(r, c)))) >= 40);
      CHECK(exact_digits(rel_diff(MatX<R>::Constant(1, 1, Hd(r, c)), MatX<R>::Constant(1, 1, Hy_book(r, c)))) >= 40);
    }
}

TEST_CASE("gears: Eq. 9.27's cost on Figure 9.2's arm, 44m + 33a dense and 5m + 3a sparse", "[gears][opcounts]") {
  const cases::GearedArm arm = cases::geared_arm(50, 80);
  const Model<Counted> m = arm.model.cast<Counted>();
  GearedWorkspace<Counted> ws(m);
  ws.prepare(m, arm.pairs);
  MatX<Counted> H = MatX<Counted>::Zero(4, 4);
  Crba::run<Counted>(m, VecX<Counted>::Zero(4), H, ws);
  MatX<Counted> Hy = MatX<Counted>::Zero(2, 2), HG(4, 2);
  const OpCounts dense = count_ops([&] { GearedDense::project<Counted>(H, ws.G, HG, Hy); });
  const OpCounts sparse = count_ops([&] { GearedSparse::project<Counted>(ws.plan, ws.map, H, Hy); });
  // Section 9.6: "44 multiplications and 33 additions" treating G and H as dense (H G in full,
  // then the three distinct entries of the symmetric G^T (H G)); "5 multiplications and 3
  // additions" using the actual values (rho_1^2 H_22 and rho_2^2 H_44 two each, rho_2 H_14 one).
  CHECK(dense.m() == 44);
  CHECK(dense.a() == 33);
  CHECK(sparse.m() == 5);
  CHECK(sparse.a() == 3);
}

TEST_CASE("gears: the three variants equal the oracle on Figure 9.2's arm at gear ratios 1 to 100 (Reference)",
          "[gears]") {
  for (double rho : {1.0, 3.0, 20.0, 100.0}) {
    const cases::GearedArm arm = cases::geared_arm(rho, -rho);  // the second pair turns the other way
    const Model<R> m = arm.model.cast<R>();
    GearedWorkspace<R> ws(m);
    VecX<R> y(2), yd(2), tau(4), q(4), qd(4);
    y << R("0.4"), R("1.1");
    yd << R("-0.5"), R("2");
    tau << R("0.5"), R("0.2"), R("-0.3"), R("0.1");  // torques at the joints and at the rotors
    ws.prepare(m, arm.pairs);
    ws.map.gamma(y, q);
    ws.map.expand_velocity(yd, qd);
    const MatX<R> truth = oracle_on(m, arm.pairs, q, qd, tau);
    for_each_type<GearedDynamicsVariants>([&]<class V>() {
      VecX<R> ydd(2);
      V::template run<R>(m, arm.pairs, y, yd, tau, nullptr, ydd, ws);
      const double digits = exact_digits(rel_diff(MatX<R>(ydd), truth));
      INFO(V::name << " at rho = " << rho << ": " << digits << " digits");
      CHECK(digits >= kExactDigitsRequired);
    });
  }
}

TEST_CASE("gears: with no gear pairs every variant is forward dynamics (aba), 40 digits", "[gears]") {
  for (const auto& spec : cases::verify_cases()) {
    const Model<double> md = spec.build();
    const Model<R> m = md.cast<R>();
    const auto x = cast_state<R>(m, cases::random_state(md, 2));
    ForwardDynamicsWorkspace<R> fws(m);
    VecX<R> qdd(m.nv);
    Aba::run<R>(m, x.q, x.qd, x.tau, &x.f_ext, qdd, fws);
    GearedWorkspace<R> ws(m);
    for_each_type<GearedDynamicsVariants>([&]<class V>() {
      VecX<R> ydd(m.nv);
      V::template run<R>(m, GearPairs{}, x.q, x.qd, x.tau, &x.f_ext, ydd, ws);  // y = q, G = 1
      INFO(V::name << " on " << spec.id);
      CHECK(exact_digits(rel_diff(MatX<R>(ydd), MatX<R>(qdd))) >= kExactDigitsRequired);
    });
  }
}

TEST_CASE("gears: malformed gear pairs are refused, naming the pair and the problem", "[gears][validation]") {
  const Model<double> m = cases::build_case("all_joints");  // every joint type, 1-DoF ones among them
  int one_a = -1, one_b = -1, multi = -1;
  for (int i = 0; i < m.nb; ++i) {
    const bool one_dof = m.joint[i].nv() == 1 && m.joint[i].nq() == 1;
    if (one_dof && one_a < 0) one_a = i;
    else if (one_dof && one_b < 0) one_b = i;
    else if (!one_dof && multi < 0) multi = i;
  }
  REQUIRE(one_a >= 0);
  REQUIRE(one_b > one_a);
  REQUIRE(multi >= 0);
  auto refused = [&](const GearPairs& p, const std::string& words) {
    try {
      (void)GearMap<double>::build(m, p);
    } catch (const std::invalid_argument& e) {
      INFO(e.what());
      CHECK(std::string(e.what()).find(words) != std::string::npos);
      return;
    }
    FAIL("accepted: " << words);
  };
  refused({{m.nb, one_a, 2}}, "no such joint");
  refused({{one_a, -1, 2}}, "no such joint");
  refused({{one_a, one_a, 2}}, "cannot drive itself");
  refused({{one_b, multi, 2}}, "one degree of freedom");
  refused({{multi, one_a, 2}}, "one degree of freedom");
  refused({{one_b, one_a, 0}}, "finite and nonzero");
  refused({{one_b, one_a, std::nan("")}}, "finite and nonzero");
  refused({{one_b, one_a, 2}, {one_b, one_a, 3}}, "already driven");
  GearPairs chain{{one_b, one_a, 2}};
  for (int i = 0; i < m.nb; ++i)
    if (i != one_a && i != one_b && m.joint[i].nv() == 1 && m.joint[i].nq() == 1) {
      chain.push_back({i, one_b, 2});  // one_b drives i while one_a drives one_b
      break;
    }
  REQUIRE(chain.size() == 2);  // all_joints has revolute, prismatic and helical joints
  refused(chain, "itself driven");
  // Each message names the pair's place in the list.
  refused({{one_b, one_a, 2}, {one_a, one_a, 2}}, "gear pair 1");
}

TEST_CASE("gears: Example 9.5, the reflected rotor inertia, approaches the exact model like 1 / rho", "[gears]") {
  // With the rotor's axial inertia I_rot, what the quick model leaves out on this arm is the
  // coupling rho I_rot (rho_2 H_03 of Eq. 9.27) and the rotors' own velocity terms, against a
  // diagonal that grows like rho^2 I_rot. So rho times the relative error must settle to a
  // constant once rho^2 I_rot dominates the diagonal, and the error must be small both where
  // the rotors are negligible (rho = 1) and where they dominate (rho = 500).
  std::vector<ReflectedInertiaPoint> pts;
  for (double rho : reflected_inertia_ratios()) pts.push_back(reflected_inertia_point(rho));
  std::string table;
  for (const auto& p : pts)
    table += "rho " + std::to_string(p.ratio) + ": relative error " + std::to_string(p.rel_err) + ", rotor share " +
             std::to_string(p.diag_share) + "\n";
  INFO(table);
  const ReflectedInertiaPoint &p200 = pts[pts.size() - 2], &p500 = pts.back();
  REQUIRE(p200.ratio == 200);
  REQUIRE(p500.ratio == 500);
  CHECK(p500.diag_share > 0.9);
  // 1 / rho: from 200 to 500 the error falls by 2.5. The next term, relative to the first, is
  // (lambda / I_rot) / rho^2 ~ 1300 / rho^2 (lambda below): ~3 % at rho = 200, ~0.5 % at 500, so
  // the ratio sits within a few percent of 2.5; 10 % allows for the geometry's constants.
  CHECK(p200.rel_err / p500.rel_err == Approx(2.5).epsilon(0.1));
  for (const auto& p : pts) {
    INFO("rho " << p.ratio);
    CHECK(p.rel_err > 0);      // the quick model is an approximation: never exact here
    // And a good one. The neglected coupling is ~rho I_rot against a diagonal ~lambda + rho^2 I_rot,
    // lambda = H's smallest eigenvalue (the forearm's, ~0.13 kg m^2); rho I_rot / (lambda + rho^2
    // I_rot) is at most sqrt(I_rot / lambda) / 2 ~ 0.014 over all rho. 0.05 leaves a factor ~3 for
    // the geometry's constants and the velocity terms.
    CHECK(p.rel_err < 0.05);
  }
}

// Eq. 9.28's two forms of the reflected rotor inertia (geared_dynamics/reflected_inertia.hpp):
// the ABA with D_i += armature_i and the CRBA with H_ii += armature_i, against each other and
// against the Lagrangian oracle's H and C with the diagonal added, solved by LU in Reference
// (three computations: articulated inertias, the composite-body H, the oracle's derivatives of
// the energy). Six cases with every joint type, armature drawn per variable in [0, 2) times the mean of H's
// diagonal (so it matters), two states per workspace (a stale factor in the workspace would
// show). With armature 0 the ABA form performs the ABA's operations, so it equals aba to the bit.
TEST_CASE("gears: Eq. 9.28, reflected inertia in the ABA (D_i) and in the CRBA (H_ii), against the oracle", "[gears][armature]") {
  // Cases with every joint type, branching and a floating base; the oracle's H costs O(n^3) in
  // dual numbers, so not the 63-body trees.
  for (const std::string id : {"gu:7", "tree:bf=2:nb=15", "all_joints", "humanoid", "joint:planar", "dh:puma_like"}) {
    const Model<double> md = cases::build_case(id);
    const Model<R> m = md.cast<R>();
    ReflectedInertiaWorkspace<R> ws(m);
    for (int seed = 3; seed <= 4; ++seed) {
      const auto x = cast_state<R>(m, cases::random_state(md, static_cast<std::uint64_t>(seed)));
      const MatX<R> H = oracle::mass_matrix(m, x.q);
      VecX<R> arm(m.nv);
      for (int k = 0; k < m.nv; ++k) arm[k] = R(2 * ((37 * k + 11 * seed) % 17)) / 17 * H.trace() / m.nv;
      MatX<R> Ha = H;
      Ha.diagonal() += arm;
      const VecX<R> C = oracle::inverse_dynamics(m, x.q, x.qd, VecX<R>(VecX<R>::Zero(m.nv)), &x.f_ext);
      const VecX<R> truth = Ha.partialPivLu().solve(VecX<R>(x.tau - C));
      VecX<R> qa(m.nv), qc(m.nv);
      reflected_inertia_aba<R>(m, arm, x.q, x.qd, x.tau, &x.f_ext, qa, ws);
      reflected_inertia_crba<R>(m, arm, x.q, x.qd, x.tau, &x.f_ext, qc, ws);
      INFO(id << " seed " << seed);
      CHECK(exact_digits(rel_diff(MatX<R>(qa), MatX<R>(truth))) >= kExactDigitsRequired);
      CHECK(exact_digits(rel_diff(MatX<R>(qc), MatX<R>(truth))) >= kExactDigitsRequired);
    }
    // Armature 0: the ABA's own operations, bit for bit in double.
    const auto xd = cases::random_state(md, 5);
    ReflectedInertiaWorkspace<double> wd(md);
    VecX<double> q0(md.nv), q1(md.nv);
    reflected_inertia_aba<double>(md, VecX<double>::Zero(md.nv), xd.q, xd.qd, xd.tau, &xd.f_ext, q0, wd);
    Aba::run<double>(md, xd.q, xd.qd, xd.tau, &xd.f_ext, q1, wd);
    CHECK(q0 == q1);
  }
}

TEST_CASE("gears: Eq. 9.28's ABA form costs the ABA plus nv additions; bad armature is refused", "[gears][armature]") {
  for (const std::string id : {"gu:7", "gu:30", "all_joints"}) {  // all_joints: the multi-DoF lines too
    const Model<Counted> m = cases::build_case(id).cast<Counted>();
    ReflectedInertiaWorkspace<Counted> ws(m);
    const VecX<Counted> q = neutral_configuration(m), z = VecX<Counted>::Zero(m.nv);
    VecX<Counted> arm = VecX<Counted>::Constant(m.nv, Counted(0.5)), qdd(m.nv);
    const OpCounts aba = count_ops([&] { Aba::run<Counted>(m, q, z, z, nullptr, qdd, ws); });
    const OpCounts refl = count_ops([&] { reflected_inertia_aba<Counted>(m, arm, q, z, z, nullptr, qdd, ws); });
    INFO(id);
    CHECK(refl.m() == aba.m());
    CHECK(refl.a() == aba.a() + static_cast<std::uint64_t>(m.nv));
  }
  const Model<double> md = cases::build_case("gu:3");
  ReflectedInertiaWorkspace<double> ws(md);
  const VecX<double> z = VecX<double>::Zero(3);
  VecX<double> qdd(3);
  auto msg = [&](const VecX<double>& arm) {
    return message_of<std::invalid_argument>([&] { reflected_inertia_crba<double>(md, arm, z, z, z, nullptr, qdd, ws); });
  };
  CHECK_THAT(msg(VecX<double>::Zero(2)), Catch::Contains("armature must have nv = 3 entries, has 2"));
  CHECK_THAT(msg(Eigen::Vector3d(0.1, -0.2, 0.1)), Catch::Contains("armature[1] is negative or not finite"));
  CHECK_THAT(msg(Eigen::Vector3d(0.1, 0.2, std::nan(""))), Catch::Contains("armature[2]"));
  CHECK_THAT(message_of<std::invalid_argument>([&] {
               reflected_inertia_aba<double>(md, Eigen::Vector3d(0.1, -0.2, 0.1), z, z, z, nullptr, qdd, ws);
             }),
             Catch::Contains("armature[1] is negative or not finite"));
  CHECK_THAT(message_of<std::invalid_argument>([&] {
               Aba::run_with_armature<double>(md, VecX<double>::Zero(2), z, z, z, nullptr, qdd, ws);
             }),
             Catch::Contains("armature must have nv = 3 entries"));
}

}  // namespace test_gears
