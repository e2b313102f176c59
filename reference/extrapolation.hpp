#pragma once
// Gragg-Bulirsch-Stoer extrapolation for y' = f(y) in the Reference scalar: the independent
// integrator behind the integration family's convergence-order truth (issue 13, item 4).
// It shares nothing with the methods it judges (no Runge-Kutta tableau, no Lie group): a
// fixed number of macro steps H, in each of which
//   - Gragg's modified midpoint rule with n_j = 2 j substeps (h = H / n_j, j = 1..k):
//       z_0 = y,  z_1 = z_0 + h f(z_0),  z_{m+1} = z_{m-1} + 2 h f(z_m)  (m = 1..n_j - 1),
//     whose end value z_{n_j} (n_j even) has an asymptotic error expansion in even powers of h
//     (Gragg 1965; Hairer, Norsett & Wanner, Solving ODEs I, Thm. II.9.2);
//   - Aitken-Neville extrapolation of those k values to h = 0 as a polynomial in h^2:
//       T_{j,l+1} = T_{j,l} + (T_{j,l} - T_{j-1,l}) / ((n_j / n_{j-l})^2 - 1),
//     T_{k,k} being of order 2k (local error O(H^{2k+1})).
// Own error estimate: |T_{k,k} - T_{k,k-1}| per component, summed over the macro steps (the
// error of the order-(2k-2) value, an upper estimate of that of T_{k,k}, though blind to how
// the flow amplifies local errors); the caller also compares runs with H and 2H
// (verify/support/lie_integration.hpp, independent_reference).
// Deterministic: fixed H and k, no step-size control, so every run computes the same numbers.
#include <stdexcept>
#include <vector>

#include <Eigen/Core>

#include "reference/reference_scalar.hpp"

namespace rbd::oracle {

struct ExtrapolationRun {
  Eigen::Matrix<Reference, Eigen::Dynamic, 1> y;               // y(T)
  Eigen::Matrix<Reference, Eigen::Dynamic, 1> tableau_estimate;  // sum over steps of |T_kk - T_k,k-1|
  long evaluations = 0;                                          // calls of f
};

template <class F>
ExtrapolationRun gbs_integrate(const F& f, const Eigen::Matrix<Reference, Eigen::Dynamic, 1>& y0, const Reference& T,
                               int macro_steps, int columns) {
  using R = Reference;
  using VecX = Eigen::Matrix<R, Eigen::Dynamic, 1>;
  if (macro_steps < 1 || columns < 2) throw std::invalid_argument("gbs_integrate: need >= 1 macro step and >= 2 columns");
  ExtrapolationRun out;
  out.y = y0;
  out.tableau_estimate = VecX::Zero(y0.size());
  const R H = T / macro_steps;
  std::vector<VecX> prev(columns), cur(columns);  // rows j-1 and j of the tableau
  for (int step = 0; step < macro_steps; ++step) {
    const VecX f0 = f(out.y);
    ++out.evaluations;
    for (int j = 1; j <= columns; ++j) {
      const int n = 2 * j;
      const R h = H / n;
      VecX z0 = out.y, z1 = out.y + h * f0;
      for (int m = 1; m < n; ++m) {
        VecX z2 = z0 + (2 * h) * f(z1);
        ++out.evaluations;
        z0 = std::move(z1);
        z1 = std::move(z2);
      }
      cur[0] = std::move(z1);
      for (int l = 1; l < j; ++l) {
        const R ratio = R(n) / R(2 * (j - l));
        cur[l] = cur[l - 1] + (cur[l - 1] - prev[l - 1]) / (ratio * ratio - 1);
      }
      std::swap(prev, cur);
    }
    // prev now holds row k: prev[k-1] = T_kk, prev[k-2] = T_k,k-1.
    out.tableau_estimate += (prev[columns - 1] - prev[columns - 2]).cwiseAbs();
    out.y = prev[columns - 1];
  }
  return out;
}

}  // namespace rbd::oracle
