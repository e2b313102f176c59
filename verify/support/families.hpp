#pragma once
// One uniform view of every family for the gates and the sweep: the variants to run, how to
// evaluate one of them on a state, and what the independent oracle says. A family's variants
// are held to the recursion budget unless it says otherwise (budget_rule<V>, budgets.hpp).
// A new family adds one struct here and joins `AllFamilies`; a new variant only joins its
// family's list.
#include <string_view>
#include <tuple>
#include <type_traits>

#include "bias/variants.hpp"
#include "factorization/variants.hpp"
#include "forward_dynamics/variants.hpp"
#include "inverse_dynamics/variants.hpp"
#include "mass_matrix/variants.hpp"
#include "verify/support/budgets.hpp"
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

// Factor H(q) (from the CRBA, in the same scalar) and solve H x = tau. The measured error in
// double is that of the whole pipeline (H's own round-off included), amplified by cond(H).
struct FactorizationFamily {
  static constexpr std::string_view name = "factorization";
  using Variants = FactorizationVariants;
  template <class V, class S>
  static MatX<S> evaluate(const Model<S>& m, const StateOf<S>& x, Workspace<S>& ws) {
    MatX<S> H = MatX<S>::Zero(m.nv, m.nv);
    Crba::run<S>(m, x.q, H, ws);
    FactorizationWorkspace<S> fws(m);  // the harness may allocate; run() does not
    VecX<S> sol(m.nv);
    V::template run<S>(m, H, x.tau, sol, fws);
    return sol;
  }
  template <class V> static constexpr BudgetRule budget_rule = BudgetRule::solve_with_H;
};

// qdd = FD(q, qd, tau, f_ext). The variants need a ForwardDynamicsWorkspace (a Workspace plus
// the family's own storage), made here per call.
struct ForwardDynamicsFamily {
  static constexpr std::string_view name = "forward_dynamics";
  using Variants = ForwardDynamicsVariants;
  template <class V, class S>
  static MatX<S> evaluate(const Model<S>& m, const StateOf<S>& x, Workspace<S>&) {
    ForwardDynamicsWorkspace<S> fws(m);
    VecX<S> qdd(m.nv);
    V::template run<S>(m, x.q, x.qd, x.tau, &x.f_ext, qdd, fws);
    return qdd;
  }
  // Which a-priori bound fits how each variant computes (verify/support/budgets.hpp): the
  // articulated-body variants solve only with the joints' D_i, the CRBA routes with H.
  template <class V> static consteval BudgetRule rule_for() {
    if constexpr (std::is_same_v<V, CrbaLtdl> || std::is_same_v<V, CrbaLltDense>) {
      return BudgetRule::solve_with_H;
    } else {
      static_assert(std::is_same_v<V, Aba> || std::is_same_v<V, AbaDh> || std::is_same_v<V, AbaImplicit> ||
                        std::is_same_v<V, AbaFloating>,
                    "a new forward-dynamics variant: say here which budget rule of budgets.hpp fits it");
      return BudgetRule::articulated_solves;
    }
  }
  template <class V> static constexpr BudgetRule budget_rule = rule_for<V>();
};

using AllFamilies = std::tuple<InverseDynamicsFamily, MassMatrixFamily, BiasFamily, FactorizationFamily,
                               ForwardDynamicsFamily>;

// Calls f.template operator()<T>() for each type T in a tuple.
template <class Tuple, class F> void for_each_type(F&& f) {
  [&]<class... T>(std::tuple<T...>*) { (f.template operator()<T>(), ...); }(static_cast<Tuple*>(nullptr));
}

}  // namespace rbd::verify
