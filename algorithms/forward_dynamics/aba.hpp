#pragma once
// The articulated-body algorithm in body coordinates, Featherstone Table 7.1
// (Eqs. 7.32-7.50), for every joint of Table 4.1 (n_i = 1..6 DoF), with gravity as the
// fictitious base acceleration a_0 = -a_g and external forces f^x_i given in body-i
// coordinates (so Table 7.1's ^iX_0^* f^x_i is just f^x_i and ^iX_0 is never needed).
//
// Written for speed without leaving the table's lines (section 10.3.1's optimisations that
// hold for any model, as rnea_spatial and crba do; README.md "Cost"):
//  - ^iX_lambda(i) = X_J X_T(i) composed directly (jcalc_xup);
//  - for 1-DoF joints S_i is one column s, so U_i is a 6-vector, D_i a number and D_i^-1 one
//    division; S qd, S^T f, I^A s and v x (s qd) go through the screw helpers of
//    model/joint.hpp, which are selections for axis-aligned joints;
//  - v x* (I v) in compact form (bias_force), I^a = I^A - U D^-1 U^T on one triangle, and
//    the congruence ^lambda X*_i I^a ^iX_lambda on 3x3 blocks (aba_detail::congruence);
//  - the base terms: v_0 = 0, so v_i = v_J and c_i = 0 for a child of the base.
// Multi-DoF joints (cylindrical, planar, spherical, free) take the general lines with jcalc's S.
#include <stdexcept>
#include <string>
#include <string_view>

#include "forward_dynamics/workspace.hpp"

namespace rbd {

// p^A's velocity term v x* (I v) (Eq. 7.36) in compact form, as body_force with a = 0:
// [w x (Ibar w) + h x (w x vl); m (w x vl) - w x (h x w)]: 42m + 27a (I v then v x* is 42m + 30a).
template <class S> RBD_INLINE Vec6<S> bias_force(const Inertia<S>& I, const Vec6<S>& v) {
  const Vec3<S> w = ang(v), vl = lin(v);
  const Vec3<S> b = cross<S>(w, vl);
  const Vec3<S> Iw = I.Ibar * w;
  const Vec3<S> hw = cross<S>(I.h, w);
  return join<S>(cross<S>(w, Iw) + cross<S>(I.h, b), I.m * b - cross<S>(w, hw));
}

namespace aba_detail {

// The short fixed loops below (3 and 6 trips) carry `#pragma GCC unroll`: GCC -O3 left them
// rolled, with the cyclic indices of the cross products computed at run time. Unrolled, the
// operations and their order are the same (accuracy.json and the op counts did not change) and
// aba takes about 10% less time (one-variant program: ur5 858 -> 775 ns, GU(30) 4700 -> 4150 ns).

// [r]x M, column by column (r x m_j): 18 m + 9 a instead of a dense 3x3 product's 27 m + 18 a.
template <class S> RBD_INLINE Mat3<S> skew_mul(const Vec3<S>& r, const Mat3<S>& M) {
  Mat3<S> out;
#pragma GCC unroll 3
  for (int j = 0; j < 3; ++j) {
    out(0, j) = r[1] * M(2, j) - r[2] * M(1, j);
    out(1, j) = r[2] * M(0, j) - r[0] * M(2, j);
    out(2, j) = r[0] * M(1, j) - r[1] * M(0, j);
  }
  return out;
}
// E^T A E for a symmetric A: A E, then only the upper triangle of E^T (A E), mirrored.
template <class S> RBD_INLINE Mat3<S> mul3(const Mat3<S>& A, const Mat3<S>& B) {  // A B, inlined
  Mat3<S> out;
#pragma GCC unroll 3
  for (int i = 0; i < 3; ++i)
#pragma GCC unroll 3
    for (int j = 0; j < 3; ++j) out(i, j) = A(i, 0) * B(0, j) + A(i, 1) * B(1, j) + A(i, 2) * B(2, j);
  return out;
}
template <class S> RBD_INLINE Mat3<S> rotate_symmetric(const Mat3<S>& E, const Mat3<S>& A) {
  const Mat3<S> AE = mul3<S>(A, E);
  Mat3<S> out;
#pragma GCC unroll 3
  for (int i = 0; i < 3; ++i)
#pragma GCC unroll 3
    for (int j = i; j < 3; ++j) out(i, j) = out(j, i) = E(0, i) * AE(0, j) + E(1, i) * AE(1, j) + E(2, i) * AE(2, j);
  return out;
}

// X^T M X for a symmetric 6x6 M and X = ^iX_lambda(i) = rot(E) xlt(r): carries an
// articulated inertia from body-i to parent coordinates (^lambda X_i^* I^a ^iX_lambda).
// With X = diag(E, E) [1 0; -rx 1]: first rotate each 3x3 block, M' = [A B; B^T C] with
// A = E^T M_11 E etc., then [1 rx; 0 1] M' [1 0; -rx 1] = [A + rx B^T - T rx, T; T^T, C],
// T = B + rx C. The top-left block is symmetric: with Y = rx C and Z = rx B^T it is
// A + Z + Z^T - Y rx, and (Y rx)_ij = (y_i x r)_j for the rows y_i of Y, so only its upper
// triangle is formed. 192m in all. (Checked against the 6x6 product in
// verify/test_forward_dynamics_identities.cpp.) The result is added into acc entry by entry
// (acc += X^T M X): a returned 6x6 added with packet loads would read entries just written
// one at a time, a store-forwarding stall per packet (see RBD_INLINE in core/scalar.hpp).
template <class S> EIGEN_DONT_INLINE void congruence_add(const Transform<S>& X, const Mat6<S>& M, Mat6<S>& acc) {
  const Mat3<S>& E = X.E;
  const Vec3<S>& r = X.r;
  const Mat3<S> A = rotate_symmetric<S>(E, M.template topLeftCorner<3, 3>());
  const Mat3<S> B = mul3<S>(E.transpose(), mul3<S>(M.template topRightCorner<3, 3>(), E));
  const Mat3<S> C = rotate_symmetric<S>(E, M.template bottomRightCorner<3, 3>());
  const Mat3<S> Y = skew_mul<S>(r, C);
  const Mat3<S> Z = skew_mul<S>(r, B.transpose());
#pragma GCC unroll 3
  for (int i = 0; i < 3; ++i)
#pragma GCC unroll 3
    for (int j = i; j < 3; ++j) {
      const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      const S Yr = Y(i, j1) * r[j2] - Y(i, j2) * r[j1];                          // (y_i x r)_j
      const S tl = A(i, j) + (Z(i, j) + Z(j, i)) - Yr;
      acc(i, j) += tl;
      if (j != i) acc(j, i) += tl;
      acc(3 + i, 3 + j) += C(i, j);
      if (j != i) acc(3 + j, 3 + i) += C(i, j);
    }
#pragma GCC unroll 3
  for (int i = 0; i < 3; ++i)
#pragma GCC unroll 3
    for (int j = 0; j < 3; ++j) {
      const S T = B(i, j) + Y(i, j);                                             // T = B + rx C
      acc(i, 3 + j) += T;
      acc(3 + j, i) += T;
    }
}

// acc += X^T f (Table 7.1's ^lambda X_i^* p^a), as Transform::apply_transpose then a sum, but
// added into acc by 3-vector halves: the same numbers, without reading back with packet loads
// a 6-vector written by halves (the stall congruence_add avoids).
template <class S> RBD_INLINE void add_apply_transpose(const Transform<S>& X, const Vec6<S>& f, Vec6<S>& acc) {
  const Vec3<S> fl = X.E.transpose() * lin(f);
  const Vec3<S> n = X.E.transpose() * ang(f) + cross<S>(X.r, fl);
  for (int k = 0; k < 3; ++k) {
    acc[k] += n[k];
    acc[3 + k] += fl[k];
  }
}

// The 6x6 matrix of a rigid-body inertia [Ibar hx; hx^T m1] (Eq. 2.63), assembled without
// arithmetic (entry by entry: cheaper than zero-filling and then writing blocks).
template <class S> RBD_INLINE Mat6<S> inertia_matrix(const Inertia<S>& I) {
  const S z(0);
  const Vec3<S>& h = I.h;
  Mat6<S> M;
  M << I.Ibar(0, 0), I.Ibar(0, 1), I.Ibar(0, 2), z, -h[2], h[1],
       I.Ibar(1, 0), I.Ibar(1, 1), I.Ibar(1, 2), h[2], z, -h[0],
       I.Ibar(2, 0), I.Ibar(2, 1), I.Ibar(2, 2), -h[1], h[0], z,
       z, h[2], -h[1], I.m, z, z,
       -h[2], z, h[0], z, I.m, z,
       h[1], -h[0], z, z, z, I.m;
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

// I^A s for the one column s of a 1-DoF joint (Eq. 7.43): a column of I^A for an axis-aligned
// revolute or prismatic joint (no arithmetic), half of I^A times the axis otherwise.
template <class S> RBD_INLINE Vec6<S> inertia_times_screw(const Joint<S>& j, const Mat6<S>& IA) {
  const int m = screw_unit_index(j);
  if (m >= 0) return IA.col(m);
  switch (j.type) {
    case JointType::Revolute: return IA.template leftCols<3>() * j.axis;
    case JointType::Prismatic: return IA.template rightCols<3>() * j.axis;
    default: return IA * screw_times(j, S(1));
  }
}

// I^a = I^A - W U^T with W = U D^-1 (Eq. 7.47), on the upper triangle, mirrored: I^a is
// symmetric, and W U^T = U D^-1 U^T is too, since D^-1 is.
template <class S, class WMat, class UMat>
RBD_INLINE void subtract_symmetric(const Mat6<S>& IA, const WMat& W, const UMat& U, Mat6<S>& Ia) {
#pragma GCC unroll 6
  for (int r = 0; r < 6; ++r)
#pragma GCC unroll 6
    for (int c = r; c < 6; ++c) Ia(r, c) = Ia(c, r) = IA(r, c) - W.row(r).dot(U.row(c));
}

}  // namespace aba_detail

// Table 7.1 one body at a time, shared by aba, aba_floating (Table 9.4 runs the same lines for
// bodies 1..N_B) and aba_implicit (pass 1). The 1-DoF lines are forced inline so that each
// variant's loops compile as if written out; the multi-DoF lines (S_i of 2..6 columns from
// jcalc) stay out of line so that the common 1-DoF case stays small.
namespace aba_detail {

template <class S>
EIGEN_DONT_INLINE void velocity_multi_dof(const Model<S>& model, int i, const VecX<S>& qd,
                                          ForwardDynamicsWorkspace<S>& ws) {
  JointKinematics<S>& J = ws.jk[i];
  J.vJ.noalias() = J.S_ * qd.segment(model.v_idx[i], model.joint[i].nv());    // v_J = S qd
  const int lambda = model.parent[i];
  if (lambda < 0) {
    ws.v[i] = J.vJ;                                                            // Eq. 7.34, v_0 = 0; c_i = 0
  } else {
    ws.v[i] = ws.Xup[i].apply(ws.v[lambda]) + J.vJ;                            // Eq. 7.34
    ws.c[i] = crm<S>(ws.v[i], J.vJ);                                           // Eq. 7.35
  }
}

// Pass 1 for body i: ^iX_lambda(i), v_i, c_i, and I^A_i, p^A_i initialised to the body's own.
template <class S>
RBD_INLINE void velocity_step(const Model<S>& model, int i, const VecX<S>& q, const VecX<S>& qd,
                              const ExternalForces<S>* f_ext, ForwardDynamicsWorkspace<S>& ws) {
  const Joint<S>& joint = model.joint[i];
  const int lambda = model.parent[i], vi = model.v_idx[i];
  JointKinematics<S>& J = ws.jk[i];
  Vec6<S>& v = ws.v[i];
  Vec6<S>& c = ws.c[i];
  jcalc_xup(joint, q.segment(model.q_idx[i], joint.nq()), model.Xtree[i], J, ws.Xup[i]);  // ^iX_lambda(i)
  c.setZero();                                                                 // c_J = 0 (Table 4.1)
  if (joint.nv() == 1) {
    const S qdi = qd[vi];
    if (lambda < 0) {
      v = screw_times(joint, qdi);                                             // Eq. 7.34, v_0 = 0; c_i = 0
    } else {
      v = ws.Xup[i].apply(ws.v[lambda]);                                       // Eq. 7.34
      add_screw_times(joint, qdi, v);                                          //   + v_J = s qd
      add_cross_screw_times(joint, v, qdi, c);                                 // Eq. 7.35: v_i x v_J
    }
  } else {
    velocity_multi_dof<S>(model, i, qd, ws);                                   // Eqs. 7.34-7.35
  }
  ws.IA[i] = inertia_matrix<S>(model.I[i]);                                    // I^A_i = I_i
  ws.pA[i] = bias_force<S>(model.I[i], v);                                     // Eq. 7.36
  if (f_ext) ws.pA[i] -= (*f_ext)[i];                                          //   - f^x_i
}

// U_i, D_i^-1, u_i into ws; I^a_i and p^a_i into Ia, pa (left unset for a root body).
// `armature` (nullable): a joint-space inertia added to D_i, Eq. 9.28 (see articulate_step).
template <class S>
EIGEN_DONT_INLINE void articulate_multi_dof(const Model<S>& model, int i, const VecX<S>& tau,
                                            ForwardDynamicsWorkspace<S>& ws, Mat6<S>& Ia, Vec6<S>& pa,
                                            const VecX<S>* armature = nullptr) {
  const auto& Si = ws.jk[i].S_;
  const Eigen::Index ni = Si.cols();
  const Mat6<S>& IA = ws.IA[i];
  Mat6N<S>& U = ws.U[i];
  mul_S<S>(IA, Si, U);                                                         // Eq. 7.43
  MatN<S> D(ni, ni);
  for (Eigen::Index k = 0; k < ni; ++k) D.col(k) = St_mul<S>(Si, Vec6<S>(U.col(k)));  // Eq. 7.44
  if (armature)
    for (Eigen::Index k = 0; k < ni; ++k) D(k, k) += (*armature)[model.v_idx[i] + k];  // Eq. 9.28
  ws.u[i] = tau.segment(model.v_idx[i], ni) - St_mul<S>(Si, ws.pA[i]);         // Eq. 7.45
  spd_inverse<S>(D, ws.Dinv[i]);
  if (model.parent[i] < 0) return;
  const Mat6N<S> W = U * ws.Dinv[i];                                           // U D^-1
  subtract_symmetric<S>(IA, W, U, Ia);                                         // Eq. 7.47
  pa = ws.pA[i] + Ia * ws.c[i] + W * ws.u[i];                                  // Eq. 7.48
}

// Pass 2 for body i: U_i, D_i^-1, u_i, and I^a, p^a added to the parent's I^A, p^A.
// With kArmature, D_i = S_i^T I^A_i S_i + diag(armature_i): Eq. 9.28's D_i + I_rot for a 1-DoF
// joint driven through a gear (Example 9.5; the book states it for 1-DoF joints only), and, as
// MuJoCo's "armature", any diagonal joint-space inertia on a multi-DoF joint's own velocity
// variables (an extension of the book's: the same algebra). The rest of the pass is unchanged,
// since the joint's equation tau_i = S_i^T (I^A_i a_i + p^A_i) + diag(armature_i) qdd_i only adds
// to D_i. Without it (every variant of the family), not a single operation differs.
template <class S, bool kArmature = false>
RBD_INLINE void articulate_step(const Model<S>& model, int i, const VecX<S>& tau, ForwardDynamicsWorkspace<S>& ws,
                                const VecX<S>* armature = nullptr) {
  const Joint<S>& joint = model.joint[i];
  const int vi = model.v_idx[i], p = model.parent[i];
  const Mat6<S>& IA = ws.IA[i];
  const Vec6<S>& pA = ws.pA[i];
  Mat6<S> Ia;
  Vec6<S> pa;
  if (joint.nv() == 1) {
    const Vec6<S> U = inertia_times_screw<S>(joint, IA);                       // Eq. 7.43
    S D = screw_transpose_times(joint, U);                                     // Eq. 7.44
    if constexpr (kArmature) D += (*armature)[vi];                             // Eq. 9.28
    const S Dinv = S(1) / D;
    const S u = tau[vi] - screw_transpose_times(joint, pA);                    // Eq. 7.45
    ws.U[i].col(0) = U;
    ws.Dinv[i](0, 0) = Dinv;
    ws.u[i][0] = u;
    if (p < 0) return;
    const Vec6<S> W = U * Dinv;                                                // U D^-1
    subtract_symmetric<S>(IA, W, U, Ia);                                       // Eq. 7.47
    pa = pA + Ia * ws.c[i] + W * u;                                            // Eq. 7.48
  } else {
    articulate_multi_dof<S>(model, i, tau, ws, Ia, pa, kArmature ? armature : nullptr);  // Eqs. 7.43-7.48
    if (p < 0) return;
  }
  congruence_add<S>(ws.Xup[i], Ia, ws.IA[p]);                                  // += ^lX_i^* I^a ^iX_l
  add_apply_transpose<S>(ws.Xup[i], pa, ws.pA[p]);                             // += ^lX_i^* p^a
}

// qdd_i into qdd; a_i = a'_i + S qdd_i in ws.a[i], which holds a'_i on entry.
template <class S>
EIGEN_DONT_INLINE void accelerate_multi_dof(const Model<S>& model, int i, VecX<S>& qdd,
                                            ForwardDynamicsWorkspace<S>& ws) {
  const auto& Si = ws.jk[i].S_;
  const VecN<S> qddi = ws.Dinv[i] * (ws.u[i] - ws.U[i].transpose() * ws.a[i]); // Eq. 7.49
  qdd.segment(model.v_idx[i], Si.cols()) = qddi;
  ws.a[i] += S_mul<S>(Si, qddi);                                               // Eq. 7.50
}

// Pass 3 for body i, with a'_i (Eq. 7.46) in ws.a[i] on entry: qdd_i and a_i = a'_i + S qdd_i.
template <class S>
RBD_INLINE void accelerate_step(const Model<S>& model, int i, VecX<S>& qdd, ForwardDynamicsWorkspace<S>& ws) {
  const Joint<S>& joint = model.joint[i];
  Vec6<S>& a = ws.a[i];
  if (joint.nv() == 1) {
    const auto U = ws.U[i].col(0);                                             // U^T a'_i term by term:
    const S Ua = U[0] * a[0] + U[1] * a[1] + U[2] * a[2] + U[3] * a[3] + U[4] * a[4] + U[5] * a[5];  // scalar
    const S qddi = ws.Dinv[i](0, 0) * (ws.u[i][0] - Ua);                       // Eq. 7.49 (loads, see RBD_INLINE)
    qdd[model.v_idx[i]] = qddi;
    add_screw_times(joint, qddi, a);                                           // Eq. 7.50
  } else {
    accelerate_multi_dof<S>(model, i, qdd, ws);                                // Eqs. 7.49-7.50
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
    passes<S, false>(model, q, qd, tau, f_ext, qdd, ws, nullptr);
  }

  // The same with diag(armature) added to the joint-space inertia (Eq. 9.28; articulate_step):
  // geared_dynamics/reflected_inertia.hpp's ABA form of Example 9.5's rotor model.
  template <class S>
  static void run_with_armature(const Model<S>& model, const VecX<S>& armature, const VecX<S>& q, const VecX<S>& qd,
                                const VecX<S>& tau, const ExternalForces<S>* f_ext, VecX<S>& qdd,
                                ForwardDynamicsWorkspace<S>& ws) {
    if (armature.size() != model.nv)
      throw std::invalid_argument("aba: armature must have nv = " + std::to_string(model.nv) + " entries");
    passes<S, true>(model, q, qd, tau, f_ext, qdd, ws, &armature);
  }

 private:
  template <class S, bool kArmature>
  static void passes(const Model<S>& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& tau,
                     const ExternalForces<S>* f_ext, VecX<S>& qdd, ForwardDynamicsWorkspace<S>& ws,
                     const VecX<S>* armature) {
    // Pass 1, base to tips: velocities, c_i, and I^A_i, p^A_i initialised to the body's own.
    for (int i = 0; i < model.nb; ++i) aba_detail::velocity_step<S>(model, i, q, qd, f_ext, ws);  // Eqs. 7.34-7.36
    // Pass 2, tips to base: U, D, u, and the articulated quantities passed to the parent.
    for (int i = model.nb - 1; i >= 0; --i)
      aba_detail::articulate_step<S, kArmature>(model, i, tau, ws, armature);                      // Eqs. 7.43-7.48
    // Pass 3, base to tips: accelerations.
    const Vec3<S> minus_g = -model.gravity;                                    // a_0 = -a_g = [0; -g]
    for (int i = 0; i < model.nb; ++i) {
      const int lambda = model.parent[i];
      Vec6<S>& a = ws.a[i];
      if (lambda < 0) a = join<S>(Vec3<S>::Zero(), ws.Xup[i].E * minus_g);     // Eq. 7.46: ^iX_0 a_0 (c_i = 0)
      else a = ws.Xup[i].apply_plus(ws.a[lambda], ws.c[i]);                    // Eq. 7.46, a'_i
      aba_detail::accelerate_step<S>(model, i, qdd, ws);                       // Eqs. 7.49-7.50
    }
  }
};

}  // namespace rbd
