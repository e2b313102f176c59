#pragma once
// The structure of section 8.13's Eq. 8.64 for one mechanism (a tree plus its loop joints), found
// once per mechanism shape and kept in ClosedLoopWorkspace::sparse, so that later calls
// allocate nothing. Eq. 8.64 treats every joint alike: the tree's joints are constraints
// between bodies as the loop joints are. Joint j has predecessor p(j) and successor s(j)
// (tree joint i: p = lambda(i), s = i; then the loop joints), n^c_j constraint rows and its
// block lambda_j of the constraint-force variables; a joint that constrains nothing (a free
// joint of the tree) has no rows.
//
// sparse_matrix_method.hpp eliminates the body accelerations first (I is block-diagonal and
// positive definite), which leaves
//   A lambda = b,   A = T^T P^T I^-1 P T,
// whose block (j, l) is nonzero exactly when joints j and l share a body (Eq. 3.69's P has
// nonzero blocks only at p(j) and s(j)). analyse() orders those blocks by minimum fill (on the
// joint graph, so each block's rows stay together), lays out A's upper triangle by columns in
// that order and runs the LDL^T's symbolic analysis (factorization/elimination_tree_ldlt.hpp).
//
// Why minimum fill and not Eigen's AMD (minimum degree): a tree's joint graph is chordal (the
// joints at a body form a clique, and the cliques hang together as the tree does), so it has an
// elimination order with no fill at all (leaves first), which is the footnote's O(n)
// factorization of Eq. 8.64 for trees; greedy minimum fill always takes a vertex whose
// neighbours are already a clique when one exists, so it finds such an order, while AMD's degree
// heuristic does not (measured on tree:bf=2:nb=31: 1710 entries in L against 1435 with none
// filled). On Figure 8.4's ladder both keep the fill linear in the length.
#include <algorithm>
#include <array>
#include <vector>

#include "core/scalar.hpp"
#include "factorization/elimination_tree_ldlt.hpp"
#include "model/loop_joint.hpp"

namespace rbd {

// Greedy minimum-fill order of a graph given by its adjacency matrix: repeatedly eliminate the
// vertex whose elimination joins the fewest non-adjacent pairs of its remaining neighbours
// (ties: fewer neighbours, then the lower index), joining them. O(n^3) for n joints; run once per shape.
inline std::vector<int> minimum_fill_order(std::vector<std::vector<char>> adjacent) {
  const int n = static_cast<int>(adjacent.size());
  std::vector<char> done(n, 0);
  std::vector<int> order, nbr;
  for (int step = 0; step < n; ++step) {
    int best = -1;
    long best_fill = 0, best_degree = 0;
    for (int v = 0; v < n; ++v) {
      if (done[v]) continue;
      nbr.clear();
      for (int u = 0; u < n; ++u)
        if (!done[u] && adjacent[v][u]) nbr.push_back(u);
      long fill = 0;
      for (std::size_t a = 0; a < nbr.size(); ++a)
        for (std::size_t b = a + 1; b < nbr.size(); ++b) fill += !adjacent[nbr[a]][nbr[b]];
      const long degree = static_cast<long>(nbr.size());
      if (best < 0 || fill < best_fill || (fill == best_fill && degree < best_degree)) {
        best = v;
        best_fill = fill;
        best_degree = degree;
      }
    }
    done[best] = 1;
    order.push_back(best);
    nbr.clear();
    for (int u = 0; u < n; ++u)
      if (!done[u] && adjacent[best][u]) nbr.push_back(u);
    for (const int a : nbr)
      for (const int b : nbr)
        if (a != b) adjacent[a][b] = 1;
  }
  return order;
}

template <class S> struct SparseMatrixStructure {
  struct JointEnds {
    int p = -1, s = -1;  // bodies (-1: the base)
    int nc = 0;          // constraint rows n^c_j
    int row0 = 0;        // first row of lambda_j in the ordered unknowns
  };
  // A's column of lambda_j's c-th unknown holds, for every joint l sharing a body with j (l = j
  // included) and ordered no later, the rows of lambda_l (for l = j only rows 0..c): a segment
  // of Ax. With two bodies in common (a loop joint beside a tree joint) there are two terms,
  // added into the same segment.
  struct Term {
    int l;        // the other joint
    int end_l;    // which end of l is the shared body: 0 = s(l), 1 = p(l)
    int end_j;    // which end of j
    int ax;       // the segment's first entry in Ax
    int rows;     // its length
  };
  std::vector<JointEnds> joint;  // tree joints 0..nb-1, then the loop joints
  std::vector<int> order;        // the joints with rows, in elimination order
  std::vector<int> col_joint, col_c, term_begin;  // per column of A: joint, its local column, its Terms
  std::vector<Term> terms;
  EliminationTreeLdlt<S> ldlt;
  int rows = 0;        // size of A: sum of n^c_j
  int nb = 0;

  // Per call: body-side quantities in base coordinates, and the joint subspaces.
  std::vector<Eigen::LLT<Mat6<S>>> inertia_llt;  // body i's inertia (its own coordinates)
  std::vector<Vec6<S>> r, acc;                   // P T_a tau - p per body; then I^-1 (r + P T lambda)
  std::vector<Mat6<S>> T;                        // T_j (first nc columns), base coordinates
  std::vector<Mat6<S>> Ta;                       // tree joints: T_a,j (first n_j columns), S_j^T T_a,j = 1
  std::vector<Mat6<S>> U;                        // U(j, e) = sign I_b^-1 T_j at end e (2 per joint)
  VecX<S> b, x;                                  // A lambda = b's right side; lambda
  // column_of[j][c]: which column of the joint's own T_j (and of k) is its c-th row of A this
  // call (pivot_dependent_blocks reorders them).
  std::vector<std::array<int, 6>> column_of;

  // After a factorization that dropped rows: for every joint with a dropped row, its block's
  // Schur complement C = L_bb D_b L_bb^T (the in-block part of the factor; the complement of a
  // whole block does not depend on the order of its rows) is pivoted greedily on the largest
  // relative diagonal C_tt / A_tt, as a rank-revealing Cholesky does, and T_j's columns are put in
  // that order. Returns whether any order changed (then A must be assembled and factored again;
  // the pattern is the same, since a joint's rows share theirs).
  bool pivot_dependent_blocks() {
    bool changed = false;
    for (std::size_t j = 0; j < joint.size(); ++j) {
      const int nc = joint[j].nc, r0 = joint[j].row0;
      bool any_dropped = false;
      for (int t = 0; t < nc; ++t) any_dropped = any_dropped || ldlt.dropped[r0 + t];
      if (nc < 2 || !any_dropped) continue;
      Mat6<S> Lb = Mat6<S>::Identity();
      Vec6<S> Db = Vec6<S>::Zero(), Ad = Vec6<S>::Zero();
      for (int a = 0; a < nc; ++a) {
        const int i = r0 + a;
        Db[a] = ldlt.D[i];
        for (int p = ldlt.Lp[i]; p < ldlt.Lp[i] + ldlt.Lnz[i]; ++p)
          if (ldlt.Li[p] < r0 + nc) Lb(ldlt.Li[p] - r0, a) = ldlt.Lx[p];
        Ad[a] = ldlt.Adiag[i];
      }
      Mat6<S> C = Mat6<S>::Zero();
      C.topLeftCorner(nc, nc) = Lb.topLeftCorner(nc, nc) * Db.head(nc).asDiagonal() * Lb.topLeftCorner(nc, nc).transpose();
      std::array<int, 6> pick{};
      std::array<char, 6> taken{};
      for (int step = 0; step < nc; ++step) {
        int best = -1;
        for (int t = 0; t < nc; ++t)  // A_tt > 0: T_j's columns are unit vectors and I^-1 is positive definite
          if (!taken[t] && (best < 0 || C(t, t) * Ad[best] > C(best, best) * Ad[t])) best = t;
        pick[step] = best;
        taken[best] = 1;
        if (C(best, best) > S(0)) {  // eliminate it: C -= C_:b C_b: / C_bb
          const Vec6<S> cb = C.col(best);
          C.topLeftCorner(nc, nc) -= (cb.head(nc) / cb[best]) * cb.head(nc).transpose();
        }
      }
      bool identity = true;
      for (int a = 0; a < nc; ++a) identity = identity && pick[a] == a;
      if (identity) continue;
      const Mat6<S> Tj = T[j];
      const std::array<int, 6> was = column_of[j];
      for (int a = 0; a < nc; ++a) {
        T[j].col(a) = Tj.col(pick[a]);
        column_of[j][a] = was[pick[a]];
      }
      changed = true;
    }
    return changed;
  }

  void analyse(const Model<S>& m, const LoopJoints<S>& loops) {
    nb = m.nb;
    const int nj = m.nb + static_cast<int>(loops.size());
    joint.assign(nj, JointEnds{});
    for (int i = 0; i < m.nb; ++i) joint[i] = {m.parent[i], i, 6 - m.joint[i].nv(), 0};
    for (std::size_t l = 0; l < loops.size(); ++l) joint[m.nb + l] = {loops[l].p, loops[l].s, loops[l].nc(), 0};
    // Which joints meet at each body (with the end of the joint that is there).
    std::vector<std::vector<std::pair<int, int>>> at_body(m.nb);
    for (int j = 0; j < nj; ++j) {
      if (joint[j].nc == 0) continue;
      if (joint[j].s >= 0) at_body[joint[j].s].push_back({j, 0});
      if (joint[j].p >= 0) at_body[joint[j].p].push_back({j, 1});
    }
    // Elimination order of the joint graph (joints that share a body are adjacent): greedy
    // minimum fill, ties to the smaller degree, then the lower number.
    std::vector<int> constrained;
    for (int j = 0; j < nj; ++j)
      if (joint[j].nc > 0) constrained.push_back(j);
    const int nk = static_cast<int>(constrained.size());
    std::vector<std::vector<char>> adjacent(nk, std::vector<char>(nk, 0));
    std::vector<int> index_of(nj, -1);
    for (int k = 0; k < nk; ++k) index_of[constrained[k]] = k;
    for (int b = 0; b < m.nb; ++b)
      for (const auto& [j, ej] : at_body[b])
        for (const auto& [l, el] : at_body[b])
          if (j != l) adjacent[index_of[j]][index_of[l]] = 1;
    order = minimum_fill_order(adjacent);
    for (int& j : order) j = constrained[j];
    std::vector<int> position(nj, -1);
    rows = 0;
    for (int k = 0; k < nk; ++k) {
      position[order[k]] = k;
      joint[order[k]].row0 = rows;
      rows += joint[order[k]].nc;
    }
    // A's upper triangle by columns, and the Terms that fill each column.
    ldlt.Ap.assign(1, 0);
    ldlt.Ai.clear();
    col_joint.clear(); col_c.clear(); term_begin.assign(1, 0); terms.clear();
    for (int k = 0; k < nk; ++k) {
      const int j = order[k];
      for (int c = 0; c < joint[j].nc; ++c) {
        col_joint.push_back(j);
        col_c.push_back(c);
        std::vector<int> seen;  // joints already given a segment in this column
        std::vector<int> seen_ax;
        for (int ej = 0; ej < 2; ++ej) {
          const int b = ej == 0 ? joint[j].s : joint[j].p;
          if (b < 0) continue;
          for (const auto& [l, el] : at_body[b]) {
            if (position[l] > k) continue;  // below the diagonal: the LDL^T reads the upper triangle
            const int len = l == j ? c + 1 : joint[l].nc;
            const auto it = std::find(seen.begin(), seen.end(), l);
            int ax;
            if (it == seen.end()) {
              ax = static_cast<int>(ldlt.Ai.size());
              for (int r = 0; r < len; ++r) ldlt.Ai.push_back(joint[l].row0 + r);
              seen.push_back(l);
              seen_ax.push_back(ax);
            } else {
              ax = seen_ax[it - seen.begin()];
            }
            if (l == j && el != ej) continue;  // a joint meets itself at each of its bodies once
            terms.push_back({l, el, ej, ax, len});
          }
        }
        ldlt.Ap.push_back(static_cast<int>(ldlt.Ai.size()));
        term_begin.push_back(static_cast<int>(terms.size()));
      }
    }
    ldlt.Ax.assign(ldlt.Ai.size(), S(0));
    ldlt.analyse();
    inertia_llt.assign(m.nb, Eigen::LLT<Mat6<S>>(6));
    r.assign(m.nb, Vec6<S>::Zero());
    acc.assign(m.nb, Vec6<S>::Zero());
    T.assign(nj, Mat6<S>::Zero());
    Ta.assign(m.nb, Mat6<S>::Zero());
    U.assign(2 * nj, Mat6<S>::Zero());
    b = VecX<S>::Zero(rows);
    x = VecX<S>::Zero(rows);
    column_of.assign(nj, {0, 1, 2, 3, 4, 5});
  }
};

}  // namespace rbd
