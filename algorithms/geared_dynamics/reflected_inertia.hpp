#pragma once
// Example 9.5's quick rotor model, Featherstone section 9.6 (Eq. 9.28 for the ABA): a motor's rotor, geared
// to joint i with ratio rho, is not a body of its own; its mass rides on the body that carries
// it, and its spin adds rho^2 I_rot to the joint's own inertia, nothing else. So the equation
// of motion is the tree's with a diagonal joint-space inertia added,
//     (H + diag(armature)) qdd + C = tau,        armature_k = rho_k^2 I_rot,k  (0 where no rotor)
// (MuJoCo calls it `armature`). The section gives it two forms, one per family of algorithms:
//   reflected_inertia_crba   H_ii += I_rot (Example 9.5): the CRBA's H (Table 6.2) with the diagonal added,
//                            C from the RNEA (Table 5.1), then Cholesky;
//   reflected_inertia_aba    D_i += I_rot: the ABA (Table 7.1) with the diagonal added to D_i
//                            (Aba::run_with_armature, forward_dynamics/aba.hpp), which costs
//                            exactly nv additions more than the ABA.
// The book states both for 1-DoF joints; here every velocity variable may carry an entry, as
// MuJoCo's armature does on multi-DoF joints (the same algebra; an extension of the book's).
// verify/test_gears.cpp checks the two against each other and against the Lagrangian oracle's
// H and C with the diagonal added, in Reference, and the ABA form's operation count.
// How good the model is (against the exact geared model, rotors as bodies) is Example 9.5's
// study (verify/support/reflected_inertia.hpp, the geared_dynamics page).
//
// Refused, naming the variable: an armature vector of the wrong size, a non-finite or negative
// entry (a negative one can make the mass matrix indefinite; no rotor has one).
#include <Eigen/Cholesky>
#include <cmath>
#include <stdexcept>
#include <string>

#include "forward_dynamics/aba.hpp"
#include "inverse_dynamics/rnea_spatial.hpp"
#include "mass_matrix/crba.hpp"

namespace rbd {

template <class S> struct ReflectedInertiaWorkspace : ForwardDynamicsWorkspace<S> {
  MatX<S> Ha;  // H + diag(armature), factored in place
  VecX<S> zero, C;
  ReflectedInertiaWorkspace() = default;
  explicit ReflectedInertiaWorkspace(const Model<S>& m)
      : ForwardDynamicsWorkspace<S>(m), Ha(MatX<S>::Zero(m.nv, m.nv)), zero(VecX<S>::Zero(m.nv)), C(VecX<S>::Zero(m.nv)) {}
};

namespace reflected_detail {
template <class S> void check_armature(const Model<S>& m, const VecX<S>& armature, const char* who) {
  if (armature.size() != m.nv)
    throw std::invalid_argument(std::string(who) + ": armature must have nv = " + std::to_string(m.nv) + " entries, has " +
                                std::to_string(armature.size()));
  for (int k = 0; k < m.nv; ++k) {
    using std::isfinite;
    if (!(armature[k] >= S(0)) || !isfinite(armature[k]))
      throw std::invalid_argument(std::string(who) + ": armature[" + std::to_string(k) +
                                  "] is negative or not finite (a reflected rotor inertia is >= 0)");
  }
}
}  // namespace reflected_detail

template <class S>
void reflected_inertia_aba(const Model<S>& m, const VecX<S>& armature, const VecX<S>& q, const VecX<S>& qd,
                           const VecX<S>& tau, const ExternalForces<S>* f_ext, VecX<S>& qdd,
                           ReflectedInertiaWorkspace<S>& ws) {
  reflected_detail::check_armature(m, armature, "reflected_inertia_aba");
  Aba::run_with_armature<S>(m, armature, q, qd, tau, f_ext, qdd, ws);                 // D_i += I_rot (Eq. 9.28)
}

template <class S>
void reflected_inertia_crba(const Model<S>& m, const VecX<S>& armature, const VecX<S>& q, const VecX<S>& qd,
                            const VecX<S>& tau, const ExternalForces<S>* f_ext, VecX<S>& qdd,
                            ReflectedInertiaWorkspace<S>& ws) {
  reflected_detail::check_armature(m, armature, "reflected_inertia_crba");
  ws.Ha.setZero();  // the CRBA writes only H's branch-induced pattern; the last call's factor filled the rest
  Crba::run<S>(m, q, ws.Ha, ws);                                                       // H (Table 6.2)
  for (int k = 0; k < m.nv; ++k) ws.Ha(k, k) += armature[k];                          // H_ii += I_rot (Eq. 9.28)
  RneaSpatial::run<S>(m, q, qd, ws.zero, f_ext, ws.C, ws);                             // C (Table 5.1)
  qdd = tau - ws.C;
  Eigen::Ref<MatX<S>> Ha = ws.Ha;
  Eigen::LLT<Eigen::Ref<MatX<S>>> llt(Ha);                                             // in place: no allocation
  if (llt.info() != Eigen::Success)
    throw std::runtime_error("reflected_inertia_crba: H + diag(armature) is not positive definite (a singular mass matrix?)");
  llt.solveInPlace(qdd);
}

}  // namespace rbd
