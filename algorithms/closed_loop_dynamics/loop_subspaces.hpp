#pragma once
// What jcalc returns for a loop joint (section 8.3, Table 8.1 and Eq. 8.23): the
// constraint-force subspace T, and the loop position error delta = T^T d of Eqs. 8.25-8.27.
// Both are in the loop joint's successor-frame coordinates, for the z-axis joints of
// model/loop_joint.hpp.
//
// T spans the forces the joint can transmit: every force with zero power on the joint's
// motion subspace S (T^T S = 0, Eq. 3.34's complement; force . motion is the plain dot
// product of Plucker coordinates). With S made of coordinate vectors of R^6, T is the other
// coordinate vectors; only the helical joint's S = e3 + h e6 needs the mixed column e6 - h e3.
//   weld        S = {}            T = e1..e6                  nc = 6
//   revolute    S = e3            T = e1 e2 e4 e5 e6          nc = 5
//   prismatic   S = e6            T = e1 e2 e3 e4 e5          nc = 5
//   helical     S = e3 + h e6     T = e1 e2 e4 e5 (e6 - h e3) nc = 5
//   cylindrical S = e3 e6         T = e1 e2 e4 e5             nc = 4
//   planar      S = e3 e4 e5      T = e1 e2 e6                nc = 3
//   spherical   S = e1 e2 e3      T = e4 e5 e6                nc = 3
// (e1..e3 angular, e4..e6 linear: rbdlab's angular-first order.) So T^T m selects entries of
// m (apply_T below), which is how Table 8.4's products T^T (...) are computed here.
#include "model/loop_joint.hpp"
#include "core/so3.hpp"

#include <cmath>

namespace rbd::loops {

// T^T m for a spatial vector m in successor-frame coordinates: the nc entries of m that the
// joint constrains (the helical joint's last one is m6 - h m3).
template <class S>
RBD_INLINE void apply_T(LoopJointType t, const S& pitch, const Vec6<S>& m, S* out) {
  switch (t) {
    case LoopJointType::Weld:
      for (int c = 0; c < 6; ++c) out[c] = m[c];
      return;
    case LoopJointType::Revolute:
      out[0] = m[0]; out[1] = m[1]; out[2] = m[3]; out[3] = m[4]; out[4] = m[5];
      return;
    case LoopJointType::Prismatic:
      for (int c = 0; c < 5; ++c) out[c] = m[c];
      return;
    case LoopJointType::Helical:
      out[0] = m[0]; out[1] = m[1]; out[2] = m[3]; out[3] = m[4]; out[4] = m[5] - pitch * m[2];
      return;
    case LoopJointType::Cylindrical:
      out[0] = m[0]; out[1] = m[1]; out[2] = m[3]; out[3] = m[4];
      return;
    case LoopJointType::Planar:
      out[0] = m[0]; out[1] = m[1]; out[2] = m[5];
      return;
    case LoopJointType::Spherical:
      out[0] = m[3]; out[1] = m[4]; out[2] = m[5];
      return;
  }
}

// T as a 6 x nc matrix (for tests and readers; the algorithms use apply_T).
template <class S> Mat6N<S> constraint_subspace(LoopJointType t, const S& pitch) {
  const int nc = loop_joint_nc(t);
  Mat6N<S> T(6, nc);
  S col[6];
  for (int r = 0; r < 6; ++r) {  // T^T e_r is row r of T
    apply_T<S>(t, pitch, Vec6<S>::Unit(r), col);
    for (int c = 0; c < nc; ++c) T(r, c) = col[c];
  }
  return T;
}

// The motion subspace S of the loop joint (6 x dof), for tests: T^T S = 0 must hold.
template <class S> Mat6N<S> loop_motion_subspace(LoopJointType t, const S& pitch) {
  Mat6N<S> M = Mat6N<S>::Zero(6, loop_joint_dof(t));
  switch (t) {
    case LoopJointType::Weld: break;
    case LoopJointType::Revolute: M(2, 0) = S(1); break;
    case LoopJointType::Prismatic: M(5, 0) = S(1); break;
    case LoopJointType::Helical: M(2, 0) = S(1); M(5, 0) = pitch; break;
    case LoopJointType::Cylindrical: M(2, 0) = S(1); M(5, 1) = S(1); break;
    case LoopJointType::Planar: M(2, 0) = S(1); M(3, 1) = S(1); M(4, 2) = S(1); break;
    case LoopJointType::Spherical: M(0, 0) = S(1); M(1, 1) = S(1); M(2, 2) = S(1); break;
  }
  return M;
}

// T^a tau for an active loop joint (sections 8.4 and 8.6): the force its actuator or spring
// transmits, in successor-frame coordinates, from the joint's generalized force tau (dof
// values). T^a is any basis with S^T T^a = 1 (so tau . qd_J is the power it delivers, Eq. 3.34);
// the part of a force that S^T cannot see is a constraint force, which lambda absorbs, so the
// choice does not change qdd. Here T^a = S (S^T S)^-1: the coordinate vectors S is made of, and
// for the helical joint S / (1 + h^2).
template <class S> Vec6<S> active_force(LoopJointType t, const S& pitch, const S* tau) {
  Vec6<S> f = Vec6<S>::Zero();
  switch (t) {
    case LoopJointType::Weld: break;
    case LoopJointType::Revolute: f[2] = tau[0]; break;
    case LoopJointType::Prismatic: f[5] = tau[0]; break;
    case LoopJointType::Helical: {
      const S s = tau[0] / (S(1) + pitch * pitch);
      f[2] = s;
      f[5] = pitch * s;
      break;
    }
    case LoopJointType::Cylindrical: f[2] = tau[0]; f[5] = tau[1]; break;
    case LoopJointType::Planar: f[2] = tau[0]; f[3] = tau[1]; f[4] = tau[2]; break;
    case LoopJointType::Spherical: f[0] = tau[0]; f[1] = tau[1]; f[2] = tau[2]; break;
  }
  return f;
}

// delta = jcalc(type, X) of Table 8.1, X = ^{s,k}X_{p,k} (Eq. 8.24) given as rbdlab's (E, r):
// the 6x6 Plucker matrix is [E 0; -E r x, E] (Eq. 2.28), whose entries X_ij (1-based, as the
// table writes them) are read off below. Each formula is first order in the error d of
// Eqs. 8.25-8.26 (verify/test_closed_loops.cpp checks delta - T^T d = O(|d|^2) for every type).
// The table has no helical or planar entry; theirs are derived here the same way:
//  - with B = -E r x (X's lower-left block), B E^T = -(E r) x exactly, and for X close to a
//    joint transform its (1,2) entry is the successor origin's z offset: the revolute
//    formula's X41 X21 + X42 X22 (+ X43 X23, second order there) is (B E^T)_12;
//  - planar: delta = [d1 d2 d6] = [X23, -X13, r_z], r_z the successor origin's z in
//    predecessor coordinates (-(E^T B)_21 in the table's entries). Not (B E^T)_12, which is
//    that offset in successor coordinates: with the joint's in-plane translation p it picks
//    up -(w1 p_y - w2 p_x), first order in the tilt error (test_closed_loops.cpp, Table 8.1);
//  - helical: delta5 = d6 - h d3, and (B E^T)_12 = d6 + h theta, atan2(X12, X11) = theta + d3
//    to first order, so delta5 = (B E^T)_12 - h theta with theta = atan2(X12, X11) taken on the
//    turn nearest (B E^T)_12 / h (helical_angle): the principal angle alone jumps by 2 pi when
//    the joint passes a half turn, and delta5 would then jump by a whole pitch (2 pi h), which
//    Baumgarte's term would try to "correct" by driving the loop a turn along its screw.
template <class S> S helical_angle(const S& z, const S& pitch, S theta) {
  if (pitch == S(0)) return theta;
  const S pi = atan2_(S(0), S(-1));  // pi in S's precision
  // The whole number of turns between the two, rounded (in double: only its integer part
  // matters, so a tiny pitch cannot make a long loop of single turns).
  const double turns = static_cast<double>(S((z / pitch - theta) / (S(2) * pi)));
  if (!(std::abs(turns) < 1e15)) return theta;  // NaN, or a pitch too small to tell turns apart
  return theta + S(std::nearbyint(turns)) * S(2) * pi;
}
template <class S> void loop_position_error(LoopJointType t, const S& pitch, const Transform<S>& Xsp, S* delta) {
  const Mat3<S>& E = Xsp.E;
  const Mat3<S> B = -E * skew<S>(Xsp.r);
  // X(i, j), 1-based as in the table.
  auto X = [&](int i, int j) -> S { return i <= 3 ? (j <= 3 ? E(i - 1, j - 1) : S(0)) : (j <= 3 ? B(i - 4, j - 1) : E(i - 4, j - 4)); };
  const S half = S(1) / S(2);
  auto z_offset = [&] { return X(4, 1) * X(2, 1) + X(4, 2) * X(2, 2) + X(4, 3) * X(2, 3); };  // (B E^T)_12
  switch (t) {
    case LoopJointType::Weld:
      delta[0] = half * (X(2, 3) - X(3, 2));
      delta[1] = half * (X(3, 1) - X(1, 3));
      delta[2] = half * (X(1, 2) - X(2, 1));
      delta[3] = half * (X(5, 3) - X(6, 2));
      delta[4] = half * (X(6, 1) - X(4, 3));
      delta[5] = half * (X(4, 2) - X(5, 1));
      return;
    case LoopJointType::Revolute:
      delta[0] = X(2, 3);
      delta[1] = -X(1, 3);
      delta[2] = X(5, 3);
      delta[3] = -X(4, 3);
      delta[4] = X(4, 1) * X(2, 1) + X(4, 2) * X(2, 2);
      return;
    case LoopJointType::Prismatic:
      delta[0] = half * (X(2, 3) - X(3, 2));
      delta[1] = half * (X(3, 1) - X(1, 3));
      delta[2] = half * (X(1, 2) - X(2, 1));
      delta[3] = X(5, 3);
      delta[4] = -X(4, 3);
      return;
    case LoopJointType::Helical:
      delta[0] = X(2, 3);
      delta[1] = -X(1, 3);
      delta[2] = X(5, 3);
      delta[3] = -X(4, 3);
      delta[4] = z_offset() - pitch * helical_angle(z_offset(), pitch, atan2_(X(1, 2), X(1, 1)));
      return;
    case LoopJointType::Cylindrical:
      delta[0] = X(2, 3);
      delta[1] = -X(1, 3);
      delta[2] = X(5, 3);
      delta[3] = -X(4, 3);
      return;
    case LoopJointType::Planar:
      delta[0] = X(2, 3);
      delta[1] = -X(1, 3);
      delta[2] = Xsp.r[2];  // z of the successor origin in predecessor coordinates (see the note above)
      return;
    case LoopJointType::Spherical:
      delta[0] = X(5, 1) * X(3, 1) + X(5, 2) * X(3, 2) + X(5, 3) * X(3, 3);
      delta[1] = X(6, 1) * X(1, 1) + X(6, 2) * X(1, 2) + X(6, 3) * X(1, 3);
      delta[2] = X(4, 1) * X(2, 1) + X(4, 2) * X(2, 2) + X(4, 3) * X(2, 3);
      return;
  }
}

// The joint transform XJ(qJ) of a loop joint type (Table 4.1 with the z axis), used to build
// closed states (cases/loops.hpp) and in tests. qJ: revolute/prismatic/helical 1 value,
// cylindrical (angle, displacement), planar (angle, x, y), spherical a unit quaternion
// [w x y z], weld none.
template <class S> Transform<S> loop_joint_transform(LoopJointType t, const S& pitch, const S* qJ) {
  Transform<S> X;
  auto rot = [](const S& th) { return rz<S>(cos_(th), sin_(th)); };
  switch (t) {
    case LoopJointType::Weld: break;
    case LoopJointType::Revolute: X.E = rot(qJ[0]); break;
    case LoopJointType::Prismatic: X.r = Vec3<S>(S(0), S(0), qJ[0]); break;
    case LoopJointType::Helical: X.E = rot(qJ[0]); X.r = Vec3<S>(S(0), S(0), pitch * qJ[0]); break;
    case LoopJointType::Cylindrical: X.E = rot(qJ[0]); X.r = Vec3<S>(S(0), S(0), qJ[1]); break;
    case LoopJointType::Planar: X.E = rot(qJ[0]); X.r = Vec3<S>(qJ[1], qJ[2], S(0)); break;
    case LoopJointType::Spherical: X.E = quat_to_matrix<S>(qJ[0], qJ[1], qJ[2], qJ[3]).transpose(); break;
  }
  return X;
}

}  // namespace rbd::loops
