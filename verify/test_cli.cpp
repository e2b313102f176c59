// The `rbdlab` command, run as a user runs it (build/rbdlab in a child process):
//  - every class of bad input of issue 4 exits with status 2 and a message naming the
//    problem and where (the URDF classes reuse verify/data/urdf_bad/, whose exact messages
//    test_urdf.cpp pins; here: the CLI passes them through, exit 2, no crash);
//  - eval's JSON for each shared robot agrees with MuJoCo loading the same URDF file itself
//    (its own URDF importer, not rbdlab's MJCF export);
//  - the strict number parsing of cli/numbers.hpp (also fuzzed: verify/fuzz/).
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <mujoco/mujoco.h>
#include <nlohmann/json.hpp>

#include "cases/urdf_robots.hpp"
#include "cli/numbers.hpp"

namespace test_cli {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

#ifndef RBDLAB_CLI_PROGRAM
#error "RBDLAB_CLI_PROGRAM (path of build/rbdlab) must be defined by the build"
#endif
#ifndef RBDLAB_SOURCE_DIR
#error "RBDLAB_SOURCE_DIR must be defined by the build"
#endif

namespace {

namespace fs = std::filesystem;

struct Run {
  int status = -1;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Runs build/rbdlab with `args` (already shell-quoted where needed).
Run rbdlab(const std::string& args) {
  const fs::path dir = fs::temp_directory_path() / ("rbdlab_test_cli_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string cmd = std::string("'") + RBDLAB_CLI_PROGRAM + "' " + args + " >'" + (dir / "out").string() +
                          "' 2>'" + (dir / "err").string() + "'";
  const int raw = std::system(cmd.c_str());
  Run r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  r.out = slurp(dir / "out");
  r.err = slurp(dir / "err");
  fs::remove_all(dir);
  return r;
}

std::string bad_urdf(const std::string& name) {
  return "'" + std::string(RBDLAB_SOURCE_DIR) + "/verify/data/urdf_bad/" + name + "'";
}
std::string cli_data(const std::string& name) {
  return "'" + std::string(RBDLAB_SOURCE_DIR) + "/verify/data/cli/" + name + "'";
}

void expect_bad_input(const std::string& args, const std::vector<std::string>& must_contain) {
  const Run r = rbdlab(args);
  INFO("rbdlab " << args << "\nexit " << r.status << "\nstderr: " << r.err);
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(r.err.rfind("rbdlab: error: ", 0) == 0);
  for (const auto& s : must_contain) CHECK(r.err.find(s) != std::string::npos);
}

}  // namespace

TEST_CASE("cli: usage errors exit 2 and say what is wrong", "[cli][bad_input]") {
  expect_bad_input("frobnicate", {"unknown command 'frobnicate'"});
  expect_bad_input("eval", {"expected exactly one MODEL"});
  expect_bad_input("eval gu:3 --bogus 1", {"unknown option '--bogus'", "--q X"});
  expect_bad_input("eval gu:3 --q", {"--q needs a value"});
  expect_bad_input("eval gu:3 --scalar quad", {"--scalar", "'quad'"});
  expect_bad_input("eval gu:3 --family inverse_dynamic", {"unknown family 'inverse_dynamic'", "inverse_dynamics"});
  expect_bad_input("eval gu:3 --variant rnea", {"unknown variant 'rnea'", "rnea_spatial"});
  expect_bad_input("eval gu:0", {"case id 'gu:0'", "size must be >= 1"});
  expect_bad_input("eval nosuchcase", {"unknown family 'nosuchcase'"});
  expect_bad_input("eval gu:3 --floating", {"--floating applies to URDF files only"});
  expect_bad_input("verify gu:3 --seeds 1", {"--seeds", "outside [2, 1000]"});
  const Run help = rbdlab("eval --help");
  CHECK(help.status == 0);
  CHECK(help.out.find("usage: rbdlab eval MODEL") != std::string::npos);
}

TEST_CASE("cli: every malformed URDF exits 2 with the loader's message", "[cli][bad_input][urdf]") {
  // File, then a fragment of the message test_urdf.cpp pins for it (problem and place).
  const std::vector<std::pair<std::string, std::string>> files = {
      {"empty.urdf", "empty"},
      {"not_xml.urdf", "not a well-formed XML document"},
      {"not_urdf.urdf", "not URDF"},
      {"unknown_joint_type.urdf", "joint 'shoulder'"},
      {"missing_inertial_nonleaf.urdf", "link 'upper'"},
      {"missing_inertial_leaf.urdf", "link 'finger'"},
      {"zero_mass.urdf", "non-positive mass 0"},
      {"negative_mass.urdf", "negative mass -2.5"},
      {"inertia_not_pd.urdf", "not positive semi-definite"},
      {"inertia_triangle.urdf", "triangle inequality"},
      {"nan_mass.urdf", "Link [arm]"},
      {"inf_origin.urdf", "joint [shoulder]"},
      {"percent_in_value.urdf", "contains '%'"},
      {"loop_two_parents.urdf", "kinematic loop"},
      {"two_roots.urdf", "two root links"},
      {"missing_child_link.urdf", "child link 'hand'"},
  };
  for (const auto& [file, fragment] : files) expect_bad_input("eval " + bad_urdf(file), {file, fragment});
  // Every file of the directory, including any added later: exit 2, never a crash.
  for (const auto& e : fs::directory_iterator(fs::path(RBDLAB_SOURCE_DIR) / "verify/data/urdf_bad")) {
    const Run r = rbdlab("eval '" + e.path().string() + "'");
    INFO(e.path().filename().string() << ": exit " << r.status << ", " << r.err);
    CHECK(r.status == 2);
  }
  expect_bad_input("eval /nonexistent/robot.urdf", {"/nonexistent/robot.urdf", "file not found"});
}

TEST_CASE("cli: bad state numbers exit 2 naming the option and the element", "[cli][bad_input]") {
  expect_bad_input("eval gu:3 --q 1,2", {"--q: 2 numbers given", "needs 3", "link1 (revolute): 1"});
  expect_bad_input("eval gu:3 --q 1,nan,3", {"--q element 2", "'nan'", "not finite"});
  expect_bad_input("eval gu:3 --qd 1,2,inf", {"--qd element 3", "not finite"});
  expect_bad_input("eval gu:3 --tau 1,,3", {"--tau element 2", "got nothing"});
  expect_bad_input("eval gu:3 --qdd 1,2,3x", {"--qdd element 3", "'3x' is not a number"});
  expect_bad_input("eval gu:3 --q 1,2,1e999", {"--q element 3", "out of the range of double"});
  expect_bad_input("eval gu:3 --seed -4", {"--seed", "not a non-negative integer"});
  expect_bad_input("eval gu:3 --gravity 0,0", {"--gravity: expected 3 numbers"});
  expect_bad_input("eval gu:3 --forward 1,0", {"--forward: 2 numbers given", "has 3 joints"});
  expect_bad_input("eval gu:3 --forward 1,0.5,1", {"--forward: entry 1", "link2", "not 1 or 0"});
}

TEST_CASE("cli: eval hybrid_dynamics with --forward: all joints forward gives forward dynamics' qdd", "[cli]") {
  // With every joint forward the unknowns are qdd (section 9.1), and hybrid_aba performs aba's
  // operations (test_hybrid_dynamics.cpp): the printed numbers are the same.
  const Run h = rbdlab("eval gu:3 --seed 2 --forward 1,1,1 --family hybrid_dynamics --variant hybrid_aba --json");
  const Run f = rbdlab("eval gu:3 --seed 2 --family forward_dynamics --variant aba --json");
  REQUIRE(h.status == 0);
  REQUIRE(f.status == 0);
  const auto vh = nlohmann::json::parse(h.out), vf = nlohmann::json::parse(f.out);
  INFO(h.out << "\n" << f.out);
  CHECK(vh["results"][0]["value"] == vf["results"][0]["value"]);
  CHECK(vh["state"]["forward"] == nlohmann::json::array({1, 1, 1}));
  CHECK(vh["results"][0]["unknowns"] == nlohmann::json::array({"qdd[0]", "qdd[1]", "qdd[2]"}));
  // A mixed split names which entry is which.
  const Run mixed = rbdlab("eval gu:3 --seed 2 --forward 0,1,0 --family hybrid_dynamics --variant hybrid_aba --json");
  REQUIRE(mixed.status == 0);
  CHECK(nlohmann::json::parse(mixed.out)["results"][0]["unknowns"] == nlohmann::json::array({"tau[0]", "qdd[1]", "tau[2]"}));
}

TEST_CASE("cli: eval geared_dynamics with --gears: the pairs are echoed, the unknowns named, bad pairs refused",
          "[cli]") {
  // Joint 1 driven by joint 0 at ratio 2: y = (q_0, q_2), the unknowns qdd[0] and qdd[2].
  const Run g = rbdlab("eval gu:3 --seed 2 --gears 1:0:2 --family geared_dynamics --json");
  INFO(g.err);
  REQUIRE(g.status == 0);
  const auto j = nlohmann::json::parse(g.out);
  CHECK(j["state"]["gears"] == nlohmann::json::parse(R"([{"driven": 1, "driver": 0, "ratio": 2.0}])"));
  REQUIRE(j["results"].size() == 3);  // geared_sparse, geared_dense, geared_lagrange
  for (const auto& r : j["results"]) {
    CHECK(r["unknowns"] == nlohmann::json::array({"qdd[0]", "qdd[2]"}));
    CHECK(r["value"].size() == 2);
  }
  // Without pairs (no --seed, no --gears) geared_sparse is crba_llt_dense's route: the same H
  // (CRBA), C (RNEA) and Eigen Cholesky on the same lower triangle, so the same doubles.
  const std::string state = " --qd 0.1,0.2,0.3 --tau 1,2,3 --json";
  const Run none = rbdlab("eval gu:3 --family geared_dynamics --variant geared_sparse" + state);
  const Run fd = rbdlab("eval gu:3 --family forward_dynamics --variant crba_llt_dense" + state);
  REQUIRE(none.status == 0);
  REQUIRE(fd.status == 0);
  CHECK(nlohmann::json::parse(none.out)["results"][0]["value"] == nlohmann::json::parse(fd.out)["results"][0]["value"]);
  expect_bad_input("eval gu:3 --gears 1:1:2", {"--gears", "gear pair 0", "cannot drive itself"});
  expect_bad_input("eval gu:3 --gears 1:0", {"--gears", "not DRIVEN:DRIVER:RATIO"});
  expect_bad_input("eval gu:3 --gears 5:0:2", {"--gears", "no such joint"});
}

TEST_CASE("cli: quaternions in --q: non-unit normalised with a warning, zero rejected", "[cli][bad_input]") {
  // joint:spherical = a spherical joint (q: 4 numbers) at the root + a revolute child (1).
  const Run r = rbdlab("eval joint:spherical --q 2,0,0,0,0.5 --family mass_matrix --json");
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["state"]["q"][0].get<double>() == 1.0);  // 2 / |2|, exactly
  CHECK(j["warnings"].size() == 1);
  CHECK(j["warnings"][0].get<std::string>().find("had norm 2") != std::string::npos);
  CHECK(r.err.find("warning") != std::string::npos);
  expect_bad_input("eval joint:spherical --q 0,0,0,0,0.5", {"quaternion", "is zero"});
}

TEST_CASE("cli: a singular mass matrix is refused before forward dynamics", "[cli][bad_input]") {
  // A leaf of 1e-300 kg on a 1 kg arm: H's pivot for its joint is ~1e-300 against 1: no
  // meaningful qdd exists in double. The message names the joint.
  expect_bad_input("eval " + cli_data("singular_leaf.urdf") + " --family forward_dynamics",
                   {"singular mass matrix", "joint 'wrist'"});
  // Hybrid dynamics solves with H_11, so it is refused there too.
  expect_bad_input("eval " + cli_data("singular_leaf.urdf") + " --family hybrid_dynamics",
                   {"singular mass matrix", "joint 'wrist'"});
  // Inverse dynamics needs no solve and still runs.
  CHECK(rbdlab("eval " + cli_data("singular_leaf.urdf") + " --family inverse_dynamics").status == 0);
}

TEST_CASE("cli: eval --scalar reference prints every digit and agrees with double", "[cli]") {
  const Run d = rbdlab("eval gu:4 --seed 3 --family inverse_dynamics --variant rnea_spatial --json");
  const Run r = rbdlab("eval gu:4 --seed 3 --family inverse_dynamics --variant rnea_spatial --scalar reference --json");
  REQUIRE(d.status == 0);
  REQUIRE(r.status == 0);
  const auto jd = nlohmann::json::parse(d.out), jr = nlohmann::json::parse(r.out);
  const auto& vd = jd["results"][0]["value"];
  const auto& vr = jr["results"][0]["value"];
  REQUIRE(vd.size() == 4);
  for (std::size_t k = 0; k < 4; ++k) {
    const std::string s = vr[k].get<std::string>();
    CHECK(s.size() > 50);  // ~52 significant digits, scientific
    // double vs 50 digits: within the accuracy sweep's budget for GU(4), 16 (4 + 1) eps,
    // relative to the typical |tau| (~1..10 here, so 1e-13 absolute is generous and still
    // 1e3 x below any formula error).
    CHECK(std::abs(std::stod(s) - vd[k].get<double>()) <= 1e-13 * std::max(1.0, std::abs(vd[k].get<double>())));
  }
}

// Issue 4: eval's tau and H for each shared robot agree with MuJoCo loading the same URDF.
// MuJoCo's URDF importer merges fixed-joint links (fusestatic) and re-diagonalises every
// inertia tensor (its own 3x3 eigen-decomposition in double, stored as principal moments and
// a quaternion). For diagonal tensors (ur5, iiwa14) that step is exact and the agreement is
// the round-off of two recursions, held to 1e-10 relative (measured: below 1e-15). For full
// tensors (panda, solo12) measured at seed 2: 2.3e-8 (panda H) and below 1e-10 (solo12).
// The same panda through rbdlab's MJCF export, where rbdlab computes the principal axes,
// agrees with MuJoCo to 2.7e-15 (verify/test_mjcf_peer.cpp), so the 2e-8 is MuJoCo's URDF
// import of full tensors, not the dynamics: held to 1e-7 (the measured figure with a factor 4
// of headroom for other states; issue 4 quotes "about 1e-8" for this effect).
TEST_CASE("cli: eval JSON of each shared robot agrees with MuJoCo's own URDF import", "[cli][mujoco][urdf]") {
  struct Expect { std::string robot; double tol; };
  for (const Expect& e : {Expect{"ur5", 1e-10}, Expect{"iiwa14", 1e-10}, Expect{"panda", 1e-7}, Expect{"solo12", 1e-7}}) {
    const std::string path = rbd::cases::urdf_robot_path(e.robot);
    const Run r = rbdlab("eval '" + path + "' --seed 2 --family inverse_dynamics,mass_matrix --variant all --json");
    INFO(e.robot << ": " << r.err);
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    const int nv = j["nv"];
    char error[1000] = "";
    mjModel* m = mj_loadXML(path.c_str(), nullptr, error, sizeof error);
    INFO("MuJoCo: " << error);
    REQUIRE(m != nullptr);
    REQUIRE(m->nv == nv);  // fixed base, all joints 1-DoF on these robots
    mjData* d = mj_makeData(m);
    std::vector<int> dof(static_cast<std::size_t>(nv));
    const auto& names = j["joint_names"];
    for (int i = 0; i < nv; ++i) {
      const int jid = mj_name2id(m, mjOBJ_JOINT, names[i].get<std::string>().c_str());
      REQUIRE(jid >= 0);
      dof[i] = m->jnt_dofadr[jid];
      d->qpos[m->jnt_qposadr[jid]] = j["state"]["q"][i].get<double>();
      d->qvel[dof[i]] = j["state"]["qd"][i].get<double>();
      d->qacc[dof[i]] = j["state"]["qdd"][i].get<double>();
    }
    mj_kinematics(m, d);
    mj_comPos(m, d);
    mj_comVel(m, d);
    std::vector<mjtNum> tau_mj(static_cast<std::size_t>(nv)), H_mj(static_cast<std::size_t>(nv * nv));
    mj_rne(m, d, 1, tau_mj.data());
    mj_crb(m, d);
    mj_fullM(m, H_mj.data(), d->qM);
    for (const auto& res : j["results"]) {
      double diff = 0, norm = 0;
      if (res["family"] == "inverse_dynamics") {
        for (int i = 0; i < nv; ++i) {
          const double t = res["value"][i].get<double>();
          diff += std::pow(t - tau_mj[dof[i]], 2);
          norm += t * t;
        }
      } else {
        for (int r2 = 0; r2 < nv; ++r2)
          for (int c = 0; c < nv; ++c) {
            const double h = res["value"][r2][c].get<double>();
            diff += std::pow(h - H_mj[dof[r2] * nv + dof[c]], 2);
            norm += h * h;
          }
      }
      const double rel = std::sqrt(diff / norm);
      INFO(e.robot << " " << res["family"].get<std::string>() << "/" << res["variant"].get<std::string>()
                   << ": relative difference from MuJoCo " << rel);
      CHECK(rel <= e.tol);
      std::printf("  %-7s %-30s relative difference from MuJoCo's URDF import %.2g\n", e.robot.c_str(),
                  (res["family"].get<std::string>() + "/" + res["variant"].get<std::string>()).c_str(), rel);
    }
    mj_deleteData(d);
    mj_deleteModel(m);
  }
}

// `rbdlab equivalent` (section 9.7). What the command reports is checked against facts that do
// not come from its code: on an all-revolute arm (ur5) Table 9.7's revolute family takes every
// body's whole mass to its parent, so every equivalent body has mass 0 and is not physically
// valid; the ten parameters it prints for each body contain exactly the zeros it counts; the
// equivalent model's tau, H and qdd meet the oracle on the original model to 40 digits (the
// command's own verdict, exit 0); and skipping the zeros costs fewer multiplications.
TEST_CASE("cli: equivalent moves the inertias, keeps the dynamics and counts the saving", "[cli][equivalent]") {
  const Run r = rbdlab("equivalent urdf:ur5 --json");
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["nb"] == 6);
  CHECK(j["check"]["pass"] == true);
  REQUIRE(j["check"]["results"].size() == 4);
  for (const auto& c : j["check"]["results"]) CHECK(c["digits"].get<double>() >= 40);
  int counted = 0;
  for (const auto& b : j["bodies"]) {
    INFO(b.dump());
    CHECK(b["joint"] == "revolute");
    const auto& I = b["equivalent_inertia"];
    CHECK(I["m"].get<double>() == 0);
    CHECK(b["physically_valid"] == false);
    CHECK(b["why_not"].get<std::string>().find("mass 0") != std::string::npos);
    int zeros = I["m"].get<double>() == 0;
    for (int k = 0; k < 3; ++k) zeros += I["h"][k].get<double>() == 0;
    for (int r0 = 0; r0 < 3; ++r0)
      for (int c = r0; c < 3; ++c) zeros += I["Ibar"][r0][c].get<double>() == 0;
    CHECK(zeros == b["zero_parameters"]["equivalent"].get<int>());
    counted += zeros - b["zero_parameters"]["original"].get<int>();
  }
  CHECK(counted == j["parameters_zeroed"].get<int>());
  CHECK(j["parameters_zeroed"].get<int>() > 0);
  CHECK(j["rnea_ops"]["rnea_equivalent"]["m"].get<int>() < j["rnea_ops"]["rnea_spatial"]["m"].get<int>());
  // A prismatic joint's family is any pure rotational inertia (Table 9.7): the body keeps its
  // mass, loses all of Ibar, and is left with Icom = -m c^ c^T, not positive definite. A free
  // joint moves nothing, so solo12's floating base keeps a rigid body's inertia (plus what its
  // legs' revolute joints passed to it: particles and axial inertias, which keep it one).
  const auto prismatic = nlohmann::json::parse(rbdlab("equivalent joint:prismatic_x --json").out);
  REQUIRE(prismatic["bodies"][0]["joint"] == "prismatic");
  CHECK(prismatic["bodies"][0]["equivalent_inertia"]["m"].get<double>() > 0);
  CHECK(prismatic["bodies"][0]["why_not"].get<std::string>().find("not positive definite") != std::string::npos);
  CHECK(prismatic["check"]["pass"] == true);
  const auto solo = nlohmann::json::parse(rbdlab("equivalent urdf:solo12 --json").out);
  REQUIRE(solo["bodies"][0]["joint"] == "free");
  CHECK(solo["bodies"][0]["physically_valid"] == true);
  CHECK(solo["bodies_not_physically_valid"] == 12);
  CHECK(solo["check"]["pass"] == true);
  // The readable form, and bad input.
  const Run text = rbdlab("equivalent gu:4 --seed 3");
  CHECK(text.status == 0);
  CHECK(text.out.find("inertia parameters zeroed") != std::string::npos);
  CHECK(text.out.find("rnea_equivalent") != std::string::npos);
  expect_bad_input("equivalent", {"expected exactly one MODEL"});
  expect_bad_input("equivalent gu:3 --seed x", {"--seed"});
  expect_bad_input("equivalent " + bad_urdf("negative_mass.urdf"), {"negative mass -2.5"});
}

// MJCF through MuJoCo's compiler (cases/mjcf_loader.hpp; verify/test_mjcf_loader.cpp checks the
// conversion): the rbdlab command takes an MJCF file as MODEL, names its joints as the file does,
// and passes MuJoCo's refusals on as bad input.
TEST_CASE("cli: an MJCF file as MODEL", "[cli][mjcf]") {
  const fs::path dir = fs::temp_directory_path() / ("rbdlab_test_cli_mjcf_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path good = dir / "arm.xml", bad = dir / "broken.xml";
  std::ofstream(good) << R"(<mujoco model="arm"><worldbody>
    <body name="upper"><joint name="shoulder" type="hinge" axis="0 1 0"/>
      <inertial pos="0.2 0 0" mass="2" diaginertia="0.01 0.03 0.03"/>
      <body name="lower" pos="0.4 0 0"><joint name="elbow" type="hinge" axis="0 1 0"/>
        <inertial pos="0.15 0 0" mass="1" diaginertia="0.005 0.01 0.01"/></body>
    </body></worldbody></mujoco>)";
  std::ofstream(bad) << "<mujoco><worldbody><body><joint type=\"nonsense\"/></body></worldbody></mujoco>";
  const Run r = rbdlab("eval '" + good.string() + "' --family inverse_dynamics --variant rnea_spatial --seed 1 --json");
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["joint_names"] == nlohmann::json::array({"shoulder", "elbow"}));
  CHECK(j["results"][0]["value"].size() == 2);
  expect_bad_input("eval '" + bad.string() + "'", {"broken.xml", "MuJoCo's compiler refused the file"});
  expect_bad_input("eval '" + good.string() + "' --floating", {"--floating applies to URDF files only"});
  fs::remove_all(dir);
}

// A closed-loop MJCF model (examples/mjcf/, <connect> equalities as loop joints): `verify` holds the
// closed-loop family on the file's own loops at states on them, and `eval` refuses a q that does
// not close them unless asked to project it.
TEST_CASE("cli: a closed-loop MJCF file", "[cli][mjcf][loops]") {
  const std::string four_bar = "'" + std::string(RBDLAB_SOURCE_DIR) + "/examples/mjcf/four_bar.xml'";
  const Run v = rbdlab("verify " + four_bar + " --seeds 3 --json");
  INFO(v.err);
  REQUIRE(v.status == 0);
  const auto j = nlohmann::json::parse(v.out);
  REQUIRE(j["loop_joints"].size() == 1);
  CHECK(j["loop_joints"][0]["name"] == "D");
  CHECK(j["loop_joints"][0]["type"] == "spherical");
  int loop_records = 0;
  for (const auto& r : j["accuracy"])
    if (r["family"] == "closed_loop_dynamics") {
      ++loop_records;
      CHECK(r["pass"] == true);
      CHECK(r["exact_digits"].get<double>() >= 40);
    }
  CHECK(loop_records == 6);
  // The drawn pose closes the loop; a q moved by 0.1 rad at the crank does not.
  const Run at_rest = rbdlab("eval " + four_bar + " --family closed_loop_dynamics --variant loop_kkt --json");
  INFO(at_rest.err);
  REQUIRE(at_rest.status == 0);
  CHECK(nlohmann::json::parse(at_rest.out)["loop_joints"].size() == 1);
  expect_bad_input("eval " + four_bar + " --family closed_loop_dynamics --q 0.1,0,0",
                   {"q does not close the model's loops", "loop joint 0 ('D')", "--project-loops"});
  const Run projected =
      rbdlab("eval " + four_bar + " --family closed_loop_dynamics --variant loop_kkt --q 0.1,0,0 --qd 1,0,0 --project-loops --json");
  INFO(projected.err);
  REQUIRE(projected.status == 0);
  CHECK(projected.err.find("--project-loops moved q onto the loop joints") != std::string::npos);
  CHECK(projected.err.find("qd violates the loops' velocity constraints") != std::string::npos);
}

// The same four-bar as SDF (examples/sdf/, read by libsdformat): its fourth joint closes the loop.
TEST_CASE("cli: a closed-loop SDF file", "[cli][sdf][loops]") {
  const std::string four_bar = "'" + std::string(RBDLAB_SOURCE_DIR) + "/examples/sdf/four_bar.sdf'";
  const Run v = rbdlab("verify " + four_bar + " --seeds 2 --json");
  INFO(v.err);
  REQUIRE(v.status == 0);
  const auto j = nlohmann::json::parse(v.out);
  REQUIRE(j["loop_joints"].size() == 1);
  CHECK(j["loop_joints"][0]["name"] == "D");
  CHECK(j["loop_joints"][0]["type"] == "revolute");
  int loop_records = 0;
  for (const auto& r : j["accuracy"])
    if (r["family"] == "closed_loop_dynamics") loop_records += r["pass"] == true;
  CHECK(loop_records == 6);
  expect_bad_input("eval " + four_bar + " --floating", {"--floating applies to URDF files only"});
}

TEST_CASE("cli numbers: strict parsing", "[cli][numbers]") {
  using rbd::cli::BadInput;
  using rbd::cli::parse_double;
  using rbd::cli::parse_list;
  CHECK(parse_double("1.5", "x") == 1.5);
  CHECK(parse_double(" +2e-3 ", "x") == 2e-3);
  CHECK(parse_double("-0.25", "x") == -0.25);
  CHECK(parse_list("1, 2 ,3", "x") == std::vector<double>{1, 2, 3});
  // 17 significant digits read back to the same double (the eval output's promise).
  CHECK(parse_double("0.10000000000000001", "x") == 0.1);
  for (const char* bad : {"", " ", "nan", "NaN", "inf", "-inf", "1e400", "1.5x", "0x10", "+-1", "++1", "1,2", "--1", "e5"})
    CHECK_THROWS_AS(parse_double(bad, "x"), BadInput);
  for (const char* bad : {"", ",", "1,", ",1", "1,,2", "1;2"}) CHECK_THROWS_AS(parse_list(bad, "x"), BadInput);
  CHECK_THROWS_WITH(parse_list("1,2,oops", "--q"), Catch::Contains("--q element 3") && Catch::Contains("'oops'"));
  CHECK(rbd::cli::parse_count("12", "n", 0, 100) == 12);
  CHECK_THROWS_AS(rbd::cli::parse_count("101", "n", 0, 100), BadInput);
  CHECK_THROWS_AS(rbd::cli::parse_count("-1", "n", 0, 100), BadInput);
}

}  // namespace test_cli
