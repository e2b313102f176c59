// Must not compile: a point given in Arm's coordinates sent through chi_{Hand,(Arm)}, which
// maps Hand's coordinates to Arm's (Table 2, row >> with the point as Op1: the point must be
// expressed in the frame's origin). Arm to Hand is p >> !hand_in_arm.
#include "frames/named_frame.hpp"

struct Arm;
struct Hand;

int main() {
  using F = rbd::MovingFrame<double>;
  const rbd::Framed<Hand, Arm, double> hand_in_arm{F{}};
  const rbd::Expressed<Arm, rbd::Vec3<double>> p_in_arm{rbd::Vec3<double>::Zero()};
  const auto bad = p_in_arm >> hand_in_arm;
  (void)bad;
}
