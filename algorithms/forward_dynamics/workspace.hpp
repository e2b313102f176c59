#pragma once
// Scratch for the forward-dynamics family. It IS a Workspace (it derives from it), so the
// CRBA and RNEA it calls take it as their own, and adds what only forward dynamics needs:
// the articulated-body quantities of Table 7.1 and the H, C and factor storage of the
// inertia-matrix routes. Sized once from the Model; run() allocates nothing.
#include <vector>

#include <Eigen/Cholesky>

#include "factorization/workspace.hpp"
#include "forward_dynamics/dca_assembly_tree.hpp"
#include "floating_base/base_state.hpp"
#include "model/workspace.hpp"

namespace rbd {

// A joint-sized square matrix (at most 6 x 6, on the stack).
template <class S> using MatN = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>;

// The force subspaces of a joint with motion subspace S (6 x n), Featherstone section 3.5,
// for aba_implicit (Table 7.2, variant 2): T (6 x (6 - n)) spans the constraint forces,
// T^T S = 0 (Eq. 3.36), and T_a (6 x n) the active forces, T_a^T S = 1 (Eq. 3.35).
//  - T: an orthonormal basis of S's orthogonal complement. Gram-Schmidt (each vector
//    orthogonalised twice) on S's columns, then on coordinate axes e_k, taking each time the
//    e_k with the largest component left outside the basis so far (its squared length is
//    1 - |row k of the basis|^2 >= (6 - columns) / 6, so no near-zero vector is normalised).
//    For S's columns unit coordinate vectors (axis-aligned revolute and prismatic joints,
//    planar, spherical, free) every dot product is an exact 0 or 1 and T is exactly the other
//    unit vectors, in increasing k; products with T then cost nothing.
//  - T_a = S (S^T S)^-1: S^T T_a = 1 by construction; any T_a + T M would do too (it only
//    shifts lambda by -M tau, not f = T_a tau + T lambda), and this one lies in range(S), so
//    T_a^T is S's pseudo-inverse. For orthonormal S (as above) T_a = S exactly.
// Joint constants (S is constant in F_s for every Table 4.1 joint, joint.hpp), so they are
// computed once, in the workspace's constructor, as section 10.3.1 pre-computes constants.
template <class S> void joint_force_subspaces(const Mat6N<S>& Sm, Mat6N<S>& T, Mat6N<S>& Ta) {
  const Eigen::Index n = Sm.cols(), m = 6 - n;
  Mat6<S> B = Mat6<S>::Zero();  // orthonormal basis built so far: [range(S) | T]
  Eigen::Index nb = 0;
  auto add = [&](Vec6<S> v) {
    for (int pass = 0; pass < 2; ++pass)
      for (Eigen::Index j = 0; j < nb; ++j) v -= B.col(j) * B.col(j).dot(v);
    B.col(nb++) = v / sqrt_(S(v.squaredNorm()));
  };
  for (Eigen::Index c = 0; c < n; ++c) add(Sm.col(c));
  T.resize(6, m);
  for (Eigen::Index t = 0; t < m; ++t) {
    int best = 0;
    S best_res(-1);
    for (int k = 0; k < 6; ++k) {
      const S res = S(1) - B.row(k).head(nb).squaredNorm();  // |e_k - B B^T e_k|^2
      if (res > best_res) { best = k; best_res = res; }
    }
    add(Vec6<S>::Unit(best));
    T.col(t) = B.col(nb - 1);
  }
  const MatN<S> StS = Sm.transpose() * Sm;
  Ta = (StS.llt().solve(MatN<S>(Sm.transpose()))).transpose();  // T_a^T = (S^T S)^-1 S^T
}

// dca (section 7.5): per node of the assembly tree (dca_assembly_tree.hpp), the coefficients of
// its handle equation a_h = sum_k Phi_hk f_k + b_h, and what the way down needs again. Sized once
// from the tree; dca's run() only writes into it.
template <class S> struct DcaStorage {
  std::vector<DcaNode> tree;
  std::vector<std::vector<Mat6<S>>> Phi;  // h x h blocks, row-major: Phi[node][h * nh + k]
  std::vector<std::vector<Vec6<S>>> b;    // per handle
  std::vector<std::vector<Mat6<S>>> g;    // per handle of a join: how its force enters the joint's (dca.hpp)
  std::vector<std::vector<Mat6<S>>> Wg;   // W g, per handle of a join
  std::vector<std::vector<Vec6<S>>> F;    // handle forces found on the way down
  std::vector<Mat6<S>> W;                 // W = T Y^-1 T^T of the node's joint (Eq. 7.62)
  std::vector<Vec6<S>> beta;              // Eq. 7.62's beta
  std::vector<Vec6<S>> f_joint;           // T lambda_i across joint i, in body i's coordinates
  DcaStorage() = default;
  explicit DcaStorage(const std::vector<int>& parent) : tree(dca_assembly_tree(parent)) {
    const std::size_t n = tree.size();
    Phi.resize(n);
    b.resize(n);
    g.resize(n);
    Wg.resize(n);
    F.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t h = tree[k].handles.size();
      Phi[k].assign(h * h, Mat6<S>::Zero());
      b[k].assign(h, Vec6<S>::Zero());
      F[k].assign(h, Vec6<S>::Zero());
      if (tree[k].joint >= 0) g[k] = Wg[k] = std::vector<Mat6<S>>(h, Mat6<S>::Zero());
    }
    W.assign(n, Mat6<S>::Zero());
    beta.assign(n, Vec6<S>::Zero());
    f_joint.assign(parent.size(), Vec6<S>::Zero());
  }
};

template <class S> struct ForwardDynamicsWorkspace : Workspace<S> {
  // Articulated-body algorithm (Table 7.1), per body, in body coordinates.
  std::vector<Mat6<S>> IA;   // articulated-body inertia I^A_i
  std::vector<Vec6<S>> pA;   // articulated-body bias force p^A_i
  std::vector<Vec6<S>> c;    // velocity-product acceleration c_i = c_J + v_i x v_J
  std::vector<Mat6N<S>> U;   // U_i = I^A_i S_i
  std::vector<MatN<S>> Dinv; // D_i^-1 = (S_i^T U_i)^-1
  std::vector<VecN<S>> u;    // u_i = tau_i - S_i^T p^A_i
  // aba_implicit (Table 7.2, variant 2), per body; m_i = 6 - n_i.
  std::vector<Mat6N<S>> T;   // constraint-force subspace T_i, 6 x m_i (joint constant)
  std::vector<Mat6N<S>> Ta;  // active-force subspace T_a, 6 x n_i (joint constant)
  std::vector<Mat6N<S>> Y;   // (I^A_i)^-1 T_i, 6 x m_i
  std::vector<MatN<S>> Kinv; // K_i^-1 = (T_i^T (I^A_i)^-1 T_i)^-1, m_i x m_i
  std::vector<VecN<S>> z;    // z_i = T_i^T (c_i - w_i), m_i
  std::vector<Vec6<S>> w;    // w_i = (I^A_i)^-1 (T_a tau_i - p^A_i)
  // aba_inverse_inertia (Table 7.2, variant 1), per body.
  std::vector<Mat6<S>> Phi;  // articulated-body inverse inertia Phi^A_i (Eq. 7.56 inverted)
  std::vector<Vec6<S>> b;    // articulated-body bias acceleration b^A_i
  // Inertia-matrix routes (CRBA + bias + solve).
  MatX<S> H;                 // joint-space inertia; out-of-pattern entries stay exactly zero
  VecX<S> C;                 // bias forces C(q, qd, f_ext)
  FactorizationWorkspace<S> fact;
  // crba_floating_schur and floating_base/schur_complement.hpp (Eqs. 9.14-9.16), floating-base
  // models only (empty otherwise): (I_0^c)^-1 F in columns 6.., and H^fl in the packed rows of
  // the dense pattern lambda(k) = k - 1 over the nv - 6 joint variables.
  Forces6<S> base_solve;
  TreePattern schur_pattern;
  PackedRows<S> schur_rows;
  // dca (section 7.5), any tree.
  DcaStorage<S> dca;

  ForwardDynamicsWorkspace() = default;
  explicit ForwardDynamicsWorkspace(const Model<S>& m) : Workspace<S>(m), fact(m) {
    IA.assign(m.nb, Mat6<S>::Zero());
    pA.assign(m.nb, Vec6<S>::Zero());
    c.assign(m.nb, Vec6<S>::Zero());
    U.resize(m.nb);
    Dinv.resize(m.nb);
    u.resize(m.nb);
    for (int i = 0; i < m.nb; ++i) {
      const int ni = m.joint[i].nv();
      U[i] = Mat6N<S>::Zero(6, ni);
      Dinv[i] = MatN<S>::Zero(ni, ni);
      u[i] = VecN<S>::Zero(ni);
    }
    T.resize(m.nb);
    Ta.resize(m.nb);
    Y.resize(m.nb);
    Kinv.resize(m.nb);
    z.resize(m.nb);
    w.assign(m.nb, Vec6<S>::Zero());
    Phi.assign(m.nb, Mat6<S>::Zero());
    b.assign(m.nb, Vec6<S>::Zero());
    for (int i = 0; i < m.nb; ++i) {
      const Joint<S>& joint = m.joint[i];
      Eigen::Matrix<S, 7, 1> q0 = Eigen::Matrix<S, 7, 1>::Zero();  // neutral q: identity quaternion
      if (joint.type == JointType::Spherical || joint.type == JointType::Free) q0[0] = S(1);
      JointKinematics<S> J;
      jcalc_position(joint, q0, J);                                   // jcalc's S_i
      joint_force_subspaces<S>(J.S_, T[i], Ta[i]);
      const int mi = 6 - joint.nv();
      Y[i] = Mat6N<S>::Zero(6, mi);
      Kinv[i] = MatN<S>::Zero(mi, mi);
      z[i] = VecN<S>::Zero(mi);
    }
    H = MatX<S>::Zero(m.nv, m.nv);
    C = VecX<S>::Zero(m.nv);
    dca = DcaStorage<S>(m.parent);
    if (is_floating_base(m)) {
      base_solve = Forces6<S>::Zero(6, m.nv);
      schur_pattern = TreePattern(chain_parent(m.nv - 6));
      schur_rows = PackedRows<S>::Zero(schur_pattern.nonzeros());
    }
  }
};

}  // namespace rbd
