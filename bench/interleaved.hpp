#pragma once
// Google Benchmark's initialisation with every repetition of every benchmark interleaved in random
// order (as rbdlab_bench does), so that a load spike on a shared machine does not hit one variant
// only; --benchmark_enable_random_interleaving given on the command line wins. Returns false (after
// Google Benchmark has reported it) when an argument is not one of its flags.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

namespace rbd::bench {

inline bool initialize_interleaved(int argc, char** argv) {
  static std::vector<char*> args;  // static: Google Benchmark may keep pointers into argv
  args.assign(argv, argv + argc);
  static std::string interleave = "--benchmark_enable_random_interleaving=true";
  bool given = false;
  for (int i = 1; i < argc; ++i) given |= std::string(argv[i]).rfind("--benchmark_enable_random_interleaving", 0) == 0;
  if (!given) args.insert(args.begin() + 1, interleave.data());
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  return !benchmark::ReportUnrecognizedArguments(n, args.data());
}

}  // namespace rbd::bench
