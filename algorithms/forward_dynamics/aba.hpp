#pragma once
// The articulated-body algorithm in body coordinates, Featherstone Table 7.1
// (Eqs. 7.32-7.50), for every joint of Table 4.1 (n_i = 1..6 DoF), with gravity as the
// fictitious base acceleration a_0 = -a_g and external forces f^x_i given in body-i
// coordinates (so Table 7.1's ^iX_0^* f^x_i is just f^x_i and ^iX_0 is never needed).
#include <string_view>

#include "forward_dynamics/workspace.hpp"

namespace rbd {

namespace aba_detail {

// [r]x M, column by column (r x m_j): 18 m + 9 a instead of a dense 3x3 product's 27 m + 18 a.
template <class S> Mat3<S> skew_mul(const Vec3<S>& r, const Mat3<S>& M) {
  Mat3<S> out;
  for (int j = 0; j < 3; ++j) out.col(j) = r.cross(Vec3<S>(M.col(j)));
  return out;
}
// M [r]x, row by row: m_i^T [r]x = (m_i x r)^T.
template <class S> Mat3<S> mul_skew(const Mat3<S>& M, const Vec3<S>& r) {
  Mat3<S> out;
  for (int i = 0; i < 3; ++i) out.row(i) = Vec3<S>(M.row(i).transpose()).cross(r).transpose();
  return out;
}
// E^T A E for a symmetric A: A E, then only the upper triangle of E^T (A E), mirrored.
template <class S> Mat3<S> rotate_symmetric(const Mat3<S>& E, const Mat3<S>& A) {
  const Mat3<S> AE = A * E;
  Mat3<S> out;
  for (int i = 0; i < 3; ++i)
    for (int j = i; j < 3; ++j) out(i, j) = out(j, i) = E.col(i).dot(AE.col(j));
  return out;
}

// X^T M X for a symmetric 6x6 M and X = ^iX_lambda(i) = rot(E) xlt(r): carries an
// articulated inertia from body-i to parent coordinates (^lambda X_i^* I^a ^iX_lambda).
// With X = diag(E, E) [1 0; -rx 1]: first rotate each 3x3 block, M' = [A B; B^T C] with
// A = E^T M_11 E etc., then [1 rx; 0 1] M' [1 0; -rx 1] = [A + rx B^T - T rx, T; T^T, C],
// T = B + rx C. (Checked against the 6x6 product in verify/test_forward_dynamics_identities.cpp.)
template <class S> Mat6<S> congruence(const Transform<S>& X, const Mat6<S>& M) {
  const Mat3<S> A = rotate_symmetric<S>(X.E, M.template topLeftCorner<3, 3>());
  const Mat3<S> B = X.E.transpose() * M.template topRightCorner<3, 3>() * X.E;
  const Mat3<S> C = rotate_symmetric<S>(X.E, M.template bottomRightCorner<3, 3>());
  const Mat3<S> T = B + skew_mul<S>(X.r, C);
  Mat6<S> out;
  out.template topLeftCorner<3, 3>() = A + skew_mul<S>(X.r, B.transpose()) - mul_skew<S>(T, X.r);
  out.template topRightCorner<3, 3>() = T;
  out.template bottomLeftCorner<3, 3>() = T.transpose();
  out.template bottomRightCorner<3, 3>() = C;
  return out;
}

// The 6x6 matrix of a rigid-body inertia [Ibar hx; hx^T m1] (Eq. 2.63), assembled without
// arithmetic.
template <class S> Mat6<S> inertia_matrix(const Inertia<S>& I) {
  Mat6<S> M = Mat6<S>::Zero();
  M.template topLeftCorner<3, 3>() = I.Ibar;
  M.template topRightCorner<3, 3>() = skew<S>(I.h);
  M.template bottomLeftCorner<3, 3>() = skew<S>(I.h).transpose();
  for (int k = 3; k < 6; ++k) M(k, k) = I.m;
  return M;
}

// Products with the motion subspace S that skip its zero entries and its multiplications
// by one. Every Table 4.1 joint has a constant S whose columns are unit vectors when the
// axis is x, y or z (and always for planar, spherical and free joints), so for those the
// products cost no multiplications at all -- the "joint axis exploited" saving of section
// 10.3.1 without joint-specific code. The skipped terms are exact zeros, so the result is
// the same as the dense product.
// out = M S (6 x n_i).
template <class S> void mul_S(const Mat6<S>& M, const Mat6N<S>& Sm, Mat6N<S>& out) {
  for (Eigen::Index c = 0; c < Sm.cols(); ++c) {
    bool first = true;
    for (int k = 0; k < 6; ++k) {
      const S& s = Sm(k, c);
      if (s == S(0)) continue;
      if (first) out.col(c) = s == S(1) ? Vec6<S>(M.col(k)) : Vec6<S>(M.col(k) * s);
      else if (s == S(1)) out.col(c) += M.col(k);
      else out.col(c) += M.col(k) * s;
      first = false;
    }
    if (first) out.col(c).setZero();
  }
}
// S^T v (n_i).
template <class S> VecN<S> St_mul(const Mat6N<S>& Sm, const Vec6<S>& v) {
  VecN<S> out(Sm.cols());
  for (Eigen::Index c = 0; c < Sm.cols(); ++c) {
    bool first = true;
    S acc(0);
    for (int k = 0; k < 6; ++k) {
      const S& s = Sm(k, c);
      if (s == S(0)) continue;
      const S t = s == S(1) ? S(v[k]) : S(s * v[k]);
      acc = first ? t : S(acc + t);
      first = false;
    }
    out[c] = acc;
  }
  return out;
}
// S x (6), for x of size n_i.
template <class S> Vec6<S> S_mul(const Mat6N<S>& Sm, const VecN<S>& x) {
  Vec6<S> out;
  for (int k = 0; k < 6; ++k) {
    bool first = true;
    S acc(0);
    for (Eigen::Index c = 0; c < Sm.cols(); ++c) {
      const S& s = Sm(k, c);
      if (s == S(0)) continue;
      const S t = s == S(1) ? S(x[c]) : S(s * x[c]);
      acc = first ? t : S(acc + t);
      first = false;
    }
    out[k] = acc;
  }
  return out;
}

// Inverse of a small symmetric positive-definite matrix (D_i = S_i^T I^A_i S_i) by
// Gauss-Jordan elimination without pivoting (positive pivots: D_i is SPD because I^A_i is
// and S_i has full column rank). One division for a 1-DoF joint.
template <class S> void spd_inverse(const MatN<S>& D, MatN<S>& Dinv) {
  const Eigen::Index n = D.rows();
  if (n == 1) { Dinv(0, 0) = S(1) / D(0, 0); return; }
  MatN<S> A = D;
  Dinv.setIdentity(n, n);
  for (Eigen::Index k = 0; k < n; ++k) {
    const S inv = S(1) / A(k, k);
    A.row(k) *= inv;
    Dinv.row(k) *= inv;
    for (Eigen::Index r = 0; r < n; ++r) {
      if (r == k) continue;
      const S f = A(r, k);
      A.row(r) -= f * A.row(k);
      Dinv.row(r) -= f * Dinv.row(k);
    }
  }
}

}  // namespace aba_detail

struct Aba {
  static constexpr std::string_view name = "aba";
  static constexpr std::string_view summary =
      "Articulated-body algorithm in body coordinates (Featherstone Table 7.1)";
  static constexpr std::string_view complexity = "O(n)";
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& tau,
                  const ExternalForces<S>* f_ext, VecX<S>& qdd, ForwardDynamicsWorkspace<S>& ws) {
    const auto& parent = model.parent;
    // Pass 1, base to tips: velocities, c_i, and I^A_i, p^A_i initialised to the body's own.
    for (int i = 0; i < model.nb; ++i) {
      const auto& joint = model.joint[i];
      auto& J = ws.jk[i];
      jcalc(joint, q.segment(model.q_idx[i], joint.nq()), qd.segment(model.v_idx[i], joint.nv()), J);
      ws.Xup[i] = J.XJ * model.Xtree[i];                                         // ^iX_lambda(i)
      if (parent[i] < 0) ws.v[i] = J.vJ;                                         // v_0 = 0
      else ws.v[i] = ws.Xup[i].apply(ws.v[parent[i]]) + J.vJ;                    // Eq. 7.34
      ws.c[i] = J.cJ + crm<S>(ws.v[i], J.vJ);                                    // Eq. 7.35
      ws.IA[i] = aba_detail::inertia_matrix<S>(model.I[i]);                      // I^A_i = I_i
      ws.pA[i] = crf<S>(ws.v[i], model.I[i] * ws.v[i]);                          // Eq. 7.36
      if (f_ext) ws.pA[i] -= (*f_ext)[i];                                        //   - f^x_i
    }
    // Pass 2, tips to base: U, D, u, and the articulated quantities passed to the parent.
    for (int i = model.nb - 1; i >= 0; --i) {
      const auto& Si = ws.jk[i].S_;
      const Eigen::Index ni = Si.cols();
      const int vi = model.v_idx[i];
      Mat6N<S>& U = ws.U[i];
      aba_detail::mul_S<S>(ws.IA[i], Si, U);                                     // Eq. 7.43
      MatN<S> D(ni, ni);
      for (Eigen::Index c = 0; c < ni; ++c) D.col(c) = aba_detail::St_mul<S>(Si, Vec6<S>(U.col(c)));  // Eq. 7.44
      ws.u[i] = tau.segment(vi, ni) - aba_detail::St_mul<S>(Si, ws.pA[i]);       // Eq. 7.45
      aba_detail::spd_inverse<S>(D, ws.Dinv[i]);
      const int p = parent[i];
      if (p >= 0) {
        const Mat6N<S> W = U * ws.Dinv[i];                                       // U D^-1
        Mat6<S> Ia;                                                              // Eq. 7.47, symmetric:
        for (int r = 0; r < 6; ++r)                                              // upper triangle, mirrored
          for (int c = r; c < 6; ++c) Ia(r, c) = Ia(c, r) = ws.IA[i](r, c) - W.row(r).dot(U.row(c));
        const Vec6<S> pa = ws.pA[i] + Ia * ws.c[i] + W * ws.u[i];                // Eq. 7.48
        ws.IA[p] += aba_detail::congruence<S>(ws.Xup[i], Ia);                    // ^lX_i^* I^a ^iX_l
        ws.pA[p] += ws.Xup[i].apply_transpose(pa);                               // ^lX_i^* p^a
      }
    }
    // Pass 3, base to tips: accelerations.
    const Vec6<S> a0 = -model.a_g();                                             // a_0 = -a_g
    for (int i = 0; i < model.nb; ++i) {
      const auto& Si = ws.jk[i].S_;
      const int vi = model.v_idx[i];
      const Vec6<S> ap = ws.Xup[i].apply(parent[i] < 0 ? a0 : ws.a[parent[i]]) + ws.c[i];  // Eq. 7.46
      const VecN<S> qddi = ws.Dinv[i] * (ws.u[i] - ws.U[i].transpose() * ap);    // Eq. 7.49
      qdd.segment(vi, Si.cols()) = qddi;
      ws.a[i] = ap + aba_detail::S_mul<S>(Si, qddi);                             // Eq. 7.50
    }
  }
};

}  // namespace rbd
