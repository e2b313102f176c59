// Loops and contacts solved together (issue 15's "biped with four-bar knees standing"): the
// loop-contact family (algorithms/loop_contact_dynamics/) against reference/loop_contact_oracle.hpp,
// which composes the loop oracle's reduction to independent coordinates with the contact
// oracle's rows and its enumeration of the LCP (no code shared with algorithms/).
//  a. The biped of examples/sdf/ (crossed four-bar knees, linear-actuator ankles) with its sole
//     welds removed, standing on the four corners of each sole: with torques designed from the
//     oracle's rows to balance gravity through vertical corner forces, every variant and the
//     oracle return qdd = 0, and the contact force's generalized force is the design's.
//  b. The same biped at random consistent velocities under random torques (some corners press,
//     some lift): every variant equals the oracle.
//  c. Each solution is complementary (lambda >= 0, zeta_dot >= 0, lambda . zeta_dot = 0), closes
//     the loops at the acceleration level (K qdd = k) and leaves the contacts' zeta_dot as the
//     solver reports.
//  d. Contacts the loops hold entirely: the biped with its sole welds kept and its sole corners
//     touching (every corner held), and a contact on GU(2) whose normal line meets the joint the
//     loop leaves free; with the normal one way the loops pull the point off its surface (the
//     contact does nothing), the other way they drive it in (no solution: refused by every
//     variant and by the oracle).
//  e. Bad input: NaN in the state, a contact on a missing body.
// Precision: Reference carries ~50 digits. n = 26, K is 20 x 26 of rank 8, the 8 contacts have
// rank 6 on K's null space; the eliminations and LCPs make a few thousand roundings on blocks
// whose condition numbers are below 1e4 (the singular directions are dropped by rank tests, not
// pivoted on), so results agree to ~44 digits: 1e-40 (close40) leaves a margin of 1e4, while a
// corner misplaced by a millimetre errs at ~1e-3.
#include <catch2/catch.hpp>

#include <string>
#include <tuple>
#include <vector>

#include "cases/loop_contacts.hpp"
#include "cases/model_loop_states.hpp"
#include "cases/gu.hpp"
#include "cases/random.hpp"
#include "cases/states.hpp"
#include "cases/sdf_loader.hpp"
#include "closed_loop_dynamics/loop_nullspace.hpp"
#include "loop_contact_dynamics/variants.hpp"
#include "model/configuration.hpp"
#include "reference/loop_contact_oracle.hpp"
#include "reference/reference_scalar.hpp"
#include "verify/support/close40.hpp"
#include "verify/support/message_of.hpp"

namespace test_loop_contact_dynamics {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

using namespace rbd;
using R = Reference;
using verify::max_abs;

namespace {

const double kG = 9.81;

template <class Variants, class F> void for_each(F&& f) {
  [&]<class... V>(std::tuple<V...>*) { (f.template operator()<V>(), ...); }(static_cast<Variants*>(nullptr));
}

// The biped with its two sole welds (fixed joints from the world) dropped: the pelvis floats, each
// leg keeps its knee four-bar and its ankle actuator loop (two revolute loop joints, planar, rank 2
// of 5 each). The sole's corners in the foot's frame: the foot's box (its inertia in the SDF is
// that of 0.22 x 0.1 x 0.04 m centred at (0.05, 0, -0.03): m (b^2 + c^2) / 12 and so on) has its
// sole at z = -0.05 and corners x in {-0.06, 0.16}, y = +-0.05; the contacts sit 1 cm inside.
struct Biped {
  Model<R> m;
  LoopJoints<R> loops;
  std::vector<cases::ContactSpec> specs;
  PointContacts<R> contacts;
  VecX<R> q;
};

Biped biped() {
  const cases::SdfModel sd = cases::load_sdf(std::string(RBDLAB_SOURCE_DIR) + "/examples/sdf/biped_linkages.sdf");
  Biped b{sd.model.cast<R>(), {}, {}, {}, {}};
  b.q = neutral_configuration(b.m);  // the drawn pose, which closes every loop
  // The loops' frames are solved at q in Reference (cases/loops.hpp's close_loops): the SDF's
  // frames, read in double, close them only to ~1e-17.
  LoopJoints<double> kept;
  for (const auto& L : sd.loops)
    if (L.type != LoopJointType::Weld) kept.push_back(L);
  b.loops = cases::close_loops<R>(b.m, b.q, cases::loop_specs_at(sd.model, kept, neutral_configuration(sd.model)));
  for (const char* foot : {"left_foot", "right_foot"}) {
    int body = -1;
    for (int i = 0; i < b.m.nb; ++i)
      if (b.m.body_name[i] == foot) body = i;
    REQUIRE(body >= 0);
    for (double x : {-0.05, 0.15})
      for (double y : {-0.04, 0.04}) {
        cases::ContactSpec c;
        c.s = body;
        c.point = Vec3<double>(x, y, -0.05);
        b.specs.push_back(c);
      }
  }
  b.contacts = cases::place_contacts<R>(b.m, b.q, b.specs);  // a level plane through each corner
  return b;
}

template <class V> VecX<R> qdd_of(const Biped& b, const VecX<R>& qd, const VecX<R>& tau, LoopContactWorkspace<R>& ws) {
  VecX<R> qdd(b.m.nv);
  V::template run<R>(b.m, b.loops, b.contacts, b.q, qd, tau, nullptr, qdd, ws);
  return qdd;
}

// c: complementarity of the solver's own lambda and zeta_dot, zeta_dot = T^T qdd + T_dot^T qd
// recomputed from the returned qdd, and K qdd = k. Scales: the contact forces' size (weight) for
// lambda . zeta_dot, and |qdd| + g for the accelerations.
void check_solution(const LoopContactWorkspace<R>& ws, const VecX<R>& qdd, const R& force_scale) {
  const ContactWorkspace<R>& c = ws.contact;
  const R acc = max_abs<R>(qdd) + R(kG);
  const VecX<R> zeta = c.T.transpose() * qdd + c.Tdot_qd;
  for (int i = 0; i < c.nc; ++i) {
    CHECK(c.lambda[i] >= -verify::rel40() * force_scale);
    CHECK(zeta[i] >= -verify::rel40() * acc);
    CHECK(abs_(R(c.lambda[i] * zeta[i])) <= verify::rel40() * force_scale * acc);
  }
  const VecX<R> loop_residual = ws.loop.K * qdd - ws.loop.k;
  CHECK(max_abs<R>(loop_residual) <= verify::rel40() * acc);
}

}  // namespace

TEST_CASE("loop contacts: the biped with four-bar knees stands on its eight sole corners (Reference)",
          "[loop_contact]") {
  const Biped b = biped();
  const int n = b.m.nv, nc = static_cast<int>(b.contacts.size());
  REQUIRE(n == 26);
  REQUIRE(b.loops.size() == 4);
  const VecX<R> qd = VecX<R>::Zero(n), zero = VecX<R>::Zero(n);
  // The design, from the oracle's rows: the corners' vertical rows Phi and the bias C (gravity
  // only, at rest). The minimum-norm vertical forces F that balance C on the unactuated pelvis
  // (a complete orthogonal decomposition: vertical forces span its force z and moments x, y, and
  // gravity asks for no more), and tau = C - Phi^T F on every other joint. The loops' multipliers
  // are zero in this design (every tree joint carries its share), so H 0 + C = tau + Phi^T F + K^T 0.
  const MatX<R> Phi = oracle::contact_rows<R>(b.m, b.contacts, b.q, qd).Phi;
  const VecX<R> C = oracle::inverse_dynamics<R>(b.m, b.q, qd, zero, nullptr);
  const MatX<R> A = Phi.leftCols(6).transpose();  // 6 x nc
  const VecX<R> F = Eigen::CompleteOrthogonalDecomposition<MatX<R>>(A).solve(VecX<R>(C.head(6)));
  const VecX<R> tau = C - Phi.transpose() * F;
  R mass = R(0);
  for (int i = 0; i < b.m.nb; ++i) mass += b.m.I[i].m;
  const R weight = F.sum();
  INFO("weight carried " << weight << " N, m g " << mass * R(kG) << " N");
  REQUIRE(max_abs<R>(VecX<R>(tau.head(6))) <= verify::rel40() * weight);  // the pelvis is not actuated
  REQUIRE(abs_(R(weight - mass * R(kG))) <= verify::rel40() * weight);
  for (int i = 0; i < nc; ++i) REQUIRE(F[i] > R("0.02") * weight / R(nc));  // every corner presses
  const VecX<R> expected = Phi.transpose() * F;

  const VecX<R> qdd_oracle = oracle::loop_contact_forward_dynamics<R>(b.m, b.loops, b.contacts, b.q, qd, tau, nullptr);
  CHECK(max_abs<R>(qdd_oracle) <= verify::rel40() * R(kG));
  for_each<LoopContactVariants>([&]<class V>() {
    LoopContactWorkspace<R> ws(b.m);
    const VecX<R> qdd = qdd_of<V>(b, qd, tau, ws);
    INFO(V::name << ": |qdd| " << max_abs<R>(qdd));
    CHECK(max_abs<R>(qdd) <= verify::rel40() * R(kG));
    // The contact forces are not unique (8 corners, rank 6); their generalized force is the
    // design's up to a loop force K^T mu (the loops may take any share of it), so it is compared
    // on K's null space: G^T (T lambda - Phi^T F) = 0, G from the oracle's reduction (G^T K^T = 0).
    const oracle::LoopReduction<R> red = oracle::closed_loop_reduction<R>(b.m, b.loops, b.q, qd);
    const VecX<R> Tf = ws.contact.T * ws.contact.lambda;
    CHECK(max_abs<R>(VecX<R>(red.G.transpose() * (Tf - expected))) <= verify::rel40() * weight);
    check_solution(ws, qdd, weight);
  });
}

TEST_CASE("loop contacts: the biped at random velocities under random torques equals the oracle (Reference)",
          "[loop_contact]") {
  const Biped b = biped();
  const int n = b.m.nv, nc = static_cast<int>(b.contacts.size());
  const VecX<R> zero = VecX<R>::Zero(n);
  const MatX<R> Phi = oracle::contact_rows<R>(b.m, b.contacts, b.q, zero).Phi;
  const VecX<R> C0 = oracle::inverse_dynamics<R>(b.m, b.q, zero, zero, nullptr);
  const VecX<R> F = Eigen::CompleteOrthogonalDecomposition<MatX<R>>(MatX<R>(Phi.leftCols(6).transpose()))
                        .solve(VecX<R>(C0.head(6)));
  const VecX<R> standing = C0 - Phi.transpose() * F;
  int mixed = 0;  // states where some corners lift (zeta_dot > 0) and some stay: the LCP's combinatorics at work
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    cases::Rng rng(seed);
    VecX<double> qd0(n), dtau(n);
    for (int i = 0; i < n; ++i) qd0[i] = rng.uniform(-1, 1);
    for (int i = 0; i < n; ++i) dtau[i] = i < 6 ? 0.0 : rng.uniform(-30, 30);  // the pelvis stays unactuated
    const VecX<R> qd = cases::consistent_loop_contact_velocity<R>(b.m, b.loops, b.contacts, b.q, cases::to<R>(qd0));
    const VecX<R> tau = standing + cases::to<R>(dtau);
    const VecX<R> expected = oracle::loop_contact_forward_dynamics<R>(b.m, b.loops, b.contacts, b.q, qd, tau, nullptr);
    // Lifting is read from the motion, which is unique (the forces are not: rank 6 of 8).
    const oracle::ContactRows<R> rows = oracle::contact_rows<R>(b.m, b.contacts, b.q, qd);
    const VecX<R> zeta_dot = rows.Phi * expected + rows.bias;
    int lifting = 0;
    for (int i = 0; i < nc; ++i) lifting += zeta_dot[i] > R("1e-30");
    mixed += lifting > 0 && lifting < nc;
    for_each<LoopContactVariants>([&]<class V>() {
      LoopContactWorkspace<R> ws(b.m);
      const VecX<R> qdd = qdd_of<V>(b, qd, tau, ws);
      INFO(V::name << ", seed " << seed << ": " << lifting << " corners lift");
      CHECK(verify::close40(qdd, expected, R(kG)));
      check_solution(ws, qdd, R(300));  // forces of the order of the weight (~26 kg)
    });
  }
  CHECK(mixed >= 2);
}

TEST_CASE("loop contacts: contacts the loops hold entirely take no force, or have no solution (Reference)",
          "[loop_contact]") {
  {  // The biped with its soles welded: the corners cannot move, whatever the torques.
    const cases::SdfModel sd = cases::load_sdf(std::string(RBDLAB_SOURCE_DIR) + "/examples/sdf/biped_linkages.sdf");
    Biped b = biped();
    b.loops = cases::close_loops<R>(b.m, b.q, cases::loop_specs_at(sd.model, sd.loops, neutral_configuration(sd.model)));
    REQUIRE(b.loops.size() == 6);
    const int n = b.m.nv;
    VecX<double> qd0(n), tau0(n);
    cases::Rng rng(7);
    for (int i = 0; i < n; ++i) qd0[i] = rng.uniform(-1, 1);
    for (int i = 0; i < n; ++i) tau0[i] = rng.uniform(-30, 30);
    const VecX<R> qd = cases::consistent_loop_contact_velocity<R>(b.m, b.loops, b.contacts, b.q, cases::to<R>(qd0));
    const VecX<R> tau = cases::to<R>(tau0);
    ClosedLoopWorkspace<R> lws(b.m);
    VecX<R> loops_only(n);
    LoopNullspace::run<R>(b.m, b.loops, b.q, qd, tau, nullptr, loops_only, lws);
    CHECK(verify::close40(oracle::loop_contact_forward_dynamics<R>(b.m, b.loops, b.contacts, b.q, qd, tau, nullptr),
                          loops_only, R(kG)));
    for_each<LoopContactVariants>([&]<class V>() {
      LoopContactWorkspace<R> ws(b.m);
      const VecX<R> qdd = qdd_of<V>(b, qd, tau, ws);
      INFO(V::name);
      CHECK(verify::close40(qdd, loops_only, R(kG)));
      CHECK(max_abs<R>(ws.contact.lambda) == R(0));
    });
  }
  // GU(2) at seed 1: its drawn revolute loop locks joint 1, so body 1 turns rigidly about joint 0's
  // axis. A contact on body 1 whose normal line meets that axis (built in Reference: radial, from
  // the point towards the axis) is held: no motion the loop allows moves it along its normal, and
  // the point's centripetal acceleration lies along the normal line. Pointing towards the axis the
  // loop pulls the point off its surface (the contact does nothing); pointing away it drives the
  // point in (no solution).
  const Model<double> md = cases::gu(2);
  const cases::State st = cases::random_state(md, 1);
  const Model<R> m = md.cast<R>();
  const VecX<R> q = cases::to<R>(st.q), tau = cases::to<R>(st.tau);
  const LoopJoints<R> loops = cases::close_loops<R>(m, q, st.loops);
  const std::vector<Transform<R>> X0 = cases::body_transforms<R>(m, q);
  const Vec3<R> axis = X0[0].E.transpose() * m.joint[0].axis, point = cases::to<R>(VecX<double>(Vec3<double>(0.2, 0.1, 0.05)));
  const Vec3<R> C = X0[1].r + X0[1].E.transpose() * point, v = C - X0[0].r;
  const Vec3<R> inward = -(v - v.dot(axis) * axis).normalized();
  cases::ContactSpec spec;
  spec.s = 1;
  spec.point = Vec3<double>(0.2, 0.1, 0.05);
  PointContacts<R> contacts = cases::place_contacts<R>(m, q, {spec});
  contacts[0].normal = inward;  // base coordinates (p = -1), exact to Reference's rounding
  contacts[0].offset = inward.dot(C);
  VecX<double> qd0(m.nv);
  qd0 << 1.5, -0.7;
  const VecX<R> qd = cases::consistent_loop_contact_velocity<R>(m, loops, contacts, q, cases::to<R>(qd0));
  REQUIRE(abs_(R(qd[0])) > R("0.5"));  // joint 0 turns
  const oracle::LoopReduction<R> red = oracle::closed_loop_reduction<R>(m, loops, q, qd);
  REQUIRE(red.G.cols() == 1);
  REQUIRE(max_abs<R>(VecX<R>((oracle::contact_rows<R>(m, contacts, q, qd).Phi * red.G).transpose())) <= R("1e-45"));
  ClosedLoopWorkspace<R> lws(m);
  VecX<R> loops_only(m.nv);
  LoopNullspace::run<R>(m, loops, q, qd, tau, nullptr, loops_only, lws);
  for (const int way : {1, -1}) {
    PointContacts<R> c = contacts;
    c[0].normal *= R(way);
    c[0].offset *= R(way);
    const oracle::ContactRows<R> rows = oracle::contact_rows<R>(m, c, q, qd);
    const R zeta_dot = rows.bias[0] + rows.Phi.row(0).dot(loops_only);
    INFO("normal x " << way << ": the loop imposes zeta_dot = " << zeta_dot);
    CHECK(R(way) * zeta_dot > R("1e-3"));  // towards the axis: pulled off; away: driven in
    if (way > 0) {
      CHECK(verify::close40(oracle::loop_contact_forward_dynamics<R>(m, loops, c, q, qd, tau, nullptr), loops_only, R(kG)));
      for_each<LoopContactVariants>([&]<class V>() {
        LoopContactWorkspace<R> ws(m);
        VecX<R> qdd(m.nv);
        V::template run<R>(m, loops, c, q, qd, tau, nullptr, qdd, ws);
        INFO(V::name);
        CHECK(verify::close40(qdd, loops_only, R(kG)));
        CHECK(ws.contact.lambda[0] == R(0));
      });
    } else {
      CHECK_THROWS_AS(oracle::loop_contact_forward_dynamics<R>(m, loops, c, q, qd, tau, nullptr), std::domain_error);
      for_each<LoopContactVariants>([&]<class V>() {
        LoopContactWorkspace<R> ws(m);
        VecX<R> qdd(m.nv);
        INFO(V::name);
        CHECK_THAT(verify::message_of<std::domain_error>([&] { V::template run<R>(m, loops, c, q, qd, tau, nullptr, qdd, ws); }),
                   Catch::Contains("contact 0 is held by the loops") && Catch::Contains("no solution"));
      });
    }
  }
}

TEST_CASE("loop contacts: bad input is refused with a message", "[loop_contact][bad_input]") {
  const Biped b = biped();
  const int n = b.m.nv;
  const VecX<R> zero = VecX<R>::Zero(n);
  for_each<LoopContactVariants>([&]<class V>() {
    INFO(V::name);
    LoopContactWorkspace<R> ws(b.m);
    VecX<R> qdd(n);
    VecX<R> q = b.q;
    q[8] = R(std::numeric_limits<double>::quiet_NaN());
    CHECK_THAT(verify::message_of<std::domain_error>(
                   [&] { V::template run<R>(b.m, b.loops, b.contacts, q, zero, zero, nullptr, qdd, ws); }),
               Catch::Contains("non-finite"));
    PointContacts<R> wrong = b.contacts;
    wrong[0].s = b.m.nb + 3;
    CHECK_THAT(verify::message_of<std::exception>(
                   [&] { V::template run<R>(b.m, b.loops, wrong, b.q, zero, zero, nullptr, qdd, ws); }),
               Catch::Contains("contact 0"));
  });
}

}  // namespace test_loop_contact_dynamics
