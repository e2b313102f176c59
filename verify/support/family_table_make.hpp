#pragma once
// Builds a FamilyEntry (verify/support/family_table.hpp) from a family's templates. Included
// only by the one translation unit per family in verify/support/compiled/.
#include <tuple>

#include "verify/support/family_table.hpp"
#include "verify/support/oracles.hpp"

namespace rbd::verify {

// The family's budget rule for V (families.hpp), the recursion rule when it names none.
template <class Family, class V> constexpr BudgetRule budget_rule_of() {
  if constexpr (requires { Family::template budget_rule<V>; }) return Family::template budget_rule<V>;
  else return BudgetRule::recursion;
}

template <class Family, class V> VariantEntry make_variant_entry() {
  return {V::name,
          [](const Model<double>& m) { return V::template applicable<double>(m); },
          [](const Model<Reference>& m) { return V::template applicable<Reference>(m); },
          [](const Model<double>& m, const StateOf<double>& x, Workspace<double>& ws) {
            return Family::template evaluate<V, double>(m, x, ws);
          },
          [](const Model<Reference>& m, const StateOf<Reference>& x, Workspace<Reference>& ws) {
            return Family::template evaluate<V, Reference>(m, x, ws);
          },
          budget_rule_of<Family, V>(),
          [](const Model<double>& m) -> std::string_view {
            if constexpr (requires { V::template fallback_to<double>(m); }) return V::template fallback_to<double>(m);
            else return {};
          }};
}

template <class Family> FamilyEntry make_family_entry() {
  FamilyEntry e{Family::name, {}, &oracle_value<Family>};
  for_each_type<typename Family::Variants>([&]<class V>() { e.variants.push_back(make_variant_entry<Family, V>()); });
  return e;
}

}  // namespace rbd::verify

// One line per family in compiled/<family>.cpp: the entry, built on first use.
// Used inside namespace rbd::verify.
#define RBDLAB_DEFINE_FAMILY_ENTRY(accessor, Family)              \
  const FamilyEntry& accessor() {                                 \
    static const FamilyEntry entry = make_family_entry<Family>(); \
    return entry;                                                 \
  }
