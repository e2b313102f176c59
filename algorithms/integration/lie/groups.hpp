#pragma once
// The two configuration groups of seed 004 (Mueller & Terze), as policies the integrators
// and the index-1 solve are written against. Both describe a body by C = (R, r); they differ
// in the velocity coordinates (Eq. 6 vs Eq. 20), hence in the Newton-Euler equations, the
// constraint Jacobian, and in how a Lie-algebra increment moves the configuration:
//
//   Se3Group   (section 2.1): V = (omega, v), v = R^T rdot (body-fixed twist, Eq. 6);
//              C <- C exp(X) on SE(3) (Eq. 13), dexp^-1 of SE(3).
//   So3R3Group (section 2.2): V = (omega, v^s), v^s = rdot (hybrid, Eq. 20);
//              (R, r) <- (R exp(w), r + u) (Eq. 18), dexp^-1 = diag(dexp^-1_w, I) (Eq. 19).
//
// Per body, about the centre of mass (Eqs. 40/42, 54 and the hybrid form after Eq. 64):
//   SE(3):    Theta wdot + w x Theta w = M,   m (vdot + w x v) = F (body coordinates)
//   SO(3)xR3: Theta wdot + w x Theta w = M,   m vdot^s = F^s       (space coordinates)
// Velocity of a body point a (COM-frame coordinates) in space: pdot = Jp V with
//   SE(3): Jp = [-R a^, R],  SO(3)xR3: Jp = [-R a^, I];
// and its velocity-product term (d/dt Jp) V, which enters eta = -Jdot V (Eq. 3):
//   SE(3): R (w x (w x a)) + R (w x v),  SO(3)xR3: R (w x (w x a)).
#include "integration/lie/multibody.hpp"

namespace rbd::integration {

template <class S> using Mat36 = Eigen::Matrix<S, 3, 6>;

struct Se3Group {
  static constexpr const char* name = "se3";
  template <class S> static Vec3<S> rdot(const se3::Pose<S>& C, const Vec6<S>& V) { return C.R * lin(V); }
  template <class S> static Vec6<S> from_physical(const se3::Pose<S>& C, const Vec3<S>& w, const Vec3<S>& rd) {
    return join<S>(w, C.R.transpose() * rd);
  }
  // Q = (M - w x Theta w, F - m w x v) with the gravity force F = R^T (m g).
  template <class S> static Vec6<S> bias(const Body<S>& B, const se3::Pose<S>& C, const Vec6<S>& V, const Vec3<S>& g) {
    const Vec3<S> w = ang(V), v = lin(V);
    return join<S>(-w.cross(B.Theta * w), C.R.transpose() * (B.m * g) - B.m * w.cross(v));
  }
  template <class S> static Mat36<S> point_jacobian(const se3::Pose<S>& C, const Vec3<S>& a) {
    Mat36<S> J;
    J.template block<3, 3>(0, 0) = -C.R * skew<S>(a);
    J.template block<3, 3>(0, 3) = C.R;
    return J;
  }
  template <class S> static Vec3<S> point_bias(const se3::Pose<S>& C, const Vec6<S>& V, const Vec3<S>& a) {
    const Vec3<S> w = ang(V);
    return C.R * (w.cross(w.cross(a)) + w.cross(lin(V)));
  }
  template <class S> static se3::Pose<S> retract(const se3::Pose<S>& C, const Vec6<S>& X) { return C * se3::exp<S>(X); }
  template <class S> static Mat6<S> dexp_inv(const Vec6<S>& X) { return se3::dexp_inv<S>(X); }
};

struct So3R3Group {
  static constexpr const char* name = "so3xr3";
  template <class S> static Vec3<S> rdot(const se3::Pose<S>&, const Vec6<S>& V) { return lin(V); }
  template <class S> static Vec6<S> from_physical(const se3::Pose<S>&, const Vec3<S>& w, const Vec3<S>& rd) {
    return join<S>(w, rd);
  }
  template <class S> static Vec6<S> bias(const Body<S>& B, const se3::Pose<S>&, const Vec6<S>& V, const Vec3<S>& g) {
    const Vec3<S> w = ang(V);
    return join<S>(-w.cross(B.Theta * w), B.m * g);
  }
  template <class S> static Mat36<S> point_jacobian(const se3::Pose<S>& C, const Vec3<S>& a) {
    Mat36<S> J;
    J.template block<3, 3>(0, 0) = -C.R * skew<S>(a);
    J.template block<3, 3>(0, 3) = Mat3<S>::Identity();
    return J;
  }
  template <class S> static Vec3<S> point_bias(const se3::Pose<S>& C, const Vec6<S>& V, const Vec3<S>& a) {
    const Vec3<S> w = ang(V);
    return C.R * w.cross(w.cross(a));
  }
  template <class S> static se3::Pose<S> retract(const se3::Pose<S>& C, const Vec6<S>& X) {
    return se3::Pose<S>{C.R * so3::exp<S>(ang(X)), C.r + lin(X)};
  }
  template <class S> static Mat6<S> dexp_inv(const Vec6<S>& X) {
    Mat6<S> m = Mat6<S>::Identity();
    m.template block<3, 3>(0, 0) = so3::dexp_inv<S>(ang(X));
    return m;
  }
};

}  // namespace rbd::integration
