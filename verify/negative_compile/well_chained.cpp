// The control for the negative-compilation tests (README.md beside): every operation the
// other files misuse, here with subscripts that chain, must compile. It is registered as an
// ordinary test, so a wrong include path or a broken header fails it instead of making the
// negative tests pass for the wrong reason.
#include "frames/named_frame.hpp"

struct World;
struct Arm;
struct Hand;

using rbd::Framed;
using F = rbd::MovingFrame<double>;

int main() {
  const Framed<Hand, Arm, double> hand_in_arm{F{}};
  const Framed<Arm, World, double> arm_in_world{F{}};
  const Framed<Hand, World, double> ltr = hand_in_arm >> arm_in_world;  // row >>
  const Framed<Hand, World, double> rtl = arm_in_world * hand_in_arm;   // row *
  const Framed<World, Hand, double> inv = !ltr;                         // row !
  Framed<Hand, World, double> x = rtl;
  x >>= Framed<World, World, double>::identity();  // row >>=, Op = chi_{b,(b)}
  x *= Framed<Hand, Hand, double>::identity();     // row *=, Op = chi_{a,(a)}
  const rbd::Expressed<Hand, rbd::Vec3<double>> p{rbd::Vec3<double>::Zero()};
  const rbd::Expressed<World, rbd::Vec3<double>> pw = p >> hand_in_arm >> arm_in_world;
  const rbd::Expressed<World, rbd::Vec3<double>> pw2 = arm_in_world * (hand_in_arm * p);
  (void)inv;
  (void)pw;
  (void)pw2;
  return 0;
}
