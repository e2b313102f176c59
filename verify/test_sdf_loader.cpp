// SDF models read through libsdformat (cases/sdf_loader.hpp), checked against models that did not
// pass through it:
//  a. the crank-rocker four-bar of cases/four_bar.hpp written as SDF in a closed pose (links posed
//     in the model frame, joint frames on their child links, the fourth joint from the world to
//     the rocker's tip): the loader reads that joint as a revolute loop joint, and the
//     closed-loop qdd equals the case's (whose tree has no rotations in X_T and whose loop frames
//     are typed in by hand), as do tau (RNEA) and H (CRBA) of the spanning tree;
//  b. the same file with the poses given relative to other links (SDF's relative_to) and in
//     degrees: the same model;
//  c. a link that is no joint's child floats (a free joint), a link fixed to a moving one is
//     merged into it (masses add), a ball joint closing a loop is spherical;
//  d. examples/sdf/four_bar.sdf reads with its loop, and cases/model_loop_states.hpp's states
//     rebuild its loop frames;
//  e. refusals name the problem: what libsdformat refuses (its message, with the line), universal
//     and screw joints, a loop between links of one rigid body, links reachable only by walking a
//     joint backwards.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "cases/four_bar.hpp"
#include "cases/model_loop_states.hpp"
#include "cases/sdf_loader.hpp"
#include "closed_loop_dynamics/loop_kkt.hpp"
#include "inverse_dynamics/rnea_spatial.hpp"
#include "mass_matrix/crba.hpp"
#include "model/configuration.hpp"
#include "verify/support/message_of.hpp"

namespace test_sdf_loader {  // unity build: this file's names stay its own

using namespace rbd;

namespace {

namespace fs = std::filesystem;

fs::path write_temp(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / ("rbdlab_test_sdf_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path p = dir / name;
  std::ofstream(p) << text;
  return p;
}

double rel(const MatX<double>& a, const MatX<double>& b) { return (a - b).norm() / std::max(1e-300, b.norm()); }

std::string num(double x) {  // every double written so that it reads back exactly
  char b[40];
  std::snprintf(b, sizeof b, "%.17g", x);
  return b;
}

std::string inertial(const Model<double>& m, int i) {
  const Vec3<double> c = m.I[i].h / m.I[i].m;
  const Mat3<double> cx = skew<double>(c);
  const Mat3<double> Ic = m.I[i].Ibar + m.I[i].m * cx * cx;  // about the centre of mass
  return "<inertial><pose>" + num(c[0]) + " " + num(c[1]) + " " + num(c[2]) + " 0 0 0</pose><mass>" + num(m.I[i].m) +
         "</mass><inertia><ixx>" + num(Ic(0, 0)) + "</ixx><iyy>" + num(Ic(1, 1)) + "</iyy><izz>" + num(Ic(2, 2)) +
         "</izz><ixy>" + num(Ic(0, 1)) + "</ixy><ixz>" + num(Ic(0, 2)) + "</ixz><iyz>" + num(Ic(1, 2)) +
         "</iyz></inertia></inertial>";
}

std::string joint(const std::string& name, const std::string& type, const std::string& parent, const std::string& child,
                  const std::string& pose = "") {
  return "<joint name=\"" + name + "\" type=\"" + type + "\">" + (pose.empty() ? "" : "<pose>" + pose + "</pose>") +
         "<parent>" + parent + "</parent><child>" + child + "</child><axis><xyz>0 0 1</xyz></axis></joint>";
}

// The four-bar `fb` at tree angles q as SDF. absolute: every link posed in the model frame in
// radians; otherwise each relative to the link before, in degrees.
std::string four_bar_sdf(const cases::FourBar& fb, const VecX<double>& q, bool absolute) {
  const Model<double>& m = fb.model;
  const cases::FourBarParams& p = fb.params;
  const double phi1 = q[0], phi2 = q[0] + q[1], phi3 = q[0] + q[1] + q[2];
  const Vec3<double> B(p.crank * std::cos(phi1), p.crank * std::sin(phi1), 0);
  const Vec3<double> C = B + Vec3<double>(p.coupler * std::cos(phi2), p.coupler * std::sin(phi2), 0);
  auto link = [&](int i, const std::string& pose) {
    return "<link name=\"" + m.body_name[i] + "\">" + pose + inertial(m, i) + "</link>";
  };
  const double deg = 180 / 3.141592653589793;
  std::string links;
  if (absolute) {
    links = link(0, "<pose>0 0 0 0 0 " + num(phi1) + "</pose>") +
            link(1, "<pose>" + num(B[0]) + " " + num(B[1]) + " 0 0 0 " + num(phi2) + "</pose>") +
            link(2, "<pose>" + num(C[0]) + " " + num(C[1]) + " 0 0 0 " + num(phi3) + "</pose>");
  } else {
    links = link(0, "<pose degrees=\"true\">0 0 0 0 0 " + num(q[0] * deg) + "</pose>") +
            link(1, "<pose relative_to=\"crank\" degrees=\"true\">" + num(p.crank) + " 0 0 0 0 " + num(q[1] * deg) + "</pose>") +
            link(2, "<pose relative_to=\"coupler\" degrees=\"true\">" + num(p.coupler) + " 0 0 0 0 " + num(q[2] * deg) + "</pose>");
  }
  return "<?xml version=\"1.0\"?><sdf version=\"1.9\"><world name=\"w\"><gravity>0 " + num(-p.gravity) +
         " 0</gravity><model name=\"four_bar_sdf\">" + links + joint("A", "revolute", "world", "crank") +
         joint("B", "revolute", "crank", "coupler") + joint("C", "revolute", "coupler", "rocker") +
         joint("D", "revolute", "world", "rocker", num(p.rocker) + " 0 0 0 0 0") + "</model></world></sdf>";
}

const char* kLinkA = "<link name=\"a\"><inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz>"
                     "<ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial></link>";

std::string model(const std::string& body) {
  return "<?xml version=\"1.0\"?><sdf version=\"1.9\"><model name=\"m\">" + body + "</model></sdf>";
}

}  // namespace

TEST_CASE("sdf: a four-bar whose fourth joint closes the loop", "[sdf][loops]") {
  const cases::FourBar fb = cases::four_bar(cases::four_bar_crank_rocker());
  const cases::FourBarState<double> st = cases::four_bar_state<double>(fb.params, 0.7, 1.3);
  const VecX<double> tau = (VecX<double>(3) << 0.3, -0.2, 0.1).finished();
  ClosedLoopWorkspace<double> wc(fb.model);
  VecX<double> want(3);
  LoopKkt::run<double>(fb.model, fb.loops, st.q, st.qd, tau, nullptr, want, wc);
  for (const bool absolute : {true, false}) {
    const cases::SdfModel sd =
        cases::load_sdf(write_temp(absolute ? "abs.sdf" : "rel.sdf", four_bar_sdf(fb, st.q, absolute)).string());
    INFO((absolute ? "poses in the model frame" : "poses relative_to, in degrees"));
    REQUIRE(sd.model.nb == 3);
    CHECK(sd.joint_names == std::vector<std::string>{"A", "B", "C"});
    REQUIRE(sd.loops.size() == 1);
    CHECK(sd.loops[0].name == "D");
    CHECK(sd.loops[0].type == LoopJointType::Revolute);
    CHECK(sd.loops[0].p == -1);  // the world, as the joint's parent
    CHECK(sd.loops[0].s == 2);
    CHECK(sd.model.gravity == Vec3<double>(0, -fb.params.gravity, 0));
    // The file's pose is its q = 0; joint rates are the case's.
    const VecX<double> zero = VecX<double>::Zero(3);
    ClosedLoopWorkspace<double> ws(sd.model);
    VecX<double> got(3);
    LoopKkt::run<double>(sd.model, sd.loops, zero, st.qd, tau, nullptr, got, ws);
    // Rounding of the written decimals (17 digits: exact) and of libsdformat's pose algebra
    // (quaternions, composed relative_to poses, degrees to radians: ~1e-16 each), through a
    // constrained solve of sensitivity ~1e2 (as for the MJCF four-bar of test_mjcf_loader.cpp):
    // 1e-13. Measured: 1.3e-14 (model-frame poses), 8.2e-15 (relative, in degrees).
    INFO("qdd case " << want.transpose() << "\nqdd sdf  " << got.transpose() << "\nrelative difference " << rel(got, want));
    CHECK(rel(got, want) <= 1e-13);
    // The spanning tree alone: RNEA and CRBA at the same state.
    Workspace<double> wt(fb.model), wu(sd.model);
    VecX<double> tw(3), tg(3);
    MatX<double> Hw = MatX<double>::Zero(3, 3), Hg = MatX<double>::Zero(3, 3);
    RneaSpatial::run<double>(fb.model, st.q, st.qd, tau, nullptr, tw, wt);
    RneaSpatial::run<double>(sd.model, zero, st.qd, tau, nullptr, tg, wu);
    Crba::run<double>(fb.model, st.q, Hw, wt);
    Crba::run<double>(sd.model, zero, Hg, wu);
    CHECK(rel(tg, tw) <= 1e-13);
    CHECK(rel(Hg, Hw) <= 1e-13);
  }
}

TEST_CASE("sdf: floating links, fixed joints and a ball loop", "[sdf]") {
  // a floats; c hangs from a on a revolute joint; b is fixed to a (merged: the masses add) and
  // tied to c by a ball joint. Depth first in file order, c is in the tree before the tie is
  // reached, so the tie is a loop.
  const std::string text = model(std::string(kLinkA) +
      "<link name=\"b\"><pose>0.2 0 0 0 0 0</pose><inertial><mass>2</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy>"
      "<izz>0.1</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial></link>"
      "<link name=\"c\"><pose>0 0.3 0 0 0 0</pose><inertial><mass>0.5</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy>"
      "<izz>0.01</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial></link>" +
      joint("hinge", "revolute", "a", "c") + "<joint name=\"glue\" type=\"fixed\"><parent>a</parent><child>b</child></joint>" +
      "<joint name=\"tie\" type=\"ball\"><pose>0.1 0 0 0 0 0</pose>"
      "<parent>b</parent><child>c</child></joint>");
  const cases::SdfModel sd = cases::load_sdf(write_temp("float.sdf", text).string());
  REQUIRE(sd.model.nb == 2);
  CHECK(sd.model.joint[0].type == JointType::Free);
  CHECK(sd.joint_names == std::vector<std::string>{"a_free", "hinge"});
  CHECK(sd.model.I[0].m == 3.0);  // a + b
  REQUIRE(sd.loops.size() == 1);
  CHECK(sd.loops[0].type == LoopJointType::Spherical);
  CHECK(sd.loops[0].p == 0);
  CHECK(sd.loops[0].s == 1);
  // The loop frames are one point in the drawn pose: c's origin + (0.1, 0, 0) = (0.1, 0.3, 0).
  const Transform<double> XP = sd.loops[0].XP, XS = sd.loops[0].XS;
  CHECK((XP.r - Vec3<double>(0.1, 0.3, 0)).norm() <= 1e-15);  // the joint origin seen from body 0 (at the origin)
  CHECK((XS.r - Vec3<double>(0.1, 0, 0)).norm() <= 1e-15);    // and from body 1 (at c's origin, the hinge)
}

TEST_CASE("sdf: the example file and states on its loop", "[sdf][loops]") {
  const std::string path = std::string(RBDLAB_SOURCE_DIR) + "/examples/sdf/four_bar.sdf";
  const cases::SdfModel sd = cases::load_sdf(path);
  REQUIRE(sd.loops.size() == 1);
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const cases::State s = cases::closed_random_state(sd.model, sd.loops, seed);
    CHECK(s.q.norm() > 1e-3);
    const LoopJoints<double> again = cases::close_loops<double>(sd.model, s.q, s.loops);
    CHECK((again[0].XP.E - sd.loops[0].XP.E).norm() <= 1e-12);  // the projection's residual, <= 1e3 eps
    CHECK((again[0].XP.r - sd.loops[0].XP.r).norm() <= 1e-12);
  }
}

// The biped of examples/sdf/ (its header gives the counts): floating pelvis first, so the soles'
// fixed joints are the weld loops and each leg's knee and actuator joints the revolute ones; the
// constraint rank at the drawn pose leaves the pelvis's six freedoms (Eq. 8.52: n - r).
TEST_CASE("sdf: the biped with linkage knees and ankles", "[sdf][loops]") {
  const cases::SdfModel sd = cases::load_sdf(std::string(RBDLAB_SOURCE_DIR) + "/examples/sdf/biped_linkages.sdf");
  CHECK(sd.model.nv == 26);
  CHECK(sd.model.joint[0].type == JointType::Free);
  CHECK(sd.joint_names[0] == "pelvis_free");
  REQUIRE(sd.loops.size() == 6);
  int revolute = 0, weld = 0;
  for (const auto& L : sd.loops) {
    revolute += L.type == LoopJointType::Revolute;
    if (L.type == LoopJointType::Weld) {
      ++weld;
      CHECK(L.p == -1);
    }
  }
  CHECK(revolute == 4);
  CHECK(weld == 2);
  ClosedLoopWorkspace<double> ws(sd.model);
  VecX<double> qdd(sd.model.nv);
  const VecX<double> q = neutral_configuration(sd.model), zero = VecX<double>::Zero(sd.model.nv);
  LoopKkt::run<double>(sd.model, sd.loops, q, zero, zero, nullptr, qdd, ws);
  CHECK(ws.nc == 4 * 5 + 2 * 6);
  CHECK(ws.rank == 20);
}

TEST_CASE("sdf: refusals name the problem", "[sdf][bad_input]") {
  auto msg = [](const std::string& name, const std::string& text) {
    const std::string p = write_temp(name, text).string();
    return verify::message_of<ModelError>([&] { cases::load_sdf(p); });
  };
  CHECK_THAT(msg("missing.sdf", model(std::string(kLinkA) + joint("j", "revolute", "world", "nowhere"))),
             Catch::Contains("missing.sdf: libsdformat refused the file") && Catch::Contains("nowhere"));
  CHECK_THAT(msg("universal.sdf", model(std::string(kLinkA) +
                                        "<joint name=\"u\" type=\"universal\"><parent>world</parent><child>a</child>"
                                        "<axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 1 0</xyz></axis2></joint>")),
             Catch::Contains("joint 'u' is universal"));
  CHECK_THAT(msg("screw.sdf", model(std::string(kLinkA) + joint("s", "screw", "world", "a"))),
             Catch::Contains("joint 's' is a screw joint"));
  const std::string glued = model(std::string(kLinkA) +
      "<link name=\"b\"><inertial><mass>1</mass></inertial></link>" + joint("h", "revolute", "world", "a") +
      "<joint name=\"glue\" type=\"fixed\"><parent>a</parent><child>b</child></joint>" + joint("again", "revolute", "a", "b"));
  CHECK_THAT(msg("glued.sdf", glued), Catch::Contains("joint 'again' closes a loop between links of one rigid body"));
  // b and c are each other's children: neither floats, and neither hangs from the world.
  const std::string circular = model(std::string(kLinkA) + "<link name=\"b\"><inertial><mass>1</mass></inertial></link>" +
      "<link name=\"c\"><inertial><mass>1</mass></inertial></link>" + joint("h", "revolute", "world", "a") +
      joint("bc", "revolute", "b", "c") + joint("cb", "revolute", "c", "b"));
  CHECK_THAT(msg("circular.sdf", circular),
             Catch::Contains("link 'b' cannot be reached from the world or from a floating link") &&
                 Catch::Contains("child of joint 'cb'"));
}

}  // namespace test_sdf_loader
