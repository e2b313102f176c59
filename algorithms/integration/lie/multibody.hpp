#pragma once
// A multibody system in absolute coordinates (seed 004, Mueller & Terze, section 3): n rigid
// bodies, each with its own configuration C_i = (R_i, r_i) (r_i = its centre of mass in
// space, R_i its COM frame) and velocity, coupled by spherical joints, each to the ground or
// to another body, as holonomic constraints g(q) = 0 (Eq. 1c) with Lagrange multipliers.
// Sizes are bounded (kMaxBodies) so states and workspaces live on the stack.
#include <array>
#include <stdexcept>
#include <string>

#include "core/se3.hpp"

namespace rbd::integration {

inline constexpr int kMaxBodies = 3;
inline constexpr int kMaxJoints = 3;
inline constexpr int kMaxV = 6 * kMaxBodies;   // velocity coordinates
inline constexpr int kMaxG = 3 * kMaxJoints;   // constraint equations

template <class S> using VecV = Eigen::Matrix<S, Eigen::Dynamic, 1, 0, kMaxV, 1>;
template <class S> using MatGV = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxG, kMaxV>;
template <class S> using MatGG = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxG, kMaxG>;
template <class S> using VecG = Eigen::Matrix<S, Eigen::Dynamic, 1, 0, kMaxG, 1>;

// Mass m and inertia Theta about the centre of mass, in the body's COM frame (Eqs. 40, 54).
template <class S> struct Body {
  S m = S(1);
  Mat3<S> Theta = Mat3<S>::Identity();
};

// Spherical joint: point a of body i (COM-frame coordinates) coincides with point b of body
// j, or with the fixed point b in space when j = kGround. Residual in space coordinates:
// g = R_i a + r_i - (R_j b + r_j)   (Eq. 43; Eq. 38 is its body-frame form, see README).
inline constexpr int kGround = -1;
template <class S> struct Spherical {
  int i = 0;
  Vec3<S> a = Vec3<S>::Zero();
  int j = kGround;
  Vec3<S> b = Vec3<S>::Zero();
};

template <class S> struct System {
  int n = 0, nj = 0;
  std::array<Body<S>, kMaxBodies> body{};
  std::array<Spherical<S>, kMaxJoints> joint{};
  Vec3<S> gravity = Vec3<S>::Zero();  // in space coordinates

  int nv() const { return 6 * n; }
  int ng() const { return 3 * nj; }

  // Throws std::invalid_argument naming the body or joint at fault.
  void validate(const std::string& where) const {
    auto fail = [&](const std::string& what) { throw std::invalid_argument(where + ": " + what); };
    if (n < 1 || n > kMaxBodies) fail("number of bodies " + std::to_string(n) + " not in 1.." + std::to_string(kMaxBodies));
    if (nj < 0 || nj > kMaxJoints) fail("number of joints " + std::to_string(nj) + " not in 0.." + std::to_string(kMaxJoints));
    for (int k = 0; k < n; ++k) {
      const Body<S>& B = body[k];
      if (!(B.m > S(0))) fail("body " + std::to_string(k) + " has non-positive mass");
      const Mat3<S>& T = B.Theta;
      const S d1 = T(0, 0), d2 = T(0, 0) * T(1, 1) - T(0, 1) * T(1, 0), d3 = T.determinant();
      if (!(d1 > S(0) && d2 > S(0) && d3 > S(0)) || !((T - T.transpose()).norm() == S(0)))
        fail("body " + std::to_string(k) + " has an inertia that is not symmetric positive definite");
    }
    for (int k = 0; k < nj; ++k) {
      const Spherical<S>& J = joint[k];
      if (J.i < 0 || J.i >= n) fail("joint " + std::to_string(k) + " names body " + std::to_string(J.i) + " that does not exist");
      if (J.j != kGround && (J.j < 0 || J.j >= n || J.j == J.i))
        fail("joint " + std::to_string(k) + " connects body " + std::to_string(J.i) + " to invalid body " + std::to_string(J.j));
    }
  }

  template <class T> System<T> cast() const {
    System<T> s;
    s.n = n;
    s.nj = nj;
    for (int k = 0; k < n; ++k) s.body[k] = Body<T>{scalar_cast<T>(body[k].m), body[k].Theta.template cast<T>()};
    for (int k = 0; k < nj; ++k)
      s.joint[k] = Spherical<T>{joint[k].i, joint[k].a.template cast<T>(), joint[k].j, joint[k].b.template cast<T>()};
    s.gravity = gravity.template cast<T>();
    return s;
  }
};

// The state X = (q, V): configurations C_i and velocities V_i stacked (6 per body) in the
// convention of the configuration group in use (body-fixed twist on SE(3), hybrid
// (body angular, space linear) on SO(3)xR3; see lie/groups.hpp).
template <class S> struct State {
  std::array<se3::Pose<S>, kMaxBodies> C{};
  VecV<S> V;
  template <class T> State<T> cast() const {
    State<T> s;
    for (int k = 0; k < kMaxBodies; ++k) s.C[k] = se3::Pose<T>{C[k].R.template cast<T>(), C[k].r.template cast<T>()};
    s.V = V.template cast<T>();
    return s;
  }
};

// Position-level residual of joint k (Eq. 43), space coordinates.
template <class S> Vec3<S> joint_residual(const System<S>& sys, const State<S>& x, int k) {
  const Spherical<S>& J = sys.joint[k];
  const Vec3<S> pi = x.C[J.i].R * J.a + x.C[J.i].r;
  const Vec3<S> pj = J.j == kGround ? J.b : Vec3<S>(x.C[J.j].R * J.b + x.C[J.j].r);
  return pi - pj;
}

}  // namespace rbd::integration
