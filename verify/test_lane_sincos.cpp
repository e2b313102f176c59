// core/lane_sincos.hpp, the sine and cosine that Batch<N> lanes and the counting scalar share
// (issue 17's batches):
//  a. accuracy against 50-digit MPFR values, in ulps of the correctly rounded result, over
//     joint-angle-sized and large arguments and the quadrant boundaries;
//  b. every lane of the 2-, 4- and 8-lane forms equals the scalar function to the bit, also when
//     some lanes are out of the polynomial's range and go to the C library;
//  c. beyond |x| = 1e5, and for inf and NaN, the C library's values;
//  d. Batch<4>'s sin and cos equal the counting scalar's, lane by lane (the contract
//     verify/test_batch.cpp relies on for whole variants).
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "core/batch_scalar.hpp"
#include "core/counting_scalar.hpp"
#include "core/lane_sincos.hpp"
#include "core/scalar.hpp"
#include "reference/reference_scalar.hpp"

namespace test_lane_sincos {

using namespace rbd;

// |got - exact| in units of the last place of the correctly rounded value.
double ulps(double got, const Reference& exact) {
  const double w = static_cast<double>(exact);
  const double ulp = std::nextafter(std::abs(w), std::numeric_limits<double>::infinity()) - std::abs(w);
  return static_cast<double>(abs(Reference(got) - exact)) / ulp;
}

std::vector<double> arguments() {
  std::vector<double> x;
  std::mt19937_64 gen(20261207);
  std::uniform_real_distribution<double> angle(-12.6, 12.6), far(-1e5, 1e5);
  for (int i = 0; i < 20000; ++i) x.push_back(angle(gen));
  for (int i = 0; i < 2000; ++i) x.push_back(far(gen));
  // Near the quadrant boundaries (odd multiples of pi/4) and the zeros of sin and cos (multiples
  // of pi/2), where the reduction and the selection meet; and small arguments.
  for (int k = -40; k <= 40; ++k)
    for (double d : {-1e-9, 0.0, 1e-9}) x.push_back(k * 0.785398163397448309616 + d);
  for (double t : {0.0, -0.0, 1e-300, -1e-300, 1e-8, 3e-5, 0.5, 1.0, 99999.9, -99999.9}) x.push_back(t);
  return x;
}

TEST_CASE("lane sincos: within 3 ulps of the correctly rounded sine and cosine", "[lane_sincos]") {
  // Bound: the reduction r = ((x - k P1) - k P2) - k P3 has k P1 and k P2 exact and two rounded
  // subtractions (<= 1 ulp of r); Horner's rule with positive-and-negative alternating terms
  // adds about one more, the last subtraction half an ulp: 3 ulps. Measured: 2.4 at most over
  // 2e6 arguments (and the C library's 0.52). A wrong coefficient errs by 1e-10 or more, a
  // wrong quadrant by O(1): both far above.
  double worst_sin = 0, worst_cos = 0;
  for (double x : arguments()) {
    INFO("x = " << x);
    const Reference X(x);
    const double es = ulps(lanes::sin(x), sin(X)), ec = ulps(lanes::cos(x), cos(X));
    CHECK(es <= 3.0);
    CHECK(ec <= 3.0);
    worst_sin = std::max(worst_sin, es);
    worst_cos = std::max(worst_cos, ec);
  }
  WARN("lane sincos: worst error " << worst_sin << " ulp (sin), " << worst_cos << " ulp (cos)");
}

template <int W> void check_lanes(const std::vector<double>& x) {
  double s[W], c[W], s2[W], c2[W];
  for (std::size_t i = 0; i + W <= x.size(); i += W) {
    lanes::sin<W>(&x[i], s);
    lanes::cos<W>(&x[i], c);
    lanes::sincos<W>(&x[i], s2, c2);  // both in one pass: the same bits as the two calls
    for (int j = 0; j < W; ++j) {
      INFO("W = " << W << ", x = " << x[i + j]);
      CHECK(std::bit_cast<std::uint64_t>(s[j]) == std::bit_cast<std::uint64_t>(lanes::sin(x[i + j])));
      CHECK(std::bit_cast<std::uint64_t>(c[j]) == std::bit_cast<std::uint64_t>(lanes::cos(x[i + j])));
      CHECK(std::bit_cast<std::uint64_t>(s2[j]) == std::bit_cast<std::uint64_t>(s[j]));
      CHECK(std::bit_cast<std::uint64_t>(c2[j]) == std::bit_cast<std::uint64_t>(c[j]));
    }
  }
}

TEST_CASE("lane sincos: each lane of a vector equals the scalar function bit for bit", "[lane_sincos]") {
  std::vector<double> x = arguments();
  // Every eighth group of 8 has one lane out of range (1e6): that group goes lane by lane.
  for (std::size_t i = 3; i < x.size(); i += 64) x[i] = 1e6 + static_cast<double>(i);
  check_lanes<2>(x);
  check_lanes<4>(x);
  check_lanes<8>(x);
}

TEST_CASE("lane sincos: out of range and non-finite arguments take the C library's values", "[lane_sincos]") {
  for (double x : {1e5 + 1, -2e6, 1e300, std::numeric_limits<double>::infinity()}) {
    CHECK(std::bit_cast<std::uint64_t>(lanes::sin(x)) == std::bit_cast<std::uint64_t>(std::sin(x)));
    CHECK(std::bit_cast<std::uint64_t>(lanes::cos(x)) == std::bit_cast<std::uint64_t>(std::cos(x)));
  }
  CHECK(std::isnan(lanes::sin(std::numeric_limits<double>::quiet_NaN())));
  CHECK(std::isnan(lanes::cos(-std::numeric_limits<double>::infinity())));
}

TEST_CASE("lane sincos: Batch<4> and the counting scalar agree lane by lane", "[lane_sincos]") {
  const std::vector<double> x = arguments();
  for (std::size_t i = 0; i + 4 <= x.size(); i += 4) {
    const Batch<4> b = Batch<4>::load(&x[i]);
    const Batch<4> s = sin(b), c = cos(b);
    const CosSin<Batch<4>> cs = cos_sin_(b);  // the joints' route: one pass for both
    for (int j = 0; j < 4; ++j) {
      CHECK(s.lane(j) == sin(Counted(x[i + j])).value());
      CHECK(c.lane(j) == cos(Counted(x[i + j])).value());
      CHECK(cs.s.lane(j) == s.lane(j));
      CHECK(cs.c.lane(j) == c.lane(j));
    }
  }
}

}  // namespace test_lane_sincos
