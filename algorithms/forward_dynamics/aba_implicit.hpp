#pragma once
// The articulated-body algorithm with Featherstone's "Variant Formulae 2" of Table 7.2
// (section 7.4, "Alternative Assembly Formulae"): the joint enters through its implicit
// constraint (T, T_a, lambda: section 3.5) instead of its motion subspace S.
//
// Derivation (the five given equations; handle 1 = the parent side, handle 2 = body i's
// articulated body, all in body-i coordinates, c = c_i, a_1 = ^iX_lambda(i) a_lambda(i)):
//   (7.51)  f_1 = I^A_1 a_1 + p^A_1             (7.53)  f = f_1 + f_2
//   (7.52)  f_2 = I^A_2 a_2 + p^A_2
//   (7.54') T^T a_2 = T^T (a_1 + c)             [7.54 premultiplied by T^T, T^T S = 0 (3.36)]
//   (7.55') f_2 = T_a tau + T lambda            [Eq. 3.34, replaces S^T f_2 = tau (7.55)]
// (7.52) = (7.55'):  a_2 = (I^A_2)^-1 (T_a tau + T lambda - p^A_2)                     (i)
// into (7.54'):      K lambda = T^T a_1 + z,   K = T^T (I^A_2)^-1 T,
//                    z = T^T (c - (I^A_2)^-1 (T_a tau - p^A_2))                        (ii)
// so                 lambda = K^-1 (z + T^T a_1)                                       (iii)
// and (7.53) with (7.51), (7.55'), (iii):  f = I^A a_1 + p^A (7.56) with
//                    I^A = I^A_1 + T K^-1 T^T                                          (iv)
//                    p^A = p^A_1 + T_a tau + T K^-1 z                                  (v)
// -- Table 7.2's printed z, lambda, I^A and p^A, every sign as printed. Body i's contribution
// to its parent is therefore I^a = T K^-1 T^T and p^a = T_a tau + T K^-1 z in place of
// Eqs. 7.47-7.48 (I^A_1, p^A_1 are what the parent has gathered so far). qdd (footnote 1):
// a_2 - a_1 - c = S qdd by (7.54), and T_a^T S = 1 (3.35), so qdd = T_a^T (a_2 - a_1 - c) (vi).
// K is SPD: I^A_2 is (it holds body i's own SPD inertia) and T has full column rank.
//
// Passes:
//  1. as aba (Table 7.1): v_i, c_i, I^A_i = I_i, p^A_i = v x* I v - f^x_i;
//  2. tips to base: (I^A_i)^-1 by L D L^T, Y = (I^A_i)^-1 T, K, K^-1, w = (I^A_i)^-1
//     (T_a tau - p^A_i), z = T^T (c - w); the parent gets ^lX_i^* (iv), (v) ^iX_l;
//  3. base to tips: a_1 = ^iX_lambda a_lambda (a_0 = -a_g), lambda (iii),
//     a_i = a_2 = w + Y lambda (i), qdd_i (vi).
// T and T_a are joint constants, built in the workspace (joint_force_subspaces in
// workspace.hpp): unit vectors for axis-aligned joints, so products with them are selections
// (aba_detail::mul_S and friends skip zeros and ones). The free joint has T empty: it passes
// only T_a tau on, and its lambda, K are empty.
#include <string_view>

#include "forward_dynamics/aba.hpp"

namespace rbd {

namespace aba_implicit_detail {

// Inverse of a symmetric positive-definite matrix (I^A_i, 6 x 6, or K, m x m) by
// A = L D L^T, L unit lower triangular: no square roots, no pivoting (SPD: pivots d_j > 0).
// Column c of A^-1 solves L D L^T x = e_c: forward substitution starts at row c (y_k = 0
// above it, y_c = 1), and back substitution from the bottom up to row c gives x_c..x_{n-1},
// the lower triangle of column c; the upper triangle is its mirror, so A^-1 is exactly
// symmetric. About n^3/2 multiplications (141 for n = 6).
template <class S, class M> void spd_inverse_ldlt(const M& A, M& Ainv) {
  const Eigen::Index n = A.rows();
  M L = A;  // strict lower triangle: L; diagonal: d
  Vec6<S> t, dinv, y;
  for (Eigen::Index j = 0; j < n; ++j) {
    for (Eigen::Index k = 0; k < j; ++k) t[k] = L(j, k) * L(k, k);   // L_jk d_k
    S d = A(j, j);
    for (Eigen::Index k = 0; k < j; ++k) d -= L(j, k) * t[k];
    L(j, j) = d;
    dinv[j] = S(1) / d;
    for (Eigen::Index i = j + 1; i < n; ++i) {
      S l = A(i, j);
      for (Eigen::Index k = 0; k < j; ++k) l -= L(i, k) * t[k];
      L(i, j) = l * dinv[j];
    }
  }
  for (Eigen::Index c = 0; c < n; ++c) {
    for (Eigen::Index i = c + 1; i < n; ++i) {                         // L y = e_c
      y[i] = -L(i, c);
      for (Eigen::Index k = c + 1; k < i; ++k) y[i] -= L(i, k) * y[k];
    }
    for (Eigen::Index i = n - 1; i >= c; --i) {                        // L^T x = D^-1 y
      S x = i == c ? dinv[i] : S(y[i] * dinv[i]);
      for (Eigen::Index k = i + 1; k < n; ++k) x -= L(k, i) * Ainv(k, c);
      Ainv(i, c) = x;
      Ainv(c, i) = x;
    }
  }
}

// I^a = W T^T with W = T K^-1 (= T K^-1 T^T, Eq. (iv)'s term), on the upper triangle, mirrored;
// terms where T is zero are skipped and ones not multiplied (as aba_detail::mul_S).
template <class S> void times_T_transpose_symmetric(const Mat6N<S>& W, const Mat6N<S>& T, Mat6<S>& Ia) {
  for (int r = 0; r < 6; ++r)
    for (int c = r; c < 6; ++c) {
      bool first = true;
      S acc(0);
      for (Eigen::Index k = 0; k < T.cols(); ++k) {
        const S& t = T(c, k);
        if (t == S(0)) continue;
        const S x = t == S(1) ? S(W(r, k)) : S(W(r, k) * t);
        acc = first ? x : S(acc + x);
        first = false;
      }
      Ia(r, c) = Ia(c, r) = acc;
    }
}

}  // namespace aba_implicit_detail

struct AbaImplicit {
  static constexpr std::string_view name = "aba_implicit";
  static constexpr std::string_view summary =
      "Articulated-body algorithm with Table 7.2's variant 2 assembly (implicit joint constraint T, T_a, lambda)";
  static constexpr std::string_view complexity = "O(n)";
  // Needs (I^A_i)^-1 for every body: true for any tree of SPD rigid-body inertias (Model
  // validation), the only models rbdlab builds.
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& tau,
                  const ExternalForces<S>* f_ext, VecX<S>& qdd, ForwardDynamicsWorkspace<S>& ws) {
    using namespace aba_detail;
    using aba_implicit_detail::spd_inverse_ldlt;
    const auto& parent = model.parent;
    // Pass 1, base to tips: v_i, c_i (Eqs. 7.34-7.35), I^A_i = I_i, p^A_i (Eq. 7.36): aba's
    // lines, so that the two variants differ in passes 2-3 only.
    for (int i = 0; i < model.nb; ++i) velocity_step<S>(model, i, q, qd, f_ext, ws);
    // Pass 2, tips to base: Table 7.2 variant 2 with handle 2 = body i's articulated body.
    for (int i = model.nb - 1; i >= 0; --i) {
      const int p = parent[i], vi = model.v_idx[i];
      const Mat6N<S>& T = ws.T[i];
      const Eigen::Index m = T.cols();
      Mat6<S> IAinv;
      spd_inverse_ldlt<S>(ws.IA[i], IAinv);                                             // (I^A_2)^-1
      mul_S<S>(IAinv, T, ws.Y[i]);                                                      // Y = (I^A_2)^-1 T
      MatN<S> K(m, m);
      for (Eigen::Index k = 0; k < m; ++k) K.col(k) = St_mul<S>(T, Vec6<S>(ws.Y[i].col(k)));  // K = T^T Y
      spd_inverse_ldlt<S>(K, ws.Kinv[i]);                                               // K^-1
      const Vec6<S> Tatau = S_mul<S>(ws.Ta[i], VecN<S>(tau.segment(vi, ws.Ta[i].cols())));  // T_a tau
      ws.w[i] = IAinv * (Tatau - ws.pA[i]);                                             // (I^A_2)^-1 (T_a tau - p^A_2)
      ws.z[i] = St_mul<S>(T, Vec6<S>(ws.c[i] - ws.w[i]));                               // z, (ii)
      if (p < 0) continue;
      Vec6<S> pa = Tatau;                                                               // p^a = T_a tau + T K^-1 z, (v)
      if (m > 0) {
        Mat6N<S> W(6, m);                                                               // W = T K^-1
        for (Eigen::Index k = 0; k < m; ++k) W.col(k) = S_mul<S>(T, VecN<S>(ws.Kinv[i].col(k)));
        Mat6<S> Ia;
        aba_implicit_detail::times_T_transpose_symmetric<S>(W, T, Ia);                  // I^a = T K^-1 T^T, (iv)
        congruence_add<S>(ws.Xup[i], Ia, ws.IA[p]);                                     // I^A_l += ^lX_i^* I^a ^iX_l
        pa += S_mul<S>(T, VecN<S>(ws.Kinv[i] * ws.z[i]));
      }
      add_apply_transpose<S>(ws.Xup[i], pa, ws.pA[p]);                                  // p^A_l += ^lX_i^* p^a
    }
    // Pass 3, base to tips: lambda (iii), a_2 (i), qdd (vi).
    const Vec3<S> minus_g = -model.gravity;                                             // a_0 = -a_g
    for (int i = 0; i < model.nb; ++i) {
      const int lambda = parent[i];
      const Mat6N<S>& T = ws.T[i];
      const Vec6<S> a1 = lambda < 0 ? join<S>(Vec3<S>::Zero(), ws.Xup[i].E * minus_g)  // ^iX_0 a_0
                                    : ws.Xup[i].apply(ws.a[lambda]);                    // ^iX_l a_l
      const VecN<S> lam = ws.Kinv[i] * VecN<S>(ws.z[i] + St_mul<S>(T, a1));             // (iii)
      Vec6<S>& a2 = ws.a[i];
      a2 = ws.w[i];                                                                     // (i): w + Y lambda
      for (Eigen::Index k = 0; k < T.cols(); ++k) a2 += ws.Y[i].col(k) * lam[k];
      qdd.segment(model.v_idx[i], ws.Ta[i].cols()) =
          St_mul<S>(ws.Ta[i], Vec6<S>(a2 - a1 - ws.c[i]));                              // (vi)
    }
  }
};

}  // namespace rbd
