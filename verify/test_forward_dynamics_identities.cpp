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
#include "forward_dynamics/variants.hpp"
#include "inverse_dynamics/rnea_spatial.hpp"
#include "mass_matrix/crba.hpp"
#include "reference/reference_scalar.hpp"
#include "verify/support/families.hpp"
#include "verify/support/family_table.hpp"

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
