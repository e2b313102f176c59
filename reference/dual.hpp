#pragma once
// Nestable forward-mode dual numbers a + b eps (eps^2 = 0) for the Lagrangian oracle.
// Dual<Dual<S>> carries two independent infinitesimals, so its b.b part is a mixed second
// derivative; three levels give the third seed the oracle needs (time). Only the operations
// the oracle uses exist (+, -, *, sin/cos): no division or sqrt is ever taken of a dual.
// Written from scratch so the oracle shares no arithmetic with algorithms/.
#include <cmath>

namespace rbd::oracle {

template <class T> struct Dual;

// The plain scalar at the bottom of a nest (Reference, double, ...).
template <class T> struct dual_base { using type = T; };
template <class T> struct dual_base<Dual<T>> { using type = typename dual_base<T>::type; };
template <class T> using base_t = typename dual_base<T>::type;

template <class T> struct Dual {
  T a, b;
  Dual() : a(base_t<T>(0)), b(base_t<T>(0)) {}
  Dual(const base_t<T>& s) : a(s), b(base_t<T>(0)) {}  // implicit: constants lift exactly
  Dual(const T& a_, const T& b_) : a(a_), b(b_) {}
};

template <class T> Dual<T> operator+(const Dual<T>& x, const Dual<T>& y) { return {x.a + y.a, x.b + y.b}; }
template <class T> Dual<T> operator-(const Dual<T>& x, const Dual<T>& y) { return {x.a - y.a, x.b - y.b}; }
template <class T> Dual<T> operator-(const Dual<T>& x) { return {-x.a, -x.b}; }
template <class T> Dual<T> operator*(const Dual<T>& x, const Dual<T>& y) {
  return {x.a * y.a, x.a * y.b + x.b * y.a};
}
// Mixed forms with the base scalar: model parameters stay plain, which is ~3x cheaper per
// level than lifting them to duals first.
template <class T> Dual<T> operator*(const Dual<T>& x, const base_t<T>& s) { return {x.a * s, x.b * s}; }
template <class T> Dual<T> operator*(const base_t<T>& s, const Dual<T>& x) { return {s * x.a, s * x.b}; }
template <class T> Dual<T> operator+(const Dual<T>& x, const base_t<T>& s) { return {x.a + s, x.b}; }
template <class T> Dual<T> operator+(const base_t<T>& s, const Dual<T>& x) { return {s + x.a, x.b}; }
template <class T> Dual<T> operator-(const Dual<T>& x, const base_t<T>& s) { return {x.a - s, x.b}; }
template <class T> Dual<T> operator-(const base_t<T>& s, const Dual<T>& x) { return {s - x.a, -x.b}; }
template <class T> Dual<T>& operator+=(Dual<T>& x, const Dual<T>& y) { return x = x + y; }
template <class T> Dual<T>& operator-=(Dual<T>& x, const Dual<T>& y) { return x = x - y; }

// sin and cos together: one recursion per level (separate sin/cos would call each other and
// cost 2^levels base evaluations). sin(a + b eps) = sin a + cos a b eps, and so on.
template <class T> struct SinCos { T s, c; };
template <class T> SinCos<T> sin_cos(const T& x) {
  using std::cos;
  using std::sin;
  return {sin(x), cos(x)};
}
template <class T> SinCos<Dual<T>> sin_cos(const Dual<T>& x) {
  const SinCos<T> v = sin_cos(x.a);
  return {Dual<T>(v.s, v.c * x.b), Dual<T>(v.c, -(v.s * x.b))};
}

}  // namespace rbd::oracle
