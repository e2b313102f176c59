#pragma once
// MJCF export of an rbdlab Model, so that MuJoCo (a peer in bench/ and in
// verify/test_mjcf_peer.cpp) sees the same mechanism with the same parameters.
//
//   to_mjcf(model)                       the MJCF text (throws std::invalid_argument for a
//                                        joint MuJoCo cannot represent, naming it)
//   to_mujoco_coordinates(model, q, qd, qdd)
//                                        rbdlab's state in MuJoCo's variables, joint by joint
//                                        in rbdlab's body order (bench/mujoco_peer.hpp puts
//                                        each body's slice at MuJoCo's addresses)
//   mujoco_velocity_map(model, q)        T with qvel_mujoco = T qd (same order), so that
//                                        tau = T^T tau_mujoco and H = T^T H_mujoco T
// This header does not include MuJoCo; it is plain text and Eigen.
//
// Frames. rbdlab's tree transform X_T(i) = (E, r) = rot(E) xlt(r): E rotates coordinates
// from the parent body frame to the joint's predecessor frame F_p, r is F_p's origin in
// parent coordinates (model/model.hpp, core/transform.hpp). A MuJoCo <body pos quat> gives
// the body frame's origin in the parent frame (pos = r) and its orientation relative to the
// parent (the rotation whose columns are the child's axes in parent coordinates, E^T),
// written as a unit quaternion [w x y z]. MuJoCo then applies the body's joints in the order
// written, about/along axes given in that frame, anchored at its origin (joint pos = 0), so
// its body frame after the joints is rbdlab's F_s = XJ F_p.
//
// Joints (Featherstone Table 4.1 -> MuJoCo):
//   revolute    -> hinge  axis = a          q, qd, qdd identical
//   prismatic   -> slide  axis = a          identical
//   cylindrical -> hinge + slide, both on a (rotation about and translation along the same
//                  axis commute), in that order: [angle, displacement], as rbdlab's q
//   spherical   -> ball                     q = quaternion of F_s in F_p, qd = angular
//                                           velocity in F_s: MuJoCo's convention exactly
//   free        -> free (only for a body on the fixed base, MuJoCo's restriction):
//       rbdlab: q = [quat; p] of F_s in F_p, qd = [w; v] BOTH in F_s coordinates (v = velocity
//               of F_s's origin), qdd = d/dt of those components;
//       MuJoCo: qpos = [p_world; quat_world] of the body frame, qvel = [v_world; w_body]:
//               linear velocity of the body origin in WORLD coordinates, angular in BODY;
//               and MuJoCo's free joint ignores the body's pos/quat (it sets the world pose
//               from qpos), so rbdlab's X_T is folded into qpos.
//       With R = E_T^T R(quat) (body -> world rotation):
//         qpos = [r + E_T^T p; quat(E_T^T) (x) quat],  qvel = [R v; w],
//         qacc = [R (vd + w x v); wd]   (d/dt (R v) = R (w x v + vd)),
//         and generalized forces/inertia by duality: tau = [tau_w; R^T tau_v] (rbdlab order
//         [angular; linear]), H = T^T H_mujoco T with T = [[0, R], [1, 0]].
//   helical, planar -> std::invalid_argument (MuJoCo 2.x has no screw joint, and a planar
//       joint as two slides + a hinge has different velocity variables from rbdlab's
//       body-frame planar joint; neither is needed by the benchmark cases).
//
// Inertia. Two forms (InertiaForm), both with pos = centre of mass and the mass:
//  - principal (the default): quat + diaginertia computed here -- the principal axes as a
//    proper rotation (Eigen's self-adjoint eigensolver in double; an exactly diagonal tensor
//    is written as it is, with the identity quaternion) and the principal moments. MuJoCo
//    stores these as they are (body_iquat, body_inertia), so the tensor it uses differs from
//    rbdlab's by rounding only: measured <= 1.4e-15 relative (verify/test_mjcf_peer.cpp).
//  - full: fullinertia="Ixx Iyy Izz Ixy Ixz Iyz" (about the centre of mass, body
//    coordinates). MuJoCo's compiler re-diagonalises it with mju_eig3, a Jacobi iteration
//    that stops when a rotation's cosine exceeds 1 - 1e-12, i.e. leaves a residual rotation of
//    up to sqrt(2e-12) = 1.4e-6 rad, and builds each rotation's quaternion from
//    sqrt(0.5 - 0.5 c), which cancels for small angles. Measured on GU(n): the tensor MuJoCo
//    then uses is off by up to 5e-7 relative, and tau and H by ~1e-9. Mathematically the same
//    body, numerically not: hence principal is the default for the peer comparison.
// Compiler flags: angle="radian" (no degrees anywhere), inertiafromgeom="false" (no geoms:
// the explicit inertials are used as written), boundmass="0" boundinertia="0" (no clamping),
// balanceinertia="false" (no silent repair of the triangle inequality), settotalmass="-1"
// (no rescaling), fusestatic="false" (no merging of bodies), autolimits="true" (no ranges
// are written, so every joint is unlimited). Joints get damping, armature, frictionloss and
// stiffness 0 (MuJoCo's defaults, written explicitly). Gravity comes from model.gravity.
// Numbers are written as the shortest decimal that reads back as the same double
// (std::to_chars), so MuJoCo parses exactly rbdlab's doubles.
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>

#include "model/model.hpp"

namespace rbd::cases {

enum class InertiaForm { full, principal };

namespace mjcf_detail {

inline std::string num(double x) {
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, res.ptr);
}
template <class V> std::string nums(const V& v) {
  std::string s;
  for (Eigen::Index k = 0; k < v.size(); ++k) {
    if (k) s += ' ';
    s += num(v[k]);
  }
  return s;
}

// Unit quaternion [w x y z] of a rotation matrix R (columns = rotated axes), Shepperd's
// method: the largest of 4w^2, 4x^2, 4y^2, 4z^2 is taken as the pivot, so no division by a
// small number. quat_to_matrix (model/joint.hpp) inverts it.
inline Eigen::Vector4d matrix_to_quat(const Mat3<double>& R) {
  const double t = R.trace();
  Eigen::Vector4d q;
  if (t >= R(0, 0) && t >= R(1, 1) && t >= R(2, 2)) {
    const double s = 2 * std::sqrt(1 + t);  // 4w
    q << s / 4, (R(2, 1) - R(1, 2)) / s, (R(0, 2) - R(2, 0)) / s, (R(1, 0) - R(0, 1)) / s;
  } else if (R(0, 0) >= R(1, 1) && R(0, 0) >= R(2, 2)) {
    const double s = 2 * std::sqrt(1 + R(0, 0) - R(1, 1) - R(2, 2));  // 4x
    q << (R(2, 1) - R(1, 2)) / s, s / 4, (R(0, 1) + R(1, 0)) / s, (R(0, 2) + R(2, 0)) / s;
  } else if (R(1, 1) >= R(2, 2)) {
    const double s = 2 * std::sqrt(1 - R(0, 0) + R(1, 1) - R(2, 2));  // 4y
    q << (R(0, 2) - R(2, 0)) / s, (R(0, 1) + R(1, 0)) / s, s / 4, (R(1, 2) + R(2, 1)) / s;
  } else {
    const double s = 2 * std::sqrt(1 - R(0, 0) - R(1, 1) + R(2, 2));  // 4z
    q << (R(1, 0) - R(0, 1)) / s, (R(0, 2) + R(2, 0)) / s, (R(1, 2) + R(2, 1)) / s, s / 4;
  }
  if (q[0] < 0) q = -q;  // same rotation; w >= 0 for a canonical text
  return q / q.norm();
}

// Hamilton product a (x) b of quaternions [w x y z].
inline Eigen::Vector4d quat_mul(const Eigen::Vector4d& a, const Eigen::Vector4d& b) {
  return Eigen::Vector4d(a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
                         a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
                         a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
                         a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]);
}

inline std::string joint_label(const Model<double>& m, int i) {
  return "body " + std::to_string(i) + " '" + m.body_name[i] + "' (" +
         std::string(joint_type_name(m.joint[i].type)) + " joint)";
}

inline void check_representable(const Model<double>& m) {
  for (int i = 0; i < m.nb; ++i) {
    const JointType t = m.joint[i].type;
    if (t == JointType::Helical || t == JointType::Planar)
      throw std::invalid_argument("to_mjcf: " + joint_label(m, i) +
                                  ": MuJoCo has no equivalent joint (helical and planar joints are not exported)");
    if (t == JointType::Free && m.parent[i] != -1)
      throw std::invalid_argument("to_mjcf: " + joint_label(m, i) +
                                  ": MuJoCo allows a free joint only on a body attached to the world");
  }
}

inline void write_body(const Model<double>& m, int i, const std::vector<std::vector<int>>& children,
                       InertiaForm form, int depth, std::string& out) {
  const std::string ind(2 * depth, ' ');
  const Transform<double>& X = m.Xtree[i];
  out += ind + "<body name=\"b" + std::to_string(i) + "\" pos=\"" + nums(X.r) + "\" quat=\"" +
         nums(matrix_to_quat(X.E.transpose())) + "\">\n";
  const Mat3<double>& I = m.Icom[i];
  if (form == InertiaForm::full) {
    out += ind + "  <inertial pos=\"" + nums(m.com[i]) + "\" mass=\"" + num(m.mass[i]) + "\" fullinertia=\"" +
           num(I(0, 0)) + " " + num(I(1, 1)) + " " + num(I(2, 2)) + " " + num(I(0, 1)) + " " + num(I(0, 2)) +
           " " + num(I(1, 2)) + "\"/>\n";
  } else {
    Eigen::Vector4d quat(1, 0, 0, 0);
    Vec3<double> moments = I.diagonal();
    if (I(0, 1) != 0 || I(0, 2) != 0 || I(1, 2) != 0) {
      Eigen::SelfAdjointEigenSolver<Mat3<double>> es(I);
      Mat3<double> V = es.eigenvectors();  // columns: principal axes in body coordinates
      if (V.determinant() < 0) V.col(2) = -V.col(2);
      quat = matrix_to_quat(V);
      moments = es.eigenvalues();
    }
    out += ind + "  <inertial pos=\"" + nums(m.com[i]) + "\" mass=\"" + num(m.mass[i]) + "\" quat=\"" +
           nums(quat) + "\" diaginertia=\"" + nums(moments) + "\"/>\n";
  }
  const Joint<double>& j = m.joint[i];
  const std::string name = "j" + std::to_string(i);
  const std::string axis = " axis=\"" + nums(j.axis) + "\"";
  switch (j.type) {
    case JointType::Revolute:
      out += ind + "  <joint name=\"" + name + "\" type=\"hinge\"" + axis + "/>\n";
      break;
    case JointType::Prismatic:
      out += ind + "  <joint name=\"" + name + "\" type=\"slide\"" + axis + "/>\n";
      break;
    case JointType::Cylindrical:
      out += ind + "  <joint name=\"" + name + "\" type=\"hinge\"" + axis + "/>\n";
      out += ind + "  <joint name=\"" + name + "s\" type=\"slide\"" + axis + "/>\n";
      break;
    case JointType::Spherical:
      out += ind + "  <joint name=\"" + name + "\" type=\"ball\"/>\n";
      break;
    case JointType::Free:
      out += ind + "  <freejoint name=\"" + name + "\"/>\n";
      break;
    case JointType::Helical:
    case JointType::Planar:
      break;  // refused by check_representable
  }
  for (int c : children[i]) write_body(m, c, children, form, depth + 1, out);
  out += ind + "</body>\n";
}

}  // namespace mjcf_detail

// The MJCF of a model. Bodies are named b<i> and joints j<i> (a cylindrical joint's slide is
// j<i>s) after rbdlab's body index i, since MuJoCo numbers bodies depth-first in the order
// written, which differs from rbdlab's order for a breadth-first tree.
inline std::string to_mjcf(const Model<double>& m, InertiaForm form = InertiaForm::principal) {
  using mjcf_detail::num;
  using mjcf_detail::nums;
  mjcf_detail::check_representable(m);
  std::vector<std::vector<int>> children(m.nb);
  std::vector<int> roots;
  for (int i = 0; i < m.nb; ++i) (m.parent[i] < 0 ? roots : children[m.parent[i]]).push_back(i);
  std::string name;
  for (char c : m.name) name += (c == '"' || c == '<' || c == '>' || c == '&') ? '_' : c;
  std::string out = "<mujoco model=\"" + name + "\">\n";
  out += "  <compiler angle=\"radian\" inertiafromgeom=\"false\" autolimits=\"true\" boundmass=\"0\" "
         "boundinertia=\"0\" balanceinertia=\"false\" settotalmass=\"-1\" fusestatic=\"false\"/>\n";
  out += "  <option gravity=\"" + nums(m.gravity) + "\" integrator=\"Euler\"/>\n";
  out += "  <default>\n    <joint damping=\"0\" armature=\"0\" frictionloss=\"0\" stiffness=\"0\"/>\n  </default>\n";
  out += "  <worldbody>\n";
  for (int r : roots) mjcf_detail::write_body(m, r, children, form, 2, out);
  out += "  </worldbody>\n</mujoco>\n";
  return out;
}

// rbdlab's (q, qd, qdd) in MuJoCo's variables, body by body in rbdlab's order: body i's
// slices start at model.q_idx[i] / model.v_idx[i] and have MuJoCo's lengths, which equal
// rbdlab's (free: 7 and 6, ball: 4 and 3, cylindrical: 2 and 2).
struct MujocoCoordinates {
  VecX<double> qpos, qvel, qacc;
};

inline MujocoCoordinates to_mujoco_coordinates(const Model<double>& m, const VecX<double>& q, const VecX<double>& qd,
                                               const VecX<double>& qdd) {
  MujocoCoordinates c{q, qd, qdd};
  for (int i = 0; i < m.nb; ++i) {
    if (m.joint[i].type != JointType::Free) continue;
    const int iq = m.q_idx[i], iv = m.v_idx[i];
    const Mat3<double> Rp = m.Xtree[i].E.transpose();  // F_p -> world (parent is the world)
    const Eigen::Vector4d qq = q.segment<4>(iq);
    const Mat3<double> R = Rp * quat_to_matrix<double>(qq[0], qq[1], qq[2], qq[3]);  // body -> world
    const Vec3<double> w = qd.segment<3>(iv), v = qd.segment<3>(iv + 3);
    const Vec3<double> wd = qdd.segment<3>(iv), vd = qdd.segment<3>(iv + 3);
    c.qpos.segment<3>(iq) = m.Xtree[i].r + Rp * q.segment<3>(iq + 4);
    c.qpos.segment<4>(iq + 3) = mjcf_detail::quat_mul(mjcf_detail::matrix_to_quat(Rp), qq);
    c.qvel.segment<3>(iv) = R * v;
    c.qvel.segment<3>(iv + 3) = w;
    c.qacc.segment<3>(iv) = R * (vd + w.cross(v));
    c.qacc.segment<3>(iv + 3) = wd;
  }
  return c;
}

// T with qvel_mujoco = T qd, both in rbdlab's body order (identity except at free joints).
// Generalized forces and inertia map by duality: tau = T^T tau_mujoco, H = T^T H_mujoco T.
inline MatX<double> mujoco_velocity_map(const Model<double>& m, const VecX<double>& q) {
  MatX<double> T = MatX<double>::Identity(m.nv, m.nv);
  for (int i = 0; i < m.nb; ++i) {
    if (m.joint[i].type != JointType::Free) continue;
    const int iq = m.q_idx[i], iv = m.v_idx[i];
    const Eigen::Vector4d qq = q.segment<4>(iq);
    const Mat3<double> R = m.Xtree[i].E.transpose() * quat_to_matrix<double>(qq[0], qq[1], qq[2], qq[3]);
    T.block<6, 6>(iv, iv).setZero();
    T.block<3, 3>(iv, iv + 3) = R;                      // v_world = R v
    T.block<3, 3>(iv + 3, iv) = Mat3<double>::Identity();  // w_body = w
  }
  return T;
}

}  // namespace rbd::cases
