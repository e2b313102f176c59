// The URDF path (cases/urdf_loader.hpp, cases/urdf_export.hpp, the urdf:* registry ids):
//  1. the four robots of ../shared/cases/urdf load, in Pinocchio's joint order, and their tau
//     (RNEA) and H (CRBA) at the state of reference/<robot>.json equal Pinocchio 3.7.0's and
//     MuJoCo 2.2.2's numbers stored there;
//  2. loader features on small inline URDFs: fixed-joint lumping, general axes, planar joints
//     with a normal other than z, floating joints and the floating option;
//  3. every bad-input class throws UrdfError naming the problem and the place
//     (verify/data/urdf_bad/*.urdf);
//  4. export to URDF and load again gives the same dynamics.
//
// Tolerances (all normwise: max |difference| / max |reference value|):
//  - rbdlab vs Pinocchio, and vs MuJoCo on robots whose inertia tensors are diagonal in the
//    inertial frame (ur5, iiwa14, solo12): 4 nv eps. Why: two correct double implementations
//    of O(n) recursions differ by rounding that grows about linearly along a chain; the
//    json's own Pinocchio-MuJoCo gap is 3.8 eps on iiwa14 (n = 7) and under 1 eps on the
//    others, so c n eps with c = 4 leaves a margin of ~8 over that gap. Measured here:
//    at most 0.43e-15 (about 2 eps), see the table printed by the first test.
//  - rbdlab vs MuJoCo on panda, whose link tensors are full: MuJoCo's compiler
//    re-diagonalises each full tensor (an eigen-decomposition, ~1e-8 relative error in what
//    it simulates), so MuJoCo's tau sits 5.7e-10 (2.7e-8 absolute) from Pinocchio's and from
//    rbdlab's; held to 1e-8. The json has no MuJoCo H.
//  - export -> load: masses, centres of mass, inertias, axes and translations come back
//    bit for bit; rotations pass through URDF's rpy angles (atan2) and urdfdom's quaternion
//    (sin, cos of the half angles), a few ulps per entry: measured <= 3 eps, held to
//    delta = 8 eps (libm's last bit differs between platforms). tau and H over 20 random
//    states (stacked normwise) are held to 2 nb delta = 16 nb eps: each of the nb tree
//    transforms is perturbed by delta; measured <= 9 eps (GU(12)), 5 eps for nb = 1 or 2.
//    On the shared robots, whose rotations survive almost exactly, to 1e-15 (measured
//    <= 2e-16). Through rpy, 1e-15 cannot be promised for general rotations: GU(12)
//    measures 2.0e-15 for tau and 1.4e-15 for H.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cases/registry.hpp"
#include "cases/urdf_export.hpp"
#include "cases/urdf_loader.hpp"
#include "cases/urdf_robots.hpp"
#include "inverse_dynamics/rnea_spatial.hpp"
#include "mass_matrix/crba.hpp"

namespace test_urdf {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

namespace {

using namespace rbd;
using cases::UrdfError;
using cases::UrdfModel;
using cases::UrdfOptions;
constexpr double kEps = std::numeric_limits<double>::epsilon();

const std::string kBadDir = (std::filesystem::path(__FILE__).parent_path() / "data" / "urdf_bad").string();

VecX<double> inverse_dynamics(const Model<double>& m, const VecX<double>& q, const VecX<double>& qd,
                              const VecX<double>& qdd) {
  Workspace<double> ws(m);
  VecX<double> tau(m.nv);
  RneaSpatial::run<double>(m, q, qd, qdd, nullptr, tau, ws);
  return tau;
}
MatX<double> mass_matrix(const Model<double>& m, const VecX<double>& q) {
  Workspace<double> ws(m);
  MatX<double> H = MatX<double>::Zero(m.nv, m.nv);  // CRBA writes only the non-zero pattern
  Crba::run<double>(m, q, H, ws);
  return H;
}
template <class A, class B> double normwise(const A& value, const B& reference) {
  return (value - reference).cwiseAbs().maxCoeff() / reference.cwiseAbs().maxCoeff();
}

// ---------------------------------------------------------------------------------------
// 1. The shared robots against Pinocchio and MuJoCo.

struct PeerData {
  nlohmann::json j;
  std::vector<int> perm;  // rbdlab velocity index -> Pinocchio velocity index
};

PeerData read_reference(const std::string& robot) {
  const std::string path = cases::shared_dir() + "/cases/urdf/reference/" + robot + ".json";
  std::ifstream in(path);
  REQUIRE(in.good());
  PeerData r;
  r.j = nlohmann::json::parse(in);
  const int nv = r.j["nv"];
  r.perm.resize(nv);
  for (int k = 0; k < nv; ++k) r.perm[k] = k;
  if (r.j["floating_base"].get<bool>())  // rbdlab [omega; v] <-> Pinocchio [v; omega]
    for (int k = 0; k < 3; ++k) { r.perm[k] = 3 + k; r.perm[3 + k] = k; }
  return r;
}

VecX<double> vec(const nlohmann::json& a) {
  VecX<double> v(a.size());
  for (std::size_t k = 0; k < a.size(); ++k) v[k] = a[k].get<double>();
  return v;
}

// Pinocchio's state in rbdlab's coordinates. Free joint: Pinocchio q = [p; x y z w],
// v = [v_lin; omega] (base frame); rbdlab q = [w x y z; p], qd = [omega; v_lin] (body frame:
// the same vectors, reordered). The base frame's quaternion and position are in the world,
// which is rbdlab's F_p of the root free joint (X_T = identity).
void to_rbdlab_state(const Model<double>& m, const PeerData& ref, VecX<double>& q, VecX<double>& qd,
                     VecX<double>& qdd) {
  const VecX<double> qp = vec(ref.j["q"]), vp = vec(ref.j["v"]), ap = vec(ref.j["a"]);
  q = qp;
  if (m.joint[0].type == JointType::Free) {
    q.segment<4>(0) << qp[6], qp[3], qp[4], qp[5];
    q.segment<3>(4) = qp.segment<3>(0);
  }
  qd.resize(m.nv);
  qdd.resize(m.nv);
  for (int k = 0; k < m.nv; ++k) {
    qd[k] = vp[ref.perm[k]];
    qdd[k] = ap[ref.perm[k]];
  }
}

TEST_CASE("urdf: the shared robots agree with Pinocchio and MuJoCo (reference/*.json)", "[urdf][peers]") {
  std::printf("\nURDF robots vs reference/*.json (normwise relative difference; eps = %.3g)\n", kEps);
  std::printf("%-8s %3s  %-11s %-11s %-11s %-11s  %s\n", "robot", "nv", "tau-pin", "H-pin", "tau-mujoco",
              "pin-mujoco", "tolerance");
  for (const cases::UrdfRobot& robot : cases::urdf_robots()) {
    INFO("robot " << robot.name);
    const UrdfModel u = cases::urdf_robot(robot.name);
    const Model<double>& m = u.model;
    const PeerData ref = read_reference(robot.name);
    CHECK(m.name == "urdf:" + robot.name);
    CHECK(m.nq == ref.j["nq"].get<int>());
    REQUIRE(m.nv == ref.j["nv"].get<int>());
    CHECK(robot.floating == ref.j["floating_base"].get<bool>());
    // Pinocchio's joint order, element by element (its names include the free "root_joint").
    CHECK(u.joint_names == ref.j["joint_names"].get<std::vector<std::string>>());
    CHECK(m.gravity == vec(ref.j["gravity"]));

    VecX<double> q, qd, qdd;
    to_rbdlab_state(m, ref, q, qd, qdd);
    const VecX<double> tau = inverse_dynamics(m, q, qd, qdd);
    const MatX<double> H = mass_matrix(m, q);
    const VecX<double> tau_pin_raw = vec(ref.j["tau_rnea_pinocchio"]), tau_mj_raw = vec(ref.j["tau_rnea_mujoco"]);
    VecX<double> tau_pin(m.nv), tau_mj(m.nv);
    MatX<double> H_pin(m.nv, m.nv);
    for (int r = 0; r < m.nv; ++r) {
      tau_pin[r] = tau_pin_raw[ref.perm[r]];
      tau_mj[r] = tau_mj_raw[ref.perm[r]];
      for (int c = 0; c < m.nv; ++c) H_pin(r, c) = ref.j["M_crba_pinocchio"][ref.perm[r]][ref.perm[c]].get<double>();
    }
    const double tol = 4 * m.nv * kEps;
    const bool full_tensors = robot.name == "panda";  // off-diagonal inertia entries in the URDF
    const double tol_mj = full_tensors ? 1e-8 : tol;
    const double d_tau = normwise(tau, tau_pin), d_H = normwise(H, H_pin), d_mj = normwise(tau, tau_mj);
    std::printf("%-8s %3d  %-11.3g %-11.3g %-11.3g %-11.3g  %.3g (MuJoCo %.3g)\n", robot.name.c_str(), m.nv, d_tau,
                d_H, d_mj, normwise(tau_mj, tau_pin), tol, tol_mj);
    CHECK(d_tau <= tol);
    CHECK(d_H <= tol);
    CHECK(d_mj <= tol_mj);

    if (robot.floating) {
      // MuJoCo's native free joint: qvel = [v_lin in WORLD; omega in body], qfrc = [f in
      // WORLD; n in body]. Check the conversion through the base rotation R as well.
      const auto& nat = ref.j["mujoco_native_state"];
      const VecX<double> qvel = vec(nat["qvel"]), tau_rne = vec(nat["tau_rne"]);
      const Mat3<double> R = quat_to_matrix<double>(q[0], q[1], q[2], q[3]);  // body -> world
      CHECK((R * qd.segment<3>(3) - qvel.segment<3>(0)).cwiseAbs().maxCoeff() <= 8 * kEps);
      CHECK((qd.segment<3>(0) - qvel.segment<3>(3)).cwiseAbs().maxCoeff() == 0);
      VecX<double> tau_native = tau;
      tau_native.segment<3>(0) = R * tau.segment<3>(3);
      tau_native.segment<3>(3) = tau.segment<3>(0);
      CHECK(normwise(tau_native, tau_rne) <= tol);
    }
  }
}

TEST_CASE("urdf: registry ids urdf:* and their tags", "[urdf][registry]") {
  const auto specs = cases::verify_cases();
  for (const cases::UrdfRobot& robot : cases::urdf_robots()) {
    const std::string id = "urdf:" + robot.name;
    INFO(id);
    const auto it = std::find_if(specs.begin(), specs.end(), [&](const cases::CaseSpec& s) { return s.id == id; });
    REQUIRE(it != specs.end());
    CHECK(std::find(it->tags.begin(), it->tags.end(), "urdf") != it->tags.end());
    const bool floating = std::find(it->tags.begin(), it->tags.end(), "floating_base") != it->tags.end();
    CHECK(floating == robot.floating);
    CHECK(cases::build_case(id).name == id);
  }
  CHECK_THROWS_AS(cases::build_case("urdf:atlas"), std::invalid_argument);
  CHECK_THROWS_AS(cases::build_case("urdf"), std::invalid_argument);
  CHECK_THROWS_AS(cases::build_case("urdf:ur5:x"), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------
// 2. Loader features.

// Inertial XML for (mass, com, diagonal inertia, rpy of the inertial frame).
std::string inertial(double m, const std::string& xyz, const std::string& diag, const std::string& rpy = "0 0 0") {
  std::istringstream is(diag);
  std::string a, b, c;
  is >> a >> b >> c;
  return "<inertial><origin xyz=\"" + xyz + "\" rpy=\"" + rpy + "\"/><mass value=\"" + std::to_string(m) +
         "\"/><inertia ixx=\"" + a + "\" iyy=\"" + b + "\" izz=\"" + c + "\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>";
}

TEST_CASE("urdf: fixed joints are merged with the inertia lumped exactly", "[urdf][loader]") {
  // Body 'arm' with a fixed 'sensor' (turned and offset) and a fixed 'tool' below it, which
  // carries the moving 'finger'. Compared with the same mechanism written as one link
  // whose inertia is lumped by hand (parallel axis theorem) and the finger's origin composed.
  const std::string lumped_a = R"(<?xml version="1.0"?>
<robot name="lumped">
  <link name="base"/>
  <link name="arm">)" + inertial(2, "0.1 0 0", "0.02 0.03 0.04") + R"(</link>
  <link name="sensor">)" + inertial(1, "0 0.2 0", "0.01 0.01 0.01") + R"(</link>
  <link name="tool"/>
  <link name="finger">)" + inertial(0.5, "0 0 0.05", "0.001 0.001 0.0005") + R"(</link>
  <joint name="shoulder" type="continuous"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/></joint>
  <joint name="mount" type="fixed"><parent link="arm"/><child link="sensor"/><origin xyz="0.3 0 0" rpy="0 0 1.5707963267948966"/></joint>
  <joint name="tool_mount" type="fixed"><parent link="sensor"/><child link="tool"/><origin xyz="0 0 0.1"/></joint>
  <joint name="finger_slide" type="prismatic"><parent link="tool"/><child link="finger"/><axis xyz="1 0 0"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>)";
  // By hand: sensor's com in arm coordinates = (0.3, 0, 0) + Rz(90deg) (0, 0.2, 0) = (0.1, 0, 0):
  // the same point as arm's com, so the combined com is (0.1, 0, 0), mass 3, and the
  // rotational inertia is the sum (a rotated isotropic tensor is unchanged). The finger's
  // joint frame in arm coordinates: origin (0.3, 0, 0.1), turned 90deg about z, so the slide
  // axis x of the tool is y of the arm.
  const std::string lumped_b = R"(<?xml version="1.0"?>
<robot name="by_hand">
  <link name="base"/>
  <link name="arm">)" + inertial(3, "0.1 0 0", "0.03 0.04 0.05") + R"(</link>
  <link name="finger">)" + inertial(0.5, "0 0 0.05", "0.001 0.001 0.0005") + R"(</link>
  <joint name="shoulder" type="continuous"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/></joint>
  <joint name="finger_slide" type="prismatic"><parent link="arm"/><child link="finger"/><origin xyz="0.3 0 0.1" rpy="0 0 1.5707963267948966"/>
    <axis xyz="1 0 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>)";
  const UrdfModel a = cases::parse_urdf(lumped_a), b = cases::parse_urdf(lumped_b);
  REQUIRE(a.model.nb == 2);
  CHECK(a.joint_names == std::vector<std::string>{"shoulder", "finger_slide"});
  CHECK(a.links[0] == std::vector<std::string>{"arm", "sensor", "tool"});
  CHECK(a.model.body_name == std::vector<std::string>{"arm", "finger"});
  CHECK(a.model.mass[0] == 3);
  CHECK((a.model.com[0] - Vec3<double>(0.1, 0, 0)).norm() <= 4 * kEps);
  CHECK((a.model.Icom[0] - b.model.Icom[0]).cwiseAbs().maxCoeff() <= 4 * kEps);
  CHECK((a.model.Xtree[1].r - b.model.Xtree[1].r).norm() <= 4 * kEps);
  CHECK((a.model.Xtree[1].E - b.model.Xtree[1].E).cwiseAbs().maxCoeff() <= 4 * kEps);
  for (int seed = 1; seed <= 5; ++seed) {
    const cases::State s = cases::random_state(a.model, seed);
    CHECK(normwise(inverse_dynamics(a.model, s.q, s.qd, s.qdd), inverse_dynamics(b.model, s.q, s.qd, s.qdd)) <= 16 * kEps);
    CHECK(normwise(mass_matrix(a.model, s.q), mass_matrix(b.model, s.q)) <= 16 * kEps);
  }
}

TEST_CASE("urdf: a general lumped inertia matches the parallel-axis theorem", "[urdf][loader]") {
  // Off-centre, rotated inertial frames on both links; the lumped tensor about the combined
  // centre of mass computed here independently (sum over the two bodies of R I R^T +
  // m (|d|^2 1 - d d^T) about the combined com).
  const std::string xml = R"(<robot name="r"><link name="base"/>
  <link name="a">)" + inertial(1.5, "0.1 -0.2 0.05", "0.02 0.03 0.04", "0.3 -0.2 0.7") + R"(</link>
  <link name="b">)" + inertial(0.7, "0.03 0.01 -0.02", "0.005 0.006 0.007", "-1.1 0.4 2.0") + R"(</link>
  <joint name="j" type="continuous"><parent link="base"/><child link="a"/><axis xyz="0 0 1"/></joint>
  <joint name="weld" type="fixed"><parent link="a"/><child link="b"/><origin xyz="0.2 0.1 -0.3" rpy="0.5 0.6 -0.7"/></joint>
  </robot>)";
  const Model<double> m = cases::parse_urdf(xml).model;
  auto R = [](double r, double p, double y) {
    return Mat3<double>(Eigen::AngleAxisd(y, Vec3<double>::UnitZ()) * Eigen::AngleAxisd(p, Vec3<double>::UnitY()) *
                        Eigen::AngleAxisd(r, Vec3<double>::UnitX()));
  };
  const Mat3<double> Ia = R(0.3, -0.2, 0.7) * Vec3<double>(0.02, 0.03, 0.04).asDiagonal() * R(0.3, -0.2, 0.7).transpose();
  const Mat3<double> Rw = R(0.5, 0.6, -0.7), Rb = Rw * R(-1.1, 0.4, 2.0);
  const Mat3<double> Ib = Rb * Vec3<double>(0.005, 0.006, 0.007).asDiagonal() * Rb.transpose();
  const Vec3<double> ca(0.1, -0.2, 0.05), cb = Vec3<double>(0.2, 0.1, -0.3) + Rw * Vec3<double>(0.03, 0.01, -0.02);
  const double M = 1.5 + 0.7;
  const Vec3<double> c = (1.5 * ca + 0.7 * cb) / M;
  auto shift = [&](double mass, const Vec3<double>& d) {
    return Mat3<double>(mass * (d.squaredNorm() * Mat3<double>::Identity() - d * d.transpose()));
  };
  const Mat3<double> I = Ia + shift(1.5, ca - c) + Ib + shift(0.7, cb - c);
  CHECK(m.mass[0] == M);
  CHECK((m.com[0] - c).norm() <= 8 * kEps);
  CHECK((m.Icom[0] - I).cwiseAbs().maxCoeff() <= 16 * kEps * I.norm());
}

TEST_CASE("urdf: joint axes in any direction, revolute and prismatic", "[urdf][loader]") {
  const std::string xml = R"(<robot name="r"><link name="base"/>
  <link name="a">)" + inertial(1, "0.1 0 0", "0.01 0.02 0.02") + R"(</link>
  <link name="b">)" + inertial(1, "0 0.1 0", "0.01 0.02 0.02") + R"(</link>
  <link name="c">)" + inertial(1, "0 0 0.1", "0.01 0.02 0.02") + R"(</link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="a"/><axis xyz="1 2 -2"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="j2" type="prismatic"><parent link="a"/><child link="b"/><origin xyz="0.3 0 0"/><axis xyz="0 -3 0"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="j3" type="continuous"><parent link="b"/><child link="c"/><origin xyz="0 0.3 0"/><axis xyz="0 0 5"/></joint>
  </robot>)";
  const Model<double> m = cases::parse_urdf(xml).model;
  REQUIRE(m.nb == 3);
  CHECK(m.joint[0].type == JointType::Revolute);
  CHECK((m.joint[0].axis - Vec3<double>(1, 2, -2) / 3).norm() <= 2 * kEps);
  CHECK(m.joint[0].aligned == -1);
  CHECK(m.joint[1].type == JointType::Prismatic);
  CHECK(m.joint[1].axis == Vec3<double>(0, -1, 0));
  CHECK(m.joint[1].aligned == -1);
  CHECK(m.joint[2].axis == Vec3<double>(0, 0, 1));
  CHECK(m.joint[2].aligned == 2);  // axis exactly z: the cheap elementary rotation
}

TEST_CASE("urdf: quarter turns written as decimals are exact; other rotations are kept", "[urdf][loader]") {
  // j1: the decimals iiwa14 uses; j2: panda's; j3: ur5's 11 digits (2e-13 off: kept as written);
  // j4: a rotation of 1e-9 rad (kept). The inertial frame of "a" is a quarter turn about y.
  const std::string xml = R"(<robot name="r"><link name="base"/>
  <link name="a">)" + inertial(1, "0.1 0 0", "0.01 0.02 0.03", "0 1.5707963267948966 0") + R"(</link>
  <link name="b">)" + inertial(1, "0 0.1 0", "0.01 0.02 0.02") + R"(</link>
  <link name="c">)" + inertial(1, "0 0 0.1", "0.01 0.02 0.02") + R"(</link>
  <link name="d">)" + inertial(1, "0 0 0.1", "0.01 0.02 0.02") + R"(</link>
  <joint name="j1" type="continuous"><parent link="base"/><child link="a"/>
    <origin rpy="1.570796326794897 0 3.141592653589793"/><axis xyz="0 0 1"/></joint>
  <joint name="j2" type="continuous"><parent link="a"/><child link="b"/>
    <origin rpy="-1.5707963267948966 0 0"/><axis xyz="0 0 1"/></joint>
  <joint name="j3" type="continuous"><parent link="b"/><child link="c"/>
    <origin rpy="0 1.57079632679 0"/><axis xyz="0 0 1"/></joint>
  <joint name="j4" type="continuous"><parent link="c"/><child link="d"/>
    <origin rpy="1e-9 0 0"/><axis xyz="0 0 1"/></joint>
  </robot>)";
  const Model<double> m = cases::parse_urdf(xml).model;
  REQUIRE(m.nb == 4);
  auto signed_permutation = [](const Mat3<double>& E) {
    for (int k = 0; k < 9; ++k)
      if (E.data()[k] != 0.0 && std::abs(E.data()[k]) != 1.0) return false;
    return true;
  };
  // E = R^T with R = Rz(pi) Rx(pi/2) (j1) and Rx(-pi/2) (j2), entry for entry.
  Mat3<double> R1, R2;
  R1 << -1, 0, 0, 0, 0, 1, 0, 1, 0;
  R2 << 1, 0, 0, 0, 0, 1, 0, -1, 0;
  CHECK(m.Xtree[0].E == Mat3<double>(R1.transpose()));
  CHECK(m.Xtree[1].E == Mat3<double>(R2.transpose()));
  CHECK_FALSE(signed_permutation(m.Xtree[2].E));  // 2e-13 from a quarter turn: not rounding, kept
  CHECK(std::abs(m.Xtree[2].E(0, 0) - std::cos(1.57079632679)) <= 4 * kEps);  // the quaternion path: a few ulps
  CHECK_FALSE(signed_permutation(m.Xtree[3].E));
  CHECK(std::abs(m.Xtree[3].E(1, 2) - std::sin(1e-9)) <= 4 * kEps);
  // The inertia turned by the exact quarter turn about y: diag(0.01, 0.02, 0.03) becomes
  // diag(0.03, 0.02, 0.01) with off-diagonal entries exactly zero.
  const Mat3<double> I = m.Icom[0];
  CHECK(I(0, 1) == 0.0);
  CHECK(I(0, 2) == 0.0);
  CHECK(I(1, 2) == 0.0);
  CHECK(I.diagonal() == Vec3<double>(0.03, 0.02, 0.01));
}

TEST_CASE("urdf: a planar joint with a normal other than z", "[urdf][loader]") {
  // The same physical mechanism twice: (a) a planar joint with normal x, a body whose
  // inertial frame is turned and a revolute child; (b) the joint frame turned by hand with
  // Ry(pi/2) (z -> x, the smallest rotation the loader picks) so that the normal is z, and
  // the child link's inertial and joint written in the turned frame. Same H and tau.
  const std::string body = inertial(2, "0.1 0.05 -0.02", "0.02 0.03 0.04", "0.1 0.2 0.3");
  const std::string tip = inertial(0.5, "0 0 0.1", "0.004 0.004 0.001");
  const std::string a = R"(<robot name="a"><link name="base"/>
  <link name="slider">)" + body + R"(</link><link name="tip">)" + tip + R"(</link>
  <joint name="plane" type="planar"><parent link="base"/><child link="slider"/><origin xyz="0 0 1"/><axis xyz="1 0 0"/></joint>
  <joint name="wrist" type="continuous"><parent link="slider"/><child link="tip"/><origin xyz="0.2 0.1 0" rpy="0.4 0 0"/><axis xyz="0 1 0"/></joint>
  </robot>)";
  // Frame B = C turned by Ra = Ry(pi/2): a point with C coordinates p has B coordinates
  // Ra^T p, and a rotation R_C becomes Ra^T R_C. Written as rpy via a composite origin.
  const std::string b = R"(<robot name="b"><link name="base"/>
  <link name="slider"/><link name="slider_c">)" + body + R"(</link><link name="tip">)" + tip + R"(</link>
  <joint name="plane" type="planar"><parent link="base"/><child link="slider"/><origin xyz="0 0 1" rpy="0 1.5707963267948966 0"/><axis xyz="0 0 1"/></joint>
  <joint name="to_c" type="fixed"><parent link="slider"/><child link="slider_c"/><origin rpy="0 -1.5707963267948966 0"/></joint>
  <joint name="wrist" type="continuous"><parent link="slider_c"/><child link="tip"/><origin xyz="0.2 0.1 0" rpy="0.4 0 0"/><axis xyz="0 1 0"/></joint>
  </robot>)";
  const Model<double> ma = cases::parse_urdf(a).model, mb = cases::parse_urdf(b).model;
  REQUIRE(ma.nb == 2);
  REQUIRE(mb.nb == 2);
  CHECK(ma.joint[0].type == JointType::Planar);
  for (int seed = 1; seed <= 5; ++seed) {
    const cases::State s = cases::random_state(ma, seed);
    CHECK(normwise(inverse_dynamics(ma, s.q, s.qd, s.qdd), inverse_dynamics(mb, s.q, s.qd, s.qdd)) <= 64 * kEps);
    CHECK(normwise(mass_matrix(ma, s.q), mass_matrix(mb, s.q)) <= 64 * kEps);
  }
  // Physics: the joint's motions are rotation about x and translation in y-z (world), so
  // gravity along x does no work on them: the planar joint's three forces vanish.
  UrdfOptions gx;
  gx.gravity = Vec3<double>(-9.81, 0, 0);
  const Model<double> mx = cases::parse_urdf(a, gx).model;
  const VecX<double> q0 = VecX<double>::Zero(mx.nq), z = VecX<double>::Zero(mx.nv);
  const VecX<double> tg = inverse_dynamics(mx, q0, z, z);
  CHECK(tg.head<3>().cwiseAbs().maxCoeff() <= 1e-14);
}

TEST_CASE("urdf: floating joints and the floating option", "[urdf][loader]") {
  const std::string body = inertial(2, "0.1 0 0", "0.02 0.03 0.04");
  const std::string fixed_base = R"(<robot name="r"><link name="torso">)" + body + R"(</link>
  <link name="leg">)" + body + R"(</link>
  <joint name="hip" type="continuous"><parent link="torso"/><child link="leg"/><origin xyz="0 0 -0.3"/><axis xyz="0 1 0"/></joint>
  </robot>)";
  const std::string with_floating_joint = R"(<robot name="r"><link name="world"/><link name="torso">)" + body + R"(</link>
  <link name="leg">)" + body + R"(</link>
  <joint name="root_joint" type="floating"><parent link="world"/><child link="torso"/></joint>
  <joint name="hip" type="continuous"><parent link="torso"/><child link="leg"/><origin xyz="0 0 -0.3"/><axis xyz="0 1 0"/></joint>
  </robot>)";
  const UrdfModel fixed = cases::parse_urdf(fixed_base);
  CHECK(fixed.model.nb == 1);  // the root link is the fixed base
  CHECK(fixed.root_link == "torso");
  UrdfOptions opt;
  opt.floating = true;
  const UrdfModel a = cases::parse_urdf(fixed_base, opt), b = cases::parse_urdf(with_floating_joint);
  REQUIRE(a.model.nb == 2);
  CHECK(a.model.joint[0].type == JointType::Free);
  CHECK(a.joint_names == std::vector<std::string>{"root_joint", "hip"});
  CHECK(a.model.body_name == std::vector<std::string>{"torso", "leg"});
  CHECK(b.joint_names == a.joint_names);
  CHECK(b.model.joint[0].type == JointType::Free);
  for (int seed = 1; seed <= 3; ++seed) {
    const cases::State s = cases::random_state(a.model, seed);
    CHECK(normwise(inverse_dynamics(a.model, s.q, s.qd, s.qdd), inverse_dynamics(b.model, s.q, s.qd, s.qdd)) == 0);
  }
}

TEST_CASE("urdf: body order is Pinocchio's (depth first, siblings by joint name); mimic warns", "[urdf][loader]") {
  const std::string b = inertial(1, "0 0 0.1", "0.01 0.01 0.005");
  const std::string xml = R"(<robot name="r"><link name="base"/>
  <link name="l1">)" + b + R"(</link><link name="l2">)" + b + R"(</link><link name="r1">)" + b + R"(</link>
  <link name="r2">)" + b + R"(</link><link name="mid">)" + b + R"(</link>
  <joint name="z_right" type="continuous"><parent link="base"/><child link="r1"/><axis xyz="0 0 1"/></joint>
  <joint name="a_left" type="continuous"><parent link="base"/><child link="l1"/><axis xyz="0 0 1"/></joint>
  <joint name="left_2" type="continuous"><parent link="l1"/><child link="l2"/><axis xyz="1 0 0"/></joint>
  <joint name="right_2" type="continuous"><parent link="r1"/><child link="r2"/><axis xyz="1 0 0"/>
    <mimic joint="left_2" multiplier="1"/></joint>
  <joint name="m_mid" type="continuous"><parent link="base"/><child link="mid"/><axis xyz="0 1 0"/></joint>
  </robot>)";
  const UrdfModel u = cases::parse_urdf(xml);
  CHECK(u.joint_names == std::vector<std::string>{"a_left", "left_2", "m_mid", "z_right", "right_2"});
  CHECK(u.model.parent == std::vector<int>{-1, 0, -1, -1, 3});
  REQUIRE(u.warnings.size() == 1);
  CHECK(u.warnings[0].find("right_2") != std::string::npos);
}

// ---------------------------------------------------------------------------------------
// 3. Bad input: each class throws UrdfError whose message names the problem and the place.

void expect_error(const std::string& file, const std::vector<std::string>& must_contain) {
  const std::string path = kBadDir + "/" + file;
  INFO("file " << path);
  std::string message;
  try {
    (void)cases::load_urdf(path);
    FAIL("no exception");
  } catch (const UrdfError& e) {
    message = e.what();
  }
  INFO("message: " << message);
  CHECK(message.rfind(path, 0) == 0);  // starts with the file
  for (const auto& s : must_contain) CHECK(message.find(s) != std::string::npos);
}

TEST_CASE("urdf bad input: missing file, directory, empty file", "[urdf][bad_input]") {
  expect_error("no_such_robot.urdf", {"file not found"});
  std::string message;
  try { (void)cases::load_urdf(kBadDir); } catch (const UrdfError& e) { message = e.what(); }
  CHECK(message.find("is a directory") != std::string::npos);
  expect_error("empty.urdf", {"empty"});
}

TEST_CASE("urdf bad input: not XML", "[urdf][bad_input]") {
  expect_error("not_xml.urdf", {"not a well-formed XML document"});
  expect_error("truncated_xml.urdf", {"not a well-formed XML document", "end tag"});
  static const char with_nul[] = "<robot name=\"r\">\0</robot>";
  CHECK_THROWS_AS(cases::parse_urdf(std::string(with_nul, sizeof with_nul - 1)), UrdfError);
}

TEST_CASE("urdf bad input: XML that is not URDF", "[urdf][bad_input]") {
  expect_error("not_urdf.urdf", {"not URDF", "<robot>"});
}

TEST_CASE("urdf bad input: unknown joint type", "[urdf][bad_input]") {
  expect_error("unknown_joint_type.urdf", {"joint 'shoulder'", "unknown or unsupported type 'ball'"});
}

TEST_CASE("urdf bad input: moving link without <inertial>", "[urdf][bad_input]") {
  expect_error("missing_inertial_nonleaf.urdf", {"link 'upper'", "joint 'shoulder'", "missing <inertial>"});
  expect_error("missing_inertial_leaf.urdf", {"link 'finger'", "joint 'slide'", "missing <inertial>"});
}

TEST_CASE("urdf bad input: zero or negative mass", "[urdf][bad_input]") {
  expect_error("zero_mass.urdf", {"link 'arm'", "joint 'shoulder'", "non-positive mass 0"});
  expect_error("negative_mass.urdf", {"link 'arm'", "negative mass -2.5"});
}

TEST_CASE("urdf bad input: inertia not positive definite or violating the triangle inequality", "[urdf][bad_input]") {
  expect_error("inertia_not_pd.urdf", {"link 'arm'", "not positive semi-definite"});
  expect_error("inertia_singular.urdf", {"link 'arm'", "joint 'shoulder'", "not positive definite"});
  expect_error("inertia_triangle.urdf", {"link 'arm'", "triangle inequality"});
  expect_error("inertia_triangle_merged.urdf", {"link 'sensor'", "triangle inequality"});
}

TEST_CASE("urdf bad input: NaN, inf and overflowing numbers", "[urdf][bad_input]") {
  expect_error("nan_mass.urdf", {"finite", "[nan]", "Link [arm]"});
  expect_error("nan_axis.urdf", {"finite", "[NaN]", "joint [shoulder]"});
  expect_error("inf_origin.urdf", {"finite", "[inf]", "joint [shoulder]"});
  expect_error("overflow_inertia.urdf", {"finite", "izz", "Link [arm]"});
}

TEST_CASE("urdf bad input: '%' in an attribute (urdfdom would use it as a printf format)", "[urdf][bad_input]") {
  expect_error("percent_in_value.urdf", {"line 5", "attribute 'name'", "arm%s%s%n", "contains '%'"});
  CHECK_THROWS_AS(cases::parse_urdf("<robot name=\"r\"><link name=\"a&#x25;n\"/></robot>"), UrdfError);
}

TEST_CASE("urdf bad input: kinematic loops and two roots", "[urdf][bad_input]") {
  expect_error("loop_two_parents.urdf", {"kinematic loop", "link 'coupler'", "j_coupler_a", "j_coupler_b"});
  expect_error("loop_cycle.urdf", {"kinematic loop", "a, b"});
  expect_error("two_roots.urdf", {"two root links", "'base'", "'stray'"});
}

TEST_CASE("urdf bad input: a joint naming a missing link", "[urdf][bad_input]") {
  expect_error("missing_child_link.urdf", {"joint 'wrist'", "child link 'hand'", "not defined"});
  expect_error("missing_parent_link.urdf", {"joint 'shoulder'", "parent link 'torso'", "not defined"});
}

TEST_CASE("urdf bad input: zero axis, no moving joint", "[urdf][bad_input]") {
  expect_error("zero_axis.urdf", {"joint 'shoulder'", "axis"});
  expect_error("no_moving_joints.urdf", {"no moving joints"});
}

TEST_CASE("urdf bad input: a text that ends inside a UTF-8 character", "[urdf][bad_input]") {
  expect_error("truncated_utf8.urdf", {"ends inside a multi-byte UTF-8 character", "byte 210 of 212"});
  // Complete characters, also at the very end, are TinyXML's to read.
  const std::string ok = "<robot name=\"r\"><link name=\"b\"><inertial><mass value=\"1\"/><inertia ixx=\"1\" ixy=\"0\" "
                         "ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"/></inertial></link></robot><!-- \xe2\x82\xac -->";
  CHECK_THROWS_WITH(cases::parse_urdf(ok), !Catch::Contains("UTF-8"));
}

TEST_CASE("urdf bad input: every file in verify/data/urdf_bad is rejected", "[urdf][bad_input]") {
  for (const auto& entry : std::filesystem::directory_iterator(kBadDir)) {
    INFO(entry.path());
    CHECK_THROWS_AS(cases::load_urdf(entry.path().string()), UrdfError);
  }
}

// ---------------------------------------------------------------------------------------
// 4. Export and load again.

struct RoundTrip {
  double tau = 0, H = 0, E = 0;  // stacked normwise differences; max rotation entry difference
  bool params_exact = true;      // masses, coms, inertias, axes, translations bit for bit
};

// Exports m, loads it back and compares on 20 random states, matching bodies by joint name
// (the default export names start "j<index>_"; a breadth-first tree reads back depth first).
RoundTrip round_trip(const Model<double>& m, const std::vector<std::string>& names = {}) {
  UrdfOptions opt;
  opt.gravity = m.gravity;
  const std::string xml = cases::to_urdf(m, names);
  const UrdfModel u = cases::parse_urdf(xml, opt, m.name + " (exported)");
  const Model<double>& l = u.model;
  REQUIRE(l.nb == m.nb);
  REQUIRE(l.nq == m.nq);
  std::vector<int> orig(l.nb);
  for (int k = 0; k < l.nb; ++k) {
    if (names.empty()) orig[k] = std::stoi(u.joint_names[k].substr(1, u.joint_names[k].find('_') - 1));
    else orig[k] = static_cast<int>(std::find(names.begin(), names.end(), u.joint_names[k]) - names.begin());
  }
  RoundTrip rt;
  std::vector<int> vperm(l.nv);
  for (int k = 0; k < l.nb; ++k) {
    const int i = orig[k];
    REQUIRE(l.joint[k].type == m.joint[i].type);
    CHECK(l.body_name[k] == m.body_name[i]);
    CHECK(((l.parent[k] < 0 && m.parent[i] < 0) || (l.parent[k] >= 0 && orig[l.parent[k]] == m.parent[i])));
    rt.params_exact = rt.params_exact && l.mass[k] == m.mass[i] && l.com[k] == m.com[i] && l.Icom[k] == m.Icom[i] &&
                      l.Xtree[k].r == m.Xtree[i].r && l.joint[k].axis == m.joint[i].axis;
    rt.E = std::max(rt.E, (l.Xtree[k].E - m.Xtree[i].E).cwiseAbs().maxCoeff());
    for (int d = 0; d < l.joint[k].nv(); ++d) vperm[l.v_idx[k] + d] = m.v_idx[i] + d;
  }
  double dt = 0, nt = 0, dH = 0, nH = 0;
  for (int seed = 1; seed <= 20; ++seed) {
    const cases::State s = cases::random_state(m, seed);
    VecX<double> q(l.nq), qd(l.nv), qdd(l.nv);
    for (int k = 0; k < l.nb; ++k)
      q.segment(l.q_idx[k], l.joint[k].nq()) = s.q.segment(m.q_idx[orig[k]], m.joint[orig[k]].nq());
    for (int k = 0; k < l.nv; ++k) { qd[k] = s.qd[vperm[k]]; qdd[k] = s.qdd[vperm[k]]; }
    const VecX<double> t1 = inverse_dynamics(m, s.q, s.qd, s.qdd), t2 = inverse_dynamics(l, q, qd, qdd);
    const MatX<double> H1 = mass_matrix(m, s.q), H2 = mass_matrix(l, q);
    for (int r = 0; r < l.nv; ++r) {
      dt = std::max(dt, std::abs(t2[r] - t1[vperm[r]]));
      for (int c = 0; c < l.nv; ++c) dH = std::max(dH, std::abs(H2(r, c) - H1(vperm[r], vperm[c])));
    }
    nt = std::max(nt, t1.cwiseAbs().maxCoeff());
    nH = std::max(nH, H1.cwiseAbs().maxCoeff());
  }
  rt.tau = dt / nt;
  rt.H = dH / nH;
  return rt;
}

TEST_CASE("urdf export: round trip of generated models", "[urdf][export]") {
  std::printf("\nURDF export -> load (stacked normwise over 20 states; rotation entries in eps)\n");
  for (const char* id : {"gu:1", "gu:7", "gu:12", "tree:bf=2:nb=15", "tree:bf=2:nb=7:skew=0.5:taper=0.9",
                         "dh:puma_like", "zigzag", "joint:free", "joint:planar", "joint:prismatic_axis",
                         "joint:revolute_axis", "joint:prismatic_y"}) {
    INFO(id);
    const Model<double> m = cases::build_case(id);
    const RoundTrip rt = round_trip(m);
    std::printf("  %-36s tau %-10.3g H %-10.3g E %.2g eps\n", id, rt.tau, rt.H, rt.E / kEps);
    CHECK(rt.params_exact);
    CHECK(rt.E <= 8 * kEps);
    CHECK(rt.tau <= 16 * m.nb * kEps);
    CHECK(rt.H <= 16 * m.nb * kEps);
  }
}

TEST_CASE("urdf export: round trip of the shared robots to 1e-15", "[urdf][export]") {
  for (const cases::UrdfRobot& robot : cases::urdf_robots()) {
    INFO(robot.name);
    const UrdfModel u = cases::urdf_robot(robot.name);
    const RoundTrip rt = round_trip(u.model, u.joint_names);
    CHECK(rt.params_exact);
    CHECK(rt.tau <= 1e-15);
    CHECK(rt.H <= 1e-15);
  }
}

TEST_CASE("urdf export: joints URDF cannot express are refused, naming the body", "[urdf][export]") {
  const Model<double> m = cases::all_joints_tree();  // helical, cylindrical, spherical inside
  std::string message;
  try { (void)cases::to_urdf(m); } catch (const std::invalid_argument& e) { message = e.what(); }
  CHECK(message.find("body ") != std::string::npos);
  CHECK(message.find("URDF cannot express") != std::string::npos);
  CHECK_THROWS_AS(cases::to_urdf(cases::build_case("joint:spherical")), std::invalid_argument);
  CHECK_THROWS_AS(cases::to_urdf(cases::build_case("joint:helical")), std::invalid_argument);
}

}  // namespace

}  // namespace test_urdf
