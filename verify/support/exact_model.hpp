#pragma once
// A Model written member by member in the scalar S, for the oracles' self-tests: their bodies are
// exact fractions in Reference, which ModelBuilder (it validates in double) would round. Only
// what the oracles read is filled; the spatial inertias I are left default (no oracle reads them).
#include <string>
#include <vector>

#include "model/model.hpp"

namespace rbd::verify {

// A rigid pose: R_ maps child coordinates to parent coordinates, p is the child's origin in the parent.
template <class S> struct ExactPose {
  Mat3<S> R_;
  Vec3<S> p;
};
// The Plucker transform of a frame with pose T (E = R^T, r = p): Xtree's convention (and X_P's, X_S's).
template <class S> Transform<S> transform_of(const ExactPose<S>& T) { return Transform<S>{Mat3<S>(T.R_.transpose()), T.p}; }

template <class S> struct ExactBody {
  int parent;
  JointType type;
  Vec3<S> axis;
  S pitch;
  ExactPose<S> tree;  // pose of the joint's predecessor frame in the parent body frame
  S mass;
  Vec3<S> com;
  Mat3<S> Icom;
};

template <class S>
void append_exact_body(Model<S>& m, int parent, JointType type, const Vec3<S>& axis, const S& pitch,
                       const Transform<S>& Xtree, const S& mass, const Vec3<S>& com, const Mat3<S>& Icom) {
  m.body_name.push_back("b" + std::to_string(m.nb));
  m.parent.push_back(parent);
  m.joint.push_back(Joint<S>{type, axis, pitch, -1});
  m.Xtree.push_back(Xtree);
  m.I.emplace_back();  // never read by the oracles
  m.mass.push_back(mass);
  m.com.push_back(com);
  m.Icom.push_back(Icom);
  m.q_idx.push_back(m.nq);
  m.v_idx.push_back(m.nv);
  m.nq += joint_nq(type);
  m.nv += joint_nv(type);
  ++m.nb;
}

template <class S> Model<S> exact_model(const std::vector<ExactBody<S>>& bodies, const Vec3<S>& gravity, const std::string& name) {
  Model<S> m;
  m.name = name;
  m.gravity = gravity;
  for (const ExactBody<S>& b : bodies)
    append_exact_body<S>(m, b.parent, b.type, b.axis, b.pitch, transform_of(b.tree), b.mass, b.com, b.Icom);
  return m;
}

}  // namespace rbd::verify
