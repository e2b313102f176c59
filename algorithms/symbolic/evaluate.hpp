#pragma once
// Runs an assignment list in any scalar S: in Reference it is the 50-digit witness that the
// list (raw or simplified) computes what the generic variant computes (the exactness gate of
// DESIGN.md section 2); in double it is what the emitted C++ must reproduce bit for bit; in the
// counting scalar it counts the list's operations the way the generic variants are counted.
// Not for hot loops: the emitted code is the fast form (emit_cpp.hpp).
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/scalar.hpp"
#include "symbolic/tape.hpp"

namespace rbd::symbolic {

// in: one value per tape.inputs entry; out: one per tape.outputs entry. `scratch` is resized to
// the list's length. Constants are converted from V with scalar_cast (exact when S is at least
// as precise as V).
template <class S, class V>
void evaluate(const Tape<V>& tape, std::span<const S> in, std::span<S> out, std::vector<S>& scratch) {
  if (in.size() != tape.inputs.size() || out.size() != tape.outputs.size())
    throw std::invalid_argument("symbolic::evaluate: the list takes " + std::to_string(tape.inputs.size()) +
                                " inputs and gives " + std::to_string(tape.outputs.size()) + " outputs; got " +
                                std::to_string(in.size()) + " and " + std::to_string(out.size()));
  scratch.resize(tape.nodes.size());
  std::size_t next_input = 0;
  for (std::size_t k = 0; k < tape.nodes.size(); ++k) {
    const Node<V>& n = tape.nodes[k];
    S& r = scratch[k];
    switch (n.op) {
      case Op::Input: r = in[next_input++]; break;
      case Op::Constant: r = scalar_cast<S>(n.value); break;
      case Op::Add: r = scratch[n.a] + scratch[n.b]; break;
      case Op::Sub: r = scratch[n.a] - scratch[n.b]; break;
      case Op::Mul: r = scratch[n.a] * scratch[n.b]; break;
      case Op::Div: r = scratch[n.a] / scratch[n.b]; break;
      case Op::Neg: r = -scratch[n.a]; break;
      case Op::Sqrt: r = sqrt_(scratch[n.a]); break;
      case Op::Sin: r = sin_(scratch[n.a]); break;
      case Op::Cos: r = cos_(scratch[n.a]); break;
    }
  }
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = scratch[tape.outputs[i]];
}

}  // namespace rbd::symbolic
