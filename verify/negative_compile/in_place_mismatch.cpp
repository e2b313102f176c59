// Must not compile: x *= f with x = chi_{Hand,(World)} and f = chi_{Tool,(Arm)}; x * f needs
// f's base to be x's origin (Table 2, row *=: Res.origin must be Op.base, Hand against Arm).
#include "frames/named_frame.hpp"

struct World;
struct Arm;
struct Hand;
struct Tool;

int main() {
  using F = rbd::MovingFrame<double>;
  rbd::Framed<Hand, World, double> x{F{}};
  const rbd::Framed<Tool, Arm, double> tool_in_arm{F{}};
  x *= tool_in_arm;
}
