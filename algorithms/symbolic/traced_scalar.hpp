#pragma once
// The symbolic executer of Featherstone section 10.4 (Figure 10.6, first stage), as a fourth
// scalar beside double, Reference and Counted. A variant instantiated on Traced<V> runs once on
// one model: every arithmetic operation it performs is appended to the recording Tape<V> instead
// of merely being computed. The model's parameters enter as constants (their values in V), the
// run-time inputs (q, qd, qdd, tau ...) as symbols, so the tape is the list of scalar assignments
// the algorithm performs on that model, with vector operations expanded into scalars as the book's
// executer does.
//
// Every operation is recorded, also one whose operands are both constants, so that the raw list
// has exactly the operations the counting scalar counts for the same call (checked in
// verify/test_symbolic.cpp); the simplifier folds them afterwards (simplify.hpp).
//
// A traced value also carries the value it takes for the sample inputs given to trace(), so a
// list can be checked against the run that recorded it. The generated code is straight-line: a
// comparison whose outcome depends on the inputs cannot be recorded, and throws (it would have
// to become a branch). Comparisons between constants (e.g. "is this entry of S zero?") are
// decided at generation time, which is how the model's structure specialises the code.
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <Eigen/Core>

#include "symbolic/tape.hpp"

namespace rbd::symbolic {

// The tape that Traced<V> operations currently append to (one per thread and V); null when none.
template <class V> inline Tape<V>*& recording_tape() {
  thread_local Tape<V>* tape = nullptr;
  return tape;
}

// Records into `tape` for the lifetime of this object (the lists of one trace() call).
template <class V> class Recording {
 public:
  explicit Recording(Tape<V>& tape) : previous_(recording_tape<V>()) { recording_tape<V>() = &tape; }
  ~Recording() { recording_tape<V>() = previous_; }
  Recording(const Recording&) = delete;
  Recording& operator=(const Recording&) = delete;

 private:
  Tape<V>* previous_;
};

template <class V> class Traced {
 public:
  Traced() = default;  // the constant 0 (Eigen's setZero and uninitialised entries)
  Traced(const V& x) : v_(x) {}  // NOLINT: implicit from constants, like a built-in scalar
  template <class T>
    requires(std::is_arithmetic_v<T> && !std::is_same_v<T, V>)
  Traced(T x) : v_(V(x)) {}  // NOLINT: literals such as S(0), S(2)
  explicit operator V() const { return v_; }

  // A run-time input, recorded as node Op::Input; `sample` is its value for this trace.
  static Traced input(Tape<V>& tape, std::string name, const V& sample) {
    Traced t;
    t.v_ = sample;
    t.constant_ = false;
    t.id_ = tape.add(Op::Input, -1, -1, sample);
    tape.inputs.push_back(t.id_);
    tape.input_names.push_back(std::move(name));
    return t;
  }

  const V& value() const { return v_; }            // the constant, or the sample value
  // The node that holds this value on `tape`, recording a constant the first time it is needed.
  int node(Tape<V>& tape) const {
    if (id_ >= 0) return id_;
    return tape.add(Op::Constant, -1, -1, v_);
  }

  friend Traced operator+(const Traced& a, const Traced& b) { return binary(Op::Add, a, b, a.v_ + b.v_); }
  friend Traced operator-(const Traced& a, const Traced& b) { return binary(Op::Sub, a, b, a.v_ - b.v_); }
  friend Traced operator*(const Traced& a, const Traced& b) { return binary(Op::Mul, a, b, a.v_ * b.v_); }
  friend Traced operator/(const Traced& a, const Traced& b) { return binary(Op::Div, a, b, a.v_ / b.v_); }
  friend Traced operator-(const Traced& a) { return unary(Op::Neg, a, -a.v_); }
  friend Traced operator+(const Traced& a) { return a; }
  Traced& operator+=(const Traced& b) { return *this = *this + b; }
  Traced& operator-=(const Traced& b) { return *this = *this - b; }
  Traced& operator*=(const Traced& b) { return *this = *this * b; }
  Traced& operator/=(const Traced& b) { return *this = *this / b; }

  friend Traced sqrt(const Traced& a) { using std::sqrt; return unary(Op::Sqrt, a, sqrt(a.v_)); }
  friend Traced sin(const Traced& a) { using std::sin; return unary(Op::Sin, a, sin(a.v_)); }
  friend Traced cos(const Traced& a) { using std::cos; return unary(Op::Cos, a, cos(a.v_)); }
  friend Traced abs(const Traced& a) {
    require_constant(a, a, "abs");  // |x| of a symbol is a branch
    using std::abs;
    return Traced(abs(a.v_));
  }
  // Only of constants: a model's own geometry (e.g. the DH parameters derived from its frames).
  friend Traced atan2(const Traced& y, const Traced& x) {
    require_constant(y, x, "atan2");
    using std::atan2;
    return Traced(V(atan2(y.v_, x.v_)));
  }
  friend bool isfinite(const Traced& a) {
    require_constant(a, a, "isfinite");
    using std::isfinite;  // and boost::multiprecision's, by argument-dependent lookup
    return isfinite(a.v_);
  }

  friend bool operator==(const Traced& a, const Traced& b) { require_constant(a, b, "=="); return a.v_ == b.v_; }
  friend bool operator!=(const Traced& a, const Traced& b) { require_constant(a, b, "!="); return a.v_ != b.v_; }
  friend bool operator<(const Traced& a, const Traced& b) { require_constant(a, b, "<"); return a.v_ < b.v_; }
  friend bool operator>(const Traced& a, const Traced& b) { require_constant(a, b, ">"); return a.v_ > b.v_; }
  friend bool operator<=(const Traced& a, const Traced& b) { require_constant(a, b, "<="); return a.v_ <= b.v_; }
  friend bool operator>=(const Traced& a, const Traced& b) { require_constant(a, b, ">="); return a.v_ >= b.v_; }

 private:
  static void require_constant(const Traced& a, const Traced& b, const char* what) {
    if (!a.constant_ || !b.constant_)
      throw std::logic_error(std::string("symbolic::Traced: '") + what +
                             "' on a value that depends on the run-time inputs; straight-line code "
                             "cannot record a branch (section 10.4 traces branch-free algorithms)");
  }
  // Without a recording only constants may meet (e.g. Model::cast's arithmetic): the result is a
  // constant too. A traced input outside its recording is a misuse.
  static void require_recording_or_constants(const Traced& a, const Traced& b) {
    if (!a.constant_ || !b.constant_)
      throw std::logic_error("symbolic::Traced: an operation on a traced input outside its Recording");
  }
  static Traced binary(Op op, const Traced& a, const Traced& b, const V& value) {
    Traced r(value);
    r.constant_ = a.constant_ && b.constant_;
    if (Tape<V>* t = recording_tape<V>()) r.id_ = t->add(op, a.node(*t), b.node(*t), value);
    else require_recording_or_constants(a, b);
    return r;
  }
  static Traced unary(Op op, const Traced& a, const V& value) {
    Traced r(value);
    r.constant_ = a.constant_;
    if (Tape<V>* t = recording_tape<V>()) r.id_ = t->add(op, a.node(*t), -1, value);
    else require_recording_or_constants(a, a);
    return r;
  }

  V v_{};
  int id_ = -1;           // node on the recording tape; -1 for a constant not yet recorded
  bool constant_ = true;  // independent of the run-time inputs
};

}  // namespace rbd::symbolic

namespace Eigen {
template <class V> struct NumTraits<rbd::symbolic::Traced<V>> : GenericNumTraits<rbd::symbolic::Traced<V>> {
  using T = rbd::symbolic::Traced<V>;
  using Real = T;
  using NonInteger = T;
  using Nested = T;
  using Literal = T;
  enum {
    IsComplex = 0, IsInteger = 0, IsSigned = 1, RequireInitialization = 1,
    ReadCost = 1, AddCost = 1, MulCost = 1
  };
  static inline T epsilon() { return T(NumTraits<V>::epsilon()); }
  static inline T dummy_precision() { return T(NumTraits<V>::dummy_precision()); }
  static inline T highest() { return T(NumTraits<V>::highest()); }
  static inline T lowest() { return T(NumTraits<V>::lowest()); }
  static inline int digits10() { return NumTraits<V>::digits10(); }
};
}  // namespace Eigen
