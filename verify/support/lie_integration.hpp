#pragma once
// Shared by verify/test_integration.cpp and verify/integration_study.cpp: global error of a
// trajectory end point, least-squares order fits, and the Reference solution of a case
// checked by step halving.
#include <cmath>
#include <functional>
#include <utility>
#include <vector>

#include "cases/lie_systems.hpp"
#include "integration/variants.hpp"
#include "reference/reference_scalar.hpp"

namespace rbd::verify {

// Configuration error of x against the truth y (both any group, same configuration
// meaning): max over bodies of ||R - R_ref||_F + ||r - r_ref|| (metres; the systems are
// ~0.1-1 m in size, so both terms weigh alike).
template <class S, class T>
double configuration_error(int n, const integration::State<S>& x, const integration::State<T>& y) {
  double e = 0;
  for (int i = 0; i < n; ++i) {
    const Mat3<Reference> dR = x.C[i].R.template cast<Reference>() - y.C[i].R.template cast<Reference>();
    const Vec3<Reference> dr = x.C[i].r.template cast<Reference>() - y.C[i].r.template cast<Reference>();
    e = std::max(e, static_cast<double>(dR.norm() + dr.norm()));
  }
  return e;
}

// Least-squares slope of log(err) against log(h).
inline double order_fit(const std::vector<double>& h, const std::vector<double>& err) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = static_cast<double>(h.size());
  for (size_t k = 0; k < h.size(); ++k) {
    const double x = std::log(h[k]), y = std::log(err[k]);
    sx += x; sy += y; sxx += x * x; sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

// The order study's step sizes (issue 6: 8 ms down to 0.5 ms) and horizon.
inline const std::vector<double>& order_steps() {
  static const std::vector<double> h = {8e-3, 4e-3, 2e-3, 1e-3, 5e-4};
  return h;
}

struct ReferenceSolution {
  integration::State<Reference> x;  // in Se3Group's velocity convention
  double h = 0, halving_diff = 0;   // step used, ||x(h) - x(2h)|| (configuration error)
};

// The case integrated in Reference by rkmk4_se3 with step h_ref over T, and again with 2 h_ref;
// RK4's error at h_ref is then ~ halving_diff / 15.
inline ReferenceSolution reference_solution(const cases::LieCase& c, double T, double h_ref) {
  using namespace integration;
  const System<Reference> sys = c.sys.template cast<Reference>();
  const Tableau<Reference> tab = classical_rk4<Reference>();
  const State<Reference> x0 = cases::initial_state<Se3Group, Reference>(c);
  ReferenceSolution out;
  out.h = h_ref;
  out.x = x0;
  const int n = static_cast<int>(std::lround(T / h_ref));
  integrate<RkmkSe3, Reference>(sys, out.x, Reference(T) / n, n, tab);
  State<Reference> x2 = x0;
  integrate<RkmkSe3, Reference>(sys, x2, Reference(T) / (n / 2), n / 2, tab);
  out.halving_diff = configuration_error(sys.n, out.x, x2);
  return out;
}

// End-point errors of variant V (double, tableau tab) at the order steps against `truth`.
template <class V>
std::vector<double> order_errors(const cases::LieCase& c, double T, const integration::State<Reference>& truth,
                                 const integration::Tableau<double>& tab) {
  using namespace integration;
  const System<double> sys = c.sys;
  std::vector<double> err;
  for (double h : order_steps()) {
    State<double> x = cases::initial_state<typename V::Group, double>(c);
    const int n = static_cast<int>(std::lround(T / h));
    integrate<V, double>(sys, x, T / n, n, tab);
    err.push_back(configuration_error(sys.n, x, truth));
  }
  return err;
}

// Central differences in Reference of a residual along the exact flow of the state's
// constant velocity, C(t) = G::retract(C, t V): returns (d/dt, d^2/dt^2) at t = 0, i.e.
// (J V, Jdot V) for the residual's Jacobian J. Step 1e-12: truncation ~1e-24 |g^(4)|,
// round-off ~1e-50/1e-24: ~20+ digits.
template <class G>
std::pair<Vec3<Reference>, Vec3<Reference>> flow_derivatives(
    const integration::State<Reference>& x, int n, const std::function<Vec3<Reference>(const integration::State<Reference>&)>& g) {
  using R = Reference;
  auto flow = [&](const R& t) {
    integration::State<R> y = x;
    for (int i = 0; i < n; ++i) y.C[i] = G::template retract<R>(x.C[i], Vec6<R>(t * x.V.template segment<6>(6 * i)));
    return y;
  };
  const R d = R(1e-12);
  const Vec3<R> gp = g(flow(d)), g0 = g(x), gm = g(flow(-d));
  return {(gp - gm) / (2 * d), (gp - 2 * g0 + gm) / (d * d)};
}

// A generic state of a one- or two-body chain on the position constraint (joint 0 to the
// ground, joint 1 from body 0 to body 1): rotations from exp, positions closing the joints,
// arbitrary velocities (off J V = 0, so J V and Jdot V are not trivially zero).
inline integration::State<Reference> generic_chain_state(const integration::System<Reference>& sys) {
  using R = Reference;
  integration::State<R> x;
  x.V = integration::VecV<R>(sys.nv());
  for (int i = 0; i < sys.n; ++i) {
    x.C[i].R = so3::exp<R>(Vec3<R>(R(0.4) + R(i) / 3, R(-0.7), R(1.1) - R(i)));
    for (int k = 0; k < 6; ++k) x.V(6 * i + k) = R(1 + k + 2 * i) / R(3) * (k % 2 ? R(-1) : R(1));
  }
  x.C[0].r = sys.joint[0].b - x.C[0].R * sys.joint[0].a;
  if (sys.n == 2) x.C[1].r = x.C[0].R * sys.joint[1].a + x.C[0].r - x.C[1].R * sys.joint[1].b;
  return x;
}

}  // namespace rbd::verify
