// Gate 1 for the mass_matrix family (one translation unit per family: Reference code compiles slowly).
#include "verify/support/exactness.hpp"

TEST_CASE("exactness: mass_matrix variants agree with the Lagrangian oracle to 40 digits", "[exactness][mass_matrix]") {
  rbd::verify::check_family_exactness<rbd::verify::MassMatrixFamily>();
}
