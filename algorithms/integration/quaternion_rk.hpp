#pragma once
// Baseline a user would reach for: a classical Runge-Kutta method on the vector
// y = (q_i, r_i, omega_i, rdot_i) with unit quaternions q (scalar first) for the rotations,
// qdot = 1/2 q (x) (0, omega) (omega in the body frame), the hybrid velocities of
// So3R3Group for the dynamics (Eq. 3 with R = R(q/|q|) at each stage), and the quaternion
// renormalised after each step. The tableau is a parameter, as for the Lie schemes.
// The step interface takes and returns rotation matrices: q is recovered from R at the start
// of a step (Shepperd's method, branch on the largest of 1 + tr R, 1 + 2 R_kk - tr R).
#include "integration/lie/index1.hpp"
#include "integration/tableau.hpp"

namespace rbd::integration {

template <class S> using Quat = Eigen::Matrix<S, 4, 1>;  // [w x y z]

template <class S> Mat3<S> quat_to_rot(const Quat<S>& q) {
  const S w = q(0), x = q(1), y = q(2), z = q(3);
  Mat3<S> R;
  R << S(1) - S(2) * (y * y + z * z), S(2) * (x * y - w * z), S(2) * (x * z + w * y),
       S(2) * (x * y + w * z), S(1) - S(2) * (x * x + z * z), S(2) * (y * z - w * x),
       S(2) * (x * z - w * y), S(2) * (y * z + w * x), S(1) - S(2) * (x * x + y * y);
  return R;
}
template <class S> Quat<S> rot_to_quat(const Mat3<S>& R) {
  const S tr = R.trace();
  Quat<S> q;
  int k = -1;  // which of w, x, y, z is largest
  S best = tr;
  for (int d = 0; d < 3; ++d)
    if (R(d, d) > best) { best = R(d, d); k = d; }
  if (k < 0) {
    const S s = sqrt_(S(1) + tr) * S(2);  // 4 w
    q << s / S(4), (R(2, 1) - R(1, 2)) / s, (R(0, 2) - R(2, 0)) / s, (R(1, 0) - R(0, 1)) / s;
  } else {
    const int i = k, j = (k + 1) % 3, l = (k + 2) % 3;
    const S s = sqrt_(S(1) + R(i, i) - R(j, j) - R(l, l)) * S(2);  // 4 q_i
    q(0) = (R(l, j) - R(j, l)) / s;
    q(1 + i) = s / S(4);
    q(1 + j) = (R(j, i) + R(i, j)) / s;
    q(1 + l) = (R(l, i) + R(i, l)) / s;
  }
  return q;
}
// q (x) (0, w) / 2.
template <class S> Quat<S> quat_rate(const Quat<S>& q, const Vec3<S>& w) {
  Quat<S> d;
  d(0) = -(q(1) * w(0) + q(2) * w(1) + q(3) * w(2));
  d.template tail<3>() = q(0) * w + Vec3<S>(q.template tail<3>()).cross(w);
  return d / S(2);
}

struct QuaternionRk {
  using Group = So3R3Group;
  static constexpr const char* name = "quat_rk4";
  static constexpr const char* summary = "RK on (quaternion, position, hybrid velocity) vectors, renormalised each step";
  template <class S>
  static void step(const System<S>& sys, State<S>& x, const S& h, const Tableau<S>& tab) {
    std::array<Quat<S>, kMaxBodies> q0;
    std::array<std::array<Quat<S>, kMaxBodies>, kMaxStages> kq;
    std::array<std::array<Vec3<S>, kMaxBodies>, kMaxStages> kr;
    std::array<VecV<S>, kMaxStages> kV;
    for (int i = 0; i < sys.n; ++i) q0[i] = rot_to_quat<S>(x.C[i].R);
    State<S> y = x;
    for (int j = 0; j < tab.s; ++j) {
      y.V = x.V;
      for (int l = 0; l < j; ++l) y.V += (h * tab.a[j][l]) * kV[l];
      for (int i = 0; i < sys.n; ++i) {
        Quat<S> q = q0[i];
        Vec3<S> r = x.C[i].r;
        for (int l = 0; l < j; ++l) {
          q += (h * tab.a[j][l]) * kq[l][i];
          r += (h * tab.a[j][l]) * kr[l][i];
        }
        y.C[i] = se3::Pose<S>{quat_to_rot<S>(Quat<S>(q / q.norm())), r};
        kq[j][i] = quat_rate<S>(q, Vec3<S>(y.V.template segment<3>(6 * i)));
        kr[j][i] = y.V.template segment<3>(6 * i + 3);
      }
      accelerations<So3R3Group, S>(sys, y, kV[j]);
    }
    for (int i = 0; i < sys.n; ++i) {
      Quat<S> q = q0[i];
      for (int j = 0; j < tab.s; ++j) {
        q += (h * tab.b[j]) * kq[j][i];
        x.C[i].r += (h * tab.b[j]) * kr[j][i];
      }
      x.C[i].R = quat_to_rot<S>(Quat<S>(q / q.norm()));
    }
    for (int j = 0; j < tab.s; ++j) x.V += (h * tab.b[j]) * kV[j];
  }
};

}  // namespace rbd::integration
