#pragma once
// Closed-loop mechanisms as MJCF, read as a user's files are (cases/mjcf_loader.hpp: <equality>
// connect/weld as loop joints), for the accuracy sweep, the MuJoCo peer test and the loop
// benchmarks:
//   mjcf:four_bar           examples/mjcf/four_bar.xml (section 8.10's planar four-bar, closed by
//                           a <connect>: one redundant constraint)
//   mjcf:five_bar           examples/mjcf/five_bar.xml (two arms joined by a <connect>: mobility 2)
//   mjcf:stewart_platform   examples/mjcf/stewart_platform.xml (6-UPS: six <connect>s, nv = 24)
//   mjcf:humanoid_standing  the 37-DoF floating humanoid of cases/humanoid.hpp exported to MJCF
//                           (cases/mjcf_export.hpp) with both feet <weld>ed to the ground where
//                           the neutral pose puts them: 12 constraints, mobility 25; generated
//                           here, not committed (the exporter is the single source of its numbers).
#include <string>
#include <vector>

#include "cases/humanoid.hpp"
#include "cases/mjcf_export.hpp"
#include "cases/mjcf_loader.hpp"

namespace rbd::cases {

inline std::string humanoid_standing_mjcf() {
  const Model<double> m = humanoid(1);
  int left = -1, right = -1;
  for (int i = 0; i < m.nb; ++i) {
    if (m.body_name[i] == "left_foot") left = i;
    if (m.body_name[i] == "right_foot") right = i;
  }
  if (left < 0 || right < 0) throw std::logic_error("humanoid_standing_mjcf: the humanoid has no left_foot/right_foot");
  std::string xml = to_mjcf(m);  // bodies are named b<i> after rbdlab's index
  const std::string welds = "  <equality>\n    <weld name=\"left_sole\" body1=\"b" + std::to_string(left) +
                            "\"/>\n    <weld name=\"right_sole\" body1=\"b" + std::to_string(right) + "\"/>\n  </equality>\n";
  xml.insert(xml.rfind("</mujoco>"), welds);
  return xml;
}

struct ClosedMjcfCase {
  std::string id;
  MjcfModel mj;
};

// The four mechanisms above; source_dir is the repository's root (examples/mjcf/).
inline std::vector<ClosedMjcfCase> closed_mjcf_cases(const std::string& source_dir) {
  std::vector<ClosedMjcfCase> out;
  for (const std::string name : {"four_bar", "five_bar", "stewart_platform"})
    out.push_back({"mjcf:" + name, load_mjcf(source_dir + "/examples/mjcf/" + name + ".xml")});
  out.push_back({"mjcf:humanoid_standing", load_mjcf_text(humanoid_standing_mjcf(), "humanoid_standing")});
  return out;
}

}  // namespace rbd::cases
