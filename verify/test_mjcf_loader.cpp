// MJCF models read through MuJoCo's compiler (cases/mjcf_loader.hpp), checked against models
// that did not pass through it:
//  a. round trip: every verify case MuJoCo can represent, written by cases/mjcf_export.hpp and
//     read back, gives the same tau (RNEA) and H (CRBA) as the original at seeded states, with
//     the bodies matched by name (MuJoCo numbers them depth first in the file, the cases may
//     not) and q, qd, qdd carried over joint by joint. Tolerance 1e-13 relative: the export
//     writes every double exactly (shortest round-trip decimals) but the inertia as principal
//     moments and axes (a 3x3 eigen-decomposition, ~1e-15 relative: mjcf_export.hpp), and
//     MuJoCo normalises the quaternions; tau and H are sums of O(n) such terms;
//  b. MuJoCo's own URDF import: a shared robot's URDF read by MuJoCo and converted here against
//     the same URDF read by rbdlab's loader (urdfdom), same checks;
//  c. welded bodies (no joint) merged into the body they hang from, against a model built by
//     hand with the merged inertia; anchors away from the body origin; a hinge then a slide on
//     one axis read as a cylindrical joint;
//  d. refusals and warnings: a file MuJoCo refuses (its message, with the line), a body with two
//     joints, a massless moving body (MuJoCo's compiler refuses it first, naming the body), and
//     warnings for armature, ref and equality constraints.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "cases/mjcf_export.hpp"
#include "cases/mjcf_loader.hpp"
#include "cases/registry.hpp"
#include "cases/states.hpp"
#include "cases/urdf_loader.hpp"
#include "cases/urdf_robots.hpp"
#include "inverse_dynamics/rnea_spatial.hpp"
#include "mass_matrix/crba.hpp"
#include "verify/support/message_of.hpp"

namespace test_mjcf_loader {  // unity build: this file's names stay its own

using namespace rbd;
using cases::Mat3d;
using cases::Vec3d;

namespace {

namespace fs = std::filesystem;

fs::path write_temp(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / ("rbdlab_test_mjcf_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path p = dir / name;
  std::ofstream(p) << text;
  return p;
}

double rel(const MatX<double>& a, const MatX<double>& b) { return (a - b).norm() / std::max(1e-300, b.norm()); }

// tau and H of `got` at the state of `want` carried over by body names: want's body i is got's
// body index_in_got[i] (joint types equal, so the slices have equal sizes).
void check_same_dynamics(const Model<double>& want, const Model<double>& got, const std::vector<int>& index_in_got,
                         const std::string& label) {
  REQUIRE(got.nb == want.nb);
  REQUIRE(got.nv == want.nv);
  for (int seed = 1; seed <= 3; ++seed) {
    const cases::State s = cases::random_state(want, static_cast<std::uint64_t>(seed));
    VecX<double> q(got.nq), qd(got.nv), qdd(got.nv);
    for (int i = 0; i < want.nb; ++i) {
      const int k = index_in_got[static_cast<std::size_t>(i)];
      REQUIRE(got.joint[k].type == want.joint[i].type);
      q.segment(got.q_idx[k], want.joint[i].nq()) = s.q.segment(want.q_idx[i], want.joint[i].nq());
      qd.segment(got.v_idx[k], want.joint[i].nv()) = s.qd.segment(want.v_idx[i], want.joint[i].nv());
      qdd.segment(got.v_idx[k], want.joint[i].nv()) = s.qdd.segment(want.v_idx[i], want.joint[i].nv());
    }
    Workspace<double> ww(want), wg(got);
    VecX<double> tw(want.nv), tg(got.nv), tg_back(want.nv);
    MatX<double> Hw = MatX<double>::Zero(want.nv, want.nv), Hg = MatX<double>::Zero(got.nv, got.nv);
    RneaSpatial::run<double>(want, s.q, s.qd, s.qdd, nullptr, tw, ww);
    RneaSpatial::run<double>(got, q, qd, qdd, nullptr, tg, wg);
    Crba::run<double>(want, s.q, Hw, ww);
    Crba::run<double>(got, q, Hg, wg);
    MatX<double> Hg_back(want.nv, want.nv);
    for (int i = 0; i < want.nb; ++i)
      for (int j = 0; j < want.nb; ++j) {
        const int a = index_in_got[static_cast<std::size_t>(i)], b = index_in_got[static_cast<std::size_t>(j)];
        Hg_back.block(want.v_idx[i], want.v_idx[j], want.joint[i].nv(), want.joint[j].nv()) =
            Hg.block(got.v_idx[a], got.v_idx[b], want.joint[i].nv(), want.joint[j].nv());
      }
    for (int i = 0; i < want.nb; ++i)
      tg_back.segment(want.v_idx[i], want.joint[i].nv()) =
          tg.segment(got.v_idx[index_in_got[static_cast<std::size_t>(i)]], want.joint[i].nv());
    INFO(label << " seed " << seed << ": tau " << rel(tg_back, tw) << ", H " << rel(Hg_back, Hw));
    CHECK(rel(tg_back, tw) <= 1e-13);
    CHECK(rel(Hg_back, Hw) <= 1e-13);
  }
}

std::vector<int> by_name(const Model<double>& want, const Model<double>& got, const std::string& prefix) {
  std::map<std::string, int> at;
  for (int k = 0; k < got.nb; ++k) at[got.body_name[k]] = k;
  std::vector<int> out;
  for (int i = 0; i < want.nb; ++i) {
    const std::string name = prefix.empty() ? want.body_name[i] : prefix + std::to_string(i);
    REQUIRE(at.count(name));
    out.push_back(at[name]);
  }
  return out;
}

bool exportable(const Model<double>& m) {
  for (const Joint<double>& j : m.joint)
    if (j.type == JointType::Helical || j.type == JointType::Planar) return false;
  for (int i = 0; i < m.nb; ++i)  // MuJoCo allows free joints only on bodies of the world
    if (m.joint[i].type == JointType::Free && m.parent[i] != -1) return false;
  return true;
}

}  // namespace

TEST_CASE("mjcf: every exportable verify case reads back with the same tau and H", "[mjcf]") {
  int tried = 0;
  for (const auto& spec : cases::verify_cases()) {
    const Model<double> m = spec.build();
    if (!exportable(m)) continue;
    const fs::path p = write_temp("roundtrip.xml", cases::to_mjcf(m));
    const cases::MjcfModel got = cases::load_mjcf(p.string());
    INFO(spec.id);
    CHECK(got.warnings.empty());
    check_same_dynamics(m, got.model, by_name(m, got.model, "b"), spec.id);
    ++tried;
  }
  CHECK(tried >= 20);  // most of the verify cases (all but helical/planar joints and deep free joints)
}

TEST_CASE("mjcf: a shared robot's URDF read by MuJoCo equals rbdlab's URDF loader", "[mjcf][urdf]") {
  for (const std::string robot : {"ur5", "iiwa14"}) {
    const std::string path = cases::urdf_robot_path(robot);
    const cases::UrdfModel u = cases::load_urdf(path);
    const cases::MjcfModel mj = cases::load_mjcf(path);
    INFO(robot);
    check_same_dynamics(u.model, mj.model, by_name(u.model, mj.model, ""), robot);
  }
}

TEST_CASE("mjcf: welded bodies, anchors and a cylindrical pair", "[mjcf]") {
  // Link A hinged at an anchor 0.1 off its origin, with a body welded to it (no joint) at an
  // offset and turned; link B (child of the welded body) on a hinge + slide pair on one axis,
  // 0.05 off its origin.
  const std::string xml = R"(<mujoco model="weld">
  <compiler angle="radian" inertiafromgeom="false"/>
  <option gravity="0 0 -9.81"/>
  <worldbody>
    <body name="A" pos="0.2 0 0.5" quat="0.9238795325112867 0 0.3826834323650898 0">
      <joint name="hA" type="hinge" axis="0 1 0" pos="0.1 0 0"/>
      <inertial pos="0.3 0.01 0" mass="2" diaginertia="0.01 0.03 0.035"/>
      <body name="W" pos="0.6 0 0" quat="0.7071067811865476 0 0 0.7071067811865476">
        <inertial pos="0.05 0 0.02" mass="0.5" diaginertia="0.002 0.003 0.004"/>
        <body name="B" pos="0 0.2 0">
          <joint name="hB" type="hinge" axis="0 0 1" pos="0 0.05 0"/>
          <joint name="sB" type="slide" axis="0 0 1" pos="0 0.05 0"/>
          <inertial pos="0 0.1 0" mass="1" diaginertia="0.004 0.001 0.004"/>
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>)";
  const cases::MjcfModel got = cases::load_mjcf(write_temp("weld.xml", xml).string());
  REQUIRE(got.model.nb == 2);
  CHECK(got.model.joint[1].type == JointType::Cylindrical);
  CHECK(got.joint_names == std::vector<std::string>{"hA", "hB"});
  // The same by hand: A's frame at its anchor, W's inertia carried into it, B attached there.
  const Eigen::Quaterniond qa(0.9238795325112867, 0, 0.3826834323650898, 0), qw(0.7071067811865476, 0, 0, 0.7071067811865476);
  const Mat3d Ra = qa.toRotationMatrix(), Rw = qw.toRotationMatrix();
  const Vec3d anchor(0.1, 0, 0);
  // W's body frame in A's anchored frame: origin (0.6, 0, 0) - anchor, axes Rw.
  const Vec3d w0 = Vec3d(0.6, 0, 0) - anchor;
  Inertia<double> IA = Inertia<double>::from_com(2, Vec3d(Vec3d(0.3, 0.01, 0) - anchor), Vec3d(0.01, 0.03, 0.035).asDiagonal().toDenseMatrix());
  const Inertia<double> IW = Inertia<double>::from_com(0.5, Vec3d(0.05, 0, 0.02), Vec3d(0.002, 0.003, 0.004).asDiagonal().toDenseMatrix());
  add_transform_transpose(Transform<double>{Rw.transpose(), w0}, IW, IA);
  ModelBuilder mb("weld_by_hand");
  mb.gravity(Vec3d(0, 0, -9.81));
  const Vec3d cA = IA.h / IA.m;
  const Mat3d cxA = skew<double>(cA);
  mb.add_body("A", -1, cases::make_joint(JointType::Revolute, Vec3d::UnitY()),
              Transform<double>{Ra.transpose(), Vec3d(Vec3d(0.2, 0, 0.5) + Ra * anchor)}, IA.m, cA, IA.Ibar + IA.m * cxA * cxA);
  // B's axis off its origin, across A's axis once turned by W (Rw anchorB = (-0.05, 0, 0)): it moves
  // B relative to A's axis. (A's own anchor only moves the whole mechanism, which its dynamics
  // cannot see; an offset of B along A's axis or along B's own would be invisible too.)
  const Vec3d anchorB(0, 0.05, 0);
  mb.add_body("B", 0, cases::make_joint(JointType::Cylindrical, Vec3d::UnitZ()),
              Transform<double>{Rw.transpose(), Vec3d(w0 + Rw * Vec3d(Vec3d(0, 0.2, 0) + anchorB))}, 1,
              Vec3d(Vec3d(0, 0.1, 0) - anchorB), Vec3d(0.004, 0.001, 0.004).asDiagonal().toDenseMatrix());
  const Model<double> hand = mb.finish();
  check_same_dynamics(hand, got.model, {0, 1}, "weld");
}

TEST_CASE("mjcf: refusals and warnings name the problem", "[mjcf][bad_input]") {
  auto msg = [](const std::string& name, const std::string& xml) {
    const std::string p = write_temp(name, xml).string();
    return verify::message_of<ModelError>([&] { cases::load_mjcf(p); });
  };
  CHECK_THAT(msg("broken.xml", "<mujoco><worldbody><body name=\"a\"><joint type=\"hinge\"/></body></worldbody>"),
             Catch::Contains("broken.xml: MuJoCo's compiler refused the file"));
  CHECK_THAT(msg("two.xml", R"(<mujoco><worldbody><body name="a"><joint type="hinge" axis="0 0 1"/>
      <joint type="hinge" axis="1 0 0"/><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/></body></worldbody></mujoco>)"),
             Catch::Contains("body 'a' has 2 joints; rbdlab has one joint per body"));
  CHECK_THAT(msg("massless.xml", R"(<mujoco><compiler inertiafromgeom="false"/><worldbody><body name="a">
      <joint type="hinge" axis="0 0 1"/></body></worldbody></mujoco>)"),
             Catch::Contains("massless.xml: MuJoCo's compiler refused the file: Error: mass and inertia of moving bodies "
                             "must be larger than mjMINVAL\nObject name = a"));  // MuJoCo checks this itself
  const std::string warned = R"(<mujoco><worldbody>
      <body name="a"><joint name="j" type="hinge" axis="0 0 1" armature="0.1" ref="0.3"/>
        <inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>
        <body name="b" pos="1 0 0"><joint type="hinge" axis="0 0 1"/><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/></body>
      </body></worldbody>
      <equality><connect body1="b" body2="world" anchor="1 0 0"/></equality></mujoco>)";
  const cases::MjcfModel w = cases::load_mjcf(write_temp("warned.xml", warned).string());
  std::string all;
  for (const auto& s : w.warnings) all += s + "\n";
  INFO(all);
  CHECK(all.find("reference position") != std::string::npos);
  CHECK(all.find("armature ignored") != std::string::npos);
  CHECK(all.find("1 equality constraint(s) ignored") != std::string::npos);
}

}  // namespace test_mjcf_loader
