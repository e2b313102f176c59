#pragma once
// Section 8.13's sparse-matrix method: no spanning-tree H and no K. Every body and every joint
// (the tree's and the loops') enters Eq. 8.64 (derived as Eq. 3.74, section 3.7):
//   [ I        P T ] [  a      ]   [ P T_a tau - p          ]
//   [ T^T P^T  0   ] [ -lambda ] = [ -Tdot^T P^T v (= k_J)  ]
// in base coordinates: I = diag(I_i) (Eq. 3.65), P of Eq. 3.69 (+1 at s(j), -1 at p(j)),
// T = diag(T_j) the constraint-force subspaces, T_a the active-force ones (S_j^T T_a,j = 1), p
// the bias forces. Unknowns are measured from the velocity-product state of the RNEA with
// qdd = 0 (a_i = a_i^vp + a^_i), as Table 8.3 does for C: then
//  - gravity is a_0 = -a_g = a_0^vp, so a^_0 = 0 and the base needs no equation;
//  - p_i = I_i a_i^vp + v_i x* I_i v_i - f_ext,i, RNEA's body force at qdd = 0 (Eq. 5.9);
//  - a tree joint's right side is 0: a^_i - a^_lambda(i) = S_i qdd_i has no T_i component
//    (the Tdot term of Eq. 3.72 is inside a_i^vp); a loop joint's is Eq. 8.47's k (+ k_stab,
//    so Baumgarte's terms apply here as in the other methods).
// The system is solved by a sparse elimination (section 8.13's four library steps): the body
// blocks first, a^ = I^-1 (r + P T lambda) with r = P T_a tau - p, which leaves
//   A lambda = b,   A = T^T P^T I^-1 P T,   b = k_J - T^T P^T I^-1 r,
// A block-sparse (joints that share a body) and positive semi-definite; then A = L D L^T in a
// minimum-fill order with the pattern analysed once (sparse_matrix_structure.hpp,
// factorization/elimination_tree_ldlt.hpp). For a tree that order has no fill (O(n) when the
// branching is bounded: eliminating the bodies first makes the joints at a body a clique; the
// footnote's Baraff 1996 factors Eq. 8.64 whole); for Figure 8.4's ladder the fill stays bounded,
// where every spanning tree's H has O(n^2) entries. Redundant constraints make A singular:
// dependent pivots (D_k <= rank_tol growth A_kk; elimination_tree_ldlt.hpp says why) are dropped,
// which gives one of the lambdas and the unique a^ (I is positive definite, so a^ does not depend
// on which lambda); section 8.13's "the sparse factorization may not work" is this case. Which
// rows of a dependent set are kept decides the accuracy in double, so it is not left to the
// order alone (the pivoting steps below), and whether a row is dependent at all is checked
// against the equation a drop leaves out (elimination_tree_ldlt.hpp's restore_violated_row).
// Finally qdd_i = T_a,i^T (a^_i - a^_lambda(i)).
#include <Eigen/Cholesky>
#include <Eigen/QR>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>

#include "closed_loop_dynamics/steps.hpp"

namespace rbd {

struct LoopSparseMatrix {
  static constexpr std::string_view name = "loop_sparse_matrix";
  static constexpr std::string_view summary =
      "Section 8.13 (Eq. 8.64): bodies and all joints as one sparse system; body blocks eliminated, then "
      "T^T P^T I^-1 P T lambda = b by a minimum-fill sparse LDL^T that drops dependent pivots";
  static constexpr std::string_view complexity = "O(N_B + N_J) on trees and ladders (bounded fill); O(fill) in general";
  static constexpr bool polynomial_op_counts = false;  // the dropped pivots depend on the state
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& m, const LoopJoints<S>& loops, const VecX<S>& q, const VecX<S>& qd,
                  const VecX<S>& tau, const ExternalForces<S>* f_ext, VecX<S>& qdd, ClosedLoopWorkspace<S>& ws) {
    ws.prepare(m, loops);
    SparseMatrixStructure<S>& sm = ws.sparse;
    RneaSpatial::run<S>(m, q, qd, ws.zero, f_ext, ws.C, ws);  // v_i, a_i^vp (Table 8.3's pass)
    loops::loop_constraints<S, false>(m, loops, ws);         // ^iX_0, S_i and T_k in base coordinates, k
    const int nb = m.nb;
    // A NaN must not reach the pivot test (a comparison with NaN is false): q shows in the S_i,
    // qd, tau and f_ext in k and the bodies' right sides (checked below).
    const S big = S(std::numeric_limits<double>::max());
    for (Eigen::Index c = 0; c < ws.S0.cols(); ++c)
      for (int r = 0; r < 6; ++r)
        if (!(abs_(ws.S0(r, c)) <= big))
          throw std::domain_error("loop_sparse_matrix: the motion subspace of variable " + std::to_string(c) +
                                  " has a non-finite entry (a NaN or inf in q?)");
    loops::require_finite<S>(MatX<S>(), ws.k);
    // Bodies: I_i's factor, and r_i = -p_i (base coordinates).
    for (int i = 0; i < nb; ++i) {
      const Inertia<S>& I = m.I[i];
      Vec6<S> p = I * ws.a[i] + crf<S>(ws.v[i], I * ws.v[i]);
      if (f_ext) p -= (*f_ext)[i];
      sm.r[i] = -ws.X0[i].apply_transpose(p);
      sm.inertia_llt[i].compute(I.matrix());
      if (sm.inertia_llt[i].info() != Eigen::Success)
        throw std::domain_error("loop_sparse_matrix: body " + std::to_string(i) + "'s inertia is not positive definite");
    }
    // I_b^-1 f for a force f in base coordinates: ^0X_b I_b^-1 ^bX_0^* f.
    auto inverse_inertia = [&](int b, const Vec6<S>& f) -> Vec6<S> {
      return ws.X0[b].apply_inverse(Vec6<S>(sm.inertia_llt[b].solve(ws.X0[b].apply_force(f))));
    };
    // Tree joints: T_a = S (S^T S)^-1 and T spanning S's orthogonal complement (Q's last columns
    // from a Householder QR of S), then the active force T_a tau enters P T_a tau. Both are made
    // in body i's own coordinates, where S_i is jcalc's (unit axes at the joint), and carried to
    // base coordinates as forces, as the loop joints' T are (Table 8.4's X_S^T T). Orthonormal in
    // base coordinates instead, T mixes moments about the base origin with forces, and A's
    // condition grows with the bodies' distance from it: 1e3 to 1e5 times larger on the GU
    // chains and the humanoid, and the error in double with it.
    for (int i = 0; i < nb; ++i) {
      const int n = m.joint[i].nv(), v0 = m.v_idx[i];
      Mat6N<S> Sj(6, n);
      for (int c = 0; c < n; ++c) Sj.col(c) = ws.X0[i].apply(Vec6<S>(ws.S0.col(v0 + c)));  // ^iX_0 S_i
      const Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6> StS = Sj.transpose() * Sj;
      const Eigen::LLT<Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>> gram(StS);
      const Mat6N<S> Ta_local = Sj * gram.solve(Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>::Identity(n, n));
      for (int c = 0; c < n; ++c) sm.Ta[i].col(c) = ws.X0[i].apply_transpose(Vec6<S>(Ta_local.col(c)));
      if (n < 6) {
        const Eigen::HouseholderQR<Mat6N<S>> qr(Sj);
        const Mat6<S> Q = qr.householderQ();
        for (int c = 0; c < 6 - n; ++c) sm.T[i].col(c) = ws.X0[i].apply_transpose(Vec6<S>(Q.col(n + c)));
      }
      const Vec6<S> fa = sm.Ta[i].leftCols(n) * tau.segment(v0, n);
      sm.r[i] += fa;
      if (m.parent[i] >= 0) sm.r[m.parent[i]] -= fa;
    }
    for (std::size_t l = 0; l < loops.size(); ++l) {
      sm.T[nb + l].leftCols(loops[l].nc()) = ws.loop_T[l];
      if (ws.loop_tau.size() == 0) continue;  // an active loop joint's T_a tau (Eq. 8.64's P T_a tau)
      if (loops[l].s >= 0) sm.r[loops[l].s] += ws.loop_fa[l];
      if (loops[l].p >= 0) sm.r[loops[l].p] -= ws.loop_fa[l];
    }
    for (int i = 0; i < nb; ++i)
      if (!(sm.r[i].cwiseAbs().maxCoeff() <= big))
        throw std::domain_error("loop_sparse_matrix: body " + std::to_string(i) +
                                "'s forces are not finite (a NaN or inf in qd, tau, loop_tau or f_ext?)");
    const int nj = static_cast<int>(sm.joint.size());
    for (int j = 0; j < nj; ++j)
      for (int c = 0; c < 6; ++c) sm.column_of[j][c] = c;
    auto assemble_and_factor = [&] {
      // U(j, e) = sign(e) I_b^-1 T_j at each moving end b of each joint.
      for (int j = 0; j < nj; ++j)
        for (int e = 0; e < 2; ++e) {
          const int b = e == 0 ? sm.joint[j].s : sm.joint[j].p;
          if (b < 0) continue;
          for (int c = 0; c < sm.joint[j].nc; ++c) {
            const Vec6<S> u = inverse_inertia(b, Vec6<S>(sm.T[j].col(c)));
            sm.U[2 * j + e].col(c) = e == 0 ? u : Vec6<S>(-u);
          }
        }
      // A = T^T P^T I^-1 P T, column by column (upper triangle).
      std::fill(sm.ldlt.Ax.begin(), sm.ldlt.Ax.end(), S(0));
      for (int k = 0; k < sm.rows; ++k) {
        const int j = sm.col_joint[k], c = sm.col_c[k];
        for (int t = sm.term_begin[k]; t < sm.term_begin[k + 1]; ++t) {
          const auto& term = sm.terms[t];
          const Vec6<S> u = sm.U[2 * j + term.end_j].col(c);
          const bool minus = term.end_l == 1;  // sign of T_l at its predecessor
          for (int r = 0; r < term.rows; ++r) {
            const S d = sm.T[term.l].col(r).dot(u);
            sm.ldlt.Ax[term.ax + r] += minus ? S(-d) : d;
          }
        }
      }
      sm.ldlt.factor(ws.rank_tol);
    };
    std::fill(sm.ldlt.forced.begin(), sm.ldlt.forced.end(), char(0));  // the last call's swaps
    assemble_and_factor();
    // A joint whose rows were partly dropped may have kept a poor basis of its constraint space:
    // without pivoting, a row that is almost dependent on the rows before it is kept with a tiny
    // pivot (7e-5 A_kk on a GU chain with one loop), and the error grows by its inverse. The
    // Schur complement of a joint's whole block does not depend on the order of its rows, so the
    // order within each such block is chosen by diagonal pivoting on that complement, and A is
    // factored once more (sparse_matrix_structure.hpp's pivot_dependent_blocks).
    if (sm.pivot_dependent_blocks()) assemble_and_factor();
    // A basis can also be poor across joints: a loop joint kept whole with a pivot of 8e-7 A_kk,
    // and four rows of the next loop joint dropped (a GU chain with two loops). Kept pivots below
    // 1e-3 A_kk, which would amplify the rounding by more than 1e3, are traded for dropped rows
    // while the rank allows (at most one per loop-joint row).
    for (int swaps = 0; swaps < ws.nc && sm.ldlt.swap_weak_pivot(ws.rank_tol, S(1e-3)); ++swaps) {
    }
    // b = k_J - T^T P^T I^-1 r: zero for tree joints, Eq. 8.47's k for loop joints.
    for (int j = 0; j < nj; ++j) {
      const int nc = sm.joint[j].nc, row0 = sm.joint[j].row0;
      for (int c = 0; c < nc; ++c) {
        S bc = j < nb ? S(0) : S(ws.k[ws.row0[j - nb] + sm.column_of[j][c]]);
        for (int e = 0; e < 2; ++e) {
          const int b = e == 0 ? sm.joint[j].s : sm.joint[j].p;
          if (b >= 0) bc -= sm.U[2 * j + e].col(c).dot(sm.r[b]);
        }
        sm.b[row0 + c] = bc;
      }
    }
    // lambda, with the rank decision checked against the equations it left out: in double a
    // genuine but weak constraint's pivot can lie within the rounding bound of a dependent one's
    // (A is a normal-equations matrix, so its pivots are squares of the constraints' angles), and
    // the only sure sign of a lost constraint is that the solution violates it. Each violated row
    // is restored and A factored again, at most once per loop-joint row.
    for (int restored = 0;; ++restored) {
      sm.x = sm.b;
      sm.ldlt.solve(sm.x);
      if (restored == ws.nc || !sm.ldlt.restore_violated_row(sm.b, sm.x, ws.rank_tol)) break;
    }
    // a^ = I^-1 (r + P T lambda), then qdd_i = T_a,i^T (a^_i - a^_lambda(i)).
    for (int j = 0; j < nj; ++j) {
      const int nc = sm.joint[j].nc;
      if (nc == 0) continue;
      const Vec6<S> f = sm.T[j].leftCols(nc) * sm.x.segment(sm.joint[j].row0, nc);
      if (sm.joint[j].s >= 0) sm.r[sm.joint[j].s] += f;
      if (sm.joint[j].p >= 0) sm.r[sm.joint[j].p] -= f;
    }
    for (int i = 0; i < nb; ++i) sm.acc[i] = inverse_inertia(i, sm.r[i]);
    for (int i = 0; i < nb; ++i) {
      const int n = m.joint[i].nv();
      const Vec6<S> aJ = m.parent[i] < 0 ? sm.acc[i] : Vec6<S>(sm.acc[i] - sm.acc[m.parent[i]]);
      qdd.segment(m.v_idx[i], n).noalias() = sm.Ta[i].leftCols(n).transpose() * aJ;
    }
  }
};

}  // namespace rbd
