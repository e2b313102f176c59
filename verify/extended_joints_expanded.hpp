#pragma once
// A second witness for the extended joints that shares nothing with jcalc_extended: the same
// mechanism as a plain tree of Table 4.1 joints with massless intermediate bodies.
//  - A rack-and-pinion joint (Example 4.6, X_J = rz(q) xlt([r q, 0, 0])) becomes a prismatic
//    joint along x of F_p (a massless carriage) and the pinion's revolute joint about z, tied by
//    the gear q_carriage = r q_pinion: section 9.6's geared dynamics (Eq. 9.26).
//  - A drive (X_J = X_core(q) X_drive(phi(t))) becomes a massless body on a joint that moves
//    along the drive's screw (prismatic, helical, or revolute for pitch 0), carrying the core
//    joint: section 9.1's hybrid dynamics with phi, phi_dot, phi_ddot given at that joint.
// Reversed joints have no such expansion here (the oracle and the axis-negation identity check
// them). Used by verify/test_extended_joints.cpp only.
#include <stdexcept>
#include <vector>

#include "extended_joints/extended_model.hpp"
#include "geared_dynamics/gear_map.hpp"

namespace rbd::verify {

template <class S> struct ExpandedTree {
  Model<S> model;
  std::vector<int> body_of;   // original body i -> its body in model
  std::vector<int> extra_of;  // original body i -> its carriage or drive body, or -1
  GearPairs gears;            // q_carriage = r q_pinion, one per rack-and-pinion joint
};

// Built in S directly from the extended model in S, so nothing is rounded on the way.
template <class S> ExpandedTree<S> expand(const ExtendedModel<S>& em) {
  const Model<S>& t = em.tree;
  ExpandedTree<S> x;
  Model<S>& m = x.model;
  m.name = t.name + ":expanded";
  m.gravity = t.gravity;
  m.inertia_kind = t.inertia_kind;
  auto add = [&](const std::string& name, int parent, const Joint<S>& j, const Transform<S>& X, const S& mass,
                 const Vec3<S>& com, const Mat3<S>& Icom) {
    m.body_name.push_back(name);
    m.parent.push_back(parent);
    m.joint.push_back(j);
    m.Xtree.push_back(X);
    m.mass.push_back(mass);
    m.com.push_back(com);
    m.Icom.push_back(Icom);
    m.I.push_back(Inertia<S>::from_com(mass, com, Icom));
    m.q_idx.push_back(m.nq);
    m.v_idx.push_back(m.nv);
    m.nq += j.nq();
    m.nv += j.nv();
    return m.nb++;
  };
  const Transform<S> identity{Mat3<S>::Identity(), Vec3<S>::Zero()};
  for (int i = 0; i < t.nb; ++i) {
    const JointExtension<S>& e = em.ext[i];
    if (e.reversed) throw std::invalid_argument("expand: reversed joints have no expansion");
    if (e.rack_and_pinion && e.drive.active()) throw std::invalid_argument("expand: a driven rack is not expanded");
    const int parent = t.parent[i] < 0 ? -1 : x.body_of[t.parent[i]];
    int extra = -1;
    if (e.rack_and_pinion) {
      Joint<S> carriage{JointType::Prismatic, Vec3<S>(S(1), S(0), S(0)), S(0), 0};  // aligned with x
      extra = add(t.body_name[i] + ":carriage", parent, carriage, t.Xtree[i], S(0), Vec3<S>::Zero(), Mat3<S>::Zero());
    } else if (e.drive.active()) {
      const Drive<S>& d = e.drive;
      Joint<S> j{d.rotational ? (d.pitch == S(0) ? JointType::Revolute : JointType::Helical) : JointType::Prismatic,
                 d.axis, d.pitch, -1};
      extra = add(t.body_name[i] + ":drive", parent, j, t.Xtree[i], S(0), Vec3<S>::Zero(), Mat3<S>::Zero());
    }
    x.extra_of.push_back(extra);
    x.body_of.push_back(add(t.body_name[i], extra >= 0 ? extra : parent, t.joint[i], extra >= 0 ? identity : t.Xtree[i],
                            t.mass[i], t.com[i], t.Icom[i]));
    if (e.rack_and_pinion) x.gears.push_back(GearPair{extra, x.body_of[i], scalar_cast<double>(e.radius)});
  }
  return x;
}

}  // namespace rbd::verify
