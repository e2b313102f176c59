#pragma once
// The mechanism of Featherstone Figure 8.3 (section 8.11, Example 8.2): a planar two-link arm
// whose upper arm is driven by a linear actuator, four bodies, five joints, one loop, mobility 2.
// Built here with dimensions of our own (the figure gives none); all motion is about z:
//   body 0  B1 upper arm   revolute on the base at the shoulder O = (0, 0, 0)          (joint 1, q1)
//   body 1  B2 cylinder    revolute on the base at the pivot D = (dx, dy, 0)           (joint 2, q2)
//   body 2  B3 piston      prismatic along the cylinder's x axis, from D               (joint 3, q3, a length)
//   body 3  B4 forearm     revolute on B1 at the elbow (upper_arm, 0, 0) in B1's frame  (joint 4, q4)
//   loop joint 5: revolute between B1 (predecessor, at P = (attach, 0, 0) in B1's frame) and
//   the piston (successor, at its frame's origin, the end of its travel q3 from D; the piston's
//   rod is centred there).
// So the tree variables are the book's q = [q1 q2 q3 q4] in its order, and joints 1, 2, 3 and 5
// form the loop. Closure: the piston tip is the attachment point,
//   D + q3 e(q2) = attach e(q1),   e(phi) = (cos phi, sin phi),
// so given q1: q2 = atan2(P - D), q3 = |P - D|. Differentiating, with P' = attach q1' e'(q1):
//   q3' = (P - D) . P' / q3,   q2' = ((P - D) x P')_z / q3^2,
// and q4 is free: the figure's G is block diagonal, a 3 x 1 block (q1, q2, q3 from y1 = q1) and
// a 1 x 1 block (q4 = y2), which is why Example 8.2 needs an actuator at joint 4 and one at any
// of joints 1-3. (Every double casts to Reference exactly, so the Reference model is the same one.)
#include <cmath>
#include <stdexcept>

#include "cases/shapes.hpp"
#include "core/so3.hpp"
#include "model/loop_joint.hpp"

namespace rbd::cases {

struct ActuatedArmParams {
  double upper_arm = 0.5, forearm = 0.375, attach = 0.25;  // m
  double dx = 0.125, dy = -0.25;                            // cylinder pivot D (m)
  double cylinder = 0.25;                                   // cylinder length (m), along its x axis
  double m_upper = 2.0, m_cylinder = 0.5, m_piston = 0.25, m_forearm = 1.0;  // kg
  double radius = 0.015;                                    // rod radius (m)
  double gravity = 9.81;                                    // m/s^2 along -y
};

struct ActuatedArm {
  Model<double> model;
  LoopJoints<double> loops;
  ActuatedArmParams params;
};

inline ActuatedArm figure_8_3_arm(const ActuatedArmParams& p = {}) {
  ModelBuilder mb("figure_8_3_arm");
  mb.gravity(Vec3d(0, -p.gravity, 0));
  const Joint<double> rz = make_joint(JointType::Revolute, Vec3d::UnitZ());
  const Joint<double> px = make_joint(JointType::Prismatic, Vec3d::UnitX());
  auto link = [&](double mass, double from, double length) {
    return rod(mass, Vec3d(from, 0, 0), Vec3d(from + length, 0, 0), p.radius);
  };
  add(mb, "upper_arm", -1, rz, xlt(Vec3d::Zero()), link(p.m_upper, 0, p.upper_arm));
  add(mb, "cylinder", -1, rz, xlt(Vec3d(p.dx, p.dy, 0)), link(p.m_cylinder, 0, p.cylinder));
  add(mb, "piston", 1, px, xlt(Vec3d::Zero()), link(p.m_piston, -p.cylinder / 2, p.cylinder / 2));
  add(mb, "forearm", 0, rz, xlt(Vec3d(p.upper_arm, 0, 0)), link(p.m_forearm, 0, p.forearm));
  ActuatedArm out{mb.finish(), {}, p};
  LoopJoint<double> L;
  L.type = LoopJointType::Revolute;
  L.p = 0;  // the upper arm, at the attachment point
  L.s = 2;  // the piston, at its tip
  L.XP = xlt(Vec3d(p.attach, 0, 0));
  L.XS = xlt(Vec3d::Zero());
  L.name = "piston to upper arm (joint 5)";
  out.loops.push_back(L);
  validate_loop_joints(out.model, out.loops);
  return out;
}

template <class S> struct ActuatedArmState {
  VecX<S> q, qd;
};

// The state that closes the loop at position and velocity level for given q1, q1', q4, q4',
// computed in S (the closure in the header).
template <class S>
ActuatedArmState<S> figure_8_3_state(const ActuatedArmParams& p, const S& q1, const S& qd1, const S& q4, const S& qd4) {
  const S attach = scalar_cast<S>(p.attach), dx = scalar_cast<S>(p.dx), dy = scalar_cast<S>(p.dy);
  const S Px = attach * cos_(q1), Py = attach * sin_(q1);
  const S rx = Px - dx, ry = Py - dy;  // P - D
  const S len2 = rx * rx + ry * ry, len = sqrt_(len2);
  if (!(len > S(0))) throw std::domain_error("cases::figure_8_3_state: the attachment point is at the cylinder pivot");
  const S Pdx = -attach * sin_(q1) * qd1, Pdy = attach * cos_(q1) * qd1;  // P'
  ActuatedArmState<S> st;
  st.q.resize(4);
  st.q << q1, atan2_(ry, rx), len, q4;
  st.qd.resize(4);
  st.qd << qd1, S((rx * Pdy - ry * Pdx) / len2), S((rx * Pdx + ry * Pdy) / len), qd4;
  return st;
}

// Section 8.11's closure function for this mechanism, typed from Figure 8.3's formulas (its
// "triangle formulae", gamma, G and g), as an object for closure_function_dynamics
// (closed_loop_dynamics/closure_function.hpp). y = (q1, q4). The figure's triangle has the
// shoulder O, the cylinder pivot D and the attachment point P, with l1 = |OD|, l2 = |OP| and
// theta1 the angle at O from OD to OP; it measures both arm angles from the line OD. Our pivot
// is not on the x axis, so theta1 = y1 - phi_D and q2 = theta2 + phi_D, phi_D = atan2(dy, dx);
// the shift is a constant, so G and g are the figure's. figure_8_3_state above derives q and qd
// another way (vectors, not the triangle), and verify/test_closure_function.cpp checks one
// against the other, and G and g against finite differences of gamma.
// Domain C: d > 0, which holds for every y1 when l1 != l2 (d >= |l1 - l2|); with l1 = l2 the
// figure excludes theta1 = 0, and evaluate() refuses d = 0.
template <class S> struct Figure83Closure {
  ActuatedArmParams p;
  int ny() const { return 2; }
  void evaluate(const VecX<S>& y, const VecX<S>& yd, VecX<S>& q, MatX<S>& G, VecX<S>& g) const {
    const S dx = scalar_cast<S>(p.dx), dy = scalar_cast<S>(p.dy);
    const S l1 = sqrt_(S(dx * dx + dy * dy)), l2 = scalar_cast<S>(p.attach), phi_D = atan2_(dy, dx);
    const S theta1 = y[0] - phi_D, c1 = cos_(theta1), s1 = sin_(theta1);
    const S d2 = l1 * l1 + l2 * l2 - S(2) * l1 * l2 * c1;
    if (!(d2 > S(0))) throw std::domain_error("cases::Figure83Closure: d = 0, y1 is outside the domain C (section 8.11)");
    const S d = sqrt_(d2);
    const S theta2 = atan2_(S(l2 * s1), S(l2 * c1 - l1));
    const S u1 = (l2 * l2 - l1 * l2 * c1) / d2;  // d theta2 / d y1
    const S u2 = l1 * l2 * s1 / d;               // d d / d y1
    const S w = yd[0] * yd[0];
    const S u3 = (l1 * l1 - l2 * l2) * l1 * l2 * s1 / (d2 * d2) * w;
    const S u4 = (l1 * l2 * c1 - u2 * u2) / d * w;
    q << y[0], S(theta2 + phi_D), d, y[1];
    G.setZero();
    G(0, 0) = S(1);
    G(1, 0) = u1;
    G(2, 0) = u2;
    G(3, 1) = S(1);
    g << S(0), u3, u4, S(0);
  }
};

}  // namespace rbd::cases
