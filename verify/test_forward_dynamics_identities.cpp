// Gate 2 for forward dynamics (DESIGN.md section 2): identities that need no oracle.
//  - FD(ID(qdd)) = qdd in double, within a budget scaled by cond2(H) (derived below);
//  - ID(FD(tau)) = tau in Reference to 1e-40 for every variant;
//  - the articulated-inertia transform of aba.hpp equals X^T M X with the 6x6 matrices.
#include <catch2/catch.hpp>

#include <Eigen/Eigenvalues>

#include <map>
#include <string>

#include "bias/variants.hpp"
#include "cases/registry.hpp"
#include "cases/random.hpp"
#include "cases/shapes.hpp"
#include "forward_dynamics/variants.hpp"
#include "inverse_dynamics/rnea_spatial.hpp"
#include "mass_matrix/crba.hpp"
#include "reference/reference_scalar.hpp"
#include "verify/support/families.hpp"
#include "verify/support/family_table.hpp"

namespace test_forward_dynamics_identities {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

using namespace rbd;
using namespace rbd::verify;

namespace {
constexpr double eps = std::numeric_limits<double>::epsilon();
}

TEST_CASE("aba's articulated-inertia transform adds X^T M X", "[forward_dynamics]") {
  cases::Rng rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    Transform<double> X;
    const Vec3<double> axis = rng.unit_vector();
    const double th = rng.uniform(-3, 3);
    X.E = rot_axis<double>(axis, std::cos(th), std::sin(th));
    X.r = Vec3<double>(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1));
    Mat6<double> M;
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) M(i, j) = rng.uniform(-1, 1);
    M = (M + M.transpose()).eval();
    const Mat6<double> want = X.matrix().transpose() * M * X.matrix();
    // congruence_add adds into an accumulator: start from a symmetric G, compare acc - G.
    // Budget 1e-13 relative: both sides are sums of at most ~20 products of entries of size
    // <= ~4 (|M_ij| <= 2, |r| <= sqrt(3)), so each carries a few hundred eps = ~1e-14.
    Mat6<double> G;
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) G(i, j) = rng.uniform(-1, 1);
    G = (G + G.transpose()).eval();
    Mat6<double> acc = G;
    aba_detail::congruence_add<double>(X, M, acc);
    CHECK((acc - G - want).norm() <= 1e-13 * (want.norm() + G.norm()));
    CHECK(acc == acc.transpose());  // symmetric to the last bit: one triangle computed, mirrored
    // add_apply_transpose is apply_transpose then a sum, to the last bit.
    const Vec6<double> f = M.col(0), f0 = G.col(1);
    Vec6<double> facc = f0;
    aba_detail::add_apply_transpose<double>(X, f, facc);
    CHECK(facc == Vec6<double>(f0 + X.apply_transpose(f)));
  }
}

// FD(ID(qdd)) = qdd in double. Budget, from first-order perturbation theory: the computed
// qdd' solves (H + dH) qdd' = (tau + dtau) - (C + dC) exactly for some small dH, dtau, dC, so
// qdd' - qdd = H^-1 (dtau - dC - dH qdd') and
//   ||qdd' - qdd|| / ||qdd|| <= cond2(H) * eta * (1 + (||tau|| + ||C||) / (||H||_2 ||qdd||)),
// where eta bounds the relative size of dH, dtau, dC. The recursions give each of H, C and
// tau to 16 (d + 1) eps of the size of their terms (verify/accuracy_sweep.cpp), tau and the
// right-hand side of FD count twice (ID's output, FD's own C), and the solve adds a backward
// error of ~4 nv eps (Higham, Thm. 10.4, constant rounded up):
//   eta = (32 (d + 1) + 4 nv) eps.
// ABA is not a solve with H, but it computes the same qdd from the same data with the same
// recursions' round-off per level, so the same perturbation bound applies. cond2(H) comes from
// a self-adjoint eigen-decomposition of the CRBA's H in double. The bound is a worst case:
// the measured ratio error / budget is printed (WARN) and is far below 1.
TEST_CASE("FD(ID(qdd)) = qdd in double within cond(H)-scaled round-off", "[identities][forward_dynamics]") {
  std::map<std::string, double> worst_ratio;
  for (const auto& spec : cases::verify_cases()) {
    const Model<double> m = spec.build();
    Workspace<double> ws(m);
    ForwardDynamicsWorkspace<double> fws(m);
    for (int seed = 1; seed <= 5; ++seed) {
      const auto x = cast_state<double>(m, cases::random_state(m, seed));
      VecX<double> tau(m.nv), C(m.nv);
      RneaSpatial::run<double>(m, x.q, x.qd, x.qdd, &x.f_ext, tau, ws);
      BiasFrom<RneaSpatial>::run<double>(m, x.q, x.qd, &x.f_ext, C, ws);
      MatX<double> H = MatX<double>::Zero(m.nv, m.nv);
      Crba::run<double>(m, x.q, H, ws);
      const VecX<double> ev = Eigen::SelfAdjointEigenSolver<MatX<double>>(H, Eigen::EigenvaluesOnly).eigenvalues();
      const double normH = ev[m.nv - 1], cond = ev[m.nv - 1] / ev[0];
      const double eta = (32.0 * (m.depth() + 1) + 4.0 * m.nv) * eps;
      const double budget = cond * eta * (1 + (tau.norm() + C.norm()) / (normH * x.qdd.norm()));
      for_each_type<ForwardDynamicsVariants>([&]<class V>() {
        if (!V::template applicable<double>(m)) return;  // e.g. aba_floating on a fixed base
        VecX<double> qdd(m.nv);
        V::template run<double>(m, x.q, x.qd, tau, &x.f_ext, qdd, fws);
        const double err = (qdd - x.qdd).norm() / x.qdd.norm();
        INFO(V::name << " on " << spec.id << " seed " << seed << ": error " << err / eps << " eps, cond(H) "
                     << cond << ", budget " << budget / eps << " eps");
        CHECK(err <= budget);
        double& w = worst_ratio[std::string(V::name)];
        w = std::max(w, err / budget);
      });
    }
  }
  for (const auto& [name, r] : worst_ratio) WARN("FD(ID(qdd)) " << name << ": worst error / budget = " << r);
}

// In Reference through the compiled family table (verify/support/family_table.hpp): the same
// variants, without instantiating them in Reference again in this file.
TEST_CASE("ID(FD(tau)) = tau in Reference for every forward-dynamics variant", "[identities][forward_dynamics]") {
  using R = Reference;
  const VariantEntry& rnea = variant_named(inverse_dynamics_family(), RneaSpatial::name);
  const VariantEntry& bias = variant_named(bias_family(), BiasFrom<RneaSpatial>::name);
  for (const auto& spec : cases::verify_cases()) {
    const Model<double> md = spec.build();
    const Model<R> m = md.cast<R>();
    Workspace<R> ws(m);
    const auto x = cast_state<R>(m, cases::random_state(md, 9));
    for (const VariantEntry& fd : forward_dynamics_family().variants) {
      if (!fd.applicable_in_reference(m)) continue;
      StateOf<R> y = x;
      y.qdd = fd.in_reference(m, x, ws);
      const VecX<R> tau = rnea.in_reference(m, y, ws);
      INFO(fd.name << " on " << spec.id);
      // Relative to the size of the terms that cancel in tau (|C| includes gravity).
      const VecX<R> C = bias.in_reference(m, x, ws);
      CHECK((tau - x.tau).norm() <= R("1e-40") * (x.tau.norm() + C.norm()));
    }
  }
}

// Table 7.2, variant 2 (section 7.4: "the variant formula for I^A must be equal to the
// standard formula"): body i's contribution to its parent's articulated inertia is the same
// from S (Eq. 7.47) and from the implicit constraint T (aba_implicit.hpp, (iv)):
//   I2 - I2 S (S^T I2 S)^-1 S^T I2 = T (T^T I2^-1 T)^-1 T^T,
// for every joint type (axis-aligned and general axes), S from jcalc, T and T_a from
// joint_force_subspaces (forward_dynamics/workspace.hpp), and random SPD I2, in Reference.
// Both sides are formed with Eigen's LLT (not the variant's own L D L^T inverse).
// Tolerance 1e-45 relative to |I2|_F: Reference carries 50 decimal digits (unit round-off
// u ~ 1e-50); each side is a handful of Cholesky factorizations and solves of size <= 6, whose
// error is bounded by ~c n^2 cond(I2) u with cond(I2) <= 37 here (I2 = M M^T + 1, |M_ij| <= 1:
// eigenvalues in [1, 37]), i.e. ~1e-47; 1e-45 leaves a factor 100 of margin and still tells a
// wrong formula (an O(1) difference) from round-off by 45 orders of magnitude.
// Also T^T S = 0 (Eq. 3.36), T_a^T S = 1 (Eq. 3.35) and T^T T = 1 to the same tolerance.
TEST_CASE("Table 7.2 variant 2: I2 - I2 S (S^T I2 S)^-1 S^T I2 = T (T^T I2^-1 T)^-1 T^T per joint type (Reference)",
          "[forward_dynamics]") {
  using R = Reference;
  cases::Rng rng(72);
  const R tol("1e-45");
  for (JointType type : kAllJointTypes)
    for (int axis = -1; axis <= 2; ++axis) {
      const bool has_axis = type == JointType::Revolute || type == JointType::Prismatic ||
                            type == JointType::Helical || type == JointType::Cylindrical;
      if (!has_axis && axis != 2) continue;
      const Vec3<double> a = axis < 0 ? rng.unit_vector() : Vec3<double>::Unit(axis);
      const Joint<R> joint = cases::make_joint(type, a, type == JointType::Helical ? 0.125 : 0.0).cast<R>();
      Eigen::Matrix<R, 7, 1> q0 = Eigen::Matrix<R, 7, 1>::Zero();
      if (type == JointType::Spherical || type == JointType::Free) q0[0] = R(1);
      JointKinematics<R> J;
      jcalc_position(joint, q0, J);
      const MatX<R> Sm = J.S_;
      Mat6N<R> Tf, Taf;
      joint_force_subspaces<R>(J.S_, Tf, Taf);
      const MatX<R> T = Tf, Ta = Taf;
      const Eigen::Index n = Sm.cols(), m = T.cols();
      INFO(joint_type_name(type) << " axis " << axis);
      REQUIRE(m == 6 - n);
      CHECK((T.transpose() * Sm).norm() <= tol);
      CHECK((Ta.transpose() * Sm - MatX<R>::Identity(n, n)).norm() <= tol);
      CHECK((T.transpose() * T - MatX<R>::Identity(m, m)).norm() <= tol);
      for (int trial = 0; trial < 5; ++trial) {
        MatX<R> M(6, 6);
        for (int r = 0; r < 6; ++r)
          for (int c = 0; c < 6; ++c) M(r, c) = R(rng.uniform(-1, 1));
        const MatX<R> I2 = M * M.transpose() + MatX<R>::Identity(6, 6);
        const MatX<R> U = I2 * Sm;
        const MatX<R> standard = I2 - U * Eigen::LLT<MatX<R>>(Sm.transpose() * U).solve(MatX<R>(U.transpose()));
        MatX<R> variant = MatX<R>::Zero(6, 6);
        if (m > 0) {
          const MatX<R> K = T.transpose() * Eigen::LLT<MatX<R>>(I2).solve(T);
          variant = T * Eigen::LLT<MatX<R>>(K).solve(MatX<R>(T.transpose()));
        }
        CHECK((standard - variant).norm() <= tol * I2.norm());
      }
    }
}

// aba_implicit's per-body articulated quantities I^A_i and p^A_i (left in the workspace by
// pass 2) equal aba's (Table 7.1), body by body, on every joint type alone at a fixed base
// (cases::joint_cases) and on the all-joints tree (free-joint root, multi-DoF joints mid-tree),
// with external forces, in Reference. Tolerance 1e-42 relative to the body's |I^A_i|, |p^A_i|:
// both recursions pass ~10^3 roundings of u ~ 1e-50 per level through at most 5 levels, and
// aba_implicit's two SPD inverses per body amplify them by cond(I^A_i), cond(K) (<= ~1e3 for
// these random bodies), so round-off stays below ~1e-44 while a wrong term would be O(1).
TEST_CASE("aba_implicit: per-body I^A_i, p^A_i equal aba's (Reference)", "[forward_dynamics]") {
  using R = Reference;
  std::vector<Model<double>> models = {cases::all_joints_tree()};
  for (const auto& [id, md] : cases::each_joint_alone()) models.push_back(md);
  for (const Model<double>& md : models) {
    const Model<R> m = md.cast<R>();
    const auto x = cast_state<R>(m, cases::random_state(md, 5));
    ForwardDynamicsWorkspace<R> wa(m), wi(m);
    VecX<R> qa(m.nv), qi(m.nv);
    Aba::run<R>(m, x.q, x.qd, x.tau, &x.f_ext, qa, wa);
    AbaImplicit::run<R>(m, x.q, x.qd, x.tau, &x.f_ext, qi, wi);
    for (int i = 0; i < m.nb; ++i) {
      INFO(md.name << " body " << i << " (" << joint_type_name(m.joint[i].type) << ")");
      CHECK((wa.IA[i] - wi.IA[i]).norm() <= R("1e-42") * wa.IA[i].norm());
      CHECK((wa.pA[i] - wi.pA[i]).norm() <= R("1e-42") * wa.pA[i].norm());
    }
    CHECK((qa - qi).norm() <= R("1e-42") * qa.norm());
  }
}

// aba_inverse_inertia (Table 7.2, variant 1) builds each body's articulated-body inverse inertia
// Phi^A_i and bias acceleration b^A_i by its own assembly formulae, never forming an I^A. Section
// 7.4's identities: Phi^A_i is the inverse of aba's I^A_i (Table 7.1), and a = Phi^A f + b^A is
// f = I^A a + p^A solved for a, so I^A_i b^A_i + p^A_i = 0. Same models and tolerance argument as
// above: each body's Phi^A passes through at most 5 levels of assembly with two 6x6 SPD inverses
// per level (cond <= ~1e3 for these random bodies), so round-off stays below ~1e-44 of |I^A| |Phi^A|
// = O(cond) while a wrong term would be O(1).
TEST_CASE("aba_inverse_inertia: Phi^A_i = (I^A_i)^-1 and I^A_i b^A_i = -p^A_i, body by body (Reference)",
          "[forward_dynamics]") {
  using R = Reference;
  std::vector<Model<double>> models = {cases::all_joints_tree()};
  for (const auto& [id, md] : cases::each_joint_alone()) models.push_back(md);
  for (const Model<double>& md : models) {
    const Model<R> m = md.cast<R>();
    const auto x = cast_state<R>(m, cases::random_state(md, 5));
    ForwardDynamicsWorkspace<R> wa(m), wv(m);
    VecX<R> qa(m.nv), qv(m.nv);
    Aba::run<R>(m, x.q, x.qd, x.tau, &x.f_ext, qa, wa);
    AbaInverseInertia::run<R>(m, x.q, x.qd, x.tau, &x.f_ext, qv, wv);
    for (int i = 0; i < m.nb; ++i) {
      INFO(md.name << " body " << i << " (" << joint_type_name(m.joint[i].type) << ")");
      const Mat6<R> product = wa.IA[i] * wv.Phi[i];
      CHECK((product - Mat6<R>::Identity()).norm() <= R("1e-42") * wa.IA[i].norm() * wv.Phi[i].norm());
      CHECK((wa.IA[i] * wv.b[i] + wa.pA[i]).norm() <= R("1e-42") * (wa.IA[i].norm() * wv.b[i].norm() + wa.pA[i].norm()));
    }
    CHECK((qa - qv).norm() <= R("1e-42") * qa.norm());
  }
}

// dca (section 7.5) finds every joint's constraint force T lambda on its way down the assembly
// tree (Eq. 7.62) and every body's acceleration from its handle forces. Both are checked body by
// body against the RNEA (Table 5.1), which knows nothing of handles: at dca's own qdd, the force
// across joint i is f_i = T_a tau_i + T lambda_i (Eq. 3.34 with the active force put back), and
// a_i is the RNEA's body acceleration (both with gravity as the base's -a_g).
// Chains: GU(7), the DH arm, and one body on each joint type (T of every width, the free joint's
// empty T included). Trees, where subassemblies carry three and more handles: the complete binary
// tree, the alternating 1-2 tree, the skewed tree, the floating humanoid (five limbs on a torso
// with a free joint), and a forest of three bodies on the base (the base a handle of several joins). Tolerance as above: a few levels of 6x6 SPD inverses on bodies with
// cond <= ~1e3, far below 1e-40 of the terms, while a wrong sign or transform is O(1).
TEST_CASE("dca: each joint's force T_a tau + T lambda and each body's acceleration = the RNEA's, chains and trees (Reference)",
          "[forward_dynamics]") {
  using R = Reference;
  std::vector<Model<double>> models = {cases::build_case("gu:7"), cases::build_case("dh:puma_like")};
  for (const char* id : {"tree:bf=2:nb=15", "tree:bf=1.5:nb=12", "tree:bf=2:nb=7:skew=0.5:taper=0.9", "humanoid"})
    models.push_back(cases::build_case(id));
  for (const auto& [id, md] : cases::each_joint_alone()) models.push_back(md);
  {  // every joint type inside one chain, so that assemblies join across joints of every T width
    cases::Rng rng(77);
    ModelBuilder mb("mixed_chain");
    mb.gravity(Vec3<double>(0.3, -1.1, -9.81));
    const JointType types[] = {JointType::Revolute, JointType::Spherical, JointType::Prismatic, JointType::Free,
                               JointType::Cylindrical, JointType::Helical, JointType::Planar, JointType::Revolute};
    int parent = -1;
    for (const JointType t : types) {
      const Joint<double> j = cases::make_joint(t, rng.unit_vector(), t == JointType::Helical ? 0.1 : 0.0);
      parent = cases::add(mb, std::string(joint_type_name(t)) + std::to_string(parent + 1), parent, j,
                          cases::random_xtree(rng), cases::random_body(rng));
    }
    models.push_back(mb.finish());
  }
  {  // bodies 0, 2 and 3 hang from the base: the base's leaf joins three times
    cases::Rng rng(78);
    ModelBuilder mb("forest");
    const int parents[] = {-1, 0, -1, -1, 3, 1};
    const JointType types[] = {JointType::Revolute, JointType::Spherical, JointType::Prismatic,
                               JointType::Free, JointType::Revolute, JointType::Cylindrical};
    for (int i = 0; i < 6; ++i)
      cases::add(mb, "forest" + std::to_string(i), parents[i], cases::make_joint(types[i], rng.unit_vector(), 0.0),
                 cases::random_xtree(rng), cases::random_body(rng));
    models.push_back(mb.finish());
  }
  int checked = 0;
  for (const Model<double>& md : models) {
    REQUIRE(Dca::applicable(md));
    const Model<R> m = md.cast<R>();
    const auto x = cast_state<R>(m, cases::random_state(md, 6));
    ForwardDynamicsWorkspace<R> wd(m);
    Workspace<R> wr(m);
    VecX<R> qdd(m.nv), tau(m.nv);
    Dca::run<R>(m, x.q, x.qd, x.tau, &x.f_ext, qdd, wd);
    RneaSpatial::run<R>(m, x.q, x.qd, qdd, &x.f_ext, tau, wr);
    CHECK((tau - x.tau).norm() <= R("1e-40") * (x.tau.norm() + R(1)));
    for (int i = 0; i < m.nb; ++i) {
      INFO(md.name << " body " << i << " (" << joint_type_name(m.joint[i].type) << ")");
      const Vec6<R> active = wd.Ta[i] * VecX<R>(x.tau.segment(m.v_idx[i], wd.Ta[i].cols()));
      const Vec6<R> f = active + wd.dca.f_joint[i];
      CHECK((f - wr.f[i]).norm() <= R("1e-40") * (wr.f[i].norm() + R(1)));
      CHECK((wd.a[i] - wr.a[i]).norm() <= R("1e-40") * (wr.a[i].norm() + R(1)));
      ++checked;
    }
  }
  CHECK(checked >= 18 + 15 + 12 + 7 + 6);
}

// The point of dca is the depth of its assembly tree (section 7.5: O(log N_B) on a parallel
// machine). On a chain of nb bodies the edge-centroid split is halving, then the base joins last,
// so the depth is exactly ceil(log2(nb)) + 1 and no subassembly has more than the two handles of
// Eq. 7.59. On the complete binary tree of 63 bodies no edge halves every part: measured depth 8
// against ceil(log2(63)) + 1 = 7, held to twice the chain's depth. The humanoid is a case where
// a subassembly carries three handles, so the RNEA comparison above exercises handle sets beyond
// the book's two.
TEST_CASE("dca: the assembly tree is balanced, with Eq. 7.59's two handles on a chain", "[forward_dynamics]") {
  auto shape = [](const std::vector<DcaNode>& tree) {
    std::vector<int> depth(tree.size(), 0);
    std::size_t handles = 0;
    for (std::size_t k = 0; k < tree.size(); ++k) {
      handles = std::max(handles, tree[k].handles.size());
      if (tree[k].left >= 0) depth[k] = 1 + std::max(depth[tree[k].left], depth[tree[k].right]);
    }
    return std::pair<int, std::size_t>(depth.back(), handles);
  };
  for (int nb : {1, 2, 3, 7, 8, 30, 31}) {
    std::vector<int> parent(nb);
    for (int i = 0; i < nb; ++i) parent[i] = i - 1;
    const auto tree = dca_assembly_tree(parent);
    REQUIRE(tree.size() == static_cast<std::size_t>(2 * nb + 1));
    CHECK(tree.back().handles.empty());
    const auto [depth, handles] = shape(tree);
    INFO("chain of " << nb);
    CHECK(depth == static_cast<int>(std::ceil(std::log2(double(nb)))) + 1);
    CHECK(handles <= 2);
  }
  const Model<double> bt = cases::build_case("tree:bf=2:nb=63");
  const auto [bt_depth, bt_handles] = shape(dca_assembly_tree(bt.parent));
  CHECK(bt_depth <= 2 * (static_cast<int>(std::ceil(std::log2(double(bt.nb)))) + 1));
  const auto humanoid_tree = dca_assembly_tree(cases::build_case("humanoid").parent);
  CHECK(humanoid_tree.back().handles.empty());
  CHECK(shape(humanoid_tree).second >= 3);
  CHECK_THROWS_WITH(dca_assembly_tree({-1, 1}), Catch::Contains("parent[1] = 1"));
}

}  // namespace test_forward_dynamics_identities
