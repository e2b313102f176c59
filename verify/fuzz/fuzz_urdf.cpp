// libFuzzer target: arbitrary bytes -> the URDF-to-Model path (cases/urdf_loader.hpp, through
// urdfdom) -> one inverse-dynamics and one mass-matrix call on what loads.
// Contract under test: any input either loads into a validated model or throws
// ModelError (UrdfError) with a message; nothing crashes, hangs, reads out of bounds or hits
// undefined behaviour (built with -fsanitize=fuzzer,address,undefined: make fuzz).
// The parity of the input's length chooses --floating, so both root treatments are explored
// while every byte stays XML (the seed corpus is plain URDF files).
#include <cstddef>
#include <cstdint>
#include <string>

#include "cases/urdf_loader.hpp"
#include "inverse_dynamics/rnea_spatial.hpp"
#include "mass_matrix/crba.hpp"
#include "model/configuration.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  rbd::cases::UrdfOptions opt;
  opt.floating = (size & 1) != 0;
  const std::string xml(reinterpret_cast<const char*>(data), size);
  try {
    const rbd::cases::UrdfModel u = rbd::cases::parse_urdf(xml, opt, "<fuzz>");
    const rbd::Model<double>& m = u.model;
    if (static_cast<int>(u.joint_names.size()) != m.nb) __builtin_trap();  // one name per body
    rbd::Workspace<double> ws(m);
    const rbd::VecX<double> q = rbd::neutral_configuration(m);
    const rbd::VecX<double> zero = rbd::VecX<double>::Zero(m.nv);
    rbd::VecX<double> tau(m.nv);
    rbd::RneaSpatial::run<double>(m, q, zero, zero, nullptr, tau, ws);
    rbd::MatX<double> H = rbd::MatX<double>::Zero(m.nv, m.nv);
    rbd::Crba::run<double>(m, q, H, ws);
  } catch (const rbd::ModelError&) {
    // the documented outcome for bad input
  }
  return 0;
}
