// Example 1: load a URDF robot; compute tau, H, C and qdd at one state with the fastest
// applicable variants; choose a variant; see a refused call and a refused input.
//
//   rbdlab_example_dynamics ROBOT.urdf... [--floating ROBOT.urdf]   (--floating: free joint at the root)
//
// Exit status 0 when every check holds (ctest runs it on ../shared/cases/urdf's robots), 1 if one
// fails, 2 for a file that cannot be loaded.
#include <algorithm>
#include <iostream>
#include <limits>
#include <string>

#include <Eigen/Eigenvalues>

#include <rbdlab/rbdlab.hpp>

#include "state.hpp"

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
  std::cout << "  " << (ok ? "ok    " : "FAILED") << "  " << what << "\n";
  if (!ok) ++failures;
}

double rel(const Eigen::VectorXd& a, const Eigen::VectorXd& b) { return (a - b).norm() / std::max(b.norm(), 1.0); }

void run(const std::string& path, bool floating) {
  // Load: a validated rbd::Model<double> (errors name the file, the link and the problem).
  rbdlab::UrdfOptions options;
  options.floating = floating;
  const rbdlab::UrdfModel robot = rbdlab::load_urdf(path, options);
  const rbd::Model<double>& model = robot.model;
  const int nv = model.nv;
  std::cout << robot.robot_name << (floating ? " (floating)" : "") << ": " << model.nb << " bodies, nq = " << model.nq
            << ", nv = " << nv << "\n";

  // Each family's workspace, made once; it picks the fastest variant that applies to this model.
  rbdlab::InverseDynamicsWorkspace id(model);
  rbdlab::MassMatrixWorkspace mm(model);
  rbdlab::BiasWorkspace bs(model);
  rbdlab::ForwardDynamicsWorkspace fd(model);
  rbdlab::FactorizationWorkspace fa(model);
  std::cout << "  fastest applicable: inverse_dynamics " << id.fastest() << ", mass_matrix " << mm.fastest()
            << ", bias " << bs.fastest() << ", forward_dynamics " << fd.fastest() << ", factorization "
            << fa.fastest() << "\n";

  // tau, H, C and qdd at one state. Outputs of the right size: the calls allocate nothing.
  const example::State x = example::make_state(model);
  Eigen::VectorXd tau(nv), C(nv), qdd(nv), qdd_H(nv);
  Eigen::MatrixXd H(nv, nv);
  rbdlab::inverse_dynamics(id, x.q, x.qd, x.qdd, tau);  // tau = ID(q, qd, qdd)
  rbdlab::mass_matrix(mm, x.q, H);                      // H(q)
  rbdlab::bias(bs, x.q, x.qd, C);                       // C(q, qd)
  rbdlab::forward_dynamics(fd, x.q, x.qd, tau, qdd);    // back to qdd
  const Eigen::VectorXd rhs = tau - C;
  rbdlab::factorization(fa, H, rhs, qdd_H);             // H^-1 (tau - C)
  std::cout.precision(6);
  std::cout << "  tau = " << tau.transpose() << "\n  qdd = " << qdd.transpose() << "\n";

  // The checks: a bound of the first-order kind the gates use, cond2(H) * 64 nv eps.
  const Eigen::VectorXd ev = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(H).eigenvalues();
  const double cond = ev.maxCoeff() / ev.minCoeff();
  const double tol = cond * 64 * nv * std::numeric_limits<double>::epsilon();
  std::cout << "  cond2(H) = " << cond << ", tolerance " << tol << "\n";
  const double eps = std::numeric_limits<double>::epsilon();
  const double scale = H.norm() * x.qdd.norm() + C.norm() + tau.norm();
  check((H * x.qdd + C - tau).norm() <= 64 * nv * eps * scale, "H qdd + C = tau (Eq. 6.1)");
  check(rel(qdd, x.qdd) <= tol, "forward_dynamics(inverse_dynamics(qdd)) = qdd");
  check(rel(qdd_H, x.qdd) <= tol, "factorization: H^-1 (tau - C) = qdd");

  // Choosing a variant: its tag as the template argument (rbd::<Variant>, listed in
  // algorithms/<family>/variants.hpp). Same quantity, another algorithm.
  Eigen::VectorXd tau_spatial(nv), qdd_crba(nv);
  rbdlab::inverse_dynamics<rbd::RneaSpatial>(id, x.q, x.qd, x.qdd, tau_spatial);
  rbdlab::forward_dynamics<rbd::CrbaLtdl>(fd, x.q, x.qd, tau, qdd_crba);
  check(rel(tau_spatial, tau) <= 64 * nv * eps * scale / std::max(tau.norm(), 1.0),
        "rnea_spatial agrees with " + std::string(id.fastest()));
  check(rel(qdd_crba, qdd) <= tol, "crba_ltdl agrees with " + std::string(fd.fastest()));

  // A variant that does not apply is an error that says why and names those that do: never a
  // silent swap to another variant.
  try {
    if (floating) rbdlab::inverse_dynamics<rbd::RneaDh>(id, x.q, x.qd, x.qdd, tau_spatial);  // no DH form
    else rbdlab::forward_dynamics<rbd::AbaFloating>(fd, x.q, x.qd, tau, qdd_crba);       // fixed base
    check(false, "a variant that does not apply was refused");
  } catch (const rbdlab::NotApplicable& e) {
    std::cout << "  refused: " << e.what() << "\n";
    check(true, "a variant that does not apply was refused");
  }

  // Bad input is an error naming the argument and the entry.
  Eigen::VectorXd bad = x.qd;
  bad[nv - 1] = std::numeric_limits<double>::quiet_NaN();
  try {
    rbdlab::inverse_dynamics(id, x.q, bad, x.qdd, tau);
    check(false, "a NaN in qd was refused");
  } catch (const rbdlab::InvalidArgument& e) {
    std::cout << "  refused: " << e.what() << "\n";
    check(true, "a NaN in qd was refused");
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: " << argv[0] << " ROBOT.urdf... [--floating ROBOT.urdf]\n";
    return 2;
  }
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
      std::cerr << "rbdlab_example_dynamics: " << e.what() << "\n";
      return 2;
    }
    floating = false;
  }
  std::cout << (failures ? "FAILED: " + std::to_string(failures) + " check(s)\n" : std::string("all checks passed\n"));
  return failures ? 1 : 0;
}
