#pragma once
// The symbolic simplifier of Featherstone section 10.4 (Figure 10.6, second stage). Its rules,
// each of which leaves every output's value unchanged for finite inputs:
//  1. constant folding: an operation on constants is done now, in V (the book's "evaluate
//     constant expressions");
//  2. algebraic identities: x*0 -> 0, x*1 -> x, x*(-1) -> -x, x+0 -> x, x-0 -> x, 0-x -> -x,
//     0/x -> 0, x/1 -> x, -(-x) -> x (the book's "x.0 -> 0, x.1 -> x, x+0 -> x, and so on");
//  3. common subexpressions: an operation already done on the same operands is not done again
//     (operands of + and * taken in either order: both are exactly commutative in IEEE
//     arithmetic). The book does not list it; rbdlab adds it because the spatial algorithms
//     recompute products such as sin(q)*c in several places;
//  4. dead assignments: nothing that no output depends on is kept (the book's first rule).
// The book's rule "a = b is removed and b substituted" is implicit here: the list is a graph
// whose operands are node numbers, so a replaced node is substituted wherever it is used.
//
// The book asks for the rules to be applied until none applies. Because the nodes are in
// execution order, one forward pass sees every operand in its final form before its users, so
// rules 1-3 reach their fixed point in that pass, and rule 4 (a backward pass) creates no new
// opportunity for them: simplify(simplify(t)) == simplify(t), which verify/test_symbolic.cpp
// checks.
//
// No rule reorders or reassociates arithmetic, so the simplified list evaluated in double gives
// the generic variant's double result to the last bit, with these exceptions, all outside finite
// arithmetic on finite inputs (the contract): the sign of a zero result; x*0 -> 0 and x - x -> 0
// drop the NaN an infinite x would give, 0/x -> 0 the NaN of x = 0; and where a zero's sign
// decides a division by zero, the infinity's sign.
#include <cmath>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "symbolic/tape.hpp"

namespace rbd::symbolic {

struct Rules {
  bool fold = true;        // rule 1
  bool identities = true;  // rule 2
  bool common = true;      // rule 3 (not among the book's rules; off to reproduce Table 10.3 as printed)
};

// How many counted operations (section 10.3's m + a, and sqrt/sin/cos) each rule removed.
struct SimplifyStats {
  ListCounts before, after;
  long folded = 0, identities = 0, common = 0, dead = 0;
};

namespace detail {
inline bool counted(Op op) { return op != Op::Input && op != Op::Constant && op != Op::Neg; }

// A strict total order on constants for the table of distinct constants: NaN (all alike) after
// every number, and -0 before +0, so that neither a NaN (unordered by <, which would break the
// map) nor a zero's sign can make two different constants share a node.
template <class V> struct ConstantLess {
  bool operator()(const V& a, const V& b) const {
    using std::isnan;
    using std::signbit;
    const bool na = isnan(a), nb = isnan(b);
    if (na || nb) return !na && nb;
    if (a < b) return true;
    if (b < a) return false;
    return signbit(a) && !signbit(b);
  }
};
}  // namespace detail

template <class V> Tape<V> simplify(const Tape<V>& in, Rules rules = {}, SimplifyStats* stats = nullptr) {
  Tape<V> out;
  std::vector<int> map(in.nodes.size(), -1);        // old node -> node of `out` with its value
  std::map<V, int, detail::ConstantLess<V>> constants;  // one node per distinct constant
  std::unordered_map<std::uint64_t, int> computed;  // (op, a, b) -> node, for rule 3
  long folded = 0, identities = 0, common = 0;

  auto constant = [&](const V& x) {
    auto [it, fresh] = constants.try_emplace(x, -1);
    if (fresh) it->second = out.add(Op::Constant, -1, -1, x);
    return it->second;
  };
  auto is_const = [&](int k, double x) { return out.nodes[k].op == Op::Constant && out.nodes[k].value == V(x); };
  auto emit = [&](Op op, int a, int b, const V& sample) {
    if (out.nodes.size() >= (std::size_t(1) << 27))
      throw std::length_error("symbolic::simplify: more than 2^27 nodes (the subexpression key holds 28 bits per operand)");
    if (rules.common) {
      if ((op == Op::Add || op == Op::Mul) && b < a) std::swap(a, b);
      const std::uint64_t key = (std::uint64_t(op) << 56) ^ (std::uint64_t(std::uint32_t(a)) << 28) ^
                                std::uint64_t(std::uint32_t(b + 1));
      auto [it, fresh] = computed.try_emplace(key, -1);
      if (!fresh) return std::pair{it->second, true};
      it->second = out.add(op, a, b, sample);
      return std::pair{it->second, false};
    }
    return std::pair{out.add(op, a, b, sample), false};
  };

  for (std::size_t k = 0; k < in.nodes.size(); ++k) {
    const Node<V>& n = in.nodes[k];
    if (n.op == Op::Input) { map[k] = out.add(Op::Input, -1, -1, n.value); continue; }
    if (n.op == Op::Constant) { map[k] = constant(n.value); continue; }
    const int a = map[n.a], b = is_binary(n.op) ? map[n.b] : -1;
    const bool all_const = out.nodes[a].op == Op::Constant && (b < 0 || out.nodes[b].op == Op::Constant);
    const bool c = detail::counted(n.op);

    if (rules.fold && all_const) {  // rule 1: the value met while tracing is the constant's value
      map[k] = constant(n.value);
      folded += c;
      continue;
    }
    if (rules.identities) {  // rule 2
      int to = -1;           // the node the result equals, if an identity applies
      Op negate_of = Op::Input;
      switch (n.op) {
        case Op::Mul:
          if (is_const(a, 0) || is_const(b, 0)) to = constant(V(0));
          else if (is_const(a, 1)) to = b;
          else if (is_const(b, 1)) to = a;
          else if (is_const(a, -1)) { to = b; negate_of = Op::Neg; }
          else if (is_const(b, -1)) { to = a; negate_of = Op::Neg; }
          break;
        case Op::Div:
          if (is_const(a, 0)) to = constant(V(0));
          else if (is_const(b, 1)) to = a;
          else if (is_const(b, -1)) { to = a; negate_of = Op::Neg; }
          break;
        case Op::Add:
          if (is_const(a, 0)) to = b;
          else if (is_const(b, 0)) to = a;
          break;
        case Op::Sub:
          if (is_const(b, 0)) to = a;
          else if (is_const(a, 0)) { to = b; negate_of = Op::Neg; }
          break;
        case Op::Neg:
          if (out.nodes[a].op == Op::Neg) to = out.nodes[a].a;
          else if (out.nodes[a].op == Op::Constant) to = constant(-out.nodes[a].value);
          break;
        default: break;
      }
      if (to >= 0) {
        if (negate_of == Op::Neg) {
          if (out.nodes[to].op == Op::Neg) to = out.nodes[to].a;
          else if (out.nodes[to].op == Op::Constant) to = constant(-out.nodes[to].value);
          else to = emit(Op::Neg, to, -1, n.value).first;
        }
        map[k] = to;
        identities += c;
        continue;
      }
    }
    // Signs moved out of products and sums, so that x*(-y), -(x*y) and (-x)*y meet as one
    // subexpression: x + (-y) = x - y, (-x) + y = y - x, x - (-y) = x + y, (-x) - y = -(x + y),
    // (-x)*y = -(x*y), x*(-c) = -(x*c), and the same for /. Each is exact in IEEE arithmetic, whose rounding is
    // symmetric about zero (only the sign of a zero result can differ).
    Op op = n.op;
    int x = a, y = b;
    bool negate = false;
    if (rules.identities && is_binary(op)) {
      auto neg_of = [&](int k) { return out.nodes[k].op == Op::Neg ? out.nodes[k].a : -1; };
      auto negative_constant = [&](int k) { return out.nodes[k].op == Op::Constant && out.nodes[k].value < V(0); };
      // Each step removes one negated operand, so this ends; it runs until none is left, so that
      // one pass reaches the fixed point (a step can expose another: x - (-(-y)), (-x) + (-y)).
      for (bool changed = true; changed;) {
        changed = true;
        if (op == Op::Add && neg_of(y) >= 0) { op = Op::Sub; y = neg_of(y); }
        else if (op == Op::Add && neg_of(x) >= 0) { op = Op::Sub; const int t = neg_of(x); x = y; y = t; }
        else if (op == Op::Sub && neg_of(y) >= 0) { op = Op::Add; y = neg_of(y); }
        else if (op == Op::Sub && neg_of(x) >= 0) { op = Op::Add; x = neg_of(x); negate = !negate; }  // -(x + y)
        else changed = false;
      }
      if (op == Op::Mul || op == Op::Div) {
        for (int* f : {&x, &y}) {
          if (neg_of(*f) >= 0) { *f = neg_of(*f); negate = !negate; }
          else if (negative_constant(*f)) { *f = constant(-out.nodes[*f].value); negate = !negate; }
        }
      }
      if (op == Op::Sub && x == y) {  // x - x = 0 for finite x
        map[k] = constant(V(0));
        identities += c;
        continue;
      }
    }
    const auto [node, reused] = emit(op, x, y, negate ? V(-n.value) : n.value);  // rule 3 inside emit
    map[k] = negate ? emit(Op::Neg, node, -1, n.value).first : node;
    common += (reused && c);
  }
  for (std::size_t i = 0; i < in.outputs.size(); ++i) out.outputs.push_back(map[in.outputs[i]]);
  out.output_names = in.output_names;

  // Rule 4: keep what an output needs, and every input (the argument list stays as traced).
  std::vector<char> live(out.nodes.size(), 0);
  for (int o : out.outputs) live[o] = 1;
  for (std::size_t k = out.nodes.size(); k-- > 0;) {
    const Node<V>& n = out.nodes[k];
    if (n.op == Op::Input) live[k] = 1;
    if (!live[k]) continue;
    if (n.a >= 0) live[n.a] = 1;
    if (n.b >= 0) live[n.b] = 1;
  }
  Tape<V> kept;
  std::vector<int> renumber(out.nodes.size(), -1);
  long dead = 0;
  for (std::size_t k = 0; k < out.nodes.size(); ++k) {
    const Node<V>& n = out.nodes[k];
    if (!live[k]) { dead += detail::counted(n.op); continue; }
    renumber[k] = kept.add(n.op, n.a >= 0 ? renumber[n.a] : -1, n.b >= 0 ? renumber[n.b] : -1, n.value);
    if (n.op == Op::Input) kept.inputs.push_back(renumber[k]);
  }
  kept.input_names = in.input_names;
  for (int o : out.outputs) kept.outputs.push_back(renumber[o]);
  kept.output_names = in.output_names;

  if (stats) *stats = SimplifyStats{in.counts(), kept.counts(), folded, identities, common, dead};
  return kept;
}

}  // namespace rbd::symbolic
