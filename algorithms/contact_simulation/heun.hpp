#pragma once
// Heun's second-order method in the form Featherstone gives (Eq. 11.50) and its interpolating
// polynomial (Eq. 11.51), for the state y = (q, qd) of a tree:
//   k1 = f(y0),  k2 = f(y0 + (2/3) h k1),  y1 = y0 + h (k1/4 + 3 k2/4),
//   y(delta) = y0 + h ((delta - 3 delta^2 / 4) k1 + (3 delta^2 / 4) k2),  0 <= delta <= 1,
// so y(1) = y1 and a step can be cut back to any fraction delta of itself (section 11.5,
// "Interpolating an integration time step"). The velocity part of k is (qd, qdd); the position
// part is applied with model/configuration.hpp's integrate, so spherical and free joints move on
// their group (the increment is a velocity times a time, as Eq. 11.51's polynomial says).
// Under a constant acceleration (a body in flight under gravity) both are exact.
#include "model/configuration.hpp"

namespace rbd::simulation {

template <class S> struct HeunStep {
  VecX<S> q0, qd0, qdd0;  // y0 and k1 = (qd0, qdd0)
  VecX<S> q2, qd2, qdd2;  // the stage point y0 + (2/3) h k1 and k2 = (qd2, qdd2)
  S h = S(0);

  // The stage point, at which the caller evaluates qdd2 = f(q2, qd2).
  void begin(const Model<S>& m, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd, const S& step) {
    q0 = q; qd0 = qd; qdd0 = qdd; h = step;
    const S c = S(2) * h / S(3);
    q2 = integrate(m, q0, qd0, c);
    qd2 = qd0 + c * qdd0;
    qdd2.resize(qdd.size());  // the caller writes f(q2, qd2) here
  }

  // y(delta) of Eq. 11.51 (delta = 1: Eq. 11.50's y1).
  void at(const Model<S>& m, const S& delta, VecX<S>& q, VecX<S>& qd) const {
    const S w2 = S(3) * delta * delta / S(4), w1 = delta - w2;
    q = integrate(m, q0, VecX<S>(w1 * qd0 + w2 * qd2), h);
    qd = qd0 + h * (w1 * qdd0 + w2 * qdd2);
  }
};

}  // namespace rbd::simulation
