// Gate 1, one test case per family: every variant in Reference against the oracle
// (verify/support/exactness.hpp). The families come compiled once
// (verify/support/family_table.hpp), so this file itself instantiates no Reference code.
//  - factorization: x = H^-1 tau from each variant, with H from the CRBA in Reference, against
//    Gaussian elimination with partial pivoting on the oracle's H (verify/support/oracles.hpp);
//  - forward_dynamics: qdd against the oracle's solve of H qdd = tau - C (oracle::mass_matrix,
//    oracle::inverse_dynamics with qdd = 0, the same elimination);
//  - hybrid_dynamics: the unknowns of Eq. 9.2 (qdd at the state's forward joints, tau at the
//    others) against the same elimination on Eq. 9.1 rearranged (verify/support/oracles.hpp);
//  - geared_dynamics: ydd at the state's gear pairs against the same elimination on Eq. 9.26
//    with the oracle's H and C at q = gamma(y) (verify/support/oracles.hpp);
//  - closed_loop_dynamics: the tree's qdd at the state's random loop joints against the
//    Lagrangian in independent coordinates (reference/loop_oracle.hpp);
//  - contact_dynamics: qdd at the state's random point contacts against the oracle's LCP solved by
//    enumerating every active set (reference/contact_oracle.hpp);
//  - impact_dynamics: qd^+ after an impact at the same contacts, each with its drawn restitution,
//    against the oracle's impact LCP solved by the same enumeration (reference/impact_oracle.hpp);
//  - friction_dynamics: qdd at the same contacts with their drawn Coulomb friction (sticking or
//    sliding) against the oracle's enumeration of contact modes (reference/friction_oracle.hpp);
//  - loop_contact_dynamics: qdd at the state's random loops and the contacts they leave
//    independent, against the loop oracle's independent coordinates with the contact oracle's
//    rows and enumeration (reference/loop_contact_oracle.hpp).
#include "verify/support/exactness.hpp"
#include "verify/support/families.hpp"

namespace test_exactness {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

using namespace rbd::verify;

TEST_CASE("exactness: inverse_dynamics variants agree with the Lagrangian oracle to 40 digits",
          "[exactness][inverse_dynamics]") {
  check_family_exactness(inverse_dynamics_family());
}

TEST_CASE("exactness: mass_matrix variants agree with the Lagrangian oracle to 40 digits", "[exactness][mass_matrix]") {
  check_family_exactness(mass_matrix_family());
}

TEST_CASE("exactness: bias variants agree with the Lagrangian oracle to 40 digits", "[exactness][bias]") {
  check_family_exactness(bias_family());
}

TEST_CASE("exactness: factorization variants solve H x = tau to 40 digits", "[exactness][factorization]") {
  check_family_exactness(factorization_family());
}

TEST_CASE("exactness: forward_dynamics variants agree with the Lagrangian oracle to 40 digits",
          "[exactness][forward_dynamics]") {
  check_family_exactness(forward_dynamics_family());
}

TEST_CASE("exactness: hybrid_dynamics variants agree with the Lagrangian oracle to 40 digits",
          "[exactness][hybrid_dynamics]") {
  check_family_exactness(hybrid_dynamics_family());
}

TEST_CASE("exactness: geared_dynamics variants agree with the Lagrangian oracle to 40 digits",
          "[exactness][geared_dynamics]") {
  check_family_exactness(geared_dynamics_family());
}

TEST_CASE("exactness: closed_loop_dynamics variants agree with the independent-coordinates oracle to 40 digits",
          "[exactness][closed_loop_dynamics]") {
  check_family_exactness(closed_loop_dynamics_family());
}

TEST_CASE("exactness: contact_dynamics variants agree with the enumerating LCP oracle to 40 digits",
          "[exactness][contact_dynamics]") {
  check_family_exactness(contact_dynamics_family());
}

TEST_CASE("exactness: impact_dynamics variants agree with the enumerating impact oracle to 40 digits",
          "[exactness][impact_dynamics]") {
  check_family_exactness(impact_dynamics_family());
}

// The table is built from families.hpp's variant lists; a family missing from all_families()
// would silently drop out of the accuracy sweep and `rbdlab verify`.
TEST_CASE("family table: all_families() lists every family of AllFamilies, in order, with every variant", "[exactness]") {
  std::vector<std::string_view> expected;
  for_each_type<AllFamilies>([&]<class F>() {
    expected.push_back(F::name);
    for_each_type<typename F::Variants>([&]<class V>() { expected.push_back(V::name); });
  });
  std::vector<std::string_view> listed;
  for (const FamilyEntry* f : all_families()) {
    listed.push_back(f->name);
    for (const VariantEntry& v : f->variants) listed.push_back(v.name);
  }
  CHECK(listed == expected);
}

TEST_CASE("exactness: friction_dynamics variants agree with the mode-enumerating friction oracle to 40 digits",
          "[exactness][friction_dynamics]") {
  check_family_exactness(friction_dynamics_family());
}

TEST_CASE("exactness: loop_contact_dynamics variants agree with the composed loop and contact oracles to 40 digits",
          "[exactness][loop_contact_dynamics]") {
  check_family_exactness(loop_contact_dynamics_family());
}

TEST_CASE("exactness: extended_inverse_dynamics variants agree with the Lagrangian oracle to 40 digits",
          "[exactness][extended_joints]") {
  check_family_exactness(extended_inverse_dynamics_family());
}

TEST_CASE("exactness: extended_forward_dynamics variants agree with the Lagrangian oracle to 40 digits",
          "[exactness][extended_joints]") {
  check_family_exactness(extended_forward_dynamics_family());
}

}  // namespace test_exactness
