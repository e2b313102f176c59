// The geared_dynamics family in double and Reference, compiled once (verify/support/family_table.hpp).
#include "verify/support/family_table_make.hpp"

namespace rbd::verify {
RBDLAB_DEFINE_FAMILY_ENTRY(geared_dynamics_family, GearedDynamicsFamily)
}  // namespace rbd::verify
