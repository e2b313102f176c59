// `rbdlab bench MODEL`: runs the suite's benchmark program (bench/bench_main.cpp) on that one
// model, so a user's robot is timed with exactly the hygiene, checks and MuJoCo peer of
// `make bench`: every variant passes the exactness check first, MuJoCo's outputs are
// compared with rbdlab's before MuJoCo is timed, medians over repetitions.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/model_input.hpp"

#ifndef RBDLAB_BENCH_PROGRAM
#error "RBDLAB_BENCH_PROGRAM (the path of rbdlab_bench) must be defined by the build"
#endif

namespace rbd::cli {

int run_bench(const Args& a, const char*) {
  if (a.positional.size() != 1) throw BadInput("bench: expected exactly one MODEL (a URDF file or a case id); see rbdlab bench --help");
  // Load here too, so that a bad MODEL is reported as bad input before anything runs.
  (void)load_model(a);
  if (access(RBDLAB_BENCH_PROGRAM, X_OK) != 0)
    throw BadInput(std::string("bench: the benchmark program ") + RBDLAB_BENCH_PROGRAM +
                   " is not built (make verify does not build it); run `make build` or `make bench` first");
  std::vector<std::string> args = {RBDLAB_BENCH_PROGRAM, "--model=" + a.positional[0]};
  if (a.flag.count("--floating")) args.push_back("--floating");
  if (a.flag.count("--quick")) args.push_back("--quick");
  if (a.flag.count("--json")) args.push_back("--benchmark_format=json");
  if (const std::string* out = a.get("--out")) {
    args.push_back("--benchmark_out=" + *out);
    args.push_back("--benchmark_out_format=json");
  }
  Progress("bench").step("running " + std::string(RBDLAB_BENCH_PROGRAM) + " on " + a.positional[0] +
                         " (exactness checks, then timing; progress below)");
  std::vector<char*> argv;
  for (std::string& s : args) argv.push_back(s.data());
  argv.push_back(nullptr);
  execv(argv[0], argv.data());
  throw std::runtime_error(std::string("cannot run ") + RBDLAB_BENCH_PROGRAM + ": " + std::strerror(errno) +
                           " (build it with `make bench`)");
}

}  // namespace rbd::cli
