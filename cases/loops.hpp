#pragma once
// Loop joints for the closed-loop family's cases (Featherstone chapter 8), built so that a
// given state closes them exactly in whatever precision the caller works in.
//
// A LoopSpec is drawn in double (cases/states.hpp, after every other draw): the bodies p and
// s, the type, the successor frame X_S (a random rotation and offset on body s) and the loop
// joint's own coordinates qJ. The predecessor frame is not drawn: close_loops() solves
// Eq. 8.24 for it at the state's q, in the target scalar,
//   X_S ^sX_p X_P^-1 = XJ(qJ)   =>   X_P = XJ(qJ)^-1 X_S ^sX_p,
// so the loop closes to the working precision (50 digits in Reference), not to the 16 digits
// a double X_P cast up would give, which the exactness gate would see as a disagreement.
// consistent_velocity() then projects qd orthogonally onto K's null space in the same scalar,
// so the state closes the loops at the velocity level too (Eq. 8.9).
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "cases/random.hpp"
#include "closed_loop_dynamics/elimination.hpp"
#include "closed_loop_dynamics/loop_subspaces.hpp"
#include "closed_loop_dynamics/steps.hpp"

namespace rbd::cases {

struct LoopSpec {
  LoopJointType type = LoopJointType::Weld;
  int p = -1, s = 0;
  Eigen::Vector4d XS_quaternion{1, 0, 0, 0};  // rotation of X_S, [w x y z]
  Vec3<double> XS_offset = Vec3<double>::Zero();
  std::array<double, 4> qJ{0, 0, 0, 0};
  double pitch = 0;
  std::string name;  // "" = "random loop <index>"
};

// The fixed loop the op counts and the benchmarks use on a chain of nb bodies: a spherical joint
// from a point of the tip body to the base (close_loops solves its base frame at the state's q),
// which on GU(n) locks the chain for n < 4.
inline LoopSpec chain_tip_loop(int nb) {
  LoopSpec spec;
  spec.type = LoopJointType::Spherical;
  spec.p = -1;
  spec.s = nb - 1;
  spec.XS_offset = Vec3<double>(0.1, 0.05, -0.02);
  spec.qJ = {1, 0, 0, 0};
  return spec;
}

// ^iX_0 of every body at q (the tree's forward kinematics, Eq. 4.x's X_J X_T chain).
template <class S> std::vector<Transform<S>> body_transforms(const Model<S>& m, const VecX<S>& q) {
  std::vector<Transform<S>> X0(m.nb);
  JointKinematics<S> jk;
  for (int i = 0; i < m.nb; ++i) {
    jk.S_.resize(6, m.joint[i].nv());
    Transform<S> Xup;
    jcalc_xup(m.joint[i], q.segment(m.q_idx[i], m.joint[i].nq()), m.Xtree[i], jk, Xup);
    X0[i] = m.parent[i] < 0 ? Xup : Xup * X0[m.parent[i]];
  }
  return X0;
}

// The loop joints of `specs`, with X_P solved from Eq. 8.24 at q, in S.
template <class S>
LoopJoints<S> close_loops(const Model<S>& m, const VecX<S>& q, const std::vector<LoopSpec>& specs) {
  const std::vector<Transform<S>> X0 = body_transforms<S>(m, q);
  auto c = [](double v) { return scalar_cast<S>(v); };
  LoopJoints<S> out;
  for (std::size_t l = 0; l < specs.size(); ++l) {
    const LoopSpec& L = specs[l];
    LoopJoint<S> J;
    J.type = L.type; J.p = L.p; J.s = L.s; J.pitch = c(L.pitch);
    J.name = L.name.empty() ? "random loop " + std::to_string(l) : L.name;
    Eigen::Matrix<S, 4, 1> u = L.XS_quaternion.unaryExpr(c);
    u /= sqrt_(S(u.squaredNorm()));  // unit in S's precision
    J.XS.E = quat_to_matrix<S>(u[0], u[1], u[2], u[3]).transpose();
    J.XS.r = L.XS_offset.unaryExpr(c);
    S qJ[4] = {c(L.qJ[0]), c(L.qJ[1]), c(L.qJ[2]), c(L.qJ[3])};
    if (L.type == LoopJointType::Spherical) {
      const S n = sqrt_(S(qJ[0] * qJ[0] + qJ[1] * qJ[1] + qJ[2] * qJ[2] + qJ[3] * qJ[3]));
      for (S& x : qJ) x /= n;
    }
    const Transform<S> XJ = loops::loop_joint_transform<S>(L.type, J.pitch, qJ);
    const Transform<S> Xsp = L.p < 0 ? X0[L.s] : X0[L.s] * X0[L.p].inverse();  // ^sX_p
    J.XP = XJ.inverse() * J.XS * Xsp;
    out.push_back(J);
  }
  return out;
}

// 1 or 2 loop joints (2 with probability 1/2 when the model has 2 bodies or more) between
// random distinct bodies, the base included as predecessor; every type of
// model/loop_joint.hpp equally likely. Offsets and loop-joint displacements in [-0.3, 0.3],
// angles in [-pi, pi], helical pitch in [-0.2, 0.2]. Draws that would lock the tree or whose
// redundancy is a coincidence of the model's numbers are thinned (see the end).
inline std::vector<LoopSpec> draw_loops(const Model<double>& m, const VecX<double>& q, Rng& rng) {
  std::vector<LoopSpec> out;
  const int count = m.nb >= 2 && rng.uniform(0, 1) < 0.5 ? 2 : 1;
  auto pick = [&](int lo, int hi) {  // uniform integer in [lo, hi]
    return std::min(lo + static_cast<int>(rng.uniform(0, 1) * (hi - lo + 1)), hi);
  };
  for (int l = 0; l < count; ++l) {
    LoopSpec L;
    L.type = kAllLoopJointTypes[pick(0, 6)];
    L.s = pick(0, m.nb - 1);
    do L.p = pick(-1, m.nb - 1); while (L.p == L.s);
    L.XS_quaternion = rng.unit_quaternion();
    for (int c = 0; c < 3; ++c) L.XS_offset[c] = rng.uniform(-0.3, 0.3);
    const double pi = 3.141592653589793;
    switch (L.type) {
      case LoopJointType::Weld: break;
      case LoopJointType::Revolute: L.qJ[0] = rng.uniform(-pi, pi); break;
      case LoopJointType::Prismatic: L.qJ[0] = rng.uniform(-0.3, 0.3); break;
      case LoopJointType::Helical: L.qJ[0] = rng.uniform(-pi, pi); L.pitch = rng.uniform(-0.2, 0.2); break;
      case LoopJointType::Cylindrical: L.qJ[0] = rng.uniform(-pi, pi); L.qJ[1] = rng.uniform(-0.3, 0.3); break;
      case LoopJointType::Planar:
        L.qJ[0] = rng.uniform(-pi, pi);
        L.qJ[1] = rng.uniform(-0.3, 0.3);
        L.qJ[2] = rng.uniform(-0.3, 0.3);
        break;
      case LoopJointType::Spherical: {
        const Eigen::Vector4d u = rng.unit_quaternion();
        for (int c = 0; c < 4; ++c) L.qJ[c] = u[c];
        break;
      }
    }
    out.push_back(L);
  }
  // The rank K has at q, in double, on the model and on a copy whose tree transforms are turned
  // and moved by ~1e-2 (a fixed seed of its own: the state's draws are not touched).
  auto rank_on = [&](const Model<double>& model) {
    ClosedLoopWorkspace<double> ws(model);
    const VecX<double> zero = VecX<double>::Zero(model.nv);
    loops::tree_and_loop_terms<double>(model, close_loops<double>(model, q, out), q, zero, zero, nullptr, ws);
    loops::eliminate<double>(ws);
    return ws.rank;
  };
  Model<double> moved = m;
  Rng jiggle(0x100b5);
  for (int i = 0; i < m.nb; ++i) {
    const Vec3<double> w(jiggle.uniform(-1e-2, 1e-2), jiggle.uniform(-1e-2, 1e-2), jiggle.uniform(-1e-2, 1e-2));
    moved.Xtree[i].E = rot_axis<double>(w.normalized(), std::cos(w.norm()), std::sin(w.norm())) * m.Xtree[i].E;
    for (int c = 0; c < 3; ++c) moved.Xtree[i].r[c] += jiggle.uniform(-1e-2, 1e-2);
  }
  // Two kinds of draw are dropped, a loop at a time from the last:
  //  - one that locks the tree (rank K = nv): qdd is then fixed by the constraints alone, and
  //    zero at qd = 0, which no relative error can be measured against;
  //  - one whose constraints are dependent only through a coincidence of the model's geometry
  //    (rank K on the model below the rank on the moved copy). A real robot's model has such
  //    coincidences to the last bit of its doubles (a URDF's pi/2 leaves cos = 6e-17 in a
  //    rotation), so the dependence is exact in double but broken at 1e-17 in Reference: the two
  //    precisions would then see different ranks, i.e. different mechanisms, and no precision
  //    can be compared with the other. Dependence that the tree's structure forces (a loop
  //    across fewer joint freedoms than it has constraints) is the same on the moved copy, exact
  //    in every precision, and kept: redundant constraints are a case to cover.
  while (!out.empty()) {
    const int r = rank_on(m);
    if (r < m.nv && r == rank_on(moved)) break;
    out.pop_back();
  }
  return out;
}

// qd projected orthogonally onto null(K) at q: G (G^T G)^-1 G^T qd with section 8.8's G
// (K from Table 8.4). Returns qd unchanged when there are no loops; zero when K locks the tree.
template <class S>
VecX<S> consistent_velocity(const Model<S>& m, const LoopJoints<S>& loops, const VecX<S>& q, const VecX<S>& qd) {
  ClosedLoopWorkspace<S> ws(m);
  loops::tree_and_loop_terms<S>(m, loops, q, qd, VecX<S>::Zero(m.nv), nullptr, ws);
  loops::eliminate<S>(ws);
  loops::null_space_form<S>(ws);
  const int ny = m.nv - ws.rank;
  if (ny == 0) return VecX<S>::Zero(m.nv);
  const MatX<S> G = ws.G.leftCols(ny);
  const MatX<S> GtG = G.transpose() * G;
  const VecX<S> y = GtG.llt().solve(VecX<S>(G.transpose() * qd));
  return G * y;
}

}  // namespace rbd::cases
