#pragma once
// Joints beyond Table 4.1 (Featherstone sections 3.5 and 4.4): the data that turns a tree's
// joint into
//  - a rack-and-pinion joint (Example 4.6): a pinion of radius r on the successor rolls along
//    a rack on the predecessor; S depends on q and c_J is not zero;
//  - a joint of the opposite polarity (Table 4.2): the predecessor and successor of the joint
//    model swapped, because an asymmetrical joint's polarity is set by the mechanism, not by
//    the tree's parent-to-child direction;
//  - a time-dependent (rheonomic) joint (Eq. 3.32): the joint's predecessor-side frame rides
//    a prescribed screw motion phi(t), which gives the bias velocity sigma of Eq. 3.32 and its
//    apparent derivative of Eq. 3.43.
// This header is data only (the oracle in reference/ reads it too); jcalc_extended.hpp holds
// the joint calculation.
#include <cmath>
#include <string>
#include <vector>

#include "model/model.hpp"

namespace rbd {

// A prescribed screw motion of the joint's predecessor-side frame F_p: F_p's mount moves by
// phi(t) = amplitude * sin(omega * t + phase) along `axis` (a translation), or about it (a
// rotation by phi with translation pitch * phi along the axis: a helical motion), the axis
// through F_p's origin in F_p coordinates. Pose of F_s in F_p: drive(phi(t)) then the joint.
template <class S> struct Drive {
  bool rotational = false;
  Vec3<S> axis = Vec3<S>(S(0), S(0), S(1));  // unit
  S pitch = S(0);                            // rotational drives only
  S amplitude = S(0), omega = S(0), phase = S(0);

  bool active() const { return !(amplitude == S(0)); }
  S phi(const S& t) const { return amplitude * sin_(S(omega * t + phase)); }
  S phi_dot(const S& t) const { return amplitude * omega * cos_(S(omega * t + phase)); }
  S phi_ddot(const S& t) const { return -(amplitude * omega * omega) * sin_(S(omega * t + phase)); }

  template <class T> Drive<T> cast() const {
    auto c = [](const S& x) { return scalar_cast<T>(x); };
    Drive<T> d{rotational, axis.unaryExpr(c), c(pitch), c(amplitude), c(omega), c(phase)};
    d.axis /= sqrt_(T(d.axis.squaredNorm()));
    return d;
  }
};

template <class S> struct JointExtension {
  // Example 4.6: the tree joint must be a revolute joint about exactly z (the pinion's axis);
  // the rack lies along x of F_p, and q is the pinion's angle. radius 0 is the revolute joint.
  bool rack_and_pinion = false;
  S radius = S(0);
  bool reversed = false;  // Table 4.2: jcalc returns the joint of the opposite polarity
  Drive<S> drive;

  bool any() const { return rack_and_pinion || reversed || drive.active(); }
  template <class T> JointExtension<T> cast() const {
    return JointExtension<T>{rack_and_pinion, scalar_cast<T>(radius), reversed, drive.template cast<T>()};
  }
};

// A tree whose joints may carry extensions. tree.joint[i] keeps the joint's type, axis and
// variable counts (a rack-and-pinion joint is declared as the revolute joint about z it
// reduces to at r = 0, so nq, nv, q_idx and v_idx need no new cases); ext[i] says how jcalc
// departs from Table 4.1 for it.
template <class S> struct ExtendedModel {
  Model<S> tree;
  std::vector<JointExtension<S>> ext;

  template <class T> ExtendedModel<T> cast() const {
    ExtendedModel<T> m{tree.template cast<T>(), {}};
    for (const auto& e : ext) m.ext.push_back(e.template cast<T>());
    return m;
  }
  bool time_dependent() const {
    for (const auto& e : ext) if (e.drive.active()) return true;
    return false;
  }
};

// Checks the extensions against the tree; an error names the body and what is wrong.
inline ExtendedModel<double> make_extended_model(Model<double> tree, std::vector<JointExtension<double>> ext) {
  auto fail = [&](int i, const std::string& what) {
    throw ModelError("model '" + tree.name + "', body " + std::to_string(i) + " '" + tree.body_name[i] + "': " + what);
  };
  if (static_cast<int>(ext.size()) != tree.nb)
    throw ModelError("model '" + tree.name + "': " + std::to_string(ext.size()) + " joint extensions for " +
                     std::to_string(tree.nb) + " joints");
  for (int i = 0; i < tree.nb; ++i) {
    JointExtension<double>& e = ext[i];
    const Joint<double>& j = tree.joint[i];
    if (e.rack_and_pinion) {
      if (j.type != JointType::Revolute || j.aligned != 2)
        fail(i, "a rack-and-pinion joint (Example 4.6) is declared as a revolute joint about exactly z (the pinion's "
                "axis); this joint is " + std::string(joint_type_name(j.type)) + (j.aligned == 2 ? "" : " not about z"));
      if (!std::isfinite(e.radius)) fail(i, "rack-and-pinion radius is not finite");
    } else if (e.radius != 0) {
      fail(i, "a radius is given but rack_and_pinion is not set");
    }
    Drive<double>& d = e.drive;
    if (!std::isfinite(d.amplitude) || !std::isfinite(d.omega) || !std::isfinite(d.phase) || !std::isfinite(d.pitch) ||
        !d.axis.allFinite())
      fail(i, "drive parameters contain a non-finite number");
    if (d.active()) {
      const double n = d.axis.norm();
      if (std::abs(n - 1.0) > 1e-12) fail(i, "drive axis must be a unit vector (norm " + std::to_string(n) + ")");
      d.axis /= n;
      if (!d.rotational && d.pitch != 0) fail(i, "a translational drive has no pitch");
    }
  }
  return ExtendedModel<double>{std::move(tree), std::move(ext)};
}

}  // namespace rbd
