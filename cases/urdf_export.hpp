#pragma once
// rbd::Model<double> -> URDF text, the inverse of cases/urdf_loader.hpp:
//
//   std::string to_urdf(model, joint_names = {})
//
// Joints: Revolute -> "continuous" (rbdlab models carry no limits), Prismatic ->
// "prismatic" (URDF requires a <limit>; a placeholder of +-1e9 is written and marked as
// such), Free -> "floating", Planar (rbdlab's is about z) -> "planar" with axis z. Helical,
// cylindrical and spherical joints have no URDF equivalent: std::invalid_argument naming
// the body.
//
// Layout: a massless root link (named "world", or "world_<k>" if a body already has that
// name) is the fixed base; every body is one link named after it (made unique by appending
// "_<index>" if needed), carrying its mass, centre of mass and rotational inertia about the
// centre of mass in body coordinates (inertial origin rpy = 0); each joint's origin is the
// body's X_T: xyz = r, rpy from R = E^T (R = Rz(y) Ry(p) Rx(r), Eigen's eulerAngles(2, 1, 0),
// stable at gimbal lock). Joint names are `joint_names[i]` when given (e.g. those the loader
// returned), else "joint_<body name>". Numbers are written with 17 significant digits, so
// every double reads back exactly; only the rotation passes through rpy angles and the
// loader's quaternion, which costs a few ulps per rotation entry.
// Body order: load_urdf numbers bodies depth first, visiting siblings in joint-name order
// (urdfdom's). The default joint names start with the zero-padded body index
// ("j07_<body>"), so a model numbered depth first (every chain, GU(n), DH chains) reads back
// in its own order; a breadth-first tree reads back depth first, and the joint names say
// which body is which.
// Gravity is not part of URDF; a comment records it (pass it to load_urdf's options).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include "model/model.hpp"

namespace rbd::cases {

namespace urdf_export_detail {

inline std::string num(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}
inline std::string vec(const Vec3<double>& v) { return num(v[0]) + " " + num(v[1]) + " " + num(v[2]); }

inline std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  return out;
}

// URDF roll, pitch, yaw of the rotation R (child axes in parent coordinates).
inline Vec3<double> rpy(const Mat3<double>& R) {
  const Vec3<double> ypr = R.eulerAngles(2, 1, 0);  // R = Rz(ypr0) Ry(ypr1) Rx(ypr2)
  return Vec3<double>(ypr[2], ypr[1], ypr[0]);
}

}  // namespace urdf_export_detail

inline std::string to_urdf(const Model<double>& model, const std::vector<std::string>& joint_names = {}) {
  using namespace urdf_export_detail;
  if (!joint_names.empty() && static_cast<int>(joint_names.size()) != model.nb)
    throw std::invalid_argument("to_urdf: " + std::to_string(joint_names.size()) + " joint names for " +
                                std::to_string(model.nb) + " bodies");
  // Unique link and joint names.
  std::set<std::string> used;
  auto unique = [&](const std::string& want, int index) {
    std::string name = want.empty() ? "body" : want;
    if (used.count(name)) name += "_" + std::to_string(index);
    while (used.count(name)) name += "_";
    used.insert(name);
    return name;
  };
  std::vector<std::string> link(model.nb), joint(model.nb);
  std::string base = "world";
  for (const auto& n : model.body_name) used.insert(n);
  for (int k = 0; used.count(base); ++k) base = "world_" + std::to_string(k);
  used.clear();
  used.insert(base);
  for (int i = 0; i < model.nb; ++i) link[i] = unique(model.body_name[i], i);
  const int width = static_cast<int>(std::to_string(std::max(model.nb - 1, 0)).size());
  for (int i = 0; i < model.nb; ++i) {
    char idx[32];
    std::snprintf(idx, sizeof idx, "j%0*d_", width, i);
    joint[i] = unique(joint_names.empty() ? idx + link[i] : joint_names[i], i);
  }

  std::ostringstream os;
  os << "<?xml version=\"1.0\"?>\n"
     << "<!-- Exported by rbdlab (cases/urdf_export.hpp) from model '" << xml_escape(model.name) << "': "
     << model.nb << " bodies, nq = " << model.nq << ", nv = " << model.nv << ".\n"
     << "     Gravity (not part of URDF): " << vec(model.gravity) << ". -->\n"
     << "<robot name=\"" << xml_escape(model.name.empty() ? "rbdlab_model" : model.name) << "\">\n"
     << "  <link name=\"" << xml_escape(base) << "\"/>\n";
  for (int i = 0; i < model.nb; ++i) {
    const Mat3<double>& I = model.Icom[i];
    os << "  <link name=\"" << xml_escape(link[i]) << "\">\n"
       << "    <inertial>\n"
       << "      <origin xyz=\"" << vec(model.com[i]) << "\" rpy=\"0 0 0\"/>\n"
       << "      <mass value=\"" << num(model.mass[i]) << "\"/>\n"
       << "      <inertia ixx=\"" << num(I(0, 0)) << "\" ixy=\"" << num(I(0, 1)) << "\" ixz=\"" << num(I(0, 2))
       << "\" iyy=\"" << num(I(1, 1)) << "\" iyz=\"" << num(I(1, 2)) << "\" izz=\"" << num(I(2, 2)) << "\"/>\n"
       << "    </inertial>\n"
       << "  </link>\n";
  }
  for (int i = 0; i < model.nb; ++i) {
    const Joint<double>& j = model.joint[i];
    std::string type, axis;
    bool limit = false;
    switch (j.type) {
      case JointType::Revolute: type = "continuous"; axis = vec(j.axis); break;
      case JointType::Prismatic: type = "prismatic"; axis = vec(j.axis); limit = true; break;
      case JointType::Free: type = "floating"; break;
      case JointType::Planar: type = "planar"; axis = "0 0 1"; break;
      default:
        throw std::invalid_argument("to_urdf: body " + std::to_string(i) + " '" + model.body_name[i] + "' has a " +
                                    std::string(joint_type_name(j.type)) +
                                    " joint, which URDF cannot express (supported: revolute, prismatic, free, planar)");
    }
    const Transform<double>& X = model.Xtree[i];
    os << "  <joint name=\"" << xml_escape(joint[i]) << "\" type=\"" << type << "\">\n"
       << "    <parent link=\"" << xml_escape(model.parent[i] < 0 ? base : link[model.parent[i]]) << "\"/>\n"
       << "    <child link=\"" << xml_escape(link[i]) << "\"/>\n"
       << "    <origin xyz=\"" << vec(X.r) << "\" rpy=\"" << vec(rpy(X.E.transpose())) << "\"/>\n";
    if (!axis.empty()) os << "    <axis xyz=\"" << axis << "\"/>\n";
    if (limit)
      os << "    <!-- placeholder: URDF requires limits on a prismatic joint; rbdlab models have none -->\n"
         << "    <limit lower=\"-1e9\" upper=\"1e9\" effort=\"1e9\" velocity=\"1e9\"/>\n";
    os << "  </joint>\n";
  }
  os << "</robot>\n";
  return os.str();
}

}  // namespace rbd::cases
