// Gate 1 for the inverse_dynamics family (one translation unit per family: Reference code compiles slowly).
#include "verify/support/exactness.hpp"

TEST_CASE("exactness: inverse_dynamics variants agree with the Lagrangian oracle to 40 digits", "[exactness][inverse_dynamics]") {
  rbd::verify::check_family_exactness<rbd::verify::InverseDynamicsFamily>();
}
