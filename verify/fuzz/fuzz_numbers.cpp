// libFuzzer target: arbitrary bytes -> the command line's number parsing (cli/numbers.hpp).
// Contract under test: parse_list either throws BadInput or returns finite numbers, and
// every number it returns survives a round trip through the 17-significant-digit form that
// `rbdlab eval --json` promises (so a printed state can be fed back with --q ... exactly).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "cli/numbers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    for (const double x : rbd::cli::parse_list(text, "--q")) {
      if (!std::isfinite(x)) __builtin_trap();
      char buf[40];
      std::snprintf(buf, sizeof buf, "%.17g", x);
      if (rbd::cli::parse_double(buf, "round trip") != x) __builtin_trap();
    }
  } catch (const rbd::cli::BadInput&) {
  }
  return 0;
}
