// Must not compile: x >>= f where x = chi_{Hand,(Arm)} and f = chi_{Arm,(World)} chains, but
// its outcome chi_{Hand,(World)} cannot be stored in x, whose type says (Arm) (Table 2, row >>=;
// the seed's caveat that a typed object keeps its bases). auto y = x >> f is the way.
#include "frames/named_frame.hpp"

struct World;
struct Arm;
struct Hand;

int main() {
  using F = rbd::MovingFrame<double>;
  rbd::Framed<Hand, Arm, double> x{F{}};
  const rbd::Framed<Arm, World, double> arm_in_world{F{}};
  x >>= arm_in_world;
}
