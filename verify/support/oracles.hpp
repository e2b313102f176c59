#pragma once
// What the independent oracle (reference/) says each family's value is.
#include "reference/lagrange_oracle.hpp"
#include "verify/support/families.hpp"

namespace rbd::verify {

template <class Family> MatX<Reference> oracle_value(const Model<Reference>& m, const StateOf<Reference>& x);

template <> inline MatX<Reference> oracle_value<InverseDynamicsFamily>(const Model<Reference>& m,
                                                                      const StateOf<Reference>& x) {
  return oracle::inverse_dynamics(m, x.q, x.qd, x.qdd, &x.f_ext);
}
template <> inline MatX<Reference> oracle_value<MassMatrixFamily>(const Model<Reference>& m,
                                                                 const StateOf<Reference>& x) {
  return oracle::mass_matrix(m, x.q);
}
template <> inline MatX<Reference> oracle_value<BiasFamily>(const Model<Reference>& m,
                                                           const StateOf<Reference>& x) {
  const VecX<Reference> zero = VecX<Reference>::Zero(m.nv);
  return oracle::inverse_dynamics(m, x.q, x.qd, zero, &x.f_ext);
}

}  // namespace rbd::verify
