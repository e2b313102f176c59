#pragma once
// From a planar model to the suite's spatial rbd::Model, so the two can be compared
// (section 2.16: planar vectors are spatial vectors with the coordinates omega_x, omega_y and
// v_z removed). Each planar body becomes a spatial body moving in the x-y plane:
//  - revolute joint -> revolute about z; prismatic along (a_x, a_y) -> prismatic along (a_x, a_y, 0);
//  - tree transform Xpln(theta, r) -> rot(rz(theta)) xlt((r_x, r_y, 0));
//  - inertia (m, c, I_C) -> mass m, centre of mass (c_x, c_y, 0) and rotational inertia
//    diag(I_C, I_C, I_C) about it. Izz = I_C is the planar one; the other two moments only have
//    to make a valid 3D body (the triangle inequality holds with all three equal), and with the
//    centre of mass in the plane and no products of inertia, the out-of-plane moment and force
//    that keep the body in its plane do no work, so the planar motion is unchanged;
//  - gravity (g_x, g_y) -> (g_x, g_y, 0).
// Built through rbd::ModelBuilder (validated), so model.cast<T>() makes the exactly rigid model
// in T, as planar::Model::cast<T>() does.
#include <string>

#include "core/transform.hpp"
#include "model/model.hpp"
#include "planar/model.hpp"

namespace rbd::planar {

inline rbd::Model<double> to_spatial(const Model<double>& pm, const std::string& name = "planar") {
  rbd::ModelBuilder b(name);
  b.gravity(Vec3<double>(pm.gravity[0], pm.gravity[1], 0.0));
  for (int i = 0; i < pm.nb; ++i) {
    rbd::Joint<double> j;
    if (pm.joint[i].type == JointType::Revolute) {
      j.type = rbd::JointType::Revolute;
      j.axis = Vec3<double>(0, 0, 1);
    } else {
      j.type = rbd::JointType::Prismatic;
      j.axis = Vec3<double>(pm.joint[i].axis[0], pm.joint[i].axis[1], 0.0);
    }
    const Transform<double>& X = pm.Xtree[i];
    const rbd::Transform<double> XT{rz<double>(X.c, X.s), Vec3<double>(X.r[0], X.r[1], 0.0)};
    b.add_body("b" + std::to_string(i), pm.parent[i], j, XT, pm.mass[i],
               Vec3<double>(pm.com[i][0], pm.com[i][1], 0.0), Mat3<double>::Identity() * pm.Icom[i]);
  }
  rbd::Model<double> m = b.finish();
  for (int i = 0; i < pm.nb; ++i)  // the builder renormalises axes; planar add_body made them exactly unit
    if (pm.joint[i].type == JointType::Prismatic &&
        (m.joint[i].axis[0] != pm.joint[i].axis[0] || m.joint[i].axis[1] != pm.joint[i].axis[1]))
      throw ModelError("to_spatial: body " + std::to_string(i) + "'s prismatic axis changed in the spatial builder");
  return m;
}

}  // namespace rbd::planar
