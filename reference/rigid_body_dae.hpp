#pragma once
// Independent vector field for the integration family's truth (issue 13, item 4): rigid bodies
// joined by spherical joints, written from scratch as a plain vector ODE in quaternion
// coordinates, for reference/extrapolation.hpp to integrate. Shares no code with
// algorithms/ (no Lie-group exp/dexp, no Pose, no constraint_jacobian/accelerations of
// algorithms/integration): its input is plain data (masses, inertias, joint points).
//
// State, 13 numbers per body i (y.segment<13>(13 i)):
//   q  (4)  unit quaternion [w x y z] of the body's COM frame (body -> space), scalar first;
//   r  (3)  centre of mass in space;
//   w  (3)  angular velocity in the body frame;
//   u  (3)  velocity of the centre of mass in space (u = r').
// Kinematics: q' = q (x) (0, w) / 2 (right product: w in the body frame), r' = u.
// Dynamics (Newton-Euler about the COM, Lagrange multipliers for the joints; seed 004 Eq. 3):
//   [M  J^T] [a  ]   [Q  ]      M = diag(Theta_i, m_i 1),  a = (w'_i, u'_i)
//   [J   0 ] [lam] = [eta],     Q = (-w_i x Theta_i w_i, m_i g)
// with g_k = R_i a_k + r_i - R_j b_k - r_j (space coordinates; R_j b_k + r_j := b_k for a joint
// to the ground), J V = g_k' and eta = -g_k'' at zero acceleration. Neither J nor eta is a
// hand-written formula: both come from forward-mode dual numbers (reference/dual.hpp) pushed
// through the point positions R(q) a + r along the kinematic flow:
//   J's column for velocity coordinate c is d/dt g along q' = q (x) (0, e_c) / 2 (or r' = e_c);
//   eta = -d^2/dt^2 g along q(t) with q' = q (x) (0, w)/2, q'' = q' (x) (0, w)/2, r'' = 0
//   (two nested duals with the same time direction: the eps1 eps2 part is the second derivative).
// The KKT matrix is solved whole by partial-pivoting LU (not the Schur complement the variants
// use), and its residual is checked.
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "reference/dual.hpp"
#include "reference/reference_scalar.hpp"

namespace rbd::oracle::dae {

using R = Reference;
using V3 = Eigen::Matrix<R, 3, 1>;
using M3 = Eigen::Matrix<R, 3, 3>;
using VecX = Eigen::Matrix<R, Eigen::Dynamic, 1>;
using MatX = Eigen::Matrix<R, Eigen::Dynamic, Eigen::Dynamic>;

inline constexpr int kGround = -1;
inline constexpr int kBodyState = 13;  // q, r, w, u

struct Body {
  R m;
  M3 Theta;  // about the COM, body frame
};
// Point a of body i (body frame, from its COM) coincides with point b of body j (body frame),
// or with the fixed point b in space when j = kGround.
struct Joint {
  int i = 0;
  V3 a;
  int j = kGround;
  V3 b;
};
struct Bodies {
  std::vector<Body> body;
  std::vector<Joint> joint;
  V3 gravity;  // space coordinates
  int n() const { return static_cast<int>(body.size()); }
  int nv() const { return 6 * n(); }
  int ng() const { return 3 * static_cast<int>(joint.size()); }
  int ny() const { return kBodyState * n(); }
};

template <class T> using Q4 = std::array<T, 4>;
template <class T> using P3 = std::array<T, 3>;

// p (x) s, Hamilton product, scalar first.
template <class T> Q4<T> qmul(const Q4<T>& p, const Q4<T>& s) {
  return {p[0] * s[0] - p[1] * s[1] - p[2] * s[2] - p[3] * s[3], p[0] * s[1] + p[1] * s[0] + p[2] * s[3] - p[3] * s[2],
          p[0] * s[2] - p[1] * s[3] + p[2] * s[0] + p[3] * s[1], p[0] * s[3] + p[1] * s[2] - p[2] * s[1] + p[3] * s[0]};
}
// q (x) (0, w) / 2 for a constant (plain-scalar) w.
template <class T> Q4<T> qrate(const Q4<T>& q, const V3& w) {
  const Q4<T> p = qmul<T>(q, Q4<T>{T(R(0)), T(w(0)), T(w(1)), T(w(2))});
  const R half = R(1) / R(2);
  return {p[0] * half, p[1] * half, p[2] * half, p[3] * half};
}
// R(q) a for a unit quaternion: a + 2 s (v x a) + 2 v x (v x a), v = (x, y, z), s = w.
template <class T> P3<T> rotate(const Q4<T>& q, const V3& a) {
  const T& s = q[0];
  const T c[3] = {q[2] * a(2) - q[3] * a(1), q[3] * a(0) - q[1] * a(2), q[1] * a(1) - q[2] * a(0)};  // v x a
  const T cc[3] = {q[2] * c[2] - q[3] * c[1], q[3] * c[0] - q[1] * c[2], q[1] * c[1] - q[2] * c[0]};  // v x (v x a)
  P3<T> out;
  for (int k = 0; k < 3; ++k) out[k] = T(a(k)) + (s * c[k] + cc[k]) * R(2);
  return out;
}

// Rotation matrix of a quaternion of any nonzero norm: the homogeneous quadratic form divided
// by |q|^2, so it is orthogonal for every q (the integrated q leaves the unit sphere only at
// the method's error).
inline M3 rotation(const VecX& y, int i) {
  const R w = y(kBodyState * i), x = y(kBodyState * i + 1), yy = y(kBodyState * i + 2), z = y(kBodyState * i + 3);
  const R n2 = w * w + x * x + yy * yy + z * z;
  M3 Rm;
  Rm << w * w + x * x - yy * yy - z * z, 2 * (x * yy - w * z), 2 * (x * z + w * yy),
        2 * (x * yy + w * z), w * w - x * x + yy * yy - z * z, 2 * (yy * z - w * x),
        2 * (x * z - w * yy), 2 * (yy * z + w * x), w * w - x * x - yy * yy + z * z;
  return Rm / n2;
}
// A unit quaternion of a rotation matrix (Shepperd: from the largest of 1 + tr, 1 + 2 R_kk - tr),
// for initial conditions given as matrices.
inline std::array<R, 4> quaternion(const M3& Rm) {
  using std::sqrt;
  const R tr = Rm.trace();
  std::array<R, 4> q;
  int k = -1;
  R best = tr;
  for (int d = 0; d < 3; ++d)
    if (Rm(d, d) > best) { best = Rm(d, d); k = d; }
  if (k < 0) {
    const R s = sqrt(1 + tr) * 2;
    q = {s / 4, (Rm(2, 1) - Rm(1, 2)) / s, (Rm(0, 2) - Rm(2, 0)) / s, (Rm(1, 0) - Rm(0, 1)) / s};
  } else {
    const int i = k, j = (k + 1) % 3, l = (k + 2) % 3;
    const R s = sqrt(1 + Rm(i, i) - Rm(j, j) - Rm(l, l)) * 2;
    q[0] = (Rm(l, j) - Rm(j, l)) / s;
    q[1 + i] = s / 4;
    q[1 + j] = (Rm(j, i) + Rm(i, j)) / s;
    q[1 + l] = (Rm(l, i) + Rm(i, l)) / s;
  }
  return q;
}

namespace detail {
inline void fail(const std::string& m) { throw std::invalid_argument("rbd::oracle::dae: " + m); }

// The body's quaternion normalised (exact unit to 50 digits; q' and q'' below keep |q| = 1 to
// second order, so the unit-quaternion rotation formula is exact for the derivatives taken).
inline Q4<R> unit_q(const VecX& y, int i) {
  using std::sqrt;
  Q4<R> q;
  for (int k = 0; k < 4; ++k) q[k] = y(kBodyState * i + k);
  const R n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (auto& c : q) c /= n;
  return q;
}

// Position of a joint's end point on body `i` (or the fixed point when i = kGround), with the
// body's quaternion and COM given as (nested) duals.
template <class T> P3<T> point(const Q4<T>& q, const P3<T>& r, const V3& a) {
  P3<T> p = rotate<T>(q, a);
  for (int k = 0; k < 3; ++k) p[k] += r[k];
  return p;
}
}  // namespace detail

inline void validate(const Bodies& s) {
  if (s.n() < 1) detail::fail("no bodies");
  for (int k = 0; k < s.n(); ++k)
    if (!(s.body[k].m > 0)) detail::fail("body " + std::to_string(k) + " has non-positive mass");
  for (size_t k = 0; k < s.joint.size(); ++k) {
    const Joint& J = s.joint[k];
    if (J.i < 0 || J.i >= s.n() || (J.j != kGround && (J.j < 0 || J.j >= s.n() || J.j == J.i)))
      detail::fail("joint " + std::to_string(k) + " names bodies that do not exist");
  }
}

// Position residual g_k (space coordinates) of every joint, stacked.
inline VecX position_residual(const Bodies& s, const VecX& y) {
  VecX g(s.ng());
  for (size_t k = 0; k < s.joint.size(); ++k) {
    const Joint& J = s.joint[k];
    auto end = [&](int body, const V3& p) -> V3 {
      if (body == kGround) return p;
      const P3<R> x = detail::point<R>(detail::unit_q(y, body), P3<R>{y(kBodyState * body + 4), y(kBodyState * body + 5),
                                                                       y(kBodyState * body + 6)}, p);
      return V3(x[0], x[1], x[2]);
    };
    g.segment<3>(3 * k) = end(J.i, J.a) - end(J.j, J.b);
  }
  return g;
}

// J (3 nj x 6 n, velocity coordinates (w_i, u_i) per body) and eta = -g'' at zero acceleration.
inline void constraint_rows(const Bodies& s, const VecX& y, MatX& J, VecX& eta) {
  using D1 = Dual<R>;
  using D2 = Dual<D1>;
  J = MatX::Zero(s.ng(), s.nv());
  eta = VecX::Zero(s.ng());
  for (size_t k = 0; k < s.joint.size(); ++k) {
    const Joint& jt = s.joint[k];
    for (int side = 0; side < 2; ++side) {
      const int body = side == 0 ? jt.i : jt.j;
      if (body == kGround) continue;
      const R sign = side == 0 ? R(1) : R(-1);
      const V3& a = side == 0 ? jt.a : jt.b;
      const Q4<R> q = detail::unit_q(y, body);
      const int o = kBodyState * body;
      const V3 r(y(o + 4), y(o + 5), y(o + 6)), w(y(o + 7), y(o + 8), y(o + 9)), u(y(o + 10), y(o + 11), y(o + 12));
      // J: one dual direction per velocity coordinate of the body.
      for (int c = 0; c < 6; ++c) {
        V3 e = V3::Zero();
        e(c % 3) = R(1);
        Q4<D1> qd;
        P3<D1> rd;
        const Q4<R> dq = c < 3 ? qrate<R>(q, e) : Q4<R>{R(0), R(0), R(0), R(0)};
        for (int l = 0; l < 4; ++l) qd[l] = D1(q[l], dq[l]);
        for (int l = 0; l < 3; ++l) rd[l] = D1(r(l), c < 3 ? R(0) : e(l));
        const P3<D1> p = detail::point<D1>(qd, rd, a);
        for (int l = 0; l < 3; ++l) J(3 * k + l, 6 * body + c) = sign * p[l].b;
      }
      // eta: second derivative along the flow of the body's own (constant) velocities.
      const Q4<R> q1 = qrate<R>(q, w), q2 = qrate<R>(q1, w);
      Q4<D2> qq;
      P3<D2> rr;
      for (int l = 0; l < 4; ++l) qq[l] = D2(D1(q[l], q1[l]), D1(q1[l], q2[l]));
      for (int l = 0; l < 3; ++l) rr[l] = D2(D1(r(l), u(l)), D1(u(l), R(0)));
      const P3<D2> p = detail::point<D2>(qq, rr, a);
      for (int l = 0; l < 3; ++l) eta(3 * k + l) -= sign * p[l].b.b;
    }
  }
}

// Velocity residual J V of every joint, stacked.
inline VecX velocity_residual(const Bodies& s, const VecX& y) {
  MatX J;
  VecX eta;
  constraint_rows(s, y, J, eta);
  VecX V(s.nv());
  for (int i = 0; i < s.n(); ++i) V.segment<6>(6 * i) = y.segment<6>(kBodyState * i + 7);
  return J * V;
}

inline R kinetic_energy(const Bodies& s, const VecX& y) {
  R T = 0;
  for (int i = 0; i < s.n(); ++i) {
    const V3 w = y.segment<3>(kBodyState * i + 7), u = y.segment<3>(kBodyState * i + 10);
    T += (w.dot(s.body[i].Theta * w) + s.body[i].m * u.squaredNorm()) / 2;
  }
  return T;
}
inline R potential_energy(const Bodies& s, const VecX& y) {
  R U = 0;
  for (int i = 0; i < s.n(); ++i) U -= s.body[i].m * s.gravity.dot(V3(y.segment<3>(kBodyState * i + 4)));
  return U;
}

// y' = f(y). Throws when the KKT matrix is singular to the working precision (dependent joints).
inline VecX rhs(const Bodies& s, const VecX& y) {
  const int n = s.n(), nv = s.nv(), ng = s.ng();
  MatX K = MatX::Zero(nv + ng, nv + ng);
  VecX b(nv + ng);
  for (int i = 0; i < n; ++i) {
    const V3 w = y.segment<3>(kBodyState * i + 7);
    K.block<3, 3>(6 * i, 6 * i) = s.body[i].Theta;
    K.block<3, 3>(6 * i + 3, 6 * i + 3) = M3::Identity() * s.body[i].m;
    b.segment<3>(6 * i) = -w.cross(V3(s.body[i].Theta * w));
    b.segment<3>(6 * i + 3) = s.body[i].m * s.gravity;
  }
  if (ng > 0) {
    MatX J;
    VecX eta;
    constraint_rows(s, y, J, eta);
    K.block(0, nv, nv, ng) = J.transpose();
    K.block(nv, 0, ng, nv) = J;
    b.tail(ng) = eta;
  }
  const Eigen::PartialPivLU<MatX> lu(K);
  const VecX z = lu.solve(b);
  // Partial-pivoting LU in 50 digits leaves a residual of ~1e-48 relative; 1e-35 is far above
  // that and far below any physical effect. Above it, K is singular to the working precision.
  // A NaN or inf in the state propagates into f (for the caller to see and report) instead of
  // being mistaken for a singular matrix.
  const R input = K.cwiseAbs().maxCoeff() + b.cwiseAbs().maxCoeff();
  const R scale = K.cwiseAbs().maxCoeff() * z.cwiseAbs().maxCoeff() + b.cwiseAbs().maxCoeff();
  if (boost::multiprecision::isfinite(input) && !((K * z - b).cwiseAbs().maxCoeff() <= R(1e-35) * scale))
    detail::fail("the KKT matrix [M J^T; J 0] is singular (dependent joints?)");
  VecX f(s.ny());
  for (int i = 0; i < n; ++i) {
    const int o = kBodyState * i;
    Q4<R> q;
    for (int l = 0; l < 4; ++l) q[l] = y(o + l);
    const Q4<R> qd = qrate<R>(q, V3(y.segment<3>(o + 7)));  // |q| kept exactly by the flow: q . q' = 0
    for (int l = 0; l < 4; ++l) f(o + l) = qd[l];
    f.segment<3>(o + 4) = y.segment<3>(o + 10);
    f.segment<6>(o + 7) = z.segment<6>(6 * i);
  }
  return f;
}

}  // namespace rbd::oracle::dae
