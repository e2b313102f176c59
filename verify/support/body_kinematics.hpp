#pragma once
// Body-by-body quantities for the identity gate: world transforms ^iX_0, body velocities,
// kinetic energy sum 0.5 v_i^T I_i v_i and total spatial momentum in base coordinates.
// Written from Example 4.4 (section 4.4), independently of the variants under test.
#include <vector>

#include "model/workspace.hpp"

namespace rbd::verify {

template <class S> struct BodyKinematics {
  std::vector<Transform<S>> X0;  // ^iX_0
  std::vector<Vec6<S>> v;        // body velocity in body coordinates
};

template <class S> BodyKinematics<S> body_kinematics(const Model<S>& m, const VecX<S>& q, const VecX<S>& qd) {
  BodyKinematics<S> k{std::vector<Transform<S>>(m.nb), std::vector<Vec6<S>>(m.nb)};
  for (int i = 0; i < m.nb; ++i) {
    JointKinematics<S> J;
    jcalc(m.joint[i], q.segment(m.q_idx[i], m.joint[i].nq()), qd.segment(m.v_idx[i], m.joint[i].nv()), J);
    const Transform<S> Xup = J.XJ * m.Xtree[i];
    const int p = m.parent[i];
    k.X0[i] = p < 0 ? Xup : Xup * k.X0[p];
    k.v[i] = p < 0 ? J.vJ : Vec6<S>(Xup.apply(k.v[p]) + J.vJ);
  }
  return k;
}

template <class S> S kinetic_energy_by_body(const Model<S>& m, const VecX<S>& q, const VecX<S>& qd) {
  const auto k = body_kinematics(m, q, qd);
  S T(0);
  for (int i = 0; i < m.nb; ++i) T += k.v[i].dot(m.I[i] * k.v[i]) / S(2);
  return T;
}

// Total spatial momentum sum ^0X_i^* I_i v_i, in base coordinates (Eq. 2.xx, h = I v).
template <class S> Vec6<S> momentum_in_base(const Model<S>& m, const VecX<S>& q, const VecX<S>& qd) {
  const auto k = body_kinematics(m, q, qd);
  Vec6<S> h = Vec6<S>::Zero();
  for (int i = 0; i < m.nb; ++i) h += k.X0[i].apply_transpose(m.I[i] * k.v[i]);
  return h;
}

}  // namespace rbd::verify
