// Must not compile: the right-to-left product written in left-to-right order,
// chi_{Hand,(Arm)} * chi_{Arm,(World)} (Table 2, row *: Op2.base must be Op1.origin, here
// World against Hand). The same two frames chain as chi_{Arm,(World)} * chi_{Hand,(Arm)}.
#include "frames/named_frame.hpp"

struct World;
struct Arm;
struct Hand;

int main() {
  using F = rbd::MovingFrame<double>;
  const rbd::Framed<Hand, Arm, double> hand_in_arm{F{}};
  const rbd::Framed<Arm, World, double> arm_in_world{F{}};
  const auto bad = hand_in_arm * arm_in_world;
  (void)bad;
}
