// The loop_contact_dynamics family in double and Reference, compiled once (verify/support/family_table.hpp).
#include "verify/support/family_table_make.hpp"

namespace rbd::verify {
RBDLAB_DEFINE_FAMILY_ENTRY(loop_contact_dynamics_family, LoopContactDynamicsFamily)
}  // namespace rbd::verify
