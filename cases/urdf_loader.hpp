#pragma once
// URDF -> rbd::Model<double>, through urdfdom (Debian liburdfdom-dev), never a hand-written
// XML parser. See cases/README.md, section "URDF", for the rules in one place.
//
//   UrdfModel load_urdf(path, options = {})                  a file
//   UrdfModel parse_urdf(xml, options = {}, source = "<string>")   a string (tests, fuzzing)
//
// UrdfModel holds the validated Model<double>, the URDF joint name of each body (the
// order of q, qd and tau), the URDF links lumped into each body and any warnings.
//
// Mapping (rbdlab conventions: model/joint.hpp, core/transform.hpp):
//  - joint <origin xyz rpy> -> X_T. URDF's rpy gives the child frame's rotation in the
//    parent, R = Rz(y) Ry(p) Rx(r); urdfdom stores it as a unit quaternion, and R is formed
//    from that quaternion with Eigen's formula (as Pinocchio does). rbdlab's Transform
//    (E, r) has E rotating parent coordinates into child coordinates, so E = R^T, r = xyz.
//  - quarter turns are exact: a rotation whose every entry lies within 4 eps of 0, 1 or -1
//    is read as that signed permutation (exact_quarter_turns below). A file can only write
//    pi/2 as a decimal, and the quaternion path then leaves entries like 2e-16 where the
//    author meant 0; the snapped matrix differs by about that path's own rounding, is
//    exactly orthonormal, and its zeros are zeros for section 10.4's simplifier (generated
//    code, algorithms/symbolic/). Applies to each joint origin, inertial origin and the planar
//    normal's turn as read (a quarter turn made of two written 45-degree turns composed
//    through a fixed joint is not snapped). The price: a rotation within ~1e-15 rad of a
//    quarter-turn multiple, a tiny angle such as rpy="5e-16 0 0" included, is read as that
//    multiple.
//  - revolute, continuous -> Revolute about the unit joint axis (any direction; the axis is
//    normalised; ModelBuilder marks axes equal to x, y or z as aligned). Limits are ignored.
//  - prismatic -> Prismatic along the unit axis.
//  - floating -> Free (quaternion + position of the child frame in the joint frame,
//    body-frame twist [omega; v]).
//  - planar -> Planar. rbdlab's planar joint rotates about z and translates in x-y of its
//    joint frame. For a URDF normal n != z, the joint frame is turned by Ra, the smallest
//    rotation taking z to n (about z x n; a half turn about x for n = -z), and the rbdlab body
//    frame is the URDF child frame turned by Ra: inertias and child joints are re-expressed
//    in it, and q = (angle about n, translation along Ra x, along Ra y).
//  - fixed -> the child link is merged into the body of its parent: mass, centre of mass
//    and rotational inertia about the combined centre of mass, all in that body's frame
//    (Pinocchio's formula, I = I_a + I_b + m_a m_b / (m_a + m_b) (|d|^2 1 - d d^T),
//    d = c_a - c_b), in depth-first order; its children attach to that body with the
//    composed transform. Links fixed to the root of a fixed-base robot are part of the base.
//  - <inertial>: origin xyz = centre of mass, origin rpy = R_I, inertia tensor I given in the
//    rotated frame, so Icom (link frame) = R_I I R_I^T.
//  - options.floating adds a Free joint named options.root_joint_name ("root_joint", as
//    Pinocchio names it) between the world and the root link; otherwise the root link is
//    the fixed base and its inertia plays no part.
//  - mimic tags, limits, dynamics (damping, friction), visuals, collisions are ignored;
//    a mimic joint is an independent degree of freedom (a warning says so).
//  - gravity: URDF has none; options.gravity (default (0, 0, -9.81)).
//
// Body order: depth first from the root, visiting each link's child joints in the order
// urdfdom lists them (Pinocchio's order, which is also its joint order; urdfdom sorts a
// link's child joints by joint name). Body names are the moving child links' names.
//
// Massless links: a link without <inertial> contributes nothing. That is fine for the root
// of a fixed-base robot and for links merged by fixed joints (a leaf "tool0" frame, say),
// but every moving body - a link reached through a non-fixed joint together with what is
// fixed to it - must end with positive mass and a positive definite inertia satisfying the
// triangle inequality (ModelBuilder's checks), else it is an error naming the link and
// joint. (A moving link without <inertial> is thus accepted only when something with mass
// is fixed to it.) Negative masses, non-PSD tensors and triangle-inequality violations are
// errors on any link, merged or not.
//
// Errors: every problem throws UrdfError (a ModelError, hence a std::runtime_error) whose
// message starts with the file (or source name) and names the problem and the link or
// joint. urdfdom's own complaints (it logs them through console_bridge and sometimes still
// returns a model, e.g. for a mass of "nan") are captured for the duration of the parse,
// turned into the exception's message and not printed.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <numbers>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>

#include <console_bridge/console.h>
#include <urdf_parser/urdf_parser.h>

#include "model/model.hpp"

namespace rbd::cases {

// Any problem with a URDF input: unreadable file, malformed XML or URDF, unsupported
// content, or a model that fails validation. The message names the file and the place.
struct UrdfError : ModelError {
  using ModelError::ModelError;
};

struct UrdfOptions {
  bool floating = false;                              // add a free joint at the root
  Vec3<double> gravity = Vec3<double>(0, 0, -9.81);   // URDF carries no gravity
  std::string name;                                   // model name; empty = the <robot> name
  std::string root_joint_name = "root_joint";         // name of the added free joint
};

struct UrdfModel {
  Model<double> model;
  std::vector<std::string> joint_names;               // per body: the URDF joint (q/qd order)
  std::vector<std::vector<std::string>> links;        // per body: its moving link, then merged links
  std::vector<std::string> warnings;                  // e.g. ignored mimic tags
  std::string robot_name;                             // <robot name=...>
  std::string root_link;                              // the URDF root link
};

namespace urdf_detail {

using Mat3 = Mat3<double>;
using Vec3 = Vec3<double>;
using Xform = Transform<double>;

// Collects urdfdom's console_bridge messages during one parse (restores the previous handler).
class CapturedLog : public console_bridge::OutputHandler {
 public:
  std::vector<std::string> errors, warnings;
  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR) errors.push_back(text);
    else if (level == console_bridge::CONSOLE_BRIDGE_LOG_WARN) warnings.push_back(text);
  }
};
class ScopedLogCapture {
 public:
  explicit ScopedLogCapture(CapturedLog* h) : prev_(console_bridge::getOutputHandler()) {
    console_bridge::useOutputHandler(h);
  }
  ~ScopedLogCapture() { console_bridge::useOutputHandler(prev_); }
  ScopedLogCapture(const ScopedLogCapture&) = delete;
  ScopedLogCapture& operator=(const ScopedLogCapture&) = delete;

 private:
  console_bridge::OutputHandler* prev_;
};

inline std::string quoted(const std::string& s) { return "'" + s + "'"; }

inline std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string out;
  for (std::size_t k = 0; k < v.size(); ++k) out += (k ? sep : "") + v[k];
  return out;
}

inline std::string fmt(double x) {
  std::ostringstream os;
  os.precision(17);
  os << x;
  return os.str();
}
inline std::string fmt(const Vec3& v) { return fmt(v[0]) + " " + fmt(v[1]) + " " + fmt(v[2]); }

// Turns urdfdom's messages into one clear sentence naming the problem and the place.
inline std::string explain_urdfdom_failure(const std::vector<std::string>& errors) {
  std::smatch m;
  for (const auto& e : errors) {
    if (e.find("'robot' element") != std::string::npos)
      return "XML, but not URDF: there is no <robot> root element";
    static const std::regex type_re(R"(Joint \[(.*)\] has no known type \[(.*)\])");
    if (std::regex_search(e, m, type_re))
      return "joint '" + m[1].str() + "' has unknown or unsupported type '" + m[2].str() +
             "' (supported: revolute, continuous, prismatic, fixed, floating, planar)";
    static const std::regex missing_re(R"((child|parent) link \[(.*)\] of joint \[([^\]]*)\] not found)");
    if (std::regex_search(e, m, missing_re))
      return "joint '" + m[3].str() + "' names " + m[1].str() + " link '" + m[2].str() +
             "', which is not defined in the file";
    static const std::regex roots_re(R"(Two root links found: \[(.*)\] and \[(.*)\])");
    if (std::regex_search(e, m, roots_re))
      return "two root links, '" + m[1].str() + "' and '" + m[2].str() +
             "' (a URDF must be one connected tree: every link but the root is the child of exactly one joint)";
    if (e.find("No root link found") != std::string::npos)
      return "kinematic loop: there is no root link (every link is the child of a joint)";
  }
  // A number urdfdom could not read: NaN, inf, overflow or junk.
  bool number = false;
  for (const auto& e : errors)
    for (const char* key : {"not a float", "not a valid double", "to a double", "converting string to double",
                            "Failed converting"})
      number = number || e.find(key) != std::string::npos;
  const std::string all = join(errors, "; ");
  if (number)
    return "a number could not be read as a finite double (NaN, inf, overflow or text): urdfdom says: " + all;
  if (!errors.empty() && errors.front().rfind("Error", 0) == 0 && errors.size() == 1)
    return "not a well-formed XML document (TinyXML: " + errors.front() + ")";
  return "urdfdom rejected the file: " + all;
}

// R itself, or the signed permutation P it approximates when |R_ij - P_ij| <= 4 eps for every
// entry (the header says why). 4 eps: urdfdom's sines and cosines of the half angles and the
// quaternion's products leave each entry a few ulps from its exact value, and a 16-digit
// decimal of pi/2 is up to 4e-16 off. On the shared robots the snapped entries were at most
// 2 eps from 0 or 1 (iiwa14's "1.570796326794897"); ur5's 11-digit decimals leave entries
// 2e-13 off, far outside, so its rotations are kept as written (and its tau stays at
// Pinocchio's, verify/test_urdf.cpp).
inline Mat3 exact_quarter_turns(const Mat3& R) {
  constexpr double tol = 4 * std::numeric_limits<double>::epsilon();
  Mat3 P;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const double a = std::abs(R(i, j));
      if (a <= tol) P(i, j) = 0.0;
      else if (std::abs(a - 1.0) <= tol) P(i, j) = std::copysign(1.0, R(i, j));
      else return R;
    }
  if (!(P.transpose() * P).isIdentity(0.0) || P.determinant() != 1.0) return R;  // not a rotation: keep R
  return P;
}

// The URDF pose as an rbdlab Transform: E = R^T (R: child axes in parent coordinates,
// formed from urdfdom's quaternion, quarter turns exact), r = xyz.
inline Xform pose_to_transform(const urdf::Pose& p) {
  const Mat3 R = exact_quarter_turns(
      Eigen::Quaterniond(p.rotation.w, p.rotation.x, p.rotation.y, p.rotation.z).toRotationMatrix());
  return Xform{R.transpose(), Vec3(p.position.x, p.position.y, p.position.z)};
}

template <class M> bool all_finite(const M& x) {
  for (Eigen::Index k = 0; k < x.size(); ++k)
    if (!std::isfinite(x.data()[k])) return false;
  return true;
}

// Mass, centre of mass and rotational inertia about it, in some frame.
struct LumpedInertia {
  double m = 0;
  Vec3 c = Vec3::Zero();
  Mat3 I = Mat3::Zero();

  // Adds a body (Pinocchio's Inertia::operator+): the combined centre of mass and the
  // rotational inertia about it, I = I_a + I_b + (m_a m_b / m) (|d|^2 1 - d d^T), d = c_a - c_b.
  void add(const LumpedInertia& b) {
    const double mab = m + b.m;
    if (!(mab > 0)) {  // both massless: only rotational inertia (if any) adds
      I += b.I;
      return;
    }
    const Vec3 d = c - b.c;
    const double k = m * b.m / mab;
    c = (m / mab) * c + (b.m / mab) * b.c;
    I += b.I + k * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
    m = mab;
  }
};

// A link's own inertia in its body's frame, X_LB = ^L X_B (E: B -> L coordinates,
// r = L's origin in B coordinates): c_B = r + E^T c_L, I_B = E^T I_L E.
inline LumpedInertia link_inertia(const urdf::Link& link, const Xform& X_LB, const std::string& where) {
  LumpedInertia out;
  if (!link.inertial) return out;
  const urdf::Inertial& in = *link.inertial;
  const Xform Xi = pose_to_transform(in.origin);   // E = R_I^T
  const Mat3 RI = Xi.E.transpose();
  Mat3 I;
  I << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
  if (!std::isfinite(in.mass) || !all_finite(I) || !all_finite(Xi.r) || !all_finite(RI))
    throw UrdfError(where + ": <inertial> contains a non-finite number");
  if (in.mass < 0) throw UrdfError(where + ": negative mass " + fmt(in.mass) + " in <inertial>");
  // Physical validity of the tensor as given: positive semi-definite, triangle inequality
  // (I3 <= I1 + I2 for the principal moments). The slack is ModelBuilder's (16 eps trace).
  Eigen::SelfAdjointEigenSolver<Mat3> es(I);
  const Vec3 p = es.eigenvalues();
  const double slack = 16 * 2.2e-16 * std::abs(p.sum());
  if (p[0] < -slack)
    throw UrdfError(where + ": <inertia> is not positive semi-definite (principal moments " + fmt(p) + ")");
  if (p[2] > p[0] + p[1] + slack)
    throw UrdfError(where + ": <inertia> violates the triangle inequality (principal moments " + fmt(p) +
                    ": the largest exceeds the sum of the other two)");
  out.m = in.mass;
  const Vec3 cL = Xi.r;
  const Mat3 IL = RI * I * RI.transpose();
  out.c = X_LB.r + X_LB.E.transpose() * cL;
  out.I = X_LB.E.transpose() * IL * X_LB.E;
  if (!all_finite(out.c) || !all_finite(out.I))
    throw UrdfError(where + ": <inertial> overflows when expressed in the body frame (numbers too large)");
  return out;
}

// The smallest rotation Ra with Ra z = n (n unit): about z x n; a half turn about x for n = -z.
inline Mat3 rotation_z_to(const Vec3& n) {
  const Vec3 z(0, 0, 1);
  if (n == z) return Mat3::Identity();
  if (n == -z) return exact_quarter_turns(Eigen::AngleAxisd(std::numbers::pi, Vec3::UnitX()).toRotationMatrix());
  return exact_quarter_turns(Eigen::Quaterniond::FromTwoVectors(z, n).toRotationMatrix());
}

struct BodyRecord {
  std::string link, joint;
  int parent = -1;
  Joint<double> joint_model;
  Xform Xtree;
  LumpedInertia inertia;
  std::vector<std::string> links;
  bool own_inertial = false;
};

inline UrdfModel build(const urdf::ModelInterface& urdf_model, const UrdfOptions& opt, const std::string& src) {
  UrdfModel out;
  out.robot_name = urdf_model.getName();
  const urdf::LinkConstSharedPtr root = urdf_model.getRoot();
  if (!root) throw UrdfError(src + ": no root link");
  out.root_link = root->name;

  // Tree checks urdfdom does not make: a link that is the child of two joints (a closed
  // chain), and links unreachable from the root (a cycle detached from it).
  std::map<std::string, std::vector<std::string>> parents_of;  // child link -> joints
  for (const auto& [jname, j] : urdf_model.joints_) parents_of[j->child_link_name].push_back(jname);
  for (const auto& [child, joints] : parents_of)
    if (joints.size() > 1)
      throw UrdfError(src + ": kinematic loop: link '" + child + "' is the child of " +
                      std::to_string(joints.size()) + " joints (" + join(joints, ", ") +
                      "); URDF describes trees, closed chains are not supported");

  std::vector<BodyRecord> bodies;
  // Depth-first, preorder, children in urdfdom's order, with an explicit stack (deep chains
  // must not overflow the call stack). A pending entry is a joint still to be processed,
  // with the body its parent link belongs to and that link's ^P X_Bp.
  struct Pending {
    urdf::JointConstSharedPtr joint;
    int parent_body;   // rbdlab body of the parent link (-1 = fixed base)
    Xform X_PB;        // ^P X_Bp: from that body's coordinates to the parent link's
  };
  std::set<std::string> visited;
  std::vector<Pending> stack;

  // Adds link `link`, which belongs to body b with ^L X_B = X_LB, and schedules its joints.
  auto visit_link = [&](const urdf::LinkConstSharedPtr& link, int b, const Xform& X_LB) {
    if (!visited.insert(link->name).second)
      throw UrdfError(src + ": kinematic loop: link '" + link->name + "' is reached twice from the root");
    const LumpedInertia li = link_inertia(*link, X_LB, src + ": link '" + link->name + "'");
    if (b >= 0) {
      BodyRecord& r = bodies[b];
      r.inertia.add(li);
      if (link->name == r.link) r.own_inertial = static_cast<bool>(link->inertial);
      else r.links.push_back(link->name);
    }
    for (auto it = link->child_joints.rbegin(); it != link->child_joints.rend(); ++it)
      stack.push_back({*it, b, X_LB});  // reversed: popped in urdfdom's order
  };

  if (opt.floating) {
    BodyRecord r;
    r.link = root->name;
    r.joint = opt.root_joint_name;
    r.parent = -1;
    r.joint_model.type = JointType::Free;
    r.links = {root->name};
    bodies.push_back(r);
    visit_link(root, 0, Xform::identity());
  } else {
    visit_link(root, -1, Xform::identity());
  }
  while (!stack.empty()) {
    const Pending pending = stack.back();
    stack.pop_back();
    const urdf::Joint& j = *pending.joint;
    const std::string where = src + ": joint '" + j.name + "'";
    urdf::LinkConstSharedPtr child = urdf_model.getLink(j.child_link_name);
    if (!child) throw UrdfError(where + " names child link '" + j.child_link_name + "', which is not defined");
    const Xform O = pose_to_transform(j.parent_to_joint_origin_transform);  // ^C0 X_P
    if (!all_finite(O.E) || !all_finite(O.r)) throw UrdfError(where + ": <origin> contains a non-finite number");
    const Xform XP = O * pending.X_PB;  // ^C0 X_Bp: parent body coordinates -> joint frame
    if (!all_finite(XP.E) || !all_finite(XP.r))
      throw UrdfError(where + ": <origin> overflows when composed with the fixed joints above it");
    if (j.type == urdf::Joint::FIXED) {
      visit_link(child, pending.parent_body, XP);  // merged: same body, composed transform
      continue;
    }
    BodyRecord r;
    r.link = child->name;
    r.joint = j.name;
    r.parent = pending.parent_body;
    r.links = {child->name};
    r.Xtree = XP;
    Xform X_CB = Xform::identity();  // ^C X_B: the body frame is the child link's frame ...
    const Vec3 axis(j.axis.x, j.axis.y, j.axis.z);
    auto unit_axis = [&]() {
      if (!all_finite(axis) || !(axis.cwiseAbs().maxCoeff() > 0))
        throw UrdfError(where + ": <axis xyz=\"" + fmt(axis) + "\"> is not a non-zero finite vector");
      // Plain norm (as ModelBuilder), so a unit axis read back from to_urdf is unchanged;
      // pre-scaled by the largest entry only if the squares would overflow or underflow.
      const double n = axis.norm();
      if (n > 0 && std::isfinite(n)) return Vec3(axis / n);
      const Vec3 a = axis / axis.cwiseAbs().maxCoeff();
      return Vec3(a / a.norm());
    };
    switch (j.type) {
      case urdf::Joint::REVOLUTE:
      case urdf::Joint::CONTINUOUS:
        r.joint_model.type = JointType::Revolute;
        r.joint_model.axis = unit_axis();
        break;
      case urdf::Joint::PRISMATIC:
        r.joint_model.type = JointType::Prismatic;
        r.joint_model.axis = unit_axis();
        break;
      case urdf::Joint::FLOATING:
        r.joint_model.type = JointType::Free;
        break;
      case urdf::Joint::PLANAR: {
        r.joint_model.type = JointType::Planar;
        const Mat3 Ra = rotation_z_to(unit_axis());
        r.Xtree = Xform{Ra.transpose(), Vec3::Zero()} * XP;  // joint frame turned so that z = n
        X_CB = Xform{Ra, Vec3::Zero()};                        // ... except after a planar joint
        break;
      }
      default:
        throw UrdfError(where + ": unknown or unsupported joint type (supported: revolute, continuous, "
                                "prismatic, fixed, floating, planar)");
    }
    if (j.mimic)
      out.warnings.push_back("joint '" + j.name + "' mimics joint '" + j.mimic->joint_name +
                             "': the mimic tag is ignored, it is an independent degree of freedom");
    bodies.push_back(r);
    visit_link(child, static_cast<int>(bodies.size()) - 1, X_CB);
  }
  std::vector<std::string> unreachable;
  for (const auto& [name, link] : urdf_model.links_)
    if (!visited.count(name)) unreachable.push_back(name);
  if (!unreachable.empty())
    throw UrdfError(src + ": kinematic loop: link(s) " + join(unreachable, ", ") + " cannot be reached from the root '" +
                    root->name + "' (they form a closed chain of joints)");
  if (bodies.empty())
    throw UrdfError(src + ": no moving joints: every joint is fixed, so the robot is one rigid body welded to the "
                          "world (load it with the floating option to give it a free root joint)");

  ModelBuilder b(opt.name.empty() ? out.robot_name : opt.name);
  b.gravity(opt.gravity);
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const BodyRecord& r = bodies[i];
    std::string where = src + ": link '" + r.link + "' (moving body " + std::to_string(i) + ", joint '" + r.joint + "'";
    if (r.links.size() > 1) {
      std::vector<std::string> merged(r.links.begin() + 1, r.links.end());
      where += ", with fixed link(s) " + join(merged, ", ") + " merged into it";
    }
    where += ")";
    if (!(r.inertia.m > 0)) {
      if (!r.own_inertial && r.links.size() == 1)
        throw UrdfError(where + ": missing <inertial>: a moving link needs mass (a link without <inertial> is "
                                "accepted only as the fixed root or when merged by a fixed joint into a body with mass)");
      if (!r.own_inertial)
        throw UrdfError(where + ": missing <inertial>, and nothing fixed to it has mass: a moving body needs "
                                "positive mass");
      throw UrdfError(where + ": non-positive mass " + fmt(r.inertia.m) + ": a moving body needs positive mass");
    }
    const Inertia<double> spatial = Inertia<double>::from_com(r.inertia.m, r.inertia.c, r.inertia.I);
    if (!all_finite(spatial.h) || !all_finite(spatial.Ibar))
      throw UrdfError(where + ": the spatial inertia overflows (numbers too large)");
    try {
      b.add_body(r.link, r.parent, r.joint_model, r.Xtree, r.inertia.m, r.inertia.c, r.inertia.I);
    } catch (const ModelError& e) {
      // ModelBuilder's message starts "body <i> '<name>': ", which `where` already says.
      std::string what = e.what();
      const std::string prefix = "body " + std::to_string(i) + " '" + r.link + "': ";
      if (what.rfind(prefix, 0) == 0) what = what.substr(prefix.size());
      throw UrdfError(where + ": " + what);
    }
    out.joint_names.push_back(r.joint);
    out.links.push_back(r.links);
  }
  out.model = b.finish();
  return out;
}

}  // namespace urdf_detail

namespace urdf_detail {
// urdfdom 3.0 builds some error messages by pasting attribute text (numbers, link and
// joint names) into the printf format it hands to console_bridge ("Inertial: mass [" +
// value + "] is not a float"), so a '%' there is read as a conversion (%s reads garbage and
// crashes, %n writes): undefined behaviour inside urdfdom, found by feeding it "%s" in a
// link name and in a mass. So any attribute value containing '%' (or its character
// reference &#37; / &#x25;) is rejected before urdfdom sees the text; only `filename`
// (mesh paths may be URL-encoded; urdfdom does not echo them) is exempt. A '%' is never
// part of a number, and names with '%' are vanishingly rare. This is a lexical scan of the
// attribute values (comments and CDATA skipped), not an XML parser.
inline void reject_percent_in_attributes(const std::string& xml, const std::string& source) {
  const std::size_t n = xml.size();
  bool in_tag = false;
  for (std::size_t i = 0; i < n; ++i) {
    if (xml.compare(i, 4, "<!--") == 0) {
      const std::size_t e = xml.find("-->", i + 4);
      if (e == std::string::npos) return;  // unterminated: TinyXML reports it
      i = e + 2;
      continue;
    }
    if (xml.compare(i, 9, "<![CDATA[") == 0) {
      const std::size_t e = xml.find("]]>", i + 9);
      if (e == std::string::npos) return;
      i = e + 2;
      continue;
    }
    const char c = xml[i];
    if (c == '<') { in_tag = true; continue; }
    if (!in_tag) continue;
    if (c == '>') { in_tag = false; continue; }
    if (c != '"' && c != '\'') continue;
    const std::size_t close = xml.find(c, i + 1);
    if (close == std::string::npos) return;
    const std::string value = xml.substr(i + 1, close - i - 1);
    // The attribute name: the identifier before '=' before the opening quote.
    std::size_t k = i;
    while (k > 0 && std::isspace(static_cast<unsigned char>(xml[k - 1]))) --k;
    if (k > 0 && xml[k - 1] == '=') --k;
    while (k > 0 && std::isspace(static_cast<unsigned char>(xml[k - 1]))) --k;
    const std::size_t name_end = k;
    while (k > 0 && !std::isspace(static_cast<unsigned char>(xml[k - 1])) && xml[k - 1] != '<' &&
           xml[k - 1] != '"' && xml[k - 1] != '\'')
      --k;
    const std::string attr = xml.substr(k, name_end - k);
    bool percent = value.find('%') != std::string::npos;
    for (std::size_t a = value.find("&#"); !percent && a != std::string::npos; a = value.find("&#", a + 2)) {
      // A numeric character reference (&#37;, &#x25;, &#0037;, ...) that TinyXML decodes to '%'.
      std::size_t b = a + 2;
      const bool hex = b < value.size() && (value[b] == 'x' || value[b] == 'X');
      if (hex) ++b;
      unsigned long code = 0;
      for (; b < value.size() && std::isxdigit(static_cast<unsigned char>(value[b])) && code <= 0x10FFFF; ++b) {
        const char d = value[b];
        if (!hex && !std::isdigit(static_cast<unsigned char>(d))) break;
        code = code * (hex ? 16 : 10) + static_cast<unsigned long>(std::isdigit(static_cast<unsigned char>(d))
                                                                       ? d - '0'
                                                                       : std::tolower(static_cast<unsigned char>(d)) - 'a' + 10);
      }
      percent = code == 0x25;
    }
    if (percent && attr != "filename") {
      const std::size_t line = 1 + static_cast<std::size_t>(std::count(xml.begin(), xml.begin() + i, '\n'));
      throw UrdfError(source + ": line " + std::to_string(line) + ": attribute '" + attr + "' has the value '" +
                      value.substr(0, 80) + "', which contains '%': not accepted in URDF numbers or names "
                      "(urdfdom would use it as a printf format)");
    }
    i = close;
  }
}
// TinyXML 2.6.2 (urdfdom's parser) reads a UTF-8 character by its lead byte's length
// (TiXmlBase::GetChar: C2-DF two bytes, E0-EF three, F0-F4 four) and steps over that many
// bytes even when the text's terminating NUL lies among them, so a file that ends inside a
// multi-byte character makes it read past the end of the buffer. fuzz_urdf reported a
// heap-buffer-overflow on such inputs (bytes F0-FF in a text TinyXML reads as UTF-8) that did not
// reproduce when the saved input was run alone: TinyXML itself is not instrumented, so the
// over-read shows only if it reaches an intercepted copy, which depends on what follows the
// buffer on the heap. This is the one over-read of that kind in its UTF-8 reading. Embedded NULs are already
// refused, so the end of the text is the only place this can happen: a text whose last lead
// byte announces more bytes than remain is refused here. Such a file is truncated (or not
// UTF-8 at all); the rest of the encoding is left to TinyXML.
inline void reject_truncated_utf8(const std::string& xml, const std::string& source) {
  const std::size_t n = xml.size();
  for (std::size_t back = 1; back <= 3 && back <= n; ++back) {
    const auto b = static_cast<unsigned char>(xml[n - back]);
    const std::size_t len = b >= 0xF0 && b <= 0xF4 ? 4 : b >= 0xE0 && b <= 0xEF ? 3 : b >= 0xC2 && b <= 0xDF ? 2 : 1;
    if (len > back)
      throw UrdfError(source + ": not a well-formed XML document (the text ends inside a multi-byte UTF-8 character, "
                      "byte " + std::to_string(n - back) + " of " + std::to_string(n) + ": truncated file, or not UTF-8?)");
  }
}
}  // namespace urdf_detail

// Parses URDF text. `source` names the input in error messages (a path, "<string>").
inline UrdfModel parse_urdf(const std::string& xml, const UrdfOptions& options = {},
                            const std::string& source = "<string>") {
  using namespace urdf_detail;
  if (xml.find('\0') != std::string::npos)
    throw UrdfError(source + ": not a well-formed XML document (contains a NUL byte; binary file?)");
  reject_percent_in_attributes(xml, source);
  reject_truncated_utf8(xml, source);
  urdf::ModelInterfaceSharedPtr m;
  CapturedLog log;
  {
    // console_bridge's handler is process-wide: one parse at a time.
    static std::mutex parse_mutex;
    const std::lock_guard<std::mutex> lock(parse_mutex);
    ScopedLogCapture capture(&log);
    try {
      m = urdf::parseURDF(xml);
    } catch (const std::exception& e) {  // e.g. a malformed version attribute
      log.errors.push_back(e.what());
      m.reset();
    }
  }
  // urdfdom sometimes logs an error and still returns a model (e.g. mass="nan" leaves the
  // link with an unparsed inertial): any logged error is a failure.
  if (!m || !log.errors.empty()) {
    if (log.errors.empty()) log.errors.push_back("parseURDF returned no model");
    throw UrdfError(source + ": " + explain_urdfdom_failure(log.errors));
  }
  // urdfdom links its tree with shared_ptrs both ways down (child_links, child_joints); a
  // kinematic loop in the file makes a reference cycle that would never be freed (found by
  // verify/fuzz/fuzz_urdf.cpp's leak checker). Break every link's references once the model
  // is built or rejected.
  struct BreakCycles {
    urdf::ModelInterface& model;
    ~BreakCycles() {
      for (auto& [name, link] : model.links_)
        if (link) link->clear();
    }
  } break_cycles{*m};
  UrdfModel out = build(*m, options, source);
  for (const auto& w : log.warnings) out.warnings.push_back("urdfdom: " + w);
  return out;
}

// Reads and parses a URDF file.
inline UrdfModel load_urdf(const std::string& path, const UrdfOptions& options = {}) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) throw UrdfError(path + ": file not found");
  if (fs::is_directory(st)) throw UrdfError(path + ": is a directory, not a URDF file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UrdfError(path + ": cannot open the file for reading (" + std::strerror(errno) + ")");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw UrdfError(path + ": read error");
  const std::string text = ss.str();
  if (text.empty()) throw UrdfError(path + ": the file is empty (not a URDF document)");
  return parse_urdf(text, options, path);
}

}  // namespace rbd::cases
