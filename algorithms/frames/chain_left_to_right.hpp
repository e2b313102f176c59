#pragma once
// Chrono-style chaining, left to right (seed 000, Eq. 1 and section 6):
// chi_{n,(0)} = chi_{n,(n-1)} >> chi_{n-1,(n-2)} >> ... >> chi_{1,(0)}, each >> one full
// 18-component composition (moving_frame.hpp), the tip's frame pushed down to the root.
#include <span>

#include "frames/moving_frame.hpp"

namespace rbd {

struct ChainLeftToRight {
  static constexpr const char* name = "chain_left_to_right";
  static constexpr const char* summary = "chi_n0 = chi_n,n-1 >> ... >> chi_10: Tasora's >> operator, tip first";
  static constexpr const char* complexity = "n - 1 compositions";

  // chain[i] = chi_{i+1,(i)}: frame i+1 relative to frame i; frame 0 is the ground.
  template <class S> static void run(std::span<const MovingFrame<S>> chain, MovingFrame<S>& out) {
    out = MovingFrame<S>::identity();
    if (chain.empty()) return;
    out = chain.back();
    for (std::size_t i = chain.size() - 1; i-- > 0;) out = out >> chain[i];
  }
};

}  // namespace rbd
