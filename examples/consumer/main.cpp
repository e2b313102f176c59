// tau, H and qdd of a URDF robot with an installed rbdlab: rbdlab_consumer ROBOT.urdf...
// Exit status 0 when forward dynamics takes tau back to qdd (to cond2(H) * 64 nv eps).
#include <cmath>
#include <iostream>

#include <rbdlab/rbdlab.hpp>

int main(int argc, char** argv) {
  int failed = 0;
  for (int k = 1; k < argc; ++k) {
    const rbdlab::UrdfModel robot = rbdlab::load_urdf(argv[k]);
    const rbd::Model<double>& model = robot.model;
    if (model.nq != model.nv) {
      std::cerr << argv[k] << ": this example takes fixed-base robots (nq = nv)\n";
      return 2;
    }
    rbdlab::InverseDynamicsWorkspace id(model);
    rbdlab::MassMatrixWorkspace mm(model);
    rbdlab::ForwardDynamicsWorkspace fd(model);

    Eigen::VectorXd q(model.nq), qd(model.nv), qdd(model.nv);
    for (int j = 0; j < model.nq; ++j) q[j] = 0.5 * std::sin(1.3 * (j + 1));
    for (int j = 0; j < model.nv; ++j) qd[j] = 0.8 * std::cos(0.7 * (j + 1)), qdd[j] = 0.5 * std::sin(0.9 * (j + 1));

    const Eigen::VectorXd tau = rbdlab::inverse_dynamics(id, q, qd, qdd);
    const Eigen::MatrixXd H = rbdlab::mass_matrix(mm, q);
    const Eigen::VectorXd qdd2 = rbdlab::forward_dynamics(fd, q, qd, tau);

    const Eigen::VectorXd ev = H.selfadjointView<Eigen::Lower>().eigenvalues();
    const double bound = ev.maxCoeff() / ev.minCoeff() * 64 * model.nv * 2.220446049250313e-16;
    const double err = (qdd2 - qdd).norm() / qdd.norm();
    const bool ok = err <= bound;
    failed += !ok;
    std::cout << robot.robot_name << " (" << id.fastest() << ", " << mm.fastest() << ", " << fd.fastest()
              << "): tau = " << tau.transpose() << "\n  H(0,0) = " << H(0, 0) << ", |qdd - FD(ID(qdd))| / |qdd| = "
              << err << (ok ? " ok" : " FAILED") << " (bound " << bound << ")\n";
  }
  return failed ? 1 : 0;
}
