#pragma once
// Method 3 of section 8.5 with section 8.9's block-diagonal K and G. The loops are grouped into
// minimal clusters (loop_clusters.hpp); each cluster's block K_i x_i = k_i is eliminated on its
// own by section 8.8's complete pivoting, giving x_i = G_i y_i + g_i (Eq. 8.51 per block, as the
// section's last paragraph says), and every velocity variable on no loop's path is its own
// independent variable (G's identity blocks). Then, as loop_nullspace does,
//   G^T H G ydd = G^T (tau - C + tau^a - H g)        (Eq. 8.45)
// by Cholesky, with H G and G^T (H G) formed block by block: G has one nonzero block per
// column, so H G costs n |cols_i| ny_i per cluster instead of n^2 (n - r), and the elimination
// sum_i nc_i |cols_i| r_i instead of n^c n r.
//
// The rank test uses the whole K's threshold (elimination.hpp's rank_threshold) in every block,
// so the clusters' ranks add up to the rank loop_nullspace finds. The independent variables
// differ from loop_nullspace's (pivots are chosen inside each block, and a gap column is always
// independent), so G, ydd and the projected system differ too; qdd, unique, must not.
#include <stdexcept>
#include <string_view>

#include "closed_loop_dynamics/elimination.hpp"
#include "closed_loop_dynamics/steps.hpp"

namespace rbd {

struct LoopClusteredNullspace {
  static constexpr std::string_view name = "loop_clustered_nullspace";
  static constexpr std::string_view summary =
      "Method 3 (section 8.5) on section 8.9's minimal loop clusters: each block K_i eliminated on its own "
      "(Eq. 8.51 per block), G block-diagonal with identity blocks for joints on no loop, G^T H G by blocks, "
      "Cholesky (Eq. 8.45)";
  static constexpr std::string_view complexity =
      "O(nd) + sum_i O(nc_i n_i r_i) elimination + O(n sum_i n_i ny_i) projection + O((n - r)^3)";
  static constexpr bool polynomial_op_counts = false;  // the pivoting and the rank depend on the state
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& m, const LoopJoints<S>& loops, const VecX<S>& q, const VecX<S>& qd,
                  const VecX<S>& tau, const ExternalForces<S>* f_ext, VecX<S>& qdd, ClosedLoopWorkspace<S>& ws) {
    loops::tree_and_loop_terms<S>(m, loops, q, qd, tau, f_ext, ws);
    const S tol = loops::rank_threshold(ws);
    const auto& clusters = ws.clusters.clusters;
    const auto& free_cols = ws.clusters.free_cols;
    // Per cluster: gather [K_i | k_i], eliminate, G_i and g_i (section 8.8 on the block).
    int ny = 0;
    ws.rank = 0;
    ws.residual = S(0);
    for (std::size_t c = 0; c < clusters.size(); ++c) {
      const LoopCluster& C = clusters[c];
      auto& B = ws.cluster_block[c];
      const int rows = static_cast<int>(C.rows.size()), cols = static_cast<int>(C.cols.size());
      for (int a = 0; a < rows; ++a) {
        for (int b = 0; b < cols; ++b) B.W(a, b) = ws.K(C.rows[a], C.cols[b]);
        B.W(a, cols) = ws.k[C.rows[a]];
      }
      B.rank = loops::eliminate_block<S>(B.W, tol, B.row_of.data(), B.col_of.data());
      for (int a = B.rank; a < rows; ++a) ws.residual = std::max(ws.residual, S(abs_(B.W(a, cols))));
      loops::null_space_block<S>(B.W, B.rank, B.col_of.data(), B.G.leftCols(cols - B.rank), B.g);
      B.y0 = ny;
      B.ny = cols - B.rank;
      ny += B.ny;
      ws.rank += B.rank;
    }
    const int n = m.nv, ny_free = static_cast<int>(free_cols.size());
    if (ny + ny_free != n - ws.rank)  // clusters' columns and the gap variables partition the tree's
      throw std::logic_error("loop_clustered_nullspace: the clusters' columns do not partition the tree's variables");
    // H G (n x ny), column block by column block; the gap columns of G are unit vectors.
    auto HG = ws.HG.leftCols(ny + ny_free);
    for (std::size_t c = 0; c < clusters.size(); ++c) {
      const LoopCluster& C = clusters[c];
      const auto& B = ws.cluster_block[c];
      const int cols = static_cast<int>(C.cols.size());
      for (int j = 0; j < B.ny; ++j) {
        auto hg = HG.col(B.y0 + j);
        hg.setZero();
        for (int b = 0; b < cols; ++b)
          if (B.G(b, j) != S(0)) hg.noalias() += ws.H.col(C.cols[b]) * B.G(b, j);
      }
    }
    for (int f = 0; f < ny_free; ++f) HG.col(ny + f) = ws.H.col(free_cols[f]);
    // tau' - H g, g nonzero on the clusters' columns only.
    ws.col = ws.tau_prime;
    for (std::size_t c = 0; c < clusters.size(); ++c)
      for (std::size_t b = 0; b < clusters[c].cols.size(); ++b)
        if (ws.cluster_block[c].g[b] != S(0)) ws.col.noalias() -= ws.H.col(clusters[c].cols[b]) * ws.cluster_block[c].g[b];
    // G^T H G and G^T (tau' - H g), row block by row block.
    const int nyt = ny + ny_free;
    auto Hy = ws.Hy.topLeftCorner(nyt, nyt);
    auto rhs = ws.rhs.head(nyt);
    for (std::size_t c = 0; c < clusters.size(); ++c) {
      const LoopCluster& C = clusters[c];
      const auto& B = ws.cluster_block[c];
      const int cols = static_cast<int>(C.cols.size());
      for (int j = 0; j < B.ny; ++j) {
        auto row = Hy.row(B.y0 + j);
        row.setZero();
        rhs[B.y0 + j] = S(0);
        for (int b = 0; b < cols; ++b) {
          if (B.G(b, j) == S(0)) continue;
          row.noalias() += B.G(b, j) * HG.row(C.cols[b]);
          rhs[B.y0 + j] += B.G(b, j) * ws.col[C.cols[b]];
        }
      }
    }
    for (int f = 0; f < ny_free; ++f) {
      Hy.row(ny + f) = HG.row(free_cols[f]);
      rhs[ny + f] = ws.col[free_cols[f]];
    }
    // qdd = g + G ydd (Eq. 8.42), g first.
    qdd.setZero();
    for (std::size_t c = 0; c < clusters.size(); ++c)
      for (std::size_t b = 0; b < clusters[c].cols.size(); ++b) qdd[clusters[c].cols[b]] = ws.cluster_block[c].g[b];
    if (nyt == 0) return;  // locked: qdd = g
    Eigen::Ref<MatX<S>> Hyr = ws.Hy.topLeftCorner(nyt, nyt);
    Eigen::LLT<Eigen::Ref<MatX<S>>> llt(Hyr);  // in place: no allocation
    if (llt.info() != Eigen::Success)
      throw std::runtime_error("loop_clustered_nullspace: G^T H G is not positive definite (a singular mass matrix?)");
    llt.solveInPlace(rhs);  // ydd
    for (std::size_t c = 0; c < clusters.size(); ++c) {
      const LoopCluster& C = clusters[c];
      const auto& B = ws.cluster_block[c];
      for (std::size_t b = 0; b < C.cols.size(); ++b)
        for (int j = 0; j < B.ny; ++j) qdd[C.cols[b]] += B.G(b, j) * rhs[B.y0 + j];
    }
    for (int f = 0; f < ny_free; ++f) qdd[free_cols[f]] = rhs[ny + f];
  }
};

}  // namespace rbd
