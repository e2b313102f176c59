#pragma once
// Scratch for the hybrid-dynamics family (Featherstone section 9.1). The split -- which joints
// are forward-dynamics joints (fd: tau given, qdd wanted) and which inverse-dynamics joints
// (qdd given, tau wanted) -- is an argument of every call, as in spatial_v2's HD(model, fd, ...).
// What depends on the split only (nu(fd) of Eq. 9.5, the reduced parent array of Figure 9.1,
// the size of H_11) is derived by prepare() when the split changes and kept, as section 9.1
// suggests ("calculate it just once at the beginning of the run, and store it"): a call with
// the same split as the last allocates nothing.
#include <Eigen/Cholesky>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "factorization/sparse.hpp"
#include "forward_dynamics/workspace.hpp"

namespace rbd {

// forward[i] != 0: joint i is a forward-dynamics joint (i in fd). One entry per body/joint.
using ForwardJoints = std::vector<char>;

// nu(fd), Eq. 9.5: the bodies supported by at least one forward-dynamics joint, by the
// book's loop (parents come before children, so one pass base to tips).
inline void supported_by_forward(const std::vector<int>& parent, const ForwardJoints& fd, std::vector<char>& nu) {
  for (std::size_t i = 0; i < parent.size(); ++i) nu[i] = fd[i] || (parent[i] >= 0 && nu[parent[i]]);
}

// Figure 9.1 at the level of joint variables: the expanded parent array of H_11. The book merges
// each inverse-dynamics joint's two nodes and renumbers what is left; in expanded form (Table
// 6.4, one node per variable) that is: the parent of a forward variable is its nearest
// ancestor variable that is also forward, and forward variables are renumbered 0..nf-1 in qd
// order (`dof` maps the new numbers back). Ancestors have smaller numbers, so lambda'(k) < k.
inline std::vector<int> reduced_parent(const std::vector<int>& expanded, const std::vector<char>& forward_dof,
                                       std::vector<int>& dof) {
  const int n = static_cast<int>(expanded.size());
  std::vector<int> map(n, -1), lam;
  dof.clear();
  for (int k = 0; k < n; ++k) {
    if (!forward_dof[k]) continue;
    int j = expanded[k];
    while (j >= 0 && !forward_dof[j]) j = expanded[j];
    map[k] = static_cast<int>(dof.size());
    dof.push_back(k);
    lam.push_back(j < 0 ? -1 : map[j]);
  }
  return lam;
}

template <class S> struct HybridDynamicsWorkspace : ForwardDynamicsWorkspace<S> {
  // Depends on the split only (prepare()).
  ForwardJoints fd;             // the split these were made for
  std::vector<char> nu;         // nu(fd), per body (Eq. 9.5)
  std::vector<int> dof;         // forward variable k' -> its index in qd
  TreePattern pattern11;        // H_11's branch-induced pattern (Figure 9.1, expanded)
  PackedRows<S> rows11;         // H_11 packed, then its L^T D L factor
  MatX<S> H11;                  // H_11 dense (hybrid_crba_dense)
  // Its Cholesky factor, sized nf. Made in place by emplace(): Eigen's LLT(size) leaves its
  // info() unset, so assigning a temporary one would read an indeterminate value (UBSan).
  std::optional<Eigen::LLT<MatX<S>>> llt11;
  VecX<S> x1;                   // nf: right-hand side, then qdd_1
  // Per call.
  VecX<S> Cp;                   // C' = ID(q, qd, Q^T [0; qdd_2]) (Eq. 9.3)
  VecX<S> qdd_c;                // Q^T [0; qdd_2], then Q^T [qdd_1; 0] for ID_delta
  VecX<S> tau_d;                // ID_delta's output

  HybridDynamicsWorkspace() = default;
  explicit HybridDynamicsWorkspace(const Model<S>& m)
      : ForwardDynamicsWorkspace<S>(m), nu(m.nb, 0), Cp(VecX<S>::Zero(m.nv)), qdd_c(VecX<S>::Zero(m.nv)),
        tau_d(VecX<S>::Zero(m.nv)) {}

  // Derives nu(fd), H_11's pattern and sizes from the split; a no-op when it is the last one.
  void prepare(const Model<S>& m, const ForwardJoints& split) {
    if (static_cast<int>(split.size()) != m.nb)
      throw std::invalid_argument("hybrid dynamics: the split has " + std::to_string(split.size()) +
                                  " entries; the model has " + std::to_string(m.nb) + " joints");
    if (split == fd && !fd.empty()) return;
    fd = split;
    supported_by_forward(m.parent, fd, nu);
    std::vector<char> forward_dof(m.nv, 0);
    for (int i = 0; i < m.nb; ++i)
      for (int k = 0; k < m.joint[i].nv(); ++k) forward_dof[m.v_idx[i] + k] = fd[i] != 0;
    pattern11 = TreePattern(reduced_parent(expanded_parent(m), forward_dof, dof));
    const int nf = static_cast<int>(dof.size());
    rows11 = PackedRows<S>::Zero(pattern11.nonzeros());
    H11 = MatX<S>::Zero(nf, nf);
    llt11.emplace(nf);
    x1 = VecX<S>::Zero(nf);
  }
};

}  // namespace rbd
