#pragma once
// Cases and comparisons for the constraints family (algorithms/constraints/, seed 001):
// random trajectories of two bodies with markers and a motion law for the AD oracle
// (reference/lock_oracle.hpp), the algorithm's inputs read off the oracle's jets, random
// states that satisfy a mask's locked rows exactly, and digit counts.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "cases/random.hpp"
#include "constraints/lock_constraint.hpp"
#include "reference/lock_oracle.hpp"
#include "reference/reference_scalar.hpp"

namespace rbd::verify::constraints {

using R = Reference;
namespace lo = oracle::lock;

// Unit vectors and quaternions drawn in double, cast exactly, then normalised in Reference
// (a double unit vector is unit only to ~1e-16, which would cap every comparison there).
inline Vec3<R> unit3(cases::Rng& rng) {
  const Vec3<double> n = rng.unit_vector();
  const Vec3<R> m(R(n.x()), R(n.y()), R(n.z()));
  return m / sqrt_(R(m.squaredNorm()));
}
inline Quaternion<R> unit_quaternion(cases::Rng& rng) {
  const Eigen::Vector4d q = rng.unit_quaternion();
  Quaternion<R> p{R(q[0]), Vec3<R>(R(q[1]), R(q[2]), R(q[3]))};
  return R(1) / sqrt_(p.squared_norm()) * p;
}
inline Vec3<R> vec3(cases::Rng& rng, double lo, double hi) {
  return Vec3<R>(R(rng.uniform(lo, hi)), R(rng.uniform(lo, hi)), R(rng.uniform(lo, hi)));
}

inline lo::A3<R> arr(const Vec3<R>& v) { return {v.x(), v.y(), v.z()}; }
inline Vec3<R> vec(const lo::A3<R>& a) { return Vec3<R>(a[0], a[1], a[2]); }
inline Quaternion<R> quat(const lo::A4<R>& a) { return Quaternion<R>{a[0], Vec3<R>(a[1], a[2], a[3])}; }

// A random trajectory case. moving = false freezes the law (d, q_Delta constant: scleronomic).
inline lo::LockCase<R> random_case(std::uint64_t seed, bool rheonomic) {
  cases::Rng rng(seed);
  auto angle = [&](bool moves) {
    lo::Angle<R> g{arr(unit3(rng)), R(rng.uniform(-3, 3)), R(rng.uniform(-2, 2)), R(rng.uniform(-2, 2))};
    if (!moves) g.th1 = g.th2 = R(0);
    return g;
  };
  auto orientation = [&](bool moves) { return lo::Orientation<R>{angle(moves), angle(moves)}; };
  auto path = [&](bool moves) {
    lo::Path<R> p{arr(vec3(rng, -1, 1)), arr(vec3(rng, -1, 1)), arr(vec3(rng, -1, 1))};
    if (!moves) p.p1 = p.p2 = lo::A3<R>{R(0), R(0), R(0)};
    return p;
  };
  lo::LockCase<R> c;
  c.xA = path(true);
  c.xB = path(true);
  c.qA = orientation(true);
  c.qB = orientation(true);
  c.uP = arr(vec3(rng, -1, 1));
  c.uS = arr(vec3(rng, -1, 1));
  c.qP = orientation(false);
  c.qS = orientation(false);
  c.d = path(rheonomic);
  c.qD = orientation(rheonomic);
  return c;
}

// The algorithm's view of the oracle's motion at one instant.
struct Inputs {
  LockConstraint<R> lock;
  BodyPose<R> A, B;
  BodyRates<R> rA, rB;    // first derivatives of the 7 coordinates
  BodyRates<R> aA, aB;    // second derivatives
  BodyTwist<R> tA, tB;    // (x_dot, omega_body)
  BodyTwist<R> sA, sB;    // (x_ddot, alpha_body)
};
inline Inputs inputs(const lo::LockCase<R>& c, const lo::LockMotion<R>& m) {
  Inputs in;
  in.lock.marker_P = Marker<R>{vec(c.uP), quat(m.qP)};
  in.lock.marker_S = Marker<R>{vec(c.uS), quat(m.qS)};
  in.lock.law = MotionLaw<R>{vec(m.d.v[0]), vec(m.d.v[1]), vec(m.d.v[2]), quat(m.qD.v[0]), quat(m.qD.v[1]), quat(m.qD.v[2])};
  auto body = [](const lo::BodyMotion<R>& b, BodyPose<R>& p, BodyRates<R>& r, BodyRates<R>& a, BodyTwist<R>& t, BodyTwist<R>& s) {
    p = BodyPose<R>{vec(b.x.v[0]), quat(b.q.v[0])};
    r = BodyRates<R>{vec(b.x.v[1]), quat(b.q.v[1])};
    a = BodyRates<R>{vec(b.x.v[2]), quat(b.q.v[2])};
    t = BodyTwist<R>{vec(b.x.v[1]), vec(b.omega_body)};
    s = BodyTwist<R>{vec(b.x.v[2]), vec(b.alpha_body)};
  };
  body(m.A, in.A, in.rA, in.aA, in.tA, in.sA);
  body(m.B, in.B, in.rB, in.aB, in.tB, in.sB);
  return in;
}

inline Eigen::Matrix<R, 14, 1> stack7(const BodyRates<R>& a, const BodyRates<R>& b) {
  Eigen::Matrix<R, 14, 1> v;
  v << a.x_dot, as_vec4(a.q_dot), b.x_dot, as_vec4(b.q_dot);
  return v;
}
inline Eigen::Matrix<R, 12, 1> stack6(const BodyTwist<R>& a, const BodyTwist<R>& b) {
  Eigen::Matrix<R, 12, 1> v;
  v << a.x_dot, a.omega, b.x_dot, b.omega;
  return v;
}
inline Vec6<R> row6(const std::array<R, 6>& a) {
  Vec6<R> v;
  v << a[0], a[1], a[2], a[3], a[4], a[5];
  return v;
}

// Agreement in significant digits: -log10(|x - y|_inf / max(1, |y|_inf)), capped at 50.
// Agreeing digits of x and y (relative to max(1, |y|_inf)); none (0) when either holds a NaN
// or inf, which maxCoeff and std::min would otherwise drop.
template <class A, class B> double digits(const A& xe, const B& ye) {
  const MatX<R> x = xe, y = ye;  // evaluated: the arguments may be expressions
  for (Eigen::Index k = 0; k < x.size(); ++k)
    if (!boost::multiprecision::isfinite(x.data()[k]) || !boost::multiprecision::isfinite(y.data()[k])) return 0.0;
  const R scale = std::max(R(1), R(y.cwiseAbs().maxCoeff()));
  const R err = R((x - y).cwiseAbs().maxCoeff()) / scale;
  if (err == 0) return 50.0;
  return std::min(50.0, -static_cast<double>(log10(err)));
}

// A state that satisfies a mask's locked rows exactly (to Reference rounding): body B, the
// markers and a static law are random; the relative pose of P in S is random in the free
// directions and zero in the locked ones (translation components of r - d; vector
// components of p = q_Delta* q_rel), and body A is solved from it:
//   q_A = q_B q_S q_rel q_P*,  x_A = x_B + A_B (A_S r + u_S) - A_A u_P.
// identity_law sets d = 0, q_Delta = 1: then S and P are the F_p and F_s of a Table 4.1 joint
// about z. half_turn puts p at a half turn (p_w = 0) about a free axis, where the quaternion
// constraint's rotational rows are least favourable.
struct ConsistentState {
  LockConstraint<R> lock;
  BodyPose<R> A, B;
};
inline ConsistentState consistent_state(unsigned mask, std::uint64_t seed, bool half_turn = false, bool identity_law = false) {
  cases::Rng rng(seed);
  ConsistentState s;
  s.lock.mask = mask;
  s.lock.marker_P = Marker<R>{vec3(rng, -1, 1), unit_quaternion(rng)};
  s.lock.marker_S = Marker<R>{vec3(rng, -1, 1), unit_quaternion(rng)};
  s.lock.law.d = vec3(rng, -1, 1);
  s.lock.law.q = unit_quaternion(rng);
  if (identity_law) s.lock.law = MotionLaw<R>{};
  s.B = BodyPose<R>{vec3(rng, -1, 1), unit_quaternion(rng)};
  Vec3<R> dr = vec3(rng, -1, 1);
  Quaternion<R> p = unit_quaternion(rng);
  if (half_turn) p.w = R(0);
  for (int k = 0; k < 3; ++k) {
    if (lock_row_active(mask, k)) dr[k] = R(0);
    if (lock_row_active(mask, 3 + k)) p.v[k] = R(0);
  }
  if (p.squared_norm() == 0) p.w = R(1);  // every vector row locked at a half turn: no such state
  p = R(1) / sqrt_(p.squared_norm()) * p;
  const Quaternion<R> q_rel = s.lock.law.q * p;
  s.A.q = s.B.q * s.lock.marker_S.q * q_rel * s.lock.marker_P.q.conjugate();
  const Vec3<R> r = s.lock.law.d + dr;
  s.A.x = s.B.x + s.B.q.matrix() * (s.lock.marker_S.q.matrix() * r + s.lock.marker_S.u) - s.A.q.matrix() * s.lock.marker_P.u;
  return s;
}

}  // namespace rbd::verify::constraints
