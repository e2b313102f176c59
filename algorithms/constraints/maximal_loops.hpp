#pragma once
// Seed 001's maximal-coordinate KKT (maximal_coordinates.hpp) on closed-loop systems: the
// spanning tree's joints become locks as in maximal_system(m), and each loop joint k of
// Table 4.3 one more lock, between its successor s(k) (marker P at the frame X_S) and its
// predecessor p(k) (marker S at X_P), keeping the rows of its type about z (Table 1 of seed 001:
// the lock's relative motion of P in S is the loop joint's X_J of Eq. 8.24). A loop joint whose
// successor is the base is written the other way round (P on p(k) at X_P, S on the ground at
// X_S): the inverse of a motion about and along z is one about and along z, so the mask is the
// same. The result is a witness for chapter 8's methods that shares nothing with them: no
// spanning-tree H, no K, no elimination; body accelerations in world coordinates from one dense
// KKT solve.
//
// Redundant constraints make the KKT matrix [M C_v^T; C_v 0] singular (a planar four-bar in 3D
// has 3 more lock rows than their rank), and the seed's dense LU then has no answer
// (maximal_forward_dynamics refuses it). The system is still consistent (gamma is in the range
// of C_v at a state that satisfies the constraints), and u_dot is the same in all its solutions
// (M is positive definite: two solutions differ by (0, dlambda) with C_v^T dlambda = 0), so
// maximal_forward_dynamics_redundant takes one of them from a complete orthogonal decomposition
// with the LU's pivot tolerance as its rank threshold; only lambda is then arbitrary (the
// minimum-norm one). The helical loop joint has no lock (its translation is tied to its
// rotation; seed 001's Table 1 has no such row set) and is refused.
#include <stdexcept>
#include <string>

#include <Eigen/QR>

#include "constraints/maximal_coordinates.hpp"
#include "model/loop_joint.hpp"

namespace rbd {

// The lock rows a loop joint of type t keeps (its constraint directions), about the marker's z.
inline unsigned lock_mask_of(LoopJointType t) {
  switch (t) {
    case LoopJointType::Weld: return kCx | kCy | kCz | kCthI | kCthJ | kCthK;
    case LoopJointType::Revolute: return lock_mask_of(JointType::Revolute);
    case LoopJointType::Prismatic: return lock_mask_of(JointType::Prismatic);
    case LoopJointType::Cylindrical: return lock_mask_of(JointType::Cylindrical);
    case LoopJointType::Planar: return lock_mask_of(JointType::Planar);
    case LoopJointType::Spherical: return lock_mask_of(JointType::Spherical);
    case LoopJointType::Helical: break;
  }
  throw std::invalid_argument("maximal coordinates: the helical loop joint has no lock mask");
}

template <class S> Marker<S> marker_of(const Transform<S>& X) {  // the frame X locates, as a marker
  return Marker<S>{X.r, quaternion_from_matrix<S>(X.E.transpose())};
}

template <class S> MaximalSystem<S> maximal_system_with_loops(const Model<S>& m, const LoopJoints<S>& loops) {
  MaximalSystem<S> sys = maximal_system(m);
  for (std::size_t k = 0; k < loops.size(); ++k) {
    const LoopJoint<S>& L = loops[k];
    if (L.s == L.p || L.s < -1 || L.p < -1 || L.s >= m.nb || L.p >= m.nb)
      throw std::invalid_argument("maximal coordinates: loop joint " + std::to_string(k) + " ('" + L.name +
                                  "') does not join two different bodies of the model");
    MaximalLock<S> l;
    l.lock.mask = lock_mask_of(L.type);
    if (L.s >= 0) {
      l.A = L.s; l.B = L.p;
      l.lock.marker_P = marker_of(L.XS);
      l.lock.marker_S = marker_of(L.XP);
    } else {
      l.A = L.p; l.B = -1;
      l.lock.marker_P = marker_of(L.XP);
      l.lock.marker_S = marker_of(L.XS);
    }
    sys.locks.push_back(l);
  }
  return sys;
}

// u_dot of a maximal system whose lock constraints may be redundant (header); returns the rank of
// the KKT matrix, 6 N_B + rank C_v.
template <class S>
int maximal_forward_dynamics_redundant(const MaximalSystem<S>& sys, const MaximalState<S>& x, VecX<S>& udot,
                                       MaximalWorkspace<S>& ws, const Baumgarte& stab = {}) {
  assemble_kkt(sys, x, ws, stab);
  Eigen::CompleteOrthogonalDecomposition<MatX<S>> cod(ws.K.rows(), ws.K.cols());
  cod.setThreshold(kkt_pivot_tolerance<S>());
  cod.compute(ws.K);
  ws.sol = cod.solve(ws.rhs);
  udot = ws.sol.head(6 * sys.nb());
  return static_cast<int>(cod.rank());
}

}  // namespace rbd
