// The typed moving frames of algorithms/frames/named_frame.hpp (seed 000, section 5 and
// Table 2): the subscripts of every result are the ones Table 2's outcome column gives
// (checked by the compiler below), and the numbers are the untyped MovingFrame's. Framed is
// a wrapper whose operators call the untyped ones in the same order, so the results are the
// same bit for bit in double, equal as numbers in Reference and Counted, and cost the same
// operations. The programs Table 2 rejects are in verify/negative_compile/ (compiled by CTest).
#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>
#include <type_traits>

#include "core/counting_scalar.hpp"
#include "frames/named_frame.hpp"
#include "verify/support/frames_cases.hpp"

namespace test_named_frames {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

using namespace rbd;
using namespace rbd::verify::frames;
using R = Reference;

// The user's frame names: never defined, only named.
struct World;
struct Base;
struct Arm;
struct Hand;
struct Tool;

template <class O, class B> using F = Framed<O, B, double>;
template <class T> concept HasIdentity = requires { T::identity(); };

namespace {
// All 19 stored numbers equal: in double as bit patterns, otherwise as values.
template <class S> bool identical(const MovingFrame<S>& a, const MovingFrame<S>& b) {
  auto same = [](const S& x, const S& y) {
    if constexpr (std::is_same_v<S, double>) return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y);
    else return x == y;
  };
  auto same3 = [&](const Vec3<S>& x, const Vec3<S>& y) { return same(x[0], y[0]) && same(x[1], y[1]) && same(x[2], y[2]); };
  return same(a.q.w, b.q.w) && same3(a.q.v, b.q.v) && same3(a.r, b.r) && same3(a.r_dot, b.r_dot) &&
         same3(a.omega, b.omega) && same3(a.r_ddot, b.r_ddot) && same3(a.alpha, b.alpha);
}
template <class S> bool identical(const MovingPoint<S>& a, const MovingPoint<S>& b) {
  return (a.p.array() == b.p.array()).all() && (a.p_dot.array() == b.p_dot.array()).all() &&
         (a.p_ddot.array() == b.p_ddot.array()).all();
}

// A random chain chi_{i+1,(i)} of four links (the oracle's trajectories at t = 2/5) in scalar S:
// made in Reference, rounded to double, and cast from there, so all three scalars see the same
// double inputs.
template <class S> std::vector<MovingFrame<S>> links(int n, std::uint64_t seed) {
  std::vector<MovingFrame<S>> out;
  for (const auto& f : rounded(relative_frames(random_chain(n, seed), R(2) / R(5)))) out.push_back(f.template cast<S>());
  return out;
}
}  // namespace

TEST_CASE("named frames: result subscripts follow Table 2's outcome column", "[named_frames]") {
  // Row >>: chi_{a,(b)} >> chi_{b,(c)} = chi_{a,(c)}; row *: chi_{b,(a)} * chi_{c,(b)} = chi_{c,(a)}.
  STATIC_REQUIRE(std::is_same_v<decltype(std::declval<F<Hand, Arm>>() >> std::declval<F<Arm, World>>()), F<Hand, World>>);
  STATIC_REQUIRE(std::is_same_v<decltype(std::declval<F<Arm, World>>() * std::declval<F<Hand, Arm>>()), F<Hand, World>>);
  // Row !: the subscripts swap.
  STATIC_REQUIRE(std::is_same_v<decltype(!std::declval<F<Hand, World>>()), F<World, Hand>>);
  // In place: the result is Res itself.
  STATIC_REQUIRE(std::is_same_v<decltype(std::declval<F<Hand, Arm>&>() >>= std::declval<F<Arm, Arm>>()), F<Hand, Arm>&>);
  STATIC_REQUIRE(std::is_same_v<decltype(std::declval<F<Hand, Arm>&>() *= std::declval<F<Hand, Hand>>()), F<Hand, Arm>&>);
  // Points take the frame's base.
  using P = Expressed<Hand, Vec3<double>>;
  STATIC_REQUIRE(std::is_same_v<decltype(std::declval<P>() >> std::declval<F<Hand, Arm>>()), Expressed<Arm, Vec3<double>>>);
  STATIC_REQUIRE(std::is_same_v<decltype(std::declval<F<Hand, Arm>>() * std::declval<P>()), Expressed<Arm, Vec3<double>>>);
  // The checks themselves, as predicates: what verify/negative_compile/ shows failing to compile.
  STATIC_REQUIRE(chains_left_to_right<F<Hand, Arm>, F<Arm, World>>);
  STATIC_REQUIRE_FALSE(chains_left_to_right<F<Hand, Arm>, F<Base, World>>);
  STATIC_REQUIRE_FALSE(chains_left_to_right<F<Arm, World>, F<Hand, Arm>>);  // the operands of * in >>'s order
  STATIC_REQUIRE(chains_right_to_left<F<Arm, World>, F<Hand, Arm>>);
  STATIC_REQUIRE_FALSE(chains_right_to_left<F<Hand, Arm>, F<Arm, World>>);
  // Only chi_{a,(a)} has an identity; the wrapper stores nothing beyond the frame.
  STATIC_REQUIRE(HasIdentity<F<Arm, Arm>>);
  STATIC_REQUIRE_FALSE(HasIdentity<F<Hand, Arm>>);
  STATIC_REQUIRE(sizeof(Framed<Hand, World, R>) == sizeof(MovingFrame<R>));
}

// A chain World <- Base <- Arm <- Hand <- Tool composed every way the typed layer allows,
// against the same untyped operations in the same order.
template <class S> void check_chain_against_untyped(std::uint64_t seed) {
  const auto c = links<S>(4, seed);
  const Framed<Base, World, S> base_in_world(c[0]);
  const Framed<Arm, Base, S> arm_in_base(c[1]);
  const Framed<Hand, Arm, S> hand_in_arm(c[2]);
  const Framed<Tool, Hand, S> tool_in_hand(c[3]);

  const Framed<Tool, World, S> ltr = tool_in_hand >> hand_in_arm >> arm_in_base >> base_in_world;
  CHECK(identical(ltr.frame(), c[3] >> c[2] >> c[1] >> c[0]));
  const Framed<Tool, World, S> rtl = base_in_world * arm_in_base * hand_in_arm * tool_in_hand;
  CHECK(identical(rtl.frame(), c[0] * c[1] * c[2] * c[3]));
  const Framed<World, Tool, S> inv = !ltr;
  CHECK(identical(inv.frame(), !(c[3] >> c[2] >> c[1] >> c[0])));
  // !! gives back the subscripts it started with.
  const Framed<Hand, Base, S> hb = hand_in_arm >> !(!arm_in_base);
  CHECK(identical(hb.frame(), c[2] >> !(!c[1])));

  Framed<Tool, World, S> x = ltr;
  x >>= Framed<World, World, S>(c[0]);  // chi_{b,(b)}: the only Op that keeps x's type
  CHECK(identical(x.frame(), (c[3] >> c[2] >> c[1] >> c[0]) >> c[0]));
  x *= Framed<Tool, Tool, S>(c[1]);
  CHECK(identical(x.frame(), ((c[3] >> c[2] >> c[1] >> c[0]) >> c[0]) * c[1]));

  const MovingPoint<S> p{Vec3<S>(S(0.5), S(-1), S(2)), Vec3<S>(S(1), S(0.25), S(-0.5)), Vec3<S>(S(0), S(2), S(1))};
  const Expressed<Tool, MovingPoint<S>> pt{p};
  const Expressed<World, MovingPoint<S>> pw = pt >> tool_in_hand >> hand_in_arm >> arm_in_base >> base_in_world;
  CHECK(identical(pw.value, p >> c[3] >> c[2] >> c[1] >> c[0]));
  const Expressed<World, MovingPoint<S>> pw2 = base_in_world * (arm_in_base * (hand_in_arm * (tool_in_hand * pt)));
  CHECK(identical(pw2.value, c[0] * (c[1] * (c[2] * (c[3] * p)))));
  const Expressed<World, Vec3<S>> xw = Expressed<Tool, Vec3<S>>{p.p} >> ltr;
  CHECK((xw.value.array() == (p.p >> (c[3] >> c[2] >> c[1] >> c[0])).array()).all());
}

TEST_CASE("named frames: chains give the untyped numbers bit for bit in all three scalars", "[named_frames]") {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    INFO("seed " << seed);
    check_chain_against_untyped<double>(seed);
    check_chain_against_untyped<R>(seed);
    check_chain_against_untyped<Counted>(seed);
  }
}

TEST_CASE("named frames: the typed layer adds no arithmetic", "[named_frames]") {
  const auto c = links<Counted>(4, 9);
  const Framed<Base, World, Counted> bw(c[0]);
  const Framed<Arm, Base, Counted> ab(c[1]);
  const Framed<Hand, Arm, Counted> ha(c[2]);
  const Framed<Tool, Hand, Counted> th(c[3]);
  const OpCounts typed = count_ops([&] { (void)!(th >> ha >> ab >> bw); });
  const OpCounts untyped = count_ops([&] { (void)!(c[3] >> c[2] >> c[1] >> c[0]); });
  CHECK(typed == untyped);
  CHECK(typed.m() > 0);  // the count did see the chain
}

// Seed section 6: an item (8) on a conveyor (7, fixed in the base 0) seen from the end
// effector (6) of the arm 0 <- 1 <- ... <- 6, spelled three ways that all have the type
// chi_{8,(6)}; their numbers agree to round-off in Reference.
struct F0;
struct F1;
struct F2;
struct F3;
struct F4;
struct F5;
struct F6;
struct F7;
struct F8;

TEST_CASE("named frames: seed section 6's conveyor example in three spellings", "[named_frames]") {
  const auto c = relative_frames(random_chain(8, 6), R(3) / R(4));
  const Framed<F1, F0, R> x10(c[0]);
  const Framed<F2, F1, R> x21(c[1]);
  const Framed<F3, F2, R> x32(c[2]);
  const Framed<F4, F3, R> x43(c[3]);
  const Framed<F5, F4, R> x54(c[4]);
  const Framed<F6, F5, R> x65(c[5]);
  const Framed<F7, F0, R> x70(c[6]);
  const Framed<F8, F7, R> x87(c[7]);

  const Framed<F8, F6, R> each_inverted = x87 >> x70 >> !x10 >> !x21 >> !x32 >> !x43 >> !x54 >> !x65;
  const Framed<F8, F6, R> arm_inverted = x87 >> x70 >> !(x65 >> x54 >> x43 >> x32 >> x21 >> x10);
  const Framed<F6, F0, R> x60 = x10 * x21 * x32 * x43 * x54 * x65;
  const Framed<F8, F6, R> right_to_left = !x60 * (x70 * x87);
  // Why 1e-40: O(1) numbers through a few hundred 50-digit operations (test_frames_seed.cpp).
  CHECK(max_abs_difference(each_inverted.frame(), arm_inverted.frame()) < R("1e-40"));
  CHECK(max_abs_difference(each_inverted.frame(), right_to_left.frame()) < R("1e-40"));
  CHECK(max_abs_difference(each_inverted.frame(), (x87 >> x70 >> !x60).frame()) < R("1e-40"));
}

}  // namespace test_named_frames
