#pragma once
// One impact on a compliant contact (Featherstone section 11.8; the linear spring-damper patch of
// algorithms/contact_simulation/soft_contact_forces.hpp), in closed form: a body of mass m under
// gravity g reaches the undeformed patch (p = 0) at speed v0 and rides on it (p = z) while the
// force -K p - D pdot pushes. Shared by verify/test_soft_contact.cpp (the dropped block) and
// verify/contact_simulation_study.cpp (the bouncing ball).
#include <cmath>

namespace rbd::verify {

// The first t > 0 where f changes sign from its sign just after 0, bracketed by a scan in steps
// of `step` and bisected to the last double.
template <class F> double first_sign_change(const F& f, double step) {
  const bool positive = f(step / 2) > 0;
  double lo = 0, hi = step;
  while ((f(hi) > 0) == positive) { lo = hi; hi += step; }
  for (int i = 0; i < 200 && hi - lo > 0; ++i) {
    const double mid = (lo + hi) / 2;
    if (mid <= lo || mid >= hi) break;
    ((f(mid) > 0) == positive ? lo : hi) = mid;
  }
  return lo;
}

// The damped oscillation of the contact phase, from p = 0 with pdot = -v0 at tau = 0
// (m pdd = -K p - D pdot - m g): with y = p - p_eq, p_eq = -m g / K,
// y = exp(-s tau) (y0 cos(w tau) + B sin(w tau)), s = D / 2m, w = sqrt(K / m - s^2), y0 = -p_eq,
// B = (-v0 + s y0) / w. Underdamped: D < 2 sqrt(K m).
struct SoftImpact {
  double m, g, K, D, v0, s, w, peq, y0, B;
  SoftImpact(double m_, double g_, double K_, double D_, double v0_)
      : m(m_), g(g_), K(K_), D(D_), v0(v0_), s(D_ / (2 * m_)), w(std::sqrt(K_ / m_ - s * s)), peq(-m_ * g_ / K_),
        y0(-peq), B((-v0_ + s * y0) / w) {}
  double p(double t) const { return peq + std::exp(-s * t) * (y0 * std::cos(w * t) + B * std::sin(w * t)); }
  double pdot(double t) const {
    return std::exp(-s * t) * ((-s * y0 + w * B) * std::cos(w * t) + (-s * B - w * y0) * std::sin(w * t));
  }
  double force(double t) const { return -K * p(t) - D * pdot(t); }  // Eq. 11.75 with z = p
  // The release: the first root of force(t) (force(0) = D v0 > 0). It comes before p is back at 0:
  // there pdot = -K p / D > 0, the damper balancing the spring.
  double release() const { return first_sign_change([this](double t) { return force(t); }, 1e-3 / w); }
  // The deepest point: the first root of pdot (pdot(0) = -v0 < 0).
  double deepest() const { return first_sign_change([this](double t) { return pdot(t); }, 1e-3 / w); }
  // The speed at which the body rises back through p = 0 after the release (free flight from
  // (p_r, pdot_r)): what sets the next apex, (that)^2 / (2 g) above the surface.
  double rebound_speed() const {
    const double t = release(), v = pdot(t);
    return std::sqrt(v * v + 2 * g * p(t));
  }
  // A step of length h that contains the release integrates a force continuous there but with a
  // kink: its slope jumps by Delta = |K v_r - D g| / m. Simpson's rule -- RK4 on a time-dependent
  // force -- errs by at most Delta h^2 / 24 on such an integrand (worst kink position, half-way);
  // twice that bounds the velocity error the step leaves (its position error is at most h times
  // it).
  double kink_velocity_bound(double h) const {
    const double vr = pdot(release());
    return 2 * std::abs(K * vr - D * g) / m * h * h / 24;
  }
};

// The limits without gravity (g = 0), functions of the damping ratio zeta = D / (2 sqrt(K m)) and
// omega_n = sqrt(K / m) alone. Then p = -(v0 / w) exp(-s t) sin(w t), w = omega_n sqrt(1 - zeta^2),
// and the force is m v0 omega_n exp(-s t) ((1 - 2 zeta^2) sin(w t) / sqrt(1 - zeta^2) + 2 zeta cos(w t)),
// zero at w t = pi - 2 asin(zeta) (tan(2 asin zeta) = 2 zeta sqrt(1 - zeta^2) / (1 - 2 zeta^2)),
// where pdot = v0 exp(-s t): the restitution of one impact is exp(-zeta (pi - 2 asin zeta) /
// sqrt(1 - zeta^2)) -- not exp(-zeta pi / sqrt(1 - zeta^2)), the ratio at p = 0, which the
// force, pulling by then, never reaches. pdot = 0 at w t = acos(zeta), depth
// (v0 / omega_n) exp(-zeta acos(zeta) / sqrt(1 - zeta^2)): 1 / sqrt(K) at fixed zeta.
inline double soft_restitution(double zeta) {
  return std::exp(-zeta * (M_PI - 2 * std::asin(zeta)) / std::sqrt(1 - zeta * zeta));
}
inline double soft_contact_time(double zeta, double omega_n) {
  return (M_PI - 2 * std::asin(zeta)) / (omega_n * std::sqrt(1 - zeta * zeta));
}
inline double soft_depth(double zeta, double omega_n, double v0) {
  return v0 / omega_n * std::exp(-zeta * std::acos(zeta) / std::sqrt(1 - zeta * zeta));
}

}  // namespace rbd::verify
