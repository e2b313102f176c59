#pragma once
// MJCF -> rbd::Model<double>, through MuJoCo's own compiler (mj_loadXML, the library already
// used as a peer), so that a user's MuJoCo model is read exactly as MuJoCo reads it: defaults,
// classes, includes, inertias from geoms and all; <equality> connect and weld constraints become
// loop joints (Featherstone chapter 8, model/loop_joint.hpp), so closed-loop MuJoCo models read
// as a spanning tree plus loops.
//
//   MjcfModel load_mjcf(path, options = {})
//
// Mapping (mjModel's compiled fields; rbdlab conventions: model/joint.hpp, core/transform.hpp):
//  - body b's frame in its parent's: body_pos, body_quat (x_parent = pos + R x_b). rbdlab's
//    Transform (E, r) rotates parent coordinates into child ones: E = R^T, r = pos.
//  - a hinge about jnt_axis through the anchor jnt_pos (both in b's frame) -> Revolute. rbdlab's
//    joint turns about an axis through its frame's origin, so the rbdlab body frame is b's frame
//    moved to the anchor: X_T = (E, pos + R anchor); the inertia and the children's offsets are
//    taken relative to the anchor. A slide -> Prismatic along jnt_axis (the anchor does not
//    matter). A ball -> Spherical about the anchor. A free joint -> Free with X_T the body's
//    pose as drawn. So for every joint rbdlab's q = 0 (identity quaternions) is the pose the file
//    draws, MuJoCo's qpos0; a free joint's q is the body's pose relative to that one (rbdlab
//    orders it quaternion [w x y z] first, then position; MuJoCo's qpos is the pose in the world,
//    position first).
//  - body order: MuJoCo's (depth first in the file), which is a valid rbdlab order (parents
//    first); it may differ from the order of the model a file was exported from.
//  - a body without joints is welded to its parent: its spatial inertia is added to the body it
//    is welded to (X^T I X, Table A.2), its children attach there with the composed transform; a
//    body welded to the world is part of the base and plays no part.
//  - inertia: body_mass, centre of mass body_ipos, principal moments body_inertia in the frame
//    body_iquat: Icom = R_I diag(inertia) R_I^T.
//  - gravity: opt.gravity. Joint names: MuJoCo's (or "joint<k>" for unnamed ones); body names
//    MuJoCo's (or "body<b>").
//  - a body with a hinge and then a slide on the same axis -> Cylindrical (as cases/mjcf_export.hpp
//    writes it).
// Refused (MjcfError naming the file and the body): a body with more than one joint otherwise
// (rbdlab has one joint per body; write the combination as bodies of their own), a mocap body, anything
// MuJoCo's compiler refuses (its message, with the line), and every ModelBuilder check (a moving
// body without mass, an inertia that is not a rigid body's).
// Warned about (the model is still read): joints with a reference position (ref != 0: rbdlab's
// q = 0 is the pose the file draws, MuJoCo's qpos = ref there), armature, damping and friction
// loss (rbdlab models have none: see geared_dynamics/reflected_inertia.hpp for armature),
// inactive equality constraints (active="false": not read) and joint or tendon couplings
// (<equality><joint/tendon>: not loop joints, not read).
//
// Equality constraints -> loop joints (section 4.2, Table 4.3: a joint that closes a loop):
//  - <connect body1 body2 anchor>: a spherical loop joint at the anchor (MuJoCo's anchor is in
//    body1's frame; MuJoCo's compiler puts the matching point on body2 where the anchor is in the
//    pose the file draws). Predecessor p = body1's rbdlab body, successor s = body2's; both loop
//    frames sit at the anchor with the world's axes in the drawn pose, so the loop joint's own
//    rotation there is the identity. When body2 is on the world the two swap (p = -1, as
//    cases/loops.hpp's close_loops expects): spherical and weld joints read the same both ways.
//  - <weld body1 body2>: a weld loop joint (the zero-DoF joint) holding the two bodies' relative
//    pose in the drawn pose; its frames sit at body2's origin with the world's axes. A weld's
//    anchor and torquescale shape MuJoCo's soft constraint force, not the set of poses it allows.
//  - Both read the drawn pose as closed. MuJoCo's compiler computes the second body's anchor
//    (connect) and the relative pose (weld, unless relpose is given) from that pose too; the
//    loader checks it with MuJoCo's own constraint residual at qpos0 (mj_forward's efc_pos):
//    an equality that the drawn pose does not satisfy to 1e-9 (a weld with a relpose of its own,
//    or a file drawn open) is refused, naming the constraint and its residual.
//  - Refused: a constraint between two bodies that are one rigid rbdlab body (welded together,
//    or both welded to the world), which constrains nothing.
#include <mujoco/mujoco.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cases/shapes.hpp"
#include "core/inertia.hpp"
#include "model/loop_joint.hpp"
#include "model/model.hpp"

namespace rbd::cases {

struct MjcfError : ModelError {
  using ModelError::ModelError;
};

struct MjcfOptions {
  std::optional<Vec3<double>> gravity;  // replaces the file's when given
};

struct MjcfModel {
  Model<double> model;
  std::vector<std::string> joint_names;  // per body (q, qd order)
  LoopJoints<double> loops;              // from <equality> connect and weld, named after them
  std::vector<std::string> warnings;
};

namespace mjcf_loader_detail {

inline Mat3d rotation_of(const mjtNum* q) {  // MuJoCo quaternions are [w x y z]
  return Eigen::Quaterniond(q[0], q[1], q[2], q[3]).normalized().toRotationMatrix();
}

inline std::string name_of(const mjModel* m, mjtObj type, int id, const char* prefix) {
  const char* n = mj_id2name(m, type, id);
  return n && *n ? std::string(n) : std::string(prefix) + std::to_string(id);
}

// Per MuJoCo body: the rbdlab body it belongs to (-1: the base), and the transform from that
// rbdlab body's frame to this MuJoCo body's frame.
struct Placement {
  int body = -1;
  Transform<double> X;  // ^{this}X_{rbdlab body}: rbdlab's (E, r) convention
};

// MuJoCo's own residual of each equality constraint at qpos0 (the pose the file draws): the
// largest |efc_pos| of its rows after mj_forward; 0 for a constraint with no rows (inactive).
inline std::vector<double> equality_residuals_at_qpos0(const std::string& path, const mjModel* m) {
  std::unique_ptr<mjData, void (*)(mjData*)> d(mj_makeData(m), mj_deleteData);  // qpos = qpos0
  if (!d) throw MjcfError(path + ": MuJoCo could not allocate the data to check the equality constraints");
  std::vector<double> out(static_cast<std::size_t>(m->neq), 0.0);
  mj_forward(m, d.get());
  for (int r = 0; r < d->nefc; ++r)
    if (d->efc_type[r] == mjCNSTR_EQUALITY && d->efc_id[r] >= 0 && d->efc_id[r] < m->neq) {
      double& e = out[static_cast<std::size_t>(d->efc_id[r])];
      e = std::max(e, std::abs(d->efc_pos[r]));
    }
  return out;
}

// <equality> connect and weld -> out.loops (the mapping is in this file's header).
inline void read_equalities(const std::string& path, const mjModel* m, const std::vector<Placement>& at,
                            MjcfModel& out) {
  if (m->neq == 0) return;
  const Model<double>& model = out.model;
  // ^iX_0 of every rbdlab body in the drawn pose (q = 0: every joint transform is the identity).
  std::vector<Transform<double>> X0(static_cast<std::size_t>(model.nb));
  for (int i = 0; i < model.nb; ++i)
    X0[i] = model.parent[i] < 0 ? model.Xtree[i] : model.Xtree[i] * X0[static_cast<std::size_t>(model.parent[i])];
  // A point given in MuJoCo body b's frame, in world coordinates in the drawn pose.
  auto world_point = [&](int b, const Vec3d& a) {
    const Placement& P = at[static_cast<std::size_t>(b)];
    const Vec3d in_rb = P.X.r + P.X.E.transpose() * a;
    return P.body < 0 ? in_rb : Vec3d(X0[P.body].r + X0[P.body].E.transpose() * in_rb);
  };
  // ^kX_i: a frame k at world point w with the world's axes, seen from rbdlab body i.
  auto frame_at = [&](int i, const Vec3d& w) { return i < 0 ? xlt(w) : xlt(w) * X0[i].inverse(); };
  const std::vector<double> residual = equality_residuals_at_qpos0(path, m);
  int inactive = 0, couplings = 0;
  for (int e = 0; e < m->neq; ++e) {
    const std::string ename = name_of(m, mjOBJ_EQUALITY, e, "equality");
    if (!m->eq_active[e]) {
      ++inactive;
      continue;
    }
    const int type = m->eq_type[e];
    if (type != mjEQ_CONNECT && type != mjEQ_WELD) {
      ++couplings;
      continue;
    }
    const char* kind = type == mjEQ_CONNECT ? "connect" : "weld";
    const std::string where = "equality " + std::to_string(e) + " ('" + ename + "', " + kind + ")";
    const int b1 = m->eq_obj1id[e], b2 = m->eq_obj2id[e];
    if (b1 < 0 || b1 >= m->nbody || b2 < 0 || b2 >= m->nbody)
      throw MjcfError(path + ": " + where + " names a body that does not exist");
    int p = at[static_cast<std::size_t>(b1)].body, s = at[static_cast<std::size_t>(b2)].body;
    if (p == s)
      throw MjcfError(path + ": " + where + " joins bodies '" + name_of(m, mjOBJ_BODY, b1, "body") + "' and '" +
                      name_of(m, mjOBJ_BODY, b2, "body") + "', which are one rigid body here (" +
                      (p < 0 ? "both welded to the world" : "welded together, rbdlab body '" + model.body_name[p] + "'") +
                      "): it constrains nothing");
    if (!(residual[static_cast<std::size_t>(e)] <= 1e-9))
      throw MjcfError(path + ": " + where + " is not satisfied in the pose the file draws (MuJoCo's residual at qpos0 is " +
                      std::to_string(residual[static_cast<std::size_t>(e)]) +
                      "); rbdlab closes loops in that pose, so draw the model closed (for a weld, leave relpose out)");
    const Vec3d w = type == mjEQ_CONNECT ? world_point(b1, Vec3d(m->eq_data[mjNEQDATA * e], m->eq_data[mjNEQDATA * e + 1],
                                                                 m->eq_data[mjNEQDATA * e + 2]))
                                         : world_point(b2, Vec3d::Zero());
    if (s < 0) std::swap(p, s);  // the base as predecessor: a spherical or weld joint reads the same both ways
    LoopJoint<double> L;
    L.type = type == mjEQ_CONNECT ? LoopJointType::Spherical : LoopJointType::Weld;
    L.p = p;
    L.s = s;
    L.XP = frame_at(p, w);
    L.XS = frame_at(s, w);
    L.name = ename;
    out.loops.push_back(L);
  }
  try {
    validate_loop_joints(model, out.loops);
  } catch (const ModelError& e) {
    throw MjcfError(path + ": " + e.what());
  }
  if (inactive)
    out.warnings.push_back(std::to_string(inactive) + " inactive equality constraint(s) (active=\"false\") not read");
  if (couplings)
    out.warnings.push_back(std::to_string(couplings) + " joint or tendon coupling(s) (<equality><joint/tendon>) ignored: "
                           "they are not loop joints, and rbdlab does not read them");
}

}  // namespace mjcf_loader_detail

inline MjcfModel load_mjcf(const std::string& path, const MjcfOptions& opt = {}) {
  using namespace mjcf_loader_detail;
  char error[1000] = "";
  std::unique_ptr<mjModel, void (*)(mjModel*)> holder(mj_loadXML(path.c_str(), nullptr, error, sizeof error),
                                                      mj_deleteModel);
  const mjModel* m = holder.get();
  if (!m) throw MjcfError(path + ": MuJoCo's compiler refused the file: " + std::string(error));
  auto fail = [&](const std::string& what) { throw MjcfError(path + ": " + what); };
  MjcfModel out;
  if (error[0]) out.warnings.push_back(std::string("MuJoCo: ") + error);

  std::vector<Placement> at(static_cast<std::size_t>(m->nbody));
  at[0].X = xlt(Vec3d::Zero());
  std::vector<Inertia<double>> welded;  // per rbdlab body: what bodies welded to it add
  ModelBuilder mb(std::filesystem::path(path).stem().string());
  const Vec3d g = opt.gravity ? *opt.gravity : Vec3d(m->opt.gravity[0], m->opt.gravity[1], m->opt.gravity[2]);
  mb.gravity(g);
  struct Pending {  // rbdlab bodies, built after the welded inertias are known
    std::string name;
    int parent;
    Joint<double> joint;
    Transform<double> Xtree;
    Inertia<double> I;  // in the rbdlab body frame
  };
  std::vector<Pending> bodies;
  bool any_ref = false, any_armature = false, any_damping = false;
  for (int b = 1; b < m->nbody; ++b) {
    const std::string bname = name_of(m, mjOBJ_BODY, b, "body");
    if (m->body_mocapid[b] >= 0) fail("body '" + bname + "' is a mocap body (it is moved by the user, not by dynamics)");
    const int p = m->body_parentid[b];
    // b's frame relative to its MuJoCo parent, then to the parent's rbdlab body.
    const Mat3d R = rotation_of(m->body_quat + 4 * b);
    const Vec3d pos(m->body_pos[3 * b], m->body_pos[3 * b + 1], m->body_pos[3 * b + 2]);
    const Transform<double> X_b_p{R.transpose(), pos};
    const Transform<double> X_b_base = X_b_p * at[static_cast<std::size_t>(p)].X;  // ^bX_{rbdlab parent}
    // b's own inertia about its frame.
    const Mat3d RI = rotation_of(m->body_iquat + 4 * b);
    const Vec3d ipos(m->body_ipos[3 * b], m->body_ipos[3 * b + 1], m->body_ipos[3 * b + 2]);
    const Vec3d diag(m->body_inertia[3 * b], m->body_inertia[3 * b + 1], m->body_inertia[3 * b + 2]);
    const Mat3d Icom = RI * diag.asDiagonal() * RI.transpose();
    const int nj = m->body_jntnum[b];
    // A hinge then a slide on the same axis is a cylindrical joint (Table 4.1; rbdlab's q =
    // [angle, displacement], the order MuJoCo's qpos has them in).
    bool cylindrical = false;
    if (nj == 2) {
      const int j0 = m->body_jntadr[b], j1 = j0 + 1;
      const Vec3d a0 = Vec3d(m->jnt_axis[3 * j0], m->jnt_axis[3 * j0 + 1], m->jnt_axis[3 * j0 + 2]).normalized();
      const Vec3d a1 = Vec3d(m->jnt_axis[3 * j1], m->jnt_axis[3 * j1 + 1], m->jnt_axis[3 * j1 + 2]).normalized();
      cylindrical = m->jnt_type[j0] == mjJNT_HINGE && m->jnt_type[j1] == mjJNT_SLIDE && (a0 - a1).norm() < 1e-12;
    }
    if (nj > 1 && !cylindrical)
      fail("body '" + bname + "' has " + std::to_string(nj) +
           " joints; rbdlab has one joint per body (give each joint a body of its own; a hinge then a slide on "
           "the same axis is read as one cylindrical joint)");
    if (nj == 0) {  // welded: add its inertia to the rbdlab body it hangs from
      const int owner = at[static_cast<std::size_t>(p)].body;
      at[static_cast<std::size_t>(b)] = {owner, X_b_base};
      if (owner >= 0) {
        const Inertia<double> Ib = Inertia<double>::from_com(m->body_mass[b], ipos, Icom);
        add_transform_transpose(X_b_base, Ib, bodies[static_cast<std::size_t>(owner)].I);
      }
      continue;
    }
    const int j = m->body_jntadr[b];
    const Vec3d axis(m->jnt_axis[3 * j], m->jnt_axis[3 * j + 1], m->jnt_axis[3 * j + 2]);
    Vec3d anchor(m->jnt_pos[3 * j], m->jnt_pos[3 * j + 1], m->jnt_pos[3 * j + 2]);
    Joint<double> joint;
    Transform<double> Xtree = X_b_base;
    switch (cylindrical ? -1 : m->jnt_type[j]) {
      case -1: joint = make_joint(JointType::Cylindrical, axis.normalized()); break;
      case mjJNT_HINGE: joint = make_joint(JointType::Revolute, axis.normalized()); break;
      case mjJNT_SLIDE:
        joint = make_joint(JointType::Prismatic, axis.normalized());
        anchor.setZero();
        break;
      case mjJNT_BALL: joint = make_joint(JointType::Spherical); break;
      case mjJNT_FREE:
        joint = make_joint(JointType::Free);
        anchor.setZero();  // MuJoCo's free joint moves the body's own frame
        break;
      default: fail("body '" + bname + "': unknown MuJoCo joint type " + std::to_string(m->jnt_type[j]));
    }
    Xtree.r = Xtree.r + Xtree.E.transpose() * anchor;  // the joint frame at the anchor
    if ((m->jnt_type[j] == mjJNT_HINGE || m->jnt_type[j] == mjJNT_SLIDE) && m->qpos0[m->jnt_qposadr[j]] != 0)
      any_ref = true;
    if (cylindrical && m->qpos0[m->jnt_qposadr[j + 1]] != 0) any_ref = true;
    const int dof = m->jnt_dofadr[j];
    const int ndof = m->jnt_type[j] == mjJNT_FREE ? 6 : m->jnt_type[j] == mjJNT_BALL ? 3 : cylindrical ? 2 : 1;
    for (int k = 0; k < ndof; ++k) {
      any_armature = any_armature || m->dof_armature[dof + k] != 0;
      any_damping = any_damping || m->dof_damping[dof + k] != 0 || m->dof_frictionloss[dof + k] != 0;
    }
    const int rb = static_cast<int>(bodies.size());
    // The rbdlab body frame is b's moved to the anchor: inertia and children relative to it.
    bodies.push_back({bname, at[static_cast<std::size_t>(p)].body, joint, Xtree,
                      Inertia<double>::from_com(m->body_mass[b], Vec3d(ipos - anchor), Icom)});
    at[static_cast<std::size_t>(b)] = {rb, xlt(Vec3d(-anchor))};  // ^bX_{rbdlab b}: b's origin is -anchor from it
    out.joint_names.push_back(name_of(m, mjOBJ_JOINT, j, "joint"));
  }
  if (bodies.empty()) fail("no moving bodies (every body is welded to the world)");
  for (const Pending& pb : bodies) {
    const double mass = pb.I.m;
    const Vec3d com = mass > 0 ? Vec3d(pb.I.h / mass) : Vec3d::Zero();
    const Mat3d cx = skew<double>(com);
    try {
      mb.add_body(pb.name, pb.parent, pb.joint, pb.Xtree, mass, com, Mat3d(pb.I.Ibar + mass * cx * cx));
    } catch (const ModelError& e) {
      fail(e.what());  // ModelBuilder's message names the body and the problem
    }
  }
  out.model = mb.finish();
  if (any_ref)
    out.warnings.push_back("a hinge or slide has a reference position (ref != 0): rbdlab's q = 0 is the pose the file "
                           "draws, where MuJoCo's qpos = ref (q = qpos - ref)");
  if (any_armature)
    out.warnings.push_back("armature ignored: rbdlab models carry no rotor inertia (geared_dynamics/reflected_inertia.hpp "
                           "takes it as an argument)");
  if (any_damping) out.warnings.push_back("joint damping and friction loss ignored (rbdlab computes rigid-body dynamics)");
  read_equalities(path, m, at, out);
  return out;
}

// MJCF given as text (a generated model, e.g. cases/closed_mjcf.hpp): MuJoCo 2.2's compiler reads
// files only, so the text goes to a file of its own in the temporary directory, which is removed
// after reading. Errors name `name` in place of a path.
inline MjcfModel load_mjcf_text(const std::string& xml, const std::string& name, const MjcfOptions& opt = {}) {
  namespace fs = std::filesystem;
  static int counter = 0;
  const fs::path dir = fs::temp_directory_path() / ("rbdlab_mjcf_" + std::to_string(::getpid()) + "_" +
                                                    std::to_string(counter++));
  fs::create_directories(dir);
  const fs::path file = dir / (name + ".xml");
  {
    std::ofstream out(file);
    out << xml;
    if (!out) throw MjcfError(name + ": could not write the temporary file " + file.string());
  }
  try {
    MjcfModel m = load_mjcf(file.string(), opt);
    fs::remove_all(dir);
    return m;
  } catch (...) {
    std::error_code ec;
    fs::remove_all(dir, ec);
    throw;
  }
}

}  // namespace rbd::cases
