#pragma once
// The 50-digit Reference scalar (Boost.Multiprecision cpp_bin_float_50, or mpfr_float_50 when
// rbdlab was configured with -DRBDLAB_MPFR=ON; CMake target rbdlab::reference), and what is needed
// to run the API of rbdlab/api.hpp in it:
//
//   const rbd::Model<rbd::Reference> mr = model.cast<rbd::Reference>();   // see Model::cast
//   rbdlab::InverseDynamicsWorkspace id_r(mr);
//   auto tau_r = rbdlab::inverse_dynamics(id_r, rbdlab::to_reference_q(mr, q), rbdlab::to_reference(qd),
//                                         rbdlab::to_reference(qdd));
//   double d = rbdlab::digits_of_agreement(tau_r, other_tau_r);   // 40+ for two exact routes
//   double e = rbdlab::error_in_eps(tau_double, tau_r);           // the double result's round-off
#include <algorithm>
#include <cmath>
#include <limits>

#include "model/configuration.hpp"
#include "rbdlab/api.hpp"
#include "reference/reference_scalar.hpp"

namespace rbdlab {

using Reference = rbd::Reference;

// The same numbers in Reference (every double is exactly representable in it).
template <class Derived> auto to_reference(const Eigen::MatrixBase<Derived>& x) {
  return x.template cast<Reference>().eval();
}
// A configuration q in Reference, its quaternions renormalised in Reference's precision (a
// double quaternion is unit only to ~1e-16, which 50-digit arithmetic sees as a non-rotation;
// the gates do the same, verify/support/state.hpp). model_r: the model in Reference.
inline VecX<Reference> to_reference_q(const rbd::Model<Reference>& model_r, const VecX<double>& q) {
  VecX<Reference> qr = q.cast<Reference>();
  rbd::normalize_quaternions(model_r, qr);
  return qr;
}

// The gates' measures (verify/support/metrics.hpp), for users: the normwise relative difference
// ||a - b|| / ||b|| (b the truth; the absolute difference when b is exactly zero) as significant
// digits of agreement (capped at 50, 0 for a NaN or infinity), and a double result's error
// against its Reference value in units of double's eps = 2^-52.
template <class DA, class DB> Reference relative_difference(const Eigen::MatrixBase<DA>& a, const Eigen::MatrixBase<DB>& b) {
  const Reference nb = b.norm();
  const Reference d = (a - b).norm();
  return nb == 0 ? d : Reference(d / nb);
}
template <class DA, class DB> double digits_of_agreement(const Eigen::MatrixBase<DA>& a, const Eigen::MatrixBase<DB>& b) {
  const Reference rel = relative_difference(a, b);
  if (!boost::multiprecision::isfinite(rel)) return 0.0;
  if (rel == 0) return 50.0;
  return std::min(50.0, -static_cast<double>(log10(rel)));
}
template <class DA, class DB> double error_in_eps(const Eigen::MatrixBase<DA>& x, const Eigen::MatrixBase<DB>& x_ref) {
  const MatX<Reference> xr = x.template cast<Reference>();
  return static_cast<double>(relative_difference(xr, x_ref)) / std::numeric_limits<double>::epsilon();
}

}  // namespace rbdlab
