// The hybrid-dynamics family (Featherstone section 9.1-9.2) beyond gate 1's random splits
// (test_exactness.cpp): the two limits the book names (every joint forward is forward dynamics,
// none is inverse dynamics), the given values passed through untouched, nu(fd) and Figure 9.1's
// reduced parent array on hand-derived trees, section 9.1's humanoid use (prescribed legs,
// free arms and floating base), a manipulator with a passive wrist (with the RNEA as a second
// witness), and a split of the wrong size refused. Reference values come from the compiled
// family table (verify/support/family_table.hpp): this file instantiates the variants in double
// only.
#include <catch2/catch.hpp>

#include "cases/registry.hpp"
#include "forward_dynamics/aba.hpp"
#include "hybrid_dynamics/variants.hpp"
#include "inverse_dynamics/rnea_spatial.hpp"
#include "mass_matrix/crba.hpp"
#include "verify/support/budgets.hpp"
#include "verify/support/families.hpp"
#include "verify/support/family_table.hpp"
#include "verify/support/metrics.hpp"

namespace test_hybrid_dynamics {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

using namespace rbd;
using namespace rbd::verify;

namespace {

struct HybridResult {
  VecX<double> qdd, tau;
};
template <class V>
HybridResult run_hybrid(const Model<double>& m, const cases::State& s, const ForwardJoints& fd) {
  HybridDynamicsWorkspace<double> ws(m);
  HybridResult r{s.qdd, s.tau};
  V::template run<double>(m, s.q, s.qd, fd, r.qdd, r.tau, &s.f_ext, ws);
  return r;
}

// Digits of the Reference variant against the oracle with the split `fd` (not the state's).
double reference_digits(const Model<double>& md, const cases::State& s, const ForwardJoints& fd, std::string_view variant) {
  const Model<Reference> m = md.template cast<Reference>();
  StateOf<Reference> x = cast_state<Reference>(m, s);
  x.forward = fd;
  Workspace<Reference> ws(m);
  const FamilyEntry& family = hybrid_dynamics_family();
  return exact_digits(rel_diff(variant_named(family, variant).in_reference(m, x, ws), family.oracle(m, x)));
}

}  // namespace

TEST_CASE("hybrid dynamics: every joint forward is ABA, bit for bit (hybrid_aba runs ABA's own steps)", "[hybrid_dynamics]") {
  for (const auto& spec : cases::verify_cases()) {
    const Model<double> m = spec.build();
    for (int seed = 1; seed <= 2; ++seed) {
      const cases::State s = cases::random_state(m, seed);
      const HybridResult h = run_hybrid<HybridAba>(m, s, ForwardJoints(m.nb, 1));
      ForwardDynamicsWorkspace<double> ws(m);
      VecX<double> qdd(m.nv);
      Aba::run<double>(m, s.q, s.qd, s.tau, &s.f_ext, qdd, ws);
      INFO(spec.id << " seed " << seed);
      CHECK((h.qdd.array() == qdd.array()).all());
      CHECK((h.tau.array() == s.tau.array()).all());  // every tau was given
    }
  }
}

TEST_CASE("hybrid dynamics: no joint forward is the RNEA, bit for bit for the CRBA routes (C' is the RNEA, nothing is solved)",
          "[hybrid_dynamics]") {
  for (const auto& spec : cases::verify_cases()) {
    const Model<double> m = spec.build();
    const cases::State s = cases::random_state(m, 1);
    Workspace<double> ws(m);
    VecX<double> tau(m.nv);
    RneaSpatial::run<double>(m, s.q, s.qd, s.qdd, &s.f_ext, tau, ws);
    const ForwardJoints none(m.nb, 0);
    for (const HybridResult& h : {run_hybrid<HybridCrbaSparse>(m, s, none), run_hybrid<HybridCrbaDense>(m, s, none)}) {
      INFO(spec.id);
      CHECK((h.tau.array() == tau.array()).all());
      CHECK((h.qdd.array() == s.qdd.array()).all());  // every qdd was given
    }
  }
}

TEST_CASE("hybrid dynamics: both limits in Reference agree with the oracle to 40 digits for every variant", "[hybrid_dynamics]") {
  // 40 digits: gate 1's threshold (verify/support/exactness.hpp). The oracle with every joint
  // forward is the forward-dynamics solve, with none the inverse dynamics (oracles.hpp).
  for (const char* id : {"tree:bf=2:nb=7", "all_joints", "humanoid"}) {
    const Model<double> m = cases::build_case(id);
    const cases::State s = cases::random_state(m, 2);
    for (const char* v : {"hybrid_aba", "hybrid_crba_sparse", "hybrid_crba_dense"})
      for (const char fwd : {char(0), char(1)}) {
        const double d = reference_digits(m, s, ForwardJoints(m.nb, fwd), v);
        INFO(id << " " << v << (fwd ? " all forward" : " none forward") << ": " << d << " digits");
        CHECK(d >= 40);
      }
  }
}

TEST_CASE("hybrid dynamics: the given qdd (inverse joints) and tau (forward joints) come back untouched", "[hybrid_dynamics]") {
  for (const auto& spec : cases::verify_cases()) {
    const Model<double> m = spec.build();
    const cases::State s = cases::random_state(m, 3);
    auto check = [&](const HybridResult& h, const char* v) {
      for (int i = 0; i < m.nb; ++i)
        for (int k = 0; k < m.joint[i].nv(); ++k) {
          const int j = m.v_idx[i] + k;
          INFO(spec.id << " " << v << " variable " << j);
          if (s.forward[i]) CHECK(h.tau[j] == s.tau[j]);
          else CHECK(h.qdd[j] == s.qdd[j]);
        }
    };
    check(run_hybrid<HybridAba>(m, s, s.forward), "hybrid_aba");
    check(run_hybrid<HybridCrbaSparse>(m, s, s.forward), "hybrid_crba_sparse");
    check(run_hybrid<HybridCrbaDense>(m, s, s.forward), "hybrid_crba_dense");
  }
}

TEST_CASE("hybrid dynamics: nu(fd) (Eq. 9.5) and H_11's reduced parent array (Figure 9.1) on hand-derived trees",
          "[hybrid_dynamics]") {
  // Tree (0-based, -1 = base): 0 on the base, 1 on 0, 2 on 1, 3 on 0, 4 on 3.
  // fd = {1, 2, 4}: nu(fd) = fd (no inverse body below a forward one);
  // H_11's variables 1, 2, 4 renumbered 0, 1, 2: parent of 1 is 0 (inverse) -> the base; of 2
  // is 1 -> 0; of 4 is 3, then 0 (both inverse) -> the base.
  const std::vector<int> parent = {-1, 0, 1, 0, 3};
  std::vector<char> nu(5);
  supported_by_forward(parent, {0, 1, 1, 0, 1}, nu);
  CHECK(nu == std::vector<char>{0, 1, 1, 0, 1});
  std::vector<int> dof;
  CHECK(reduced_parent(parent, {0, 1, 1, 0, 1}, dof) == std::vector<int>{-1, 0, -1});
  CHECK(dof == std::vector<int>{1, 2, 4});
  // fd = {0}: every body is supported by joint 0; H_11 is joint 0's alone.
  supported_by_forward(parent, {1, 0, 0, 0, 0}, nu);
  CHECK(nu == std::vector<char>{1, 1, 1, 1, 1});
  CHECK(reduced_parent(parent, {1, 0, 0, 0, 0}, dof) == std::vector<int>{-1});
  // Expanded (Table 6.4): body 0 a 3-DoF joint (variables 0-2), body 1 on it (variable 3),
  // body 2 on the base (variable 4): expanded parents (-1, 0, 1, 2, -1). With body 0 inverse
  // and bodies 1, 2 forward, H_11 holds variables 3 and 4, both on the base.
  CHECK(reduced_parent({-1, 0, 1, 2, -1}, {0, 0, 0, 1, 1}, dof) == std::vector<int>{-1, -1});
  CHECK(dof == std::vector<int>{3, 4});
  // With body 0 forward and body 1 inverse: variables 0-2 and 4, chain 0-1-2, 4 on the base.
  CHECK(reduced_parent({-1, 0, 1, 2, -1}, {1, 1, 1, 0, 1}, dof) == std::vector<int>{-1, 0, 1, -1});
}

TEST_CASE("hybrid dynamics: humanoid with prescribed legs, free arms and a free floating base (section 9.1's use)",
          "[hybrid_dynamics]") {
  // Bodies 20-31 are the legs (cases/humanoid.hpp): their accelerations given; the pelvis's
  // free joint, the spine, the head and the arms forward.
  const Model<double> m = cases::build_case("humanoid");
  REQUIRE(m.nb == 32);
  ForwardJoints fd(m.nb, 1);
  for (int i = 20; i < 32; ++i) fd[i] = 0;
  const cases::State s = cases::random_state(m, 4);
  for (const char* v : {"hybrid_aba", "hybrid_crba_sparse", "hybrid_crba_dense"}) {
    const double d = reference_digits(m, s, fd, v);
    INFO(v << ": " << d << " digits against the oracle");
    CHECK(d >= 40);  // gate 1's threshold
  }
  // In double the three agree to round-off amplified by the conditioning of what each solves:
  // H_11 (a principal submatrix of H, so cond2(H_11) <= cond2(H) by Cauchy interlacing) for the
  // CRBA routes, the D_i for hybrid_aba. Each is within its family budget of the truth
  // (budgets.hpp, computed here from this model's measured cond2(H) and cond2(D_i) over seeds
  // 1-4), so two of them differ by at most the sum of their budgets. A wrong line gives O(1).
  const HybridResult a = run_hybrid<HybridAba>(m, s, fd), b = run_hybrid<HybridCrbaSparse>(m, s, fd),
                     c = run_hybrid<HybridCrbaDense>(m, s, fd);
  const auto y = [&](const HybridResult& r) { return HybridDynamicsFamily::unknowns<double>(m, fd, r.qdd, r.tau); };
  Conditioning cond{m, 4};
  const double eps = std::numeric_limits<double>::epsilon();
  const double crba_budget = budget_eps(BudgetRule::solve_with_H, cond) * eps;
  const double aba_budget = budget_eps(BudgetRule::articulated_solves, cond) * eps;
  const double ya = y(a).norm();
  INFO("cond2(H) " << cond.H() << ", max cond2(D_i) " << cond.D() << "; |a-b|/|a| "
                   << (y(a) - y(b)).norm() / ya << ", |a-c|/|a| " << (y(a) - y(c)).norm() / ya);
  CHECK((y(a) - y(b)).norm() <= (aba_budget + crba_budget) * ya);
  CHECK((y(a) - y(c)).norm() <= (aba_budget + crba_budget) * ya);
  CHECK((y(b) - y(c)).norm() <= 2 * crba_budget * ya);
}

TEST_CASE("hybrid dynamics: a manipulator with a passive wrist (UR5: shoulder and elbow prescribed, wrist free)",
          "[hybrid_dynamics]") {
  // Section 9.1's other use: joints 0-2 of the UR5 follow given accelerations (a trajectory),
  // the wrist's joints 3-5 carry no motor torque (tau = 0, f_ext as drawn) and move as the arm's
  // motion makes them. Hybrid dynamics gives the arm's driving torques and the wrist's
  // accelerations in one call. Second witness: the RNEA (Table 5.1, no solve) at the completed
  // qdd must return the computed arm torques and zero on the wrist.
  const Model<double> m = cases::build_case("urdf:ur5");
  REQUIRE(m.nb == 6);
  REQUIRE(m.nv == 6);
  ForwardJoints fd(m.nb, 0);
  for (int i = 3; i < 6; ++i) fd[i] = 1;
  Conditioning cond{m, 3};
  const double eps = std::numeric_limits<double>::epsilon();
  const double B_y = budget_eps(BudgetRule::articulated_solves, cond), B_rnea = budget_eps(BudgetRule::recursion, cond);
  for (int seed : {1, 2, 3}) {
    cases::State s = cases::random_state(m, seed);
    s.tau.tail(3).setZero();  // a passive wrist
    for (const char* v : {"hybrid_aba", "hybrid_crba_sparse", "hybrid_crba_dense"}) {
      const double d = reference_digits(m, s, fd, v);
      INFO(v << " seed " << seed << ": " << d << " digits against the oracle");
      CHECK(d >= 40);  // gate 1's threshold
    }
    const HybridResult r = run_hybrid<HybridAba>(m, s, fd);
    CHECK(r.tau.tail(3).isZero(0.0));      // the wrist's given zeros come back untouched
    CHECK(r.qdd.head(3) == s.qdd.head(3));  // and so do the arm's given accelerations
    Workspace<double> ws(m);
    VecX<double> tau(m.nv);
    RneaSpatial::run<double>(m, s.q, s.qd, r.qdd, &s.f_ext, tau, ws);
    // Both sides in double. hybrid_aba's unknowns y = [tau_arm; qdd_wrist] are within its family
    // budget B_y (articulated_solves, from this model's cond2(D_i) over the seeds) of the truth,
    // relative to |y|; a wrist acceleration off by dq reaches the RNEA's torques as H dq, with
    // |H dq| <= |H|_2 |dq|; the RNEA adds its own recursion budget relative to |tau|. Measured:
    // at most 8.1e-15 against bounds of ~1.3e-11 (first-order budgets are worst cases over all
    // roundings); a wrong sign or frame is O(1).
    MatX<double> H(m.nv, m.nv);
    Crba::run<double>(m, s.q, H, ws);
    const VecX<double> y = HybridDynamicsFamily::unknowns<double>(m, fd, r.qdd, r.tau);
    const double H2 = Eigen::SelfAdjointEigenSolver<MatX<double>>(H).eigenvalues().maxCoeff();
    const double bound = eps * (B_y * (1 + H2) * y.norm() + B_rnea * tau.norm());
    const double residual = (tau - r.tau).norm();
    INFO("seed " << seed << ": |RNEA(qdd) - [tau_arm; 0]| = " << residual << ", bound " << bound << " (B_y " << B_y
                 << " eps, |H|_2 " << H2 << ")");
    CHECK(residual <= bound);
  }
}

TEST_CASE("hybrid dynamics: a split of the wrong size is refused with the sizes named", "[hybrid_dynamics]") {
  const Model<double> m = cases::build_case("tree:bf=2:nb=7");
  const cases::State s = cases::random_state(m, 1);
  HybridDynamicsWorkspace<double> ws(m);
  VecX<double> qdd = s.qdd, tau = s.tau;
  CHECK_THROWS_WITH(HybridAba::run<double>(m, s.q, s.qd, ForwardJoints(3, 1), qdd, tau, nullptr, ws),
                    Catch::Contains("the split has 3 entries; the model has 7 joints"));
}

}  // namespace test_hybrid_dynamics
