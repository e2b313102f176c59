#pragma once
// The four systems of seed 004 (Mueller & Terze, DETC2013-12151, section 5) in absolute
// coordinates, for the integration family (algorithms/integration/). Built in double and
// cast exactly (the pi in the initial velocities is double's pi in every scalar, so double
// and Reference solve the same initial-value problem); only the completion of the initial
// velocities to J V = 0 is done in the target scalar, so each run starts on the velocity
// constraint to its own precision.
// Where the paper is silent, the choice made is listed in `choices` (shown on the report).
#include <cmath>
#include <string>
#include <vector>

#include "integration/lie/index1.hpp"

namespace rbd::cases {

struct LieCase {
  std::string id, title, source;
  std::vector<std::string> choices;
  integration::System<double> sys;
  // Initial configuration and angular velocities (body frames); linear velocities are
  // completed from the constraints (complete_linear) or the whole velocity is projected in
  // the mass metric (when the angular velocities alone over-determine the loop).
  std::array<se3::Pose<double>, integration::kMaxBodies> C{};
  std::array<Vec3<double>, integration::kMaxBodies> omega{};
  bool project_all = false;
};

namespace lie_detail {
inline constexpr double kAluminium = 2700.0;  // kg/m^3; seed 004 section 5.1: 0.1x0.2x0.4 m box = 21.6 kg
inline integration::Body<double> box(double a, double b, double c) {
  const double m = kAluminium * a * b * c;
  integration::Body<double> B;
  B.m = m;
  B.Theta = (Vec3<double>(b * b + c * c, a * a + c * c, a * a + b * b) * (m / 12.0)).asDiagonal();
  return B;
}
// A quarter turn about z, with exact entries (cos(pi/2) in double is 6e-17, not 0, which
// would leave R off SO(3) by 1e-17 in Reference).
inline Mat3<double> quarter_turn_z() {
  Mat3<double> R;
  R << 0, -1, 0, 1, 0, 0, 0, 0, 1;
  return R;
}
}  // namespace lie_detail

// Section 5.1: box 0.1 x 0.2 x 0.4 m, m = 21.6 kg, Theta = diag(0.36, 0.306, 0.09) kg m^2,
// COM at r0 = (0.5, 0, 0) from the pivot (body frame), no gravity in the numerical results,
// omega0 = (0, 20 pi, 10 pi) rad/s, R(0) = I.
inline LieCase heavy_top() {
  LieCase c;
  c.id = "heavy_top";
  c.title = "Heavy top (section 5.1)";
  c.source = "seed 004 section 5.1";
  c.sys.n = 1;
  c.sys.nj = 1;
  c.sys.body[0].m = 21.6;
  c.sys.body[0].Theta = Vec3<double>(0.36, 0.306, 0.09).asDiagonal();
  c.sys.joint[0] = {0, Vec3<double>(-0.5, 0, 0), integration::kGround, Vec3<double>::Zero()};
  c.C[0] = {Mat3<double>::Identity(), Vec3<double>(0.5, 0, 0)};
  c.omega[0] = Vec3<double>(0, 20 * M_PI, 10 * M_PI);
  c.choices = {"pivot at the space origin",
               "no gravity, as in the paper's numerical results (M = F = 0)",
               "Theta as printed (it equals the box formula for 0.1 x 0.2 x 0.4 m, 21.6 kg)"};
  return c;
}

namespace lie_detail {
// The two links of section 5.2: a = 0.2, b = 0.1, c = 0.05 m along the COM-frame axes.
inline void two_links(LieCase& c) {
  c.sys.n = 2;
  c.sys.body[0] = box(0.2, 0.1, 0.05);
  c.sys.body[1] = box(0.2, 0.1, 0.05);
  c.C[0] = {Mat3<double>::Identity(), Vec3<double>(0.1, 0, 0)};
  c.C[1] = {Mat3<double>::Identity(), Vec3<double>(0.3, 0, 0)};
  c.choices = {"mass and inertia of the links: aluminium boxes (2700 kg/m^3, the density implied by section 5.1's "
               "21.6 kg), m = 2.7 kg; not stated in the paper",
               "joints at the link ends on the COM-frame x axis (+-a/2)"};
}
}  // namespace lie_detail

// Section 5.2: spherical double pendulum in gravity, aligned with x at t = 0,
// omega10 = (10, 0, 0), omega20 = (10 pi, 10 pi, 20 pi) rad/s.
inline LieCase double_pendulum() {
  LieCase c;
  lie_detail::two_links(c);
  c.id = "double_pendulum";
  c.title = "Spherical double pendulum (section 5.2)";
  c.source = "seed 004 section 5.2";
  c.sys.nj = 2;
  c.sys.joint[0] = {0, Vec3<double>(-0.1, 0, 0), integration::kGround, Vec3<double>::Zero()};
  c.sys.joint[1] = {0, Vec3<double>(0.1, 0, 0), 1, Vec3<double>(-0.1, 0, 0)};
  c.sys.gravity = Vec3<double>(0, 0, -9.81);
  c.omega[0] = Vec3<double>(10, 0, 0);
  c.omega[1] = Vec3<double>(10 * M_PI, 10 * M_PI, 20 * M_PI);
  c.choices.push_back("g = 9.81 m/s^2 (value not printed)");
  c.choices.push_back("linear velocities completed from the joints (unique for this tree)");
  return c;
}

// Section 5.3: the two links joined by one spherical joint, floating, no gravity,
// omega10 = (0, 0, -10), omega20 = (1, -1, 2 pi) rad/s.
inline LieCase floating_pair() {
  LieCase c;
  lie_detail::two_links(c);
  c.id = "floating_pair";
  c.title = "Two interconnected floating bodies (section 5.3)";
  c.source = "seed 004 section 5.3";
  c.sys.nj = 1;
  c.sys.joint[0] = {0, Vec3<double>(0.1, 0, 0), 1, Vec3<double>(-0.1, 0, 0)};
  c.omega[0] = Vec3<double>(0, 0, -10);
  c.omega[1] = Vec3<double>(1, -1, 2 * M_PI);
  c.choices.push_back("linear velocities: the smallest (mass-weighted) completion to the joint, i.e. zero total "
                      "linear momentum; the paper does not give them");
  return c;
}

// Section 5.4: closed spherical 3-bar linkage; the paper prints no parameters. Choice: the
// two links of section 5.2, link 1 from the ground point (0,0,0) along x, link 2 turned by
// 90 deg about z from the end of link 1 to the ground point (0.2, 0.2, 0); joints 1 and 3
// to the ground, joint 2 between the links; gravity; angular velocities as section 5.2,
// then the whole velocity projected onto J V = 0 in the mass metric.
inline LieCase three_bar() {
  LieCase c;
  lie_detail::two_links(c);
  c.id = "three_bar";
  c.title = "Closed-loop spherical 3-bar linkage (section 5.4)";
  c.source = "seed 004 section 5.4 (no parameters printed)";
  c.sys.nj = 3;
  c.sys.joint[0] = {0, Vec3<double>(-0.1, 0, 0), integration::kGround, Vec3<double>::Zero()};
  c.sys.joint[1] = {0, Vec3<double>(0.1, 0, 0), 1, Vec3<double>(-0.1, 0, 0)};
  c.sys.joint[2] = {1, Vec3<double>(0.1, 0, 0), integration::kGround, Vec3<double>(0.2, 0.2, 0)};
  c.sys.gravity = Vec3<double>(0, 0, -9.81);
  c.C[1] = {lie_detail::quarter_turn_z(), Vec3<double>(0.2, 0.1, 0)};
  c.omega[0] = Vec3<double>(10, 0, 0);
  c.omega[1] = Vec3<double>(10 * M_PI, 10 * M_PI, 20 * M_PI);
  c.project_all = true;
  c.choices = {"geometry: the links of section 5.2 (aluminium, 2.7 kg), ground joints at (0,0,0) and (0.2,0.2,0)",
               "g = 9.81 m/s^2", "initial velocity: section 5.2's angular velocities projected onto J V = 0 in the mass metric",
               "link 2 starts turned 90 deg about z (exact matrix entries 0, +-1)"};
  return c;
}

inline std::vector<LieCase> lie_cases() { return {heavy_top(), double_pendulum(), floating_pair(), three_bar()}; }

// The initial state in group G and scalar S: cast, then complete the velocities in S.
template <class G, class S> integration::State<S> initial_state(const LieCase& c) {
  using namespace integration;
  const System<S> sys = c.sys.template cast<S>();
  sys.validate(c.id);
  // Qualified: inside rbd::cases an unqualified State is cases::State (cases/random.hpp), which
  // hides the using-directive's integration::State whenever both are declared.
  integration::State<S> x;  // hybrid convention first: (omega, rdot)
  x.V = VecV<S>::Zero(sys.nv());
  for (int i = 0; i < sys.n; ++i) {
    x.C[i] = se3::Pose<S>{c.C[i].R.template cast<S>(), c.C[i].r.template cast<S>()};
    x.V.template segment<3>(6 * i) = c.omega[i].template cast<S>();
  }
  if (c.project_all) {
    project_velocity<So3R3Group, S>(sys, x);
  } else if (sys.nj > 0) {
    // Linear velocities only: J_l rdot = -J_w omega, smallest in the mass metric.
    MatGV<S> J;
    constraint_jacobian<So3R3Group, S>(sys, x, J, nullptr);
    MatGV<S> Jl = MatGV<S>::Zero(sys.ng(), 3 * sys.n), JlMi(sys.ng(), 3 * sys.n);
    for (int i = 0; i < sys.n; ++i) {
      Jl.middleCols(3 * i, 3) = J.middleCols(6 * i + 3, 3);
      JlMi.middleCols(3 * i, 3) = J.middleCols(6 * i + 3, 3) / sys.body[i].m;
    }
    const VecG<S> rhs = -(J * x.V);
    const VecG<S> mu = MatGG<S>(JlMi * Jl.transpose()).llt().solve(rhs);
    const VecV<S> rd = JlMi.transpose() * mu;
    for (int i = 0; i < sys.n; ++i) x.V.template segment<3>(6 * i + 3) = rd.template segment<3>(3 * i);
  }
  return convert_state<So3R3Group, G, S>(sys, x);
}

}  // namespace rbd::cases
