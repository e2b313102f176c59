#pragma once
// One state of any model, for the examples: every joint turned a little (a free or spherical
// joint's rotation as a unit quaternion), with velocities and accelerations.
#include <cmath>

#include <rbdlab/rbdlab.hpp>

namespace example {

struct State {
  Eigen::VectorXd q, qd, qdd;
};

inline State make_state(const rbd::Model<double>& m) {
  State x{Eigen::VectorXd(m.nq), Eigen::VectorXd(m.nv), Eigen::VectorXd(m.nv)};
  for (int i = 0; i < m.nb; ++i) {
    const int k = m.q_idx[i];
    const rbd::JointType t = m.joint[i].type;
    if (t == rbd::JointType::Spherical || t == rbd::JointType::Free) {
      const double a = 0.2 * (i + 1);
      x.q.segment<4>(k) = Eigen::Vector4d(std::cos(a), 0.6 * std::sin(a), 0.0, 0.8 * std::sin(a)).normalized();
      if (t == rbd::JointType::Free) x.q.segment<3>(k + 4) = Eigen::Vector3d(0.1, -0.2, 0.3);
    } else {
      for (int j = 0; j < m.joint[i].nq(); ++j) x.q[k + j] = 0.5 * std::sin(1.3 * (k + j + 1));
    }
  }
  for (int j = 0; j < m.nv; ++j) {
    x.qd[j] = 0.8 * std::cos(0.7 * (j + 1));
    x.qdd[j] = 0.5 * std::sin(0.9 * (j + 1));
  }
  return x;
}

}  // namespace example
