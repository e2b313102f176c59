// Tests of the case generators (cases/) and of the configuration-space operations
// (algorithms/model/configuration.hpp): determinism, validity of every registry case, the
// structure each family promises, the book's published numbers for the zigzag mechanism,
// DH frames against an independent 4x4 homogeneous-matrix construction, and the
// consistency of integrate(), qdot() and jcalc.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

#include <Eigen/Dense>

#include "cases/registry.hpp"
#include "core/counting_scalar.hpp"
#include "mass_matrix/crba.hpp"
#include "model/configuration.hpp"
#include "reference/reference_scalar.hpp"

namespace test_cases {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

namespace {

using namespace rbd;
using rbd::cases::Rng;

constexpr double kEps = std::numeric_limits<double>::epsilon();

// Bitwise equality of two double models (every number that defines the model).
bool identical(const Model<double>& a, const Model<double>& b) {
  if (a.name != b.name || a.nb != b.nb || a.nq != b.nq || a.nv != b.nv || a.parent != b.parent ||
      a.q_idx != b.q_idx || a.v_idx != b.v_idx || a.gravity != b.gravity)
    return false;
  for (int i = 0; i < a.nb; ++i) {
    if (a.joint[i].type != b.joint[i].type || a.joint[i].axis != b.joint[i].axis ||
        a.joint[i].pitch != b.joint[i].pitch || a.joint[i].aligned != b.joint[i].aligned)
      return false;
    if (a.Xtree[i].E != b.Xtree[i].E || a.Xtree[i].r != b.Xtree[i].r) return false;
    if (a.mass[i] != b.mass[i] || a.com[i] != b.com[i] || a.Icom[i] != b.Icom[i]) return false;
    if (a.I[i].m != b.I[i].m || a.I[i].h != b.I[i].h || a.I[i].Ibar != b.I[i].Ibar) return false;
  }
  return true;
}

bool is_quaternion_joint(JointType t) { return t == JointType::Spherical || t == JointType::Free; }

double max_quaternion_norm_error(const Model<double>& m, const VecX<double>& q) {
  double worst = 0;
  for (int i = 0; i < m.nb; ++i)
    if (is_quaternion_joint(m.joint[i].type))
      worst = std::max(worst, std::abs(q.segment<4>(m.q_idx[i]).norm() - 1));
  return worst;
}

std::vector<Model<double>> all_registry_models() {
  std::vector<Model<double>> out;
  for (const auto& spec : cases::verify_cases()) out.push_back(spec.build());
  return out;
}

}  // namespace

TEST_CASE("cases: Rng is the standard mt19937_64 mapped by hand", "[cases][random]") {
  // The C++ standard fixes mt19937_64's 10000th output for the default seed 5489.
  Rng r(5489);
  for (int i = 0; i < 9999; ++i) r.bits();
  CHECK(r.bits() == 9981545732273789042ULL);
  // uniform01 = (bits >> 11) * 2^-53, in [0, 1).
  Rng a(42), b(42);
  for (int i = 0; i < 1000; ++i) {
    const double u = a.uniform01();
    CHECK(u == static_cast<double>(b.bits() >> 11) * 0x1.0p-53);
    CHECK(u >= 0.0);
    CHECK(u < 1.0);
  }
}

TEST_CASE("cases: golden values (same numbers on every platform)", "[cases][random]") {
  // Recorded once; any standard library gives these bits, provided double arithmetic is
  // IEEE binary64 without a*b+c contracted into FMA (see cases/random.hpp). A failure here
  // on a new platform means the cases differ there: build with -ffp-contract=off.
  Rng r(1);
  CHECK(r.uniform01() == 0x1.122deafddb434p-3);
  CHECK(r.uniform01() == 0x1.175c928118c7cp-3);
  CHECK(r.uniform01() == 0x1.ce0b479deb99p-2);
  const Model<double> g = cases::gu(3);
  CHECK(g.mass[2] == 0x1.24c2fa59db016p+0);
  CHECK(g.com[2][1] == 0x1.8edf6259911dap-5);
  CHECK(g.Icom[2](0, 1) == 0x1.fbe80467ec5b9p-10);
  CHECK(g.Xtree[1].r[0] == 0x1.5c9c762e01181p-6);
  const Model<double> a = cases::all_joints_tree();
  CHECK(a.mass[12] == 0x1.9c18bc9cc7671p+1);
  CHECK(a.joint[6].pitch == 0x1.3f0cedfc43a06p-3);
  const cases::State s = cases::random_state(a, 7);
  CHECK(s.q[3] == 0x1.cee45ad855537p-3);
  CHECK(s.tau[5] == -0x1.6bfb29d283868p-1);
}

TEST_CASE("cases: random rotations and inertias are valid", "[cases][random]") {
  Rng rng(3);
  for (int k = 0; k < 200; ++k) {
    const Mat3<double> R = rng.rotation();
    CHECK((R * R.transpose() - Mat3<double>::Identity()).norm() < 8 * kEps);
    CHECK(R.determinant() > 0);
    CHECK(std::abs(rng.unit_vector().norm() - 1) < 4 * kEps);
    const double m = rng.uniform(0.5, 5);
    const Mat3<double> I = rng.inertia_about_com(m, 0.4);
    CHECK(I == I.transpose());
    Eigen::SelfAdjointEigenSolver<Mat3<double>> es(I);
    const Vec3<double> p = es.eigenvalues();
    CHECK(p[0] > 0);
    // Margin by construction: I1 + I2 - I3 = (m/6) c^2 >= (m/6) (0.3 * 0.4)^2.
    CHECK(p[0] + p[1] - p[2] > 0.99 * m / 6 * 0.12 * 0.12);
  }
}

TEST_CASE("cases: generators are deterministic for a seed", "[cases]") {
  CHECK(identical(cases::gu(9, 3), cases::gu(9, 3)));
  CHECK(!identical(cases::gu(9, 3), cases::gu(9, 4)));
  CHECK(identical(cases::all_joints_tree(5), cases::all_joints_tree(5)));
  CHECK(identical(cases::single_joint(JointType::Helical, cases::kGeneralAxis, 2),
                  cases::single_joint(JointType::Helical, cases::kGeneralAxis, 2)));
  CHECK(identical(cases::auto_tree(7, 2, 0.5, 0.9), cases::auto_tree(7, 2, 0.5, 0.9)));
  CHECK(identical(cases::puma_like_dh(), cases::puma_like_dh()));
  const Model<double> m = cases::all_joints_tree();
  const cases::State s1 = cases::random_state(m, 11), s2 = cases::random_state(m, 11), s3 = cases::random_state(m, 12);
  CHECK(s1.q == s2.q);
  CHECK(s1.qd == s2.qd);
  CHECK(s1.qdd == s2.qdd);
  CHECK(s1.tau == s2.tau);
  CHECK(s1.f_ext == s2.f_ext);
  CHECK(s1.q != s3.q);
}

TEST_CASE("cases: every registry case builds and round-trips through its id", "[cases][registry]") {
  const auto specs = cases::verify_cases();
  REQUIRE(specs.size() >= 12 + 4 + 3 + 13);
  std::set<std::string> ids;
  for (const auto& spec : specs) {
    INFO(spec.id);
    CHECK(ids.insert(spec.id).second);  // unique ids
    Model<double> m;
    REQUIRE_NOTHROW(m = spec.build());   // ModelBuilder validated it
    CHECK(m.name == spec.id);
    CHECK(identical(m, cases::build_case(spec.id)));
    CHECK(std::find(spec.tags.begin(), spec.tags.end(), "verify") != spec.tags.end());
    const bool single = std::find(spec.tags.begin(), spec.tags.end(), "single_dof") != spec.tags.end();
    CHECK(single == m.all_single_dof());
    const cases::State s = cases::random_state(m, 1);
    CHECK(s.q.size() == m.nq);
    CHECK(s.qd.size() == m.nv);
    CHECK(s.qdd.size() == m.nv);
    CHECK(s.tau.size() == m.nv);
    CHECK(static_cast<int>(s.f_ext.size()) == m.nb);
    CHECK(max_quaternion_norm_error(m, s.q) < 4 * kEps);
  }
  for (int n = 1; n <= 12; ++n) CHECK(ids.count("gu:" + std::to_string(n)) == 1);
  for (const char* id : {"tree:bf=1:nb=8", "tree:bf=2:nb=15", "tree:bf=1.5:nb=12", "all_joints", "zigzag",
                         "dh:puma_like", "joint:revolute_x", "joint:helical", "joint:free"})
    CHECK(ids.count(id) == 1);
}

TEST_CASE("cases: build_case parses ids and rejects bad ones", "[cases][registry]") {
  CHECK(cases::build_case("gu:7").nb == 7);
  CHECK(cases::build_case("gu:4:seed=9").name == "gu:4:seed=9");
  CHECK(identical(cases::build_case("tree:nb=15:bf=2"), cases::auto_tree(15, 2)));  // keys in any order
  CHECK(cases::build_case("tree:bf=2:nb=7:skew=0.5:taper=0.9").name == "tree:bf=2:nb=7:skew=0.5:taper=0.9");
  CHECK(cases::build_case("planar_chain:nb=10").nb == 10);
  CHECK(cases::build_case("zigzag").nb == 6);
  for (const char* bad : {"", "foo", "gu", "gu:0", "gu:x", "gu:3:color=red", "tree:bf=2", "tree:bf=0.5:nb=3",
                          "tree:bf=2:nb=3:nb=4", "zigzag:1", "joint:bogus", "joint", "dh:stanford", "all_joints:seed=-1"})
    CHECK_THROWS_AS(cases::build_case(bad), std::invalid_argument);
  try {
    cases::build_case("joint:bogus");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("joint:bogus") != std::string::npos);
    CHECK(std::string(e.what()).find("revolute_x") != std::string::npos);  // lists the known names
  }
}

TEST_CASE("cases: all_joints_tree uses every joint type and is branched", "[cases][joints]") {
  const Model<double> m = cases::all_joints_tree();
  std::set<JointType> types;
  std::set<int> revolute_aligned, prismatic_aligned;
  bool helical_pitch = false;
  for (int i = 0; i < m.nb; ++i) {
    types.insert(m.joint[i].type);
    if (m.joint[i].type == JointType::Revolute) revolute_aligned.insert(m.joint[i].aligned);
    if (m.joint[i].type == JointType::Prismatic) prismatic_aligned.insert(m.joint[i].aligned);
    if (m.joint[i].type == JointType::Helical) helical_pitch = m.joint[i].pitch != 0;
  }
  for (JointType t : kAllJointTypes) {
    INFO(joint_type_name(t));
    CHECK(types.count(t) == 1);
  }
  CHECK(revolute_aligned == std::set<int>{-1, 0, 1, 2});   // x, y, z and a general axis
  CHECK(prismatic_aligned == std::set<int>{-1, 0, 1, 2});
  CHECK(helical_pitch);
  CHECK(m.joint[0].type == JointType::Free);
  CHECK(m.parent[0] == -1);
  std::vector<int> children(m.nb, 0);
  for (int i = 1; i < m.nb; ++i) ++children[m.parent[i]];
  CHECK(*std::max_element(children.begin(), children.end()) >= 2);
  CHECK(m.nq == 25);
  CHECK(m.nv == 23);

  const auto singles = cases::each_joint_alone();
  std::set<JointType> single_types;
  for (const auto& [name, model] : singles) {
    INFO(name);
    CHECK(name == model.name);
    CHECK(model.nb == 2);
    CHECK(model.parent == std::vector<int>{-1, 0});
    CHECK(model.joint[1].type == JointType::Revolute);
    single_types.insert(model.joint[0].type);
  }
  CHECK(single_types.size() == kAllJointTypes.size());
}

TEST_CASE("cases: GU(n) is an unbranched chain of n general revolute bodies", "[cases][gu]") {
  const Model<double> big = cases::gu(12);
  for (int n = 1; n <= 12; ++n) {
    const Model<double> m = cases::gu(n);
    INFO("n = " << n);
    CHECK(m.nb == n);
    CHECK(m.nq == n);
    CHECK(m.nv == n);
    CHECK(m.depth() == n);
    CHECK(m.gravity == Vec3<double>(0, 0, -9.81));
    for (int i = 0; i < n; ++i) {
      CHECK(m.parent[i] == i - 1);
      CHECK(m.joint[i].type == JointType::Revolute);
      CHECK(m.joint[i].aligned == 2);
      // general geometry and inertia: no zero rotation entries, full inertia tensor
      CHECK(m.Xtree[i].E.cwiseAbs().minCoeff() > 0);
      CHECK(m.Xtree[i].r.norm() >= 0.1);
      CHECK(m.Xtree[i].r.norm() <= 0.5);
      CHECK(m.Icom[i](0, 1) != 0);
      // GU(n) is the first n bodies of GU(12)
      CHECK(m.Xtree[i].E == big.Xtree[i].E);
      CHECK(m.mass[i] == big.mass[i]);
    }
  }
  CHECK_THROWS_AS(cases::gu(0), std::invalid_argument);
}

TEST_CASE("cases: humanoid is a 37-DoF floating tree standing upright, mirrored left and right", "[cases][humanoid]") {
  const Model<double> m = cases::humanoid();
  CHECK(m.name == "humanoid");
  CHECK(m.nb == 32);
  CHECK(m.nv == 37);
  CHECK(m.nq == 38);
  CHECK(m.joint[0].type == JointType::Free);
  CHECK(m.parent[0] == -1);
  double total = 0;
  for (int i = 0; i < m.nb; ++i) total += m.mass[i];
  CHECK(total > 45);  // an adult-robot mass, a seeded 10% around ~57 kg
  CHECK(total < 70);
  for (int i = 1; i < m.nb; ++i) {
    INFO(m.body_name[i]);
    CHECK(m.parent[i] >= 0);
    CHECK(m.joint[i].type == JointType::Revolute);
    CHECK(m.joint[i].aligned >= 0);  // every axis is a coordinate axis of its joint frame
  }
  // Body origins in the neutral pose (pelvis at the world origin, all joint angles zero),
  // from the tree transforms alone: the head above the pelvis, the feet ~0.7 m below, the
  // left limbs at +y and the right ones at -y, in matching places.
  std::vector<Vec3<double>> p(m.nb);
  std::vector<Mat3<double>> Rw(m.nb);  // body-to-world rotation
  for (int i = 0; i < m.nb; ++i) {
    const Transform<double>& X = m.Xtree[i];
    const int lam = m.parent[i];
    p[i] = lam < 0 ? X.r : Vec3<double>(p[lam] + Rw[lam] * X.r);
    Rw[i] = (lam < 0 ? Mat3<double>::Identity() : Rw[lam]) * X.E.transpose();
  }
  auto index_of = [&](const std::string& name) {
    for (int i = 0; i < m.nb; ++i)
      if (m.body_name[i] == name) return i;
    FAIL("no body " << name);
    return -1;
  };
  CHECK(p[index_of("head")].z() > 0.45);
  for (const char* side : {"left", "right"}) {
    const double sign = std::string(side) == "left" ? 1 : -1;
    CHECK(p[index_of(std::string(side) + "_foot")].z() < -0.6);
    CHECK(sign * p[index_of(std::string(side) + "_hand")].y() > 0.1);
    CHECK(sign * p[index_of(std::string(side) + "_thigh")].y() > 0.05);
  }
  for (int i = 0; i < m.nb; ++i) {
    const std::string& n = m.body_name[i];
    if (n.rfind("left_", 0) != 0) continue;
    const int j = index_of("right_" + n.substr(5));
    INFO(n);
    CHECK(m.joint[j].axis == m.joint[i].axis);
    CHECK(m.body_name[m.parent[j]] == (m.parent[i] == 3 || m.parent[i] == 0 ? m.body_name[m.parent[i]]
                                                                              : "right_" + m.body_name[m.parent[i]].substr(5)));
  }
  // Seeds give different robots; the id carries the seed.
  const Model<double> m2 = cases::build_case("humanoid:seed=2");
  CHECK(m2.name == "humanoid:seed=2");
  CHECK(m2.mass != m.mass);
  CHECK(identical(cases::build_case("humanoid"), m));
}

TEST_CASE("cases: gu_floating(n) is GU(n) with body 0 on a free joint", "[cases][gu]") {
  const Model<double> a = cases::gu(9), b = cases::gu_floating(9);
  CHECK(b.joint[0].type == JointType::Free);
  CHECK(b.nv == a.nv + 5);
  for (int i = 0; i < a.nb; ++i) {
    CHECK(a.parent[i] == b.parent[i]);
    CHECK(a.Xtree[i].E == b.Xtree[i].E);
    CHECK(a.Xtree[i].r == b.Xtree[i].r);
    CHECK(a.mass[i] == b.mass[i]);
    CHECK(a.Icom[i] == b.Icom[i]);
    if (i > 0) CHECK(a.joint[i].type == b.joint[i].type);
  }
}

TEST_CASE("cases: auto_tree topology follows autoTree.m", "[cases][tree]") {
  // bf = 2: body k's parent is (k-1)/2 (0-based), i.e. a binary heap; every body has <= 2
  // children and nb = 2^d - 1 bodies make a complete tree of depth d.
  const Model<double> b = cases::auto_tree(15, 2);
  std::vector<int> children(b.nb, 0);
  for (int k = 0; k < b.nb; ++k) {
    CHECK(b.parent[k] == (k == 0 ? -1 : (k - 1) / 2));
    if (k > 0) ++children[b.parent[k]];
  }
  for (int k = 0; k < 7; ++k) CHECK(children[k] == 2);
  for (int k = 7; k < 15; ++k) CHECK(children[k] == 0);
  CHECK(b.depth() == 4);
  // bf = 1: a chain.
  const Model<double> c = cases::auto_tree(8, 1);
  for (int k = 0; k < 8; ++k) CHECK(c.parent[k] == k - 1);
  // bf = 1.5: non-terminal bodies have 1, 2, 1, 2, ... children (average 1.5).
  const Model<double> h = cases::auto_tree(12, 1.5);
  std::vector<int> ch(h.nb, 0);
  for (int k = 1; k < h.nb; ++k) ++ch[h.parent[k]];
  for (int k = 0; k < 6; ++k) CHECK(ch[k] == (k % 2 == 0 ? 1 : 2));
  // Geometry: child of body p sits at (l(p), 0, 0), turned by skew about x; masses l^3.
  const Model<double> t = cases::auto_tree(7, 2, 0.5, 0.9);
  for (int k = 1; k < 7; ++k) {
    const int p = t.parent[k];
    CHECK(t.Xtree[k].r.x() == Approx(std::pow(0.9, p)).epsilon(1e-15));
    CHECK(t.Xtree[k].E(1, 1) == Approx(std::cos(0.5)));
    CHECK(t.Xtree[k].E(1, 2) == Approx(std::sin(0.5)));
    CHECK(t.mass[k] == Approx(std::pow(0.9, 3 * k)).epsilon(1e-14));
    CHECK(t.com[k].x() == Approx(0.5 * std::pow(0.9, k)).epsilon(1e-15));
  }
  CHECK_THROWS_AS(cases::auto_tree(5, 0.5), std::invalid_argument);
}

TEST_CASE("cases: zigzag reproduces section 10.2", "[cases][zigzag]") {
  const Model<double> z = cases::zigzag();
  REQUIRE(z.nb == 6);
  CHECK(z.gravity == Vec3<double>::Zero());
  Workspace<double> ws(z);
  MatX<double> H = MatX<double>::Zero(6, 6);
  const VecX<double> q = cases::zigzag_q();
  CHECK(q[0] == Approx(75 * std::acos(-1.0) / 180));
  CHECK(q[1] == -q[0]);
  Crba::run(z, q, H, ws);
  // tau_d = H [1 1 1 1 1 1]^T; the book prints the leading digits followed by "...",
  // i.e. truncated, so each value lies in [printed, printed + 1e-4).
  const VecX<double> tau = H * VecX<double>::Ones(6);
  const double book_tau[6] = {126.4936, 97.4663, 69.9762, 43.7998, 21.9371, 6.1646};
  for (int i = 0; i < 6; ++i) {
    INFO("tau[" << i << "] = " << tau[i]);
    CHECK(tau[i] >= book_tau[i] - 1e-9);
    CHECK(tau[i] < book_tau[i] + 1e-4);
  }
  // "the actual condition number of H in the above example is 725" (2-norm).
  Eigen::SelfAdjointEigenSolver<MatX<double>> es(H);
  const double cond = es.eigenvalues()[5] / es.eigenvalues()[0];
  CHECK(cond == Approx(725).margin(0.5));
  // qdd_a = H^-1 tau_a for tau_d rounded to 3 significant figures. The book prints
  // [0.6952 1.3654 1.3808 0.5894 0.9057 1.0705]; the first entry computes as 0.6592
  // (H is confirmed by tau_d to 10 digits above), so the printed 0.6952 is taken to be a
  // transposition of digits in the book (or its text copy).
  VecX<double> tau_a(6);
  tau_a << 126, 97.5, 70.0, 43.8, 21.9, 6.16;
  const VecX<double> qdd_a = H.ldlt().solve(tau_a);
  const double book_qdd[6] = {0.6592 /* printed 0.6952 */, 1.3654, 1.3808, 0.5894, 0.9057, 1.0705};
  for (int i = 0; i < 6; ++i) CHECK(qdd_a[i] == Approx(book_qdd[i]).margin(5e-5));
  // H does not depend on q1, nor on the sign of the zigzag.
  MatX<double> H2 = MatX<double>::Zero(6, 6);
  VecX<double> q2 = -q;
  q2[0] += 0.7;
  Crba::run(z, q2, H2, ws);
  CHECK((H2 - H).cwiseAbs().maxCoeff() < 1e-12);
  // planar_chain(nb) has the same links.
  CHECK(cases::planar_chain(10).nb == 10);
  CHECK(cases::planar_chain(6).Icom[3] == z.Icom[3]);
}

namespace {
// Pose of F_i in F_{i-1} for modified DH (Craig / Handbook numbering), as an independent
// 4x4 homogeneous matrix: RotX(alpha) TransX(a) RotZ(theta) TransZ(d), active rotations.
Eigen::Matrix4d dh_homogeneous(double a, double alpha, double d, double theta) {
  auto rotx = [](double t) {
    Eigen::Matrix4d T = Eigen::Matrix4d::Identity();
    T(1, 1) = std::cos(t); T(1, 2) = -std::sin(t); T(2, 1) = std::sin(t); T(2, 2) = std::cos(t);
    return T;
  };
  auto rotz = [](double t) {
    Eigen::Matrix4d T = Eigen::Matrix4d::Identity();
    T(0, 0) = std::cos(t); T(0, 1) = -std::sin(t); T(1, 0) = std::sin(t); T(1, 1) = std::cos(t);
    return T;
  };
  auto trans = [](double x, double y, double z) {
    Eigen::Matrix4d T = Eigen::Matrix4d::Identity();
    T(0, 3) = x; T(1, 3) = y; T(2, 3) = z;
    return T;
  };
  return rotx(alpha) * trans(a, 0, 0) * rotz(theta) * trans(0, 0, d);
}

// ^iX_0 of every body by the tree recursion.
std::vector<Transform<double>> body_transforms(const Model<double>& m, const VecX<double>& q) {
  std::vector<Transform<double>> X0(m.nb);
  JointKinematics<double> jk;
  for (int i = 0; i < m.nb; ++i) {
    jcalc_position(m.joint[i], q.segment(m.q_idx[i], m.joint[i].nq()), jk);
    const Transform<double> Xup = jk.XJ * m.Xtree[i];
    X0[i] = m.parent[i] < 0 ? Xup : Xup * X0[m.parent[i]];
  }
  return X0;
}
}  // namespace

TEST_CASE("cases: DH chains match 4x4 homogeneous DH transforms", "[cases][dh]") {
  // A chain with revolute and prismatic rows, angle offsets, and a base transform.
  const std::vector<cases::DhRow> rows = {{0.1, 0.3, 0.2, 0.4, JointType::Revolute},
                                          {0.25, -1.1, 0.05, -0.3, JointType::Prismatic},
                                          {0.0, 1.5707963267948966, 0.3, 0.0, JointType::Revolute},
                                          {0.4, 0.0, -0.1, 0.2, JointType::Revolute}};
  std::vector<cases::BodyInertia> inertias(rows.size(),
                                           cases::BodyInertia{1.0, Vec3<double>(0.1, 0, 0), cases::box_inertia(1, 0.2, 0.1, 0.1)});
  const double theta0 = 0.7, d0 = 0.15;
  const Model<double> m = cases::from_dh(rows, inertias, "dh:test", cases::dh_base(theta0, d0));
  Rng rng(5);
  for (int trial = 0; trial < 10; ++trial) {
    VecX<double> q(m.nq);
    for (int k = 0; k < m.nq; ++k) q[k] = rng.uniform(-2, 2);
    const auto X0 = body_transforms(m, q);
    Eigen::Matrix4d T = dh_homogeneous(0, 0, d0, theta0);  // base -> F_0: RotZ(theta0) TransZ(d0)
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const auto& r = rows[i];
      const bool rev = r.type == JointType::Revolute;
      T = T * dh_homogeneous(r.a, r.alpha, rev ? r.d : r.d + q[i], rev ? r.theta_offset + q[i] : r.theta_offset);
      // ^iX_0 = rot(E) xlt(r): E = R_0i^T, r = p_0i.
      INFO("trial " << trial << " body " << i);
      CHECK((X0[i].E.transpose() - T.topLeftCorner<3, 3>()).cwiseAbs().maxCoeff() < 1e-14);
      CHECK((X0[i].r - T.topRightCorner<3, 1>()).cwiseAbs().maxCoeff() < 1e-14);
    }
  }
  // The PUMA-like chain: exact quarter-turn rotations, and the same check.
  const Model<double> p = cases::puma_like_dh();
  CHECK(p.Xtree[1].E == Eigen::Matrix3d((Eigen::Matrix3d() << 1, 0, 0, 0, 0, -1, 0, 1, 0).finished()));
  const VecX<double> qp = cases::random_state(p, 3).q;
  const auto X0 = body_transforms(p, qp);
  const double a[6] = {0, 0, 0.4318, 0.0203, 0, 0}, d[6] = {0, 0, 0.15005, 0.4318, 0, 0};
  const double hp = std::acos(-1.0) / 2, alpha[6] = {0, -hp, 0, -hp, hp, -hp};
  Eigen::Matrix4d T = Eigen::Matrix4d::Identity();
  for (int i = 0; i < 6; ++i) {
    T = T * dh_homogeneous(a[i], alpha[i], d[i], qp[i]);
    CHECK((X0[i].E.transpose() - T.topLeftCorner<3, 3>()).cwiseAbs().maxCoeff() < 1e-14);
    CHECK((X0[i].r - T.topRightCorner<3, 1>()).cwiseAbs().maxCoeff() < 1e-14);
  }
  CHECK_THROWS_AS(cases::from_dh(rows, {}, "x"), std::invalid_argument);
}

TEST_CASE("configuration: quaternions stay unit under integrate", "[configuration]") {
  for (const auto& m : all_registry_models()) {
    INFO(m.name);
    const VecX<double> q0 = neutral_configuration(m);
    CHECK(max_quaternion_norm_error(m, q0) == 0);
    for (int seed = 1; seed <= 5; ++seed) {
      const cases::State s = cases::random_state(m, seed, {.velocity = 5});
      VecX<double> q = s.q;
      for (int step = 0; step < 2000; ++step) q = integrate(m, q, s.qd, 0.01);
      // integrate() renormalises each quaternion after the product, so the norm error is
      // that of one normalisation (a few ulps), not a random walk over the 2000 steps.
      CHECK(max_quaternion_norm_error(m, q) <= 4 * kEps);
      VecX<double> qn = s.q;
      qn.array() *= 1.001;  // deliberately off the unit sphere ...
      normalize_quaternions(m, qn);  // ... and back
      CHECK(max_quaternion_norm_error(m, qn) <= 4 * kEps);
    }
  }
}

TEST_CASE("configuration: integrate and qdot agree (central differences)", "[configuration]") {
  // d/dh integrate(q, v, h) at h = 0 is qdot(q, v). Central difference with h = 1e-6:
  // truncation error h^2/6 |q'''| <= ~1e-12 for |v| <= 1 and |q| <= pi (q''' is a product
  // of at most three velocities and a bounded function of q), rounding error about
  // 2 eps max(1, |q|) / (2h) per output; the tolerance is 8 times that rounding bound.
  const double h = 1e-6;
  for (const auto& m : all_registry_models()) {
    INFO(m.name);
    for (int seed = 1; seed <= 10; ++seed) {
      const cases::State s = cases::random_state(m, seed);
      const VecX<double> fd = (integrate(m, s.q, s.qd, h) - integrate(m, s.q, s.qd, -h)) / (2 * h);
      const VecX<double> qd = qdot(m, s.q, s.qd);
      const double tol = 8 * 2 * kEps * std::max(1.0, s.q.cwiseAbs().maxCoeff()) / (2 * h) + 1e-11;
      CHECK((fd - qd).cwiseAbs().maxCoeff() <= tol);
      // One step of integrate is exact for constant v: two half steps give the same q
      // (holds for these joints, whose velocity variables are body-fixed).
      const VecX<double> one = integrate(m, s.q, s.qd, 0.4);
      const VecX<double> two = integrate(m, integrate(m, s.q, s.qd, 0.2), s.qd, 0.2);
      CHECK((one - two).cwiseAbs().maxCoeff() < 64 * kEps);
    }
  }
}

TEST_CASE("configuration: exact in Reference: integrate vs qdot, qdot vs jcalc's S", "[configuration][reference]") {
  // In 50 digits, a central difference with h = 1e-15 has truncation error ~h^2 = 1e-30
  // and rounding error ~1e-50/1e-15 = 1e-35, so agreement to 1e-27 checks the closed
  // forms and the series (both branches: |v dt| < 1 here uses the series) to 27 digits.
  // The second check ties qdot to the joint model: for X(t) = XJ(q(t)) = ^sX_p,
  // dX/dt = ^s(v_p - v_s) x X = -(vJ x) X with vJ = S v (Featherstone Eq. 2.45, F_p fixed).
  using R = Reference;
  const R h = R(1) / R(1000000000000000LL);
  for (const char* id : {"all_joints", "joint:free", "joint:planar", "joint:spherical", "joint:helical"}) {
    const Model<double> md = cases::build_case(id);
    const Model<R> m = md.template cast<R>();
    for (int seed = 1; seed <= 3; ++seed) {
      INFO(id << " seed " << seed);
      const cases::State s = cases::random_state(md, seed, {.velocity = 3});
      // The double quaternions are unit to ~1e-16 only: renormalise them in 50 digits, or
      // that 1e-16 would show up below (integrate returns unit quaternions).
      VecX<R> q = cases::to<R>(s.q);
      normalize_quaternions(m, q);
      const VecX<R> v = cases::to<R>(s.qd);
      const VecX<R> qd = qdot(m, q, v);
      const VecX<R> fd = (integrate(m, q, v, h) - integrate(m, q, v, R(-h))) / (R(2) * h);
      const double e_fd = static_cast<double>((fd - qd).cwiseAbs().maxCoeff());
      INFO("integrate vs qdot: " << e_fd);
      CHECK(e_fd < 1e-27);
      // Large steps take the closed-form branch: compare with many small steps composed.
      const VecX<R> big = integrate(m, q, v, R(2));
      VecX<R> small = q;
      for (int k = 0; k < 8; ++k) small = integrate(m, small, v, R(0.25));
      const double e_steps = static_cast<double>((big - small).cwiseAbs().maxCoeff());
      INFO("one step vs eight: " << e_steps);
      CHECK(e_steps < 1e-45);
      for (int i = 0; i < m.nb; ++i) {
        const Joint<R>& j = m.joint[i];
        const int qi = m.q_idx[i], vi = m.v_idx[i];
        JointKinematics<R> k0, kp, km;
        jcalc_position(j, q.segment(qi, j.nq()), k0);
        const VecX<R> qp = q.segment(qi, j.nq()) + h * qd.segment(qi, j.nq());
        const VecX<R> qm = q.segment(qi, j.nq()) - h * qd.segment(qi, j.nq());
        jcalc_position(j, qp, kp);
        jcalc_position(j, qm, km);
        const Mat6<R> dX = (kp.XJ.matrix() - km.XJ.matrix()) / (R(2) * h);
        const Vec6<R> vJ = k0.S_ * v.segment(vi, j.nv());
        const Mat6<R> expect = -crm_matrix<R>(vJ) * k0.XJ.matrix();
        const double e_j = static_cast<double>((dX - expect).cwiseAbs().maxCoeff());
        INFO("body " << i << " dXJ/dt vs -(vJ x) XJ: " << e_j);
        CHECK(e_j < 1e-27);
      }
    }
  }
}

TEST_CASE("configuration: runs in the counting scalar", "[configuration][counted]") {
  const Model<double> md = cases::all_joints_tree();
  const Model<Counted> m = md.template cast<Counted>();
  const cases::State s = cases::random_state(md, 2);
  const VecX<Counted> q = cases::to<Counted>(s.q), v = cases::to<Counted>(s.qd);
  VecX<Counted> q1;
  const OpCounts c = count_ops([&] { q1 = integrate(m, q, v, 0.01); });
  CHECK(c.mul > 0);
  CHECK(c.sqrt >= 2);  // one renormalisation per quaternion
  // Same formulas as in double (Eigen may vectorise the double dot products, so allow for a
  // different summation order).
  const VecX<double> qd = integrate(md, s.q, s.qd, 0.01);
  for (int k = 0; k < md.nq; ++k) CHECK(std::abs(q1[k].value() - qd[k]) <= 4 * kEps * std::max(1.0, std::abs(qd[k])));
  CHECK(neutral_configuration(m).size() == m.nq);
  CHECK(qdot(m, q, v).size() == m.nq);
}

}  // namespace test_cases
