#pragma once
// A Model written member by member in the scalar S, for the oracles' self-tests: their bodies are
// exact fractions in Reference, which ModelBuilder (it validates in double) would round. Only
// what the oracles read is filled; the spatial inertias I are left default (no oracle reads them).
#include <string>

#include "model/model.hpp"

namespace rbd::verify {

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

}  // namespace rbd::verify
