// The 37-DoF humanoid (cases/humanoid.hpp) standing on level ground on its two flat feet, each
// sole touching at its four corners (issue 15's "humanoid standing on the ground"). Eight point
// contacts on two rigid feet make the contact forces statically indeterminate: each foot's four
// corners span only that foot's freedoms, so G = T^T H^-1 T is singular (rank 6 of the 8 normal
// rows, 12 of the 24 frictional ones) and the LCPs have whole sets of solutions. What is unique is
// the motion (for a positive semi-definite LCP, w = G f + g and with it T f are the same for every
// solution), so the checks are on qdd and on the generalized contact force T f, not on f.
//
// The known answer is designed, as for solo12 in test_friction_dynamics.cpp: with the oracle's
// contact rows Phi (reference/contact_oracle.hpp, sharing no code with algorithms/) and its bias
// C = ID(q, 0, 0), a set of foot forces F balancing C on the unactuated base, and the joint
// torques tau = C - Phi^T F, the robot stands still (qdd = 0) with T f = Phi^T F.
//  a. Vertical forces only (the minimum-norm F that balances gravity): every frictionless contact
//     variant and every friction variant returns qdd = 0 in Reference, T f = Phi_z^T F to 1e-40.
//  b. The same plus an internal squeeze (the legs press the feet toward each other along y and
//     the ground's friction pushes them apart, projected so that it leaves the base's balance
//     alone): the friction variants hold it (qdd = 0, each corner's force in its pyramid); the
//     frictionless ones cannot, and the feet slide together.
//  c. Both designs under time-stepping in double (frictionless for a, with friction for b): the
//     robot stays where it stands, step after step.
// Precision: Reference carries ~50 digits; n = 37, the contact LCPs have up to 48 unknowns and a
// few dozen pivots on O(1)-conditioned blocks (the singular directions are not pivoted on), so
// results agree to ~45 digits; 1e-40 relative to g (or to the weight) leaves a margin of ~1e5,
// while a force misplaced by a millimetre errs at ~1e-3.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "cases/contacts.hpp"
#include "cases/humanoid.hpp"
#include "contact_dynamics/variants.hpp"
#include "contact_simulation/friction_time_stepping.hpp"
#include "contact_simulation/time_stepping.hpp"
#include "friction_dynamics/variants.hpp"
#include "reference/contact_oracle.hpp"
#include "reference/reference_scalar.hpp"
#include "verify/support/close40.hpp"

namespace test_humanoid_standing {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

using namespace rbd;
using R = Reference;
using verify::max_abs;

namespace {

const double kG = 9.81;

// The sole's corners in the foot's frame: the foot is a box of length ~0.2 m (seeded within 10%)
// centred a quarter of its length ahead of the ankle, 0.09 m wide and 0.04 m high, centred 0.04 m
// below the ankle (cases/humanoid.hpp's leg()): its sole is the plane z = -0.06. The corners are
// taken 1 cm inside the nominal outline, so that every seeded foot contains them.
std::vector<cases::ContactSpec> sole_corners(const Model<R>& m, double mu) {
  std::vector<cases::ContactSpec> specs;
  for (const char* foot : {"left_foot", "right_foot"}) {
    int b = -1;
    for (int i = 0; i < m.nb; ++i)
      if (m.body_name[i] == foot) b = i;
    REQUIRE(b >= 0);
    for (double x : {-0.04, 0.14})
      for (double y : {-0.035, 0.035}) {
        cases::ContactSpec c;
        c.s = b;
        c.point = Vec3<double>(x, y, -0.06);
        c.friction = mu;
        c.facets = 4;
        specs.push_back(c);
      }
  }
  return specs;
}

struct Standing {
  Model<R> m;
  VecX<R> q, qd, C;
  std::vector<cases::ContactSpec> specs;
  PointContacts<R> contacts;
  std::vector<MatX<R>> Phi;  // world x, y, z rows of each corner (nc x nv each), from the oracle
};

Standing standing(double mu) {
  Standing s{cases::humanoid(1).cast<R>(), {}, {}, {}, {}, {}, {}};
  s.q = VecX<R>::Zero(s.m.nq);
  s.q[0] = R(1);  // the pelvis's free joint: identity quaternion; every joint at 0, standing upright
  s.qd = VecX<R>::Zero(s.m.nv);
  s.specs = sole_corners(s.m, mu);
  s.contacts = cases::place_contacts<R>(s.m, s.q, s.specs);  // a level plane through each corner
  for (int c = 0; c < 3; ++c) {
    PointContacts<R> axis = s.contacts;
    for (auto& k : axis) {
      k.normal = Vec3<R>::Unit(c);
      k.offset = R(0);
    }
    s.Phi.push_back(oracle::contact_rows<R>(s.m, axis, s.q, s.qd).Phi);
  }
  s.C = oracle::inverse_dynamics<R>(s.m, s.q, s.qd, VecX<R>(VecX<R>::Zero(s.m.nv)), nullptr);
  return s;
}

// The base's six rows of each corner force (columns: x of every corner, then y, then z), from the
// oracle's rows: A F = sum_c Phi_c^T F_c on the base.
MatX<R> base_balance(const Standing& s) {
  const int nc = static_cast<int>(s.contacts.size());
  MatX<R> A(6, 3 * nc);
  for (int c = 0; c < 3; ++c)
    for (int i = 0; i < nc; ++i) A.col(c * nc + i) = s.Phi[c].row(i).head(6).transpose();
  return A;
}

// The minimum-norm vertical forces F (same layout, x and y zero) with A F = C on the base's rows,
// by a complete orthogonal decomposition (the vertical forces alone span only three of the six
// base directions: force z, moments x, y).
VecX<R> balancing_forces(const Standing& s) {
  const int nc = static_cast<int>(s.contacts.size());
  MatX<R> A = base_balance(s);
  A.leftCols(2 * nc).setZero();
  const Eigen::CompleteOrthogonalDecomposition<MatX<R>> cod(A);
  return cod.solve(VecX<R>(s.C.head(6)));
}

// The squeeze: the ground pushes each foot 20 N outward (+y on the left foot's four corners, -y on
// the right's), which the legs' torques press against; projected onto the null space of the base's
// balance so that the base stays unactuated.
VecX<R> squeeze(const Standing& s) {
  const int nc = static_cast<int>(s.contacts.size());
  const MatX<R> A = base_balance(s);
  VecX<R> out = VecX<R>::Zero(3 * nc);
  for (int i = 0; i < nc; ++i) out[nc + i] = i < 4 ? R(5) : R(-5);
  const Eigen::CompleteOrthogonalDecomposition<MatX<R>> cod(A);
  out -= cod.solve(VecX<R>(A * out));
  return out;
}

VecX<R> generalized_force(const Standing& s, const VecX<R>& F) {
  const int nc = static_cast<int>(s.contacts.size());
  VecX<R> out = VecX<R>::Zero(s.m.nv);
  for (int c = 0; c < 3; ++c) out += s.Phi[c].transpose() * F.segment(c * nc, nc);
  return out;
}

// qdd of variant V (a contact or a friction variant, by its workspace) at the standing state.
template <class V, class Ws> VecX<R> qdd_of(const Standing& s, const VecX<R>& tau, Ws& ws) {
  VecX<R> qdd(s.m.nv);
  V::template run<R>(s.m, s.contacts, s.q, s.qd, tau, nullptr, qdd, ws);
  return qdd;
}

template <class Variants, class F> void for_each(F&& f) {
  [&]<class... V>(std::tuple<V...>*) { (f.template operator()<V>(), ...); }(static_cast<Variants*>(nullptr));
}

}  // namespace

TEST_CASE("humanoid standing: on eight sole corners, every contact and friction variant holds it still under "
          "gravity-balancing torques (Reference)",
          "[humanoid_standing]") {
  const Standing s = standing(0.8);
  const int nc = static_cast<int>(s.contacts.size());
  const VecX<R> F = balancing_forces(s);
  const R weight = F.sum();
  const VecX<R> tau = s.C - generalized_force(s, F);
  // The design: the base is balanced (its torques are 0: it is not actuated), every corner
  // presses, and the feet carry the robot's weight.
  R mass = R(0);
  for (int i = 0; i < s.m.nb; ++i) mass += s.m.I[i].m;
  INFO("weight " << weight << " N, m g " << mass * R(kG) << " N");
  REQUIRE(max_abs<R>(VecX<R>(tau.head(6))) <= R("1e-40") * weight);
  REQUIRE(abs_(R(weight - mass * R(kG))) <= R("1e-40") * weight);
  for (int i = 0; i < nc; ++i) REQUIRE(F[2 * nc + i] > R("0.05") * weight / R(nc));
  const VecX<R> expected = generalized_force(s, F);
  for_each<ContactVariants>([&]<class V>() {
    ContactWorkspace<R> ws(s.m);
    const VecX<R> qdd = qdd_of<V>(s, tau, ws);
    INFO(V::name << ": |qdd| " << max_abs<R>(qdd));
    CHECK(max_abs<R>(qdd) <= R("1e-40") * R(kG));
    // T lambda, through the oracle's rows: the same generalized force as the design's
    VecX<R> Tf = s.Phi[2].transpose() * ws.lambda.head(nc);
    CHECK(max_abs<R>(VecX<R>(Tf - expected)) <= R("1e-40") * weight);
  });
  for_each<FrictionVariants>([&]<class V>() {
    FrictionWorkspace<R> ws(s.m);
    const VecX<R> qdd = qdd_of<V>(s, tau, ws);
    INFO(V::name << ": |qdd| " << max_abs<R>(qdd));
    CHECK(max_abs<R>(qdd) <= R("1e-40") * R(kG));
  });
}

TEST_CASE("humanoid standing: with the feet pressed together, friction holds it still and frictionless contact lets "
          "them slide (Reference)",
          "[humanoid_standing]") {
  const Standing s = standing(0.8);
  const int nc = static_cast<int>(s.contacts.size());
  const VecX<R> F0 = balancing_forces(s);
  const R weight = F0.sum();
  const VecX<R> F = F0 + squeeze(s);
  const VecX<R> tau = s.C - generalized_force(s, F);
  REQUIRE(max_abs<R>(VecX<R>(tau.head(6))) <= R("1e-40") * weight);
  for (int i = 0; i < nc; ++i) {  // every corner presses, needs friction, and is well inside the pyramid
    const R fx = F[i], fy = F[nc + i], fz = F[2 * nc + i];
    REQUIRE(fz > R(0));
    REQUIRE(abs_(fy) > R(1));
    REQUIRE(abs_(fx) + abs_(fy) < R("0.5") * R("0.8") * fz);
  }
  for_each<FrictionVariants>([&]<class V>() {
    FrictionWorkspace<R> ws(s.m);
    const VecX<R> qdd = qdd_of<V>(s, tau, ws);
    INFO(V::name << ": |qdd| " << max_abs<R>(qdd));
    CHECK(max_abs<R>(qdd) <= R("1e-40") * R(kG));
    for (int i = 0; i < nc; ++i) {  // each corner's force in its 4-facet pyramid (t1 = x, t2 = y)
      const R fn = ws.f[3 * i], ft = abs_(R(ws.f[3 * i + 1])) + abs_(R(ws.f[3 * i + 2]));
      CHECK(fn >= R(0));
      CHECK(ft <= R("0.8") * fn + R("1e-40") * weight);
    }
  });
  // Without friction the legs' press is unopposed: the feet accelerate toward each other (more
  // than 1 m/s^2 along y at the soles, for 20 N on a few kilograms of leg).
  for_each<ContactVariants>([&]<class V>() {
    ContactWorkspace<R> ws(s.m);
    const VecX<R> qdd = qdd_of<V>(s, tau, ws);
    const VecX<R> a_y = s.Phi[1] * qdd;  // the corners' y accelerations (qd = 0: no bias term)
    INFO(V::name << ": sole accelerations along y, left " << a_y[0] << ", right " << a_y[4]);
    CHECK(a_y[0] < R(-1));
    CHECK(a_y[4] > R(1));
  });
}

TEST_CASE("humanoid standing: time-stepping keeps it standing still, with and without friction (double)",
          "[humanoid_standing]") {
  // 200 steps of h = 1 ms. At rest with balancing torques, each step's free velocity
  // h H^-1 (tau - C) is undone exactly by the impulses (the step's LCP is the acceleration-level
  // one scaled by h), so the robot stays where it stands up to the rounding of each step's solve,
  // which is relative to that free velocity and amplified by G's conditioning on its range:
  // |qd| <= 64 n eps kappa h max|H^-1 (tau - C)| after every step (kappa below; the test prints
  // every factor), and q moves by at most 200 h of that. A slip or a sinking foot moves it by
  // ~h g = 1e-2 m/s per step.
  for (const bool friction : {false, true}) {
    const Standing s = standing(0.8);
    const int nc = static_cast<int>(s.contacts.size());
    VecX<R> F = balancing_forces(s);
    if (friction) F += squeeze(s);  // the previous case's
    const VecX<double> tau = (s.C - generalized_force(s, F)).unaryExpr([](const R& x) { return double(x); });
    const Model<double> m = cases::humanoid(1);
    const PointContacts<double> cs = cases::place_contacts<double>(m, s.q.unaryExpr([](const R& x) { return double(x); }),
                                                                   s.specs);
    const VecX<double> q0 = s.q.unaryExpr([](const R& x) { return double(x); }), qd0 = VecX<double>::Zero(m.nv);
    double worst_qd = 0;
    VecX<double> q_end;
    if (friction) {
      simulation::FrictionTimeSteppingSimulator<double> sim(m, cs, q0, qd0, tau, 1e-3);
      for (int k = 0; k < 200; ++k) {
        sim.step();
        worst_qd = std::max(worst_qd, sim.qd.cwiseAbs().maxCoeff());
      }
      q_end = sim.q;
    } else {
      simulation::TimeSteppingSimulator<double> sim(m, cs, q0, qd0, tau, 1e-3);
      for (int k = 0; k < 200; ++k) {
        sim.step();
        worst_qd = std::max(worst_qd, sim.qd.cwiseAbs().maxCoeff());
      }
      q_end = sim.q;
    }
    const MatX<R> H = oracle::mass_matrix<R>(s.m, s.q);  // tau - C = -Phi^T F
    const double free_speed = 1e-3 * double(max_abs<R>(VecX<R>(H.ldlt().solve(generalized_force(s, F)))));
    // G = T^T H^-1 T on the rows the step's LCP uses (z alone without friction, x, y, z with it):
    // its condition number on its range (singular values above 1e-30 of the largest; the rest are
    // the indeterminate directions, 1e-48 and below) amplifies the rounding of the solve.
    MatX<R> T(s.m.nv, friction ? 3 * nc : nc);
    for (int c = friction ? 0 : 2, k = 0; c < 3; ++c, ++k) T.middleCols(k * nc, nc) = s.Phi[c].transpose();
    const MatX<R> G = T.transpose() * H.ldlt().solve(T);
    const VecX<R> sv = Eigen::JacobiSVD<MatX<R>>(G).singularValues();
    int rank = 0;
    while (rank < sv.size() && sv[rank] > R("1e-30") * sv[0]) ++rank;
    const double kappa = double(sv[0] / sv[rank - 1]);
    const double bound = 64 * m.nv * 2.2e-16 * kappa * free_speed;
    INFO("G: rank " << rank << " of " << G.rows() << ", condition on its range " << kappa);
    INFO((friction ? "with friction" : "frictionless") << ": largest |qd| " << worst_qd << ", |q - q0| "
                                                       << (q_end - q0).cwiseAbs().maxCoeff() << "; free speed "
                                                       << free_speed << ", bound " << bound);
    CHECK(worst_qd <= bound);
    CHECK((q_end - q0).cwiseAbs().maxCoeff() <= 200 * 1e-3 * bound);
  }
}

}  // namespace test_humanoid_standing
