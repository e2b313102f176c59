#pragma once
// Explicit Butcher tableaux (a, b, c), a parameter of every integrator of the family, so
// the Munthe-Kaas schemes of seed 004 (Eq. 37) and the baselines run with any of them.
// Coefficients are built in the target scalar from small integers (exact in every scalar).
#include <array>
#include <stdexcept>
#include <string>

#include "core/scalar.hpp"

namespace rbd::integration {

inline constexpr int kMaxStages = 6;

template <class S> struct Tableau {
  std::string name;
  int s = 0;      // stages
  int order = 0;  // classical order of the RK method
  std::array<std::array<S, kMaxStages>, kMaxStages> a{};
  std::array<S, kMaxStages> b{}, c{};

  // Explicit (a strictly lower triangular), c_j = sum_l a_jl, sum b = 1; throws otherwise.
  void validate() const {
    if (s < 1 || s > kMaxStages) throw std::invalid_argument("tableau " + name + ": stage count out of range");
    S sb = S(0);
    for (int j = 0; j < s; ++j) {
      S row = S(0);
      for (int l = 0; l < s; ++l) {
        if (l >= j && a[j][l] != S(0)) throw std::invalid_argument("tableau " + name + ": not explicit (a[j][l] != 0, l >= j)");
        row += a[j][l];
      }
      if (abs_(row - c[j]) > S(4) * Eigen::NumTraits<S>::epsilon()) throw std::invalid_argument("tableau " + name + ": c_j != sum_l a_jl");
      sb += b[j];
    }
    if (abs_(sb - S(1)) > S(4) * Eigen::NumTraits<S>::epsilon()) throw std::invalid_argument("tableau " + name + ": sum b != 1");
  }
};

// The classical Runge-Kutta method (the paper's choice for Eq. 37).
template <class S> Tableau<S> classical_rk4() {
  Tableau<S> t;
  t.name = "rk4";
  t.s = 4;
  t.order = 4;
  const S half = S(1) / S(2);
  t.a[1][0] = half;
  t.a[2][1] = half;
  t.a[3][2] = S(1);
  t.b = {S(1) / S(6), S(1) / S(3), S(1) / S(3), S(1) / S(6)};
  t.c = {S(0), half, half, S(1)};
  return t;
}

// Kutta's 3/8 rule, another 4th-order tableau: shows the schemes take the tableau as data.
template <class S> Tableau<S> rk38() {
  Tableau<S> t;
  t.name = "rk38";
  t.s = 4;
  t.order = 4;
  const S third = S(1) / S(3);
  t.a[1][0] = third;
  t.a[2][0] = -third;
  t.a[2][1] = S(1);
  t.a[3][0] = S(1);
  t.a[3][1] = S(-1);
  t.a[3][2] = S(1);
  t.b = {S(1) / S(8), S(3) / S(8), S(3) / S(8), S(1) / S(8)};
  t.c = {S(0), third, S(2) / S(3), S(1)};
  return t;
}

}  // namespace rbd::integration
