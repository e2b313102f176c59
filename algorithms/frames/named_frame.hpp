#pragma once
// Moving frames that carry their two subscripts as types, so that the semantics check the
// seed proposes (Tasora, seed 000, section 5 and Table 2: "validation of semantics") runs in
// the compiler: Framed<Origin, Base, S> is chi_{Origin,(Base)}, a MovingFrame<S> of frame
// Origin moving in frame Base. The subscripts are any types the user names, complete or not
// (struct World; struct Hand;). A composition whose subscripts do not chain fails to compile
// with a static_assert that names the rule of Table 2 it breaks; one that chains gets the
// result's subscripts from the rule's outcome column. The section closes by noting that a
// template version costs nothing at run time; here every operator forwards to the untyped
// one in moving_frame.hpp, so the numbers are the same bit for bit (verify/test_named_frames.cpp)
// and the rejected programs are listed in verify/negative_compile/.
#include <type_traits>

#include "frames/moving_frame.hpp"

namespace rbd {

template <class Origin, class Base, class S> class Framed;

// A point (Vec3<S>: position; MovingPoint<S>: position, velocity, acceleration) expressed in
// frame In's coordinates. It has one subscript, the base; the seed carries points through
// frames with the same operators (section 4: p >> f1 >> f2 == f2 * f1 * p).
template <class In, class V> struct Expressed {
  using base = In;
  V value;
};

// Table 2's checks as predicates, so tests (and users) can ask without a failed compile.
// Res = Op1 >> Op2 needs Op1.base == Op2.origin; Res = Op1 * Op2 needs Op2.base == Op1.origin.
template <class Op1, class Op2>
inline constexpr bool chains_left_to_right = std::is_same_v<typename Op1::base, typename Op2::origin>;
template <class Op1, class Op2>
inline constexpr bool chains_right_to_left = std::is_same_v<typename Op2::base, typename Op1::origin>;

template <class Origin, class Base, class S> class Framed {
 public:
  using origin = Origin;
  using base = Base;
  using scalar = S;

  explicit Framed(const MovingFrame<S>& f) : f_(f) {}
  Framed(const Framed&) = default;
  Framed& operator=(const Framed&) = default;
  // Initialising or assigning from a frame with other subscripts: the only way a result's
  // subscripts can disagree with a declared type, e.g. Framed<A, B> x = !y with y a chi_{A,(B)}.
  // Table 2's last row checks exactly this for Res = !Op. (The copy constructor above wins
  // whenever the subscripts agree, so this template is only ever chosen for a mismatch.)
  template <class O2, class B2>
  Framed(const Framed<O2, B2, S>&) {  // NOLINT: implicit, so that the mismatch reaches the assert
    static_assert(std::is_same_v<O2, Origin> && std::is_same_v<B2, Base>,
                  "Table 2, rule Res = !Op: Res.origin must be Op.base and Res.base must be Op.origin "
                  "(a chi_{o,(b)} is initialised or assigned only from a chi_{o,(b)})");
  }

  // chi_I (seed Theorem 1) relates a frame to itself: only chi_{a,(a)} can be the identity.
  static Framed identity()
    requires std::is_same_v<Origin, Base>
  {
    return Framed(MovingFrame<S>::identity());
  }

  const MovingFrame<S>& frame() const { return f_; }
  template <class T> Framed<Origin, Base, T> cast() const { return Framed<Origin, Base, T>(f_.template cast<T>()); }

 private:
  MovingFrame<S> f_;
};

// Zero overhead in storage: the subscripts are types only.
static_assert(sizeof(Framed<int, char, double>) == sizeof(MovingFrame<double>) &&
              alignof(Framed<int, char, double>) == alignof(MovingFrame<double>));

// Table 2, row >>: Res = Op1 >> Op2 needs Op1.base == Op2.origin; Res = chi_{Op1.origin,(Op2.base)}.
template <class O1, class B1, class O2, class B2, class S>
Framed<O1, B2, S> operator>>(const Framed<O1, B1, S>& op1, const Framed<O2, B2, S>& op2) {
  static_assert(std::is_same_v<B1, O2>,
                "Table 2, rule Res = Op1 >> Op2: Op1.base must be Op2.origin "
                "(chi_{a,(b)} >> chi_{b,(c)} = chi_{a,(c)})");
  return Framed<O1, B2, S>(op1.frame() >> op2.frame());
}

// Table 2, row *: Res = Op1 * Op2 needs Op2.base == Op1.origin; Res = chi_{Op2.origin,(Op1.base)}.
template <class O1, class B1, class O2, class B2, class S>
Framed<O2, B1, S> operator*(const Framed<O1, B1, S>& op1, const Framed<O2, B2, S>& op2) {
  static_assert(std::is_same_v<B2, O1>,
                "Table 2, rule Res = Op1 * Op2: Op2.base must be Op1.origin "
                "(chi_{b,(a)} * chi_{c,(b)} = chi_{c,(a)})");
  return Framed<O2, B1, S>(op1.frame() * op2.frame());
}

// Table 2, row !: the subscripts swap. The row's check (on the declared Res) is the converting
// constructor's static_assert above.
template <class O, class B, class S> Framed<B, O, S> operator!(const Framed<O, B, S>& op) {
  return Framed<B, O, S>(!op.frame());
}

// In place. Each row's outcome changes one subscript of Res, and a C++ object cannot change
// its type (the seed's caveat about the template version: an object keeps the bases it was
// made with), so beyond the row's check the outcome must equal Res's own subscripts: Op is
// chi_{b,(b)} for >>= and chi_{a,(a)} for *=. For anything else write auto res2 = res >> op.
//
// Res >>= Op is Res = Res >> Op (moving_frame.hpp, and Table 1's c := c > a), so row >>
// gives the check Res.base == Op.origin and the outcome Res.base = Op.base. Table 2's own
// >>= row prints the check Res.base == Op.base and the outcome Res.base = Op.origin, which is
// the chaining of Res >> !Op, not of row >>; with Res's type fixed both forms admit the same
// Op (chi_{b,(b)}), so the typed layer accepts the same programs either way (README.md).
template <class O, class B, class O2, class B2, class S>
Framed<O, B, S>& operator>>=(Framed<O, B, S>& res, const Framed<O2, B2, S>& op) {
  static_assert(std::is_same_v<B, O2>,
                "Table 2, rule Res >>= Op: Res.base must be Op.origin (Res = Res >> Op)");
  static_assert(!std::is_same_v<B, O2> || std::is_same_v<B2, B>,
                "Table 2, rule Res >>= Op: the outcome Res.base = Op.base would change the type of Res; "
                "a typed frame keeps its subscripts, so write auto res2 = res >> op");
  return res = Framed<O, B, S>(res.frame() >> op.frame());
}

// Res *= Op is Res = Res * Op: row *= checks Res.origin == Op.base, outcome Res.origin = Op.origin.
template <class O, class B, class O2, class B2, class S>
Framed<O, B, S>& operator*=(Framed<O, B, S>& res, const Framed<O2, B2, S>& op) {
  static_assert(std::is_same_v<O, B2>,
                "Table 2, rule Res *= Op: Res.origin must be Op.base (Res = Res * Op)");
  static_assert(!std::is_same_v<O, B2> || std::is_same_v<O2, O>,
                "Table 2, rule Res *= Op: the outcome Res.origin = Op.origin would change the type of Res; "
                "a typed frame keeps its subscripts, so write auto res2 = res * op");
  return res = Framed<O, B, S>(res.frame() * op.frame());
}

// Points. A point expressed in frame a is row >>'s Op1 with only a base subscript: p >> chi_{a,(b)}
// needs p's frame to be a (Op1.base == Op2.origin) and gives the point in b; chi_{a,(b)} * p
// is the same by row *.
template <class In, class V, class O, class B, class S>
Expressed<B, V> operator>>(const Expressed<In, V>& p, const Framed<O, B, S>& f) {
  static_assert(std::is_same_v<In, O>,
                "Table 2, rule Res = Op1 >> Op2 with a point as Op1: the point must be expressed in Op2.origin");
  static_assert(std::is_same_v<V, Vec3<S>> || std::is_same_v<V, MovingPoint<S>>);
  return Expressed<B, V>{p.value >> f.frame()};
}
template <class In, class V, class O, class B, class S>
Expressed<B, V> operator*(const Framed<O, B, S>& f, const Expressed<In, V>& p) {
  static_assert(std::is_same_v<In, O>,
                "Table 2, rule Res = Op1 * Op2 with a point as Op2: the point must be expressed in Op1.origin");
  static_assert(std::is_same_v<V, Vec3<S>> || std::is_same_v<V, MovingPoint<S>>);
  return Expressed<B, V>{f.frame() * p.value};
}

}  // namespace rbd
