#pragma once
// Independent oracle for the frames family (algorithms/frames/): a chain of frames moving
// along prescribed trajectories, chained as 4x4 homogeneous matrices (homogeneous.hpp) whose
// entries carry two nested dual numbers in time, so every velocity and acceleration is an
// exact time derivative of the pose, never a kinematic formula:
//   r_dot = dp/dt,  r_ddot = d(r_dot)/dt,
//   omega = vee(R^T dR/dt)  (the angular velocity in the moving frame),
//   alpha = d(omega)/dt     (omega itself differentiated by the inner dual).
// Each link i moves as p_i(t) = p0 + p1 t + p2 sin(t) and
// q_i(t) = q0 (x) exp(u theta(t) / 2) (x) exp(w phi(t) / 2), theta and phi quadratic in t,
// so its angular velocity turns in space. Shares no code with algorithms/.
#include <array>
#include <cmath>
#include <vector>

#include "reference/homogeneous.hpp"

namespace rbd::oracle {

template <class S> using V3 = std::array<S, 3>;

template <class S> struct LinkTrajectory {
  V3<S> p0, p1, p2;       // position of the child origin in the parent: p0 + p1 t + p2 sin t
  std::array<S, 4> q0;    // initial orientation, scalar first (normalised here)
  V3<S> u, w;             // the two rotation axes in the child (normalised here)
  V3<S> theta, phi;       // theta(t) = theta[0] + theta[1] t + theta[2] t^2, same for phi
};

// What the oracle reports for one frame relative to its parent, all in base precision.
template <class S> struct FrameKinematics {
  V3<S> r, r_dot, r_ddot, omega, alpha;
  std::array<std::array<S, 3>, 3> R;  // child to parent coordinates
  std::array<S, 4> q;                 // for single links: the trajectory's own quaternion
};

template <class S> using D2 = Dual<Dual<S>>;  // second order in time

namespace frame_oracle_detail {
template <class S> S root(const S& x) { using std::sqrt; return sqrt(x); }
template <class D> std::array<D, 4> qmul(const std::array<D, 4>& a, const std::array<D, 4>& b) {
  return {a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
          a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
          a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
          a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]};
}
// exp(n angle / 2) for a unit axis n, with angle a dual.
template <class S> std::array<D2<S>, 4> axis_quaternion(const V3<S>& n, const D2<S>& angle) {
  const SinCos<D2<S>> sc = sin_cos(angle * (S(1) / S(2)));
  return {sc.c, sc.s * n[0], sc.s * n[1], sc.s * n[2]};
}
template <class S> V3<S> unit(const V3<S>& a) {
  const S n = root(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  return {a[0] / n, a[1] / n, a[2] / n};
}
template <class S> D2<S> quadratic(const V3<S>& c, const D2<S>& t) { return c[0] + c[1] * t + c[2] * (t * t); }
}  // namespace frame_oracle_detail

// The link's pose at time t as a function of t (two nested infinitesimals, both seeding t),
// and its quaternion.
template <class S> Pose<D2<S>> link_pose(const LinkTrajectory<S>& L, const S& t0, std::array<D2<S>, 4>* q_out = nullptr) {
  using namespace frame_oracle_detail;
  using D = D2<S>;
  // t = t0 + e1 + e2: the e1 e2 coefficient of f(t) is f''(t0), the e1 or e2 one f'(t0).
  const D t(Dual<S>(t0, S(1)), Dual<S>(S(1), S(0)));
  const S nq = root(L.q0[0] * L.q0[0] + L.q0[1] * L.q0[1] + L.q0[2] * L.q0[2] + L.q0[3] * L.q0[3]);
  const std::array<D, 4> q0 = {D(L.q0[0] / nq), D(L.q0[1] / nq), D(L.q0[2] / nq), D(L.q0[3] / nq)};
  const std::array<D, 4> q = qmul(qmul(q0, axis_quaternion(unit(L.u), quadratic(L.theta, t))),
                                  axis_quaternion(unit(L.w), quadratic(L.phi, t)));
  if (q_out) *q_out = q;
  Pose<D> T;
  T.R = quaternion_rotation<D>(q[0], q[1], q[2], q[3]);
  const SinCos<D> st = sin_cos(t);
  for (int i = 0; i < 3; ++i) T.p[i] = L.p0[i] + L.p1[i] * t + L.p2[i] * st.s;
  return T;
}

// Velocities and accelerations of a pose that is a function of time, by differentiation.
template <class S> FrameKinematics<S> kinematics_of(const Pose<D2<S>>& T) {
  FrameKinematics<S> k;
  // R as a first-order dual (R + e R_dot) and R_dot likewise (R_dot + e R_ddot).
  Dual<S> R[3][3], Rd[3][3];
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      R[i][j] = T.R[i][j].a;
      Rd[i][j] = T.R[i][j].b;
      k.R[i][j] = T.R[i][j].a.a;
    }
    k.r[i] = T.p[i].a.a;
    k.r_dot[i] = T.p[i].b.a;
    k.r_ddot[i] = T.p[i].b.b;  // the derivative of r_dot
  }
  Dual<S> M[3][3];  // R^T R_dot = [omega]x, still a function of time through the dual
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) M[i][j] = R[0][i] * Rd[0][j] + R[1][i] * Rd[1][j] + R[2][i] * Rd[2][j];
  const S half = S(1) / S(2);
  const Dual<S> w[3] = {(M[2][1] - M[1][2]) * half, (M[0][2] - M[2][0]) * half, (M[1][0] - M[0][1]) * half};
  for (int i = 0; i < 3; ++i) {
    k.omega[i] = w[i].a;
    k.alpha[i] = w[i].b;  // d(omega)/dt
  }
  return k;
}

// One link relative to its parent, with its quaternion.
template <class S> FrameKinematics<S> link_kinematics(const LinkTrajectory<S>& L, const S& t0) {
  std::array<D2<S>, 4> q;
  FrameKinematics<S> k = kinematics_of(link_pose(L, t0, &q));
  for (int i = 0; i < 4; ++i) k.q[i] = q[i].a.a;
  return k;
}

// The last frame of the chain relative to the ground: T_0n = T_01 T_12 ... T_(n-1)n.
template <class S> FrameKinematics<S> chain_kinematics(const std::vector<LinkTrajectory<S>>& links, const S& t0) {
  Pose<D2<S>> T = identity_pose<D2<S>>();
  for (const LinkTrajectory<S>& L : links) T = compose<D2<S>>(T, link_pose(L, t0));
  FrameKinematics<S> k = kinematics_of(T);
  k.q = {S(0), S(0), S(0), S(0)};  // not defined for a product: compare R
  return k;
}

}  // namespace rbd::oracle
