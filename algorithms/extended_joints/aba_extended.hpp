#pragma once
// Forward dynamics with extended joints by the articulated-body algorithm, Featherstone
// Table 7.1 line by line for joints of any DoF: c_i = c_J + v_i x v_J carries the rack's
// S-rate term and the drive's sigma (Eqs. 3.40, 7.35-7.36), S_i is jcalc_extended's S(q), and
// D_i = S_i^T U_i is inverted as a (up to 6x6) positive definite matrix.
#include <stdexcept>
#include <string>
#include <string_view>

#include "extended_joints/jcalc_extended.hpp"
#include "extended_joints/workspace.hpp"
#include "model/workspace.hpp"  // ExternalForces

namespace rbd {

struct AbaExtended {
  static constexpr std::string_view name = "aba_extended";
  static constexpr std::string_view summary = "Table 7.1 with jcalc's full output (S(q), c_J, sigma, polarity)";
  static constexpr std::string_view complexity = "O(n)";
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const ExtendedModel<S>& em, const S& t, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& tau,
                  const ExternalForces<S>* f_ext, VecX<S>& qdd, ExtendedWorkspace<S>& ws) {
    const Model<S>& m = em.tree;
    // Pass 1: velocities, velocity-product accelerations, isolated-body inertias and bias forces.
    for (int i = 0; i < m.nb; ++i) {
      const int lambda = m.parent[i], vi = m.v_idx[i], nv = m.joint[i].nv();
      JointKinematics<S>& J = ws.jk[i];
      jcalc_extended(m.joint[i], em.ext[i], q.segment(m.q_idx[i], m.joint[i].nq()), qd.segment(vi, nv), t, J);
      ws.Xup[i] = J.XJ * m.Xtree[i];
      ws.v[i] = (lambda < 0 ? Vec6<S>::Zero() : ws.Xup[i].apply(ws.v[lambda])) + J.vJ;  // Eq. 7.34
      ws.c[i] = J.cJ + crm<S>(ws.v[i], J.vJ);                                           // Eq. 7.35
      ws.IA[i] = m.I[i].matrix();
      ws.pA[i] = crf<S>(ws.v[i], m.I[i] * ws.v[i]);                                     // Eq. 7.36
      if (f_ext) ws.pA[i] -= (*f_ext)[i];
    }
    // Pass 2, tips to base: articulated-body inertias and bias forces (Eqs. 7.37-7.40).
    for (int i = m.nb - 1; i >= 0; --i) {
      const int lambda = m.parent[i], vi = m.v_idx[i], nv = m.joint[i].nv();
      const Mat6N<S>& Si = ws.jk[i].S_;
      // Products with an n_i that is not known at compile time are written lazily (coefficient by
      // coefficient): Eigen's general products would take heap blocks for their panels.
      ws.U[i] = ws.IA[i].lazyProduct(Si);
      const MatUpTo6<S> D = Si.transpose().lazyProduct(ws.U[i]);
      Eigen::LLT<MatUpTo6<S>> llt(D);
      if (llt.info() != Eigen::Success)
        throw std::domain_error("aba_extended: D = S^T I^A S of body " + std::to_string(i) + " '" + m.body_name[i] +
                                "' in model '" + m.name + "' is not positive definite");
      ws.Dinv[i] = llt.solve(MatUpTo6<S>::Identity(nv, nv));
      ws.u[i] = tau.segment(vi, nv) - Si.transpose().lazyProduct(ws.pA[i]);
      if (lambda >= 0) {
        const Mat6N<S> UDinv = ws.U[i].lazyProduct(ws.Dinv[i]);
        const Mat6<S> Ia = ws.IA[i] - UDinv.lazyProduct(ws.U[i].transpose());
        const Vec6<S> pa = ws.pA[i] + Ia * ws.c[i] + UDinv.lazyProduct(ws.u[i]);
        const Mat6<S> X = ws.Xup[i].matrix();
        ws.IA[lambda] += X.transpose() * Ia * X;      // ^lambdaX_i^* I^a_i ^iX_lambda
        ws.pA[lambda] += ws.Xup[i].apply_transpose(pa);
      }
    }
    // Pass 3, base to tips: accelerations (Eqs. 7.41-7.43), a_0 = -a_g.
    const Vec6<S> a0 = -m.a_g();
    for (int i = 0; i < m.nb; ++i) {
      const int lambda = m.parent[i], vi = m.v_idx[i], nv = m.joint[i].nv();
      const Vec6<S> a_prime = ws.Xup[i].apply(lambda < 0 ? a0 : ws.a[lambda]) + ws.c[i];
      const VecUpTo6<S> rhs = ws.u[i] - ws.U[i].transpose().lazyProduct(a_prime);
      qdd.segment(vi, nv) = ws.Dinv[i].lazyProduct(rhs);
      ws.a[i] = a_prime + ws.jk[i].S_.lazyProduct(qdd.segment(vi, nv));
    }
  }
};

}  // namespace rbd
