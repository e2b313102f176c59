#pragma once
// Section 8.9: minimal loop clusters, the structure that makes K and G block-diagonal.
//
// Loop joint k's constraints involve only the tree joints on the path between p(k) and s(k)
// (Eq. 8.20: K_kj = 0 where epsilon_kj = 0), i.e. the joints met walking from both bodies
// towards the base until the walks meet. Two loops are coupled when their paths share a joint;
// a minimal cluster is a class of the transitive closure of that coupling. With the loops'
// rows and the joints' columns of K gathered by cluster, K is block-diagonal with gaps (the
// columns of joints on no path), and G is block-diagonal without gaps: one block G_i per K_i,
// an identity block per gap (Figure 8.1).
//
// The book renumbers the tree so that each cluster's joints are consecutive; here the
// permutation is kept as index lists instead (`rows`, `cols`), so the model's numbering, and
// every other variant's view of q, is left alone. The analysis depends on the loops' shape
// only (types, p, s), so ClosedLoopWorkspace::prepare() runs it once per shape.
#include <algorithm>
#include <numeric>
#include <vector>

#include "model/loop_joint.hpp"
#include "model/model.hpp"

namespace rbd {

struct LoopCluster {
  std::vector<int> loops;   // loop-joint indices, ascending
  std::vector<int> joints;  // tree joints (= bodies) on the cluster's loop paths, ascending
  std::vector<int> rows;    // K's rows of those loops, ascending
  std::vector<int> cols;    // K's columns (velocity variables) of those joints, ascending
};

struct LoopClusters {
  std::vector<LoopCluster> clusters;  // ordered by their first joint
  std::vector<int> free_cols;         // velocity variables on no loop's path: G's identity blocks
};

// The tree joints on loop joint L's path: from p and s towards the base, stopping where the two
// walks meet (the common ancestor's own joint is not on the path). Ascending.
template <class S> std::vector<int> loop_path(const Model<S>& m, const LoopJoint<S>& L) {
  std::vector<int> path;
  int i = L.p, j = L.s;
  while (i != j) {
    if (i > j) { path.push_back(i); i = m.parent[i]; }
    else { path.push_back(j); j = m.parent[j]; }
  }
  std::sort(path.begin(), path.end());
  return path;
}

// Minimal loop clusters of `loops` on m's spanning tree; row0[l] is loop l's first row in K.
template <class S>
LoopClusters minimal_loop_clusters(const Model<S>& m, const LoopJoints<S>& loops, const std::vector<int>& row0) {
  const int nl = static_cast<int>(loops.size());
  // Union-find over loops: each joint remembers the first loop whose path crossed it, and any
  // later loop crossing it joins that loop's class (a shared joint is the book's coupling).
  std::vector<int> root(nl);
  std::iota(root.begin(), root.end(), 0);
  auto find = [&](int l) {
    while (root[l] != l) l = root[l] = root[root[l]];
    return l;
  };
  std::vector<int> first_loop(m.nb, -1);
  std::vector<std::vector<int>> paths(nl);
  for (int l = 0; l < nl; ++l) {
    paths[l] = loop_path(m, loops[l]);
    for (int j : paths[l]) {
      if (first_loop[j] < 0) first_loop[j] = l;
      else root[find(l)] = find(first_loop[j]);
    }
  }
  LoopClusters out;
  std::vector<int> cluster_of_root(nl, -1);
  for (int l = 0; l < nl; ++l) {
    int& c = cluster_of_root[find(l)];
    if (c < 0) { c = static_cast<int>(out.clusters.size()); out.clusters.emplace_back(); }
    LoopCluster& C = out.clusters[c];
    C.loops.push_back(l);
    for (int r = 0; r < loops[l].nc(); ++r) C.rows.push_back(row0[l] + r);
    C.joints.insert(C.joints.end(), paths[l].begin(), paths[l].end());
  }
  std::vector<bool> on_path(m.nv, false);
  for (LoopCluster& C : out.clusters) {
    std::sort(C.joints.begin(), C.joints.end());
    C.joints.erase(std::unique(C.joints.begin(), C.joints.end()), C.joints.end());
    for (int j : C.joints)
      for (int c = 0; c < m.joint[j].nv(); ++c) {
        C.cols.push_back(m.v_idx[j] + c);
        on_path[m.v_idx[j] + c] = true;
      }
    std::sort(C.cols.begin(), C.cols.end());
  }
  // Every path has a joint (p != s), and every joint type has a freedom, so no cluster is empty.
  std::sort(out.clusters.begin(), out.clusters.end(), [](const LoopCluster& a, const LoopCluster& b) {
    const int ja = a.joints.empty() ? -1 : a.joints.front(), jb = b.joints.empty() ? -1 : b.joints.front();
    return ja != jb ? ja < jb : a.loops.front() < b.loops.front();
  });
  for (int v = 0; v < m.nv; ++v)
    if (!on_path[v]) out.free_cols.push_back(v);
  return out;
}

}  // namespace rbd
