#pragma once
// jcalc for the extended joints of extended_model.hpp (Featherstone section 4.4): X_J, S,
// v_J and c_J of one joint at (q, qd, t), in the joint's successor coordinates.
//
//  1. The core joint. A Table 4.1 joint as model/joint.hpp computes it (S constant, c_J = 0),
//     or the rack-and-pinion joint of Example 4.6:
//        X_J = rz(q) xlt([r q, 0, 0]),  S = [0 0 1 r cos q  -r sin q  0]^T,
//        c_J = (dS/dq) qd^2 = [0 0 0  -r sin q qd^2  -r cos q qd^2  0]^T   (Eq. 3.42).
//  2. The drive (Eq. 3.32's time dependence). F_p's mount moves by phi(t) along the drive's
//     screw s_d (fixed in F_p), then the core joint moves: X_J = X_core(q) X_drive(phi). The
//     successor's velocity relative to F_p gains sigma = X_core s_d phi_dot (Eq. 3.32), and
//     c_J gains sigma's apparent derivative (Eq. 3.43): the time part X_core s_d phi_ddot, and
//     the q part d/dt(X_core) s_d phi_dot = -(S qd) x sigma, since the core's frame F_s moves
//     relative to the drive's frame with velocity S qd (d/dt ^sX_m = -(v_sm x) ^sX_m).
//  3. Polarity (Table 4.2): a reversed joint returns ^pX_s = X_J^-1 and -^pX_s times S, v_J
//     and c_J. (The velocity product of the apparent derivative, -d/dt(^pX_s) v_J =
//     -^pX_s (v_J x v_J), vanishes, which is why c_J transforms like v_J.)
// v_J = S qd + sigma always, so the tree algorithms' v_i = ^iX_lambda v_lambda + v_J (Eq. 5.7)
// and a_i = ^iX_lambda a_lambda + S qdd + c_J + v_i x v_J (Eq. 3.40) hold unchanged.
#include "extended_joints/extended_model.hpp"

namespace rbd {

template <class S, class QVec, class VVec>
inline void jcalc_extended(const Joint<S>& joint, const JointExtension<S>& ext, const QVec& q, const VVec& qd,
                           const S& t, JointKinematics<S>& J) {
  // 1. The core joint.
  if (ext.rack_and_pinion) {
    const S c = cos_(S(q[0])), s = sin_(S(q[0])), r = ext.radius;
    J.XJ.E = rz<S>(c, s);
    J.XJ.r = Vec3<S>(r * q[0], S(0), S(0));
    J.S_.resize(6, 1);
    J.S_ << S(0), S(0), S(1), r * c, -(r * s), S(0);
    const S qd2 = qd[0] * qd[0];
    J.cJ << S(0), S(0), S(0), -(r * s) * qd2, -(r * c) * qd2, S(0);
  } else {
    jcalc_position(joint, q, J);  // Table 4.1; sets c_J = 0
  }
  J.vJ.noalias() = J.S_ * qd;
  // 2. The drive.
  const Drive<S>& d = ext.drive;
  if (d.active()) {
    const S phi = d.phi(t), phid = d.phi_dot(t), phidd = d.phi_ddot(t);
    Transform<S> Xdrive;  // ^mX_p: the drive's frame after phi, like a helical/prismatic joint
    Vec6<S> sd;           // the drive's screw, in F_p coordinates (and in its own moved frame)
    if (d.rotational) {
      Xdrive.E = rot_axis<S>(d.axis, cos_(phi), sin_(phi));
      Xdrive.r = d.axis * (d.pitch * phi);
      sd << d.axis, d.axis * d.pitch;
    } else {
      Xdrive.E.setIdentity();
      Xdrive.r = d.axis * phi;
      sd << Vec3<S>::Zero(), d.axis;
    }
    const Vec6<S> Xsd = J.XJ.apply(sd);                // X_core s_d
    const Vec6<S> sigma = Xsd * phid;                  // Eq. 3.32's bias velocity
    J.cJ += Xsd * phidd - crm<S>(Vec6<S>(J.vJ), sigma);  // Eq. 3.43; J.vJ is still S qd here
    J.vJ += sigma;
    J.XJ = J.XJ * Xdrive;
  }
  // 3. Polarity.
  if (ext.reversed) {
    J.XJ = J.XJ.inverse();  // ^pX_s
    for (int k = 0; k < J.S_.cols(); ++k) J.S_.col(k) = -J.XJ.apply(Vec6<S>(J.S_.col(k)));
    J.vJ = -J.XJ.apply(J.vJ);
    J.cJ = -J.XJ.apply(J.cJ);
  }
}

}  // namespace rbd
