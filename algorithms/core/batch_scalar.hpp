#pragma once
// A scalar holding N doubles, one per state (issue 17): any variant instantiated on Batch<N> runs
// N states at once, each operation acting on all N lanes with the vector unit (GCC/Clang vector
// extensions: with AVX2 one instruction for N = 4, with AVX-512 for N = 8; narrower targets split
// it). Nothing in the variants changes; the model is broadcast (every lane holds the same model).
//
// Lane k computes exactly what a single call computes in the counting scalar on the same model
// (Model::cast, which re-rounds rotations to the nearest exactly rigid ones, as every scalar's
// model is made): the same double operations in the order the variant's source writes them. (A plain double call can differ in
// the last bits where Eigen vectorises a sum of doubles and so associates it differently;
// verify/test_batch.cpp checks both.)
//
// The variants branch only on the model (e.g. "is this entry of S zero?"), which is the same in
// every lane. A comparison whose lanes disagree would need each state to take its own branch,
// which a batch cannot do: it throws std::logic_error rather than pick one lane's answer.
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include <Eigen/Core>

#include "core/lane_sincos.hpp"

namespace rbd {

namespace detail {
// Aligned like a double, not like the vector: Eigen aligns its fixed-size storage to 16 bytes,
// and the heap to 16, so a 32- or 64-byte alignment could not be honoured. Unaligned vector loads
// cost nothing extra on current x86 cores when the data does not cross a cache line. (Spelled out
// per width: GCC 12 drops vector_size on a typedef whose size depends on a template parameter.)
typedef double batch_lanes2 __attribute__((vector_size(16), aligned(8)));
typedef double batch_lanes4 __attribute__((vector_size(32), aligned(8)));
typedef double batch_lanes8 __attribute__((vector_size(64), aligned(8)));
template <int N> struct BatchLanes;
template <> struct BatchLanes<2> { using type = batch_lanes2; };
template <> struct BatchLanes<4> { using type = batch_lanes4; };
template <> struct BatchLanes<8> { using type = batch_lanes8; };
}  // namespace detail

template <int N> class Batch {
  static_assert(N == 2 || N == 4 || N == 8, "Batch<N>: N is 2, 4 or 8 doubles");

 public:
  using Lanes = typename detail::BatchLanes<N>::type;

  Batch() : v_{} {}
  Batch(double x) : v_(x - Lanes{}) {}  // NOLINT: broadcast, implicit like a built-in scalar's literal
  Batch(int x) : Batch(static_cast<double>(x)) {}  // NOLINT
  static Batch load(const double* x) {
    Batch b;
    for (int i = 0; i < N; ++i) b.v_[i] = x[i];
    return b;
  }
  double lane(int i) const { return v_[i]; }
  void set_lane(int i, double x) { v_[i] = x; }
  // The value when every lane holds the same one (a model constant); throws otherwise.
  explicit operator double() const { return uniform("conversion to double"); }

  friend Batch operator+(const Batch& a, const Batch& b) { return Batch(a.v_ + b.v_, 0); }
  friend Batch operator-(const Batch& a, const Batch& b) { return Batch(a.v_ - b.v_, 0); }
  friend Batch operator*(const Batch& a, const Batch& b) { return Batch(a.v_ * b.v_, 0); }
  friend Batch operator/(const Batch& a, const Batch& b) { return Batch(a.v_ / b.v_, 0); }
  friend Batch operator-(const Batch& a) { return Batch(-a.v_, 0); }
  friend Batch operator+(const Batch& a) { return a; }
  Batch& operator+=(const Batch& b) { v_ += b.v_; return *this; }
  Batch& operator-=(const Batch& b) { v_ -= b.v_; return *this; }
  Batch& operator*=(const Batch& b) { v_ *= b.v_; return *this; }
  Batch& operator/=(const Batch& b) { v_ /= b.v_; return *this; }

  // sqrt lane by lane through the C library, as a single call computes it (it is correctly
  // rounded, and the compiler makes the loop one vector instruction). sin and cos for all lanes
  // at once (lane_sincos.hpp), the same functions the counting scalar's single call uses.
  friend Batch sqrt(const Batch& a) { return a.map([](double x) { return std::sqrt(x); }); }
  friend Batch sin(const Batch& a) { return a.lanewise([](const double* x, double* y) { lanes::sin<N>(x, y); }); }
  friend Batch cos(const Batch& a) { return a.lanewise([](const double* x, double* y) { lanes::cos<N>(x, y); }); }
  // cos and sin of one argument in one pass (scalar.hpp's cos_sin_ finds it): the same lanes as
  // cos(a) and sin(a), for half their work.
  friend void cos_sin_lanes(const Batch& a, Batch& c, Batch& s) {
    double x[N], y[N], z[N];
    std::memcpy(x, &a.v_, sizeof x);
    lanes::sincos<N>(x, y, z);
    std::memcpy(&s.v_, y, sizeof y);
    std::memcpy(&c.v_, z, sizeof z);
  }
  friend Batch abs(const Batch& a) { return a.map([](double x) { return std::abs(x); }); }
  friend Batch atan2(const Batch& y, const Batch& x) {
    Batch r;
    for (int i = 0; i < N; ++i) r.v_[i] = std::atan2(y.v_[i], x.v_[i]);
    return r;
  }
  // Like a comparison: a test whose answer differs between lanes throws (a validity check that
  // passes for some states and fails for others cannot send the batch down one path).
  friend bool isfinite(const Batch& a) {
    const bool first = std::isfinite(a.v_[0]);
    for (int i = 1; i < N; ++i)
      if (std::isfinite(a.v_[i]) != first)
        throw std::logic_error("Batch: the lanes disagree on 'isfinite': some states are not finite");
    return first;
  }

  friend bool operator==(const Batch& a, const Batch& b) { return agree(a, b, [](double x, double y) { return x == y; }, "=="); }
  friend bool operator!=(const Batch& a, const Batch& b) { return agree(a, b, [](double x, double y) { return x != y; }, "!="); }
  friend bool operator<(const Batch& a, const Batch& b) { return agree(a, b, [](double x, double y) { return x < y; }, "<"); }
  friend bool operator>(const Batch& a, const Batch& b) { return agree(a, b, [](double x, double y) { return x > y; }, ">"); }
  friend bool operator<=(const Batch& a, const Batch& b) { return agree(a, b, [](double x, double y) { return x <= y; }, "<="); }
  friend bool operator>=(const Batch& a, const Batch& b) { return agree(a, b, [](double x, double y) { return x >= y; }, ">="); }

 private:
  Batch(Lanes v, int) : v_(v) {}
  template <class F> Batch lanewise(F f) const {
    double x[N], y[N];
    std::memcpy(x, &v_, sizeof x);
    f(x, y);
    Batch r;
    std::memcpy(&r.v_, y, sizeof y);
    return r;
  }
  template <class F> Batch map(F f) const {
    Batch r;
    for (int i = 0; i < N; ++i) r.v_[i] = f(v_[i]);
    return r;
  }
  template <class F> static bool agree(const Batch& a, const Batch& b, F f, const char* what) {
    const bool first = f(a.v_[0], b.v_[0]);
    for (int i = 1; i < N; ++i)
      if (f(a.v_[i], b.v_[i]) != first)
        throw std::logic_error(std::string("Batch: the lanes disagree on '") + what +
                               "': a branch on the state cannot run several states at once");
    return first;
  }
  double uniform(const char* what) const {
    for (int i = 1; i < N; ++i)
      if (!(v_[i] == v_[0]))
        throw std::logic_error(std::string("Batch: ") + what + " of a value that differs between lanes");
    return v_[0];
  }

  Lanes v_;
};

}  // namespace rbd

namespace Eigen {
template <int N> struct NumTraits<rbd::Batch<N>> : GenericNumTraits<rbd::Batch<N>> {
  using T = rbd::Batch<N>;
  using Real = T;
  using NonInteger = T;
  using Nested = T;
  using Literal = T;
  enum {
    IsComplex = 0, IsInteger = 0, IsSigned = 1, RequireInitialization = 1,
    ReadCost = 1, AddCost = 1, MulCost = 1
  };
  static inline T epsilon() { return T(std::numeric_limits<double>::epsilon()); }
  static inline T dummy_precision() { return T(1e-12); }
  static inline T highest() { return T(std::numeric_limits<double>::max()); }
  static inline T lowest() { return T(std::numeric_limits<double>::lowest()); }
  static inline int digits10() { return 15; }
};
}  // namespace Eigen
