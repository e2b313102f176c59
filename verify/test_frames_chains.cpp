// Gate 1 for the frames family: every chain variant (algorithms/frames/variants.hpp), run
// in the 50-digit Reference scalar, agrees with the independent oracle
// (reference/frame_chain_oracle.hpp: 4x4 homogeneous matrices differentiated in time by
// nested dual numbers) to 40+ digits along random trajectories. The oracle's r_ddot and
// alpha are the AD time derivatives of its r_dot and omega, so this is also the check that
// each variant's accelerations are the time derivatives of its velocities.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "core/counting_scalar.hpp"
#include "verify/support/frames_cases.hpp"

namespace test_frames_chains {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

using namespace rbd;
using namespace rbd::verify::frames;
using R = Reference;

namespace {
// Why 40 digits: the inputs and the oracle carry ~50 digits; a chain of <= 8 links takes a
// few hundred operations per component on O(1) numbers and the oracle's nested duals a few
// thousand, so round-off stays below ~1e-45; a wrong formula differs at O(1).
constexpr double kDigits = 40.0;
const std::vector<int> kLengths = {1, 2, 3, 5, 8};
const std::vector<R> kTimes = {R(0), R(7) / R(10), R(19) / R(10)};
}  // namespace

TEST_CASE("frames: the oracle reproduces a closed-form motion", "[frames][oracle]") {
  // One link turning about a fixed axis u with theta(t) = t^2 / 2 + t and moving on
  // p(t) = p1 t: omega = theta_dot u = (t + 1) u, alpha = u, r_ddot = 0, r_dot = p1.
  oracle::LinkTrajectory<R> L;
  L.p0 = {R(1), R(2), R(3)};
  L.p1 = {R(-1), R(1) / R(2), R(2)};
  L.p2 = {R(0), R(0), R(0)};
  L.q0 = {R(1), R(0), R(0), R(0)};
  L.u = {R(0), R(3) / R(5), R(4) / R(5)};
  L.w = {R(1), R(0), R(0)};
  L.theta = {R(0), R(1), R(1) / R(2)};
  L.phi = {R(0), R(0), R(0)};
  const R t = R(3) / R(2);
  const auto k = oracle::link_kinematics(L, t);
  for (int i = 0; i < 3; ++i) {
    CHECK(abs(k.omega[i] - (t + R(1)) * L.u[i]) < R("1e-45"));
    CHECK(abs(k.alpha[i] - L.u[i]) < R("1e-45"));
    CHECK(abs(k.r_dot[i] - L.p1[i]) < R("1e-45"));
    CHECK(abs(k.r_ddot[i]) < R("1e-45"));
  }
}

TEST_CASE("frames: chain variants agree with the homogeneous-matrix AD oracle to 40 digits", "[frames][exactness]") {
  for (int n : kLengths) {
    for (std::uint64_t seed = 1; seed <= 2; ++seed) {
      const auto links = random_chain(n, 100 * n + seed);
      for (const R& t : kTimes) {
        const auto chain = relative_frames(links, t);
        const auto truth = oracle::chain_kinematics(links, t);
        for_each_variant<FrameChainVariants>([&]<class V>() {
          const MovingFrame<R> x = run_variant<V>(chain);
          const double digits = digits_of(distance_to_oracle(x, truth));
          INFO(V::name << " n=" << n << " seed " << seed << " t=" << t << ": " << digits << " digits");
          CHECK(digits >= kDigits);
          CHECK(abs(x.q.squared_norm() - R(1)) < R("1e-45"));  // the product stays unit
        });
      }
    }
  }
}

TEST_CASE("frames: the variants agree with each other at 40 digits on all 19 numbers", "[frames][exactness]") {
  const auto links = random_chain(6, 7);
  const auto chain = relative_frames(links, R(1) / R(3));
  const MovingFrame<R> base = run_variant<ChainRightToLeft>(chain);
  for_each_variant<FrameChainVariants>([&]<class V>() {
    MovingFrame<R> x = run_variant<V>(chain);
    if (x.q.w * base.q.w + x.q.v.dot(base.q.v) < 0) x.q = -x.q;  // spatial_propagation picks a sign
    INFO(V::name);
    CHECK(max_abs_difference(x, base) < R("1e-42"));  // O(1) values, ~1e-48 round-off per step
  });
}

TEST_CASE("frames: each variant's accelerations are the time derivatives of its velocities", "[frames][identities]") {
  // Every variant is run at t + k h, k = -4..4, on the oracle's relative frames at those times;
  // an 8th-order central difference of its r, r_dot, omega is compared with its r_dot,
  // r_ddot, alpha at t (alpha is the derivative of omega in the moving frame's own
  // coordinates, which is how both are stored). Why 30 digits: with h = 1e-5 the truncation
  // error is ~h^8 |f^(9)| / 630 < 1e-40 for these O(1) trajectories (|f^(9)| < 1e3) and the
  // round-off ~1e-49 / h = 1e-44, while a wrong formula differs at O(1).
  const auto links = random_chain(4, 77);
  const R t = R(6) / R(10), h = R("1e-5");
  const R c[4] = {R(4) / R(5), R(-1) / R(5), R(4) / R(105), R(-1) / R(280)};
  for_each_variant<FrameChainVariants>([&]<class V>() {
    std::vector<MovingFrame<R>> at;  // k = -4..4
    for (int k = -4; k <= 4; ++k) at.push_back(run_variant<V>(relative_frames(links, t + R(k) * h)));
    auto d = [&](auto get) {
      Vec3<R> sum = Vec3<R>::Zero();
      for (int k = 1; k <= 4; ++k) sum += c[k - 1] * (get(at[4 + k]) - get(at[4 - k]));
      return Vec3<R>(sum / h);
    };
    const MovingFrame<R>& x = at[4];
    const R e_r = group_rel(d([](const MovingFrame<R>& f) { return f.r; }), x.r_dot);
    const R e_v = group_rel(d([](const MovingFrame<R>& f) { return f.r_dot; }), x.r_ddot);
    const R e_w = group_rel(d([](const MovingFrame<R>& f) { return f.omega; }), x.alpha);
    INFO(V::name << ": digits " << digits_of(e_r) << ", " << digits_of(e_v) << ", " << digits_of(e_w));
    CHECK(digits_of(e_r) >= 30.0);
    CHECK(digits_of(e_v) >= 30.0);
    CHECK(digits_of(e_w) >= 30.0);
  });
}

TEST_CASE("frames: double and counted runs of every variant", "[frames]") {
  const auto chain_r = relative_frames(random_chain(5, 3), R(1) / R(2));
  const auto chain_d = rounded(chain_r);
  const auto truth = run_variant<ChainRightToLeft>(widened(chain_d));
  std::map<std::string, OpCounts> counts;
  for_each_variant<FrameChainVariants>([&]<class V>() {
    const double e = error_in_eps(run_variant<V>(chain_d), truth);
    INFO(V::name << ": " << e << " eps");
    CHECK(e < 200.0);  // budget: ~10 operations deep per link, 5 links, O(1) conditioning
    std::vector<MovingFrame<Counted>> chain_c;
    for (const auto& f : chain_d) chain_c.push_back(f.template cast<Counted>());
    counts[V::name] = count_ops([&] { run_variant<V>(chain_c); });
  });
  // The two chain orders perform the same compositions (n - 1 of them), so the same work.
  CHECK(counts["chain_left_to_right"] == counts["chain_right_to_left"]);
  CHECK(counts["chain_left_to_right"].m() > 0);
}

TEST_CASE("frames: bad input names the link and the component", "[frames][validation]") {
  auto chain = rounded(relative_frames(random_chain(3, 5), R(0)));
  auto run = [&] { return absolute_frame<ChainLeftToRight, double>(chain); };
  CHECK_NOTHROW(run());
  chain[1].q.w *= 2.0;
  CHECK_THROWS_WITH(run(), Catch::Contains("link 1") && Catch::Contains("not unit"));
  chain[1].q.w /= 2.0;
  chain[2].alpha.y() = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH(run(), Catch::Contains("link 2") && Catch::Contains("alpha"));
}

}  // namespace test_frames_chains
