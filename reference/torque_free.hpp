#pragma once
// Closed-form motion of a torque-free axisymmetric rigid body (Theta = diag(I1, I1, I3) in
// the body frame, no forces), the independent oracle for the integrators' rotation part.
// With body angular velocity w0 at R0 and space angular momentum L = R0 Theta w0 (constant),
//   R(t) = exp(t L^ / I1) R0 exp(-t Omega e3^),   Omega = (I3 - I1) w0_3 / I1,
// because then R^T Rdot = (R^T L)^/I1 - Omega e3^, i.e. w = L_body/I1 - Omega e3, which is
// Theta^-1 L_body for an axisymmetric Theta, and L_body = R^T L makes L constant (Euler's
// equations). The COM moves uniformly. Computed with reference/lie_series.hpp's series
// matrix exponential (no closed-form code shared with algorithms/).
#include "reference/lie_series.hpp"

namespace rbd::oracle {

struct TorqueFree {
  lie::R I1, I3;
  lie::M3 R0;
  lie::V3 w0, r0, rdot0;
  lie::M3 rotation(const lie::R& t) const {
    const lie::V3 L = R0 * lie::V3(I1 * w0(0), I1 * w0(1), I3 * w0(2));
    const lie::R Omega = (I3 - I1) * w0(2) / I1;
    return lie::expm<3>(lie::cross_matrix(L) * (t / I1)) * R0 *
           lie::expm<3>(lie::cross_matrix(lie::V3(0, 0, -Omega * t)));
  }
  lie::V3 position(const lie::R& t) const { return r0 + rdot0 * t; }
};

}  // namespace rbd::oracle
