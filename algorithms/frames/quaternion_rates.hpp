#pragma once
// Chaining in Chrono's own storage (seed 000, section 4): each frame carries q_dot and q_ddot
// instead of omega and alpha, and a composition evaluates the seed's quaternion formulas
// Eqs. 4, 6, 7, 8, 10 and 11 literally, with sandwich products q S(x) q*. omega and alpha
// are read off at the end with Eqs. 9 and 12, and converted in at the start with their
// inverses q_dot = 1/2 q S(omega), q_ddot = 1/2 (q_dot S(omega) + q S(alpha)).
//
// Eqs. 7 and 10 as printed equate a pure quaternion S(r_dot) with quaternions whose scalar
// part is not zero (2 q_dot S(r) q* has scalar part -(A omega).(A r), in general nonzero): they
// hold for the vector parts only, which is what is taken here (vec(...)). The failure of the
// printed scalar part is shown in verify/test_frames_seed.cpp.
#include <span>

#include "frames/moving_frame.hpp"

namespace rbd {

namespace frames_detail {
template <class S> struct RateFrame {  // Chrono's chi_c++ without the cached matrix
  Vec3<S> r, r_dot, r_ddot;
  Quaternion<S> q, q_dot, q_ddot;
};
template <class S> RateFrame<S> to_rates(const MovingFrame<S>& f) {
  const S half = S(1) / S(2);
  RateFrame<S> x{f.r, f.r_dot, f.r_ddot, f.q, {}, {}};
  x.q_dot = half * (f.q * Quaternion<S>::pure(f.omega));
  x.q_ddot = half * (x.q_dot * Quaternion<S>::pure(f.omega) + f.q * Quaternion<S>::pure(f.alpha));
  return x;
}
// chi_ac = chi_ab >> chi_bc by Eqs. 4, 6, 7, 8, 10, 11 (vector parts of 7 and 10).
template <class S> RateFrame<S> compose_rates(const RateFrame<S>& ab, const RateFrame<S>& bc) {
  using Q = Quaternion<S>;
  const Q qc = bc.q.conjugate(), qdc = bc.q_dot.conjugate();
  const Q Sr = Q::pure(ab.r), Srd = Q::pure(ab.r_dot), Srdd = Q::pure(ab.r_ddot);
  const Q qdSr = bc.q_dot * Sr;
  RateFrame<S> ac;
  ac.r = bc.r + (bc.q * Sr * qc).v;                                                       // Eq. 4
  ac.q = bc.q * ab.q;                                                                     // Eq. 6
  ac.r_dot = bc.r_dot + (S(2) * (qdSr * qc)).v + (bc.q * Srd * qc).v;                     // Eq. 7
  ac.q_dot = bc.q_dot * ab.q + bc.q * ab.q_dot;                                           // Eq. 8
  ac.r_ddot = bc.r_ddot + (S(2) * (bc.q_ddot * Sr * qc) + S(4) * (bc.q_dot * Srd * qc)   // Eq. 10
                           + S(2) * (qdSr * qdc)).v + (bc.q * Srdd * qc).v;
  ac.q_ddot = bc.q_ddot * ab.q + S(2) * (bc.q_dot * ab.q_dot) + bc.q * ab.q_ddot;         // Eq. 11
  return ac;
}
}  // namespace frames_detail

struct QuaternionRates {
  static constexpr const char* name = "quaternion_rates";
  static constexpr const char* summary = "Chrono's storage (q, q_dot, q_ddot): the seed's Eqs. 4-12 as quaternion products";
  static constexpr const char* complexity = "n - 1 compositions of sandwich products";

  template <class S> static void run(std::span<const MovingFrame<S>> chain, MovingFrame<S>& out) {
    out = MovingFrame<S>::identity();
    if (chain.empty()) return;
    frames_detail::RateFrame<S> x = frames_detail::to_rates(chain.front());
    for (std::size_t i = 1; i < chain.size(); ++i) x = frames_detail::compose_rates(frames_detail::to_rates(chain[i]), x);
    const Quaternion<S> qc = x.q.conjugate();
    out.r = x.r;
    out.q = x.q;
    out.r_dot = x.r_dot;
    out.r_ddot = x.r_ddot;
    out.omega = (S(2) * (qc * x.q_dot)).v;   // Eq. 9
    out.alpha = (S(2) * (qc * x.q_ddot)).v;  // Eq. 12; its other term 2 q_dot* q_dot is real
  }
};

}  // namespace rbd
