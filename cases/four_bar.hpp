#pragma once
// The planar four-bar linkage (Featherstone section 8.10, Figure 8.2(b)): four bodies (the
// ground and three links) and four revolute joints about parallel axes, one kinematic loop.
// As a closed-loop system it is a spanning tree of three revolute joints about z plus one loop
// joint (model/loop_joint.hpp):
//   body 0  crank    on the base,   pivot A = (0, 0, 0), joint angle q0 = the crank's absolute angle;
//   body 1  coupler  on the crank,  pivot B = crank tip (a, 0, 0) in crank coordinates, angle q1;
//   body 2  rocker   on the coupler, pivot C = coupler tip (b, 0, 0) in coupler coordinates, angle q2;
//   loop joint: predecessor the base (frame X_P at the ground pivot D = (d, 0, 0)), successor
//   the rocker (frame X_S at its tip (c, 0, 0)); both frames keep their body's orientation, so
//   the loop joint's z axis is the base's z and the loop closes with a rotation about it.
// Each body frame's x axis runs along its link. Gravity is -9.81 along the base's y axis, in
// the plane of motion, so it does work as the linkage moves. Links are solid rods (radius
// 1 cm, cases/shapes.hpp) with their masses below; lengths and masses are dyadic rationals, so
// the model casts to Reference exactly.
//
// Closure (solved here in the caller's scalar, so a Reference state closes the loop to ~50
// digits): with absolute link angles phi_1 = q0, phi_2 = q0 + q1, phi_3 = q0 + q1 + q2 and
// e(phi) = (cos phi, sin phi),
//   a e(phi_1) + b e(phi_2) + c e(phi_3) = (d, 0).
// Given the crank angle, B = a e(q0) and C is where the circle of radius b about B meets the
// circle of radius c about D; of the two intersections, `branch` = +1 takes the one to the left
// of the directed line B -> D (counter-clockwise), -1 the other. Differentiating the closure,
//   a w1 e'(phi_1) + b w2 e'(phi_2) + c w3 e'(phi_3) = 0,  e' = (-sin, cos),
// a 2x2 system with determinant b c sin(phi_3 - phi_2) whose solution is
//   w2 = a w1 sin(phi_1 - phi_3) / (b sin(phi_3 - phi_2)),
//   w3 = a w1 sin(phi_2 - phi_1) / (c sin(phi_3 - phi_2)),
// and qd = (w1, w2 - w1, w3 - w2). The determinant vanishes only where B, C and D are collinear
// (a transmission angle of 0 or pi), which a Grashof crank-rocker never reaches and the
// parallelogram reaches only at crank angles 0 and pi (where it may switch to the crossed
// branch): four_bar_state refuses such states.
//
// Section 8.10's numbers for this loop: n = 3 tree variables, n^c = 5 for a revolute loop joint,
// rank K = 2, mobility n - r = 1 (Eq. 8.52); Eq. 8.54 (2D): 4 joint freedoms - 3 * 1 loop = 1;
// Eq. 8.55 (3D, overconstrained): 4 - 6 + (5 - 2) = 1. The same linkage can be closed with a
// spherical loop joint (n^c = 3) or a cylindrical one (n^c = 4): the motion, and so qdd, is the
// same, only the number of redundant constraints changes (rank stays 2). `copies` > 1 repeats
// the loop joint, adding n^c but no rank (section 8.5's redundant constraints, Eq. 8.41).
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "cases/shapes.hpp"
#include "core/so3.hpp"
#include "model/loop_joint.hpp"

namespace rbd::cases {

struct FourBarParams {
  std::string name;
  double ground = 0.5, crank = 0.125, coupler = 0.5, rocker = 0.375;  // d, a, b, c (m)
  double m_crank = 0.5, m_coupler = 1.0, m_rocker = 0.75;             // kg
  double radius = 0.01;                                               // rod radius (m)
  double gravity = 9.81;                                              // m/s^2 along -y
  int branch = 1;                                                     // assembly branch (see above)
};

// Grashof crank-rocker: shortest + longest = 0.125 + 0.5 < 0.375 + 0.5, and the shortest link
// is the crank, next to the ground, so the crank turns fully and the rocker oscillates.
inline FourBarParams four_bar_crank_rocker() {
  FourBarParams p;
  p.name = "four_bar_crank_rocker";
  return p;
}

// Parallelogram: crank = rocker, coupler = ground. On its parallelogram branch (branch +1 for
// crank angles in (0, pi)) the coupler translates without turning: q1 = -q0, q2 = q0 + pi.
inline FourBarParams four_bar_parallelogram() {
  FourBarParams p;
  p.name = "four_bar_parallelogram";
  p.ground = 0.5; p.crank = 0.25; p.coupler = 0.5; p.rocker = 0.25;
  p.m_crank = 0.5; p.m_coupler = 1.0; p.m_rocker = 0.75;
  return p;
}

struct FourBar {
  Model<double> model;
  LoopJoints<double> loops;
  FourBarParams params;
};

// The spanning tree and `copies` identical loop joints of type `closing` (Revolute, Spherical
// or Cylindrical: each closes the planar loop with the frames above).
inline FourBar four_bar(const FourBarParams& p, LoopJointType closing = LoopJointType::Revolute, int copies = 1) {
  if (closing != LoopJointType::Revolute && closing != LoopJointType::Spherical && closing != LoopJointType::Cylindrical)
    throw std::invalid_argument("cases::four_bar: the loop joint must be revolute, spherical or cylindrical");
  if (copies < 1) throw std::invalid_argument("cases::four_bar: need at least one loop joint");
  ModelBuilder mb(p.name);
  mb.gravity(Vec3d(0, -p.gravity, 0));
  const Joint<double> rz = make_joint(JointType::Revolute, Vec3d::UnitZ());
  auto link = [&](double mass, double length) { return rod(mass, Vec3d::Zero(), Vec3d(length, 0, 0), p.radius); };
  add(mb, "crank", -1, rz, xlt(Vec3d::Zero()), link(p.m_crank, p.crank));
  add(mb, "coupler", 0, rz, xlt(Vec3d(p.crank, 0, 0)), link(p.m_coupler, p.coupler));
  add(mb, "rocker", 1, rz, xlt(Vec3d(p.coupler, 0, 0)), link(p.m_rocker, p.rocker));
  FourBar out{mb.finish(), {}, p};
  for (int k = 0; k < copies; ++k) {
    LoopJoint<double> L;
    L.type = closing;
    L.p = -1;
    L.s = 2;
    L.XP = xlt(Vec3d(p.ground, 0, 0));
    L.XS = xlt(Vec3d(p.rocker, 0, 0));
    L.name = "ground pivot D" + (copies > 1 ? " #" + std::to_string(k) : std::string());
    out.loops.push_back(L);
  }
  validate_loop_joints(out.model, out.loops);
  return out;
}

// The same linkage on the other spanning tree: rooted at the ground pivot D instead of A, so the
// joint that four_bar() closes as a loop is a tree joint here and A is the loop joint. Body 0 is
// the rocker (pivot D, x from D to C), body 1 the coupler (x from C to B), body 2 the crank (x from
// B to A); the loop joint's predecessor is the base at A, its successor the crank's tip. Each rod
// is the same uniform rod as in four_bar() with its frame turned by pi about z, so the inertias
// are the same numbers. A state of four_bar() maps to this tree by reversed_four_bar_state.
inline FourBar four_bar_reversed(const FourBarParams& p) {
  ModelBuilder mb(p.name + "_reversed");
  mb.gravity(Vec3d(0, -p.gravity, 0));
  const Joint<double> rz = make_joint(JointType::Revolute, Vec3d::UnitZ());
  auto link = [&](double mass, double length) { return rod(mass, Vec3d::Zero(), Vec3d(length, 0, 0), p.radius); };
  add(mb, "rocker", -1, rz, xlt(Vec3d(p.ground, 0, 0)), link(p.m_rocker, p.rocker));
  add(mb, "coupler", 0, rz, xlt(Vec3d(p.rocker, 0, 0)), link(p.m_coupler, p.coupler));
  add(mb, "crank", 1, rz, xlt(Vec3d(p.coupler, 0, 0)), link(p.m_crank, p.crank));
  FourBar out{mb.finish(), {}, p};
  LoopJoint<double> L;
  L.type = LoopJointType::Revolute;
  L.p = -1;
  L.s = 2;
  L.XP = xlt(Vec3d::Zero());
  L.XS = xlt(Vec3d(p.crank, 0, 0));
  L.name = "ground pivot A";
  out.loops.push_back(L);
  validate_loop_joints(out.model, out.loops);
  return out;
}

// `count` copies of four_bar(p)'s linkage side by side on one base, copy c in the plane
// z = 0.25 c (so nothing but the base is shared): section 8.9's case of independent loops, each
// its own minimal cluster (bodies 3c .. 3c + 2, loop joint c). A state is the copies' states
// stacked (four_bar_bank_state).
inline FourBar four_bar_bank(const FourBarParams& p, int count) {
  if (count < 1) throw std::invalid_argument("cases::four_bar_bank: need at least one linkage");
  ModelBuilder mb(p.name + "_bank_" + std::to_string(count));
  mb.gravity(Vec3d(0, -p.gravity, 0));
  const Joint<double> rz = make_joint(JointType::Revolute, Vec3d::UnitZ());
  auto link = [&](double mass, double length) { return rod(mass, Vec3d::Zero(), Vec3d(length, 0, 0), p.radius); };
  for (int c = 0; c < count; ++c) {
    const std::string k = std::to_string(c);
    add(mb, "crank " + k, -1, rz, xlt(Vec3d(0, 0, 0.25 * c)), link(p.m_crank, p.crank));
    add(mb, "coupler " + k, 3 * c, rz, xlt(Vec3d(p.crank, 0, 0)), link(p.m_coupler, p.coupler));
    add(mb, "rocker " + k, 3 * c + 1, rz, xlt(Vec3d(p.coupler, 0, 0)), link(p.m_rocker, p.rocker));
  }
  FourBar out{mb.finish(), {}, p};
  for (int c = 0; c < count; ++c) {
    LoopJoint<double> L;
    L.type = LoopJointType::Revolute;
    L.p = -1;
    L.s = 3 * c + 2;
    L.XP = xlt(Vec3d(p.ground, 0, 0.25 * c));
    L.XS = xlt(Vec3d(p.rocker, 0, 0));
    L.name = "ground pivot D " + std::to_string(c);
    out.loops.push_back(L);
  }
  validate_loop_joints(out.model, out.loops);
  return out;
}

template <class S> struct FourBarState {
  VecX<S> q, qd;
  S phi2, phi3;  // absolute angles of the coupler and the rocker (the crank's is q[0])
};

// The state at crank angle `crank_angle` and crank rate `crank_rate` that closes the loop at
// position and velocity level, computed in S (header: circle intersection, closure derivative).
template <class S> FourBarState<S> four_bar_state(const FourBarParams& p, const S& crank_angle, const S& crank_rate) {
  const S a = scalar_cast<S>(p.crank), b = scalar_cast<S>(p.coupler), c = scalar_cast<S>(p.rocker),
          d = scalar_cast<S>(p.ground);
  const S c1 = cos_(crank_angle), s1 = sin_(crank_angle);
  const S Bx = a * c1, By = a * s1;
  const S ex = d - Bx, ey = -By;                 // B -> D
  const S e2 = ex * ex + ey * ey, e = sqrt_(e2);
  const S x = (b * b - c * c + e2) / (S(2) * e);  // distance from B along B -> D to the chord
  const S h2 = b * b - x * x;
  if (!(h2 > S(0))) throw std::domain_error("cases::four_bar_state: the loop cannot close at this crank angle");
  const S h = sqrt_(h2) * S(p.branch >= 0 ? 1 : -1);
  const S Cx = Bx + (x * ex - h * ey) / e, Cy = By + (x * ey + h * ex) / e;  // left normal of (ex, ey) is (-ey, ex)
  FourBarState<S> st;
  st.phi2 = atan2_(S(Cy - By), S(Cx - Bx));
  st.phi3 = atan2_(S(-Cy), S(d - Cx));
  const S sin32 = sin_(S(st.phi3 - st.phi2));
  // sin(phi_3 - phi_2) = 0: B, C, D collinear, where the closure's derivative is singular.
  if (!(abs_(sin32) > S(1e-6))) throw std::domain_error("cases::four_bar_state: B, C and D are (nearly) collinear");
  st.q.resize(3);
  st.q << crank_angle, S(st.phi2 - crank_angle), S(st.phi3 - st.phi2);
  const S w1 = crank_rate;
  const S w2 = a * w1 * sin_(S(crank_angle - st.phi3)) / (b * sin32);
  const S w3 = a * w1 * sin_(S(st.phi2 - crank_angle)) / (c * sin32);
  st.qd.resize(3);
  st.qd << w1, S(w2 - w1), S(w3 - w2);
  return st;
}

// A four_bar_bank() state: copy c at crank angle crank_angles[c], crank rate crank_rates[c].
template <class S>
FourBarState<S> four_bar_bank_state(const FourBarParams& p, const std::vector<S>& crank_angles,
                                    const std::vector<S>& crank_rates) {
  const int count = static_cast<int>(crank_angles.size());
  FourBarState<S> out;
  out.q.resize(3 * count);
  out.qd.resize(3 * count);
  for (int c = 0; c < count; ++c) {
    const FourBarState<S> st = four_bar_state<S>(p, crank_angles[c], crank_rates[c]);
    out.q.segment(3 * c, 3) = st.q;
    out.qd.segment(3 * c, 3) = st.qd;
    out.phi2 = st.phi2;  // the last copy's
    out.phi3 = st.phi3;
  }
  return out;
}

// A four_bar() state on four_bar_reversed()'s tree: absolute angles turned by pi (psi_3 = phi_3 + pi
// for the rocker), relative angles (psi_3, phi_2 - phi_3, phi_1 - phi_2) = (phi_3 + pi, -q2, -q1).
template <class S> FourBarState<S> reversed_four_bar_state(const FourBarState<S>& st) {
  const S pi = atan2_(S(0), S(-1));
  FourBarState<S> out = st;
  out.q << S(st.phi3 + pi), S(-st.q[2]), S(-st.q[1]);
  out.qd << S(st.qd[0] + st.qd[1] + st.qd[2]), S(-st.qd[2]), S(-st.qd[1]);
  return out;
}

// Section 8.11's closure function for the four-bar, y = the crank angle q0, for
// closure_function_dynamics (closed_loop_dynamics/closure_function.hpp). gamma and G come from
// four_bar_state above at unit crank rate (qd is linear in it). g = Gdot yd is the closure
// differentiated twice with zero crank acceleration: with e' = (-sin, cos) and e'' = -e,
//   b alpha2 e'(phi_2) + c alpha3 e'(phi_3) = r,   r = a w1^2 e(phi_1) + b w2^2 e(phi_2) + c w3^2 e(phi_3),
// and dotting with e(phi_3), then e(phi_2) (e'(phi) . e(phi) = 0, e'(phi_2) . e(phi_3) = sin(phi_3 - phi_2)),
//   alpha2 = (r . e(phi_3)) / (b sin(phi_3 - phi_2)),   alpha3 = -(r . e(phi_2)) / (c sin(phi_3 - phi_2)),
// so g = (0, alpha2, alpha3 - alpha2) in the tree's relative angles. Both are quadratic in the
// crank rate: g(yd) = yd^2 g(1). Domain C: the crank angles where four_bar_state closes the loop
// away from the collinear configurations, which it refuses.
template <class S> struct FourBarClosure {
  FourBarParams p;
  int ny() const { return 1; }
  void evaluate(const VecX<S>& y, const VecX<S>& yd, VecX<S>& q, MatX<S>& G, VecX<S>& g) const {
    const FourBarState<S> st = four_bar_state<S>(p, y[0], S(1));
    q = st.q;
    G.col(0) = st.qd;                                  // qd at unit crank rate
    const S a = scalar_cast<S>(p.crank), b = scalar_cast<S>(p.coupler), c = scalar_cast<S>(p.rocker);
    const S phi1 = y[0], w2 = st.qd[0] + st.qd[1], w3 = w2 + st.qd[2];  // absolute rates at w1 = 1
    const S r3 = a * cos_(S(phi1 - st.phi3)) + b * w2 * w2 * cos_(S(st.phi2 - st.phi3)) + c * w3 * w3;
    const S r2 = a * cos_(S(phi1 - st.phi2)) + b * w2 * w2 + c * w3 * w3 * cos_(S(st.phi3 - st.phi2));
    const S s32 = sin_(S(st.phi3 - st.phi2));
    const S alpha2 = r3 / (b * s32), alpha3 = -r2 / (c * s32);
    const S w = yd[0] * yd[0];
    g << S(0), S(alpha2 * w), S((alpha3 - alpha2) * w);
  }
};

}  // namespace rbd::cases
