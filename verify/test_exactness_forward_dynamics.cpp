// Gate 1 for the forward_dynamics family (one translation unit per family: Reference code
// compiles slowly): qdd from each variant against the oracle's solve of H qdd = tau - C
// (oracle::mass_matrix, oracle::inverse_dynamics with qdd = 0, Gaussian elimination with
// partial pivoting; verify/support/oracles.hpp).
#include "verify/support/exactness.hpp"

TEST_CASE("exactness: forward_dynamics variants agree with the Lagrangian oracle to 40 digits",
          "[exactness][forward_dynamics]") {
  rbd::verify::check_family_exactness<rbd::verify::ForwardDynamicsFamily>();
}
