#pragma once
// Scratch for the closed-loop family (Featherstone chapter 8). The loop joints are an argument
// of every call, like hybrid dynamics' split and the gear pairs; what depends only on their
// structure (the number of constraints n^c, each loop's first row) is derived by prepare()
// when the structure changes, and every matrix is sized for the largest case (n^c constraints,
// rank n^c), so no call allocates, whatever rank K turns out to have.
#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <optional>
#include <vector>

#include "closed_loop_dynamics/loop_clusters.hpp"
#include "closed_loop_dynamics/sparse_matrix_structure.hpp"
#include "factorization/pivoted_ldlt.hpp"
#include "factorization/sparse.hpp"
#include "model/loop_joint.hpp"
#include "model/workspace.hpp"

namespace rbd {

// Baumgarte stabilisation (section 8.3, Eq. 8.22): k_stab = -2 alpha T^T v_J - beta^2 delta.
// Off (alpha = beta = 0) by default: at a state that closes the loops the term is zero
// anyway; a simulation turns it on with alpha = beta = 1 / T_stab.
template <class S> struct Stabilization {
  S alpha = S(0), beta = S(0);
};

template <class S> struct ClosedLoopWorkspace : Workspace<S> {
  // Depends on the loops' structure only (prepare()).
  struct Shape {
    LoopJointType type;
    int p, s;
    bool operator==(const Shape&) const = default;
  };
  std::vector<Shape> shape;
  bool prepared = false;
  int shape_version = 0;       // counts prepare()'s structural changes (for sparse_matrix's analysis)
  int nc = 0;                  // n^c (Eq. 8.1)
  std::vector<int> row0;       // first row of loop l in K
  Stabilization<S> stab;
  // Active loop joints (sections 8.4 and 8.6): the generalized forces tau^a of the loop joints'
  // actuators or springs, one value per loop-joint freedom (loop_joint_dof), loop joint by loop
  // joint. Empty (the default): every loop joint is passive, tau^a = 0.
  VecX<S> loop_tau;
  // K's numerical rank is decided relative to its largest pivot: rank_tol * max |K_ij|.
  // K's entries carry the recursions' rounding, a few (d + 1) eps relative; a dependent row
  // leaves a residue of a few n eps of the largest entry after elimination. 1e4 n eps is
  // above that residue for every case here and below any genuine pivot of a mechanism that
  // is not singular to within 1e-11 in double (section 10.1's fourth source of round-off:
  // near such a configuration qdd itself is ill-conditioned, and the rank is a choice).
  S rank_tol = S(0);

  // Per call: the tree's terms (steps.hpp).
  VecX<S> zero, C, tau_prime;   // C = ID(q, qd, 0, f_ext); tau' = tau - C + tau^a (loop_tau)
  MatX<S> H;                    // CRBA
  Forces6<S> S0;                // every joint's motion subspace in base coordinates, by column of qd
  MatX<S> K;                    // n^c x n, Eq. 8.19
  VecX<S> k;                    // k + k_stab, Eqs. 8.15 / 8.47, 8.22
  std::vector<Mat6N<S>> loop_T; // each loop joint's T in base coordinates (Table 8.4's Xs^T T)
  std::vector<Vec6<S>> loop_fa; // each loop joint's active force X_s^T T^a tau_k, base coordinates (Table 8.3)
  // Section 8.8's elimination of [K | k] (elimination.hpp).
  MatX<S> W;                    // n^c x (n + 1) working copy
  std::vector<int> row_of, col_of;  // pivot order: original row / column at each position
  int rank = 0;
  S residual = S(0);            // largest |dependent row's right side| after elimination
  // loop_nullspace: G, g (Eq. 8.51), G^T H G, its right side.
  MatX<S> G, HG, Hy;
  VecX<S> g, rhs;
  // loop_clustered_nullspace: section 8.9's minimal clusters (prepare()) and, per cluster, the
  // gathered [K_i | k_i], its pivot order, G_i and g_i (Eq. 8.51 on the block), and where its
  // columns of G start (ws.G, ws.HG and ws.Hy are reused for the assembled projection).
  struct ClusterBlock {
    MatX<S> W, G;
    VecX<S> g;
    std::vector<int> row_of, col_of;
    int rank = 0, ny = 0, y0 = 0;  // ny = columns - rank, G's columns for this block from y0
  };
  LoopClusters clusters;
  std::vector<ClusterBlock> cluster_block;
  // loop_kkt: the (n + n^c)-square system of Eq. 8.36, dependent rows replaced by identity rows.
  MatX<S> kkt;
  VecX<S> kkt_rhs, kkt_sol;
  std::optional<Eigen::PartialPivLU<MatX<S>>> lu;
  // loop_lambda_first: the sparse factor of H, Y = L^-T K^T, z = L^-T tau', A = Y^T Y, b.
  TreePattern pattern;
  PackedRows<S> rows;
  MatX<S> Yt, A;  // Yt = Y^T = K L^-1 (lambda_system.hpp)
  VecX<S> z, b, lambda, col;
  PivotedLdlt<S> ldlt;  // A's, for step 5 (Eq. 8.41)
  // Where Y can be nonzero (prepare(), lambda_system.hpp): loop l's rows of K are nonzero only in
  // the variables of p(k) and s(k) and their ancestors, and L^-T carries entries only towards the
  // root (Table 6.5), so Y's columns for loop l are zero outside that set, loop l's support (the
  // two bodies' last variables and their ancestors in the expanded tree). support_columns[i]
  // holds the columns of Y whose loop's support contains variable i, as runs (first, length):
  // steps 3 and 4 go one variable at a time, over those columns only.
  std::vector<std::vector<std::pair<int, int>>> support_columns;
  // loop_proximal (loop_proximal.hpp): A + mu 1, its Cholesky factor, the residual b - A lambda,
  // and the iteration's settings, 0 meaning the default (set them any time; prepare() leaves them
  // alone). mu = prox_mu_rel max_i A_ii, default prox_mu_rel = 1e3 (n + n^c) eps: A = Y^T Y
  // carries a rounding of about n eps |A| (n-term dot products), so the default keeps A + mu 1
  // positive definite at any rank with a margin of 1e3. The stopping threshold on the step,
  // prox_tol_rel |lambda|, default 8 n^c eps, is the rounding of the step's n^c-term dot
  // products; where lambda cannot get that close the residual's floor stops it.
  MatX<S> A_mu;
  VecX<S> residual_vec;
  std::optional<Eigen::LLT<MatX<S>>> prox_llt;
  S prox_mu_rel = S(0), prox_tol_rel = S(0);
  int prox_max_iter = 200, prox_iterations = 0;
  // loop_sparse_matrix: Eq. 8.64's structure (analysed once per shape) and its per-call values.
  SparseMatrixStructure<S> sparse;

  ClosedLoopWorkspace() = default;
  explicit ClosedLoopWorkspace(const Model<S>& m)
      : Workspace<S>(m), zero(VecX<S>::Zero(m.nv)), C(VecX<S>::Zero(m.nv)), tau_prime(VecX<S>::Zero(m.nv)),
        H(MatX<S>::Zero(m.nv, m.nv)), S0(Forces6<S>::Zero(6, m.nv)), G(MatX<S>::Zero(m.nv, m.nv)),
        HG(MatX<S>::Zero(m.nv, m.nv)), Hy(MatX<S>::Zero(m.nv, m.nv)), g(VecX<S>::Zero(m.nv)),
        rhs(VecX<S>::Zero(m.nv)), pattern(expanded_parent(m)), rows(PackedRows<S>::Zero(pattern.nonzeros())),
        z(VecX<S>::Zero(m.nv)), col(VecX<S>::Zero(m.nv)) {
    rank_tol = S(10000) * S(m.nv) * S(Eigen::NumTraits<S>::epsilon());
  }

  void prepare(const Model<S>& m, const LoopJoints<S>& loops) {
    auto same_shape = [&] {  // compared in place: a call with the last call's loops allocates nothing
      if (!prepared || shape.size() != loops.size()) return false;
      for (std::size_t l = 0; l < loops.size(); ++l)
        if (!(shape[l] == Shape{loops[l].type, loops[l].p, loops[l].s})) return false;
      return true;
    };
    if (same_shape()) return;
    std::vector<Shape> now;
    now.reserve(loops.size());
    for (const auto& L : loops) now.push_back({L.type, L.p, L.s});
    check_loop_bodies(m, loops);  // names the loop joint, before anything is kept
    shape = std::move(now);
    prepared = true;
    row0.assign(loops.size(), 0);
    loop_T.assign(loops.size(), Mat6N<S>::Zero(6, 6));
    loop_fa.assign(loops.size(), Vec6<S>::Zero());
    ++shape_version;
    nc = 0;
    for (std::size_t l = 0; l < loops.size(); ++l) {
      row0[l] = nc;
      nc += loops[l].nc();
    }
    const int n = m.nv;
    K = MatX<S>::Zero(nc, n);
    k = VecX<S>::Zero(nc);
    W = MatX<S>::Zero(nc, n + 1);
    row_of.assign(nc, 0);
    col_of.assign(n, 0);
    kkt = MatX<S>::Zero(n + nc, n + nc);
    kkt_rhs = VecX<S>::Zero(n + nc);
    kkt_sol = VecX<S>::Zero(n + nc);
    lu.emplace(n + nc);
    Yt = MatX<S>::Zero(nc, n);
    A = MatX<S>::Zero(nc, nc);
    b = VecX<S>::Zero(nc);
    lambda = VecX<S>::Zero(nc);
    ldlt = PivotedLdlt<S>(nc);
    supports(m, loops);
    A_mu = MatX<S>::Zero(nc, nc);
    residual_vec = VecX<S>::Zero(nc);
    prox_llt.emplace(nc);
    clusters = minimal_loop_clusters(m, loops, row0);
    cluster_block.assign(clusters.clusters.size(), ClusterBlock{});
    for (std::size_t c = 0; c < clusters.clusters.size(); ++c) {
      const int rows = static_cast<int>(clusters.clusters[c].rows.size());
      const int cols = static_cast<int>(clusters.clusters[c].cols.size());
      ClusterBlock& B = cluster_block[c];
      B.W = MatX<S>::Zero(rows, cols + 1);
      B.G = MatX<S>::Zero(cols, cols);
      B.g = VecX<S>::Zero(cols);
      B.row_of.assign(rows, 0);
      B.col_of.assign(cols, 0);
    }
    sparse.analyse(m, loops);  // loop_sparse_matrix's pattern, so that its calls allocate nothing
  }

 private:
  void supports(const Model<S>& m, const LoopJoints<S>& loops) {
    const int nl = static_cast<int>(loops.size());
    std::vector<std::vector<char>> in(nl, std::vector<char>(m.nv, 0));  // in[l][i]: i in loop l's support
    for (int l = 0; l < nl; ++l)
      for (int b : {loops[l].p, loops[l].s}) {
        if (b < 0) continue;
        const int last = m.v_idx[b] + m.joint[b].nv() - 1;  // ancestors: row `last` of the pattern
        for (int t = pattern.row_start[last]; t < pattern.row_start[last + 1]; ++t) in[l][pattern.col[t]] = 1;
      }
    support_columns.assign(m.nv, {});
    for (int i = 0; i < m.nv; ++i)
      for (int l = 0; l < nl; ++l) {
        const int c0 = row0[l], len = l + 1 < nl ? row0[l + 1] - c0 : nc - c0;
        if (!in[l][i] || len == 0) continue;
        auto& runs = support_columns[i];
        if (!runs.empty() && runs.back().first + runs.back().second == c0) runs.back().second += len;
        else runs.push_back({c0, len});
      }
  }
};

}  // namespace rbd
