#pragma once
// One uniform view of every family for the gates and the sweep: the variants to run, how to
// evaluate one of them on a state, and what the independent oracle says. A new family adds
// one struct here and joins `AllFamilies`; a new variant only joins its family's list.
#include <string_view>
#include <tuple>

#include "bias/variants.hpp"
#include "inverse_dynamics/variants.hpp"
#include "mass_matrix/variants.hpp"
#include "verify/support/state.hpp"

namespace rbd::verify {

struct InverseDynamicsFamily {
  static constexpr std::string_view name = "inverse_dynamics";
  using Variants = InverseDynamicsVariants;
  template <class V, class S>
  static MatX<S> evaluate(const Model<S>& m, const StateOf<S>& x, Workspace<S>& ws) {
    VecX<S> tau(m.nv);
    V::template run<S>(m, x.q, x.qd, x.qdd, &x.f_ext, tau, ws);
    return tau;
  }
};

struct MassMatrixFamily {
  static constexpr std::string_view name = "mass_matrix";
  using Variants = MassMatrixVariants;
  template <class V, class S>
  static MatX<S> evaluate(const Model<S>& m, const StateOf<S>& x, Workspace<S>& ws) {
    MatX<S> H = MatX<S>::Zero(m.nv, m.nv);
    V::template run<S>(m, x.q, H, ws);
    return H;
  }
};

struct BiasFamily {
  static constexpr std::string_view name = "bias";
  using Variants = BiasVariants;
  template <class V, class S>
  static MatX<S> evaluate(const Model<S>& m, const StateOf<S>& x, Workspace<S>& ws) {
    VecX<S> C(m.nv);
    V::template run<S>(m, x.q, x.qd, &x.f_ext, C, ws);
    return C;
  }
};

using AllFamilies = std::tuple<InverseDynamicsFamily, MassMatrixFamily, BiasFamily>;

// Calls f.template operator()<T>() for each type T in a tuple.
template <class Tuple, class F> void for_each_type(F&& f) {
  [&]<class... T>(std::tuple<T...>*) { (f.template operator()<T>(), ...); }(static_cast<Tuple*>(nullptr));
}

}  // namespace rbd::verify
