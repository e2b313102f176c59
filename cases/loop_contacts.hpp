#pragma once
// States for the loop-contact family (loops and frictionless point contacts on one tree): the
// loops closed and the contacts placed at q as their own families do (cases/loops.hpp,
// cases/contacts.hpp), then qd projected so that it satisfies both at once.
#include <Eigen/QR>

#include "cases/contacts.hpp"
#include "cases/loops.hpp"

namespace rbd::cases {

// qd projected orthogonally onto null([K; T^T]) at q, in S: every loop closes at the velocity
// level (K qd = 0, Eq. 8.9) and every contact neither separates nor approaches (T^T qd = 0,
// Eq. 11.28). K is often rank-deficient (a planar loop closed by a spatial joint) and the
// contact rows can depend on the loops' (a foot whose corners the linkage already holds), so the
// projection is through a column-pivoting QR of [K^T T] with the closed-loop family's rank
// threshold, 1e4 n eps of the largest pivot (closed_loop_dynamics/workspace.hpp). A rank
// over-estimated by rounding only removes one more direction from qd, which keeps it
// consistent; every freedom held gives exactly 0 (see holds_every_freedom in contacts.hpp).
template <class S>
VecX<S> consistent_loop_contact_velocity(const Model<S>& m, const LoopJoints<S>& loops, const PointContacts<S>& contacts,
                                         const VecX<S>& q, const VecX<S>& qd) {
  ClosedLoopWorkspace<S> ws(m);
  const VecX<S> zero = VecX<S>::Zero(m.nv);
  loops::tree_and_loop_terms<S>(m, loops, q, zero, zero, nullptr, ws);
  const MatX<S> T = contacts.empty() ? MatX<S>(m.nv, 0) : contact_T<S>(m, contacts, q);
  MatX<S> A(m.nv, ws.nc + T.cols());
  A << ws.K.transpose(), T;
  if (A.cols() == 0) return qd;
  Eigen::ColPivHouseholderQR<MatX<S>> qr(A.rows(), A.cols());
  qr.setThreshold(S(1e4) * S(m.nv) * Eigen::NumTraits<S>::epsilon());
  qr.compute(A);
  const Eigen::Index r = qr.rank();
  if (r == m.nv) return VecX<S>::Zero(m.nv);
  const MatX<S> Q = MatX<S>(qr.householderQ()).leftCols(r);
  return qd - Q * VecX<S>(Q.transpose() * qd);
}

}  // namespace rbd::cases
