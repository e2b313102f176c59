// Must not compile: the inverse of chi_{Hand,(World)} stored as if it were chi_{Hand,(World)}
// again (Table 2, row !: Res.origin must be Op.base and Res.base must be Op.origin).
#include "frames/named_frame.hpp"

struct World;
struct Hand;

int main() {
  using F = rbd::MovingFrame<double>;
  const rbd::Framed<Hand, World, double> hand_in_world{F{}};
  const rbd::Framed<Hand, World, double> bad = !hand_in_world;
  (void)bad;
}
