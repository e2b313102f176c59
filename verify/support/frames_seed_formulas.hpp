#pragma once
// The printed formulas of Tasora's seed (000_ad2e670b76495bd5.txt) evaluated literally, and
// the corrected forms where the printed one is wrong, for verify/test_frames_seed.cpp and
// verify/frames_study.cpp. Frames are taken in the seed's quaternion-rate form (q, q_dot,
// q_ddot); q^{-1} = q* for the unit quaternions used here.
#include "frames/quaternion_rates.hpp"

namespace rbd::verify::frames {

template <class S> using Q = Quaternion<S>;
template <class S> using Rates = rbd::frames_detail::RateFrame<S>;
template <class S> Rates<S> rates(const MovingFrame<S>& f) { return rbd::frames_detail::to_rates(f); }

// Eq. 7's right-hand side as a quaternion, for chi_ac = chi_ab >> chi_bc:
// S(r_dot_bc) + 2 q_dot_bc S(r_ab) q_bc* + q_bc S(r_dot_ab) q_bc*. Its left side S(r_dot_ac) is pure.
template <class S> Q<S> eq7_rhs(const MovingFrame<S>& ab, const MovingFrame<S>& bc) {
  const Rates<S> x = rates(bc);
  return Q<S>::pure(bc.r_dot) + S(2) * (x.q_dot * Q<S>::pure(ab.r) * bc.q.conjugate()) +
         bc.q * Q<S>::pure(ab.r_dot) * bc.q.conjugate();
}
// The step before Eq. 7, exact by the product rule: q_dot S q* + q S q_dot* (pure).
template <class S> Q<S> eq7_product_rule(const MovingFrame<S>& ab, const MovingFrame<S>& bc) {
  const Rates<S> x = rates(bc);
  return Q<S>::pure(bc.r_dot) + x.q_dot * Q<S>::pure(ab.r) * bc.q.conjugate() +
         bc.q * Q<S>::pure(ab.r) * x.q_dot.conjugate() + bc.q * Q<S>::pure(ab.r_dot) * bc.q.conjugate();
}

// Eq. 10's right-hand side as a quaternion.
template <class S> Q<S> eq10_rhs(const MovingFrame<S>& ab, const MovingFrame<S>& bc) {
  const Rates<S> x = rates(bc);
  const Q<S> qc = bc.q.conjugate();
  return Q<S>::pure(bc.r_ddot) + S(2) * (x.q_ddot * Q<S>::pure(ab.r) * qc) + S(4) * (x.q_dot * Q<S>::pure(ab.r_dot) * qc) +
         S(2) * (x.q_dot * Q<S>::pure(ab.r) * x.q_dot.conjugate()) + bc.q * Q<S>::pure(ab.r_ddot) * qc;
}

// Eq. 12 in full: 2 q_dot* q_dot + 2 q* q_ddot (its scalar part must vanish).
template <class S> Q<S> eq12_full(const MovingFrame<S>& f) {
  const Rates<S> x = rates(f);
  return S(2) * (x.q_dot.conjugate() * x.q_dot) + S(2) * (f.q.conjugate() * x.q_ddot);
}

// The left inverse chi_ab of chi_bc (seed Theorem 2). Eq. 19: S(r_ab) = -q^-1 S(r_bc) q*^-1.
template <class S> Q<S> eq19(const MovingFrame<S>& bc) {
  return -(bc.q.conjugate() * Q<S>::pure(bc.r) * bc.q);
}
// Eq. 21: q^-1 (-S(r_dot_bc) + 2 q_dot q^-1 S(r_bc)) q*^-1.
template <class S> Q<S> eq21(const MovingFrame<S>& bc) {
  const Rates<S> x = rates(bc);
  const Q<S> qi = bc.q.conjugate();
  return qi * (-Q<S>::pure(bc.r_dot) + S(2) * (x.q_dot * qi * Q<S>::pure(bc.r))) * bc.q;
}
// Eq. 22: q_dot_ab = -q^-1 q_dot q^-1.
template <class S> Q<S> eq22(const MovingFrame<S>& bc) {
  const Rates<S> x = rates(bc);
  return -(bc.q.conjugate() * x.q_dot * bc.q.conjugate());
}
// Eq. 23 as printed: q^-1 (q_ddot - 2 q_dot q^-1 q_dot) q^-1.
template <class S> Q<S> eq23_printed(const MovingFrame<S>& bc) {
  const Rates<S> x = rates(bc);
  const Q<S> qi = bc.q.conjugate();
  return qi * (x.q_ddot - S(2) * (x.q_dot * qi * x.q_dot)) * qi;
}
// Corrected: the second derivative of q^-1 is -q^-1 (q_ddot - 2 q_dot q^-1 q_dot) q^-1.
template <class S> Q<S> eq23_corrected(const MovingFrame<S>& bc) { return -eq23_printed(bc); }

// The unnumbered acceleration formula of the left inverse (between Eqs. 22 and 23), read
// literally with its brackets as printed:
// q^-1 [-S(r_ddot) + 2 q_dot q^-1 S(r_dot) + 4 q_dot q^-1 S(r_dot) - 2 q_dot q^-1 S(r)]
//   + 2 q_dot q^-1 S(r) q^-1 q_dot* q*^-1.
template <class S> Q<S> inverse_acceleration_printed(const MovingFrame<S>& bc) {
  const Rates<S> x = rates(bc);
  const Q<S> qi = bc.q.conjugate(), Wh = x.q_dot * qi;  // q_dot q^-1
  const Q<S> bracket = -Q<S>::pure(bc.r_ddot) + S(2) * (Wh * Q<S>::pure(bc.r_dot)) + S(4) * (Wh * Q<S>::pure(bc.r_dot)) -
                       S(2) * (Wh * Q<S>::pure(bc.r));
  return qi * bracket + S(2) * (Wh * Q<S>::pure(bc.r) * qi * x.q_dot.conjugate() * bc.q);
}
// Corrected, in the seed's quaternion language: with W = 2 q_dot q^-1 (the angular velocity
// in the parent, a pure quaternion), W_dot = 2 q_ddot q^-1 - 2 q_dot q^-1 q_dot q^-1 (its
// derivative) and the cross product W x y = vec(W S(y)) of pure quaternions,
//   r_ddot_ab = A^T (-r_ddot + 2 W x r_dot + W_dot x r - W x (W x r)),
// evaluated below as vec(q^-1 S(...) q) (derived by differentiating r_ab = -A^T r twice).
template <class S> Vec3<S> inverse_acceleration_corrected(const MovingFrame<S>& bc) {
  const Rates<S> x = rates(bc);
  const Q<S> qi = bc.q.conjugate();
  const Q<S> W = S(2) * (x.q_dot * qi);
  const Q<S> Wd = S(2) * (x.q_ddot * qi) - S(2) * (x.q_dot * qi * x.q_dot * qi);
  const Vec3<S> Wxr = (W * Q<S>::pure(bc.r)).v;
  const Q<S> inner = -Q<S>::pure(bc.r_ddot) + S(2) * Q<S>::pure((W * Q<S>::pure(bc.r_dot)).v) +
                     Q<S>::pure((Wd * Q<S>::pure(bc.r)).v) - Q<S>::pure((W * Q<S>::pure(Wxr)).v);
  return (qi * inner * bc.q).v;
}

}  // namespace rbd::verify::frames
