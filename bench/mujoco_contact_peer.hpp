#pragma once
// MuJoCo's contact dynamics as a peer for rbdlab's contact solvers (issue 15, "Peers and
// performance"): three resting scenes, each as an rbdlab Model + PointContacts and as the same
// mechanism in MuJoCo (cases/mjcf_export.hpp, plus a ground plane and contact geoms), both at the
// same resting state. Used by bench/bench_contact.cpp (timings, checks, force figures) and by
// verify/test_contact_peer.cpp (the same checks as a test), so the test checks what the
// benchmark enforces.
//
// Scenes (all under gravity 9.81 along -z, the ground the plane z = 0):
//   ball    a solid ball (cases::bouncing_ball: m = 1, r = 0.1) on a free joint resting on the
//           ground: 1 contact, its lowest point; MuJoCo: a sphere geom of radius r.
//   box     a solid box (m = 2, half sizes 0.2 x 0.15 x 0.1) on a free joint resting on its bottom
//           face: 4 contacts at the bottom corners (dependent normals: the forces are statically
//           indeterminate, only their sum and moments are fixed); MuJoCo: a box geom.
//   solo12  urdf:solo12 (free base + 12 revolute joints), every leg at HAA 0, HFE 0.8, KFE -1.6,
//           base level, standing on 4 feet: a sphere of radius kFootRadius (our choice: the
//           dynamics-only URDF has no collision geometry) centred at each FOOT link's origin, the
//           contact point its lowest point. The joint torques hold the posture: with lambda* the
//           minimum-norm vertical foot forces that balance the robot's weight and moments on the
//           base (T_base lambda* = C_base), tau = C - T lambda* on the joints and 0 on the base,
//           so qdd = 0 and lambda* is the (unique: T has full column rank) contact force.
// Every contact plane is the ground, every state is at rest (qd = 0), every phi = -kSink (below).
//
// MuJoCo's model: the exported MJCF plus <geom>s (inertiafromgeom="false", so they add no mass),
// a ground plane in the world, option cone="pyramidal" (MuJoCo 2.2.2's default, written out: the
// 4-edge pyramid n +- mu t1, n +- mu t2, the same pyramid as rbdlab's 4 facets along t1, t2),
// default solver (Newton, tolerance 1e-8, 100 iterations), timestep 0.002 s, Euler, and the
// default soft-contact parameters solref = (0.02, 1), solimp = (0.9, 0.95, 0.001, 0.5, 2):
//   condim 1  frictionless contacts (one row per contact)   <-> contact_dynamics variants
//   condim 3  friction mu = kMu, pyramidal cone (4 rows)     <-> friction_dynamics variants (mu = kMu,
//             4 facets, t1 = x, every contact sticking)
//
// What each timed call includes:
//   rbdlab variant          V::run(model, contacts, q, qd, tau, nullptr, qdd, ws): the contact
//                           points are given (no collision detection); H or the articulated
//                           inertias, the contact kinematics (T, T_dot qd), the LCP and qdd.
//   mujoco_step             mj_step: mj_forward (kinematics, collision, constraint set-up, the
//                           constraint solver, qacc) + mj_checkPos/Vel/Acc + the Euler update; the
//                           state (qpos, qvel: nq + nv doubles) is copied back before each call.
//   mujoco_forward          mj_forward: everything of mj_step but the integration.
//   mujoco_no_collision     mj_forward's stages without mj_collision (like for like with rbdlab:
//                           contacts given): mj_kinematics, mj_comPos, mj_camlight, mj_tendon,
//                           mj_crb, mj_factorM, mj_makeConstraint (from the contacts the last
//                           mj_collision left in d->contact), mj_transmission,
//                           mj_projectConstraint, mj_fwdVelocity, mj_fwdActuation,
//                           mj_fwdAcceleration, mj_fwdConstraint (mj_fwdPosition minus collision,
//                           then the rest of mj_forward without sensors and energy). Checked to
//                           give mj_forward's qacc.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Dense>
#include <mujoco/mujoco.h>

#include "bench/mujoco_peer.hpp"
#include "cases/contact_scenes.hpp"
#include "cases/contacts.hpp"
#include "cases/loops.hpp"
#include "cases/mjcf_export.hpp"
#include "cases/urdf_robots.hpp"
#include "contact_dynamics/variants.hpp"
#include "friction_dynamics/variants.hpp"
#include "inverse_dynamics/rnea_spatial.hpp"

namespace rbd::bench {

constexpr double kGravity = 9.81;
constexpr double kMu = 0.8;           // Coulomb's mu of every frictional contact (both sides)
constexpr double kFootRadius = 0.02;  // solo12's foot spheres (m)
// Every scene is lowered by kSink below touching: MuJoCo 2.2.2 treats a contact whose distance is
// not below its includemargin (0 here) as excluded (measured: at a distance of exactly 0 the ball's
// contact is found but gets no constraint row, efc_R = 0 and force 0). 1e-15 m is 1e-14 of the
// ball's radius: rbdlab's phi = -1e-15 (within kPointTol below), MuJoCo's reference acceleration
// k r ~ 3e-12 m/s^2 (k = 1 / (dmax timeconst dampratio)^2 ~ 2.8e3 / s^2), and the force prediction
// uses MuJoCo's own efc_aref.
constexpr double kSink = 1e-15;

// One scene, both sides' data.
struct ContactPeerScene {
  std::string id;
  Model<double> model;
  PointContacts<double> frictionless, frictional;  // the same points; frictional: mu = kMu, 4 facets
  VecX<double> q, qd, tau;
  double weight = 0;            // total mass * g: the total normal force at rest
  bool determinate = false;     // the contact forces are unique (ball, solo12), not only their sum (box)
  VecX<double> lambda_static;   // determinate scenes: the normal forces behind tau (derived, not solved)
  // MuJoCo additions: per body index, the <geom> lines to write into that body.
  std::vector<std::pair<int, std::string>> geoms;
};

namespace contact_peer_detail {

inline std::string num(double x) { return cases::mjcf_detail::num(x); }

inline double total_mass(const Model<double>& m) {
  double s = 0;
  for (int i = 0; i < m.nb; ++i) s += m.mass[i];
  return s;
}

inline PointContacts<double> with_friction(PointContacts<double> c) {
  for (auto& x : c) {
    x.friction = kMu;
    x.facets = 4;
    x.tangent = Vec3<double>::UnitX();
  }
  return c;
}

}  // namespace contact_peer_detail

inline ContactPeerScene ball_scene() {
  using namespace contact_peer_detail;
  const double r = 0.1, mass = 1.0;
  cases::ContactScene s = cases::bouncing_ball(r, mass, kGravity, -kSink, 0.0, 0.0);
  ContactPeerScene out;
  out.id = "ball";
  out.model = s.model;
  out.frictionless = s.contacts;
  out.frictional = with_friction(s.contacts);
  out.q = s.q;
  out.qd = VecX<double>::Zero(6);
  out.tau = VecX<double>::Zero(6);
  out.weight = mass * kGravity;
  out.determinate = true;
  out.lambda_static = VecX<double>::Constant(1, mass * kGravity);  // one contact carries the weight
  out.geoms.push_back({0, "<geom name=\"ball\" type=\"sphere\" size=\"" + num(r) + "\"/>"});
  return out;
}

inline ContactPeerScene box_scene() {
  using namespace contact_peer_detail;
  const double mass = 2.0, hx = 0.2, hy = 0.15, hz = 0.1;
  ModelBuilder b("resting box");
  b.gravity(Vec3<double>(0, 0, -kGravity));
  Joint<double> j;
  j.type = JointType::Free;
  // Solid box: I_xx = m (b^2 + c^2) / 3 with half sizes b, c.
  const Mat3<double> I = Vec3<double>(mass * (hy * hy + hz * hz) / 3, mass * (hx * hx + hz * hz) / 3,
                                      mass * (hx * hx + hy * hy) / 3).asDiagonal();
  b.add_body("box", -1, j, Transform<double>{}, mass, Vec3<double>::Zero(), I);
  ContactPeerScene out;
  out.id = "box";
  out.model = b.finish();
  for (int sx : {-1, 1})
    for (int sy : {-1, 1}) {
      PointContact<double> c;
      c.s = 0;
      c.point = Vec3<double>(sx * hx, sy * hy, -hz);
      c.name = std::string("corner ") + (sx < 0 ? "-" : "+") + "x" + (sy < 0 ? "-" : "+") + "y";
      out.frictionless.push_back(c);
    }
  out.frictional = with_friction(out.frictionless);
  out.q = VecX<double>(7);
  out.q << 1, 0, 0, 0, 0, 0, hz - kSink;
  out.qd = VecX<double>::Zero(6);
  out.tau = VecX<double>::Zero(6);
  out.weight = mass * kGravity;
  out.determinate = false;
  out.geoms.push_back({0, "<geom name=\"box\" type=\"box\" size=\"" + num(hx) + " " + num(hy) + " " + num(hz) + "\"/>"});
  return out;
}

inline ContactPeerScene solo12_scene() {
  using namespace contact_peer_detail;
  cases::UrdfModel u = cases::urdf_robot("solo12");
  ContactPeerScene out;
  out.id = "solo12";
  out.model = u.model;
  const Model<double>& m = out.model;
  if (m.joint[0].type != JointType::Free || m.nb != 13)
    throw std::runtime_error("solo12_scene: expected a free base and 12 leg bodies");
  // Posture: every leg HAA 0, HFE 0.8, KFE -1.6 (knees bent, the foot under its hip).
  out.q = VecX<double>::Zero(m.nq);
  out.q[0] = 1;  // base quaternion: level
  std::vector<int> feet;  // the lower-leg bodies (the FOOT links are merged into them)
  for (int i = 1; i < m.nb; ++i) {
    const std::string& j = u.joint_names[i];
    const int iq = m.q_idx[i];
    if (j.size() > 3 && j.substr(j.size() - 3) == "HFE") out.q[iq] = 0.8;
    if (j.size() > 3 && j.substr(j.size() - 3) == "KFE") {
      out.q[iq] = -1.6;
      feet.push_back(i);
    }
  }
  if (feet.size() != 4) throw std::runtime_error("solo12_scene: expected 4 KFE joints");
  // Each foot's centre: the FOOT link's origin, (0, +-0.008, -0.16) in the lower leg (URDF's
  // *_ANKLE fixed joint; its sign follows the leg's side, read from the HAA joint's name).
  std::vector<Vec3<double>> centre;
  for (int i : feet) {
    const bool left = u.joint_names[i][1] == 'L';
    centre.push_back(Vec3<double>(0, left ? 0.008 : -0.008, -0.16));
  }
  // Base height: the feet's lowest points on z = 0 (mean over the feet; by the legs' symmetry they
  // agree to rounding), lowered by kSink.
  std::vector<Transform<double>> X0 = cases::body_transforms<double>(m, out.q);
  double zsum = 0;
  for (std::size_t k = 0; k < feet.size(); ++k)
    zsum += (X0[feet[k]].r + X0[feet[k]].E.transpose() * centre[k])[2] - kFootRadius;
  out.q[m.q_idx[0] + 6] = -zsum / static_cast<double>(feet.size()) - kSink;
  X0 = cases::body_transforms<double>(m, out.q);
  for (std::size_t k = 0; k < feet.size(); ++k) {
    PointContact<double> c;
    c.s = feet[k];
    // The sphere's lowest point, in the lower leg's coordinates: centre - r z_world.
    c.point = centre[k] + X0[feet[k]].E * Vec3<double>(0, 0, -kFootRadius);
    c.name = u.joint_names[feet[k]].substr(0, 2) + " foot";
    out.frictionless.push_back(c);
    out.geoms.push_back({feet[k], "<geom name=\"" + c.name.substr(0, 2) + "_foot\" type=\"sphere\" size=\"" +
                                      num(kFootRadius) + "\" pos=\"" + cases::mjcf_detail::nums(centre[k]) + "\"/>"});
  }
  out.frictional = with_friction(out.frictionless);
  out.qd = VecX<double>::Zero(m.nv);
  out.weight = total_mass(m) * kGravity;
  out.determinate = true;
  // lambda*: minimum-norm solution of T_base lambda = C_base (the free joint's 6 rows), then the
  // joint torques that make qdd = 0 with it: tau = C - T lambda*, tau_base = 0.
  Workspace<double> ws(m);
  VecX<double> C(m.nv);
  RneaSpatial::run<double>(m, out.q, out.qd, VecX<double>::Zero(m.nv), nullptr, C, ws);
  const MatX<double> T = cases::contact_T<double>(m, out.frictionless, out.q);
  const int b0 = m.v_idx[0];
  const MatX<double> Tb = T.middleRows(b0, 6);
  const VecX<double> Cb = C.segment(b0, 6);
  out.lambda_static = Tb.completeOrthogonalDecomposition().solve(Cb);
  if (!((Tb * out.lambda_static - Cb).norm() <= 1e-12 * Cb.norm()) || !(out.lambda_static.minCoeff() > 0))
    throw std::runtime_error("solo12_scene: the feet cannot hold the robot with vertical forces");
  out.tau = C - T * out.lambda_static;
  out.tau.segment(b0, 6).setZero();
  return out;
}

inline std::vector<std::string> contact_scene_ids() { return {"ball", "box", "solo12"}; }
inline ContactPeerScene contact_scene(const std::string& id) {
  if (id == "ball") return ball_scene();
  if (id == "box") return box_scene();
  if (id == "solo12") return solo12_scene();
  throw std::invalid_argument("unknown contact scene '" + id + "'");
}

// The scene's MJCF for condim 1 or 3 (see the header comment).
inline std::string contact_mjcf(const ContactPeerScene& s, int condim) {
  using contact_peer_detail::num;
  std::string x = cases::to_mjcf(s.model);
  auto replace = [&](const std::string& from, const std::string& to) {
    const std::size_t at = x.find(from);
    if (at == std::string::npos) throw std::logic_error("contact_mjcf: '" + from + "' not in the exported MJCF");
    x.replace(at, from.size(), to);
  };
  replace("integrator=\"Euler\"/>", "integrator=\"Euler\" cone=\"pyramidal\"/>");
  // Friction mu on every geom (MuJoCo takes the larger of the two geoms'); torsional and rolling
  // friction 0 (unused at condim 1 and 3).
  replace("  </default>", "    <geom condim=\"" + std::to_string(condim) + "\" friction=\"" + num(kMu) +
                              " 0 0\" contype=\"1\" conaffinity=\"1\"/>\n  </default>");
  replace("  <worldbody>\n", "  <worldbody>\n    <geom name=\"ground\" type=\"plane\" size=\"0 0 1\"/>\n");
  for (const auto& [body, geom] : s.geoms) {
    const std::string tag = "<body name=\"b" + std::to_string(body) + "\"";
    const std::size_t at = x.find(tag);
    if (at == std::string::npos) throw std::logic_error("contact_mjcf: body b" + std::to_string(body) + " not found");
    const std::size_t eol = x.find('\n', at);
    x.insert(eol + 1, "        " + geom + "\n");
  }
  return x;
}

// A MuJoCo model and data compiled from MJCF text, at a scene's resting state.
class MujocoContactModel {
 public:
  MujocoContactModel(const ContactPeerScene& s, int condim) : condim_(condim), xml_(contact_mjcf(s, condim)) {
    auto vfs = std::make_unique<mjVFS>();
    mj_defaultVFS(vfs.get());
    const char* fname = "rbdlab_contact.xml";
    if (mj_makeEmptyFileVFS(vfs.get(), fname, static_cast<int>(xml_.size())) != 0)
      throw std::runtime_error("MuJoCo: cannot create the in-memory MJCF file");
    std::memcpy(vfs->filedata[mj_findFileVFS(vfs.get(), fname)], xml_.data(), xml_.size());
    char err[1000] = "";
    m_ = mj_loadXML(fname, vfs.get(), err, sizeof err);
    mj_deleteVFS(vfs.get());
    if (!m_) throw std::runtime_error("MuJoCo refused the contact scene '" + s.id + "': " + err);
    d_ = mj_makeData(m_);
    // The state and the torques in MuJoCo's order and coordinates (MujocoPeer's conversions on
    // the same joints: the geoms change no joint or dof address).
    MujocoPeer P(s.model);
    const MujocoState st = P.convert(s.q, s.qd, VecX<double>::Zero(s.model.nv));
    qpos0_ = st.qpos;
    qvel0_ = st.qvel;
    qfrc_ = P.convert_tau(s.q, s.tau);
    if (m_->nq != static_cast<int>(qpos0_.size()) || m_->nv != static_cast<int>(qvel0_.size()))
      throw std::runtime_error("MuJoCo's contact scene '" + s.id + "' has other coordinates than its peer model");
    reset();
  }
  ~MujocoContactModel() {
    if (d_) mj_deleteData(d_);
    if (m_) mj_deleteModel(m_);
  }
  MujocoContactModel(const MujocoContactModel&) = delete;
  MujocoContactModel& operator=(const MujocoContactModel&) = delete;

  const mjModel* m() const { return m_; }
  mjData* d() { return d_; }
  int condim() const { return condim_; }
  const std::string& xml() const { return xml_; }

  // The resting state and torques into mjData (time 0, warm start cleared), then mj_forward.
  void reset() {
    mj_resetData(m_, d_);
    restore_state();
    mju_copy(d_->qfrc_applied, qfrc_.data(), m_->nv);
    mj_forward(m_, d_);
  }
  // qpos and qvel back to the resting state (the copy inside the timed mj_step loop).
  void restore_state() {
    mju_copy(d_->qpos, qpos0_.data(), m_->nq);
    mju_copy(d_->qvel, qvel0_.data(), m_->nv);
  }
  // The timed calls (see the header comment).
  void step() {
    restore_state();
    mj_step(m_, d_);
  }
  void forward() { mj_forward(m_, d_); }
  void forward_without_collision() {
    mj_kinematics(m_, d_);
    mj_comPos(m_, d_);
    mj_camlight(m_, d_);
    mj_tendon(m_, d_);
    mj_crb(m_, d_);
    mj_factorM(m_, d_);
    mj_makeConstraint(m_, d_);
    mj_transmission(m_, d_);
    mj_projectConstraint(m_, d_);
    mj_fwdVelocity(m_, d_);
    mj_fwdActuation(m_, d_);
    mj_fwdAcceleration(m_, d_);
    mj_fwdConstraint(m_, d_);
  }

 private:
  int condim_;
  std::string xml_;
  mjModel* m_ = nullptr;
  mjData* d_ = nullptr;
  std::vector<mjtNum> qpos0_, qvel0_, qfrc_;
};

// ---------------------------------------------------------------------------------------------
// Checks and measurements. Tolerances (each used below, derived here):
//
// kRestTol = 1e-9. rbdlab at the resting state: |qdd|_inf <= kRestTol g, the total normal force
//   within kRestTol of the weight, complementarity |lambda_i zeta_dot_i| <= kRestTol weight g, and
//   the per-contact forces of determinate scenes within kRestTol weight of lambda_static. The
//   exact values are 0, the weight, 0 and lambda_static: what remains is rounding of forces of
//   size ~weight through M = T^T H^-1 T and H (cond2 of the solo12 problem's H is ~1e4, of M
//   ~1e2), i.e. ~1e4 * 1e-16 = 1e-12 relative at most; kRestTol keeps a margin of >= 1e3 over
//   that, while a wrong mass, gravity or contact point (an error of 1e-3 or more) fails.
// kPointTol = 1e-9 m. MuJoCo's contact positions against rbdlab's contact points in world
//   coordinates: both come from the same doubles through ~10 rotations (rounding 1e-16 x 0.5 m
//   per step), so 1e-9 m is 1e5 above rounding and 1e-7 of a foot sphere's radius.
// kPredictTol = 1e-9 (relative to the weight). MuJoCo's contact forces at the resting state
//   against the solution of its own soft-contact equations computed from rbdlab's data:
//     f = (A + R)^-1 (aref - J a0),  A = J M^-1 J^T,
//   with aref ~ 0 at zero velocity and kSink's penetration (MuJoCo's efc_aref is used), and J a0 = d (rbdlab's LCP vector, Eq. 11.36;
//   for condim 3 the pyramid's edge rows E of rbdlab's (n, t1, t2) rows: A = E G E^T, J a0 = E g),
//   R = MuJoCo's efc_R, valid while every row is active (f > 0, checked). MuJoCo's A and J a0
//   agree with rbdlab's to peer_tolerance(nv) = 32 nv eps (bench/mujoco_peer.hpp; its tau and H
//   checks); Newton's method ends at the exact minimiser of MuJoCo's cost once the active set is
//   final (the cost is quadratic there), so the difference is cond2(A + R) * 32 nv eps ~ 1e2 *
//   4e-13 = 4e-11 relative at most on these scenes; kPredictTol keeps a margin of ~25, and a
//   1e-6 change of a mass or of R's formula fails.
constexpr double kRestTol = 1e-9;
constexpr double kPointTol = 1e-9;
constexpr double kPredictTol = 1e-9;

struct RbdlabRest {
  bool ok = true;
  std::string why;  // the first failed check
  VecX<double> fn;  // normal force per contact
  double max_qdd = 0, sum_over_weight = 0, max_complementarity = 0, max_tangential = 0;
};

namespace contact_peer_detail {
inline void fail(RbdlabRest& r, const std::string& why) {
  if (r.ok) r.why = why;
  r.ok = false;
}
}  // namespace contact_peer_detail

// One frictionless variant at the scene's resting state, with its checks.
template <class V> RbdlabRest check_frictionless(const ContactPeerScene& s) {
  using contact_peer_detail::fail;
  ContactWorkspace<double> ws(s.model);
  VecX<double> qdd(s.model.nv);
  RbdlabRest r;
  V::template run<double>(s.model, s.frictionless, s.q, s.qd, s.tau, nullptr, qdd, ws);
  r.fn = ws.lambda;
  r.max_qdd = qdd.cwiseAbs().maxCoeff();
  r.sum_over_weight = ws.lambda.sum() / s.weight;
  for (int i = 0; i < ws.lambda.size(); ++i)
    r.max_complementarity = std::max(r.max_complementarity, std::abs(ws.lambda[i] * ws.zeta_dot[i]));
  if (!(r.max_qdd <= kRestTol * kGravity)) fail(r, "qdd is not zero at rest");
  if (!(std::abs(r.sum_over_weight - 1) <= kRestTol)) fail(r, "the normal forces do not sum to the weight");
  if (!(ws.lambda.minCoeff() >= -kRestTol * s.weight)) fail(r, "a negative contact force");
  if (!(ws.zeta_dot.minCoeff() >= -kRestTol * kGravity)) fail(r, "a contact accelerates into the ground");
  if (!(r.max_complementarity <= kRestTol * s.weight * kGravity)) fail(r, "lambda and zeta_dot not complementary");
  if (s.determinate && !((ws.lambda - s.lambda_static).cwiseAbs().maxCoeff() <= kRestTol * s.weight))
    fail(r, "the contact forces differ from the static distribution behind tau");
  return r;
}

// One frictional variant at the scene's resting state (every contact sticking), with its checks.
template <class V> RbdlabRest check_frictional(const ContactPeerScene& s) {
  using contact_peer_detail::fail;
  FrictionWorkspace<double> ws(s.model);
  VecX<double> qdd(s.model.nv);
  RbdlabRest r;
  V::template run<double>(s.model, s.frictional, s.q, s.qd, s.tau, nullptr, qdd, ws);
  const int nc = static_cast<int>(s.frictional.size());
  r.fn = VecX<double>(nc);
  for (int i = 0; i < nc; ++i) {
    const double fn = ws.f[3 * i], f1 = ws.f[3 * i + 1], f2 = ws.f[3 * i + 2];
    r.fn[i] = fn;
    r.max_tangential = std::max(r.max_tangential, std::hypot(f1, f2));
    if (ws.sliding[i]) fail(r, "a contact slides at rest");
    // The 4-facet pyramid along t1, t2: |f1| + |f2| <= mu fn ... at its vertices |f1| or |f2| = mu fn;
    // the facets are the lines between them, so the pyramid is |f1| + |f2| <= mu fn.
    if (!(std::abs(f1) + std::abs(f2) <= kMu * fn + kRestTol * s.weight)) fail(r, "a friction force outside the pyramid");
  }
  r.max_qdd = qdd.cwiseAbs().maxCoeff();
  r.sum_over_weight = r.fn.sum() / s.weight;
  if (!(r.max_qdd <= kRestTol * kGravity)) fail(r, "qdd is not zero at rest");
  if (!(std::abs(r.sum_over_weight - 1) <= kRestTol)) fail(r, "the normal forces do not sum to the weight");
  if (!(r.fn.minCoeff() >= -kRestTol * s.weight)) fail(r, "a negative normal force");
  // Determinate scenes: G is positive definite (ball: one contact; solo12: non-singular legs), so the
  // sticking forces are -G^-1 g, which lambda_static with zero friction satisfies.
  if (s.determinate) {
    if (!((r.fn - s.lambda_static).cwiseAbs().maxCoeff() <= kRestTol * s.weight))
      fail(r, "the normal forces differ from the static distribution behind tau");
    if (!(r.max_tangential <= kRestTol * s.weight)) fail(r, "friction forces where none is needed");
  }
  return r;
}

// MuJoCo's contact forces at rbdlab's resting state (mj_forward there) and after settling.
struct MujocoForces {
  bool ok = true;
  std::string why;
  int ncon = 0;
  double max_point_distance = 0;       // m, MuJoCo's contact positions vs rbdlab's points
  VecX<double> fn;                     // MuJoCo's normal forces, in rbdlab's contact order
  VecX<double> fn_predicted;           // the soft-contact equations from rbdlab's data (see kPredictTol)
  VecX<double> R;                      // efc_R of the normal row (condim 1) / the first edge row (condim 3)
  double sum_over_weight = 0;          // sum fn / weight
  double max_vs_prediction = 0;        // max |f - f_predicted| / weight over every force component
  double max_vs_rbdlab = -1;           // determinate scenes: max |fn - lambda_static| / weight
  double max_tangential_over_weight = 0;
  double qacc_pieces_vs_forward = 0;   // |qacc(no collision) - qacc(mj_forward)|_inf / g
  double qacc_norm_over_g = 0;         // |qacc|_inf / g at rbdlab's resting state: the soft sag
  // After settling (ball and box: mj_step from the resting state, kSettleSteps steps).
  bool settled = false;
  double settled_sum_over_weight = 0, settled_penetration = 0, settled_speed = 0;
};

constexpr int kSettleSteps = 2000;  // 4 s at MuJoCo's 0.002 s: 200 time constants of solref's 0.02 s

namespace contact_peer_detail {
inline void fail(MujocoForces& r, const std::string& why) {
  if (r.ok) r.why = why;
  r.ok = false;
}
}  // namespace contact_peer_detail

// `rbd` is an rbdlab frictionless (condim 1) or frictional (condim 3) workspace after a run at the
// resting state: its M, d (or G, g) feed the prediction. Leaves the MuJoCo model reset.
inline MujocoForces measure_mujoco(const ContactPeerScene& s, MujocoContactModel& mj) {
  using contact_peer_detail::fail;
  MujocoForces r;
  const mjModel* m = mj.m();
  mjData* d = mj.d();
  const int nc = static_cast<int>(s.frictionless.size());
  const bool friction = mj.condim() == 3;
  mj.reset();
  r.ncon = d->ncon;
  if (r.ncon != nc) {
    fail(r, "MuJoCo finds " + std::to_string(r.ncon) + " contacts, rbdlab has " + std::to_string(nc));
    return r;
  }
  // Match MuJoCo's contacts to rbdlab's points (world coordinates).
  const std::vector<Transform<double>> X0 = cases::body_transforms<double>(s.model, s.q);
  std::vector<int> of(nc, -1);  // rbdlab contact -> MuJoCo contact
  for (int k = 0; k < nc; ++k) {
    const mjContact& con = d->contact[k];
    const Vec3<double> p(con.pos[0], con.pos[1], con.pos[2]);
    int best = -1;
    double bd = 1e300;
    for (int i = 0; i < nc; ++i) {
      const auto& c = s.frictionless[i];
      const double dist = (X0[c.s].r + X0[c.s].E.transpose() * c.point - p).norm();
      if (dist < bd) bd = dist, best = i;
    }
    r.max_point_distance = std::max(r.max_point_distance, bd);
    if (of[best] >= 0) fail(r, "two MuJoCo contacts at one rbdlab point");
    of[best] = k;
    if (!(std::abs(con.frame[2] - 1) <= kPointTol)) fail(r, "a MuJoCo contact normal is not +z");
  }
  if (!r.ok) return r;
  if (!(r.max_point_distance <= kPointTol)) fail(r, "MuJoCo's contact positions are not rbdlab's points");

  // rbdlab's data for the prediction: frictionless M, d (contact_dantzig) or frictional G, g.
  const int rows = friction ? 4 : 1;   // MuJoCo's efc rows per contact
  const int nr = rows * nc;
  MatX<double> A(nr, nr);
  VecX<double> Ja0(nr);
  if (!friction) {
    ContactWorkspace<double> ws(s.model);
    VecX<double> qdd(s.model.nv);
    ContactDantzig::run<double>(s.model, s.frictionless, s.q, s.qd, s.tau, nullptr, qdd, ws);
    A = ws.M;
    Ja0 = ws.d;
  } else {
    FrictionWorkspace<double> ws(s.model);
    VecX<double> qdd(s.model.nv);
    FrictionLemke::run<double>(s.model, s.frictional, s.q, s.qd, s.tau, nullptr, qdd, ws);
    // E: MuJoCo's edge rows n + sign mu t_k (t_k = its contact frame's tangents) in rbdlab's
    // (n, t1 = x, t2 = n x t1 = y) rows, in MuJoCo's row order (t_1+, t_1-, t_2+, t_2-).
    MatX<double> E = MatX<double>::Zero(nr, 3 * nc);
    for (int i = 0; i < nc; ++i) {
      const mjContact& con = d->contact[of[i]];
      const double mu = con.friction[0];
      for (int k = 0; k < 2; ++k) {
        const Vec3<double> t(con.frame[3 + 3 * k], con.frame[4 + 3 * k], con.frame[5 + 3 * k]);
        for (int sgn = 0; sgn < 2; ++sgn) {
          const double sign = sgn == 0 ? 1.0 : -1.0;
          const int row = 4 * i + 2 * k + sgn;
          E(row, 3 * i) = 1;
          E(row, 3 * i + 1) = sign * mu * t.dot(s.frictional[i].tangent);
          E(row, 3 * i + 2) = sign * mu * t.dot(Vec3<double>::UnitZ().cross(s.frictional[i].tangent));
        }
      }
    }
    A = E * ws.G * E.transpose();
    Ja0 = E * ws.g;
  }
  // MuJoCo's R and forces in the same (rbdlab contact, MuJoCo row) order.
  VecX<double> R(nr), f_mj(nr), aref(nr);
  for (int i = 0; i < nc; ++i) {
    const int adr = d->contact[of[i]].efc_address;
    for (int k = 0; k < rows; ++k) {
      R[rows * i + k] = d->efc_R[adr + k];
      f_mj[rows * i + k] = d->efc_force[adr + k];
      aref[rows * i + k] = d->efc_aref[adr + k];
    }
  }
  if (!(R.minCoeff() > 0)) fail(r, "a MuJoCo contact without a constraint row (efc_R = 0)");
  MatX<double> AR = A;
  AR.diagonal() += R;
  const VecX<double> f_pred = AR.ldlt().solve(VecX<double>(aref - Ja0));  // aref ~ 0 at rest (see kPredictTol)
  if (!(f_pred.minCoeff() > 0)) fail(r, "the predicted soft-contact forces leave a row inactive");
  r.max_vs_prediction = (f_mj - f_pred).cwiseAbs().maxCoeff() / s.weight;
  if (!(r.max_vs_prediction <= kPredictTol))
    fail(r, "MuJoCo's contact forces differ from its soft-contact equations on rbdlab's data");

  r.fn = VecX<double>(nc);
  r.fn_predicted = VecX<double>(nc);
  r.R = VecX<double>(nc);
  for (int i = 0; i < nc; ++i) {
    mjtNum f6[6];
    mj_contactForce(m, d, of[i], f6);  // contact frame: normal, then the tangents
    r.fn[i] = f6[0];
    r.fn_predicted[i] = f_pred.segment(rows * i, rows).sum();  // decoding the pyramid: normal = sum of edges
    r.R[i] = R[rows * i];
    r.max_tangential_over_weight = std::max(r.max_tangential_over_weight, std::hypot(f6[1], f6[2]) / s.weight);
  }
  r.sum_over_weight = r.fn.sum() / s.weight;
  if (s.determinate) r.max_vs_rbdlab = (r.fn - s.lambda_static).cwiseAbs().maxCoeff() / s.weight;
  r.qacc_norm_over_g = VecX<double>(Eigen::Map<const VecX<double>>(d->qacc, m->nv)).cwiseAbs().maxCoeff() / kGravity;

  // The timed pieces without collision give mj_forward's qacc.
  const VecX<double> qacc_fwd = Eigen::Map<const VecX<double>>(d->qacc, m->nv);
  mj.forward_without_collision();
  r.qacc_pieces_vs_forward = (Eigen::Map<const VecX<double>>(d->qacc, m->nv) - qacc_fwd).cwiseAbs().maxCoeff() / kGravity;
  if (!(r.qacc_pieces_vs_forward <= kRestTol)) fail(r, "mj_forward without collision does not give mj_forward's qacc");

  // Settling (free bodies only: solo12's constant joint torques hold no posture, see bench/README.md).
  if (s.id != "solo12") {
    mj.reset();
    for (int k = 0; k < kSettleSteps; ++k) mj_step(m, d);
    mj_forward(m, d);
    double sum = 0, pen = 0;
    for (int k = 0; k < d->ncon; ++k) {
      mjtNum f6[6];
      mj_contactForce(m, d, k, f6);
      sum += f6[0];
      pen = std::max(pen, -d->contact[k].dist);
    }
    r.settled = true;
    r.settled_sum_over_weight = sum / s.weight;
    r.settled_penetration = pen;
    r.settled_speed = Eigen::Map<const VecX<double>>(d->qvel, m->nv).norm();
  }
  mj.reset();
  return r;
}

}  // namespace rbd::bench
