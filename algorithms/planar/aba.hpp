#pragma once
// Planar articulated-body algorithm: Featherstone Table 7.1 with planar vectors (section 2.16),
// in body coordinates. An articulated-body inertia is a symmetric 3x3 matrix here (6 numbers
// instead of the spatial 21, the saving section 10.3's footnote points to); every joint has one
// degree of freedom, so U_i is a 3-vector and D_i a number. No external forces.
#include <string_view>

#include "planar/workspace.hpp"

namespace rbd::planar {

struct Aba {
  static constexpr std::string_view name = "planar_aba";
  static constexpr std::string_view summary =
      "Articulated-body algorithm with planar vectors (Featherstone Table 7.1, section 2.16)";

  template <class S>
  static void run(const Model<S>& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& tau, VecX<S>& qdd,
                  Workspace<S>& ws) {
    const int nb = model.nb;
    for (int i = 0; i < nb; ++i) {                                          // Table 7.1, first loop
      velocity_step(model, i, q, qd, ws);                                   // ^iX_lambda(i), v_i (Eq. 7.34)
      const PVec<S>& v = ws.v[i];
      if (model.parent[i] < 0) ws.c[i].setZero();                           // Eq. 7.35: v_i x v_J = v_J x v_J = 0
      else ws.c[i] = crm_S(v, model.joint[i], qd[i]);                       // Eq. 7.35: c_i = c_J + v_i x v_J, c_J = 0
      ws.IA[i] = model.I[i].matrix();                                       // Eq. 7.37 (initial): I^A_i = I_i
      ws.pA[i] = crf(v, PVec<S>(model.I[i] * v));                           // Eq. 7.36: p^A_i = v_i x* I_i v_i
    }
    for (int i = nb - 1; i >= 0; --i) {                                     // Table 7.1, second loop
      const Joint<S>& J = model.joint[i];
      const PMat<S>& IA = ws.IA[i];
      PVec<S> U;
      if (J.type == JointType::Revolute) U = IA.col(0);                     // Eq. 7.43: U_i = I^A_i S_i (S_i = e_0)
      else U = IA.col(1) * J.axis[0] + IA.col(2) * J.axis[1];
      const S Dinv = S(1) / St_times(J, U);                                 // Eq. 7.44: D_i = S_i^T U_i, inverted
      const S u = tau[i] - St_times(J, ws.pA[i]);                           // Eq. 7.45: u_i = tau_i - S_i^T p^A_i
      ws.U[i] = U;
      ws.Dinv[i] = Dinv;
      ws.u[i] = u;
      const int lambda = model.parent[i];
      if (lambda < 0) continue;
      const PVec<S> W = U * Dinv;                                           // U_i D_i^-1
      PMat<S> Ia;
      for (int r = 0; r < 3; ++r)
        for (int k = r; k < 3; ++k) Ia(r, k) = Ia(k, r) = IA(r, k) - W[r] * U[k];  // Eq. 7.47: I^a = I^A - U D^-1 U^T
      const PVec<S> pa = ws.pA[i] + Ia * ws.c[i] + W * u;                   // Eq. 7.48: p^a = p^A + I^a c + U D^-1 u
      add_congruence(ws.Xup[i], Ia, ws.IA[lambda]);                         // Eq. 7.37: I^A_lambda += ^lambda X*_i I^a ^iX_lambda
      ws.pA[lambda] += ws.Xup[i].apply_transpose(pa);                       // Eq. 7.38: p^A_lambda += ^lambda X*_i p^a
    }
    const Vec2<S> minus_g = -model.gravity;                                 // a_0 = -a_g
    for (int i = 0; i < nb; ++i) {                                          // Table 7.1, third loop
      const int lambda = model.parent[i];
      PVec<S>& a = ws.a[i];
      if (lambda < 0) a = ws.Xup[i].apply_linear(minus_g);                  // Eq. 7.46: a'_i = ^iX_0 a_0 (c_i = 0)
      else a = ws.Xup[i].apply(ws.a[lambda]) + ws.c[i];                     // Eq. 7.46: a'_i = ^iX_lambda a_lambda + c_i
      const PVec<S>& U = ws.U[i];
      const S qddi = ws.Dinv[i] * (ws.u[i] - (U[0] * a[0] + U[1] * a[1] + U[2] * a[2]));  // Eq. 7.49
      qdd[i] = qddi;
      add_S_times(model.joint[i], qddi, a);                                 // Eq. 7.50: a_i = a'_i + S_i qdd_i
    }
  }
};

}  // namespace rbd::planar
