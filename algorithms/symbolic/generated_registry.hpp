#pragma once
// The straight-line functions that rbdlab_codegen (cli/codegen.cpp) generates at build time, one
// per (case, algorithm), listed so that the tests and the benchmarks can find them. The sources
// are written into the build tree and never committed (cmake/generated_code.cmake).
#include <span>

namespace rbd::symbolic {

struct GeneratedFunction {
  const char* case_id;    // cases::build_case id, e.g. "urdf:ur5"
  const char* algorithm;  // "inverse_dynamics", "mass_matrix" or "forward_dynamics"
  const char* variant;    // the generic variant whose list was simplified (the shortest)
  int inputs, outputs;    // the list's argument counts (q, qd, qdd/tau | H row by row ...)
  long m, a;              // its operation counts (section 10.3's convention)
  void (*run)(const double* in, double* out) noexcept;
};

std::span<const GeneratedFunction> generated_functions();

}  // namespace rbd::symbolic
