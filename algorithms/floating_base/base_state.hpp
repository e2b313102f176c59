#pragma once
// The floating base of Featherstone section 9.3 on rbdlab's models, and the helpers the
// floating-base algorithms (Tables 9.4-9.6) share.
//
// A floating-base system is stored as the equivalent fixed-base tree of section 9.3, steps
// 1-3: body 0 (the book's floating base, body 0 of Tables 9.4-9.6) hangs from the fixed
// world by a free joint, and every other body descends from it. The book's joint 1 with
// S_1 = 1 (6x6, in floating-base coordinates) is exactly rbdlab's free joint
// (model/joint.hpp): its velocity variables are the base's spatial velocity [omega; v_O] in
// base (F_s) coordinates and S = 1 there, cJ = 0. Hence, for the state (q, qd, qdd, tau) of
// the free-joint tree, with n0 = 6 base velocity variables first (v_idx[0] = 0, q_idx[0] = 0):
//
//   book (Tables 9.4-9.6)                rbdlab free-joint tree
//   ^0X_ref  (reference -> base)         X_J(q[0..7)) X_T(0): rot(E_J E_T) xlt(r_T + E_T^T p),
//                                        E_J = quat_to_matrix(q[0..4))^T, p = q[4..7)
//   v_0      (base velocity, base coords)  qd[0..6)          (v_0 = S_1 qd_1, S_1 = 1)
//   a_0      (base acceleration)           qdd[0..6)         (a_1 = S_1 qdd_1 + v_1 x S_1 qd_1 = qdd_1)
//   f_1 = tau_1 (force across joint 1)     tau[0..6)         (tau_1 = S_1^T f_1)
//   ^0a_g = ^0X_ref a_g                    [0; E_J E_T g]    (a_g = [0; g], model.gravity)
//   ^0f^x_i  (base coordinates)            f_ext[i] in body-i coordinates (rbdlab's convention),
//                                        so the book's ^iX_0^* ^0f^x_i is just f_ext[i]
//   q_i, qd_i, qdd_i, tau_i (i >= 1)       the same slices at q_idx[i], v_idx[i]
// a_0 here is the base's true spatial acceleration (the time derivative of v_0, gravity
// included), which is what the free joint's qdd is: the fixed-base algorithms put gravity in
// as the fictitious acceleration -a_g of the world, and body 0's joint acceleration is
// relative to the world. The force tau[0..6) across the free joint is an external force on
// the base in base coordinates; section 9.3 notes that f_1 and f^x_1 may be apportioned
// freely, so the algorithms add it to f^x_0 (the book sets it to zero).
//
// With these identifications Eq. 9.13 is the tree's H qdd + C = tau with
//   H = [I_0^c F; F^T H_**],  C = [p_0^c; C_*]  (rows and columns in rbdlab's qd order),
// which is why the floating-base variants can sit in the same families as the tree
// algorithms and be compared with them exactly.
#include <stdexcept>
#include <string>

#include "core/spatial.hpp"
#include "model/model.hpp"

namespace rbd {

// True when the model is one floating-base system: body 0 on a free joint, and no other body
// on the fixed base (a second root would be a second floating or fixed subsystem, which
// Tables 9.4-9.6 do not cover).
template <class S> bool is_floating_base(const Model<S>& m) {
  if (m.nb < 1 || m.joint[0].type != JointType::Free || m.parent[0] != -1) return false;
  for (int i = 1; i < m.nb; ++i)
    if (m.parent[i] < 0) return false;
  return true;
}

// The error the floating-base algorithms raise on a model they do not apply to.
[[noreturn]] inline void not_floating_base(const std::string& who, const std::string& model_name) {
  throw std::invalid_argument(who + ": model '" + model_name +
                              "' is not a floating-base tree (Featherstone section 9.3 needs body 0 on a "
                              "free joint and every other body descending from it)");
}

namespace floating_detail {

// ^0X_ref = X_J(q_0) X_T(0) for the free joint at body 0 (rotation only is needed for
// ^0a_g): E_J E_T, with E_J the transpose of the quaternion's matrix (model/joint.hpp).
template <class S, class QVec> inline Mat3<S> base_rotation(const Model<S>& m, const QVec& q) {
  const Mat3<S> EJ = quat_to_matrix<S>(q[0], q[1], q[2], q[3]).transpose();
  return EJ * m.Xtree[0].E;
}

// ^0a_g = [0; E g] (the linear part only; the angular part is zero).
template <class S, class QVec> inline Vec3<S> base_gravity(const Model<S>& m, const QVec& q) {
  return base_rotation<S>(m, q) * m.gravity;
}

// A symmetric positive-definite 6x6 A (I_0^A of Eq. 9.17, I_0^c of Eqs. 9.15, 9.24) as
// A = L D L^T, without square roots or pivoting (the pivots are positive because A is SPD), from
// A's lower triangle: L unit lower triangular below the diagonal, D on the diagonal, and the
// reciprocal pivots. 6 divisions, the rest multiplications and additions; a fixed cost per
// factorization, independent of the model's size. Factor once, solve as often as needed
// (crba_floating_schur solves for every column of F).
template <class S> struct Ldl6 {
  Mat6<S> L;
  Vec6<S> Dinv;
};

template <class S> inline Ldl6<S> ldl6_factor(const Mat6<S>& A) {
  Ldl6<S> f;
  Mat6<S>& L = f.L;
  for (int j = 0; j < 6; ++j) {
    S d = A(j, j);
    for (int k = 0; k < j; ++k) d -= L(j, k) * L(j, k) * L(k, k);
    L(j, j) = d;
    f.Dinv[j] = S(1) / d;
    for (int i = j + 1; i < 6; ++i) {
      S s = A(i, j);
      for (int k = 0; k < j; ++k) s -= L(i, k) * L(j, k) * L(k, k);
      L(i, j) = s * f.Dinv[j];
    }
  }
  return f;
}

// x = A^-1 b from ldl6_factor(A).
template <class S, class BVec> inline Vec6<S> ldl6_solve(const Ldl6<S>& f, const BVec& b) {
  const Mat6<S>& L = f.L;
  Vec6<S> x;
  for (int i = 0; i < 6; ++i) {  // L y = b
    S s = b[i];
    for (int k = 0; k < i; ++k) s -= L(i, k) * x[k];
    x[i] = s;
  }
  for (int i = 0; i < 6; ++i) x[i] = x[i] * f.Dinv[i];  // D z = y
  for (int i = 5; i >= 0; --i) {  // L^T x = z
    S s = x[i];
    for (int k = i + 1; k < 6; ++k) s -= L(k, i) * x[k];
    x[i] = s;
  }
  return x;
}

// x = A^-1 b, one factorization and one solve.
template <class S> inline Vec6<S> solve_spd6(const Mat6<S>& A, const Vec6<S>& b) {
  return ldl6_solve<S>(ldl6_factor<S>(A), b);
}

}  // namespace floating_detail
}  // namespace rbd
