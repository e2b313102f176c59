// Example 3: the same code in the 50-digit Reference scalar, to check one state to 40 digits and
// to see the round-off of the double results.
//
//   rbdlab_example_reference ROBOT.urdf... [--floating ROBOT.urdf]
//
// dynamics<S>() below is written once and run in double and in rbd::Reference (Boost's
// cpp_bin_float_50). In Reference, independent routes must agree to 40 digits and more: the
// fastest inverse dynamics against rnea_spatial (another recursion), H qdd + C = tau with H from
// the CRBA, and the articulated-body algorithm taking tau back to qdd. Exit status 0 when they do.
#include <iostream>
#include <string>

#include <rbdlab/rbdlab.hpp>  // with rbdlab::reference linked: includes <rbdlab/reference.hpp>

#include "state.hpp"

namespace {

template <class S> struct Result {
  rbd::VecX<S> tau, tau_spatial, C, qdd;
  rbd::MatX<S> H;
  std::string variants;
};

// tau, H, C and qdd at (q, qd, qdd) by the API, in the scalar S of the model.
template <class S>
Result<S> dynamics(const rbd::Model<S>& model, const rbd::VecX<S>& q, const rbd::VecX<S>& qd, const rbd::VecX<S>& qdd) {
  rbdlab::InverseDynamicsWorkspace id(model);
  rbdlab::MassMatrixWorkspace mm(model);
  rbdlab::ForwardDynamicsWorkspace fd(model);
  Result<S> r;
  r.tau = rbdlab::inverse_dynamics(id, q, qd, qdd);
  r.tau_spatial = rbdlab::inverse_dynamics<rbd::RneaSpatial>(id, q, qd, qdd);
  r.C = rbdlab::inverse_dynamics(id, q, qd, rbd::VecX<S>::Zero(model.nv));
  // H and qdd by chosen variants (each variant of a call is compiled for each scalar it runs in:
  // naming one keeps this 50-digit program quick to build).
  r.H = rbdlab::mass_matrix<rbd::Crba>(mm, q);
  r.qdd = rbdlab::forward_dynamics<rbd::Aba>(fd, q, qd, r.tau);
  r.variants = std::string(id.fastest()) + " and rnea_spatial, crba, aba";
  return r;
}

int failures = 0;

void check_digits(double digits, const std::string& what) {
  const bool ok = digits >= 40;
  std::cout << "  " << (ok ? "ok    " : "FAILED") << "  " << what << ": " << digits << " digits\n";
  if (!ok) ++failures;
}

void run(const std::string& path, bool floating) {
  rbdlab::UrdfOptions options;
  options.floating = floating;
  const rbd::Model<double> model = rbdlab::load_urdf(path, options).model;
  const rbd::Model<rbdlab::Reference> model_r = model.cast<rbdlab::Reference>();  // see rbd::Model::cast
  const example::State x = example::make_state(model);

  const Result<double> d = dynamics(model, x.q, x.qd, x.qdd);
  const auto q = rbdlab::to_reference_q(model_r, x.q);  // quaternions renormalised in Reference
  const auto qd = rbdlab::to_reference(x.qd), qdd = rbdlab::to_reference(x.qdd);
  const Result<rbdlab::Reference> r = dynamics(model_r, q, qd, qdd);
  std::cout << model.name << (floating ? " (floating)" : "") << ", nv = " << model.nv << ", variants " << r.variants
            << "\n";

  check_digits(rbdlab::digits_of_agreement(r.tau, r.tau_spatial), "Reference: tau, fastest vs rnea_spatial");
  check_digits(rbdlab::digits_of_agreement((r.H * qdd + r.C).eval(), r.tau), "Reference: H qdd + C = tau");
  check_digits(rbdlab::digits_of_agreement(r.qdd, qdd), "Reference: forward_dynamics(tau) = qdd");

  std::cout << "  double vs Reference, in eps: tau " << rbdlab::error_in_eps(d.tau, r.tau) << ", H "
            << rbdlab::error_in_eps(d.H, r.H) << ", qdd " << rbdlab::error_in_eps(d.qdd, r.qdd) << "\n";
  std::cout << "  tau[0] in Reference: " << r.tau[0].str(45) << "\n  tau[0] in double:    " << d.tau[0] << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: " << argv[0] << " ROBOT.urdf... [--floating ROBOT.urdf]\n";
    return 2;
  }
  std::cout.precision(17);
  bool floating = false;
  for (int k = 1; k < argc; ++k) {
    const std::string arg = argv[k];
    if (arg == "--floating") {
      floating = true;
      continue;
    }
    try {
      run(arg, floating);
    } catch (const rbdlab::UrdfError& e) {
      std::cerr << "rbdlab_example_reference: " << e.what() << "\n";
      return 2;
    }
    floating = false;
  }
  std::cout << (failures ? "FAILED: " + std::to_string(failures) + " check(s)\n" : std::string("all checks passed\n"));
  return failures ? 1 : 0;
}
