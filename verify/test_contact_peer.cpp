// MuJoCo's contact dynamics as a peer (issue 15): the scenes of bench/mujoco_contact_peer.hpp, their
// set-up, rbdlab's solvers at rest and MuJoCo's contact forces at rbdlab's resting state, with the
// same checks the benchmark (bench/bench_contact.cpp) enforces before timing, plus closed forms.
// Its own executable (rbdlab_contact_peer_tests, verify/CMakeLists.txt), registered with CTest.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include <Eigen/SVD>

#include "bench/mujoco_contact_peer.hpp"

namespace test_contact_peer {

using namespace rbd;
using namespace rbd::bench;

// World position of contact c at q.
Vec3<double> world_point(const ContactPeerScene& s, const PointContact<double>& c) {
  const std::vector<Transform<double>> X0 = cases::body_transforms<double>(s.model, s.q);
  return X0[c.s].r + X0[c.s].E.transpose() * c.point;
}

TEST_CASE("contact peer: the scenes rest on the ground", "[contact_peer]") {
  const std::vector<std::pair<std::string, std::size_t>> expect = {{"ball", 1}, {"box", 4}, {"solo12", 4}};
  for (const auto& [id, nc] : expect) {
    INFO(id);
    const ContactPeerScene s = contact_scene(id);
    REQUIRE(s.frictionless.size() == nc);
    REQUIRE(s.frictional.size() == nc);
    CHECK(s.qd.isZero(0.0));
    double mass = 0;
    for (int i = 0; i < s.model.nb; ++i) mass += s.model.mass[i];
    CHECK(s.weight == Approx(mass * kGravity).epsilon(1e-15));  // the same sum: rounding only
    for (const auto& c : s.frictionless) {
      // Every point on the ground plane z = 0 (phi = 0): kPointTol (mujoco_contact_peer.hpp).
      CHECK(std::abs(world_point(s, c)[2]) <= kPointTol);
      CHECK(c.p == -1);
      CHECK(c.normal == Vec3<double>::UnitZ());
    }
  }
  // The ball's and the box's own numbers (cases::bouncing_ball; box_scene's solid box).
  CHECK(contact_scene("ball").weight == 1.0 * kGravity);
  CHECK(contact_scene("box").weight == 2.0 * kGravity);
}

TEST_CASE("contact peer: solo12's posture and the forces behind its torques", "[contact_peer]") {
  const ContactPeerScene s = solo12_scene();
  const Model<double>& m = s.model;
  // The four feet touch with forces that each carry a share of the weight, and they balance it:
  // sum = weight (the base's vertical row), to kRestTol (see the header).
  REQUIRE(s.lambda_static.size() == 4);
  CHECK(s.lambda_static.minCoeff() > 0.1 * s.weight / 4);  // no foot nearly unloaded: the COM is inside the feet
  CHECK(std::abs(s.lambda_static.sum() / s.weight - 1) <= kRestTol);
  // T has full column rank (unique lambda: section 11.5), and with friction the 12 rows of the
  // feet are independent too (non-singular legs: G positive definite, unique sticking forces).
  const MatX<double> T = cases::contact_T<double>(m, s.frictionless, s.q);
  const Eigen::JacobiSVD<MatX<double>> svd(T);
  CHECK(svd.singularValues().minCoeff() > 1e-3 * svd.singularValues().maxCoeff());
  std::vector<char> stick(4, 1);
  const MatX<double> K = cases::held_rows<double>(m, s.frictional, s.q, stick);
  const Eigen::JacobiSVD<MatX<double>> svd3(K);
  CHECK(svd3.singularValues().minCoeff() > 1e-3 * svd3.singularValues().maxCoeff());
  // The base is not actuated, and the torques are those of rnea at rest minus T lambda*.
  CHECK(s.tau.segment(m.v_idx[0], 6).isZero(0.0));
}

TEMPLATE_LIST_TEST_CASE("contact peer: frictionless solvers at rest", "[contact_peer]", ContactVariants) {
  for (const std::string& id : contact_scene_ids()) {
    INFO(id << " " << TestType::name);
    const ContactPeerScene s = contact_scene(id);
    const RbdlabRest r = check_frictionless<TestType>(s);
    INFO(r.why);
    CHECK(r.ok);
    if (id == "ball") CHECK(r.fn[0] == Approx(1.0 * kGravity).epsilon(kRestTol));  // m g, m = 1
  }
}

TEMPLATE_LIST_TEST_CASE("contact peer: frictional solvers at rest", "[contact_peer]", FrictionVariants) {
  for (const std::string& id : contact_scene_ids()) {
    INFO(id << " " << TestType::name);
    const ContactPeerScene s = contact_scene(id);
    const RbdlabRest r = check_frictional<TestType>(s);
    INFO(r.why);
    CHECK(r.ok);
  }
}

TEST_CASE("contact peer: MuJoCo's soft contact forces at rbdlab's resting state", "[contact_peer]") {
  for (const std::string& id : contact_scene_ids())
    for (int condim : {1, 3}) {
      INFO(id << " condim " << condim);
      const ContactPeerScene s = contact_scene(id);
      MujocoContactModel mj(s, condim);
      const MujocoForces f = measure_mujoco(s, mj);
      INFO(f.why);
      // measure_mujoco's checks: the contacts found at rbdlab's points (kPointTol), the forces
      // equal to MuJoCo's soft-contact equations solved on rbdlab's M, d / G, g (kPredictTol), and
      // mj_forward's stages without collision reproduce its qacc (kRestTol).
      REQUIRE(f.ok);
      CHECK(f.ncon == static_cast<int>(s.frictionless.size()));
      // Soft contacts at zero penetration carry less than the weight: the regulariser R > 0 lets the
      // body accelerate into the ground (f = (A + R)^-1 A lambda < lambda for one contact).
      CHECK(f.sum_over_weight < 1);
      CHECK(f.sum_over_weight > 0.5);
      CHECK(f.qacc_norm_over_g > 0);
      if (id == "ball" && condim == 1) {
        // Closed form, independent of the prediction's matrices: one frictionless contact below the
        // centre, A = 1/m, and MuJoCo's R = (1 - d) / d * A, with A approximated by the body's
        // translational inverse weight (1/m for a free ball: exact here) and the impedance d =
        // solimp's dmin at zero penetration (solimp (0.9, 0.95, ...) by default):
        // f = g / (A + R) = d m g. Tolerance 1e-11 relative: kSink's reference acceleration
        // k imp kSink ~ 2.8e3 * 0.9 * 1e-15 = 2.5e-12 m/s^2 adds 2.5e-13 of g (measured 2.3e-13),
        // rounding ~1e-15 more; any error of 1e-10 or more in f (mass, d, R) fails.
        const double dmin = mj.m()->opt.o_solimp[0];
        CHECK(f.fn[0] == Approx(dmin * 1.0 * kGravity).epsilon(1e-11));
      }
      if (f.settled) {
        // Let run from the resting state for kSettleSteps steps (200 time constants of solref's
        // 0.02 s): at rest again, the contacts carry the weight. The remaining transient decays as
        // exp(-t / timeconst) = exp(-200); what is left is the constraint solver's tolerance
        // (opt.tolerance 1e-8 on the cost's relative improvement) and the Euler integrator's
        // stationary point: 1e-6 relative keeps a margin, and a 1 % heavier model fails.
        CHECK(std::abs(f.settled_sum_over_weight - 1) <= 1e-6);
        CHECK(f.settled_speed <= 1e-6);
        CHECK(f.settled_penetration > 0);  // soft: the resting body sinks into the ground
      }
    }
}

}  // namespace test_contact_peer
