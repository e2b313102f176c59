#pragma once
// Kinematic chains given by Denavit-Hartenberg parameters, Featherstone section 4.3.
//
// Convention: the book's, which follows the Springer Handbook of Robotics (Siciliano and
// Khatib 2008) -- the "modified" DH convention of Craig and Khalil-Kleinfinger, with the
// Handbook's numbering. For joint i (1-based):
//   z_i   lies on the axis of joint i; x_i is the common perpendicular from z_i to z_{i+1};
//   d_i   distance from x_{i-1} to x_i measured along z_i,
//   theta_i angle from x_{i-1} to x_i measured about z_i,
//   a_i   distance from z_{i-1} to z_i measured along x_{i-1} (a_i >= 0),
//   alpha_i angle from z_{i-1} to z_i measured about x_{i-1}.
// Body i's frame F_i = (x_i, y_i, z_i) has its origin on joint i's axis, so joint i is a
// Table 4.1 joint about/along z of F_i, and F_i is both the joint's successor frame and
// the body frame. The book's tree transform (all joints revolute) is
//   X_T(i) = xlt([a_i 0 d_i]) rotx(alpha_i)                              for i > 1,
//   X_T(1) = xlt([a_1 0 d_1]) rotx(alpha_1) rotz(theta_0) xlt([0 0 d_0]),
// with theta_i the joint variable. rbdlab writes the same transform as
//   X_T(i) = rotz(theta_off_i) xlt([0 0 d_i]) rotx(alpha_i) xlt([a_i 0 0])  (times `base` for i = 1),
// which equals the book's for theta_off = 0 (rotx commutes with an x translation, and
// xlt(d z) after rotx is the book's z part of xlt([a 0 d])), and also covers
//  - a revolute joint with a constant angle offset: theta_i = q_i + theta_off_i;
//  - a prismatic joint: d_i = q_i + d (d is then the constant offset), theta_i = theta_off_i
//    constant (rotz(theta_off) commutes with translation along z, so X_J = xlt([0 0 q]) can
//    stay on the left as Table 4.1 requires).
// `base` = rotz(theta_0) xlt([0 0 d_0]) (dh_base) locates F_0 in the fixed base frame; the
// identity when the base frame is F_0. The end-effector frame (the last four of the book's
// 4n+6 parameters) is not needed for dynamics and is not modelled.
//
// Angles that are exact multiples of pi/2 (as doubles: k * 1.5707963267948966) get exact
// cos/sin in {-1, 0, 1}, so rotx(-pi/2) is exactly a permutation with signs.
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cases/shapes.hpp"

namespace rbd::cases {

struct DhRow {
  double a = 0, alpha = 0, d = 0, theta_offset = 0;
  JointType type = JointType::Revolute;  // Revolute (q = theta - theta_offset) or Prismatic (q = d_i - d)
};

namespace detail {
// (cos x, sin x), exact at multiples of the double pi/2.
inline std::pair<double, double> cos_sin(double x) {
  const double half_pi = 1.5707963267948966;
  for (int k = -4; k <= 4; ++k)
    if (x == k * half_pi) {
      const int m = ((k % 4) + 4) % 4;
      const double c[4] = {1, 0, -1, 0}, s[4] = {0, 1, 0, -1};
      return {c[m], s[m]};
    }
  return {std::cos(x), std::sin(x)};
}
inline Transform<double> rotz_t(double th) {
  const auto [c, s] = cos_sin(th);
  return rot(rz<double>(c, s));
}
inline Transform<double> rotx_t(double al) {
  const auto [c, s] = cos_sin(al);
  return rot(rx<double>(c, s));
}
}  // namespace detail

// rotz(theta_0) xlt([0 0 d_0]): the book's base-to-F_0 part of X_T(1).
inline Transform<double> dh_base(double theta0, double d0) {
  return detail::rotz_t(theta0) * xlt(Vec3d(0, 0, d0));
}

// X_T(i) of one DH row (without the base part).
inline Transform<double> dh_transform(const DhRow& r) {
  return detail::rotz_t(r.theta_offset) * xlt(Vec3d(0, 0, r.d)) * detail::rotx_t(r.alpha) *
         xlt(Vec3d(r.a, 0, 0));
}

// An unbranched chain from DH rows; inertias[i] is body i+1's inertia in F_{i+1}.
inline Model<double> from_dh(const std::vector<DhRow>& rows, const std::vector<BodyInertia>& inertias,
                             const std::string& name = "dh", const Transform<double>& base = Transform<double>{},
                             const Vec3d& gravity = Vec3d(0, 0, -9.81)) {
  if (rows.empty()) throw std::invalid_argument("cases::from_dh: no DH rows");
  if (rows.size() != inertias.size())
    throw std::invalid_argument("cases::from_dh: " + std::to_string(rows.size()) + " DH rows but " +
                                std::to_string(inertias.size()) + " inertias");
  ModelBuilder mb(name);
  mb.gravity(gravity);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const DhRow& r = rows[i];
    if (r.type != JointType::Revolute && r.type != JointType::Prismatic)
      throw std::invalid_argument("cases::from_dh: row " + std::to_string(i + 1) +
                                  ": DH joints must be revolute or prismatic, got " +
                                  std::string(joint_type_name(r.type)));
    Transform<double> X = dh_transform(r);
    if (i == 0) X = X * base;
    add(mb, "link" + std::to_string(i + 1), static_cast<int>(i) - 1, make_joint(r.type, Vec3d::UnitZ()), X,
        inertias[i]);
  }
  return mb.finish();
}

// A PUMA-560-like arm. Geometry: Craig's modified-DH table of the PUMA 560 (Craig,
// "Introduction to Robotics", Table 3.4), which in the book's numbering reads
//   i   a_i      alpha_i   d_i       theta_i
//   1   0        0         0         q1
//   2   0        -pi/2     0         q2
//   3   0.4318   0         0.15005   q3
//   4   0.0203   -pi/2     0.4318    q4
//   5   0        +pi/2     0         q5
//   6   0        -pi/2     0         q6
// Inertias: invented, of PUMA-like magnitudes (masses 10, 17.4, 4.8, 0.82, 0.34, 0.09 kg),
// NOT the measured parameters of the PUMA 560: links 2 and 3 are solid rods from their
// joint to the next joint's origin, the others small boxes with off-centre mass.
inline Model<double> puma_like_dh() {
  const double hp = 1.5707963267948966;  // pi/2
  const std::vector<DhRow> rows = {
      {0, 0, 0, 0},         {0, -hp, 0, 0},  {0.4318, 0, 0.15005, 0},
      {0.0203, -hp, 0.4318, 0}, {0, hp, 0, 0}, {0, -hp, 0, 0}};
  std::vector<BodyInertia> I(6);
  I[0] = rod(10.0, Vec3d(0, 0, -0.5), Vec3d(0, 0, 0), 0.1);
  I[1] = rod(17.4, Vec3d(0, 0, 0), dh_transform(rows[2]).r, 0.08);
  I[2] = rod(4.8, Vec3d(0, 0, 0), dh_transform(rows[3]).r, 0.05);
  I[3] = BodyInertia{0.82, Vec3d(0, 0.019, -0.03), box_inertia(0.82, 0.08, 0.08, 0.12)};
  I[4] = BodyInertia{0.34, Vec3d(0, -0.01, 0.01), box_inertia(0.34, 0.06, 0.07, 0.06)};
  I[5] = BodyInertia{0.09, Vec3d(0, 0, 0.032), box_inertia(0.09, 0.05, 0.05, 0.02)};
  return from_dh(rows, I, "dh:puma_like");
}

}  // namespace rbd::cases
