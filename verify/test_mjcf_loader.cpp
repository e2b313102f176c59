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
//     warnings for armature, ref, inactive equalities and joint couplings;
//  e. <equality> as loop joints: the crank-rocker four-bar of cases/four_bar.hpp written as MJCF
//     in a closed pose, its loop a <connect> at the rocker's tip, has the case's qdd (whose loop is
//     a revolute joint with frames typed in by hand, and whose tree has no rotations in X_T);
//     a <weld> to the world locks a body; an equality the drawn pose does not satisfy, and one
//     between bodies welded together, are refused by name; cases/model_loop_states.hpp's states
//     close the loops and rebuild the model's loop frames.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include "cases/closed_mjcf.hpp"
#include "cases/four_bar.hpp"
#include "cases/mjcf_export.hpp"
#include "cases/mjcf_loader.hpp"
#include "cases/model_loop_states.hpp"
#include "cases/registry.hpp"
#include "cases/states.hpp"
#include "cases/urdf_loader.hpp"
#include "cases/urdf_robots.hpp"
#include "closed_loop_dynamics/loop_kkt.hpp"
#include "closed_loop_dynamics/loop_nullspace.hpp"
#include "inverse_dynamics/rnea_spatial.hpp"
#include "mass_matrix/crba.hpp"
#include "model/configuration.hpp"
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
      <equality><connect body1="b" body2="world" anchor="1 0 0" active="false"/>
        <joint joint1="j"/></equality></mujoco>)";
  const cases::MjcfModel w = cases::load_mjcf(write_temp("warned.xml", warned).string());
  std::string all;
  for (const auto& s : w.warnings) all += s + "\n";
  INFO(all);
  CHECK(all.find("reference position") != std::string::npos);
  CHECK(all.find("armature ignored") != std::string::npos);
  CHECK(all.find("1 inactive equality constraint(s)") != std::string::npos);
  CHECK(all.find("1 joint or tendon coupling(s)") != std::string::npos);
  CHECK(w.loops.empty());
}

namespace {

// %.17g: every double written so that it reads back exactly.
std::string num(double x) {
  char b[40];
  std::snprintf(b, sizeof b, "%.17g", x);
  return b;
}

// The four-bar `fb` drawn as MJCF at tree angles q: each body turned by its joint angle about z
// (MJCF quat [w x y z]), its rod's inertia as the case has it, and the rocker's tip connected to
// the world: MuJoCo puts the world's anchor where the tip is drawn, the ground pivot D.
std::string four_bar_mjcf(const cases::FourBar& fb, const VecX<double>& q, const std::string& equality) {
  const Model<double>& m = fb.model;
  auto body = [&](int i, const Vec3d& pos) {
    const Vec3d com = m.I[i].h / m.I[i].m;
    const Mat3d cx = skew<double>(com);
    const Mat3d Ic = m.I[i].Ibar + m.I[i].m * cx * cx;  // about the centre of mass
    return "<body name=\"" + m.body_name[i] + "\" pos=\"" + num(pos[0]) + " " + num(pos[1]) + " 0\" quat=\"" +
           num(std::cos(q[i] / 2)) + " 0 0 " + num(std::sin(q[i] / 2)) + "\"><joint name=\"" + m.body_name[i] +
           "\" type=\"hinge\" axis=\"0 0 1\"/><inertial pos=\"" + num(com[0]) + " " + num(com[1]) + " " + num(com[2]) +
           "\" mass=\"" + num(m.I[i].m) + "\" fullinertia=\"" + num(Ic(0, 0)) + " " + num(Ic(1, 1)) + " " + num(Ic(2, 2)) + " " +
           num(Ic(0, 1)) + " " + num(Ic(0, 2)) + " " + num(Ic(1, 2)) + "\"/>";
  };
  const cases::FourBarParams& p = fb.params;
  return "<mujoco model=\"four_bar_mjcf\"><option gravity=\"0 " + num(-p.gravity) + " 0\"/><worldbody>" +
         body(0, Vec3d::Zero()) + body(1, Vec3d(p.crank, 0, 0)) + body(2, Vec3d(p.coupler, 0, 0)) +
         "</body></body></body></worldbody><equality>" + equality + "</equality></mujoco>";
}

}  // namespace

TEST_CASE("mjcf: <connect> and <weld> become loop joints", "[mjcf][loops]") {
  const cases::FourBar fb = cases::four_bar(cases::four_bar_crank_rocker());
  const cases::FourBarState<double> st = cases::four_bar_state<double>(fb.params, 0.7, 1.3);
  const std::string tip = "anchor=\"" + num(fb.params.rocker) + " 0 0\"";
  const cases::MjcfModel mj = cases::load_mjcf(
      write_temp("four_bar.xml", four_bar_mjcf(fb, st.q, "<connect name=\"D\" body1=\"rocker\" body2=\"world\" " + tip + "/>"))
          .string());
  REQUIRE(mj.loops.size() == 1);
  const LoopJoint<double>& L = mj.loops[0];
  CHECK(L.name == "D");
  CHECK(L.type == LoopJointType::Spherical);
  CHECK(L.p == -1);  // body2 was the world: the base becomes the predecessor
  CHECK(L.s == 2);
  // The same state in both: the MJCF's q = 0 is the drawn pose st.q; joint rates are the case's.
  const VecX<double> tau = (VecX<double>(3) << 0.3, -0.2, 0.1).finished();
  ClosedLoopWorkspace<double> wc(fb.model), wm(mj.model);
  VecX<double> want(3), got(3), got_ns(3);
  LoopKkt::run<double>(fb.model, fb.loops, st.q, st.qd, tau, nullptr, want, wc);
  LoopKkt::run<double>(mj.model, mj.loops, VecX<double>::Zero(3), st.qd, tau, nullptr, got, wm);
  LoopNullspace::run<double>(mj.model, mj.loops, VecX<double>::Zero(3), st.qd, tau, nullptr, got_ns, wm);
  // The two models agree to the rounding of the MJCF's decimals and MuJoCo's quaternion and
  // inertia processing (~1e-15 relative, test a), carried through a constrained solve whose
  // sensitivity cond2(Z^T H Z) cond(K) is ~1e2 here: 1e-13. Measured: 1.4e-14.
  INFO("qdd case " << want.transpose() << "\nqdd mjcf " << got.transpose() << "\nrelative difference " << rel(got, want));
  CHECK(rel(got, want) <= 1e-13);
  CHECK(rel(got_ns, want) <= 1e-13);
  // A wrong anchor (the rocker's middle instead of its tip) gives a different mechanism.
  const cases::MjcfModel off = cases::load_mjcf(
      write_temp("four_bar_off.xml",
                 four_bar_mjcf(fb, st.q, "<connect body1=\"rocker\" body2=\"world\" anchor=\"" + num(fb.params.rocker / 2) + " 0 0\"/>"))
          .string());
  VecX<double> got_off(3);
  LoopKkt::run<double>(off.model, off.loops, VecX<double>::Zero(3), st.qd, tau, nullptr, got_off, wm);
  CHECK(rel(got_off, want) > 1e-3);

  SECTION("states on the model's loops (cases/model_loop_states.hpp)") {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      const cases::State s = cases::closed_random_state(mj.model, mj.loops, seed);
      CHECK(s.q.norm() > 1e-3);  // moved from the drawn pose
      VecX<double> q = s.q, qd = VecX<double>::Zero(3);
      LoopProjectionWorkspace<double> pw(mj.model);
      CHECK(project_onto_loops<double>(mj.model, mj.loops, q, qd, pw).iterations == 0);  // already closed
      // close_loops re-solves X_P from the spec at q: it must give back the model's frames.
      const LoopJoints<double> again = cases::close_loops<double>(mj.model, s.q, s.loops);
      REQUIRE(again.size() == 1);
      CHECK((again[0].XP.E - L.XP.E).norm() <= 1e-12);
      CHECK((again[0].XP.r - L.XP.r).norm() <= 1e-12);
      CHECK((again[0].XS.E - L.XS.E).norm() <= 1e-15);
      CHECK(again[0].name == "D");
    }
  }
  SECTION("a weld to the world locks the body; refusals") {
    const cases::MjcfModel weld = cases::load_mjcf(
        write_temp("four_bar_weld.xml", four_bar_mjcf(fb, st.q, "<weld name=\"W\" body1=\"coupler\"/>")).string());
    REQUIRE(weld.loops.size() == 1);
    CHECK(weld.loops[0].type == LoopJointType::Weld);
    CHECK(weld.loops[0].p == -1);
    CHECK(weld.loops[0].s == 1);
    ClosedLoopWorkspace<double> ww(weld.model);
    VecX<double> qdd(3);
    LoopKkt::run<double>(weld.model, weld.loops, VecX<double>::Zero(3), VecX<double>::Zero(3), tau, nullptr, qdd, ww);
    // Crank and coupler are held (exactly zero in exact arithmetic; in double a few roundings of
    // the O(1) accelerations around them: measured 1.4e-15); the rocker swings alone.
    INFO("held accelerations " << qdd.head(2).transpose() << ", rocker " << qdd[2]);
    CHECK(qdd.head(2).norm() <= 1e-13);
    CHECK(std::abs(qdd[2]) > 1e-3);
    auto msg = [&](const std::string& name, const std::string& eq) {
      const std::string path = write_temp(name, four_bar_mjcf(fb, st.q, eq)).string();
      return verify::message_of<ModelError>([&] { cases::load_mjcf(path); });
    };
    CHECK_THAT(msg("open.xml", "<weld name=\"W\" body1=\"coupler\" relpose=\"0 0 0 1 0 0 0\"/>"),
               Catch::Contains("equality 0 ('W', weld) is not satisfied in the pose the file draws"));
    const std::string glued =
        "<mujoco><worldbody><body name=\"a\"><joint type=\"hinge\" axis=\"0 0 1\"/>"
        "<inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"1 1 1\"/><body name=\"b\" pos=\"1 0 0\">"
        "<inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"1 1 1\"/></body></body></worldbody>"
        "<equality><connect name=\"C\" body1=\"a\" body2=\"b\" anchor=\"0.5 0 0\"/></equality></mujoco>";
    const std::string gp = write_temp("glued.xml", glued).string();
    CHECK_THAT(verify::message_of<ModelError>([&] { cases::load_mjcf(gp); }),
               Catch::Contains("equality 0 ('C', connect) joins bodies 'a' and 'b', which are one rigid body here"));
  }
}

}  // namespace test_mjcf_loader

namespace test_mjcf_loader {

// MuJoCo as a peer on closed loops (issue 14): the mechanisms of cases/closed_mjcf.hpp (the four-bar,
// five-bar and Stewart platform of examples/mjcf/, the humanoid standing with both feet welded), read
// by rbdlab as tree + loop joints and by MuJoCo as tree + equalities, in the pose the file draws
// (qpos0, where rbdlab's q = 0), with generalised forces on every hinge and slide.
// MuJoCo's equality constraints are soft: its solver regularises the constraint-space inverse
// inertia A by R = (1 - d)/d diag(A) (solimp's impedance d, at most 0.9999), so its
// accelerations miss the exact ones by O(1 - d); and it drives J qacc to the reference
// acceleration without the velocity product, where Eq. 8.9 holds K qdd = k. Both are measured:
//  - at rest: the difference is R (A + R)^-1 of the constraint accelerations, at most
//    (1 - d)/d max_i A_ii / lambda_min(A) relative; held below 10 (1 - d) = 1e-3 at d = 0.9999
//    (measured: 3.4e-5 on the four-bar, 1.8e-6 on the five-bar, 1.6e-5 on the Stewart
//    platform's legs, 1.35e-4 on the humanoid's joints), and it grows 10x (ratio in [8, 12]) at d = 0.999, so it is MuJoCo's
//    softness and not a disagreement about the mechanism (a wrong anchor gives O(1): see the
//    test above);
//  - moving (four-bar only: it has no free joint, whose velocity MuJoCo orders differently):
//    MuJoCo's K qacc stays at the softness level (< 2e-3) while rbdlab's equals k, |k| = 0.045
//    here: |K qacc_MuJoCo - k| is |k| to 5%.
// Free joints are left out of the comparison (MuJoCo's free-joint velocities and accelerations
// are world-linear and body-angular, rbdlab's a body twist); the other joints' accelerations
// are compared.
namespace {

struct PeerRun {
  double rel_diff;                 // over the coordinates of joints other than free ones
  VecX<double> mj_qacc;            // MuJoCo's
  ClosedLoopWorkspace<double> ws;  // rbdlab's K and k at the state
};

PeerRun mujoco_vs_rbdlab(const std::string& xml, double impedance, double speed) {
  const cases::MjcfModel mj = cases::load_mjcf_text(xml, "peer");
  const std::string path = write_temp("peer.xml", xml).string();
  char error[1000] = "";
  std::unique_ptr<mjModel, void (*)(mjModel*)> m(mj_loadXML(path.c_str(), nullptr, error, sizeof error), mj_deleteModel);
  REQUIRE(m);
  std::unique_ptr<mjData, void (*)(mjData*)> d(mj_makeData(m.get()), mj_deleteData);
  m->opt.disableflags |= mjDSBL_CONTACT;  // the links' geoms overlap at the joints
  m->opt.tolerance = 1e-15;               // the solver's own stopping error far below the softness
  m->opt.iterations = 1000;
  for (int e = 0; e < m->neq; ++e) {
    const double solimp[5] = {impedance, impedance, 0.001, 0.5, 2};
    std::copy(solimp, solimp + 5, m->eq_solimp + 5 * e);
  }
  const Model<double>& model = mj.model;
  std::vector<int> compared;  // velocity indices of the joints that are not free
  for (int i = 0; i < model.nb; ++i)
    if (model.joint[i].type != JointType::Free)
      for (int k = 0; k < model.joint[i].nv(); ++k) compared.push_back(model.v_idx[i] + k);
  VecX<double> tau = VecX<double>::Zero(model.nv), r = VecX<double>::Zero(model.nv);
  for (int i : compared) {
    tau[i] = 0.3 * std::sin(1.7 * i + 0.4);
    r[i] = std::cos(2.1 * i + 0.3);
  }
  const VecX<double> q = neutral_configuration(model);
  const VecX<double> qd = speed * cases::consistent_velocity<double>(model, mj.loops, q, r);
  for (int i = 0; i < model.nv; ++i) {
    d->qfrc_applied[i] = tau[i];
    d->qvel[i] = qd[i];
  }
  mj_forward(m.get(), d.get());
  PeerRun out{0, VecX<double>(model.nv), ClosedLoopWorkspace<double>(model)};
  VecX<double> qdd(model.nv);
  LoopKkt::run<double>(model, mj.loops, q, qd, tau, nullptr, qdd, out.ws);
  for (int i = 0; i < model.nv; ++i) out.mj_qacc[i] = d->qacc[i];
  VecX<double> a(compared.size()), b(compared.size());
  for (std::size_t k = 0; k < compared.size(); ++k) {
    a[static_cast<Eigen::Index>(k)] = out.mj_qacc[compared[k]];
    b[static_cast<Eigen::Index>(k)] = qdd[compared[k]];
  }
  out.rel_diff = rel(a, b);
  return out;
}

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("mjcf peer: MuJoCo's soft equalities against rbdlab's exact loop joints", "[mjcf][loops][mujoco]") {
  const std::string dir = std::string(RBDLAB_SOURCE_DIR) + "/examples/mjcf/";
  const std::vector<std::pair<std::string, std::string>> mechanisms = {
      {"four_bar", slurp(dir + "four_bar.xml")},
      {"five_bar", slurp(dir + "five_bar.xml")},
      {"stewart_platform", slurp(dir + "stewart_platform.xml")},
      {"humanoid_standing", cases::humanoid_standing_mjcf()}};
  for (const auto& [name, xml] : mechanisms) {
    const PeerRun stiff = mujoco_vs_rbdlab(xml, 0.9999, 0), softer = mujoco_vs_rbdlab(xml, 0.999, 0);
    INFO(name << ": at rest, relative difference " << stiff.rel_diff << " at d = 0.9999, " << softer.rel_diff
              << " at d = 0.999");
    CHECK(stiff.rel_diff < 1e-3);
    CHECK(softer.rel_diff / stiff.rel_diff > 8);
    CHECK(softer.rel_diff / stiff.rel_diff < 12);
  }
  const PeerRun moving = mujoco_vs_rbdlab(mechanisms[0].second, 0.9999, 1);
  const double k = moving.ws.k.norm(), K_mj = (moving.ws.K * moving.mj_qacc).norm();
  const double miss = (moving.ws.K * moving.mj_qacc - moving.ws.k).norm();
  INFO("four-bar moving: |k| " << k << ", |K qacc_MuJoCo| " << K_mj << ", |K qacc_MuJoCo - k| " << miss);
  CHECK(k > 0.01);
  CHECK(K_mj < 2e-3);
  CHECK(std::abs(miss - k) < 0.05 * k);
}

}  // namespace test_mjcf_loader
