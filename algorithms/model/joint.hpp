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

#include "core/inertia.hpp"
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
  Vec6<S> vJ = Vec6<S>::Zero();  // S qd (Eq. 5.16)
  Vec6<S> cJ = Vec6<S>::Zero();  // apparent derivative of S times qd (Eq. 5.17); zero for every joint here
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
      const CosSin<S> cs = cos_sin_(S(q[0]));
      out.XJ.E = axis_rotation(j, cs.c, cs.s);
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
      const CosSin<S> cs = cos_sin_(S(q[0]));
      out.XJ.E = axis_rotation(j, cs.c, cs.s);
      out.XJ.r = a * (j.pitch * q[0]);
      out.S_.template block<3, 1>(0, 0) = a;
      out.S_.template block<3, 1>(3, 0) = a * j.pitch;
      break;
    }
    case JointType::Cylindrical: {
      const CosSin<S> cs = cos_sin_(S(q[0]));
      out.XJ.E = axis_rotation(j, cs.c, cs.s);
      out.XJ.r = a * q[1];
      out.S_.template block<3, 1>(0, 0) = a;
      out.S_.template block<3, 1>(3, 1) = a;
      break;
    }
    case JointType::Planar: {
      const CosSin<S> cs = cos_sin_(S(q[0]));
      out.XJ.E = rz<S>(cs.c, cs.s);
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

// ---------------------------------------------------------------------------------------
// Fast paths for the tree algorithms (section 10.3.1: exploit the structure of X_J and S).
//
// jcalc_xup: ^iX_lambda(i) = X_J(q) X_T(i) (Table 5.1, line 2) composed without forming X_J.
// rot(E_J) xlt(r_J) rot(E_T) xlt(r_T) = rot(E_J E_T) xlt(r_T + E_T^T r_J). For a joint about
// (or along) a coordinate axis e_k, E_J is the elementary rotation of Eqs. 2.24-2.26, which
// only mixes rows k1 = k+1 and k2 = k+2 (mod 3) of E_T: 12m + 6a instead of a 3x3 product;
// and E_T^T r_J = E_T^T e_k d is row k of E_T times d. 1-DoF joints need nothing else from
// jcalc (see the screw helpers below), so J is left untouched for them; multi-DoF joints go
// through jcalc_position, which leaves X_J and S in J for the algorithm to use.
namespace detail {
// Runs f.template operator()<K>() with the axis index K = k (0, 1, 2) as a constant. Indexing
// a local 6-vector with a run-time k forces it out of registers into memory, where the next
// wider load of it stalls (store forwarding); with K constant it stays in registers.
template <class F> RBD_INLINE decltype(auto) with_axis(int k, F&& f) {
  switch (k) {
    case 0: return f.template operator()<0>();
    case 1: return f.template operator()<1>();
    default: return f.template operator()<2>();
  }
}

// E = E_J(c, s) E_T for E_J the coordinate rotation by the joint angle about the joint axis.
template <class S> RBD_INLINE void rotate_rows(const Joint<S>& j, const S& c, const S& s, const Mat3<S>& ET, Mat3<S>& E) {
  if (j.aligned < 0) { E.noalias() = rot_axis<S>(j.axis, c, s) * ET; return; }
  with_axis(j.aligned, [&]<int k>() RBD_INLINE_LAMBDA {
    constexpr int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
    for (int col = 0; col < 3; ++col) {           // rx, ry, rz of Eqs. 2.24-2.26
      E(k, col) = ET(k, col);
      E(k1, col) = c * ET(k1, col) + s * ET(k2, col);
      E(k2, col) = c * ET(k2, col) - s * ET(k1, col);
    }
  });
}
// r = r_T + E_T^T (a d): the joint's translation d along its axis a, in parent coordinates.
template <class S> RBD_INLINE void slide(const Joint<S>& j, const S& d, const Transform<S>& XT, Vec3<S>& r) {
  if (j.aligned < 0) r = XT.r + XT.E.transpose() * (j.axis * d);
  else with_axis(j.aligned, [&]<int k>() RBD_INLINE_LAMBDA { r = XT.r + XT.E.row(k).transpose() * d; });
}
}  // namespace detail

namespace detail {
// Multi-DoF joints: X_J and S from jcalc, kept in J. Out of line, so that the common 1-DoF
// paths of jcalc_xup stay small enough to inline into the algorithms' loops.
template <class S, class QVec>
EIGEN_DONT_INLINE void jcalc_xup_multi_dof(const Joint<S>& j, const QVec& q, const Transform<S>& XT,
                                           JointKinematics<S>& J, Transform<S>& Xup) {
  jcalc_position(j, q, J);
  Xup = J.XJ * XT;
}
}  // namespace detail

template <class S, class QVec>
RBD_INLINE void jcalc_xup(const Joint<S>& j, const QVec& q, const Transform<S>& XT, JointKinematics<S>& J,
                          Transform<S>& Xup) {
  switch (j.type) {
    case JointType::Revolute: {
      const S qi = q[0];
      const CosSin<S> cs = cos_sin_(qi);
      detail::rotate_rows(j, cs.c, cs.s, XT.E, Xup.E);
      Xup.r = XT.r;
      return;
    }
    case JointType::Prismatic:
      Xup.E = XT.E;
      detail::slide(j, S(q[0]), XT, Xup.r);
      return;
    case JointType::Helical: {
      const S qi = q[0];
      const CosSin<S> cs = cos_sin_(qi);
      detail::rotate_rows(j, cs.c, cs.s, XT.E, Xup.E);
      detail::slide(j, S(j.pitch * qi), XT, Xup.r);
      return;
    }
    default:  // multi-DoF joints: X_J and S from jcalc, kept in J
      detail::jcalc_xup_multi_dof(j, q, XT, J, Xup);
      return;
  }
}

// The motion subspace of a 1-DoF joint is one column s (Table 4.1): revolute [a; 0],
// prismatic [0; a], helical [a; h a]. With a = e_k (Joint::aligned = k) the products below
// reduce to selecting entries of the other operand: S^T f = f_k for a revolute joint
// (Eq. 5.11 costs nothing), S qdd adds one number, and so on. They are the same numbers as
// the general formulas (multiplying by an exact 0 or 1 changes nothing), so every scalar sees
// identical results; only the counts differ. Helical joints and general axes take the
// general formulas.
// For an axis-aligned revolute or prismatic joint s is a coordinate unit vector e_m of R^6
// (m = k or 3 + k) and S^T f = f_m; returns that m, or -1 for any other joint.
template <class S> inline int screw_unit_index(const Joint<S>& j) {
  if (j.aligned < 0) return -1;
  if (j.type == JointType::Revolute) return j.aligned;
  if (j.type == JointType::Prismatic) return 3 + j.aligned;
  return -1;
}
template <class S> RBD_INLINE Vec6<S> screw_times(const Joint<S>& j, const S& x) {  // s x
  Vec6<S> m = Vec6<S>::Zero();
  if (j.aligned >= 0 && j.type != JointType::Helical) {
    detail::with_axis(j.aligned, [&]<int k>() RBD_INLINE_LAMBDA {
      if (j.type == JointType::Revolute) m[k] = x;
      else m[3 + k] = x;
    });
    return m;
  }
  if (j.type != JointType::Prismatic) m.template head<3>() = j.axis * x;
  if (j.type == JointType::Prismatic) m.template tail<3>() = j.axis * x;
  if (j.type == JointType::Helical) m.template tail<3>() = j.axis * (j.pitch * x);
  return m;
}
template <class S> RBD_INLINE S screw_transpose_times(const Joint<S>& j, const Vec6<S>& f) {  // s^T f
  if (j.aligned >= 0 && j.type != JointType::Helical)
    return detail::with_axis(j.aligned, [&]<int k>() RBD_INLINE_LAMBDA -> S { return j.type == JointType::Revolute ? f[k] : f[3 + k]; });
  switch (j.type) {
    case JointType::Revolute: return j.axis.dot(f.template head<3>());
    case JointType::Prismatic: return j.axis.dot(f.template tail<3>());
    default: return j.axis.dot(f.template head<3>()) + j.pitch * j.axis.dot(f.template tail<3>());
  }
}
template <class S> RBD_INLINE void add_screw_times(const Joint<S>& j, const S& x, Vec6<S>& m) {  // m += s x
  if (j.aligned >= 0 && j.type != JointType::Helical)
    detail::with_axis(j.aligned, [&]<int k>() RBD_INLINE_LAMBDA {
      if (j.type == JointType::Revolute) m[k] += x;
      else m[3 + k] += x;
    });
  else
    m += screw_times(j, x);
}
// m += v x (s x), the velocity-product term v_i x v_J of Eq. 5.19 (Eq. 2.31). For s = [e_k; 0]
// it is x [w x e_k; v x e_k], and w x e_k has entries w_k2, -w_k1 at k1, k2: 4m + 4a; for
// s = [0; e_k] it is x [0; w x e_k].
template <class S> RBD_INLINE void add_cross_screw_times(const Joint<S>& j, const Vec6<S>& v, const S& x, Vec6<S>& m) {
  if (j.aligned >= 0 && j.type != JointType::Helical) {
    detail::with_axis(j.aligned, [&]<int k>() RBD_INLINE_LAMBDA {
      constexpr int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
      if (j.type == JointType::Revolute) {
        m[k1] += v[k2] * x;
        m[k2] -= v[k1] * x;
        m[3 + k1] += v[3 + k2] * x;
        m[3 + k2] -= v[3 + k1] * x;
      } else {
        m[3 + k1] += v[k2] * x;
        m[3 + k2] -= v[k1] * x;
      }
    });
  } else {
    m += crm<S>(v, screw_times(j, x));
  }
}
// I s, a column of F = I^c_i S_i (Table 6.2). I [e_k; 0] = [Ibar e_k; e_k x h] and
// I [0; e_k] = [h x e_k; m e_k] (Eq. 2.63 in compact form): no arithmetic at all.
template <class S> RBD_INLINE Vec6<S> inertia_times_screw(const Inertia<S>& I, const Joint<S>& j) {
  if (j.aligned < 0 || j.type == JointType::Helical) return I * screw_times(j, S(1));
  return detail::with_axis(j.aligned, [&]<int k>() RBD_INLINE_LAMBDA {
    constexpr int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
    Vec6<S> F;
    if (j.type == JointType::Revolute) {
      F.template head<3>() = I.Ibar.col(k);
      F[3 + k] = S(0);
      F[3 + k1] = -I.h[k2];
      F[3 + k2] = I.h[k1];
    } else {
      F[k] = S(0);
      F[k1] = I.h[k2];
      F[k2] = -I.h[k1];
      F.template tail<3>().setZero();
      F[3 + k] = I.m;
    }
    return F;
  });
}

}  // namespace rbd
