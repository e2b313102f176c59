#pragma once
// Forward dynamics of a chain by divide-and-conquer assembly of articulated bodies with two
// handles, Featherstone section 7.5 (Eqs. 7.57-7.63; the algorithm of Featherstone 1999a,
// which the section cites: on a parallel computer its assembly tree runs in O(log N_B) time).
//
// An articulated body with handles 1 and 4 obeys (Eq. 7.59)
//     [a_1]   [Phi_1   Phi_14] [f_1]   [b_1]
//     [a_4] = [Phi_41  Phi_4 ] [f_4] + [b_4],      Phi_41 = Phi_14^T,
// with each handle's acceleration and force in the coordinates of the body that carries it. A
// rigid body alone (a leaf) has both handles at its own frame: handle 1 where its inbound joint
// acts, handle 4 where its outbound joint acts, so Phi_1 = Phi_4 = Phi_14 = I_i^-1 and
// b_1 = b_4 = I_i^-1 (-p_i + T_a tau_i - ^iX_{i+1}^* T_a tau_{i+1}), the two active joint forces
// put in as external forces (section 7.5's convention under Eq. 7.61).
//
// Assembly (Eqs. 7.60-7.63): the chain lo..hi is the chain lo..mid (A_12) joined to mid+1..hi
// (A_34) by joint j = mid + 1, whose constraint acts between A_12's handle 4 (now handle 2) and
// A_34's handle 1 (now handle 3). In body j's coordinates (X = ^jX_mid carries handle 2 there:
// Phi_2 = X Phi_4^L X^T, Phi_21 = X Phi_41^L, b_2 = X b_4^L) and with c = c_j, Table 7.1's
// velocity-product term of joint j:
//     Y = T^T (Phi_2 + Phi_3) T,   W = T Y^-1 T^T,   beta = c - b_3 + b_2          (Eq. 7.62)
//     Phi_1^A = Phi_1 - Phi_12 W Phi_21      b_1^A = b_1 - Phi_12 W beta
//     Phi_4^A = Phi_4 - Phi_43 W Phi_34      b_4^A = b_4 + Phi_43 W beta          (Eq. 7.63)
//     Phi_14^A = Phi_12 W Phi_34
// (the extraction at hand prints the b_1^A line twice, on the first two rows; b_4^A, on the third,
// is checked by substituting Eq. 7.62 into a_4 = Phi_43 f_3 + Phi_4 f_4 + b_4). A free joint has no constraint force (T is 6 x 0): W = 0 and the halves stay uncoupled.
//
// The chain is split in halves recursively (mid = (lo + hi) / 2) down to single bodies; the nodes
// of that binary tree are numbered children first (workspace.hpp, DcaStorage), so assembly is one
// sweep up the numbers and disassembly one sweep down. Last, the whole chain is joined to the
// fixed base by joint 0: the base is a handle with Phi = 0 and acceleration -a_g (gravity as a
// fictitious base acceleration, as in Table 7.1), and the tip's handle 4 carries no force.
// Disassembly then gives every joint's constraint force, f_3 = T lambda = W (Phi_21 f_1 -
// Phi_34 f_4 + beta), f_2 = -f_3, down to the bodies, where a_i = I_i^-1 (f_1 + f_4) + b_i and
// qdd_i = T_a^T (a_i - ^iX_{i-1} a_{i-1} - c_i) (Table 7.2's footnote 1).
//
// Serially it costs more than ABA (every node's 6x6 algebra where ABA's is per joint), which the
// op counts show; its point is the O(log n) depth of the assembly tree and that handles may have
// fewer than 6 DoF. Chains on the fixed base only (parent[i] = i - 1): a tree needs handle sets
// (section 7.5, "Generalizations"), not written here.
#include <stdexcept>
#include <string>
#include <string_view>

#include "forward_dynamics/aba_inverse_inertia.hpp"

namespace rbd {

namespace dca_detail {

// X M X^T for a 6x6 M, X = ^jX_i: an inverse inertia (force -> motion) carried from body-i to
// body-j coordinates (a^j = X a^i, f^i = X^T f^j).
template <class S> Mat6<S> to_child(const Transform<S>& X, const Mat6<S>& M) {
  Mat6<S> A, out;
  for (int k = 0; k < 6; ++k) A.col(k) = X.apply(Vec6<S>(M.col(k)));       // X M
  const Mat6<S> At = A.transpose();                                       // M^T X^T
  for (int k = 0; k < 6; ++k) out.col(k) = X.apply(Vec6<S>(At.col(k)));   // X M^T X^T
  return out.transpose();                                                 // X M X^T
}

// W = T Y^-1 T^T with Y = T^T P T (P = Phi_2 + Phi_3, SPD); zero for a free joint.
template <class S> Mat6<S> constraint_coupling(const Mat6N<S>& T, const Mat6<S>& P) {
  const Eigen::Index m = T.cols();
  if (m == 0) return Mat6<S>::Zero();
  const MatN<S> Y = T.transpose() * (P * T);
  MatN<S> Yinv(m, m);
  aba_implicit_detail::spd_inverse_ldlt<S>(Y, Yinv);
  return T * (Yinv * T.transpose());
}

}  // namespace dca_detail

template <class S> bool is_fixed_base_chain(const Model<S>& m) {
  for (int i = 0; i < m.nb; ++i)
    if (m.parent[i] != i - 1) return false;
  return m.nb > 0;
}

struct Dca {
  static constexpr std::string_view name = "dca";
  static constexpr std::string_view summary =
      "Divide-and-conquer assembly of two-handle articulated bodies on a chain (Featherstone section 7.5, "
      "Eqs. 7.57-7.63)";
  static constexpr std::string_view complexity = "O(n) serially, O(log n) assembly depth";
  // A chain on the fixed base, and I_i^-1 for every body (as aba_inverse_inertia).
  template <class S> static bool applicable(const Model<S>& m) {
    return is_fixed_base_chain(m) && m.inertia_kind == InertiaKind::Physical;
  }

  template <class S>
  static void run(const Model<S>& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& tau,
                  const ExternalForces<S>* f_ext, VecX<S>& qdd, ForwardDynamicsWorkspace<S>& ws) {
    using namespace aba_detail;
    using dca_detail::constraint_coupling;
    using dca_detail::to_child;
    if (!is_fixed_base_chain(model))
      throw std::invalid_argument("dca: model '" + model.name + "' is not a chain on the fixed base (parent[i] = i - 1)");
    const int nb = model.nb;
    auto& d = ws.dca;
    auto Tatau = [&](int i) { return S_mul<S>(ws.Ta[i], VecN<S>(tau.segment(model.v_idx[i], ws.Ta[i].cols()))); };
    // Leaves: v_i, c_i, ^iX_{i-1}, p_i as in ABA's pass 1, then each body alone.
    for (int i = 0; i < nb; ++i) velocity_step<S>(model, i, q, qd, f_ext, ws);
    for (int i = 0; i < nb; ++i) {
      aba_implicit_detail::spd_inverse_ldlt<S>(ws.IA[i], d.Phi1[i]);             // I_i^-1
      Vec6<S> f = Tatau(i) - ws.pA[i];                                           // -p_i + T_a tau_i
      if (i + 1 < nb) f -= ws.Xup[i + 1].apply_transpose(Tatau(i + 1));          //   - ^iX_{i+1}^* T_a tau_{i+1}
      d.b1[i] = d.Phi1[i] * f;
      d.Phi4[i] = d.Phi14[i] = d.Phi1[i];
      d.b4[i] = d.b1[i];
    }
    // Assembly, children before parents (Eq. 7.63).
    for (int k = nb; k < static_cast<int>(d.tree.size()); ++k) {
      const auto& node = d.tree[k];
      const int L = node.left, R = node.right, j = node.mid + 1;
      const Transform<S>& X = ws.Xup[j];
      const Mat6<S> Phi2 = to_child<S>(X, d.Phi4[L]);
      Mat6<S> Phi21;                                                             // X Phi_41^L
      for (int c = 0; c < 6; ++c) Phi21.col(c) = X.apply(Vec6<S>(d.Phi14[L].row(c).transpose()));
      const Vec6<S> b2 = X.apply(d.b4[L]);
      d.W[k] = constraint_coupling<S>(ws.T[j], Mat6<S>(Phi2 + d.Phi1[R]));
      d.beta[k] = ws.c[j] - d.b1[R] + b2;
      const Mat6<S> Phi12_W = Phi21.transpose() * d.W[k];
      const Mat6<S> Phi43_W = d.Phi14[R].transpose() * d.W[k];
      d.Phi1[k] = d.Phi1[L] - Phi12_W * Phi21;
      d.Phi4[k] = d.Phi4[R] - Phi43_W * d.Phi14[R];
      d.Phi14[k] = Phi12_W * d.Phi14[R];
      d.b1[k] = d.b1[L] - Phi12_W * d.beta[k];
      d.b4[k] = d.b4[R] + Phi43_W * d.beta[k];
    }
    // Joint 0 to the fixed base (handle 2: Phi = 0, a = ^0X_base (-a_g)); the tip is free.
    const int root = static_cast<int>(d.tree.size()) - 1;
    const Vec6<S> a_base = join<S>(Vec3<S>::Zero(), Vec3<S>(ws.Xup[0].E * Vec3<S>(-model.gravity)));
    const Mat6<S> W0 = constraint_coupling<S>(ws.T[0], d.Phi1[root]);
    d.f1[root] = W0 * Vec6<S>(ws.c[0] - d.b1[root] + a_base);                  // f_3 = W beta, f_4 = 0
    d.f4[root].setZero();
    // Disassembly, parents before children: each joint's constraint force.
    for (int k = root; k >= nb; --k) {
      const auto& node = d.tree[k];
      const int L = node.left, R = node.right, j = node.mid + 1;
      const Transform<S>& X = ws.Xup[j];
      const Vec6<S> Phi21_f1 = X.apply(Vec6<S>(d.Phi14[L].transpose() * d.f1[k]));
      const Vec6<S> f3 = d.W[k] * Vec6<S>(Phi21_f1 - d.Phi14[R] * d.f4[k] + d.beta[k]);
      d.f1[L] = d.f1[k];
      d.f4[L] = -X.apply_transpose(f3);                                          // f_2 = -f_3, body mid's coordinates
      d.f1[R] = f3;
      d.f4[R] = d.f4[k];
    }
    // Bodies: a_i, then qdd_i (Table 7.2's footnote 1).
    for (int i = 0; i < nb; ++i) {
      ws.a[i] = d.Phi1[i] * Vec6<S>(d.f1[i] + d.f4[i]) + d.b1[i];
      const Vec6<S> a1 = i == 0 ? a_base : ws.Xup[i].apply(ws.a[i - 1]);
      qdd.segment(model.v_idx[i], ws.Ta[i].cols()) = St_mul<S>(ws.Ta[i], Vec6<S>(ws.a[i] - a1 - ws.c[i]));
    }
  }
};

}  // namespace rbd
