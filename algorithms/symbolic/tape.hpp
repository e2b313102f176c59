#pragma once
// The assignment list of Featherstone section 10.4 (Figure 10.6's "assignment-statement file"),
// held in memory as the book allows ("an equivalent internal data structure"). Each node is one
// scalar assignment t_k = op(t_a, t_b); nodes are stored in the order they were executed, so an
// operand always precedes its use and one forward pass evaluates the list.
//
// V is the scalar the model's constants are held in: double for code that runs in double,
// Reference for the 50-digit witness of the same list (DESIGN.md section 1).
#include <cstdint>
#include <string>
#include <vector>

namespace rbd::symbolic {

enum class Op : std::uint8_t {
  Input,     // a variable supplied at run time (q, qd, qdd, tau ...); value = the traced sample
  Constant,  // a number known when the code is generated (a model parameter or a literal)
  Add, Sub, Mul, Div,
  Neg,       // free in the book's count (section 10.3), as in the counting scalar
  Sqrt, Sin, Cos
};

inline bool is_binary(Op op) { return op == Op::Add || op == Op::Sub || op == Op::Mul || op == Op::Div; }

template <class V> struct Node {
  Op op;
  int a = -1, b = -1;  // operand node indices (b only for binary operations)
  V value{};           // Constant: its value; otherwise the value met while tracing (a sample)
};

// Operation counts of a list in the book's convention (section 10.3): "m" = multiplications and
// divisions, "a" = additions and subtractions; square roots, sines and cosines apart; negation free.
struct ListCounts {
  long mul = 0, div = 0, add = 0, sqrt = 0, sin = 0, cos = 0;
  long m() const { return mul + div; }
  long a() const { return add; }
  long total() const { return m() + a(); }
  long all() const { return m() + a() + sqrt + sin + cos; }
  bool operator==(const ListCounts&) const = default;
};

template <class V> struct Tape {
  std::vector<Node<V>> nodes;
  std::vector<int> inputs;                // node index of each run-time input, in argument order
  std::vector<std::string> input_names;   // e.g. "q[3]"
  std::vector<int> outputs;               // node index of each output, in result order
  std::vector<std::string> output_names;  // e.g. "tau[3]"

  int add(Op op, int a, int b, const V& value) {
    nodes.push_back(Node<V>{op, a, b, value});
    return static_cast<int>(nodes.size()) - 1;
  }

  // Counts every assignment in the list, used or not (run dead_code first to count only what
  // reaches an output).
  ListCounts counts() const {
    ListCounts c;
    for (const auto& n : nodes) {
      switch (n.op) {
        case Op::Add: case Op::Sub: ++c.add; break;
        case Op::Mul: ++c.mul; break;
        case Op::Div: ++c.div; break;
        case Op::Sqrt: ++c.sqrt; break;
        case Op::Sin: ++c.sin; break;
        case Op::Cos: ++c.cos; break;
        default: break;
      }
    }
    return c;
  }
};

}  // namespace rbd::symbolic
