// Must not compile: chi_{Hand,(Arm)} >> chi_{Elbow,(World)} does not chain (Table 2, row >>:
// Op1.base must be Op2.origin, here Arm against Elbow).
#include "frames/named_frame.hpp"

struct World;
struct Elbow;
struct Arm;
struct Hand;

int main() {
  using F = rbd::MovingFrame<double>;
  const rbd::Framed<Hand, Arm, double> hand_in_arm{F{}};
  const rbd::Framed<Elbow, World, double> elbow_in_world{F{}};
  const auto bad = hand_in_arm >> elbow_in_world;
  (void)bad;
}
