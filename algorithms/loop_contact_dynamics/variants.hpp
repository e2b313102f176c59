#pragma once
// The loop-contact family: forward dynamics of a tree with loop joints (chapter 8,
// model/loop_joint.hpp) and frictionless point contacts (chapter 11, model/contact.hpp), solved
// together -- a legged robot with linkage knees standing on its feet, a parallel mechanism
// resting on a table. Given q, qd closing the loops (position and velocity) with every contact in
// state 3 of Figure 11.4 (phi = 0, zeta = 0), and the tree's joint forces tau, every variant
// returns the tree's qdd:
//   run(model, loops, contacts, q, qd, tau, f_ext, qdd, ws);  ws.contact.lambda holds the contact forces.
// qdd is unique whenever the LCP has a solution (M is positive semi-definite: section 11.5's
// property 2 holds for the constrained system); the contact forces are unique when the contact
// rows are independent on the loops' null space, the loop multipliers when K also has full rank.
#include <concepts>
#include <tuple>

#include "loop_contact_dynamics/loop_contact_lambda_first.hpp"
#include "loop_contact_dynamics/loop_contact_nullspace.hpp"

namespace rbd {

template <class V>
concept LoopContactVariant = requires(const Model<double>& m, const LoopJoints<double>& l,
                                      const PointContacts<double>& c, const VecX<double>& x, VecX<double>& out,
                                      LoopContactWorkspace<double>& ws) {
  { V::name } -> std::convertible_to<std::string_view>;
  { V::summary } -> std::convertible_to<std::string_view>;
  { V::template applicable<double>(m) } -> std::same_as<bool>;
  V::template run<double>(m, l, c, x, x, x, static_cast<const ExternalForces<double>*>(nullptr), out, ws);
};

using LoopContactVariants = std::tuple<LoopContactNullspace, LoopContactLambdaFirst>;

static_assert(LoopContactVariant<LoopContactNullspace> && LoopContactVariant<LoopContactLambdaFirst>);

}  // namespace rbd
