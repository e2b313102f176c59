#pragma once
// The independent oracle for loops and frictionless point contacts together (Featherstone
// chapters 8 and 11): the two oracles' own pieces, composed in the independent coordinates.
//  1. loop_oracle.hpp's reduction: its loop-closure rows on 4x4 poses, differentiated by duals,
//     checked at position and velocity level, and eliminated by Gauss-Jordan with complete
//     pivoting, so every constrained qdd is G ydd + g.
//  2. contact_oracle.hpp's rows: phi_i(x) on the same poses, Phi = dphi/dx and its bias by duals,
//     each contact checked to be in state 3 of Figure 11.4 (phi = 0, phi_dot = 0).
//  3. The mechanism in y: the constraint forces of the loops do no work on null(loop Phi), so
//     G^T H G ydd = G^T (tau - C - H g) + G^T Phi^T lambda (loop_oracle.hpp's step 4 with the
//     contacts' generalized force Phi^T lambda of contact_oracle.hpp's step 3). With
//     P = G (G^T H G)^-1 G^T (column by column, partial-pivoting elimination) and
//     u = G (G^T H G)^-1 G^T (tau - C - H g) + g, qdd = u + P Phi^T lambda, so the LCP of
//     Eq. 11.42 has M = Phi P Phi^T and d = Phi u + bias, and is solved by enumerating every
//     subset of contacts (contact_oracle.hpp's step 5; every accepted subset must give the same
//     qdd). No subset accepted: std::domain_error (the LCP has no solution).
// It calls nothing in algorithms/: see the two oracles' headers (this one adds only matrix
// products of their results). Tolerances are theirs, with P in the place of H^-1.
#include "reference/contact_oracle.hpp"
#include "reference/loop_oracle.hpp"

namespace rbd::oracle {

// qdd of the tree with loop joints and frictionless point contacts; lambda_out (if given)
// receives one solution's contact forces (the first accepted subset's).
template <class S>
VecX<S> loop_contact_forward_dynamics(const Model<S>& m, const LoopJoints<S>& loops, const PointContacts<S>& contacts,
                                      const VecX<S>& q, const VecX<S>& qd, const VecX<S>& tau,
                                      const std::type_identity_t<ExternalForces<S>>* f_ext,
                                      std::type_identity_t<VecX<S>>* lambda_out = nullptr) {
  namespace cd = contact_detail;
  detail::check_size(tau.size(), m.nv, "tau", "nv");
  if (contacts.size() > static_cast<std::size_t>(cd::kMaxContacts))
    cd::validate(m, contacts);  // throws, naming the limit, before any work
  const LoopReduction<S> red = closed_loop_reduction(m, loops, q, qd);
  const ContactRows<S> rows = contact_rows(m, contacts, q, qd);
  cd::require_state_3<S>(contacts, rows, qd, "loop-contact oracle");
  const int n = m.nv, ny = static_cast<int>(red.G.cols());
  const MatX<S> H = mass_matrix(m, q);
  const VecX<S> C = inverse_dynamics(m, q, qd, VecX<S>(VecX<S>::Zero(n)), f_ext);
  MatX<S> P = MatX<S>::Zero(n, n);  // G (G^T H G)^-1 G^T; 0 for a locked mechanism
  if (ny > 0) {
    const MatX<S> My = red.G.transpose() * H * red.G;
    MatX<S> Myinv(ny, ny);
    for (int j = 0; j < ny; ++j)
      Myinv.col(j) = solve_gepp<S>(My, VecX<S>(VecX<S>::Unit(ny, j)), "loop-contact oracle: G^T H G");
    P = red.G * Myinv * red.G.transpose();
  }
  const VecX<S> rhs = tau - C - H * red.g;
  const VecX<S> u = P * rhs + red.g;
  const MatX<S> W = P * rows.Phi.transpose();
  const MatX<S> M = rows.Phi * W;
  const VecX<S> d = rows.Phi * u + rows.bias;
  // u's scale: what u would be if tau, C and H g did not cancel, plus g's own terms.
  const S p_max = cd::maxabs(P);
  const S u_scale = cd::maxabs(u) + cd::maxabs(red.g) + p_max * (cd::maxabs(tau) + cd::maxabs(C) + cd::maxabs(VecX<S>(H * red.g)));
  S d_scale, M_scale;
  cd::lcp_scales<S>(rows, M, p_max, u_scale, qd, d_scale, M_scale);
  if (contacts.empty()) {
    if (lambda_out) lambda_out->resize(0);
    return u;
  }
  const LcpSolution<S> sol = solve_lcp_by_enumeration<S>(M, d, W, M_scale, d_scale, u_scale);
  if (lambda_out) *lambda_out = sol.lambda;
  return u + W * sol.lambda;
}

}  // namespace rbd::oracle
