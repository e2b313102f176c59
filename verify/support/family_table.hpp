#pragma once
// Every family of verify/support/families.hpp, compiled once: its variants' evaluation in
// double and in the Reference scalar, and its oracle, behind plain function pointers.
//
// Why: instantiating a family in the 50-digit Reference scalar costs ~50 s of compile time,
// and the accuracy sweep, the exactness gates, `rbdlab eval` and `rbdlab verify` all need
// every family in Reference. Instantiated once per family (verify/support/compiled/, one
// translation unit each, built in parallel) and linked into all of them, the CI build stays
// within its budget. What is evaluated is unchanged: each entry calls
// Family::evaluate<V, S> and oracle_value<Family> exactly as the templates did.
//
// A new family: add its struct to families.hpp, its oracle to oracles.hpp, and one file
// compiled/<family>.cpp with RBDLAB_DEFINE_FAMILY_ENTRY (see compiled/inverse_dynamics.cpp);
// list it in all_families() (compiled/all_families.cpp).
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "reference/reference_scalar.hpp"
#include "verify/support/budgets.hpp"
#include "verify/support/state.hpp"

namespace rbd::verify {

template <class S> using EvaluateFn = MatX<S> (*)(const Model<S>&, const StateOf<S>&, Workspace<S>&);
template <class S> using ApplicableFn = bool (*)(const Model<S>&);

struct VariantEntry {
  std::string_view name;
  ApplicableFn<double> applicable_in_double;
  ApplicableFn<Reference> applicable_in_reference;
  EvaluateFn<double> in_double;
  EvaluateFn<Reference> in_reference;
  // The a-priori accuracy budget that fits how the variant computes (budgets.hpp).
  BudgetRule budget_rule;
  // The variant this one hands the model to ("" when it runs its own code on it): the DH
  // variants fall back to the general ones on models with no DH form. A record on such a
  // model measures the other variant, and says so (issue 13, "honest fallbacks").
  std::string_view (*fallback_to)(const Model<double>&);
};

struct FamilyEntry {
  std::string_view name;
  std::vector<VariantEntry> variants;
  // What the independent oracle (reference/) says the family's value is, in Reference.
  MatX<Reference> (*oracle)(const Model<Reference>&, const StateOf<Reference>&);
};

// The variant of `family` called `name`; a test asking for a variant that is not there is a
// defect of the test, reported as such.
inline const VariantEntry& variant_named(const FamilyEntry& family, std::string_view name) {
  for (const VariantEntry& v : family.variants)
    if (v.name == name) return v;
  throw std::logic_error(std::string(family.name) + " has no variant " + std::string(name));
}

// In the order of families.hpp's AllFamilies.
const std::vector<const FamilyEntry*>& all_families();

const FamilyEntry& inverse_dynamics_family();
const FamilyEntry& mass_matrix_family();
const FamilyEntry& bias_family();
const FamilyEntry& factorization_family();
const FamilyEntry& forward_dynamics_family();
const FamilyEntry& hybrid_dynamics_family();
const FamilyEntry& geared_dynamics_family();
const FamilyEntry& closed_loop_dynamics_family();
const FamilyEntry& contact_dynamics_family();
const FamilyEntry& impact_dynamics_family();
const FamilyEntry& friction_dynamics_family();
const FamilyEntry& loop_contact_dynamics_family();
const FamilyEntry& extended_inverse_dynamics_family();
const FamilyEntry& extended_forward_dynamics_family();

}  // namespace rbd::verify
