#pragma once
// Joint models of Featherstone Table 4.1 and the jcalc routine of section 4.4.
//
// Conventions (all quantities in successor-frame F_s coordinates, as in Table 4.1):
//  - Revolute, Prismatic, Helical, Cylindrical: about/along a unit axis `axis` that is the
//    same in F_p and F_s (Table 4.1 writes them for z; any axis is a rotation of that).
//  - Planar: rotation q0 about z, then translation (q1, q2) in the x-y plane. rbdlab uses the
//    "best of both worlds" variables of Example 4.5: positions in F_p coordinates, velocities
//    in F_s coordinates, so that S is the constant matrix of Table 4.1 and cJ = 0. Hence
//    qd is not dq/dt for this joint: see joint_qdot().
//  - Spherical: q = unit quaternion [w x y z] giving F_s's orientation in F_p; qd = angular
//    velocity in F_s coordinates (Section 4.5, Eq. 4.12 onwards). nq = 4, nv = 3.
//  - Free (6-DoF): q = [quaternion w x y z, position of F_s origin in F_p coordinates];
//    qd = [angular velocity; linear velocity of F_s origin], both in F_s coordinates
//    (Example 4.5 again): S = 1, cJ = 0. nq = 7, nv = 6.
#include <array>
#include <string_view>

#include "core/transform.hpp"

namespace rbd {

enum class JointType { Revolute, Prismatic, Helical, Cylindrical, Planar, Spherical, Free };

inline constexpr std::array<JointType, 7> kAllJointTypes = {
    JointType::Revolute, JointType::Prismatic, JointType::Helical, JointType::Cylindrical,
    JointType::Planar,   JointType::Spherical, JointType::Free};

constexpr std::string_view joint_type_name(JointType t) {
  switch (t) {
    case JointType::Revolute: return "revolute";
    case JointType::Prismatic: return "prismatic";
    case JointType::Helical: return "helical";
    case JointType::Cylindrical: return "cylindrical";
    case JointType::Planar: return "planar";
    case JointType::Spherical: return "spherical";
    case JointType::Free: return "free";
  }
  return "?";
}
constexpr int joint_nv(JointType t) {
  switch (t) {
    case JointType::Revolute: case JointType::Prismatic: case JointType::Helical: return 1;
    case JointType::Cylindrical: return 2;
    case JointType::Planar: case JointType::Spherical: return 3;
    case JointType::Free: return 6;
  }
  return 0;
}
constexpr int joint_nq(JointType t) {
  switch (t) {
    case JointType::Spherical: return 4;
    case JointType::Free: return 7;
    default: return joint_nv(t);
  }
}
// Joints whose motion is a fixed screw (one DoF), the domain of Table 5.2's 3D algorithm.
constexpr bool is_single_dof(JointType t) { return joint_nv(t) == 1; }

template <class S> struct Joint {
  JointType type = JointType::Revolute;
  Vec3<S> axis = Vec3<S>(S(0), S(0), S(1));  // unit; Revolute/Prismatic/Helical/Cylindrical
  S pitch = S(0);                            // Helical: translation per radian
  // 0, 1, 2 when axis is exactly x, y or z (the Rx..Pz rows of Table 4.1), else -1.
  // Lets jcalc use the cheap elementary rotation instead of the general axis formula.
  int aligned = 2;

  int nq() const { return joint_nq(type); }
  int nv() const { return joint_nv(type); }

  template <class T> Joint<T> cast() const {
    return Joint<T>{type, axis.unaryExpr([](const S& x) { return scalar_cast<T>(x); }),
                    scalar_cast<T>(pitch), aligned};
  }
};

// Coordinate rotation (the E of Table 4.1) for an angle about the joint's axis.
template <class S> inline Mat3<S> axis_rotation(const Joint<S>& j, const S& c, const S& s) {
  switch (j.aligned) {
    case 0: return rx<S>(c, s);
    case 1: return ry<S>(c, s);
    case 2: return rz<S>(c, s);
    default: return rot_axis<S>(j.axis, c, s);
  }
}

// Rotation matrix (F_s to F_p, i.e. E^T) of a unit quaternion [w x y z].
template <class S> inline Mat3<S> quat_to_matrix(const S& w, const S& x, const S& y, const S& z) {
  Mat3<S> R;
  R << S(1) - S(2) * (y * y + z * z), S(2) * (x * y - w * z), S(2) * (x * z + w * y),
       S(2) * (x * y + w * z), S(1) - S(2) * (x * x + z * z), S(2) * (y * z - w * x),
       S(2) * (x * z - w * y), S(2) * (y * z + w * x), S(1) - S(2) * (x * x + y * y);
  return R;
}

template <class S> struct JointKinematics {
  Transform<S> XJ;
  Mat6N<S> S_;  // motion subspace S (Eq. 3.33), 6 x nv
  Vec6<S> vJ;   // S qd (Eq. 5.16)
  Vec6<S> cJ;   // apparent derivative of S times qd (Eq. 5.17); zero for every joint here
};

// The position part of jcalc (section 4.4): XJ and S from q. q is this joint's own slice.
template <class S, class QVec>
inline void jcalc_position(const Joint<S>& j, const QVec& q, JointKinematics<S>& out) {
  const Vec3<S> a = j.axis;
  out.S_.resize(6, j.nv());
  out.S_.setZero();
  out.cJ.setZero();
  switch (j.type) {
    case JointType::Revolute: {
      out.XJ.E = axis_rotation(j, cos_(S(q[0])), sin_(S(q[0])));
      out.XJ.r.setZero();
      out.S_.template block<3, 1>(0, 0) = a;
      break;
    }
    case JointType::Prismatic: {
      out.XJ.E.setIdentity();
      out.XJ.r = a * q[0];
      out.S_.template block<3, 1>(3, 0) = a;
      break;
    }
    case JointType::Helical: {
      out.XJ.E = axis_rotation(j, cos_(S(q[0])), sin_(S(q[0])));
      out.XJ.r = a * (j.pitch * q[0]);
      out.S_.template block<3, 1>(0, 0) = a;
      out.S_.template block<3, 1>(3, 0) = a * j.pitch;
      break;
    }
    case JointType::Cylindrical: {
      out.XJ.E = axis_rotation(j, cos_(S(q[0])), sin_(S(q[0])));
      out.XJ.r = a * q[1];
      out.S_.template block<3, 1>(0, 0) = a;
      out.S_.template block<3, 1>(3, 1) = a;
      break;
    }
    case JointType::Planar: {
      out.XJ.E = rz<S>(cos_(S(q[0])), sin_(S(q[0])));
      out.XJ.r = Vec3<S>(q[1], q[2], S(0));
      out.S_(2, 0) = S(1);
      out.S_(3, 1) = S(1);
      out.S_(4, 2) = S(1);
      break;
    }
    case JointType::Spherical: {
      out.XJ.E = quat_to_matrix<S>(q[0], q[1], q[2], q[3]).transpose();
      out.XJ.r.setZero();
      out.S_.template block<3, 3>(0, 0).setIdentity();
      break;
    }
    case JointType::Free: {
      out.XJ.E = quat_to_matrix<S>(q[0], q[1], q[2], q[3]).transpose();
      out.XJ.r = Vec3<S>(q[4], q[5], q[6]);
      out.S_.setIdentity();
      break;
    }
  }
}

// jcalc (section 4.4): XJ and S from q, vJ = S qd. All Table 4.1 joints have S constant in
// F_s, so cJ = 0 (the table's c_J column).
template <class S, class QVec, class VVec>
inline void jcalc(const Joint<S>& j, const QVec& q, const VVec& qd, JointKinematics<S>& out) {
  jcalc_position(j, q, out);
  out.vJ = out.S_ * qd;
}

}  // namespace rbd
