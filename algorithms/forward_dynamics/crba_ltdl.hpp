#pragma once
// Forward dynamics by the inertia-matrix route of Featherstone ch. 6: H by the CRBA
// (Table 6.2), C by the RNEA with qdd = 0 (section 6.1), then H qdd = tau - C solved by the
// branch-induced sparse L^T D L factorization and back-substitution (Tables 6.3, 6.5).
// Cost O(n d^2) (CRBA O(n d), factorization O(n d^2), solve O(n d)); O(n^3) on a chain.
#include <string_view>

#include "bias/variants.hpp"
#include "factorization/ltdl_sparse.hpp"
#include "forward_dynamics/workspace.hpp"
#include "mass_matrix/crba.hpp"

namespace rbd {

struct CrbaLtdl {
  static constexpr std::string_view name = "crba_ltdl";
  static constexpr std::string_view summary =
      "CRBA + RNEA bias + sparse L^T D L solve of H qdd = tau - C (Featherstone ch. 6, Tables 6.2, 6.3, 6.5)";
  static constexpr std::string_view complexity = "O(n d^2)";
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& model, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& tau,
                  const ExternalForces<S>* f_ext, VecX<S>& qdd, ForwardDynamicsWorkspace<S>& ws) {
    Crba::run<S>(model, q, ws.H, ws);                              // H (pattern entries only)
    BiasFrom<RneaSpatial>::run<S>(model, q, qd, f_ext, ws.C, ws);  // C = ID(q, qd, 0, f_ext)
    qdd = tau - ws.C;
    pack<S>(ws.fact.pattern, ws.H, ws.fact.rows);                  // H's pattern, packed rows
    ltdl_factor<S>(ws.fact.pattern, ws.fact.rows);                 // H = L^T D L, in situ
    ltdl_solve<S>(ws.fact.pattern, ws.fact.rows, qdd);             // qdd = L^-1 D^-1 L^-T (tau - C)
  }
};

}  // namespace rbd
