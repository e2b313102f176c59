#pragma once
// humanoid(seed): a humanoid-like floating tree of 37 degrees of freedom (issue 5's
// floating-base benchmark; Featherstone ch. 9.3-9.5 calls this class of system a
// floating-base kinematic tree).
//
// Structure (body order = depth first, so parent[i] < i; 32 bodies, nq = 38, nv = 37):
//   0  pelvis            free joint on the fixed base (6 DoF: quaternion + position, body twist)
//   1- 3 waist_yaw, waist_pitch, torso       revolute z, y, x (a 3-DoF spine)
//   4- 5 neck_yaw, head                      revolute z, y
//   6-12 left arm:  shoulder_pitch (y), shoulder_roll (x), upper_arm (yaw about the arm, z),
//        forearm (elbow, y), wrist_yaw (z), wrist_pitch (y), hand (roll, x)     7 DoF
//  13-19 right arm, mirrored in y
//  20-25 left leg:  hip_yaw (z), hip_roll (x), thigh (hip pitch, y), shin (knee, y),
//        ankle_link (ankle pitch, y), foot (ankle roll, x)                      6 DoF
//  26-31 right leg, mirrored in y
// Frames: x forward, y to the left, z up in the neutral pose (all joint angles zero, the
// pelvis frame on the world frame: a person standing with the arms hanging). Every joint axis
// is a coordinate axis of its joint frame, as in most humanoid descriptions (MuJoCo's
// humanoid, Atlas, Valkyrie), so jcalc takes its cheap elementary-rotation paths; the joint
// frames are translated, not rotated, except the shoulder, which is rolled outward by a
// small seeded angle (a non-trivial tree transform; orthonormal to rounding in double, made
// exactly orthonormal by Model::cast's re-orthonormalisation).
//
// Sizes and masses: those of a ~1.2 m, ~55-60 kg humanoid robot (segment lengths and masses
// in the proportions of Winter's anthropometric tables, scaled down), each multiplied by a
// seeded factor uniform in [0.9, 1.1], so different seeds give different but plausible
// robots. Inertias: limbs are solid cylinders (cases::rod) from the joint to the next joint
// (radius ~ 1/6 of the length); pelvis, torso, head, hands and feet are solid boxes with the
// centre of mass offset by a seeded few millimetres to centimetres (no body is exactly
// symmetric about its joint, so no product of inertia is structurally zero); the small joint
// links between the axes of a 2- or 3-DoF joint (waist, hip, shoulder, wrist, ankle) are
// short boxes of 0.3-1 kg. Gravity (0, 0, -9.81).
//
// Randomness: one Rng(seed), one draw per statement, in body order (cases/README.md).
// The model's name is the case id: "humanoid" for seed 1, "humanoid:seed=S" otherwise.
#include <cstdint>
#include <string>

#include "cases/shapes.hpp"

namespace rbd::cases {

namespace humanoid_detail {

struct Builder {
  Rng rng;
  ModelBuilder mb;
  Builder(std::uint64_t seed, const std::string& name) : rng(seed), mb(name) {}

  double jitter() { return rng.uniform(0.9, 1.1); }  // a seeded factor in [0.9, 1.1]
  Vec3d offset(double size) {                        // a seeded small vector, |entries| < size
    const double x = rng.uniform(-size, size);
    const double y = rng.uniform(-size, size);
    const double z = rng.uniform(-size, size);
    return Vec3d(x, y, z);
  }
  // Revolute joint about the coordinate axis k of a joint frame at r in the parent.
  int revolute(const std::string& name, int parent, int k, const Transform<double>& X, const BodyInertia& b) {
    return add(mb, name, parent, make_joint(JointType::Revolute, Vec3d::Unit(k)), X, b);
  }
  // A box body of nominal mass m and sides (lx, ly, lz) with its centre at c plus a seeded
  // offset of up to `wobble` in each coordinate.
  BodyInertia box(double m, double lx, double ly, double lz, const Vec3d& c, double wobble) {
    BodyInertia b;
    b.mass = m * jitter();
    b.com = c + offset(wobble);
    b.Icom = box_inertia(b.mass, lx, ly, lz);
    return b;
  }
  // A limb segment: solid cylinder from the origin to `to`, nominal mass m.
  BodyInertia limb(double m, const Vec3d& to, double radius) {
    const double mass = m * jitter();
    BodyInertia b = rod(mass, Vec3d::Zero(), to, radius);
    b.com += offset(0.005);  // a few millimetres off the axis
    return b;
  }
};

constexpr int X = 0, Y = 1, Z = 2;

// One arm; side = +1 left, -1 right. Returns nothing: bodies are added in depth-first order.
inline void arm(Builder& h, int torso, double side, const std::string& s, double torso_height) {
  const double shoulder_width = 0.17 * h.jitter();
  const double upper = 0.24 * h.jitter(), fore = 0.22 * h.jitter(), hand = 0.08 * h.jitter();
  // The shoulder frame is rolled outward about x by an angle theta with t = tan(theta / 2)
  // seeded in [0.025, 0.075] (theta ~ 3-9 degrees); cos and sin from t rationally, so no libm.
  const double t = side * h.rng.uniform(0.025, 0.075);
  const double c = (1 - t * t) / (1 + t * t), sn = 2 * t / (1 + t * t);
  Transform<double> Xs = xlt(Vec3d(0, side * shoulder_width, torso_height));
  Xs.E = rx<double>(c, sn);  // rot(rx(theta)) xlt(r)
  const int sp = h.revolute(s + "_shoulder_pitch", torso, Y, Xs, h.box(0.5, 0.06, 0.06, 0.06, Vec3d::Zero(), 0.01));
  const int sr = h.revolute(s + "_shoulder_roll", sp, X, xlt(Vec3d::Zero()),
                            h.box(0.4, 0.05, 0.05, 0.08, Vec3d(0, 0, -0.03), 0.01));
  const int ua = h.revolute(s + "_upper_arm", sr, Z, xlt(Vec3d(0, 0, -0.04)), h.limb(2.0, Vec3d(0, 0, -upper), 0.04));
  const int fa = h.revolute(s + "_forearm", ua, Y, xlt(Vec3d(0, 0, -upper)), h.limb(1.2, Vec3d(0, 0, -fore), 0.035));
  const int wy = h.revolute(s + "_wrist_yaw", fa, Z, xlt(Vec3d(0, 0, -fore)),
                            h.box(0.3, 0.04, 0.04, 0.04, Vec3d::Zero(), 0.005));
  const int wp = h.revolute(s + "_wrist_pitch", wy, Y, xlt(Vec3d::Zero()), h.box(0.2, 0.03, 0.03, 0.03, Vec3d::Zero(), 0.005));
  h.revolute(s + "_hand", wp, X, xlt(Vec3d(0, 0, -0.02)), h.box(0.5, 0.04, 0.08, hand, Vec3d(0, 0, -hand / 2), 0.01));
}

// One leg; side = +1 left, -1 right.
inline void leg(Builder& h, int pelvis, double side, const std::string& s) {
  const double hip_width = 0.09 * h.jitter();
  const double thigh = 0.30 * h.jitter(), shin = 0.29 * h.jitter(), foot = 0.20 * h.jitter();
  const int hy = h.revolute(s + "_hip_yaw", pelvis, Z, xlt(Vec3d(0, side * hip_width, -0.08)),
                            h.box(0.8, 0.07, 0.07, 0.06, Vec3d(0, 0, -0.02), 0.01));
  const int hr = h.revolute(s + "_hip_roll", hy, X, xlt(Vec3d(0, 0, -0.05)), h.box(1.0, 0.08, 0.07, 0.07, Vec3d::Zero(), 0.01));
  const int th = h.revolute(s + "_thigh", hr, Y, xlt(Vec3d::Zero()), h.limb(5.0, Vec3d(0, 0, -thigh), 0.06));
  const int sh = h.revolute(s + "_shin", th, Y, xlt(Vec3d(0, 0, -thigh)), h.limb(2.5, Vec3d(0, 0, -shin), 0.045));
  const int an = h.revolute(s + "_ankle_link", sh, Y, xlt(Vec3d(0, 0, -shin)), h.box(0.3, 0.04, 0.05, 0.04, Vec3d::Zero(), 0.005));
  h.revolute(s + "_foot", an, X, xlt(Vec3d::Zero()),
             h.box(0.9, foot, 0.09, 0.04, Vec3d(foot / 4, 0, -0.04), 0.01));
}

}  // namespace humanoid_detail

inline Model<double> humanoid(std::uint64_t seed = 1) {
  using namespace humanoid_detail;
  Builder h(seed, seed == 1 ? std::string("humanoid") : "humanoid:seed=" + std::to_string(seed));
  h.mb.gravity(Vec3d(0, 0, -9.81));
  // Pelvis: a box below the waist joint; the free joint's tree transform is the identity (the
  // pelvis pose is all in q, as for a URDF floating root).
  const int pelvis = add(h.mb, "pelvis", -1, make_joint(JointType::Free), xlt(Vec3d::Zero()),
                         h.box(7.0, 0.14, 0.24, 0.12, Vec3d(0, 0, -0.03), 0.01));
  // Spine: yaw and pitch links, then the torso (roll about x), which carries neck and arms.
  const double torso_height = 0.36 * h.jitter();
  const int wy = h.revolute("waist_yaw", pelvis, Z, xlt(Vec3d(0, 0, 0.06)), h.box(1.0, 0.08, 0.10, 0.06, Vec3d::Zero(), 0.01));
  const int wp = h.revolute("waist_pitch", wy, Y, xlt(Vec3d(0, 0, 0.04)), h.box(0.8, 0.08, 0.08, 0.06, Vec3d::Zero(), 0.01));
  const int torso = h.revolute("torso", wp, X, xlt(Vec3d(0, 0, 0.02)),
                               h.box(15.0, 0.18, 0.30, torso_height, Vec3d(0.01, 0, torso_height / 2), 0.015));
  // Neck and head.
  const int ny = h.revolute("neck_yaw", torso, Z, xlt(Vec3d(0, 0, torso_height + 0.03)),
                            h.box(0.4, 0.05, 0.05, 0.06, Vec3d(0, 0, 0.03), 0.005));
  h.revolute("head", ny, Y, xlt(Vec3d(0, 0, 0.06)), h.box(3.5, 0.18, 0.15, 0.20, Vec3d(0.02, 0, 0.09), 0.01));
  arm(h, torso, +1, "left", torso_height);
  arm(h, torso, -1, "right", torso_height);
  leg(h, pelvis, +1, "left");
  leg(h, pelvis, -1, "right");
  return h.mb.finish();
}

}  // namespace rbd::cases
