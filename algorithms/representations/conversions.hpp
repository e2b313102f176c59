#pragma once
// Between Traversaro & Saccon's linear-first 6D vectors and the other orderings
// (seed 002, Appendix A.1; DESIGN.md section 10):
//  - Featherstone / rbdlab core / RBDL / MuJoCo: angular first, [omega; v], [n; f];
//  - Pinocchio: linear first, the same ordering as the seed (pinocchio::Motion is [v; w],
//    Force [f; n]), so the conversion is the identity on the numbers: it exists to say so.
// A twist in the seed's B_v_A,B equals Featherstone's body velocity v_B (in B coordinates)
// with the halves swapped; A_X_B equals Featherstone's ^A X_B conjugated by the swap P.
// rbdlab's core Transform X = rot(E) xlt(r) is Featherstone's ^B X_A with E = B_R_A and
// r = A_o_B, so a pose A_H_B and a Transform carry the same numbers rearranged.
// Every conversion is a permutation or a transpose: exact in any precision.
#include "core/transform.hpp"
#include "representations/se3.hpp"

namespace rbd::ts {

// P = [0 1; 1 0] (3x3 blocks): swaps the halves; P = P^T = P^-1.
template <class S> Vec6<S> swap_halves(const Vec6<S>& x) {
  Vec6<S> y;
  y << x.template tail<3>(), x.template head<3>();
  return y;
}
template <class S> Mat6<S> swap_halves(const Mat6<S>& M) {  // P M P
  Mat6<S> N;
  N << M.template bottomRightCorner<3, 3>(), M.template bottomLeftCorner<3, 3>(),
       M.template topRightCorner<3, 3>(), M.template topLeftCorner<3, 3>();
  return N;
}

template <class S> Vec6<S> to_featherstone(const Vec6<S>& x) { return swap_halves<S>(x); }
template <class S> Vec6<S> from_featherstone(const Vec6<S>& x) { return swap_halves<S>(x); }
template <class S> Mat6<S> to_featherstone(const Mat6<S>& M) { return swap_halves<S>(M); }
template <class S> Mat6<S> from_featherstone(const Mat6<S>& M) { return swap_halves<S>(M); }
template <class S> Vec6<S> to_pinocchio(const Vec6<S>& x) { return x; }
template <class S> Vec6<S> from_pinocchio(const Vec6<S>& x) { return x; }

// A_H_B <-> rbdlab's Transform ^B X_A (core/transform.hpp).
template <class S> rbd::Transform<S> to_transform(const Pose<S>& A_H_B) { return rbd::Transform<S>{A_H_B.R.transpose(), A_H_B.o}; }
template <class S> Pose<S> from_transform(const rbd::Transform<S>& B_X_A) { return Pose<S>{B_X_A.E.transpose(), B_X_A.r}; }

}  // namespace rbd::ts
