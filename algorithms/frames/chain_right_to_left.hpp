#pragma once
// Chaining right to left, root first: chi_{n,(0)} = chi_{1,(0)} * chi_{2,(1)} * ... *
// chi_{n,(n-1)} (seed 000, section 5), the product accumulated from the ground outwards as a
// forward-kinematics loop would. Same compositions as chain_left_to_right, other
// association: the group's associativity makes them equal, round-off does not.
#include <span>

#include "frames/moving_frame.hpp"

namespace rbd {

struct ChainRightToLeft {
  static constexpr const char* name = "chain_right_to_left";
  static constexpr const char* summary = "chi_n0 = chi_10 * chi_21 * ... * chi_n,n-1: the * operator, root first";
  static constexpr const char* complexity = "n - 1 compositions";

  template <class S> static void run(std::span<const MovingFrame<S>> chain, MovingFrame<S>& out) {
    out = MovingFrame<S>::identity();
    if (chain.empty()) return;
    out = chain.front();
    for (std::size_t i = 1; i < chain.size(); ++i) out *= chain[i];
  }
};

}  // namespace rbd
