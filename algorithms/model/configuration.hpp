#pragma once
// Configuration-space operations for the joints of model/joint.hpp, scalar-generic:
//   neutral_configuration(model)       q at which every joint frame F_s coincides with F_p
//   qdot(model, q, v)                  dq/dt from the velocity variables v (= qd of jcalc)
//   integrate(model, q, v, dt)         q (+) v dt: the configuration reached from q by
//                                      holding the joint velocity v constant for time dt
//   normalize_quaternions(model, q)    rescale the quaternions of q to unit length
// with the per-joint forms joint_qdot / joint_integrate (the joint_qdot that joint.hpp's
// header comment refers to).
//
// Joint conventions are those of joint.hpp. Per joint (v = the joint's velocity variables):
//  - Revolute, Prismatic, Helical, Cylindrical: q' = v, integrate: q + v dt (exact: these
//    joints' configuration spaces are flat in their variables).
//  - Spherical: q = unit quaternion [w x y z] of F_s's orientation in F_p, v = omega in F_s
//    coordinates. R = quat_to_matrix(q) maps F_s to F_p coordinates and R' = R [omega]x, so
//      q' = 1/2 q (x) [0; omega],  integrate: q (x) exp(omega dt),
//    exp(phi) = [cos(|phi|/2); sin(|phi|/2) phi/|phi|] (body-frame increment on the right).
//  - Free: q = [quaternion; p], p = F_s origin in F_p coordinates; v = [omega; v_O], the
//    body twist in F_s coordinates (v_O = velocity of F_s's origin). p' = R v_O, and a
//    constant body twist gives g(dt) = g exp(dt v^) on SE(3) (right multiplication):
//      quaternion: q (x) exp(omega dt);  p: p + R V(phi) rho,  phi = omega dt, rho = v_O dt,
//      V(phi) = 1 + B [phi]x + C [phi]x^2,  B = (1 - cos t)/t^2,  C = (t - sin t)/t^3,  t = |phi|.
//  - Planar: q = (theta, x, y), positions in F_p coordinates; v = (omega_z, v_x, v_y) in F_s
//    coordinates (joint.hpp, Example 4.5). R(theta) = rz(theta)^T (2x2 block), so
//      theta' = omega, (x, y)' = R(theta) (v_x, v_y), and on SE(2)
//      integrate: theta + phi, p + R(theta) [A -B'; B' A] rho,  A = sin(phi)/phi,
//      B' = (1 - cos phi)/phi, phi = omega dt, rho = (v_x, v_y) dt.
// Every coefficient with an angle in a denominator is evaluated, for |angle| < 1, by its
// alternating Taylor series summed until the terms fall below the scalar's epsilon (so it
// is accurate in double and in the 50-digit Reference alike, with no division by a small
// angle and no cancellation); for |angle| >= 1 by the closed form, whose cancellation then
// costs at most a few ulps. The quaternions that integrate() returns are renormalised (one
// sqrt), so that rounding does not accumulate in the norm over many steps.
//
// All math goes through sin_/cos_/sqrt_/abs_ (ADL), constants are S(small integer), and the
// series terms count with the counting scalar like any other arithmetic.
#include <type_traits>

#include <Eigen/Core>

#include "model/model.hpp"

namespace rbd {

namespace config_detail {

// sum_{k >= 0} (-x)^k / (2k + m)!, summed until a term no longer changes the sum. For x = t^2:
//   m = 0: cos t,   m = 1: sin t / t,   m = 2: (1 - cos t) / t^2,   m = 3: (t - sin t) / t^3.
// Intended for 0 <= x < 1, where the terms fall off factorially (~20 terms for 50 digits).
template <class S> S alt_series(const S& x, int m) {
  S term = S(1);
  for (int i = 2; i <= m; ++i) term = term / S(i);
  S sum = term;
  const S eps = Eigen::NumTraits<S>::epsilon();
  for (int k = 1; k < 200; ++k) {
    term = -term * x / S((2 * k + m - 1) * (2 * k + m));
    sum += term;
    if (abs_(term) <= eps * abs_(sum)) break;
  }
  return sum;
}

// exp(phi) as a unit quaternion [w x y z] = [cos(t/2); sin(t/2)/t phi], t = |phi|.
template <class S> Eigen::Matrix<S, 4, 1> quat_exp(const Vec3<S>& phi) {
  const S t2 = phi.dot(phi);
  S c, s_over_t;
  if (t2 < S(1)) {
    const S h2 = t2 / S(4);                      // (t/2)^2
    c = alt_series(h2, 0);                       // cos(t/2)
    s_over_t = alt_series(h2, 1) / S(2);         // sin(t/2)/t = (1/2) sin(t/2)/(t/2)
  } else {
    const S t = sqrt_(t2);
    c = cos_(t / S(2));
    s_over_t = sin_(t / S(2)) / t;
  }
  Eigen::Matrix<S, 4, 1> r;
  r << c, s_over_t * phi[0], s_over_t * phi[1], s_over_t * phi[2];
  return r;
}

// Hamilton product a (x) b of quaternions [w x y z].
template <class S, class A, class B> Eigen::Matrix<S, 4, 1> quat_mul(const A& a, const B& b) {
  Eigen::Matrix<S, 4, 1> r;
  r << a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
       a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
       a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
       a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
  return r;
}

template <class S> Eigen::Matrix<S, 4, 1> quat_normalized(const Eigen::Matrix<S, 4, 1>& q) {
  return q / sqrt_(S(q.dot(q)));
}

// B = (1 - cos t)/t^2 and C = (t - sin t)/t^3 of the SE(3) left Jacobian V, t^2 = phi.phi.
template <class S> void se3_coefficients(const S& t2, S& B, S& C) {
  if (t2 < S(1)) {
    B = alt_series(t2, 2);
    C = alt_series(t2, 3);
  } else {
    const S t = sqrt_(t2);
    B = (S(1) - cos_(t)) / t2;
    C = (t - sin_(t)) / (t2 * t);
  }
}

}  // namespace config_detail

// dq/dt of one joint. q and v are this joint's slices (nq and nv long); out is nq long.
template <class S, class QIn, class VIn, class QOut>
inline void joint_qdot(const Joint<S>& j, const QIn& q, const VIn& v, QOut&& out) {
  switch (j.type) {
    case JointType::Revolute:
    case JointType::Prismatic:
    case JointType::Helical:
    case JointType::Cylindrical:
      for (int k = 0; k < j.nv(); ++k) out[k] = v[k];
      break;
    case JointType::Planar: {
      const S c = cos_(S(q[0])), s = sin_(S(q[0]));
      out[0] = v[0];
      out[1] = c * v[1] - s * v[2];  // R(theta) (v_x, v_y), R = rz(theta)^T
      out[2] = s * v[1] + c * v[2];
      break;
    }
    case JointType::Spherical:
    case JointType::Free: {
      const Eigen::Matrix<S, 4, 1> quat(q[0], q[1], q[2], q[3]);
      const Eigen::Matrix<S, 4, 1> w(S(0), v[0], v[1], v[2]);
      const Eigen::Matrix<S, 4, 1> qd = config_detail::quat_mul<S>(quat, w);
      for (int k = 0; k < 4; ++k) out[k] = qd[k] / S(2);
      if (j.type == JointType::Free) {
        const Mat3<S> R = quat_to_matrix<S>(q[0], q[1], q[2], q[3]);  // F_s -> F_p
        const Vec3<S> pd = R * Vec3<S>(v[3], v[4], v[5]);
        for (int k = 0; k < 3; ++k) out[4 + k] = pd[k];
      }
      break;
    }
  }
}

// q (+) v dt for one joint. q, v: this joint's slices; out: nq long (may not alias q).
template <class S, class QIn, class VIn, class QOut>
inline void joint_integrate(const Joint<S>& j, const QIn& q, const VIn& v, const std::type_identity_t<S>& dt,
                            QOut&& out) {
  using config_detail::alt_series;
  switch (j.type) {
    case JointType::Revolute:
    case JointType::Prismatic:
    case JointType::Helical:
    case JointType::Cylindrical:
      for (int k = 0; k < j.nv(); ++k) out[k] = q[k] + v[k] * dt;
      break;
    case JointType::Planar: {
      const S phi = v[0] * dt;
      const S rx_ = v[1] * dt, ry_ = v[2] * dt;
      const S phi2 = phi * phi;
      S A, B;  // sin(phi)/phi, (1 - cos phi)/phi
      if (phi2 < S(1)) {
        A = alt_series(phi2, 1);
        B = phi * alt_series(phi2, 2);
      } else {
        A = sin_(phi) / phi;
        B = (S(1) - cos_(phi)) / phi;
      }
      const S dx = A * rx_ - B * ry_, dy = B * rx_ + A * ry_;  // V(phi) rho in F_s axes
      const S c = cos_(S(q[0])), s = sin_(S(q[0]));
      out[0] = q[0] + phi;
      out[1] = q[1] + (c * dx - s * dy);
      out[2] = q[2] + (s * dx + c * dy);
      break;
    }
    case JointType::Spherical:
    case JointType::Free: {
      const Vec3<S> phi = Vec3<S>(v[0], v[1], v[2]) * dt;
      const Eigen::Matrix<S, 4, 1> quat(q[0], q[1], q[2], q[3]);
      const Eigen::Matrix<S, 4, 1> qn =
          config_detail::quat_normalized<S>(config_detail::quat_mul<S>(quat, config_detail::quat_exp<S>(phi)));
      for (int k = 0; k < 4; ++k) out[k] = qn[k];
      if (j.type == JointType::Free) {
        const Vec3<S> rho = Vec3<S>(v[3], v[4], v[5]) * dt;
        S B, C;
        config_detail::se3_coefficients<S>(S(phi.dot(phi)), B, C);
        const Vec3<S> pxr = phi.cross(rho);
        const Vec3<S> Vrho = rho + B * pxr + C * phi.cross(pxr);  // V(phi) rho
        const Mat3<S> R = quat_to_matrix<S>(q[0], q[1], q[2], q[3]);  // at the start of the step
        const Vec3<S> dp = R * Vrho;
        for (int k = 0; k < 3; ++k) out[4 + k] = q[4 + k] + dp[k];
      }
      break;
    }
  }
}

// q with every joint at its zero: 0 for the scalar variables, the identity quaternion
// [1 0 0 0] for spherical and free joints (F_s = F_p, Table 4.1's convention).
template <class S> VecX<S> neutral_configuration(const Model<S>& model) {
  VecX<S> q = VecX<S>::Zero(model.nq);
  for (int i = 0; i < model.nb; ++i) {
    const JointType t = model.joint[i].type;
    if (t == JointType::Spherical || t == JointType::Free) q[model.q_idx[i]] = S(1);
  }
  return q;
}

// dq/dt for the velocity variables v (nq long).
template <class S> VecX<S> qdot(const Model<S>& model, const VecX<S>& q, const VecX<S>& v) {
  VecX<S> out(model.nq);
  for (int i = 0; i < model.nb; ++i) {
    const Joint<S>& j = model.joint[i];
    joint_qdot(j, q.segment(model.q_idx[i], j.nq()), v.segment(model.v_idx[i], j.nv()),
               out.segment(model.q_idx[i], j.nq()));
  }
  return out;
}

// q (+) v dt, joint by joint (each joint's exact flow for constant v), into out (nq entries, not
// resized: a caller's loop allocates nothing). out must not alias q.
template <class S>
void integrate_into(const Model<S>& model, const VecX<S>& q, const VecX<S>& v, const std::type_identity_t<S>& dt,
                    VecX<S>& out) {
  for (int i = 0; i < model.nb; ++i) {
    const Joint<S>& j = model.joint[i];
    joint_integrate(j, q.segment(model.q_idx[i], j.nq()), v.segment(model.v_idx[i], j.nv()), dt,
                    out.segment(model.q_idx[i], j.nq()));
  }
}

// The same, returned. dt is not deduced, so integrate(model, q, v, 0.01) works for any S.
template <class S>
VecX<S> integrate(const Model<S>& model, const VecX<S>& q, const VecX<S>& v, const std::type_identity_t<S>& dt) {
  VecX<S> out(model.nq);
  integrate_into<S>(model, q, v, dt, out);
  return out;
}

// Divides each spherical/free joint's quaternion by its norm.
template <class S> void normalize_quaternions(const Model<S>& model, VecX<S>& q) {
  for (int i = 0; i < model.nb; ++i) {
    const JointType t = model.joint[i].type;
    if (t != JointType::Spherical && t != JointType::Free) continue;
    const int k = model.q_idx[i];
    const S n = sqrt_(S(q[k] * q[k] + q[k + 1] * q[k + 1] + q[k + 2] * q[k + 2] + q[k + 3] * q[k + 3]));
    for (int c = 0; c < 4; ++c) q[k + c] = q[k + c] / n;
  }
}

}  // namespace rbd
