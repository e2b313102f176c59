// Gate 2 for the frames family: the group axioms of Tasora's T(T, >) algebra (seed 000,
// section 3, Theorems 1-2) on all 18 components, and every printed formula of the seed
// checked independently; where the printed form is wrong, a test shows it fails beside the
// corrected form that passes. All in the 50-digit Reference scalar.
#include <catch2/catch.hpp>

#include "verify/support/frames_cases.hpp"
#include "verify/support/frames_seed_formulas.hpp"

namespace test_frames_seed {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

using namespace rbd;
using namespace rbd::verify::frames;
using R = Reference;

namespace {
// Tolerances: every quantity below is O(1) (random unit-scale trajectories) and takes at most
// a few hundred Reference operations, each rounding by ~1e-50: 1e-40 leaves ten digits of
// margin for round-off, while a wrong formula shows an O(1e-3..1) difference (checked by the
// "printed form fails" halves, which require > 1e-3).
const R kTol = R("1e-40");
const R kWrong = R("1e-3");

// Random frames with all six components nonzero: links of random oracle trajectories.
std::vector<MovingFrame<R>> frames(int n, std::uint64_t seed) {
  return relative_frames(random_chain(n, seed), R(seed % 7) / R(4));
}
R max_abs(const Vec3<R>& x) { return x.cwiseAbs().maxCoeff(); }
}  // namespace

TEST_CASE("frames: group axioms of the moving-frame algebra on all 18 components", "[frames][identities]") {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const auto f = frames(3, seed);
    const MovingFrame<R>&a = f[0], &b = f[1], &c = f[2], I = MovingFrame<R>::identity();
    INFO("seed " << seed);
    CHECK(max_abs_difference(a >> I, a) < kTol);  // Theorem 1, right and left neutral
    CHECK(max_abs_difference(I >> a, a) < kTol);
    CHECK(max_abs_difference(!a >> a, I) < kTol);  // Theorem 2, left and right inverse
    CHECK(max_abs_difference(a >> !a, I) < kTol);
    CHECK(max_abs_difference(!!a, a) < kTol);
    CHECK(max_abs_difference((a >> b) >> c, a >> (b >> c)) < kTol);  // associativity
    CHECK(max_abs_difference(a >> b, b * a) == 0);                    // the same computation
    CHECK(max_abs_difference((c * b) * a, c * (b * a)) < kTol);
    CHECK(max_abs_difference(!(a >> b >> c), !c >> !b >> !a) < kTol);  // section 6's rewriting
    MovingFrame<R> x = a;
    x >>= b;
    CHECK(max_abs_difference(x, a >> b) == 0);
    x = a;
    x *= b;
    CHECK(max_abs_difference(x, a * b) == 0);
    // Not commutative (Theorem 2): a >> b differs from b >> a at O(1).
    CHECK(max_abs_difference(a >> b, b >> a) > kWrong);
  }
}

TEST_CASE("frames: points, speeds and accelerations through frames", "[frames][identities]") {
  const auto f = frames(2, 11);
  const MovingFrame<R>&f1 = f[0], &f2 = f[1];
  const MovingPoint<R> p{Vec3<R>(R(1) / R(3), R(-2), R(5) / R(7)), Vec3<R>(R(1), R(2), R(3)), Vec3<R>(R(-1), R(1) / R(9), R(2))};
  auto diff = [](const MovingPoint<R>& x, const MovingPoint<R>& y) {
    return std::max({max_abs(x.p - y.p), max_abs(x.p_dot - y.p_dot), max_abs(x.p_ddot - y.p_ddot)});
  };
  // v >> f1 >> f2 == f2 * f1 * v (seed section 4) == v >> (f1 >> f2).
  CHECK(diff(p >> f1 >> f2, f2 * f1 * p) < kTol);
  CHECK(diff(p >> f1 >> f2, p >> (f1 >> f2)) < kTol);
  // A point at rest in the child origin moves with the frame: {r, r_dot, r_ddot}.
  const MovingPoint<R> o = MovingPoint<R>{} >> f1;
  CHECK(diff(o, MovingPoint<R>{f1.r, f1.r_dot, f1.r_ddot}) == 0);
  // to_local inverts to_parent, and equals the inverse frame's to_parent.
  CHECK(diff(f1.to_local(f1.to_parent(p)), p) < kTol);
  CHECK(diff(f1.to_local(p), (!f1).to_parent(p)) < kTol);
  // Plain points: Eq. 4 (quaternion sandwich) equals Eq. 5 (rotation matrix).
  const Vec3<R> x(R(2), R(-1) / R(3), R(1) / R(5));
  CHECK(max_abs((x >> f1) - (f1.r + f1.q.matrix() * x)) < kTol);
  CHECK(max_abs((x >> f1) - (f1.r + (f1.q * Quaternion<R>::pure(x) * f1.q.conjugate()).v)) < kTol);
}

TEST_CASE("frames: the seed's Eqs. 4-6, 8, 9, 11 and 12 hold as printed", "[frames][seed]") {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const auto f = frames(2, seed + 20);
    const MovingFrame<R>&ab = f[0], &bc = f[1];
    const MovingFrame<R> ac = ab >> bc;
    const Rates<R> x_ab = rates(ab), x_bc = rates(bc), x_ac = rates(ac);
    // Eq. 4 and 6.
    CHECK(max_abs(ac.r - (bc.r + (bc.q * Quaternion<R>::pure(ab.r) * bc.q.conjugate()).v)) < kTol);
    CHECK(max_abs_difference(MovingFrame<R>{Vec3<R>::Zero(), ac.q}, MovingFrame<R>{Vec3<R>::Zero(), bc.q * ab.q}) == 0);
    // Eq. 8 and 11: q_dot and q_ddot of the product by the product rule.
    const Quaternion<R> e8 = x_ac.q_dot - (x_bc.q_dot * ab.q + bc.q * x_ab.q_dot);
    const Quaternion<R> e11 = x_ac.q_ddot - (x_bc.q_ddot * ab.q + R(2) * (x_bc.q_dot * x_ab.q_dot) + bc.q * x_ab.q_ddot);
    CHECK(std::max(abs(e8.w), max_abs(e8.v)) < kTol);
    CHECK(std::max(abs(e11.w), max_abs(e11.v)) < kTol);
    // Eq. 9 S(omega) = 2 q* q_dot and Eq. 12 in full (its scalar part vanishes since q.q_dot = 0).
    const Quaternion<R> e9 = R(2) * (ac.q.conjugate() * x_ac.q_dot);
    CHECK(abs(e9.w) < kTol);
    CHECK(max_abs(e9.v - ac.omega) < kTol);
    const Quaternion<R> e12 = eq12_full(ac);
    CHECK(abs(e12.w) < kTol);
    CHECK(max_abs(e12.v - ac.alpha) < kTol);
  }
}

TEST_CASE("frames: Eqs. 7 and 10 hold for the vector part only; their scalar part is wrong", "[frames][seed][discrepancy]") {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const auto f = frames(2, seed + 30);
    const MovingFrame<R>&ab = f[0], &bc = f[1];
    const MovingFrame<R> ac = ab >> bc;
    // The product rule before Eq. 7 gives a pure quaternion equal to S(r_dot_ac) ...
    const Quaternion<R> exact = eq7_product_rule(ab, bc);
    CHECK(abs(exact.w) < kTol);
    CHECK(max_abs(exact.v - ac.r_dot) < kTol);
    // ... but Eq. 7's 2 q_dot S(r) q* replaces q_dot S q* + q S q_dot*: the vector parts agree,
    // the scalar part becomes -(A omega).(A r_ab), not zero, so S(r_dot) = (printed) fails.
    const Quaternion<R> e7 = eq7_rhs(ab, bc);
    CHECK(max_abs(e7.v - ac.r_dot) < kTol);
    CHECK(abs(e7.w) > kWrong);
    CHECK(abs(e7.w + (bc.q.matrix() * bc.omega).dot(bc.q.matrix() * ab.r)) < kTol);
    // Eq. 10 likewise.
    const Quaternion<R> e10 = eq10_rhs(ab, bc);
    CHECK(max_abs(e10.v - ac.r_ddot) < kTol);
    CHECK(abs(e10.w) > kWrong);
  }
}

TEST_CASE("frames: the inverse, Eqs. 19-23: Eq. 23 has the wrong sign, the acceleration formula is wrong", "[frames][seed][discrepancy]") {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const MovingFrame<R> bc = frames(1, seed + 40)[0];
    const MovingFrame<R> ab = !bc;  // the left inverse chi_ab, checked by the group axioms above
    const Rates<R> x_ab = rates(ab);
    CHECK(abs(eq19(bc).w) < kTol);  // Eq. 19
    CHECK(max_abs(eq19(bc).v - ab.r) < kTol);
    CHECK(max_abs_difference(MovingFrame<R>{Vec3<R>::Zero(), ab.q}, MovingFrame<R>{Vec3<R>::Zero(), bc.q.conjugate()}) == 0);  // Eq. 20
    CHECK(max_abs(eq21(bc).v - ab.r_dot) < kTol);  // Eq. 21: vector part right ...
    CHECK(abs(eq21(bc).w) > kWrong);               // ... scalar part not zero, as in Eq. 7
    const Quaternion<R> e22 = eq22(bc) - x_ab.q_dot;  // Eq. 22
    CHECK(std::max(abs(e22.w), max_abs(e22.v)) < kTol);
    // Eq. 23 as printed misses the overall minus sign of d^2(q^-1)/dt^2.
    const Quaternion<R> p23 = eq23_printed(bc) - x_ab.q_ddot, c23 = eq23_corrected(bc) - x_ab.q_ddot;
    CHECK(std::max(abs(p23.w), max_abs(p23.v)) > kWrong);
    CHECK(std::max(abs(c23.w), max_abs(c23.v)) < kTol);
    // The acceleration of the inverse as printed (not even homogeneous in time: it adds
    // terms in r and r_dot to r_ddot) against the corrected form.
    CHECK(max_abs(inverse_acceleration_printed(bc).v - ab.r_ddot) > kWrong);
    CHECK(max_abs(inverse_acceleration_corrected(bc) - ab.r_ddot) < kTol);
  }
}

TEST_CASE("frames: Table 1's fast inverse transformations: subscripts as printed do not chain", "[frames][seed][discrepancy]") {
  const auto f = frames(2, 51);
  const MovingFrame<R>&x_ba = f[0], &x_cb = f[1];  // chi_{b,(a)}, chi_{c,(b)}
  const MovingFrame<R> x_ca = x_cb >> x_ba;          // Table 1, row 2 (and row 1 as b * a)
  CHECK(max_abs_difference(x_ca, x_ba * x_cb) == 0);
  // Printed: x_ba = !x_ca * x_cb and x_ba = x_ca >> !x_cb. Both fail ...
  CHECK(max_abs_difference(!x_ca * x_cb, x_ba) > kWrong);
  CHECK(max_abs_difference(x_ca >> !x_cb, x_ba) > kWrong);
  // ... the forms whose subscripts chain by section 5's rules hold.
  CHECK(max_abs_difference(x_ca * !x_cb, x_ba) < kTol);
  CHECK(max_abs_difference(!x_cb >> x_ca, x_ba) < kTol);
  // Section 4's own example does chain: cs_32 = cs_30 >> !cs_10 >> !cs_21.
  const auto g = frames(3, 52);
  const MovingFrame<R>&cs_10 = g[0], &cs_21 = g[1], &cs_32 = g[2];
  const MovingFrame<R> cs_30 = cs_32 >> cs_21 >> cs_10;
  CHECK(max_abs_difference(cs_30 >> !cs_10 >> !cs_21, cs_32) < kTol);
}

}  // namespace test_frames_seed
