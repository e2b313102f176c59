#pragma once
// What the independent oracle (reference/) says each family's value is.
#include "reference/gepp.hpp"
#include "reference/lagrange_oracle.hpp"
#include "reference/contact_oracle.hpp"
#include "reference/friction_oracle.hpp"
#include "reference/impact_oracle.hpp"
#include "reference/loop_contact_oracle.hpp"
#include "reference/loop_oracle.hpp"
#include "verify/support/families.hpp"

namespace rbd::verify {

template <class Family> MatX<Reference> oracle_value(const Model<Reference>& m, const StateOf<Reference>& x);

template <> inline MatX<Reference> oracle_value<InverseDynamicsFamily>(const Model<Reference>& m,
                                                                      const StateOf<Reference>& x) {
  return oracle::inverse_dynamics(m, x.q, x.qd, x.qdd, &x.f_ext);
}
template <> inline MatX<Reference> oracle_value<MassMatrixFamily>(const Model<Reference>& m,
                                                                 const StateOf<Reference>& x) {
  return oracle::mass_matrix(m, x.q);
}
template <> inline MatX<Reference> oracle_value<BiasFamily>(const Model<Reference>& m,
                                                           const StateOf<Reference>& x) {
  const VecX<Reference> zero = VecX<Reference>::Zero(m.nv);
  return oracle::inverse_dynamics(m, x.q, x.qd, zero, &x.f_ext);
}

// Gaussian elimination with partial pivoting (reference/gepp.hpp): shares nothing with the
// factorization and forward-dynamics variants it judges.
template <class S> VecX<S> dense_solve_gepp(MatX<S> A, VecX<S> b) {
  return oracle::solve_gepp<S>(std::move(A), std::move(b), "dense_solve_gepp: the matrix");
}

// x = H^-1 tau with the oracle's H.
template <> inline MatX<Reference> oracle_value<FactorizationFamily>(const Model<Reference>& m,
                                                                    const StateOf<Reference>& x) {
  return dense_solve_gepp<Reference>(oracle::mass_matrix(m, x.q), x.tau);
}
// qdd = H^-1 (tau - C) with the oracle's H and C = ID(q, qd, 0, f_ext).
template <> inline MatX<Reference> oracle_value<ForwardDynamicsFamily>(const Model<Reference>& m,
                                                                      const StateOf<Reference>& x) {
  const VecX<Reference> zero = VecX<Reference>::Zero(m.nv);
  const VecX<Reference> C = oracle::inverse_dynamics(m, x.q, x.qd, zero, &x.f_ext);
  return dense_solve_gepp<Reference>(oracle::mass_matrix(m, x.q), VecX<Reference>(x.tau - C));
}

// Hybrid dynamics: Eq. 9.1 with the oracle's H and C = ID(q, qd, 0, f_ext), rearranged into one
// system in the unknowns y (y_v = qdd_v at a forward variable, tau_v at an inverse one):
//   sum_{v fwd} H_:v y_v - sum_{v inv} e_v y_v = sum_{v fwd} e_v tau_v - C - sum_{v inv} H_:v qdd_v,
// solved whole by the elimination above (no H_11, no C', no ordering of the variables).
template <> inline MatX<Reference> oracle_value<HybridDynamicsFamily>(const Model<Reference>& m,
                                                                     const StateOf<Reference>& x) {
  const VecX<Reference> zero = VecX<Reference>::Zero(m.nv);
  const MatX<Reference> H = oracle::mass_matrix(m, x.q);
  MatX<Reference> A = MatX<Reference>::Zero(m.nv, m.nv);
  VecX<Reference> b = -oracle::inverse_dynamics(m, x.q, x.qd, zero, &x.f_ext);
  for (int i = 0; i < m.nb; ++i)
    for (int k = 0; k < m.joint[i].nv(); ++k) {
      const int v = m.v_idx[i] + k;
      if (x.forward.at(i)) {
        A.col(v) = H.col(v);
        b[v] += x.tau[v];
      } else {
        A(v, v) = Reference(-1);
        b -= H.col(v) * x.qdd[v];
      }
    }
  return dense_solve_gepp<Reference>(A, b);
}

// Geared dynamics (section 9.6): the Lagrangian of the tree in the independent coordinates y,
// q = gamma(y), qd = G yd, written out here from the pairs themselves (not from the variants'
// GearMap): T = 1/2 yd^T (G^T H G) yd, so with the oracle's H and C = ID(q, qd, 0, f_ext),
// (G^T H G) ydd = G^T (tau - C) (Eq. 9.26; g = 0, constant ratios), solved by the elimination above.
template <> inline MatX<Reference> oracle_value<GearedDynamicsFamily>(const Model<Reference>& m,
                                                                     const StateOf<Reference>& x) {
  std::vector<int> driver(m.nb, -1);
  std::vector<Reference> ratio(m.nb, Reference(1));
  for (const GearPair& p : x.gears) {
    driver.at(p.driven) = p.driver;
    ratio.at(p.driven) = Reference(p.ratio);
  }
  VecX<Reference> q = x.q, qd = x.qd;
  std::vector<int> column(m.nv, -1);
  int ny = 0;
  for (int i = 0; i < m.nb; ++i)
    if (driver[i] < 0)
      for (int k = 0; k < m.joint[i].nv(); ++k) column[m.v_idx[i] + k] = ny++;
  MatX<Reference> G = MatX<Reference>::Zero(m.nv, ny);
  for (int i = 0; i < m.nb; ++i) {
    const int d = driver[i];
    if (d < 0) {
      for (int k = 0; k < m.joint[i].nv(); ++k) G(m.v_idx[i] + k, column[m.v_idx[i] + k]) = Reference(1);
    } else {  // 1-DoF joints: q_i = ratio q_d, qd_i = ratio qd_d
      q[m.q_idx[i]] = ratio[i] * x.q[m.q_idx[d]];
      qd[m.v_idx[i]] = ratio[i] * x.qd[m.v_idx[d]];
      G(m.v_idx[i], column[m.v_idx[d]]) = ratio[i];
    }
  }
  const VecX<Reference> zero = VecX<Reference>::Zero(m.nv);
  const MatX<Reference> H = oracle::mass_matrix(m, q);
  const VecX<Reference> C = oracle::inverse_dynamics(m, q, qd, zero, &x.f_ext);
  return dense_solve_gepp<Reference>(MatX<Reference>(G.transpose() * H * G), VecX<Reference>(G.transpose() * (x.tau - C)));
}

// Closed-loop dynamics (chapter 8): the Lagrangian in independent coordinates
// (reference/loop_oracle.hpp), with its own loop-closure functions on 4x4 poses, its own
// elimination and the tree oracle's H and C. The state is made exactly as the family makes it
// (cases/loops.hpp: frames solved at q, qd projected in Reference) -- it is the problem, not
// an answer -- and the oracle refuses it unless its own phi(q) and Phi qd vanish to 1e-40.
template <> inline MatX<Reference> oracle_value<ClosedLoopDynamicsFamily>(const Model<Reference>& m,
                                                                         const StateOf<Reference>& x) {
  const auto c = ClosedLoopDynamicsFamily::closed_state<Reference>(m, x);
  return oracle::closed_loop_forward_dynamics<Reference>(m, c.loops, x.q, c.qd, x.tau, &x.f_ext);
}

// Contact dynamics (chapter 11): H qdd + C = tau + Phi^T lambda with lambda from the LCP of
// Eq. 11.42 solved by enumerating every active set (reference/contact_oracle.hpp), Phi and the
// bias from its own phi(q) on 4x4 poses. The state is made exactly as the family makes it (planes
// through the points at q, qd projected in Reference) -- it is the problem, not an answer -- and
// the oracle refuses it unless its own phi and Phi qd vanish.
template <> inline MatX<Reference> oracle_value<ContactDynamicsFamily>(const Model<Reference>& m,
                                                                      const StateOf<Reference>& x) {
  const auto t = ContactDynamicsFamily::touching_state<Reference>(m, x);
  return oracle::contact_forward_dynamics<Reference>(m, t.contacts, x.q, t.qd, x.tau, &x.f_ext);
}

// Loops and contacts together: reference/loop_contact_oracle.hpp, the loop oracle's reduction to
// independent coordinates and the contact oracle's rows and enumeration, composed. The state is
// made exactly as the family makes it (the problem, not an answer); the oracle checks the loops'
// closure and the contacts' phi and Phi qd itself.
template <> inline MatX<Reference> oracle_value<LoopContactDynamicsFamily>(const Model<Reference>& m,
                                                                          const StateOf<Reference>& x) {
  const auto h = LoopContactDynamicsFamily::held_state<Reference>(m, x);
  return oracle::loop_contact_forward_dynamics<Reference>(m, h.loops, h.contacts, x.q, h.qd, x.tau, &x.f_ext);
}

// Impacts (section 11.7): H (qd^+ - qd^-) = Phi^T lambda with Newton's law at every contact as
// complementarity, lambda by the same enumeration (reference/impact_oracle.hpp). qd^- is made as
// the family makes it (the problem, not an answer); the oracle checks phi = 0 itself.
template <> inline MatX<Reference> oracle_value<ImpactDynamicsFamily>(const Model<Reference>& m,
                                                                     const StateOf<Reference>& x) {
  const auto t = ImpactDynamicsFamily::impact_state<Reference>(m, x);
  return oracle::impact_response<Reference>(m, t.contacts, x.q, t.qd_minus);
}

// Contacts with Coulomb friction: H qdd + C = tau + sum of each contact's normal and tangential
// rows times its force, with every contact's mode (separating; stuck; slipping at a vertex or an
// edge of its pyramid; sliding) enumerated and checked against Coulomb's law and maximum
// dissipation (reference/friction_oracle.hpp), the rows from its own phi on 4x4 poses. The state
// is made as the family makes it (the problem, not an answer).
template <> inline MatX<Reference> oracle_value<FrictionDynamicsFamily>(const Model<Reference>& m,
                                                                       const StateOf<Reference>& x) {
  const auto t = FrictionDynamicsFamily::frictional_state<Reference>(m, x);
  return oracle::friction_forward_dynamics<Reference>(m, t.contacts, x.q, t.qd, x.tau, &x.f_ext);
}

// Extended joints: the Lagrangian oracle with each joint written as a pose of its own (drive,
// then joint, inverted if reversed; reference/lagrange_oracle.hpp) at the state's time t, and
// qdd = H^-1 (tau - C) by the elimination above.
template <> inline MatX<Reference> oracle_value<ExtendedInverseDynamicsFamily>(const Model<Reference>& m,
                                                                              const StateOf<Reference>& x) {
  return oracle::inverse_dynamics(extended_model_of(m, x), x.t, x.q, x.qd, x.qdd, &x.f_ext);
}
template <> inline MatX<Reference> oracle_value<ExtendedForwardDynamicsFamily>(const Model<Reference>& m,
                                                                              const StateOf<Reference>& x) {
  const ExtendedModel<Reference> em = extended_model_of(m, x);
  const VecX<Reference> zero = VecX<Reference>::Zero(m.nv);
  const VecX<Reference> C = oracle::inverse_dynamics(em, x.t, x.q, x.qd, zero, &x.f_ext);
  return dense_solve_gepp<Reference>(oracle::mass_matrix(em, x.t, x.q), VecX<Reference>(x.tau - C));
}

}  // namespace rbd::verify
