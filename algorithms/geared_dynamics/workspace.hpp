#pragma once
// Scratch for the geared-dynamics family (Featherstone section 9.6). The gear pairs are an
// argument of every call, like hybrid dynamics' split; what depends on them only (the map of
// gear_map.hpp, the sizes, the plan of Eq. 9.27's sparse product) is derived by prepare() when
// they change and kept, so a call with the same pairs as the last allocates nothing.
#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <optional>
#include <vector>

#include "factorization/sparse.hpp"
#include "geared_dynamics/gear_map.hpp"
#include "model/workspace.hpp"

namespace rbd {

// One nonzero H_kj (j = k or an ancestor of k in the expanded tree of Table 6.4) and where
// Eq. 9.27 puts ratio_k ratio_j H_kj: entry (row, col) of G^T H G's lower triangle. `twice`:
// k and j are different variables in the same column of G (a joint geared to one of its own
// ancestors), so H_kj and H_jk = H_kj both land on the diagonal entry. `first`: the first term
// of its entry (assigned, not added).
struct GearProductTerm {
  int k, j, row, col;
  bool twice, first;
};

template <class S> struct GearedWorkspace : Workspace<S> {
  // Depends on the pairs only (prepare()).
  GearPairs pairs;
  bool prepared = false;
  GearMap<S> map;
  std::vector<GearProductTerm> plan;  // Eq. 9.27's nonzero terms (geared_sparse)
  MatX<S> G;                          // dense G (geared_dense)
  // Per call.
  VecX<S> q, qd, zero, C, b;          // q = gamma(y), qd = G yd, C = ID(q, qd, 0), b = tau - C
  MatX<S> H, HG, Hy;                  // H (CRBA), H G (geared_dense), G^T H G (lower triangle)
  VecX<S> rhs;                        // G^T (tau - C), then ydd
  std::optional<Eigen::LLT<MatX<S>>> llt;  // made in place (see HybridDynamicsWorkspace::llt11)
  MatX<S> kkt;                        // geared_lagrange: [H K^T; K 0]
  VecX<S> kkt_rhs, kkt_sol;
  std::optional<Eigen::PartialPivLU<MatX<S>>> lu;

  GearedWorkspace() = default;
  explicit GearedWorkspace(const Model<S>& m)
      : Workspace<S>(m), q(VecX<S>::Zero(m.nq)), qd(VecX<S>::Zero(m.nv)), zero(VecX<S>::Zero(m.nv)),
        C(VecX<S>::Zero(m.nv)), b(VecX<S>::Zero(m.nv)), H(MatX<S>::Zero(m.nv, m.nv)) {}

  void prepare(const Model<S>& m, const GearPairs& p) {
    if (prepared && p == pairs) return;
    map = GearMap<S>::build(m, p);  // throws, naming the pair, before anything is kept
    pairs = p;
    prepared = true;
    G = map.dense_G();
    plan.clear();
    const std::vector<int> lambda = expanded_parent(m);
    std::vector<char> seen(static_cast<std::size_t>(map.ny) * map.ny, 0);
    for (int k = 0; k < m.nv; ++k)
      for (int j = k; j >= 0; j = lambda[j]) {  // H's branch-induced pattern: j = k, lambda(k), ...
        const int ck = map.col[k], cj = map.col[j];
        const int r = std::max(ck, cj), c = std::min(ck, cj);
        char& s = seen[static_cast<std::size_t>(r) * map.ny + c];
        plan.push_back({k, j, r, c, k != j && ck == cj, s == 0});
        s = 1;
      }
    HG = MatX<S>::Zero(m.nv, map.ny);
    Hy = MatX<S>::Zero(map.ny, map.ny);
    rhs = VecX<S>::Zero(map.ny);
    llt.emplace(map.ny);
    const int nc = m.nv - map.ny;  // one constraint row per driven joint
    kkt = MatX<S>::Zero(m.nv + nc, m.nv + nc);
    kkt_rhs = VecX<S>::Zero(m.nv + nc);
    kkt_sol = VecX<S>::Zero(m.nv + nc);
    lu.emplace(m.nv + nc);
  }
};

}  // namespace rbd
