#pragma once
// The articulated-body algorithm with Featherstone's "Variant Formulae 1" of Table 7.2
// (section 7.4): articulated bodies described by their inverse inertias,
//   a = Phi^A f + b^A      (the inverse of f = I^A a + p^A, Eq. 7.56),
// and the joint by its implicit constraint (T, T_a, lambda: section 3.5). The book's point: the
// formulae need no inertia to exist, only T^T (Phi_1 + Phi_2) T to be invertible, so the same
// assembly works where I^A does not exist (handles with fewer than six degrees of freedom,
// some closed loops; section 7.5 builds on it). On trees it is a second, genuinely different
// route to ABA's qdd: every articulated quantity is an inverse inertia, assembled by other
// formulae, and the identity Phi^A_i = (I^A_i)^-1 is checked (verify/test_forward_dynamics_identities.cpp).
//
// Derivation (handle 1 = the parent's articulated body so far, handle 2 = body i's whole
// subtree, all in parent coordinates; c the joint's velocity-product term):
//   a_1 = Phi_1 f_1 + b_1        a_2 = Phi_2 f_2 + b_2        f = f_1 + f_2
//   T^T a_2 = T^T (a_1 + c)      f_2 = T_a tau + T lambda
// f_1 = f - T_a tau - T lambda into a_1, and both into the constraint:
//   Y lambda = z + T^T Phi_1 f,   Y = T^T (Phi_1 + Phi_2) T,
//                                 z = T^T (c + b_1 - b_2 - (Phi_1 + Phi_2) T_a tau)
// -- Table 7.2's printed Y (its "T^T (Phi_1^A + Phi_2^A) T") and z -- so a_1 = Phi^A f + b^A with
//   Phi^A = Phi_1 - Phi_1 T Y^-1 T^T Phi_1                                            (A)
//   b^A   = b_1 - Phi_1 T_a tau - Phi_1 T Y^-1 z                                      (B)
// A body alone: f = I a + p gives Phi = I^-1, b = -I^-1 p.
//
// Passes:
//  1. as aba (Table 7.1): ^iX_lambda, v_i, c_i, p_i; then Phi_i = I_i^-1, b_i = -Phi_i p_i;
//  2. tips to base: body i's finished (Phi_i, b_i) and its joint's T, T_a tau, c carried into
//     the parent's coordinates, and the parent's (Phi, b) replaced by (A), (B);
//  3. base to tips, with the parent's acceleration a_1 known (a_0 = -a_g): body i's own
//     equation a_i = Phi_i f + b_i with f = T_a tau + T lambda and the constraint give
//       K lambda = T^T (a_1 + c - b_i - Phi_i T_a tau),   K = T^T Phi_i T,
//     then a_i, and qdd_i = T_a^T (a_i - a_1 - c) (Table 7.2's footnote 1).
// Both pass-2 and pass-3 solves are SPD: Phi_i is the inverse of an SPD I^A_i; T has full
// column rank. The assembly is written in the parent's coordinates, as the table is, rather
// than in the cheaper joint frame: this variant is for checking, not for speed (the book: "in
// most cases, the alternatives are more complicated and less efficient").
#include <string_view>

#include "forward_dynamics/aba_implicit.hpp"

namespace rbd {

namespace aba_inverse_inertia_detail {

// X^-1 M X^-T for a 6x6 M, X = ^iX_lambda: an inverse inertia (force -> motion) carried from
// body-i to parent coordinates. Motions go as a^l = X^-1 a^i, forces as f^i = ^iX_l^* f^l =
// X^-T f^l, so a^i = M f^i + b becomes a^l = (X^-1 M X^-T) f^l + X^-1 b.
template <class S> Mat6<S> to_parent(const Transform<S>& X, const Mat6<S>& M) {
  Mat6<S> A, out;
  for (int k = 0; k < 6; ++k) A.col(k) = X.apply_inverse(Vec6<S>(M.col(k)));       // X^-1 M
  const Mat6<S> At = A.transpose();                                               // M^T X^-T
  for (int k = 0; k < 6; ++k) out.col(k) = X.apply_inverse(Vec6<S>(At.col(k)));   // X^-1 (X^-1 M^T)^T
  return out.transpose();                                                         // = X^-1 M X^-T
}

}  // namespace aba_inverse_inertia_detail

struct AbaInverseInertia {
  static constexpr std::string_view name = "aba_inverse_inertia";
  static constexpr std::string_view summary =
      "Articulated-body algorithm with Table 7.2's variant 1 assembly (inverse inertias Phi^A, b^A; implicit joint "
      "constraint)";
  static constexpr std::string_view complexity = "O(n)";
  // Needs I_i^-1 for every body: true for the SPD rigid-body inertias Model validation admits.
  // It inverts every body inertia I_i, which a dynamically equivalent model may have made
  // singular (section 9.7's closing remark: zero mass after Table 9.7's shifts).
  template <class S> static bool applicable(const Model<S>& m) { return m.inertia_kind == InertiaKind::Physical; }

  template <class S>
  static void run(const Model<S>& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& tau,
                  const ExternalForces<S>* f_ext, VecX<S>& qdd, ForwardDynamicsWorkspace<S>& ws) {
    using namespace aba_detail;
    using aba_implicit_detail::spd_inverse_ldlt;
    const auto& parent = model.parent;
    // Pass 1, base to tips: aba's lines (v_i, c_i; ws.IA[i] = I_i, ws.pA[i] = p_i), then the
    // body alone as an inverse-inertia articulated body.
    for (int i = 0; i < model.nb; ++i) {
      velocity_step<S>(model, i, q, qd, f_ext, ws);
      spd_inverse_ldlt<S>(ws.IA[i], ws.Phi[i]);                                   // Phi_i = I_i^-1
      ws.b[i] = -(ws.Phi[i] * ws.pA[i]);                                          // b_i = -I_i^-1 p_i
    }
    // Pass 2, tips to base: Table 7.2 variant 1, handle 1 = the parent's articulated body so
    // far, handle 2 = body i's (complete: its children have all been assembled into it).
    for (int i = model.nb - 1; i >= 0; --i) {
      const int p = parent[i];
      if (p < 0) continue;
      const Transform<S>& X = ws.Xup[i];
      const Mat6N<S>& Ti = ws.T[i];
      const Eigen::Index m = Ti.cols();
      Mat6N<S> T(6, m);                                                           // T in parent coordinates
      for (Eigen::Index k = 0; k < m; ++k) T.col(k) = X.apply_transpose(Vec6<S>(Ti.col(k)));
      const Vec6<S> Tatau =                                                       // T_a tau, parent coordinates
          X.apply_transpose(S_mul<S>(ws.Ta[i], VecN<S>(tau.segment(model.v_idx[i], ws.Ta[i].cols()))));
      const Vec6<S> c = X.apply_inverse(ws.c[i]);
      const Mat6<S> Phi2 = aba_inverse_inertia_detail::to_parent<S>(X, ws.Phi[i]);
      const Vec6<S> b2 = X.apply_inverse(ws.b[i]);
      Mat6<S>& Phi1 = ws.Phi[p];
      Vec6<S>& b1 = ws.b[p];
      const Mat6<S> sum = Phi1 + Phi2;
      const Vec6<S> Phi1_Tatau = Phi1 * Tatau;
      if (m == 0) {                                                               // a free joint: no constraint force
        b1 -= Phi1_Tatau;                                                         // (B); Phi^A = Phi_1 (A)
        continue;
      }
      const Mat6N<S> G = Phi1 * T;                                                // Phi_1 T
      const MatN<S> Y = T.transpose() * (sum * T);
      MatN<S> Yinv(m, m);
      spd_inverse_ldlt<S>(Y, Yinv);
      const VecN<S> z = T.transpose() * Vec6<S>(c + b1 - b2 - sum * Tatau);
      const Mat6N<S> GYinv = G * Yinv;
      b1 -= Phi1_Tatau + GYinv * z;                                               // (B), with the old Phi_1
      const Mat6<S> old = Phi1;
      subtract_symmetric<S>(old, GYinv, G, Phi1);                                 // (A), one triangle, mirrored
    }
    // Pass 3, base to tips: lambda, a_i and qdd_i from the parent's known acceleration.
    const Vec3<S> minus_g = -model.gravity;                                       // a_0 = -a_g
    for (int i = 0; i < model.nb; ++i) {
      const int lambda = parent[i];
      const Mat6N<S>& T = ws.T[i];
      const Eigen::Index m = T.cols();
      const Vec6<S> a1 = lambda < 0 ? join<S>(Vec3<S>::Zero(), ws.Xup[i].E * minus_g)  // ^iX_0 a_0
                                    : ws.Xup[i].apply(ws.a[lambda]);                    // ^iX_l a_l
      Vec6<S> f = S_mul<S>(ws.Ta[i], VecN<S>(tau.segment(model.v_idx[i], ws.Ta[i].cols())));  // T_a tau
      if (m > 0) {
        const Mat6N<S> PhiT = ws.Phi[i] * T;
        const MatN<S> K = T.transpose() * PhiT;                                   // T^T Phi_i T
        MatN<S> Kinv(m, m);
        spd_inverse_ldlt<S>(K, Kinv);
        const VecN<S> lam = Kinv * VecN<S>(T.transpose() * Vec6<S>(a1 + ws.c[i] - ws.b[i] - ws.Phi[i] * f));
        f += T * lam;                                                             // f = T_a tau + T lambda
      }
      ws.a[i] = ws.Phi[i] * f + ws.b[i];                                          // a_i = Phi_i f + b_i
      qdd.segment(model.v_idx[i], ws.Ta[i].cols()) = St_mul<S>(ws.Ta[i], Vec6<S>(ws.a[i] - a1 - ws.c[i]));
    }
  }
};

}  // namespace rbd
