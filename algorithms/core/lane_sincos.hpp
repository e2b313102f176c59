#pragma once
// Sine and cosine written once for a double and for a vector of doubles (GCC/Clang vector
// extensions), with the same operations in the same order, so that lane k of the vector result
// is bit for bit the scalar result for lane k's argument. Batch<N> (batch_scalar.hpp) takes its
// sin and cos from here, which lets a batch run the sines of N states in one vector instruction
// stream; the counting scalar (counting_scalar.hpp) takes its own from here too, because its
// single call is what a batch lane must equal to the bit (verify/test_batch.cpp). Plain double,
// and the emitted code of algorithms/symbolic/, keep the C library's.
//
// Method (the classic one; Muller, "Elementary Functions", ch. 11): k = nearest integer to
// x 2/pi, r = x - k pi/2 with pi/2 split into three parts (Cody and Waite), so that k P1 and k P2
// are exact for |k| < 2^20 and the reduction loses nothing but the last part's rounding; then
// Taylor polynomials for sin r and cos r on |r| <= pi/4, to the terms r^17/17! and r^18/18!
// (the next terms are below 1e-19 relative there), evaluated by Horner's rule in r^2; the
// quadrant k mod 4 picks +-sin r or +-cos r by selecting bits. The constants below were derived
// from pi in 300-bit arithmetic (mpmath): P1, P2 are pi/2 rounded to 33 significant bits and the
// remainder rounded to 33 bits, P3 the rest rounded to 53 bits. Arguments beyond |x| = 1e5 (and
// non-finite ones) go to the C library, lane by lane. verify/test_lane_sincos.cpp measures the
// error against 50-digit MPFR values.
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace rbd::lanes {

constexpr double kTwoOverPi = 0x1.45f306dc9c883p-1;
constexpr double kP1 = 0x1.921fb54400000p+0;
constexpr double kP2 = 0x1.0b4611a600000p-34;
constexpr double kP3 = 0x1.3198a2e037073p-69;
constexpr double kRoundMagic = 0x1.8p52;  // (y + 1.5 2^52) - 1.5 2^52 rounds |y| < 2^51 to an integer
constexpr double kLimit = 1e5;            // |k| <= 63662 < 2^20: k P1 and k P2 exact

// The lane types for W lanes (W = 1: plain double), spelled out per width (GCC 12 drops
// vector_size on a typedef whose size depends on a template parameter). The functions below take
// W as the template argument, never a vector type (GCC would drop its attributes there), and
// pass vectors by reference or through pointers to doubles (a vector passed by value has a
// different ABI with and without AVX, and this header is compiled both ways). The unsigned
// integers hold the quadrant's bits and select between sin and cos; unsigned so that every shift
// and negation is defined.
template <int W> struct LaneTypes;
template <> struct LaneTypes<1> {
  using D = double;
  using U = std::uint64_t;
};
template <> struct LaneTypes<2> {
  typedef double D __attribute__((vector_size(16)));
  typedef std::int64_t I __attribute__((vector_size(16)));
  typedef std::uint64_t U __attribute__((vector_size(16)));
};
template <> struct LaneTypes<4> {
  typedef double D __attribute__((vector_size(32)));
  typedef std::int64_t I __attribute__((vector_size(32)));
  typedef std::uint64_t U __attribute__((vector_size(32)));
};
template <> struct LaneTypes<8> {
  typedef double D __attribute__((vector_size(64)));
  typedef std::int64_t I __attribute__((vector_size(64)));
  typedef std::uint64_t U __attribute__((vector_size(64)));
};

// sin r and cos r for |r| <= pi/4 (a little beyond, from the rounding of k), Taylor to r^17 and
// r^18, by Horner's rule in z = r^2 from the highest term. The coefficients are (-1)^j / n!
// rounded to double (x - c and x + (-c) round alike, so the signs can live in the table).
constexpr double kSinTerms[] = {-1.0 / 355687428096000.0, 1.0 / 1307674368000.0, -1.0 / 6227020800.0,
                                1.0 / 39916800.0,          -1.0 / 362880.0,       1.0 / 5040.0,
                                -1.0 / 120.0,              1.0 / 6.0};  // 1/17!, 1/15!, ..., 1/3!
constexpr double kCosTerms[] = {1.0 / 6402373705728000.0, -1.0 / 20922789888000.0, 1.0 / 87178291200.0,
                                -1.0 / 479001600.0,        1.0 / 3628800.0,         -1.0 / 40320.0,
                                1.0 / 720.0,               -1.0 / 24.0};  // 1/18!, 1/16!, ..., 1/4!
template <int W> void kernel(const typename LaneTypes<W>::D& r, typename LaneTypes<W>::D& s, typename LaneTypes<W>::D& c) {
  using D = typename LaneTypes<W>::D;
  const D z = r * r;
  D ps = D{} + kSinTerms[0], pc = D{} + kCosTerms[0];  // D{} + x: x in every lane
  for (int j = 1; j < 8; ++j) {
    ps = ps * z + kSinTerms[j];
    pc = pc * z + kCosTerms[j];
  }
  s = r - (r * z) * ps;                // r - r^3/3! + r^5/5! - ...
  c = 1.0 - (0.5 * z + (z * z) * pc);  // 1 - r^2/2! + r^4/4! - ...
}

// sin x and cos x of W arguments, every one in range (the callers check).
template <int W> void sincos_in_range(const double* x_in, double* sin_out, double* cos_out) {
  using D = typename LaneTypes<W>::D;
  using U = typename LaneTypes<W>::U;
  D x;
  std::memcpy(&x, x_in, sizeof x);
  const D k = (x * kTwoOverPi + kRoundMagic) - kRoundMagic;
  const D r = ((x - k * kP1) - k * kP2) - k * kP3;
  D s, c;
  kernel<W>(r, s, c);
  U q, sb, cb;
  if constexpr (W == 1) {
    q = static_cast<U>(static_cast<std::int64_t>(k));  // through the signed integer: k may be negative
  } else {
    q = (U)__builtin_convertvector(k, typename LaneTypes<W>::I);
  }
  std::memcpy(&sb, &s, sizeof s);
  std::memcpy(&cb, &c, sizeof c);
  const U odd = -(q & 1);                             // all bits set in odd quadrants
  const U sin_sign = (q & 2) << 62;                   // quadrants 2, 3: -
  const U cos_sign = ((q + 1) & 2) << 62;             // quadrants 1, 2: -
  const U sin_bits = ((odd & cb) | (~odd & sb)) ^ sin_sign;  // q: 0 s, 1 c, 2 -s, 3 -c
  const U cos_bits = ((odd & sb) | (~odd & cb)) ^ cos_sign;  // q: 0 c, 1 -s, 2 -c, 3 s
  if (sin_out) std::memcpy(sin_out, &sin_bits, sizeof sin_bits);
  if (cos_out) std::memcpy(cos_out, &cos_bits, sizeof cos_bits);
}

inline double sin(double x) {
  if (!(std::abs(x) <= kLimit)) return std::sin(x);
  double s;
  sincos_in_range<1>(&x, &s, nullptr);
  return s;
}
inline double cos(double x) {
  if (!(std::abs(x) <= kLimit)) return std::cos(x);
  double c;
  sincos_in_range<1>(&x, nullptr, &c);
  return c;
}

// W lanes from x to out: each lane as the scalar functions above give it.
template <int W> bool all_in_range(const double* x) {
  bool ok = true;
  for (int i = 0; i < W; ++i) ok &= std::abs(x[i]) <= kLimit;  // false for NaN
  return ok;
}
template <int W> void sin(const double* x, double* out) {
  if (all_in_range<W>(x)) return sincos_in_range<W>(x, out, nullptr);
  for (int j = 0; j < W; ++j) out[j] = lanes::sin(x[j]);
}
template <int W> void cos(const double* x, double* out) {
  if (all_in_range<W>(x)) return sincos_in_range<W>(x, nullptr, out);
  for (int j = 0; j < W; ++j) out[j] = lanes::cos(x[j]);
}
// Both at once: one reduction and one pair of polynomials, where sin() and cos() of the same
// argument each need both polynomials (the odd quadrants take the sine from the cosine's).
template <int W> void sincos(const double* x, double* sin_out, double* cos_out) {
  if (all_in_range<W>(x)) return sincos_in_range<W>(x, sin_out, cos_out);
  for (int j = 0; j < W; ++j) {
    sin_out[j] = lanes::sin(x[j]);
    cos_out[j] = lanes::cos(x[j]);
  }
}

}  // namespace rbd::lanes
