// Gates of the integration family (algorithms/integration/): convergence order against
// independent solutions (a closed form; reference/extrapolation.hpp's Gragg-Bulirsch-Stoer on
// reference/rigid_body_dae.hpp's quaternion-coordinate equations, cross-checked with the former
// rkmk4_se3-in-Reference truth), the Lie-group manifold conditions, the paper's structural claim
// that SE(3) keeps a body's joint to the ground exactly (seed 004 section 5.1), and input
// validation; J V and eta = -Jdot V against derivatives of the residual, the seed's printed
// constraint derivatives (Eqs. 39, 41, 50, 53, 61, 64) and the two readings of Eqs. 38-42; the
// measurement path's rejection of NaN and inf. The full per-system study (all four systems, 1 s
// and 10 s, energy) is verify/integration_study.cpp.
#include <catch2/catch.hpp>

#include <functional>
#include <limits>

#include "reference/torque_free.hpp"
#include "verify/support/metrics.hpp"
#include "verify/support/lie_integration.hpp"

namespace test_integration {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

using namespace rbd;
using namespace rbd::integration;
using rbd::verify::configuration_error;
using rbd::verify::order_fit;

namespace {
using R = Reference;
constexpr double eps = std::numeric_limits<double>::epsilon();
// Order gate (issue 6): least-squares slope within 0.2 of the tableau's order.
constexpr double kOrderTolerance = 0.2;

// Torque-free axisymmetric body, floating, no joints: I1 = I2 = 0.3, I3 = 0.1 kg m^2, m = 2 kg,
// w0 = (3, -2, 12) rad/s, tilted start, moving COM. A choice (not from the seed): fast
// enough spin that RK4's error dominates round-off at 0.5 ms.
cases::LieCase torque_free_case() {
  cases::LieCase c;
  c.id = "torque_free";
  c.sys.n = 1;
  c.sys.body[0].m = 2;
  c.sys.body[0].Theta = Vec3<double>(0.3, 0.3, 0.1).asDiagonal();
  Mat3<double> R0;
  R0 << 0.36, 0.48, -0.8, -0.8, 0.6, 0, 0.48, 0.64, 0.6;  // exact rotation (Pythagorean entries)
  c.C[0] = {R0, Vec3<double>(0.1, -0.2, 0.3)};
  c.omega[0] = Vec3<double>(3, -2, 12);
  return c;
}
// The order study's truth for the heavy top over 0.064 s, computed once: Gragg-Bulirsch-Stoer
// with 14 columns and 32 macro steps (the study's settings, integration_study.cpp).
constexpr double kOrderT = 0.064;
const rbd::verify::IndependentReference& heavy_top_reference() {
  static const rbd::verify::IndependentReference ref = rbd::verify::independent_reference(cases::heavy_top(), kOrderT, 32, 14);
  return ref;
}
// The former truth, rkmk4_se3 in Reference at 62.5 us (and 125 us for its estimate).
const rbd::verify::RkmkReference& heavy_top_rkmk_reference() {
  static const rbd::verify::RkmkReference ref = rbd::verify::rkmk_reference_solution(cases::heavy_top(), kOrderT, 0.5e-3 / 8);
  return ref;
}
// Below the heavy top's smallest order-study error (rkmk4_se3 at 0.5 ms, ~1e-8 m; the other
// variants' are larger): the truth's estimate must stay below 1e-3 of it.
constexpr double kSmallestError = 1e-9;
}  // namespace

TEMPLATE_LIST_TEST_CASE("torque-free axisymmetric body: each variant converges to the closed form at order 4",
                        "[integration]", IntegratorVariants) {
  using V = TestType;
  cases::LieCase c = torque_free_case();
  oracle::TorqueFree truth{Reference(0.3), Reference(0.1), c.C[0].R.cast<Reference>(), c.omega[0].cast<Reference>(),
                           c.C[0].r.cast<Reference>(), Vec3<Reference>::Zero()};
  const double T = 1.0;
  State<Reference> ref;
  ref.C[0] = se3::Pose<Reference>{truth.rotation(Reference(T)), truth.position(Reference(T))};
  for (const auto& tab : {classical_rk4<double>(), rk38<double>()}) {
    // The COM starts at rest here (no joints): the oracle's rdot0 = 0 matches initial_state.
    const std::vector<double> err = rbd::verify::order_errors<V>(c, T, ref, tab);
    const double p = order_fit(rbd::verify::order_steps(), err);
    INFO(V::name << " with " << tab.name << ": order " << p << ", errors " << err.front() << " .. " << err.back());
    CHECK(std::abs(p - 4.0) <= kOrderTolerance);
    CHECK(err.back() > 1e3 * eps);  // the fit is of method error, not round-off
  }
}

TEMPLATE_LIST_TEST_CASE("heavy top: order 4 against the independent Reference solution", "[integration]", IntegratorVariants) {
  using V = TestType;
  const cases::LieCase c = cases::heavy_top();
  // 8..128 steps of 8..0.5 ms over 0.064 s against Gragg-Bulirsch-Stoer (no Lie-group code).
  const rbd::verify::IndependentReference& ref = heavy_top_reference();
  const std::vector<double> err = rbd::verify::order_errors<V>(c, kOrderT, ref.x, classical_rk4<double>());
  const double p = order_fit(rbd::verify::order_steps(), err);
  INFO(V::name << ": order " << p << ", errors " << err.front() << " .. " << err.back() << ", truth's error estimate "
               << ref.error_estimate);
  // The truth's own error must be far below the smallest error fitted: 1e-3 of it keeps the
  // slope's bias below 0.001.
  CHECK(ref.error_estimate < 1e-3 * err.back());
  CHECK(std::abs(p - 4.0) <= kOrderTolerance);
}

TEST_CASE("the independent reference: its error estimate, its physics, and the cross-check with rkmk4_se3",
          "[integration][reference]") {
  const cases::LieCase c = cases::heavy_top();
  const rbd::verify::IndependentReference& ref = heavy_top_reference();
  const rbd::verify::RkmkReference& old = heavy_top_rkmk_reference();
  INFO("estimate " << ref.error_estimate << " (halving " << ref.halving_diff << ", tableau " << ref.tableau_estimate
                   << "); rkmk4_se3 estimate " << old.error_estimate());
  // Order 28 at H = 2 ms: measured ~1e-43 m. 1e-30 is far below the ~1e-9 m it judges and far
  // above what a working extrapolation leaves (a low-order one fails the margin: checked below).
  CHECK(ref.error_estimate < 1e-30);
  CHECK(ref.error_estimate < 1e-3 * kSmallestError);
  // Physics the DAE must keep, independent of the integration method: no gravity, no friction,
  // so E is constant; the pivot and its velocity stay closed. Bounds: the estimate (1e-43 m)
  // times the system's scale (T0 = 1.4e4 J, |w| ~ 70 rad/s) is ~1e-38, round-off ~1e-46;
  // a wrong eta or reaction makes them O(1e-3) over 0.064 s (see the broken field below).
  CHECK(ref.energy_change < 1e-36);
  CHECK(ref.position_residual < 1e-38);
  CHECK(ref.velocity_residual < 1e-36);
  CHECK(ref.initial_velocity_residual < 1e-45);  // the shared initial state closes the DAE's own J V = 0
  // The cross-check: rkmk4_se3 in Reference lies within the two estimates of the new truth,
  // and its distance is its own Richardson error estimate (ratio ~1: the new truth resolves it).
  const double d = configuration_error(c.sys.n, old.x, ref.x);
  INFO("distance " << d);
  CHECK(rbd::verify::references_agree(d, old.error_estimate(), ref.error_estimate));
  CHECK(d > 0.5 * old.error_estimate());
  // Broken truths are caught: the former reference integrated over a wrong span (a wrong step
  // count, 1025 steps of T/1024), and a low-order extrapolation whose estimate is too large.
  {
    rbd::verify::RkmkReference wrong = old;
    const System<Reference> sys = c.sys.cast<Reference>();
    RkmkSe3::step<Reference>(sys, wrong.x, Reference(kOrderT) / 1024, classical_rk4<Reference>());
    CHECK_FALSE(rbd::verify::references_agree(configuration_error(c.sys.n, wrong.x, ref.x), old.error_estimate(), ref.error_estimate));
  }
  {
    // 8 macro steps, 4 columns (order 8): measured estimate 7e-6 m, actual error 3e-8 m.
    const rbd::verify::IndependentReference coarse = rbd::verify::independent_reference(c, kOrderT, 8, 4);
    INFO("coarse estimate " << coarse.error_estimate);
    CHECK_FALSE(coarse.error_estimate < 1e-3 * kSmallestError);
    // ... and its estimate is honest: it bounds its actual distance to the fine truth.
    CHECK(configuration_error(c.sys.n, coarse.x, ref.x) <= coarse.error_estimate);
    CHECK_FALSE(rbd::verify::references_agree(configuration_error(c.sys.n, coarse.x, old.x), old.error_estimate(), 0.0));
  }
}

TEST_CASE("the independent reference on the torque-free body agrees with the closed form within its own estimate",
          "[integration][reference]") {
  // No joints: Gragg-Bulirsch-Stoer on Euler's equations in quaternions vs R(t) = exp(t L^/I1)
  // R0 exp(-t Omega e3^) (reference/torque_free.hpp). R0 is the DAE's own initial rotation: the
  // case's R0 has decimal entries, orthogonal in double only to ~1e-17.
  const cases::LieCase c = torque_free_case();
  const oracle::dae::VecX y0 = rbd::verify::to_dae_state(cases::initial_state<So3R3Group, R>(c), 1);
  const oracle::TorqueFree truth{R(0.3), R(0.1), oracle::dae::rotation(y0, 0), c.omega[0].cast<R>(), c.C[0].r.cast<R>(),
                                 Vec3<R>::Zero()};
  const double T = 0.25;
  State<R> exact;
  exact.C[0] = se3::Pose<R>{truth.rotation(R(T)), truth.position(R(T))};
  // The estimate bounds the actual error at two accuracies (measured: 7e-31 under 7e-25 with 8
  // macro steps and 10 columns; 3e-46 under 2e-44 with 16 and 14, |w| ~ 12.5 rad/s, H = 16 ms);
  // 1e-46 allows for the closed form's own Reference round-off.
  for (const auto& [steps, columns] : {std::pair{8, 10}, std::pair{16, 14}}) {
    const rbd::verify::IndependentReference ref = rbd::verify::independent_reference(c, T, steps, columns);
    const double d = configuration_error(1, ref.x, exact);
    INFO(steps << " macro steps, " << columns << " columns: distance to the closed form " << d << ", estimate " << ref.error_estimate);
    CHECK(d <= ref.error_estimate + 1e-46);
    if (columns == 14) CHECK(d < 1e-40);
  }
}

TEST_CASE("the independent reference's vector field equals the variants' index-1 accelerations to 40 digits",
          "[integration][reference]") {
  // Two unrelated computations of Eq. 3 (dual-number J and eta with a dense LU of the whole KKT
  // matrix, vs hand-derived rows with a Schur complement) at generic states off the constraint
  // manifold (positions and velocities violate the joints), for every system.
  for (const cases::LieCase& c : cases::lie_cases()) {
    const System<R> sys = c.sys.cast<R>();
    State<R> x;
    x.V = VecV<R>(sys.nv());
    for (int i = 0; i < sys.n; ++i) {
      x.C[i].R = so3::exp<R>(Vec3<R>(R(0.4) + R(i) / 3, R(-0.7), R(1.1) - R(i)));
      x.C[i].r = c.C[i].r.cast<R>() + Vec3<R>(R(1) / 100, R(-2) / 100, R(i + 1) / 200);
      for (int k = 0; k < 6; ++k) x.V(6 * i + k) = R(1 + k + 2 * i) / R(3) * (k % 2 ? R(-1) : R(1));
    }
    VecV<R> Vdot;
    accelerations<So3R3Group, R>(sys, x, Vdot);
    const oracle::dae::VecX f = oracle::dae::rhs(rbd::verify::to_dae(c.sys), rbd::verify::to_dae_state(x, sys.n));
    MatX<R> a(sys.nv(), 1), b(sys.nv(), 1);
    for (int i = 0; i < sys.n; ++i) {
      a.block<6, 1>(6 * i, 0) = Vdot.segment<6>(6 * i);
      b.block<6, 1>(6 * i, 0) = f.segment<6>(oracle::dae::kBodyState * i + 7);
    }
    INFO(c.id);
    CHECK(rbd::verify::exact_digits(rbd::verify::rel_diff(a, b)) >= 40);
  }
  // A broken field is visible to the physics checks: the heavy top's DAE integrated with a
  // gravity the energy does not account for changes E by O(1) J.
  {
    const cases::LieCase c = cases::heavy_top();
    oracle::dae::Bodies wrong = rbd::verify::to_dae(c.sys), right = wrong;
    wrong.gravity = Vec3<R>(R(0), R(0), R(-981) / 100);
    const oracle::dae::VecX y0 = rbd::verify::to_dae_state(cases::initial_state<So3R3Group, R>(c), 1);
    const auto run = oracle::gbs_integrate([&](const oracle::dae::VecX& y) { return oracle::dae::rhs(wrong, y); }, y0, R(kOrderT), 4, 6);
    const R dE = oracle::dae::kinetic_energy(right, run.y) - oracle::dae::kinetic_energy(right, y0);
    CHECK(abs(dE) > R(1));
  }
}

TEMPLATE_LIST_TEST_CASE("manifold conditions: R^T R = I and det R = 1 along every system's trajectory",
                        "[integration]", IntegratorVariants) {
  using V = TestType;
  for (const cases::LieCase& c : cases::lie_cases()) {
    const System<double> sys = c.sys;
    State<double> x = cases::initial_state<typename V::Group, double>(c);
    const int n = 500;
    integrate<V, double>(sys, x, 1e-3, n, classical_rk4<double>());
    for (int i = 0; i < sys.n; ++i) {
      const Mat3<double>& R = x.C[i].R;
      // Each step multiplies R by a rotation exact to ~4 eps per entry (Rodrigues: 3 terms,
      // or the normalised quaternion's matrix), and the product adds 3 roundings per entry:
      // after n steps the drift off SO(3) is at most ~ n * 8 eps in norm.
      INFO(V::name << " on " << c.id << " body " << i);
      CHECK((R.transpose() * R - Mat3<double>::Identity()).norm() <= n * 8 * eps);
      CHECK(std::abs(R.determinant() - 1.0) <= n * 8 * eps);
    }
  }
}

TEST_CASE("SE(3) keeps a body's joint to the ground exactly; SO(3)xR3 does not (seed 004 sections 5.1, 5.2)",
          "[integration][seed004]") {
  for (const cases::LieCase& c : {cases::heavy_top(), cases::double_pendulum()}) {
    const System<double> sys = c.sys;
    State<double> xs = cases::initial_state<Se3Group, double>(c);
    State<double> xh = cases::initial_state<So3R3Group, double>(c);
    double gs = 0, gh = 0;
    for (int k = 0; k < 200; ++k) {
      RkmkSe3::step<double>(sys, xs, 1e-3, classical_rk4<double>());
      RkmkSo3R3::step<double>(sys, xh, 1e-3, classical_rk4<double>());
      gs = std::max(gs, joint_residual<double>(sys, xs, 0).norm());
      gh = std::max(gh, joint_residual<double>(sys, xh, 0).norm());
    }
    INFO(c.id << ": joint 1 violation SE(3) " << gs << " m, SO(3)xR3 " << gh << " m");
    // SE(3): the body's twists stay in the subalgebra of rotations about the pivot, so the
    // residual is round-off only: ~ steps * |r| * few eps (200 * 0.5 m * 8 eps ~ 2e-13).
    CHECK(gs <= 200 * 0.5 * 8 * eps);
    CHECK(gh > 1e3 * gs);
  }
}

TEST_CASE("bad systems and tableaux are rejected with a message naming the place", "[integration]") {
  cases::LieCase c = cases::double_pendulum();
  c.sys.body[1].m = -1;
  REQUIRE_THROWS_WITH(c.sys.validate("dp"), Catch::Contains("dp: body 1 has non-positive mass"));
  c = cases::double_pendulum();
  c.sys.joint[1].j = 7;
  REQUIRE_THROWS_WITH(c.sys.validate("dp"), Catch::Contains("joint 1 connects body 0 to invalid body 7"));
  Tableau<double> t = classical_rk4<double>();
  t.a[1][1] = 0.5;
  REQUIRE_THROWS_WITH(t.validate(), Catch::Contains("not explicit"));
  t = classical_rk4<double>();
  t.b[0] = 0.5;
  REQUIRE_THROWS_WITH(t.validate(), Catch::Contains("sum b != 1"));
  CHECK_NOTHROW(rk38<double>().validate());
  // Two identical joints make J M^-1 J^T singular: reported, not solved through.
  c = cases::heavy_top();
  c.sys.nj = 2;
  c.sys.joint[1] = c.sys.joint[0];
  State<double> x = cases::initial_state<Se3Group, double>(cases::heavy_top());
  VecV<double> Vdot;
  REQUIRE_THROWS_WITH((accelerations<Se3Group, double>(c.sys, x, Vdot)), Catch::Contains("not positive definite"));
}

TEST_CASE("the integrators run in the counting scalar", "[integration]") {
  const cases::LieCase c = cases::double_pendulum();
  const System<Counted> sys = c.sys.cast<Counted>();
  State<Counted> x = cases::initial_state<Se3Group, double>(c).cast<Counted>();
  const OpCounts ops = count_ops([&] { RkmkSe3::step<Counted>(sys, x, Counted(1e-3), classical_rk4<Counted>()); });
  CHECK(ops.m() > 1000);
  State<double> xd = cases::initial_state<Se3Group, double>(c);
  RkmkSe3::step<double>(c.sys, xd, 1e-3, classical_rk4<double>());
  CHECK(std::abs(xd.C[1].r.x() - x.C[1].r.x().value()) < 1e-14);  // same operations, maybe summed in another order
}

// ---------------------------------------------------------------- constraint derivatives

namespace {
// Constraint-derivative checks (below): central differences in Reference of the residual along
// the exact flow of a constant velocity (verify/support/lie_integration.hpp, flow_derivatives):
// truncation ~1e-24, round-off ~1e-26, so >= 20 digits, while a wrong sign or term is O(1).
constexpr double kDigits = 20.0;

template <class G>
std::pair<Vec3<R>, Vec3<R>> derivatives(const State<R>& x, int n, const std::function<Vec3<R>(const State<R>&)>& g) {
  return rbd::verify::flow_derivatives<G>(x, n, g);
}
double digits(const Vec3<R>& a, const Vec3<R>& b) {
  const MatX<R> x = a, y = b;
  return rbd::verify::exact_digits(rbd::verify::rel_diff(x, y));
}
template <class G> State<R> generic_state(const System<R>& sys, bool) { return rbd::verify::generic_chain_state(sys); }
Mat3<R> hat(const Vec3<R>& a) { return skew<R>(a); }
}  // namespace

TEST_CASE("J V and eta = -Jdot V are the derivatives of g along the flow, both groups", "[integration][constraints]") {
  for (const cases::LieCase& c : {cases::heavy_top(), cases::double_pendulum()}) {
    const System<R> sys = c.sys.cast<R>();
    auto check = [&]<class G>() {
      const State<R> x = generic_state<G>(sys, sys.n == 2);
      MatGV<R> J;
      VecG<R> eta;
      constraint_jacobian<G, R>(sys, x, J, &eta);
      for (int k = 0; k < sys.nj; ++k) {
        const auto [d1, d2] = derivatives<G>(x, sys.n, [&](const State<R>& y) { return joint_residual<R>(sys, y, k); });
        INFO(c.id << " " << G::name << " joint " << k);
        CHECK(digits(Vec3<R>(J.middleRows<3>(3 * k) * x.V), d1) >= kDigits);
        CHECK(digits(Vec3<R>(-eta.segment<3>(3 * k)), d2) >= kDigits);
      }
    };
    check.template operator()<Se3Group>();
    check.template operator()<So3R3Group>();
  }
}

TEST_CASE("the seed's printed constraint derivatives (Eqs. 39, 41, 50, 53, 61, 64); Eq. 53 row 1 has a sign error",
          "[integration][constraints][seed004]") {
  // Each printed row (J_p, eta_p) is the derivative of a residual that the paper writes, up to
  // the sign fixed by J_p (the paper states J V = 0 only): checked J_p V = rho' and eta_p = -rho''.
  {
    const cases::LieCase c = cases::heavy_top();
    const System<R> sys = c.sys.cast<R>();
    const Vec3<R> r0 = -sys.joint[0].a;  // COM from the pivot, body frame (section 5.1)
    {  // Eqs. 39/40, body-fixed twists: rho = R^T r - r0 (= -g of Eq. 38)
      const State<R> x = generic_state<Se3Group>(sys, false);
      const Vec3<R> w = x.V.segment<3>(0), v = x.V.segment<3>(3);
      const auto [d1, d2] = derivatives<Se3Group>(x, 1, [&](const State<R>& y) {
        return Vec3<R>(y.C[0].R.transpose() * y.C[0].r - r0); });
      CHECK(digits(Vec3<R>(hat(r0) * w + v), d1) >= kDigits);
      CHECK(digits(Vec3<R>(-hat(w) * hat(w) * r0 + hat(w) * v), Vec3<R>(-d2)) >= kDigits);
    }
    {  // Eq. 41/42, hybrid: rho = r - R r0
      const State<R> x = generic_state<So3R3Group>(sys, false);
      const Vec3<R> w = x.V.segment<3>(0), vs = x.V.segment<3>(3);
      const Mat3<R>& Rm = x.C[0].R;
      const auto [d1, d2] = derivatives<So3R3Group>(x, 1, [&](const State<R>& y) { return Vec3<R>(y.C[0].r - y.C[0].R * r0); });
      CHECK(digits(Vec3<R>(Rm * hat(r0) * w + vs), d1) >= kDigits);
      CHECK(digits(Vec3<R>(Rm * hat(w) * hat(w) * r0), Vec3<R>(-d2)) >= kDigits);
    }
  }
  {
    const cases::LieCase c = cases::double_pendulum();
    const System<R> sys = c.sys.cast<R>();
    const Vec3<R> r0 = sys.joint[0].a, r10 = sys.joint[1].a, r20 = sys.joint[1].b;  // Eq. 43's vectors
    auto g1 = [&](const State<R>& y) { return Vec3<R>(y.C[0].R * r0 + y.C[0].r); };
    auto g2 = [&](const State<R>& y) { return Vec3<R>(y.C[0].R * r10 + y.C[0].r - y.C[1].R * r20 - y.C[1].r); };
    {  // Eqs. 50/53, body-fixed twists. Row 1 in body-1 coordinates: rho = -R1^T g1; row 2: rho = -g2.
      const State<R> x = generic_state<Se3Group>(sys, true);
      const Vec3<R> w1 = x.V.segment<3>(0), v1 = x.V.segment<3>(3), w2 = x.V.segment<3>(6), v2 = x.V.segment<3>(9);
      const Mat3<R>& R1 = x.C[0].R;
      const Mat3<R>& R2 = x.C[1].R;
      const auto [a1, a2] = derivatives<Se3Group>(x, 2, [&](const State<R>& y) { return Vec3<R>(-(y.C[0].R.transpose() * g1(y))); });
      CHECK(digits(Vec3<R>(hat(r0) * w1 - v1), a1) >= kDigits);
      // Printed Eq. 53, row 1: w1^ v1 + w1^ w1^ r0. With Eq. 50's row (r0^, -I) it has the wrong
      // sign: -rho'' = -(w1^ v1 + w1^ w1^ r0). Recorded in integration.json's discrepancies.
      CHECK(digits(Vec3<R>(hat(w1) * v1 + hat(w1) * hat(w1) * r0), Vec3<R>(a2)) >= kDigits);
      CHECK(digits(Vec3<R>(hat(w1) * v1 + hat(w1) * hat(w1) * r0), Vec3<R>(-a2)) < 1);
      const auto [b1, b2] = derivatives<Se3Group>(x, 2, [&](const State<R>& y) { return Vec3<R>(-g2(y)); });
      CHECK(digits(Vec3<R>(R1 * hat(r10) * w1 - R1 * v1 - R2 * hat(r20) * w2 + R2 * v2), b1) >= kDigits);
      CHECK(digits(Vec3<R>(R1 * hat(w1) * hat(w1) * r10 - R2 * hat(w2) * hat(w2) * r20 + R1 * hat(w1) * v1 - R2 * hat(w2) * v2),
                   Vec3<R>(-b2)) >= kDigits);
    }
    {  // Eqs. 61/64, hybrid: rho = -g1, -g2.
      const State<R> x = generic_state<So3R3Group>(sys, true);
      const Vec3<R> w1 = x.V.segment<3>(0), v1 = x.V.segment<3>(3), w2 = x.V.segment<3>(6), v2 = x.V.segment<3>(9);
      const Mat3<R>& R1 = x.C[0].R;
      const Mat3<R>& R2 = x.C[1].R;
      const auto [a1, a2] = derivatives<So3R3Group>(x, 2, [&](const State<R>& y) { return Vec3<R>(-g1(y)); });
      CHECK(digits(Vec3<R>(R1 * hat(r0) * w1 - v1), a1) >= kDigits);
      CHECK(digits(Vec3<R>(R1 * hat(w1) * hat(w1) * r0), Vec3<R>(-a2)) >= kDigits);
      const auto [b1, b2] = derivatives<So3R3Group>(x, 2, [&](const State<R>& y) { return Vec3<R>(-g2(y)); });
      CHECK(digits(Vec3<R>(R1 * hat(r10) * w1 - v1 - R2 * hat(r20) * w2 + v2), b1) >= kDigits);
      CHECK(digits(Vec3<R>(R1 * hat(w1) * hat(w1) * r10 - R2 * hat(w2) * hat(w2) * r20), Vec3<R>(-b2)) >= kDigits);
    }
  }
}

// ---------------------------------------------------------------- the two readings of Eqs. 38-42

TEST_CASE("the study's Munthe-Kaas step and index-1 solve with the variants' rows are the variants, bit for bit",
          "[integration][seed004]") {
  // rkmk_step and accelerations_with_rows (verify/support/lie_integration.hpp) run the heavy-top
  // readings; with the group's own rows they must be rkmk.hpp and index1.hpp exactly.
  for (const cases::LieCase& c : {cases::heavy_top(), cases::double_pendulum()}) {
    auto check = [&]<class V>() {
      using G = typename V::Group;
      State<double> a = cases::initial_state<G, double>(c), b = a;
      const Tableau<double> tab = classical_rk4<double>();
      for (int k = 0; k < 100; ++k) {
        V::template step<double>(c.sys, a, 1e-3, tab);
        rbd::verify::rkmk_step<G, double>(c.sys, b, 1e-3, tab, [](const System<double>& s, const State<double>& y, VecV<double>& Vd) {
          MatGV<double> J;
          VecG<double> eta;
          constraint_jacobian<G, double>(s, y, J, &eta);
          rbd::verify::accelerations_with_rows<G, double>(s, y, J, eta, Vd);
        });
      }
      INFO(c.id << " " << V::name);
      CHECK(configuration_error(c.sys.n, a, b) == 0.0);
      CHECK((a.V - b.V).norm() == 0.0);
    };
    check.template operator()<RkmkSe3>();
    check.template operator()<RkmkSo3R3>();
  }
}

TEST_CASE("heavy top, reading (b): J and eta are Eq. 38's derivatives at a drifted state; reading (a) is not, both agree on the manifold",
          "[integration][constraints][seed004]") {
  using rbd::verify::HeavyTopReading;
  const cases::LieCase c = cases::heavy_top();
  const System<R> sys = c.sys.cast<R>();
  const Spherical<R>& jt = sys.joint[0];
  // A state whose pivot has drifted by ~2 cm and whose velocity violates J V = 0.
  State<R> drifted = rbd::verify::generic_chain_state(sys);
  drifted.C[0].r += Vec3<R>(R(1) / 100, R(-2) / 100, R(1) / 200);
  // Eq. 38's residual up to sign, body frame: rho = R^T (r - b) + a = p - r0.
  auto rho = [&](const State<R>& y) { return Vec3<R>(y.C[0].R.transpose() * (y.C[0].r - jt.b) + jt.a); };
  auto rows = [&]<class G>(HeavyTopReading rd, const State<R>& x) {
    Mat36<R> J;
    Vec3<R> eta;
    rbd::verify::ground_joint_rows<G, R>(rd, x.C[0], Vec6<R>(x.V.head<6>()), jt, J, eta);
    return std::pair{J, eta};
  };
  {  // SE(3), body-fixed twists: rows as they are.
    const auto [d1, d2] = derivatives<Se3Group>(drifted, 1, rho);
    const auto [J, eta] = rows.template operator()<Se3Group>(HeavyTopReading::current_configuration, drifted);
    CHECK(digits(Vec3<R>(J * drifted.V.head<6>()), d1) >= kDigits);
    CHECK(digits(eta, Vec3<R>(-d2)) >= kDigits);
    const auto [Ja, etaa] = rows.template operator()<Se3Group>(HeavyTopReading::printed_r0, drifted);
    CHECK(digits(Vec3<R>(Ja * drifted.V.head<6>()), d1) < 3);  // the readings differ once drifted
  }
  {  // SO(3)xR3, hybrid velocities: the rows and eta are R times the body-frame derivatives.
    const auto [d1, d2] = derivatives<So3R3Group>(drifted, 1, rho);
    const Mat3<R>& Rm = drifted.C[0].R;
    const auto [J, eta] = rows.template operator()<So3R3Group>(HeavyTopReading::current_configuration, drifted);
    CHECK(digits(Vec3<R>(J * drifted.V.head<6>()), Vec3<R>(Rm * d1)) >= kDigits);
    CHECK(digits(eta, Vec3<R>(-(Rm * d2))) >= kDigits);
    const auto [Ja, etaa] = rows.template operator()<So3R3Group>(HeavyTopReading::printed_r0, drifted);
    CHECK(digits(Vec3<R>(Ja * drifted.V.head<6>()), Vec3<R>(Rm * d1)) < 3);
    // Reading (a) on SO(3)xR3 is the variant's own row (Eqs. 41/42 as printed), at any state.
    MatGV<R> Jv;
    VecG<R> etav;
    constraint_jacobian<So3R3Group, R>(sys, drifted, Jv, &etav);
    CHECK(digits(Vec3<R>(Ja * drifted.V.head<6>()), Vec3<R>(Jv * drifted.V)) >= 45);
    CHECK(digits(etaa, Vec3<R>(etav.head<3>())) >= 45);
  }
  // On the manifold (pivot closed, J V = 0) the two readings are the same equations.
  auto on_manifold = [&]<class G>() {
    State<R> x = rbd::verify::generic_chain_state(sys);
    project_velocity<G, R>(sys, x);
    VecV<R> a, b;
    rbd::verify::accelerations_in_reading<G, R>(HeavyTopReading::printed_r0, sys, x, a);
    rbd::verify::accelerations_in_reading<G, R>(HeavyTopReading::current_configuration, sys, x, b);
    const MatX<R> ma = a, mb = b;
    INFO(G::name);
    CHECK(rbd::verify::exact_digits(rbd::verify::rel_diff(ma, mb)) >= 40);
  };
  on_manifold.template operator()<Se3Group>();
  on_manifold.template operator()<So3R3Group>();
}

TEST_CASE("heavy top, reading (a) on SO(3)xR3 is rkmk4_so3xr3; on SE(3) it differs from rkmk4_se3 by round-off",
          "[integration][seed004]") {
  using rbd::verify::HeavyTopReading;
  const cases::LieCase c = cases::heavy_top();
  const Tableau<double> tab = classical_rk4<double>();
  auto compare = [&]<class V>() {
    using G = typename V::Group;
    State<double> a = cases::initial_state<G, double>(c), b = a;
    for (int k = 0; k < 200; ++k) {
      V::template step<double>(c.sys, a, 1e-3, tab);
      rbd::verify::rkmk_step<G, double>(c.sys, b, 1e-3, tab, [](const System<double>& s, const State<double>& y, VecV<double>& Vd) {
        rbd::verify::accelerations_in_reading<G, double>(HeavyTopReading::printed_r0, s, y, Vd);
      });
    }
    return configuration_error(c.sys.n, a, b);
  };
  // SO(3)xR3: the same formulas in the same order (R r0^ = -R a^ and R w^ w^ r0 = -R w^ w^ a are
  // exact in IEEE arithmetic): identical bits.
  CHECK(compare.template operator()<RkmkSo3R3>() == 0.0);
  // SE(3): the variant's rows are R times Eq. 40's, equal on the manifold, which SE(3) keeps to
  // round-off: the trajectories part by round-off only (200 steps x ~1e-15 m, amplified by the
  // flow; measured ~1e-14), far below the method's ~1e-6 m over 0.2 s.
  CHECK(compare.template operator()<RkmkSe3>() < 1e-12);
}

// ---------------------------------------------------------------- NaN and inf

TEST_CASE("the study's measurement path rejects NaN and inf, naming system, variant and scalar", "[integration][nan]") {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  {  // A track with a NaN energy among finite samples: the maxima keep the NaN, the guard names it.
    rbd::verify::FiniteGuard guard;
    rbd::verify::TrackStats st("heavy_top/rkmk4_se3/double", 1, 1.0);
    st.add(0.0, 0.0, {0.0}, {0.0}, guard);
    st.add(0.5, nan, {1e-12}, {1e-13}, guard);
    st.add(2.0, 1e-3, {1e-12}, {1e-13}, guard);  // a later finite sample must not hide it
    CHECK_FALSE(guard.ok());
    REQUIRE(guard.failures.size() == 1);
    CHECK_THAT(guard.failures[0], Catch::Contains("heavy_top/rkmk4_se3/double") && Catch::Contains("energy drift is NaN") &&
                                     Catch::Contains("t = 0.5"));
    CHECK(std::isnan(st.max_dE));
    CHECK(std::isnan(st.max_dE_short));
    CHECK(st.max_pos[0] == 1e-12);
  }
  {  // inf in a velocity violation after the first second: only the whole-run maximum sees it.
    rbd::verify::FiniteGuard guard;
    rbd::verify::TrackStats st("double_pendulum/quat_rk4/Reference", 2, 1.0);
    st.add(0.5, 1e-6, {1e-9, 1e-9}, {1e-9, 1e-9}, guard);
    st.add(1.5, 1e-6, {1e-9, 1e-9}, {1e-9, inf}, guard);
    CHECK_FALSE(guard.ok());
    CHECK_THAT(guard.failures[0], Catch::Contains("double_pendulum/quat_rk4/Reference") &&
                                     Catch::Contains("velocity violation of joint 2 is inf"));
    CHECK(std::isinf(st.max_vel[1]));
    CHECK(st.max_vel_short[1] == 1e-9);
  }
  {  // The real integrator fed a NaN (initial angular velocity): every sample is NaN, and caught.
    cases::LieCase c = cases::heavy_top();
    c.omega[0](1) = nan;
    State<double> x = cases::initial_state<Se3Group, double>(c);
    rbd::verify::FiniteGuard guard;
    rbd::verify::TrackStats st("heavy_top/rkmk4_se3/double", 1, 1.0);
    for (int k = 0; k < 3; ++k) {
      RkmkSe3::step<double>(c.sys, x, 1e-3, classical_rk4<double>());
      st.add(k * 1e-3, kinetic_energy<Se3Group, double>(c.sys, x), {joint_residual<double>(c.sys, x, 0).norm()},
             {joint_velocity_violation<Se3Group, double>(c.sys, x, 0)}, guard);
    }
    CHECK_FALSE(guard.ok());
    CHECK(std::isnan(st.max_dE));
    CHECK(std::isnan(st.max_pos[0]));
  }
  {  // Order-study errors and fits, and the configuration distance.
    rbd::verify::FiniteGuard guard;
    const std::vector<double> err = {1e-3, 1e-4, nan, 1e-6, 1e-7};
    CHECK_FALSE(guard.check_all(err, "three_bar/rkmk4_so3xr3/double", "order-study error"));
    CHECK_THAT(guard.failures[0], Catch::Contains("three_bar/rkmk4_so3xr3/double: order-study error is NaN"));
    CHECK(std::isnan(order_fit(rbd::verify::order_steps(), err)));
    State<double> a = cases::initial_state<Se3Group, double>(cases::heavy_top()), b = a;
    b.C[0].r(2) = nan;
    CHECK(std::isnan(configuration_error(1, a, b)));
  }
  {  // The independent reference started from a NaN: its state and estimate are NaN (not a
     // thrown "singular matrix", which would end the study without writing data/failed/).
    cases::LieCase c = cases::heavy_top();
    c.omega[0](2) = nan;
    const rbd::verify::IndependentReference ref = rbd::verify::independent_reference(c, 0.004, 2, 2);
    CHECK_FALSE(rbd::verify::all_finite(MatX<R>(ref.y)));
    CHECK(std::isnan(ref.error_estimate));
    CHECK_FALSE(rbd::verify::references_agree(configuration_error(1, ref.x, ref.x), 1.0, 1.0));
  }
}

}  // namespace test_integration
