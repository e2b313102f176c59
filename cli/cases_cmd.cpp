// `rbdlab cases`: the built-in model ids (MODEL arguments) and the benchmark case families.
#include <iostream>

#include "cases/registry.hpp"
#include "cli/commands.hpp"

namespace rbd::cli {

int run_cases(const Args&) {
  std::cout << "Built-in models (use as MODEL in rbdlab eval/verify/bench; syntax in cases/README.md):\n"
               "  gu:N[:seed=S]                       GU(N) of Featherstone section 10.3\n"
               "  tree:bf=B:nb=N[:skew=K][:taper=T]   spatial_v2's autoTree (bf = 1 chain, 2 binary tree)\n"
               "  planar_chain:nb=N                   N identical planar links (section 10.2)\n"
               "  zigzag                              the six-link mechanism of section 10.2\n"
               "  all_joints[:seed=S]                 every joint type of Table 4.1 in one tree\n"
               "  joint:<name>                        one joint at the root + a revolute child\n"
               "  dh:puma_like                        a PUMA-560-like DH chain (section 4.3)\n"
               "  urdf:<robot>                        ur5, panda, iiwa14, solo12 (../shared/cases/urdf)\n"
               "\nThe verify cases (what make verify runs every gate on):\n";
  for (const auto& spec : cases::verify_cases()) {
    std::cout << "  " << spec.id;
    for (std::size_t k = 1; k < spec.tags.size(); ++k) std::cout << (k == 1 ? "   [" : ", ") << spec.tags[k];
    std::cout << (spec.tags.size() > 1 ? "]" : "") << "\n";
  }
  std::cout << "\nBenchmark cases (names family/variant/<case>/n:N in reports/data/bench.json):\n"
               "  gu, tree_bf1 (chain), tree_bf2 (binary tree), tree_bf1.5 at n = 1, 2, 4, ..., 256;\n"
               "  ur5, panda, iiwa14, solo12 at n = their nv\n";
  return 0;
}

}  // namespace rbd::cli
