#pragma once
// The subcommands of `rbdlab` (cli/main.cpp dispatches). Each returns the process exit
// status: 0 success, 1 a verification failed (`verify`), and throws BadInput for input the
// user must fix (exit 2).
#include <chrono>
#include <iostream>
#include <string>

#include "cli/args.hpp"

namespace rbd::cli {

int run_cases(const Args& a);
int run_eval(const Args& a);
int run_verify(const Args& a);
int run_bench(const Args& a, const char* argv0);
int run_equivalent(const Args& a);

// Progress lines on stderr for work that may take longer than a second (stdout stays clean
// for --json). Each line says what starts and how long the command has run.
class Progress {
 public:
  explicit Progress(std::string command) : command_(std::move(command)) {}
  void step(const std::string& what) const {
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    std::cerr << "rbdlab " << command_ << " [" << static_cast<int>(s) << " s] " << what << "\n";
  }

 private:
  std::string command_;
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

}  // namespace rbd::cli
