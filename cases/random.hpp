#pragma once
// Seeded random numbers that are the same on every platform (DESIGN.md section 5).
//
// std::mt19937_64's output sequence is fixed by the C++ standard, but the distributions
// (std::uniform_real_distribution, std::normal_distribution, ...) are not: libstdc++, libc++
// and MSVC turn the same bits into different doubles. So everything here is built by hand
// from the raw 64-bit output:
//  - uniform01() = (bits >> 11) * 2^-53, the 53 high bits as a double in [0, 1): exact;
//  - uniform(lo, hi) = lo + (hi - lo) * uniform01();
//  - unit vectors and unit quaternions by rejection sampling in the cube [-1, 1)^k, then
//    normalising. Only +, -, *, / and sqrt are used, which IEEE 754 rounds correctly, and no
//    libm function (sin, cos, log, whose last bit varies between C libraries).
// Hence the numbers are bit-identical wherever double is IEEE binary64 and the compiler does
// not contract a*b+c into a fused multiply-add (x86-64 without -mfma never does; on targets
// with FMA build with -ffp-contract=off for bit-identical cases).
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>

#include "core/scalar.hpp"

namespace rbd::cases {

using Vec3d = Vec3<double>;
using Mat3d = Mat3<double>;

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : g_(seed) {}

  std::uint64_t bits() { return g_(); }

  // Uniform in [0, 1), 53 random bits, exact.
  double uniform01() { return static_cast<double>(g_() >> 11) * 0x1.0p-53; }

  // Uniform in [lo, hi).
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform01(); }

  // +1 or -1 with equal probability.
  double sign() { return (g_() >> 63) ? 1.0 : -1.0; }

  // Uniformly distributed on the unit sphere: a point drawn uniformly in the cube [-1,1)^3 is
  // kept if it lies inside the unit ball (and not too near the centre, where normalising
  // would magnify the granularity of the grid), then normalised. Acceptance pi/6 ~ 52%.
  Vec3d unit_vector() {
    for (;;) {
      const double x = uniform(-1, 1), y = uniform(-1, 1), z = uniform(-1, 1);
      const double n2 = x * x + y * y + z * z;
      if (n2 > 1e-4 && n2 <= 1.0) {
        const double n = std::sqrt(n2);
        return Vec3d(x / n, y / n, z / n);
      }
    }
  }

  // Unit quaternion [w x y z], uniformly distributed on S^3, so that the rotation it
  // represents is uniformly (Haar) distributed on SO(3). Same rejection method in 4D
  // (acceptance pi^2/32 ~ 31%). Used instead of Shoemake's formula, which needs sin/cos.
  Eigen::Vector4d unit_quaternion() {
    for (;;) {
      const double w = uniform(-1, 1), x = uniform(-1, 1), y = uniform(-1, 1), z = uniform(-1, 1);
      const double n2 = w * w + x * x + y * y + z * z;
      if (n2 > 1e-4 && n2 <= 1.0) {
        const double n = std::sqrt(n2);
        return Eigen::Vector4d(w / n, x / n, y / n, z / n);
      }
    }
  }

  // Uniformly distributed rotation matrix (orthogonal to ~1e-16, det +1), from
  // unit_quaternion() by the usual quaternion-to-matrix formula (written out, so the
  // operation order is fixed and no Eigen vectorisation can reorder it).
  Mat3d rotation() {
    const Eigen::Vector4d q = unit_quaternion();
    const double w = q[0], x = q[1], y = q[2], z = q[3];
    Mat3d R;
    R << 1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
         2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
         2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y);
    return R;
  }

  // A random rotational inertia about the centre of mass, symmetric positive definite and
  // satisfying the triangle inequality with a margin: the principal moments are those of a
  // solid box of the given mass with side lengths a, b, c drawn in [0.3, 1] * scale,
  //   (m/12) (b^2 + c^2, a^2 + c^2, a^2 + b^2),
  // so I1 + I2 - I3 = (m/6) c^2 >= (m/6) (0.3 scale)^2 > 0 for every ordering; the principal
  // axes are a uniformly random rotation R, and Ic = R diag(I) R^T is formed on the upper
  // triangle and mirrored, so it is exactly symmetric.
  Mat3d inertia_about_com(double mass, double scale) {
    if (!(mass > 0) || !(scale > 0))
      throw std::invalid_argument("Rng::inertia_about_com: mass and scale must be positive");
    const double a = scale * uniform(0.3, 1.0), b = scale * uniform(0.3, 1.0),
                 c = scale * uniform(0.3, 1.0);
    const double k = mass / 12;
    const double d[3] = {k * (b * b + c * c), k * (a * a + c * c), k * (a * a + b * b)};
    const Mat3d R = rotation();
    Mat3d I;
    for (int i = 0; i < 3; ++i)
      for (int j = i; j < 3; ++j) {
        const double v = R(i, 0) * d[0] * R(j, 0) + R(i, 1) * d[1] * R(j, 1) + R(i, 2) * d[2] * R(j, 2);
        I(i, j) = v;
        I(j, i) = v;
      }
    return I;
  }

 private:
  std::mt19937_64 g_;
};

}  // namespace rbd::cases
