#pragma once
// Loop joints (Featherstone section 4.2, Table 4.3; chapter 8): the joints of a closed-loop
// system that are not in its spanning tree. A closed-loop system is the tree's Model plus a
// list of these (DESIGN.md section 11): every tree variant still runs on the tree, and the
// closed-loop variants add the loop-closure constraints.
//
// Conventions (Eq. 8.24):
//  - p and s are the predecessor and successor bodies; -1 is the fixed base. p != s.
//  - XP = ^{p(k),k}X_{p(k)}: the Plucker transform from body p's coordinates to the joint's
//    predecessor frame; XS = ^{s(k),k}X_{s(k)} likewise for the successor frame. Both follow
//    Transform's convention (E rotates the first frame's coordinates into the second's, r is
//    the second frame's origin in the first frame's coordinates), the same as Model::Xtree.
//  - The motion allowed across the joint is Table 4.1's, about and along the z axis of the
//    successor frame (Table 8.1 is written for that axis; any other axis is a rotation of
//    XP and XS). The transform ^{s,k}X_{p,k} from predecessor to successor frame is XJ(q) of
//    that type when the loop is closed.
//  - Weld is the zero-DoF joint: section 8.3's "universal loop joint".
//  - A loop joint is passive unless the caller gives it a force (ClosedLoopWorkspace::loop_tau,
//    sections 8.4 and 8.6: tau^a, applied as Table 8.3 applies it).
#include <string>
#include <string_view>
#include <vector>

#include "model/model.hpp"

namespace rbd {

enum class LoopJointType { Weld, Revolute, Prismatic, Helical, Cylindrical, Planar, Spherical };

inline constexpr std::array<LoopJointType, 7> kAllLoopJointTypes = {
    LoopJointType::Weld,        LoopJointType::Revolute, LoopJointType::Prismatic, LoopJointType::Helical,
    LoopJointType::Cylindrical, LoopJointType::Planar,   LoopJointType::Spherical};

constexpr std::string_view loop_joint_type_name(LoopJointType t) {
  switch (t) {
    case LoopJointType::Weld: return "weld";
    case LoopJointType::Revolute: return "revolute";
    case LoopJointType::Prismatic: return "prismatic";
    case LoopJointType::Helical: return "helical";
    case LoopJointType::Cylindrical: return "cylindrical";
    case LoopJointType::Planar: return "planar";
    case LoopJointType::Spherical: return "spherical";
  }
  return "?";
}

// Degrees of freedom the joint allows, and n^c_k = 6 - that, the constraints it imposes (Eq. 8.1).
constexpr int loop_joint_dof(LoopJointType t) {
  switch (t) {
    case LoopJointType::Weld: return 0;
    case LoopJointType::Revolute: case LoopJointType::Prismatic: case LoopJointType::Helical: return 1;
    case LoopJointType::Cylindrical: return 2;
    case LoopJointType::Planar: case LoopJointType::Spherical: return 3;
  }
  return 0;
}
constexpr int loop_joint_nc(LoopJointType t) { return 6 - loop_joint_dof(t); }

template <class S> struct LoopJoint {
  LoopJointType type = LoopJointType::Weld;
  int p = -1, s = 0;
  Transform<S> XP, XS;
  S pitch = S(0);  // Helical: translation along z per radian
  std::string name;

  int nc() const { return loop_joint_nc(type); }

  // Exact cast, as Model::cast: the rotations re-orthonormalised in T's precision, so a
  // 50-digit computation sees rigid frames, not frames rigid to 1e-16.
  template <class T> LoopJoint<T> cast() const {
    LoopJoint<T> out;
    out.type = type; out.p = p; out.s = s; out.name = name;
    out.pitch = scalar_cast<T>(pitch);
    auto cast_X = [](const Transform<S>& X) {
      Transform<T> Y = X.template cast<T>();
      for (int it = 0; it < 4; ++it) Y.E = (Y.E * (T(3) * Mat3<T>::Identity() - Y.E.transpose() * Y.E) / T(2)).eval();
      return Y;
    };
    out.XP = cast_X(XP);
    out.XS = cast_X(XS);
    return out;
  }
};

template <class S> using LoopJoints = std::vector<LoopJoint<S>>;

template <class T, class S> LoopJoints<T> cast_loops(const LoopJoints<S>& loops) {
  LoopJoints<T> out;
  out.reserve(loops.size());
  for (const auto& l : loops) out.push_back(l.template cast<T>());
  return out;
}

// Total number of loop-closure constraints n^c (Eq. 8.1).
template <class S> int loop_constraint_count(const LoopJoints<S>& loops) {
  int nc = 0;
  for (const auto& l : loops) nc += l.nc();
  return nc;
}

// The bodies of every loop joint exist and differ; throws ModelError naming the loop joint.
// Called by validate_loop_joints and, in every scalar, by the closed-loop workspace.
template <class S> void check_loop_bodies(const Model<S>& m, const LoopJoints<S>& loops) {
  for (std::size_t l = 0; l < loops.size(); ++l) {
    const auto& L = loops[l];
    const std::string where = "loop joint " + std::to_string(l) + (L.name.empty() ? "" : " '" + L.name + "'");
    auto body_ok = [&](int b) { return b >= -1 && b < m.nb; };
    if (!body_ok(L.p) || !body_ok(L.s))
      throw ModelError(where + ": predecessor p = " + std::to_string(L.p) + " / successor s = " + std::to_string(L.s) +
                       " is not a body of model '" + m.name + "' (bodies are -1 for the base, 0.." +
                       std::to_string(m.nb - 1) + ")");
    if (L.p == L.s)
      throw ModelError(where + ": p and s must be different bodies, but both are body " + std::to_string(L.p) +
                       " (the same body)");
  }
}

// Checks what a loop joint's data can be checked for without a state: bodies that exist,
// p != s, rigid frames, a finite pitch. Throws ModelError naming the loop joint and the problem.
// (Whether a state closes the loops is a property of the state: see closed_loop_dynamics/.)
inline void validate_loop_joints(const Model<double>& m, const LoopJoints<double>& loops) {
  check_loop_bodies(m, loops);
  for (std::size_t l = 0; l < loops.size(); ++l) {
    const auto& L = loops[l];
    const std::string where = "loop joint " + std::to_string(l) + (L.name.empty() ? "" : " '" + L.name + "'");
    for (const auto* X : {&L.XP, &L.XS}) {
      const char* which = X == &L.XP ? "X_P" : "X_S";
      for (int k = 0; k < 9; ++k)
        if (!std::isfinite(X->E.data()[k])) throw ModelError(where + ": " + which + " rotation has a non-finite entry");
      for (int k = 0; k < 3; ++k)
        if (!std::isfinite(X->r[k])) throw ModelError(where + ": " + which + " translation has a non-finite entry");
      // The same tolerance as ModelBuilder's tree transforms: a rotation typed with ~16 digits.
      if (!((X->E * X->E.transpose() - Mat3<double>::Identity()).norm() < 1e-12) || !(X->E.determinant() > 0))
        throw ModelError(where + ": " + which + " is not a rigid transform (its rotation must satisfy E E^T = 1 to 1e-12, det E = +1)");
    }
    if (!std::isfinite(L.pitch)) throw ModelError(where + ": helical pitch is not finite");
  }
}

}  // namespace rbd
