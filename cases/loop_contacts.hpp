#pragma once
// States for the loop-contact family (loops and frictionless point contacts on one tree): the
// loops closed and the contacts placed at q as their own families do (cases/loops.hpp,
// cases/contacts.hpp), then qd projected so that it satisfies both at once.
#include <Eigen/QR>
#include <Eigen/SVD>
#include <vector>

#include "cases/contacts.hpp"
#include "cases/loops.hpp"

namespace rbd::cases {

// An orthonormal basis of null(K) at q for `loops` (n x (n - r)), by a column-pivoting QR of K^T
// with the closed-loop family's rank threshold (consistent_loop_contact_velocity, below, says
// why); the identity without loops.
inline MatX<double> loop_null_space(const Model<double>& m, const LoopJoints<double>& loops, const VecX<double>& q) {
  if (loops.empty()) return MatX<double>::Identity(m.nv, m.nv);
  ClosedLoopWorkspace<double> ws(m);
  const VecX<double> zero = VecX<double>::Zero(m.nv);
  loops::tree_and_loop_terms<double>(m, loops, q, zero, zero, nullptr, ws);
  Eigen::ColPivHouseholderQR<MatX<double>> qr(m.nv, ws.nc);
  qr.setThreshold(1e4 * m.nv * Eigen::NumTraits<double>::epsilon());
  qr.compute(MatX<double>(ws.K.transpose()));
  return MatX<double>(qr.householderQ()).rightCols(m.nv - qr.rank());
}

// The drawn contacts (cases/contacts.hpp's draw_contacts) that a state's drawn loops leave
// independent: the longest prefix of `specs` whose rows, restricted to the loops' null space
// (N^T T, N from loop_null_space), have full column rank with sigma_min(N^T T) >= 1e-3
// sigma_max(T) -- the test draw_contacts applies to T alone, now with the loops holding part of
// the tree; measured against T's own size, so that a contact whose rows the loops absorb (N^T t
// = 0: a force through a locked joint's axis) is dropped even when it is the only one. At least
// one freedom is left free (fewer contacts than N's columns), as draw_contacts leaves one of the
// tree's: where the loops and the pressing contacts hold every freedom, qdd = 0 exactly, and a
// variant's 1e-50 against the oracle's 2e-50 is rounding that no relative measure can judge.
// Kept contacts make M = T^T P T positive definite (P the loops' projected inverse inertia), so
// the LCP of Eq. 11.42 has exactly one solution for every d: every drawn state is a problem with
// one answer. Decided in double from the double state (a margin of 1e13 over rounding), so every
// scalar sees the same contacts.
inline std::vector<ContactSpec> contacts_free_of_loops(const Model<double>& m, const std::vector<LoopSpec>& loop_specs,
                                                       const VecX<double>& q, std::vector<ContactSpec> specs) {
  const MatX<double> N = loop_null_space(m, close_loops<double>(m, q, loop_specs), q);
  while (!specs.empty()) {
    const MatX<double> T = contact_T<double>(m, place_contacts<double>(m, q, specs), q);
    const MatX<double> B = N.transpose() * T;
    if (B.cols() < B.rows()) {
      const double sigma_min = Eigen::JacobiSVD<MatX<double>>(B).singularValues().minCoeff();
      const double sigma_max = Eigen::JacobiSVD<MatX<double>>(T).singularValues().maxCoeff();
      if (sigma_min >= 1e-3 * sigma_max && sigma_max > 0) break;
    }
    specs.pop_back();
  }
  return specs;
}

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
  if (loops.empty() && contacts.empty()) return qd;
  ClosedLoopWorkspace<S> ws(m);
  const VecX<S> zero = VecX<S>::Zero(m.nv);
  loops::tree_and_loop_terms<S>(m, loops, q, zero, zero, nullptr, ws);
  const MatX<S> T = contacts.empty() ? MatX<S>(m.nv, 0) : contact_T<S>(m, contacts, q);
  MatX<S> A(m.nv, ws.nc + T.cols());
  A << ws.K.transpose(), T;
  Eigen::ColPivHouseholderQR<MatX<S>> qr(A.rows(), A.cols());
  qr.setThreshold(S(1e4) * S(m.nv) * Eigen::NumTraits<S>::epsilon());
  qr.compute(A);
  const Eigen::Index r = qr.rank();
  if (r == m.nv) return VecX<S>::Zero(m.nv);
  const MatX<S> Q = MatX<S>(qr.householderQ()).leftCols(r);
  return qd - Q * VecX<S>(Q.transpose() * qd);
}

}  // namespace rbd::cases
