// Gate 1 for the bias family (one translation unit per family: Reference code compiles slowly).
#include "verify/support/exactness.hpp"

TEST_CASE("exactness: bias variants agree with the Lagrangian oracle to 40 digits", "[exactness][bias]") {
  rbd::verify::check_family_exactness<rbd::verify::BiasFamily>();
}
