#pragma once
// SDF -> rbd::Model<double> plus loop joints, through libsdformat (Debian's libsdformat-dev,
// sdformat 12), never a hand-written XML parser. In SDF a closed loop is simply a joint whose
// child is already connected to the world through other joints: rbdlab makes a spanning tree
// of the joints and reads those as loop joints (Featherstone section 4.2, Table 4.3; chapter 8).
//
//   SdfModel load_sdf(path, options = {})
//
// Mapping (rbdlab conventions: model/joint.hpp, model/loop_joint.hpp, core/transform.hpp):
//  - the file's <model> (or the one <model> of its one <world>, whose gravity is then used);
//    nested models, static models and files with several models are refused.
//  - poses are resolved by libsdformat into the model frame (frame semantics, relative_to,
//    __model__): every link's pose, every joint's frame and axis. All of it is the pose the file
//    draws, which is rbdlab's q = 0.
//  - spanning tree: depth first, a link's child joints in file order, from each floating link
//    (one that is no joint's child: SDF's floating link, given a free joint named "<link>_free")
//    and then from the world. A joint whose parent is in the tree and whose child is not is a
//    tree joint; one whose child is already there closes a loop. Floating links go first so
//    that a legged robot with its soles fixed to the ground keeps its floating base as the root
//    and closes the loops at the soles. A link that can be reached only by walking
//    some joint from child to parent (links that are each other's children, say) is refused
//    (rbdlab would need a reversed joint, Table 4.2).
//  - tree joints: revolute, continuous -> Revolute about the axis; prismatic -> Prismatic along
//    it; ball -> Spherical; fixed -> the child link is merged into the parent's body (its
//    inertia moved there, X^T I X of Table A.2; a link fixed to the world is part of the base).
//    The rbdlab body frame is the child link's frame moved to the joint's origin (so the joint
//    turns about an axis through the body origin, as rbdlab's joints do); inertias and children
//    are expressed in it.
//  - loop joints (the joints that close cycles): revolute, continuous -> Revolute; prismatic
//    -> Prismatic; ball -> Spherical; fixed -> Weld. Both loop frames are the SDF joint frame
//    in the drawn pose (origin at the joint, z along the axis), seen from the parent's and the
//    child's rbdlab bodies, so the drawn pose closes the loop by construction (as SDF defines
//    the joint: its frame is attached to the child and the parent follows from the pose). When
//    the child's body is the base the two swap (p = -1): the loop joint allows the same motion
//    either way round, its coordinate's sign flips.
//  - <inertial>: mass, its pose (centre of mass and principal frame relative to the link) and
//    the moment of inertia in that frame. A link without <inertial> has SDF's default, mass 1
//    and unit moments (the SDF specification's, which libsdformat applies).
//  - refused, naming the joint: universal, revolute2, gearbox and screw joints (rbdlab has no
//    two-axis joint, and SDF's screw pitch convention differs between simulators), a joint
//    between links of one rigid body, and everything libsdformat itself refuses (its messages,
//    with line numbers). ModelBuilder's checks (positive mass, physical inertia) name the body.
// Body names: the link each rbdlab body starts with (the child link of its joint); joint names:
// the SDF joint names, per body in q order.
#include <sdf/Console.hh>
#include <sdf/Joint.hh>
#include <sdf/JointAxis.hh>
#include <sdf/Link.hh>
#include <sdf/Model.hh>
#include <sdf/Root.hh>
#include <sdf/World.hh>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cases/shapes.hpp"
#include "core/inertia.hpp"
#include "model/loop_joint.hpp"
#include "model/model.hpp"

namespace rbd::cases {

struct SdfError : ModelError {
  using ModelError::ModelError;
};

struct SdfOptions {
  std::optional<Vec3<double>> gravity;  // replaces the file's (or the default (0, 0, -9.81))
};

struct SdfModel {
  Model<double> model;
  std::vector<std::string> joint_names;  // per body (q, qd order)
  LoopJoints<double> loops;              // the joints that close cycles, named after them
  std::vector<std::string> warnings;
};

namespace sdf_loader_detail {

// A frame's pose in the model frame: rotation R (columns: its axes in model coordinates) and
// origin p. As a Plucker transform from model to frame coordinates: (E = R^T, r = p).
struct Pose {
  Mat3d R = Mat3d::Identity();
  Vec3d p = Vec3d::Zero();
  Transform<double> from_model() const { return Transform<double>{Mat3d(R.transpose()), p}; }
};

inline Pose pose_of(const ignition::math::Pose3d& x) {
  const auto& q = x.Rot();
  return {Eigen::Quaterniond(q.W(), q.X(), q.Y(), q.Z()).normalized().toRotationMatrix(),
          Vec3d(x.Pos().X(), x.Pos().Y(), x.Pos().Z())};
}

[[noreturn]] inline void sdf_fail(const std::string& path, const std::string& what) { throw SdfError(path + ": " + what); }

inline std::string messages(const sdf::Errors& errors) {
  std::string out;
  for (const auto& e : errors) {
    out += (out.empty() ? "" : "; ") + e.Message();
    if (e.LineNumber()) out += " (line " + std::to_string(*e.LineNumber()) + ")";
  }
  return out;
}

// A rotation whose third column is the unit vector a (the loop joint frame's z axis).
inline Mat3d frame_with_z(const Vec3d& a) {
  const Vec3d z = a.normalized();
  const Vec3d helper = std::abs(z.x()) < 0.9 ? Vec3d::UnitX() : Vec3d::UnitY();
  const Vec3d x = helper.cross(z).normalized();
  Mat3d R;
  R.col(0) = x;
  R.col(1) = z.cross(x);
  R.col(2) = z;
  return R;
}

}  // namespace sdf_loader_detail

inline SdfModel load_sdf(const std::string& path, const SdfOptions& opt = {}) {
  using namespace sdf_loader_detail;
  auto fail = [&](const std::string& what) { sdf_fail(path, what); };
  sdf::Console::Instance()->SetQuiet(true);  // its errors come back in Load's result, which we report
  sdf::Root root;
  const sdf::Errors load_errors = root.Load(path);
  if (!load_errors.empty()) fail("libsdformat refused the file: " + messages(load_errors));
  const sdf::Model* sm = root.Model();
  Vec3d gravity(0, 0, -9.81);
  if (!sm) {
    if (root.WorldCount() != 1 || root.WorldByIndex(0)->ModelCount() != 1)
      fail("expected one <model> (at the top, or the only model of the only <world>)");
    const sdf::World* w = root.WorldByIndex(0);
    sm = w->ModelByIndex(0);
    gravity = Vec3d(w->Gravity().X(), w->Gravity().Y(), w->Gravity().Z());
  }
  if (opt.gravity) gravity = *opt.gravity;
  if (sm->ModelCount() > 0) fail("model '" + sm->Name() + "' has nested models, which rbdlab does not read");
  if (sm->Static()) fail("model '" + sm->Name() + "' is static: it has no dynamics");
  SdfModel out;

  // Links: pose in the model frame and inertia about the link frame.
  const int nl = static_cast<int>(sm->LinkCount());
  std::map<std::string, int> link_index;
  std::vector<Pose> link_pose(static_cast<std::size_t>(nl));
  for (int l = 0; l < nl; ++l) {
    const sdf::Link* link = sm->LinkByIndex(static_cast<uint64_t>(l));
    link_index[link->Name()] = l;
    ignition::math::Pose3d x;
    const sdf::Errors e = link->SemanticPose().Resolve(x, "__model__");
    if (!e.empty()) fail("link '" + link->Name() + "': its pose does not resolve: " + messages(e));
    link_pose[static_cast<std::size_t>(l)] = pose_of(x);
  }
  auto link_of = [&](const std::string& name) {
    if (name == "world") return -1;
    const auto it = link_index.find(name);
    if (it == link_index.end()) sdf_fail(path, "a joint names link '" + name + "', which the model does not have");
    return it->second;
  };

  // Joints: in the model frame, its frame and (for one-axis joints) its axis.
  struct JointInfo {
    const sdf::Joint* j;
    int parent, child;
    Pose frame;
    Vec3d axis = Vec3d::UnitZ();
  };
  std::vector<JointInfo> joints;
  for (uint64_t k = 0; k < sm->JointCount(); ++k) {
    const sdf::Joint* j = sm->JointByIndex(k);
    const std::string where = "joint '" + j->Name() + "'";
    JointInfo info{j, link_of(j->ParentLinkName()), link_of(j->ChildLinkName()), {}, Vec3d::UnitZ()};
    ignition::math::Pose3d x;
    sdf::Errors e = j->SemanticPose().Resolve(x, "__model__");
    if (!e.empty()) fail(where + ": its pose does not resolve: " + messages(e));
    info.frame = pose_of(x);
    switch (j->Type()) {
      case sdf::JointType::REVOLUTE: case sdf::JointType::CONTINUOUS: case sdf::JointType::PRISMATIC: {
        ignition::math::Vector3d a;
        if (!j->Axis(0)) fail(where + " has no <axis>");
        e = j->Axis(0)->ResolveXyz(a, "__model__");
        if (!e.empty()) fail(where + ": its axis does not resolve: " + messages(e));
        info.axis = Vec3d(a.X(), a.Y(), a.Z());
        if (!(info.axis.norm() > 0)) fail(where + " has a zero axis");
        info.axis.normalize();
        break;
      }
      case sdf::JointType::BALL: case sdf::JointType::FIXED: break;
      case sdf::JointType::UNIVERSAL: sdf_fail(path, where + " is universal: rbdlab has one-axis joints (write it as two revolute joints with a link between)");
      case sdf::JointType::REVOLUTE2: sdf_fail(path, where + " is revolute2: rbdlab has one-axis joints (write it as two revolute joints with a link between)");
      case sdf::JointType::GEARBOX: sdf_fail(path, where + " is a gearbox joint, which rbdlab does not read (geared_dynamics takes gear pairs as arguments)");
      case sdf::JointType::SCREW: sdf_fail(path, where + " is a screw joint, which rbdlab does not read (SDF's thread pitch convention differs between simulators)");
      default: sdf_fail(path, where + " has a joint type rbdlab does not know");
    }
    joints.push_back(info);
  }

  // Spanning tree, depth first from the world; then floating links (no joint's child).
  struct Placement {
    int body = -1;        // rbdlab body the link belongs to (-1: the base)
    bool placed = false;
  };
  std::vector<Placement> at(static_cast<std::size_t>(nl));
  std::vector<Pose> body_pose;             // per rbdlab body, in the model frame
  std::vector<Inertia<double>> body_inertia;
  ModelBuilder mb(sm->Name());
  mb.gravity(gravity);
  struct Pending {
    std::string name;
    int parent;
    Joint<double> joint;
    Transform<double> Xtree;
  };
  std::vector<Pending> bodies;
  std::vector<char> used(joints.size(), 0);
  auto add_link_inertia = [&](int l, int body) {
    const sdf::Link* link = sm->LinkByIndex(static_cast<uint64_t>(l));
    const ignition::math::Inertiald& in = link->Inertial();
    const Pose I = pose_of(in.Pose());  // the inertial frame in the link frame
    const auto& moi = in.MassMatrix().Moi();
    Mat3d M;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) M(r, c) = moi(r, c);
    const Pose& L = link_pose[static_cast<std::size_t>(l)];
    const Pose& B = body_pose[static_cast<std::size_t>(body)];
    const Mat3d R = B.R.transpose() * L.R * I.R;  // inertial frame in body coordinates
    const Vec3d com = B.R.transpose() * (L.p + L.R * I.p - B.p);
    const Inertia<double> Ib = Inertia<double>::from_com(in.MassMatrix().Mass(), com, Mat3d(R * M * R.transpose()));
    body_inertia[static_cast<std::size_t>(body)] += Ib;
  };
  std::vector<int> stack;
  auto place = [&](int l, int body) {
    at[static_cast<std::size_t>(l)] = {body, true};
    if (body >= 0) add_link_inertia(l, body);
  };
  // Walks the tree below the links on `stack` (depth first, joints in file order).
  auto walk = [&](auto&& self, int parent_link) -> void {
    for (std::size_t k = 0; k < joints.size(); ++k) {
      JointInfo& J = joints[k];
      if (used[k] || J.parent != parent_link) continue;
      if (J.child < 0) fail("joint '" + J.j->Name() + "' has the world as its child");
      if (at[static_cast<std::size_t>(J.child)].placed) continue;  // closes a loop: read below
      used[k] = 1;
      const int pbody = parent_link < 0 ? -1 : at[static_cast<std::size_t>(parent_link)].body;
      if (J.j->Type() == sdf::JointType::FIXED) {
        place(J.child, pbody);
      } else {
        Joint<double> joint;
        Pose B{link_pose[static_cast<std::size_t>(J.child)].R, J.frame.p};  // child link's axes, joint origin
        const Vec3d a = B.R.transpose() * J.axis;
        switch (J.j->Type()) {
          case sdf::JointType::PRISMATIC: joint = make_joint(JointType::Prismatic, a); break;
          case sdf::JointType::BALL: joint = make_joint(JointType::Spherical); break;
          default: joint = make_joint(JointType::Revolute, a); break;
        }
        const Transform<double> Xparent = pbody < 0 ? Transform<double>{} : body_pose[static_cast<std::size_t>(pbody)].from_model();
        bodies.push_back({sm->LinkByIndex(static_cast<uint64_t>(J.child))->Name(), pbody, joint,
                          B.from_model() * Xparent.inverse()});
        body_pose.push_back(B);
        body_inertia.push_back(Inertia<double>{});
        out.joint_names.push_back(J.j->Name());
        place(J.child, static_cast<int>(bodies.size()) - 1);
      }
      self(self, J.child);
    }
  };
  // Floating links first, then the world: a legged robot whose soles are fixed to the ground keeps
  // its floating base as the root and the soles' fixed joints as the loops, not the other way round.
  for (int l = 0; l < nl; ++l) {
    bool is_child = false;
    for (const JointInfo& J : joints) is_child = is_child || J.child == l;
    if (is_child) continue;  // reached through a joint (or refused below)
    const std::string link = sm->LinkByIndex(static_cast<uint64_t>(l))->Name(), name = link + "_free";
    bodies.push_back({link, -1, make_joint(JointType::Free), link_pose[static_cast<std::size_t>(l)].from_model()});
    body_pose.push_back(link_pose[static_cast<std::size_t>(l)]);
    body_inertia.push_back(Inertia<double>{});
    out.joint_names.push_back(name);
    place(l, static_cast<int>(bodies.size()) - 1);
    walk(walk, l);
  }
  walk(walk, -1);
  for (int l = 0; l < nl; ++l)
    if (!at[static_cast<std::size_t>(l)].placed) {
      std::string via;
      for (const JointInfo& J : joints)
        if (J.child == l) via = J.j->Name();
      fail("link '" + sm->LinkByIndex(static_cast<uint64_t>(l))->Name() +
           "' cannot be reached from the world or from a floating link through joints walked from parent to child "
           "(it is the child of joint '" + via + "'; rbdlab does not reverse joints, Table 4.2)");
    }
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const Inertia<double>& I = body_inertia[i];
    const Vec3d com = I.m > 0 ? Vec3d(I.h / I.m) : Vec3d::Zero();
    const Mat3d cx = skew<double>(com);
    try {
      mb.add_body(bodies[i].name, bodies[i].parent, bodies[i].joint, bodies[i].Xtree, I.m, com,
                  Mat3d(I.Ibar + I.m * cx * cx));
    } catch (const ModelError& e) {
      fail(e.what());
    }
  }
  if (bodies.empty()) fail("no moving bodies (every link is fixed to the world)");
  out.model = mb.finish();

  // The joints left over close loops.
  for (std::size_t k = 0; k < joints.size(); ++k) {
    if (used[k]) continue;
    const JointInfo& J = joints[k];
    const std::string where = "joint '" + J.j->Name() + "'";
    int p = J.parent < 0 ? -1 : at[static_cast<std::size_t>(J.parent)].body;
    int s = at[static_cast<std::size_t>(J.child)].body;
    if (p == s) fail(where + " closes a loop between links of one rigid body (fixed joints join them): it constrains nothing");
    if (s < 0) std::swap(p, s);
    LoopJoint<double> L;
    switch (J.j->Type()) {
      case sdf::JointType::REVOLUTE: case sdf::JointType::CONTINUOUS: L.type = LoopJointType::Revolute; break;
      case sdf::JointType::PRISMATIC: L.type = LoopJointType::Prismatic; break;
      case sdf::JointType::BALL: L.type = LoopJointType::Spherical; break;
      default: L.type = LoopJointType::Weld; break;
    }
    const Pose F{frame_with_z(J.axis), J.frame.p};  // the joint frame, z along the axis
    auto seen_from = [&](int body) {
      return body < 0 ? F.from_model() : F.from_model() * body_pose[static_cast<std::size_t>(body)].from_model().inverse();
    };
    L.p = p;
    L.s = s;
    L.XP = seen_from(p);
    L.XS = seen_from(s);
    L.name = J.j->Name();
    out.loops.push_back(L);
  }
  try {
    validate_loop_joints(out.model, out.loops);
  } catch (const ModelError& e) {
    fail(e.what());
  }
  return out;
}

}  // namespace rbd::cases
