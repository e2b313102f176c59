#pragma once
// The frames family: given a chain of relative moving frames chain[i] = chi_{i+1,(i)}, the
// absolute moving frame chi_{n,(0)} of the last one (position, rotation, velocity and
// acceleration). Each variant is listed once here.
#include <concepts>
#include <span>
#include <string_view>
#include <tuple>

#include "frames/chain_left_to_right.hpp"
#include "frames/chain_right_to_left.hpp"
#include "frames/quaternion_rates.hpp"
#include "frames/spatial_propagation.hpp"

namespace rbd {

template <class V>
concept FrameChainVariant = requires(std::span<const MovingFrame<double>> chain, MovingFrame<double>& out) {
  { V::name } -> std::convertible_to<std::string_view>;
  { V::summary } -> std::convertible_to<std::string_view>;
  { V::complexity } -> std::convertible_to<std::string_view>;
  V::template run<double>(chain, out);
};

using FrameChainVariants = std::tuple<ChainLeftToRight, ChainRightToLeft, QuaternionRates, SpatialPropagation>;

static_assert(FrameChainVariant<ChainLeftToRight> && FrameChainVariant<ChainRightToLeft> &&
              FrameChainVariant<QuaternionRates> && FrameChainVariant<SpatialPropagation>);

// The absolute frame of a chain, with its input checked first (bad input names the link).
template <class V = ChainRightToLeft, class S> MovingFrame<S> absolute_frame(std::span<const MovingFrame<S>> chain) {
  for (std::size_t i = 0; i < chain.size(); ++i) validate_frame(chain[i], "frame chain link " + std::to_string(i));
  MovingFrame<S> out;
  V::template run<S>(chain, out);
  return out;
}

}  // namespace rbd
