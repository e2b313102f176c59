#pragma once
// MODEL, --floating and --gravity of a subcommand -> a validated model (cases/model_source.hpp).
// Every failure to produce one (file missing, not XML, not URDF, bad numbers, a model that
// fails validation, an unknown case id) is the user's to fix: BadInput, exit 2, with the
// loader's message, which names the file and the link or joint.
#include <stdexcept>

#include "cases/model_source.hpp"
#include "cli/args.hpp"
#include "cli/numbers.hpp"

namespace rbd::cli {

inline cases::LoadedModel load_model(const Args& a) {
  cases::ModelSourceOptions opt;
  opt.floating = a.flag.count("--floating") > 0;
  if (const std::string* g = a.get("--gravity")) {
    const std::vector<double> v = parse_list(*g, "--gravity");
    if (v.size() != 3) throw BadInput("--gravity: expected 3 numbers gx,gy,gz, got " + std::to_string(v.size()));
    opt.gravity = Vec3<double>(v[0], v[1], v[2]);
  }
  try {
    return cases::load_model_source(a.positional.at(0), opt);
  } catch (const ModelError& e) {  // UrdfError and validation errors
    throw BadInput(e.what());
  } catch (const std::invalid_argument& e) {  // unknown case id, --floating on a case
    throw BadInput(e.what());
  }
}

}  // namespace rbd::cli
