#pragma once
// Section 10.4 with the algorithms built in: for one model and one family (inverse dynamics,
// mass matrix, forward dynamics), trace every variant that applies, simplify each list, and keep
// the shortest. The variants differ in what the model's zeros can remove (e.g. rnea_lwp's 3D
// vectors against rnea_spatial's 6D ones), so the best source differs from model to model;
// a variant whose arithmetic branches on the state (a pivot choice, an |x| test) cannot become
// straight-line code and is reported as untraceable rather than chosen.
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "factorization/variants.hpp"
#include "forward_dynamics/variants.hpp"
#include "inverse_dynamics/variants.hpp"
#include "mass_matrix/variants.hpp"
#include "symbolic/simplify.hpp"
#include "symbolic/trace_dynamics.hpp"

namespace rbd::symbolic {

enum class Algorithm { InverseDynamics, MassMatrix, ForwardDynamics, FactorSolve };

inline const char* algorithm_name(Algorithm a) {
  switch (a) {
    case Algorithm::InverseDynamics: return "inverse_dynamics";
    case Algorithm::MassMatrix: return "mass_matrix";
    case Algorithm::ForwardDynamics: return "forward_dynamics";
    case Algorithm::FactorSolve: return "factorization";
  }
  return "?";
}

// One variant's list on one model: raw and simplified, or why it could not be traced.
template <class V> struct TracedVariant {
  std::string variant;
  bool traced = false;
  std::string why_not;  // when !traced
  Tape<V> raw, simplified;
  SimplifyStats stats;
};

// The sample state: q, qd and the third input the algorithm takes (qdd for inverse dynamics, tau for
// forward dynamics and the right-hand side b of factor + solve; unused by the mass matrix). Factor +
// solve takes H(q) from the CRBA at this q.
template <class V> struct SampleState {
  VecX<V> q, qd, third;
  MatX<V> H = {};  // factor + solve: H(q); empty = computed here by the CRBA
};

template <class V, class Variant, class Trace>
void trace_one(const Model<double>& model_d, const Rules& rules, const Trace& trace, std::vector<TracedVariant<V>>& out) {
  if (!Variant::template applicable<double>(model_d)) return;
  TracedVariant<V> r;
  r.variant = std::string(Variant::name);
  try {
    r.raw = trace(std::type_identity<Variant>{});
    r.simplified = simplify(r.raw, rules, &r.stats);
    r.traced = true;
  } catch (const std::logic_error& e) {
    r.why_not = e.what();
  }
  out.push_back(std::move(r));
}

// Traces each applicable variant in the tuple Variants with trace(std::type_identity<Variant>{}).
// (Tags and a function template rather than template lambdas in a fold: Clang 14 crashes on those.)
template <class V, class Variants, class Trace>
void trace_all(const Model<double>& model_d, const Rules& rules, const Trace& trace, std::vector<TracedVariant<V>>& out) {
  std::apply([&](auto... tag) { (trace_one<V, decltype(tag)>(model_d, rules, trace, out), ...); }, Variants{});
}

// Every variant of the family on this model. model_d decides applicability; model is the same
// model in V.
template <class V>
std::vector<TracedVariant<V>> trace_family(Algorithm algorithm, const Model<double>& model_d, const Model<V>& model,
                                           const SampleState<V>& x, const Rules& rules = {}) {
  std::vector<TracedVariant<V>> out;
  switch (algorithm) {
    case Algorithm::InverseDynamics:
      trace_all<V, InverseDynamicsVariants>(model_d, rules, [&](auto tag) {
        return trace_inverse_dynamics<typename decltype(tag)::type>(model, x.q, x.qd, x.third); }, out);
      break;
    case Algorithm::MassMatrix:
      trace_all<V, MassMatrixVariants>(model_d, rules, [&](auto tag) {
        return trace_mass_matrix<typename decltype(tag)::type>(model, x.q); }, out);
      break;
    case Algorithm::ForwardDynamics:
      trace_all<V, ForwardDynamicsVariants>(model_d, rules, [&](auto tag) {
        return trace_forward_dynamics<typename decltype(tag)::type>(model, x.q, x.qd, x.third); }, out);
      break;
    case Algorithm::FactorSolve: {
      MatX<V> H = x.H;
      if (H.size() == 0) {
        Workspace<V> ws(model);
        H = MatX<V>::Zero(model.nv, model.nv);
        Crba::run<V>(model, x.q, H, ws);
      }
      trace_all<V, FactorizationVariants>(model_d, rules, [&](auto tag) {
        return trace_factor_solve<typename decltype(tag)::type>(model_d, model, H, x.third); }, out);
      break;
    }
  }
  return out;
}

// The traced variant with the fewest operations after simplification, counting m + a + sqrt + sin +
// cos alike; the first in the family's list on a tie, so the choice is deterministic.
template <class V> const TracedVariant<V>& shortest(const std::vector<TracedVariant<V>>& all) {
  const TracedVariant<V>* best = nullptr;
  for (const auto& r : all)
    if (r.traced && (!best || r.stats.after.all() < best->stats.after.all())) best = &r;
  if (!best) throw std::runtime_error("symbolic::shortest: no variant of the family could be traced on this model");
  return *best;
}

}  // namespace rbd::symbolic
