#pragma once
// Traces one variant of the inverse-dynamics, mass-matrix or forward-dynamics family on one
// model (section 10.4's "symbolic executer" with the algorithm built in, the variation the book
// describes in its closing paragraph): the model's parameters become constants, the state
// becomes the inputs, and the result is the raw assignment list, ready for simplify().
//
// The model is cast to Traced<V> before recording starts, so the cast's own arithmetic
// (re-orthonormalising rotations, Model::cast) is done in V and enters the list as constants.
// The sample state fixes nothing in the list (a branch on it throws); it only gives each
// recorded node the value it takes there, for checking.
#include <string>
#include <utility>
#include <vector>

#include "factorization/workspace.hpp"
#include "forward_dynamics/workspace.hpp"
#include "model/model.hpp"
#include "model/workspace.hpp"
#include "symbolic/traced_scalar.hpp"

namespace rbd::symbolic {

namespace detail {
template <class V> VecX<Traced<V>> inputs(Tape<V>& tape, const char* name, const VecX<V>& sample) {
  VecX<Traced<V>> x(sample.size());
  for (Eigen::Index i = 0; i < sample.size(); ++i)
    x[i] = Traced<V>::input(tape, std::string(name) + "[" + std::to_string(i) + "]", sample[i]);
  return x;
}
template <class V, class M> void outputs(Tape<V>& tape, const char* name, const M& y, bool matrix) {
  for (Eigen::Index i = 0; i < y.rows(); ++i)
    for (Eigen::Index j = 0; j < y.cols(); ++j) {
      tape.outputs.push_back(y(i, j).node(tape));
      tape.output_names.push_back(std::string(name) + "[" + std::to_string(i) + "]" +
                                  (matrix ? "[" + std::to_string(j) + "]" : ""));
    }
}
}  // namespace detail

// tau = ID(q, qd, qdd), no external forces: inputs q (nq), qd, qdd (nv each); outputs tau (nv).
template <class Variant, class V>
Tape<V> trace_inverse_dynamics(const Model<V>& model, const VecX<V>& q, const VecX<V>& qd, const VecX<V>& qdd) {
  using T = Traced<V>;
  const Model<T> m = model.template cast<T>();
  Workspace<T> ws(m);
  VecX<T> tau = VecX<T>::Zero(m.nv);
  Tape<V> tape;
  {
    Recording<V> on(tape);
    const VecX<T> tq = detail::inputs(tape, "q", q), tqd = detail::inputs(tape, "qd", qd),
                  tqdd = detail::inputs(tape, "qdd", qdd);
    Variant::template run<T>(m, tq, tqd, tqdd, static_cast<const ExternalForces<T>*>(nullptr), tau, ws);
  }
  detail::outputs(tape, "tau", tau, false);
  return tape;
}

// H(q): inputs q (nq); outputs the whole nv x nv matrix, row by row.
template <class Variant, class V> Tape<V> trace_mass_matrix(const Model<V>& model, const VecX<V>& q) {
  using T = Traced<V>;
  const Model<T> m = model.template cast<T>();
  Workspace<T> ws(m);
  MatX<T> H = MatX<T>::Zero(m.nv, m.nv);
  Tape<V> tape;
  {
    Recording<V> on(tape);
    const VecX<T> tq = detail::inputs(tape, "q", q);
    Variant::template run<T>(m, tq, H, ws);
  }
  detail::outputs(tape, "H", H, true);
  return tape;
}

// qdd = FD(q, qd, tau), no external forces: inputs q, qd, tau; outputs qdd.
template <class Variant, class V>
Tape<V> trace_forward_dynamics(const Model<V>& model, const VecX<V>& q, const VecX<V>& qd, const VecX<V>& tau) {
  using T = Traced<V>;
  const Model<T> m = model.template cast<T>();
  ForwardDynamicsWorkspace<T> ws(m);
  VecX<T> qdd = VecX<T>::Zero(m.nv);
  Tape<V> tape;
  {
    Recording<V> on(tape);
    const VecX<T> tq = detail::inputs(tape, "q", q), tqd = detail::inputs(tape, "qd", qd),
                  ttau = detail::inputs(tape, "tau", tau);
    Variant::template run<T>(m, tq, tqd, ttau, static_cast<const ExternalForces<T>*>(nullptr), qdd, ws);
  }
  detail::outputs(tape, "qdd", qdd, false);
  return tape;
}

// x = H^-1 b for this model's H (Table 6.3-6.5's factor and solve): the inputs are H's entries in
// the model's branch-induced pattern (row k: H_kk, H_k,lambda(k), ..., the root's column, Table 6.4's
// expanded parent array), then b; H's other entries are zero for every q on this tree (section 6.5),
// so they enter as the constant 0, which is what lets the simplifier specialise a dense factorization
// to the tree. H is symmetric: H(j, i) is the same traced value as H(i, j). Outputs x.
inline std::vector<std::pair<int, int>> factor_solve_pattern(const Model<double>& model) {
  const TreePattern p(expanded_parent(model));
  std::vector<std::pair<int, int>> entries;
  for (int k = 0; k < p.size(); ++k)
    for (int place = p.row_start[k]; place < p.row_start[k + 1]; ++place) entries.emplace_back(k, p.col[place]);
  return entries;
}

template <class Variant, class V>
Tape<V> trace_factor_solve(const Model<double>& model_d, const Model<V>& model, const MatX<V>& H_sample,
                           const VecX<V>& b_sample) {
  using T = Traced<V>;
  const Model<T> m = model.template cast<T>();
  FactorizationWorkspace<T> ws(m);
  MatX<T> H = MatX<T>::Zero(m.nv, m.nv);
  VecX<T> x = VecX<T>::Zero(m.nv);
  Tape<V> tape;
  {
    Recording<V> on(tape);
    for (const auto& [i, j] : factor_solve_pattern(model_d)) {
      H(i, j) = T::input(tape, "H[" + std::to_string(i) + "][" + std::to_string(j) + "]", H_sample(i, j));
      H(j, i) = H(i, j);
    }
    const VecX<T> b = detail::inputs(tape, "b", b_sample);
    Variant::template run<T>(m, H, b, x, ws);
  }
  detail::outputs(tape, "x", x, false);
  return tape;
}

}  // namespace rbd::symbolic
