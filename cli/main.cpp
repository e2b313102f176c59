// rbdlab: the suite's verdicts for a user's own robot (README.md, "The rbdlab command").
//
// Exit status: 0 success; 1 a gate failed (verify) or a benchmark was refused (bench);
// 2 bad input (usage, a missing or malformed model file, bad numbers, a singular mass
// matrix), with a message on stderr naming the problem and where; 3 an internal error
// (a bug in rbdlab: please report it with the command line).
#include <exception>
#include <iostream>
#include <map>
#include <string>

#include "cli/commands.hpp"

namespace {

using rbd::cli::OptionSpec;

const char* const kUsage =
    "usage: rbdlab <command> [options]\n"
    "\n"
    "commands:\n"
    "  cases                 list the built-in model ids and benchmark cases\n"
    "  eval MODEL            evaluate the families on one state (tau, H, C, solves, qdd)\n"
    "  verify MODEL          run the gates on MODEL over seeded states; exit 0 only if all pass\n"
    "  bench MODEL           time every variant and MuJoCo on MODEL\n"
    "  equivalent MODEL      section 9.7's dynamically equivalent inertias of MODEL, checked\n"
    "\n"
    "MODEL is a URDF file (urdfdom), an MJCF file (MuJoCo's compiler; trees, one joint per body)\n"
    "or a built-in id (rbdlab cases), e.g. gu:7, urdf:panda.\n"
    "rbdlab <command> --help describes each command. Exit status: 0 ok, 1 a gate failed,\n"
    "2 bad input (the message names the problem and where), 3 internal error.\n";

const std::map<std::string, std::string> kHelp = {
    {"cases", "usage: rbdlab cases\n  Lists the built-in model ids, the verify cases and the benchmark cases.\n"},
    {"eval",
     "usage: rbdlab eval MODEL [--family F,...] [--variant V|all] [--scalar double|reference]\n"
     "                  [--seed N] [--q ...] [--qd ...] [--qdd ...] [--tau ...] [--forward ...]\n"
     "                  [--gears D:R:RATIO,...] [--gravity gx,gy,gz] [--floating] [--project-loops] [--json]\n"
     "  Evaluates every variant of the selected families (default: all of inverse_dynamics,\n"
     "  mass_matrix, bias, factorization, forward_dynamics, hybrid_dynamics, geared_dynamics) at one\n"
     "  state, without\n"
     "  external forces:\n"
     "    inverse_dynamics  tau = ID(q, qd, qdd)         mass_matrix  H(q)\n"
     "    bias              C = ID(q, qd, 0)             factorization  x = H(q)^-1 tau\n"
     "    forward_dynamics  qdd = FD(q, qd, tau)\n"
     "    hybrid_dynamics   qdd at the forward joints (tau given), tau at the others (qdd given)\n"
     "    geared_dynamics   qdd of the undriven joint variables under the gear pairs (section 9.6)\n"
     "  State: --seed N gives the suite's seeded random state; otherwise q is neutral (identity\n"
     "  quaternions) and qd = qdd = tau = 0. --q (nq numbers), --qd, --qdd, --tau (nv numbers each)\n"
     "  replace parts, comma-separated, in the model's joint order (listed under joint_names/joints\n"
     "  in the output). Quaternions are [w x y z]; one that is not of unit norm is normalised with a\n"
     "  warning, a zero one is an error. NaN/inf anywhere are errors. --forward (nb numbers, 1 or 0\n"
     "  per joint) is hybrid dynamics' split: 1 = forward joint; default: the seed's split with\n"
     "  --seed, else every joint forward. --gears lists gear pairs q_D = RATIO q_R (joint indices D, R\n"
     "  of 1-DoF joints); default: the seed's pairs with --seed, else none. geared_dynamics reads q\n"
     "  and qd at the undriven joints only (the driven ones follow from the pairs).\n"
     "  --gravity replaces the gravity vector (URDF default 0,0,-9.81). --floating adds a free joint\n"
     "  at a URDF's root link. --scalar reference evaluates in 50-digit arithmetic (values printed as\n"
     "  strings with every digit); double values are printed as the shortest decimal that reads back\n"
     "  to the same double (<= 17 significant digits). Before a solve with H, H's positive\n"
     "  definiteness is checked (a singular H is an error naming the joint).\n"
     "  Closed loops: an MJCF file's <equality> connect/weld are loop joints, which closed_loop_dynamics\n"
     "  evaluates. q must close them (the neutral q, the drawn pose, does; --seed N moves the seed's q\n"
     "  onto them); a --q that does not is an error naming the loop joint, unless --project-loops\n"
     "  moves it onto them (with a warning). qd is projected onto the loops' velocity constraints.\n"},
    {"verify",
     "usage: rbdlab verify MODEL [--seeds N] [--gravity gx,gy,gz] [--floating] [--json]\n"
     "  Runs the suite's gates on MODEL: each variant in 50-digit arithmetic against the independent\n"
     "  Lagrangian oracle (>= 40 digits), H symmetric positive definite and 1/2 qd^T H qd = kinetic\n"
     "  energy, and each variant's error in double (in eps) over N seeded states (default 20) against\n"
     "  its budget. Prints a table (or JSON); exit 0 only if everything passes. An MJCF file's\n"
     "  <equality> connect/weld are loop joints: the states are then moved onto them, and\n"
     "  closed_loop_dynamics is measured on the model's own loops (listed as loop_joints in the JSON).\n"},
    {"bench",
     "usage: rbdlab bench MODEL [--floating] [--quick] [--json] [--out FILE]\n"
     "  Times every variant of every family and MuJoCo (built from the same model) on MODEL with\n"
     "  Google Benchmark, after checking each variant's exactness and MuJoCo's agreement. Prints\n"
     "  Google Benchmark's table, or its JSON with --json; --out FILE also writes the JSON there.\n"
     "  --quick: one repetition (a smoke run). Needs a Release build (make build). A model with loop\n"
     "  joints of its own (MJCF <equality>, SDF cycles): the states lie on them, closed_loop_dynamics\n"
     "  and loop_contact_dynamics time them, and the tree families time the spanning tree.\n"},
    {"equivalent",
     "usage: rbdlab equivalent MODEL [--seed N] [--gravity gx,gy,gz] [--floating] [--json]\n"
     "  Featherstone section 9.7 on MODEL: moves Table 9.7's inertias from each body to its parent\n"
     "  (from the tips in) so that as many of the ten inertia parameters as possible become zero,\n"
     "  and prints each body's equivalent inertia (m; h = m c; Ibar, the rotational inertia about the\n"
     "  body origin), how many parameters it zeroes, and which bodies are no longer physically valid\n"
     "  (zero or negative mass, or an inertia no rigid body has: allowed, only the equation of motion\n"
     "  must be unchanged). Then checks that it is unchanged: tau (rnea_spatial), H (crba) and qdd\n"
     "  (aba) of the equivalent model, and tau of rnea_equivalent on the original, against the\n"
     "  Lagrangian oracle on the original model at the seeded state (--seed, default 1), in\n"
     "  50-digit arithmetic, 40 digits required; and counts rnea_spatial's and rnea_equivalent's\n"
     "  operations on MODEL. Exit 0 if every check passes, 1 if one fails.\n"},
};

const std::map<std::string, OptionSpec> kOptions = {
    {"cases", {}},
    {"eval",
     {{"--family", "--variant", "--scalar", "--seed", "--q", "--qd", "--qdd", "--tau", "--forward", "--gears", "--gravity"},
      {"--json", "--floating", "--project-loops"}}},
    {"verify", {{"--seeds", "--gravity"}, {"--json", "--floating"}}},
    {"bench", {{"--out"}, {"--json", "--floating", "--quick"}}},
    {"equivalent", {{"--seed", "--gravity"}, {"--json", "--floating"}}},
};

int dispatch(int argc, const char* const* argv) {
  if (argc < 2) {
    std::cerr << kUsage;
    return 2;
  }
  const std::string command = argv[1];
  if (command == "-h" || command == "--help" || command == "help") {
    std::cout << kUsage;
    return 0;
  }
  const auto spec = kOptions.find(command);
  if (spec == kOptions.end()) throw rbd::cli::BadInput("unknown command " + rbd::cli::shown(command) + "\n" + kUsage);
  const rbd::cli::Args a = rbd::cli::parse_args(argc, argv, 2, command, spec->second);
  if (a.flag.count("--help")) {
    std::cout << kHelp.at(command);
    return 0;
  }
  if (command == "cases") return rbd::cli::run_cases(a);
  if (command == "eval") return rbd::cli::run_eval(a);
  if (command == "verify") return rbd::cli::run_verify(a);
  if (command == "equivalent") return rbd::cli::run_equivalent(a);
  return rbd::cli::run_bench(a, argv[0]);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return dispatch(argc, argv);
  } catch (const rbd::cli::BadInput& e) {
    std::cerr << "rbdlab: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "rbdlab: internal error: " << e.what() << "\n";
    return 3;
  }
}
