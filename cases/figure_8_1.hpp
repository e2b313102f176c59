#pragma once
// A closed-loop system built to the text's description of Featherstone's Figure 8.1 (section
// 8.9): the figure's connectivity graph is not in the text, its numbers are. Twenty tree joints
// numbered from 1 as the book numbers them (body j - 1 here) and four loops closed by loop
// joints 21-24; loops 1 and 2 share a joint, so the minimal clusters are {1, 2} on joints 3-7,
// {3} on joints 10-12 and {4} on joints 19-20, the remaining joints on no loop:
//   joints 1-2 lead to cluster 1's subtree (3-7), 8-9 to cluster 2's chain (10-12), 13-18 to
//   cluster 3's (19-20);
//   loop 1 closes 2 -> 5 over joints 3, 4, 5; loop 2 closes 4 -> 7 over 4, 6, 7 (sharing 4);
//   loop 3 closes 9 -> 12 over 10-12; loop 4 closes 18 -> 20 over 19-20.
// Tree joints and loop joints are spherical (3 constraints each), so each cluster keeps some
// freedom and no constraint is redundant. Offsets, bodies and the loop joints' frames are drawn
// from a fixed seed; close_loops (cases/loops.hpp) solves the predecessor frames for a state.
#include <string>
#include <vector>

#include "cases/loops.hpp"
#include "cases/shapes.hpp"

namespace rbd::cases {

struct Figure81 {
  Model<double> model;
  std::vector<LoopSpec> loops;
};

inline Figure81 figure_8_1_text_tree() {
  //                       joint: 1  2  3  4  5  6  7  8  9 10  11  12  13 14  15  16  17  18  19  20
  const int parent_joint[20] = {0, 1, 2, 3, 4, 3, 6, 1, 8, 9, 10, 11, 1, 13, 14, 15, 16, 17, 18, 19};
  Rng rng(81);
  ModelBuilder mb("figure_8_1_text");
  for (int j = 1; j <= 20; ++j)
    add(mb, "joint " + std::to_string(j), parent_joint[j - 1] - 1, make_joint(JointType::Spherical),
        xlt(Vec3d(rng.uniform(0.1, 0.3), rng.uniform(-0.1, 0.1), rng.uniform(-0.1, 0.1))), random_body(rng));
  Figure81 f{mb.finish(), {}};
  const int ends[4][2] = {{2, 5}, {4, 7}, {9, 12}, {18, 20}};  // (p, s) as joint numbers
  for (const auto& e : ends) {
    LoopSpec L;
    L.type = LoopJointType::Spherical;
    L.p = e[0] - 1;
    L.s = e[1] - 1;
    L.XS_quaternion = rng.unit_quaternion();
    for (int c = 0; c < 3; ++c) L.XS_offset[c] = rng.uniform(-0.1, 0.1);
    const Eigen::Vector4d u = rng.unit_quaternion();
    for (int c = 0; c < 4; ++c) L.qJ[c] = u[c];
    f.loops.push_back(L);
  }
  return f;
}

}  // namespace rbd::cases
