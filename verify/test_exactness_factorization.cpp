// Gate 1 for the factorization family (one translation unit per family: Reference code
// compiles slowly): x = H^-1 tau from each variant, with H from the CRBA in Reference,
// against Gaussian elimination with partial pivoting on the oracle's H (verify/support/oracles.hpp).
#include "verify/support/exactness.hpp"

TEST_CASE("exactness: factorization variants solve H x = tau to 40 digits", "[exactness][factorization]") {
  rbd::verify::check_family_exactness<rbd::verify::FactorizationFamily>();
}
