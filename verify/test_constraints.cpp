// Gates for the constraints family (algorithms/constraints/, Tasora & Righettini, seed 001):
// the quaternion product matrices; C, C_q (7-coordinate and 6-velocity forms), C_t and gamma
// against exact time derivatives of C along trajectories on the unit-quaternion manifold
// (reference/lock_oracle.hpp: Rodrigues matrices, SU(2) quaternions, nested duals); for all 64
// masks the rank of C_q and its null space (Featherstone's Table 4.1 motion subspaces from
// jcalc where a joint matches, the derived subspace otherwise); the seed's printed formulas,
// the wrong ones failing beside their corrected forms. All in the 50-digit Reference scalar.
#include <catch2/catch.hpp>

#include <Eigen/LU>

#include "model/joint.hpp"
#include "verify/support/constraints_cases.hpp"
#include "verify/support/constraints_mechanism.hpp"
#include "verify/support/constraints_seed_formulas.hpp"

namespace test_constraints {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

using namespace rbd;
using namespace rbd::verify::constraints;

namespace {
// Tolerances. Every quantity is O(1)..O(10) (unit-scale positions, angles, rates) and takes a
// few hundred Reference operations (eps = 1e-50) on each side: 40 digits leave ten digits of
// margin for round-off, while a wrong term shows an O(1e-3..1) difference (the printed-form
// halves require > 1e-3 and typically see O(1)).
constexpr double kDigits = 40.0;
const R kTol = R("1e-40");
const R kWrong = R("1e-3");
// Rank threshold: FullPivLU's pivots relative to the largest; the nonzero singular values of
// the masked C_q are O(0.1..1) on these states (checked: the smallest pivot is printed by
// constraints_study), the "zero" ones are round-off at 1e-48; 1e-30 sits between with 18
// decades to spare on each side.
const R kRankThreshold = R("1e-30");

int rank_of(const MatX<R>& M) {
  if (M.rows() == 0 || M.cols() == 0) return 0;
  Eigen::FullPivLU<MatX<R>> lu(M);
  lu.setThreshold(kRankThreshold);
  return static_cast<int>(lu.rank());
}
R max_abs(const MatX<R>& M) { return M.size() == 0 ? R(0) : R(M.cwiseAbs().maxCoeff()); }

// [omega_P; v_P] (P's twist in P coordinates, angular first as Featherstone) -> [x_dot_A; omega_A]
// with body B at rest: omega_A = A_P omega_P, x_dot_A = A_A A_P v_P + A_A [u_P]x A_P omega_P.
Mat6<R> twist_map(const ConsistentState& s) {
  const Mat3<R> LA = s.A.q.matrix(), LP = s.lock.marker_P.q.matrix();
  Mat6<R> T = Mat6<R>::Zero();
  T.block<3, 3>(0, 0) = LA * skew(s.lock.marker_P.u) * LP;
  T.block<3, 3>(0, 3) = LA * LP;
  T.block<3, 3>(3, 0) = LP;
  return T;
}

// The null space derived in algorithms/constraints/README.md, in P-twist coordinates: with
// p = q_Delta* q_rel, W = p_w I + [p_v]x (invertible when p_w != 0) and Lrel = A(q_rel),
// omega_P in W^-1 span{e_k : rotation row k free}, v_P in Lrel^T span{e_k : translation row k free}.
MatX<R> derived_null_space(const ConsistentState& s) {
  const unsigned m = s.lock.mask;
  const Quaternion<R> q_rel = s.lock.marker_S.q.conjugate() * s.B.q.conjugate() * s.A.q * s.lock.marker_P.q;
  const Quaternion<R> p = s.lock.law.q.conjugate() * q_rel;
  const Mat3<R> Winv = (p.w * Mat3<R>::Identity() + skew(p.v)).inverse();
  const Mat3<R> LrelT = q_rel.matrix().transpose();
  MatX<R> N(6, kLockRows - lock_row_count(m));
  N.setZero();
  int j = 0;
  for (int k = 0; k < 3; ++k)
    if (!lock_row_active(m, 3 + k)) N.block<3, 1>(0, j++) = Winv.col(k);
  for (int k = 0; k < 3; ++k)
    if (!lock_row_active(m, k)) N.block<3, 1>(3, j++) = LrelT.col(k);
  return N;
}

// Featherstone's S (Table 4.1, from jcalc) for the joint a mask reproduces, axis z.
bool table41_subspace(LockJoint joint, MatX<R>& S) {
  JointType t;
  switch (joint) {
    case LockJoint::Revolute: t = JointType::Revolute; break;
    case LockJoint::Prismatic: t = JointType::Prismatic; break;
    case LockJoint::Cylindrical: t = JointType::Cylindrical; break;
    case LockJoint::Planar: t = JointType::Planar; break;
    case LockJoint::Spherical: t = JointType::Spherical; break;
    case LockJoint::Free: t = JointType::Free; break;
    case LockJoint::Fixed: S.resize(6, 0); return true;  // no motion: the null space is {0}
    default: return false;
  }
  Joint<R> j;
  j.type = t;
  Eigen::Matrix<R, 7, 1> q = Eigen::Matrix<R, 7, 1>::Zero();
  q[0] = R(1);  // identity quaternion for spherical/free; S is constant in F_s for every Table 4.1 joint
  JointKinematics<R> J;
  jcalc_position(j, q, J);
  S = J.S_;
  return true;
}
}  // namespace

TEST_CASE("constraints: quaternion product matrices (seed 001, Eqs. 55-62) and rate maps", "[constraints][seed]") {
  cases::Rng rng(17);
  for (int i = 0; i < 5; ++i) {
    // Any quaternions for the product matrices (they are linear), unit ones for the rate maps.
    const Quaternion<R> p{R(rng.uniform(-2, 2)), vec3(rng, -2, 2)}, q{R(rng.uniform(-2, 2)), vec3(rng, -2, 2)};
    const Vec4<R> pq = as_vec4(p * q);
    CHECK(max_abs(qplus(p) * as_vec4(q) - pq) < kTol);                 // Eq. 55-56
    CHECK(max_abs(qminus(q) * as_vec4(p) - pq) < kTol);                // Eqs. 57-58
    CHECK(max_abs(qplus(p) * qminus(q) - qminus(q) * qplus(p)) < kTol);  // associativity: p x q
    CHECK(max_abs(conjugation_matrix<R>() * as_vec4(q) - as_vec4(q.conjugate())) == 0);  // Eqs. 61-62
    CHECK(max_abs(qplus(p) * as_vec4(q) - qminus(p) * as_vec4(q)) > kWrong);            // not commutative
    const Quaternion<R> u = unit_quaternion(rng);
    const Vec3<R> w = vec3(rng, -2, 2);
    const Vec4<R> u_dot = rate_matrix(u) * w;
    CHECK(max_abs(u_dot - as_vec4(R(1) / R(2) * (u * Quaternion<R>::pure(w)))) < kTol);  // q_dot = q S(w)/2
    CHECK(max_abs(gl_matrix(u) * u_dot - w) < kTol);                                      // Gl inverts it
    CHECK(max_abs(gl_matrix(u) * as_vec4(u)) < kTol);                                     // blind to the radial direction
  }
}

TEST_CASE("constraints: C, C_q, C_t and gamma are the exact derivatives of C (AD oracle)", "[constraints][exactness]") {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const bool rheonomic = seed % 2 == 0;
    const auto c = random_case(seed, rheonomic);
    const auto m = oracle::lock::lock_motion(c, R(seed) / R(5));
    const Inputs in = inputs(c, m);
    INFO("seed " << seed << (rheonomic ? " (rheonomic law)" : " (static law)"));
    const Vec6<R> C = lock_c(in.lock, in.A, in.B);
    const Mat6x14<R> Cq = lock_cq7(in.lock, in.A, in.B);
    const Mat6x12<R> Cv = lock_cv(in.lock, in.A, in.B);
    const Vec6<R> Ct = lock_ct(in.lock, in.A, in.B);
    CHECK(digits(C, row6(m.C[0])) >= kDigits);
    CHECK(digits(Vec6<R>(Cq * stack7(in.rA, in.rB) + Ct), row6(m.C[1])) >= kDigits);
    CHECK(digits(Vec6<R>(Cv * stack6(in.tA, in.tB) + Ct), row6(m.C[1])) >= kDigits);
    const Vec6<R> g7 = lock_gamma7(in.lock, in.A, in.B, in.rA, in.rB);
    const Vec6<R> g6 = lock_gamma6(in.lock, in.A, in.B, in.tA, in.tB);
    CHECK(digits(Vec6<R>(Cq * stack7(in.aA, in.aB) - g7), row6(m.C[2])) >= kDigits);
    CHECK(digits(Vec6<R>(Cv * stack6(in.sA, in.sB) - g6), row6(m.C[2])) >= kDigits);
    // The two forms are one Jacobian: C_v = C_q7 blockdiag(1, Gamma(q_A), 1, Gamma(q_B)).
    Eigen::Matrix<R, 14, 12> G = Eigen::Matrix<R, 14, 12>::Zero();
    G.block<3, 3>(0, 0).setIdentity();
    G.block<4, 3>(3, 3) = rate_matrix(in.A.q);
    G.block<3, 3>(7, 6).setIdentity();
    G.block<4, 3>(10, 9) = rate_matrix(in.B.q);
    CHECK(max_abs(Cq * G - Cv) < kTol);
    // C_t vanishes for a static law, and the rheonomic cases do exercise it.
    if (!rheonomic) CHECK(max_abs(Ct) == 0);
    if (rheonomic) CHECK(max_abs(Ct) > kWrong);
  }
}

TEST_CASE("constraints: rank and null space of C_q for all 64 masks (Table 1, Table 4.1)", "[constraints][identities]") {
  int featherstone_checked = 0;
  for (unsigned mask = 0; mask < kLockMasks; ++mask) {
    const int n = lock_row_count(mask);
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      // Seed 1 with the identity law (the joint frames of Table 4.1), seed 2 with a random static
      // law, seed 3 at a half turn of the rotational constraint (p_w = 0), where W is singular but
      // the locked rows are not (README: the vector-part rows keep full rank on the whole manifold).
      const bool half = seed == 3, identity = seed == 1;
      const ConsistentState s = consistent_state(mask, 1000 * mask + seed, half, identity);
      INFO("mask " << mask << " seed " << seed << (half ? " (half turn)" : ""));
      CHECK(max_abs(MatX<R>(select_lock_rows(mask, lock_c(s.lock, s.A, s.B)))) < kTol);  // a consistent state
      const MatX<R> Cv = select_lock_rows(mask, lock_cv(s.lock, s.A, s.B));
      const MatX<R> Cq = select_lock_rows(mask, lock_cq7(s.lock, s.A, s.B));
      CHECK(rank_of(Cv) == n);
      CHECK(rank_of(Cq) == n);
      // A rigid motion of both bodies together leaves every row (locked or not) unchanged:
      // both share the world twist (w, v0): x_dot = v0 + w x x, omega_body = A^T w.
      const Vec3<R> w(R(1) / R(3), R(-2), R(1) / R(2)), v0(R(1), R(1) / R(7), R(-1));
      Eigen::Matrix<R, 12, 1> rigid;
      rigid << v0 + w.cross(s.A.x), s.A.q.matrix().transpose() * w, v0 + w.cross(s.B.x), s.B.q.matrix().transpose() * w;
      CHECK(max_abs(MatX<R>(lock_cv(s.lock, s.A, s.B) * rigid)) < kTol);
      if (half) continue;  // W^-1 in the derived subspace needs p_w != 0
      // Null space with body B at rest, in P-twist coordinates: J N = 0 with rank N = 6 - n and
      // rank J = n pins null(J) = span N.
      const MatX<R> J = Cv.leftCols(6) * twist_map(s);
      const MatX<R> N = derived_null_space(s);
      CHECK(rank_of(N) == kLockRows - n);
      CHECK(max_abs(MatX<R>(J * N)) < kTol);
      const LockMaskName* name = lock_mask_name(mask);
      MatX<R> S;
      if (identity && name && table41_subspace(name->joint, S)) {
        INFO("Table 4.1 joint for " << name->name);
        CHECK(S.cols() == kLockRows - n);
        CHECK(rank_of(S) == S.cols());
        CHECK(max_abs(MatX<R>(J * S)) < kTol);
        ++featherstone_checked;
      }
    }
  }
  CHECK(featherstone_checked == 7);  // fixed, revolute, prismatic, cylindrical, planar, spherical, free
}

TEST_CASE("constraints: the seed's printed formulas that hold (Eqs. 13, 21, 48, 56-58, 67, 69; sections 6.1-6.4)", "[constraints][seed]") {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const auto c = random_case(seed + 40, true);
    const auto m = oracle::lock::lock_motion(c, R(1) / R(3));
    const Inputs in = inputs(c, m);
    // Eq. 13 (sandwich) = Eq. 14 (matrix).
    const Vec3<R> x(R(1) / R(3), R(-2), R(5) / R(7));
    CHECK(max_abs(MatX<R>((in.A.q * Quaternion<R>::pure(x) * in.A.q.conjugate()).v - in.A.q.matrix() * x)) < kTol);
    // Eq. 21: q_dot = 1/2 S(omega_W) q, omega in world coordinates (oracle's vee(R_dot R^T)).
    CHECK(max_abs(MatX<R>(as_vec4(seed::eq21(in.A.q, vec(m.A.omega_world))) - as_vec4(in.rA.q_dot))) < kTol);
    // Eq. 48: q_rel's matrix is A_S^T A_O2^T A_O1 A_P.
    const Quaternion<R> q_rel = in.lock.marker_S.q.conjugate() * in.B.q.conjugate() * in.A.q * in.lock.marker_P.q;
    CHECK(max_abs(MatX<R>(q_rel.matrix() - in.lock.marker_S.q.matrix().transpose() * in.B.q.matrix().transpose() * in.A.q.matrix() *
                                               in.lock.marker_P.q.matrix())) < kTol);
    // Eqs. 67 and 69 (chained product matrices) are the rotational blocks of C_q.
    const Mat6x14<R> Cq = lock_cq7(in.lock, in.A, in.B);
    CHECK(max_abs(MatX<R>(seed::eq67(in.lock, in.B) - Cq.block<3, 4>(3, 3))) < kTol);
    CHECK(max_abs(MatX<R>(seed::eq69(in.lock, in.A) - Cq.block<3, 4>(3, 10))) < kTol);
    // Eqs. 42a and 42c: the x blocks are +-A_S^T A_O2^T.
    const Mat3<R> M = in.lock.marker_S.q.matrix().transpose() * in.B.q.matrix().transpose();
    CHECK(max_abs(MatX<R>(Cq.block<3, 3>(0, 0) - M)) < kTol);
    CHECK(max_abs(MatX<R>(Cq.block<3, 3>(0, 7) + M)) < kTol);
  }
  // Sections 6.1-6.4 list the same rows as Table 1's masks.
  for (const auto& r : seed::kSectionRows) {
    unsigned mask = 0;
    for (int i = 0; i < r.n; ++i) mask |= 1u << (r.rows[i] - 1);
    INFO(r.joint);
    CHECK(mask == r.mask_from_table);
  }
}

TEST_CASE("constraints: the seed's printed formulas that are wrong fail; the corrected forms pass", "[constraints][seed]") {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const auto c = random_case(seed + 60, true);
    const auto m = oracle::lock::lock_motion(c, R(2) / R(5));
    const Inputs in = inputs(c, m);
    INFO("seed " << seed);
    // Eq. 3, entry (2,1): 2(t1 t2 + 2 t0 t3) printed, 2(t1 t2 + t0 t3) right.
    CHECK(max_abs(MatX<R>(seed::eq3_printed(in.A.q, false) - in.A.q.matrix())) > kWrong);
    CHECK(max_abs(MatX<R>(seed::eq3_printed(in.A.q, true) - in.A.q.matrix())) < kTol);
    // Eq. 22: q_ddot = 1/2 S(alpha_W) q misses -|omega|^2 q / 4 (oracle's q_ddot).
    const Vec3<R> wW = vec(m.A.omega_world), aW = vec(m.A.alpha_world);
    CHECK(max_abs(MatX<R>(as_vec4(seed::eq22_printed(in.A.q, aW)) - as_vec4(in.aA.q_dot))) > kWrong);
    CHECK(max_abs(MatX<R>(as_vec4(seed::eq22_corrected(in.A.q, wW, aW)) - as_vec4(in.aA.q_dot))) < kTol);
    // Eq. 36: x_dot_O2 where x_ddot_O2 belongs (oracle's second derivative of X_P - X_S).
    const Vec3<R> ddW = vec(m.dW.v[2]);
    CHECK(max_abs(MatX<R>(seed::eq36(in.lock, in.A, in.B, in.tA, in.sA, in.tB, in.sB, false) - ddW)) > kWrong);
    CHECK(max_abs(MatX<R>(seed::eq36(in.lock, in.A, in.B, in.tA, in.sA, in.tB, in.sB, true) - ddW)) < kTol);
    // Eq. 42b: with A_O1^T for A_O2^T, C_q q_dot + C_t no longer matches the oracle's C_dot.
    Mat6x14<R> Cq = lock_cq7(in.lock, in.A, in.B);
    const Vec6<R> Ct = lock_ct(in.lock, in.A, in.B);
    for (const bool corrected : {false, true}) {
      Cq.block<3, 4>(0, 3) = seed::eq42b(in.lock, in.A, in.B, corrected);
      const R err = R((Cq * stack7(in.rA, in.rB) + Ct - row6(m.C[1])).cwiseAbs().maxCoeff());
      CHECK((corrected ? err < kTol : err > kWrong));
    }
  }
  // Eq. 49: at a state where the markers are exactly aligned (every row locked and satisfied),
  // the printed q_P^-1 leaves an O(1) residual; q_P (Eq. 48) gives zero.
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const ConsistentState s = consistent_state(63u, 77 + seed);
    CHECK(max_abs(MatX<R>(seed::eq49(s.lock, s.A, s.B, false))) > kWrong);
    CHECK(max_abs(MatX<R>(seed::eq49(s.lock, s.A, s.B, true))) < kTol);
  }
}

TEST_CASE("constraints: bad input gets a clear error", "[constraints]") {
  const ConsistentState s = consistent_state(31u, 5);
  CHECK_NOTHROW(validate_lock(s.lock, s.A, s.B));
  CHECK_THROWS_WITH(validate_lock_mask(64), Catch::Contains("outside 0..63"));
  CHECK_THROWS_WITH(validate_lock_mask(-1), Catch::Contains("outside 0..63"));
  LockConstraint<R> bad = s.lock;
  bad.mask = 64u;
  CHECK_THROWS_WITH(validate_lock(bad, s.A, s.B), Catch::Contains("mask 64"));
  BodyPose<R> A = s.A;
  A.q = R(2) * A.q;
  CHECK_THROWS_WITH(validate_lock(s.lock, A, s.B), Catch::Contains("body A's quaternion is not a unit quaternion"));
  bad = s.lock;
  bad.marker_P.u.x() = std::numeric_limits<R>::quiet_NaN();
  CHECK_THROWS_WITH(validate_lock(bad, s.A, s.B), Catch::Contains("marker P's position is not finite"));
  bad = s.lock;
  bad.law.q = Quaternion<R>{R(0), Vec3<R>::Zero()};
  CHECK_THROWS_WITH(validate_lock(bad, s.A, s.B), Catch::Contains("q_Delta"));
}

TEST_CASE("constraints: maximal coordinates with locks (KKT) give ABA's accelerations", "[constraints][exactness]") {
  // Consistent states: the maximal state is the forward kinematics of a minimal one, so every
  // lock holds exactly; ABA's qdd carried to body accelerations must equal the KKT solution.
  // Same 40-digit tolerance: both sides are O(10) numbers from a few thousand Reference operations
  // on a well-conditioned 37 x 37 KKT matrix (cond ~ 1e3 at most here).
  const Model<R> m = lock_mechanism().cast<R>();
  const MaximalSystem<R> sys = maximal_system(m);
  CHECK(sys.nc() == 5 + 3 + 5);
  MaximalWorkspace<R> mws(sys);
  ForwardDynamicsWorkspace<R> ws(m);
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    VecX<R> q, qd, qdd(m.nv), udot_aba, udot_kkt;
    mechanism_state(m, seed, q, qd);
    const VecX<R> tau = VecX<R>::Zero(m.nv);
    Aba::run<R>(m, q, qd, tau, static_cast<const ExternalForces<R>*>(nullptr), qdd, ws);
    const MaximalState<R> x = maximal_state_of(m, q, qd, &qdd, &udot_aba);
    for (const auto& l : sys.locks) {  // a consistent state
      const BodyPose<R> ground{};
      CHECK(max_abs(MatX<R>(select_lock_rows(l.lock.mask, lock_c(l.lock, x.pose[l.A], l.B < 0 ? ground : x.pose[l.B])))) < kTol);
    }
    maximal_forward_dynamics(sys, x, udot_kkt, mws);
    INFO("seed " << seed);
    CHECK(digits(udot_kkt, udot_aba) >= kDigits);
    CHECK(max_abs(MatX<R>(udot_aba)) > R(1));  // not a trivial agreement
  }
}

}  // namespace test_constraints
