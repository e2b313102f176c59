#pragma once
// The operation-counting scalar (DESIGN.md section 1). It carries a double and counts every
// arithmetic operation performed on it, so any algorithm template instantiated on it
// reports its own operation count, to lay beside Featherstone's Table 10.1.
//
// What is counted, following the book's convention (section 10.3): multiplications,
// additions/subtractions, divisions, square roots, and sine/cosine calls, separately.
// Negation, comparisons and construction from constants are free. Table 10.1 folds
// divisions into "m" and leaves sin/cos out; the reports do the same when comparing.
#include <cmath>
#include <cstdint>
#include <limits>
#include <ostream>

#include <Eigen/Core>

#include "core/lane_sincos.hpp"

namespace rbd {

struct OpCounts {
  std::uint64_t mul = 0, add = 0, div = 0, sqrt = 0, sin = 0, cos = 0;
  // Table 10.1's "m" counts multiplications and divisions together.
  std::uint64_t m() const { return mul + div; }
  std::uint64_t a() const { return add; }
  OpCounts operator-(const OpCounts& o) const {
    return {mul - o.mul, add - o.add, div - o.div, sqrt - o.sqrt, sin - o.sin, cos - o.cos};
  }
  bool operator==(const OpCounts&) const = default;
};

inline OpCounts& op_counter() {
  thread_local OpCounts counts;
  return counts;
}

class Counted {
 public:
  Counted() = default;
  Counted(double x) : v_(x) {}  // NOLINT: implicit from constants, like a built-in scalar
  explicit operator double() const { return v_; }
  double value() const { return v_; }

  friend Counted operator+(Counted a, Counted b) { ++op_counter().add; return Counted(a.v_ + b.v_); }
  friend Counted operator-(Counted a, Counted b) { ++op_counter().add; return Counted(a.v_ - b.v_); }
  friend Counted operator*(Counted a, Counted b) { ++op_counter().mul; return Counted(a.v_ * b.v_); }
  friend Counted operator/(Counted a, Counted b) { ++op_counter().div; return Counted(a.v_ / b.v_); }
  friend Counted operator-(Counted a) { return Counted(-a.v_); }
  friend Counted operator+(Counted a) { return a; }
  Counted& operator+=(Counted b) { return *this = *this + b; }
  Counted& operator-=(Counted b) { return *this = *this - b; }
  Counted& operator*=(Counted b) { return *this = *this * b; }
  Counted& operator/=(Counted b) { return *this = *this / b; }

  friend bool operator==(Counted a, Counted b) { return a.v_ == b.v_; }
  friend bool operator!=(Counted a, Counted b) { return a.v_ != b.v_; }
  friend bool operator<(Counted a, Counted b) { return a.v_ < b.v_; }
  friend bool operator>(Counted a, Counted b) { return a.v_ > b.v_; }
  friend bool operator<=(Counted a, Counted b) { return a.v_ <= b.v_; }
  friend bool operator>=(Counted a, Counted b) { return a.v_ >= b.v_; }

  friend Counted sqrt(Counted a) { ++op_counter().sqrt; return Counted(std::sqrt(a.v_)); }
  // Sine and cosine from lane_sincos.hpp, not the C library: a Batch<N> lane takes the same
  // ones, and each lane must equal the counted single call to the bit (core/batch_scalar.hpp).
  friend Counted sin(Counted a) { ++op_counter().sin; return Counted(lanes::sin(a.v_)); }
  friend Counted cos(Counted a) { ++op_counter().cos; return Counted(lanes::cos(a.v_)); }
  friend Counted abs(Counted a) { return Counted(std::abs(a.v_)); }
  friend bool isfinite(Counted a) { return std::isfinite(a.v_); }
  friend std::ostream& operator<<(std::ostream& os, Counted a) { return os << a.v_; }

 private:
  double v_ = 0.0;
};


// Counts the operations done by f() on this thread.
template <class F> OpCounts count_ops(F&& f) {
  const OpCounts before = op_counter();
  f();
  return op_counter() - before;
}

}  // namespace rbd

namespace Eigen {
template <> struct NumTraits<rbd::Counted> : GenericNumTraits<rbd::Counted> {
  using Real = rbd::Counted;
  using NonInteger = rbd::Counted;
  using Nested = rbd::Counted;
  using Literal = rbd::Counted;
  enum {
    IsComplex = 0, IsInteger = 0, IsSigned = 1, RequireInitialization = 1,
    ReadCost = 1, AddCost = 1, MulCost = 1
  };
  static inline rbd::Counted epsilon() { return std::numeric_limits<double>::epsilon(); }
  static inline rbd::Counted dummy_precision() { return 1e-12; }
  static inline rbd::Counted highest() { return std::numeric_limits<double>::max(); }
  static inline rbd::Counted lowest() { return std::numeric_limits<double>::lowest(); }
  static inline int digits10() { return 15; }
};
}  // namespace Eigen
