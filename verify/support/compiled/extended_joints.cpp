// The two extended-joint families in double and Reference, compiled once (verify/support/family_table.hpp).
#include "verify/support/family_table_make.hpp"

namespace rbd::verify {
RBDLAB_DEFINE_FAMILY_ENTRY(extended_inverse_dynamics_family, ExtendedInverseDynamicsFamily)
RBDLAB_DEFINE_FAMILY_ENTRY(extended_forward_dynamics_family, ExtendedForwardDynamicsFamily)
}  // namespace rbd::verify
