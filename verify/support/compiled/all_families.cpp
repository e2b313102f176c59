// The compiled families in the order of families.hpp's AllFamilies.
#include "verify/support/family_table.hpp"

namespace rbd::verify {

const std::vector<const FamilyEntry*>& all_families() {
  static const std::vector<const FamilyEntry*> all = {&inverse_dynamics_family(), &mass_matrix_family(),
                                                      &bias_family(), &factorization_family(),
                                                      &forward_dynamics_family(), &hybrid_dynamics_family(),
                                                      &geared_dynamics_family(), &closed_loop_dynamics_family(),
                                                      &contact_dynamics_family(), &impact_dynamics_family(),
                                                      &friction_dynamics_family(), &loop_contact_dynamics_family(),
                                                      &extended_inverse_dynamics_family(),
                                                      &extended_forward_dynamics_family()};
  return all;
}

}  // namespace rbd::verify
