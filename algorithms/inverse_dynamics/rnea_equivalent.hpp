#pragma once
// Table 5.1's recursive Newton-Euler on the dynamically equivalent inertias of section 9.7
// (model/dynamic_equivalence.hpp): the same passes as rnea_spatial, but each I_i is the one
// left after Table 9.7's inertias have been moved towards the base, multiplied with its zero
// pattern skipped. Section 9.7 expects this to cut the algorithm's cost by about 15% when
// most joints are revolute; reports/inverse_dynamics.md gives the counts measured here.
//
// The equivalent inertias are built once per model in the workspace (Workspace::equivalent),
// as a simulator would when it loads the model; the call itself takes the original model and
// returns the original model's tau, which is how the gates test it.
#include <string_view>

#include "inverse_dynamics/rnea_spatial.hpp"

namespace rbd {

struct RneaEquivalent {
  static constexpr std::string_view name = "rnea_equivalent";
  static constexpr std::string_view summary =
      "Spatial recursive Newton-Euler on dynamically equivalent inertias with their zeros skipped "
      "(Featherstone Table 5.1 with section 9.7)";
  static constexpr std::string_view complexity = "O(n)";
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd,
                  const ExternalForces<S>* f_ext, VecX<S>& tau, Workspace<S>& ws) {
    detail::rnea_spatial_passes(model, q, qd, qdd, f_ext, tau, ws,
                                [&](int i) -> const PatternedInertia<S>& { return ws.equivalent.body[i]; });
  }
};

}  // namespace rbd
