#pragma once
// The bias family: C(q, qd, f_ext) = ID(q, qd, 0, f_ext), the velocity-product, gravity and
// external-force terms of H qdd + C = tau (Eq. 6.1, computed as section 6.1 suggests, by
// inverse dynamics with zero acceleration). Every inverse-dynamics variant yields one.
#include <string>
#include <tuple>

#include "inverse_dynamics/variants.hpp"

namespace rbd {

template <class ID> struct BiasFrom {
  static constexpr std::string_view name = ID::name;
  static constexpr std::string_view summary = "inverse dynamics with qdd = 0";
  static constexpr std::string_view complexity = ID::complexity;
  template <class S> static bool applicable(const Model<S>& m) { return ID::template applicable<S>(m); }

  // ws.tmp_v2 holds the zero acceleration, so the call allocates nothing.
  template <class S>
  static void run(const Model<S>& model, const VecX<S>& q, const VecX<S>& qd,
                  const ExternalForces<S>* f_ext, VecX<S>& C, Workspace<S>& ws) {
    ws.tmp_v2.setZero();
    ID::template run<S>(model, q, qd, ws.tmp_v2, f_ext, C, ws);
  }
};

// BiasFrom<RneaFloating> is Table 9.5's "Calculate C and p_0^c" line for line.
using BiasVariants = std::tuple<BiasFrom<RneaSpatial>, BiasFrom<RneaLwp>, BiasFrom<RneaFloating>>;

}  // namespace rbd
