#pragma once
// The scalar coefficient functions of the SO(3)/SE(3) closed forms, each a function of
// x = theta^2 (theta = |omega|), with a numerically stable branch for small angles.
//
//   A(x)  = sin(t)/t                         exp:        R = I + A w^ + B w^2   (Rodrigues)
//   B(x)  = (1 - cos t)/t^2                  dexp:       I + B w^ + C w^2
//   C(x)  = (t - sin t)/t^3
//   G(x)  = (1 - (t/2) cot(t/2))/t^2         dexp^-1:    I - 1/2 w^ + G w^2  (seed 004, Eq. 11)
//   B'(x), C'(x), G'(x)  = d/dx of the above: the SE(3) blocks are directional derivatives
//                          of the SO(3) ones (see core/se3.hpp).
//
// Why branches: the closed forms of C, G and the derivatives subtract nearly equal numbers
// as t -> 0 (C = (1 - A)/x loses ~log10(6/x) digits), and all of them divide by x. Below a
// threshold x_c each is summed from its Taylor series instead, as a nested product
// c0 (1 + r0 x (1 + r1 x (1 + ...))) whose ratios r_k are quotients of small integers, so the
// coefficients are exact in every scalar (no rounded factorials). kTerms terms are summed;
// x_c is chosen per scalar so that the first omitted term is below eps (series_threshold),
// and capped at x_max per function (see the thresholds below; measured in
// verify/integration_study.cpp, section lie_accuracy).
#include <algorithm>
#include <cmath>

#include "core/scalar.hpp"

namespace rbd::lie {

inline constexpr int kTerms = 16;

// Largest x for which a series whose k-th term is ~ x^k / (2k+p)! (relative to its first)
// has its first omitted term (k = kTerms) below eps of the scalar S. Computed in double from
// eps (Reference's eps = 2^-166 is a normal double), so it costs the counting scalar nothing.
template <class S> inline double series_threshold(int p, double x_max) {
  const double eps = static_cast<double>(Eigen::NumTraits<S>::epsilon());
  const double fact = std::tgamma(2.0 * kTerms + p + 1.0);  // (2 kTerms + p)!
  return std::min(x_max, std::pow(eps * fact / std::tgamma(p + 1.0), 1.0 / kTerms));
}

// sum_k t_k with t_0 = c0, t_{k+1} = t_k * x * num(k) / den(k), nested from the innermost term.
// num and den return integers (exact in double), divided in S, so the ratio is exact to S's precision.
template <class S, class Num, class Den>
inline S nested_series(const S& x, const S& c0, Num num, Den den) {
  S acc = S(1);
  for (int k = kTerms - 2; k >= 0; --k) acc = S(1) + x * S(num(k)) / S(den(k)) * acc;
  return c0 * acc;
}

// Which branch a coefficient took, for the accuracy plot.
enum class Branch { series, closed };

template <class S> struct Coeffs {
  S A, B, C, G;      // functions of x
  S dB, dC, dG;      // their derivatives d/dx
};

// Thresholds (x = t^2) below which the series is used. A and B: their closed forms are
// accurate for every t > 0 (sin(t)/t; B by the half angle, 2 sin^2(t/2)/t^2, since 1 - cos t
// cancels), so the series only avoids 0/0 near 0 (x_max = 1e-2). C, G and the derivatives:
// measured in double (verify/integration_study.cpp, lie_accuracy), the 16-term series beats
// the closed forms on all of [0, pi] (closed dG: 64 eps at t = 2, series: < 5 eps relative),
// so x_max = 10 > pi^2 and the closed forms serve t > 3.16 only; in Reference the series'
// truncation sets the switch (x_c ~ 0.21, t ~ 0.46).
template <class S> inline double threshold_AB() { return series_threshold<S>(1, 1e-2); }
template <class S> inline double threshold_CG() { return series_threshold<S>(3, 10.0); }

template <class S> inline Branch branch_C(const S& x) {
  return x < S(threshold_CG<S>()) ? Branch::series : Branch::closed;
}

// All seven coefficients by their series (accurate for small x; truncation grows with x).
template <class S> inline Coeffs<S> coefficients_series(const S& x) {
  Coeffs<S> c;
  // A = sum (-1)^k x^k/(2k+1)!,  B = sum (-1)^k x^k/(2k+2)!,  C = sum (-1)^k x^k/(2k+3)!
  c.A = nested_series<S>(x, S(1), [](int) { return -1.0; }, [](int k) { return (2.0 * k + 2) * (2.0 * k + 3); });
  c.B = nested_series<S>(x, S(1) / S(2), [](int) { return -1.0; }, [](int k) { return (2.0 * k + 3) * (2.0 * k + 4); });
  c.C = nested_series<S>(x, S(1) / S(6), [](int) { return -1.0; }, [](int k) { return (2.0 * k + 4) * (2.0 * k + 5); });
  // B' = sum_{k>=1} (-1)^k k x^(k-1)/(2k+2)!: first term -1/24, ratio -(k+1)/k x/((2k+3)(2k+4)), k = j+1
  c.dB = nested_series<S>(x, S(-1) / S(24), [](int j) { return -(j + 2.0); },
                          [](int j) { return (j + 1.0) * (2.0 * j + 5) * (2.0 * j + 6); });
  // C' = sum_{k>=1} (-1)^k k x^(k-1)/(2k+3)!: first term -1/120
  c.dC = nested_series<S>(x, S(-1) / S(120), [](int j) { return -(j + 2.0); },
                          [](int j) { return (j + 1.0) * (2.0 * j + 6) * (2.0 * j + 7); });
  // G = D/B with D = (B - A/2)/x = sum_{k>=1} (-1)^(k+1) k x^(k-1)/(2k+2)! (= -B'), a ratio of
  // two series without cancellation. G' = (D' B - D B')/B^2 with
  // D' = sum_{k>=2} (-1)^(k+1) k (k-1) x^(k-2)/(2k+2)!: first term -2/720.
  const S D = -c.dB;
  const S dD = nested_series<S>(x, S(-2) / S(720), [](int j) { return -(j + 3.0); },
                                [](int j) { return (j + 1.0) * (2.0 * j + 7) * (2.0 * j + 8); });
  c.G = D / c.B;
  c.dG = (dD * c.B - D * c.dB) / (c.B * c.B);
  return c;
}

// All seven by their closed forms (t = sqrt(x) > 0; cancellation grows as t -> 0).
template <class S> inline Coeffs<S> coefficients_closed(const S& x, const S& t) {
  Coeffs<S> c;
  c.A = sin_(t) / t;
  const S h = t / S(2), s = sin_(h) / h;
  c.B = s * s / S(2);
  c.C = (S(1) - c.A) / x;
  const S dA = (c.C - c.B) / S(2);          // dA/dx, from dA/dt = (cos t - A)/t and 1 - A = x C
  c.dB = (c.A - S(2) * c.B) / (S(2) * x);   // dB/dt = (A - 2B)/t, dt/dx = 1/(2t)
  c.dC = (c.B - S(3) * c.C) / (S(2) * x);   // dC/dt = (B - 3C)/t
  c.G = (S(1) - c.A / (S(2) * c.B)) / x;    // (t/2) cot(t/2) = A/(2B)
  c.dG = -c.G / x - (dA * c.B - c.A * c.dB) / (S(2) * c.B * c.B * x);
  return c;
}

template <class S> inline S coeff_A(const S& x, const S& t) {
  if (x < S(threshold_AB<S>()))
    return nested_series<S>(x, S(1), [](int) { return -1.0; }, [](int k) { return (2.0 * k + 2) * (2.0 * k + 3); });
  return sin_(t) / t;
}
template <class S> inline S coeff_B(const S& x, const S& t) {
  if (x < S(threshold_AB<S>()))
    return nested_series<S>(x, S(1) / S(2), [](int) { return -1.0; }, [](int k) { return (2.0 * k + 3) * (2.0 * k + 4); });
  const S h = t / S(2), s = sin_(h) / h;
  return s * s / S(2);
}

// All seven coefficients at x = t^2 (t >= 0 given, so the caller's sqrt is reused), each
// from the branch its threshold selects.
template <class S> inline Coeffs<S> coefficients(const S& x, const S& t) {
  Coeffs<S> c = branch_C<S>(x) == Branch::series ? coefficients_series<S>(x) : coefficients_closed<S>(x, t);
  c.A = coeff_A<S>(x, t);
  c.B = coeff_B<S>(x, t);
  return c;
}

}  // namespace rbd::lie
