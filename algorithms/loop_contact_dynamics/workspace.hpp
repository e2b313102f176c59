#pragma once
// Scratch for the loop-contact family: closed loops (chapter 8) and frictionless point contacts
// (chapter 11) on one tree. It holds a closed-loop workspace, where the tree's C and H and Table
// 8.4's K and k are made, and a contact workspace, where the contacts' T and T_dot^T qd and the
// LCP (M, d, lambda, the solvers' scratch) live; the two families' steps run on them unchanged.
// What only this family needs is sized by prepare() for n variables and n_c contacts, so a call
// with the last call's structure allocates nothing.
#include <vector>

#include "closed_loop_dynamics/workspace.hpp"
#include "contact_dynamics/workspace.hpp"

namespace rbd {

template <class S> struct LoopContactWorkspace {
  ClosedLoopWorkspace<S> loop;   // C, H, tau', K, k; G, g (null space); the sparse L^T L, Y, A, b (lambda first)
  ContactWorkspace<S> contact;   // T, T_dot^T qd; M, d, lambda, zeta_dot
  // loop_contact_nullspace: Y = L_y^-1 G^T T, L_y the Cholesky factor of G^T H G (top ny rows).
  MatX<S> Yy;
  std::vector<char> held;  // loop_contact_nullspace: which contacts the loops hold (steps.hpp)
  // loop_contact_lambda_first: Y_c = L^-T T, B = K H^-1 T = Y^T Y_c, A^# B, R, and the
  // loop-closed, contact-free acceleration H^-1 (tau' + K^T A^# b).
  MatX<S> Yc, B, AB, R;  // R = Y_c - Y A^# B = L^-T (T - K^T A^# B), so M = R^T R
  VecX<S> qdd0;

  // Made for a model: the loop workspace's rank tolerance is set from it (a default-constructed
  // one has none, and must be assigned one made for the model before use).
  LoopContactWorkspace() = default;
  explicit LoopContactWorkspace(const Model<S>& m) : loop(m), contact(m), qdd0(VecX<S>::Zero(m.nv)) {
    contact.problem = "loop-contact dynamics";  // what the shared LCP solvers' errors call the problem
  }

  // The two workspaces' own prepare() run inside the shared steps; this sizes the rest.
  void prepare(const Model<S>& m) {
    const int n = m.nv, nc = contact.nc, nk = loop.nc;
    if (Yy.rows() != n || Yy.cols() != nc) {
      Yy = MatX<S>::Zero(n, nc);
      Yc = MatX<S>::Zero(n, nc);
      R = MatX<S>::Zero(n, nc);
      held.assign(nc, 0);
    }
    if (B.rows() != nk || B.cols() != nc) {
      B = MatX<S>::Zero(nk, nc);
      AB = MatX<S>::Zero(nk, nc);
    }
  }
};

}  // namespace rbd
