#pragma once
// Planar composite-rigid-body algorithm: Featherstone Table 6.2 with planar vectors
// (section 2.16), in body coordinates, line for line. The composite inertias stay rigid-body
// inertias, so they are kept in compact form (4 numbers) and carried to the parent by
// add_transform_transpose (planar/inertia.hpp).
#include <string_view>

#include "planar/workspace.hpp"

namespace rbd::planar {

struct Crba {
  static constexpr std::string_view name = "planar_crba";
  static constexpr std::string_view summary =
      "Composite-rigid-body algorithm with planar vectors (Featherstone Table 6.2, section 2.16)";

  // H must be nb x nb on entry (it is not resized: no allocation).
  template <class S> static void run(const Model<S>& model, const VecX<S>& q, MatX<S>& H, Workspace<S>& ws) {
    H.setZero();                                                          // H = 0
    for (int i = 0; i < model.nb; ++i) {
      ws.Xup[i] = jcalc_xup(model.joint[i], model.Xtree[i], q[i]);        // ^iX_lambda(i) = X_J X_T(i)
      ws.IC[i] = model.I[i];                                              // I^c_i = I_i
    }
    for (int i = model.nb - 1; i >= 0; --i) {                             // for i = N_B to 1
      const int lambda = model.parent[i];
      if (lambda >= 0) add_transform_transpose(ws.Xup[i], ws.IC[i], ws.IC[lambda]);  // I^c_lambda += ^lambda X*_i I^c_i ^iX_lambda
      PVec<S> F = inertia_times_S(ws.IC[i], model.joint[i]);              // F = I^c_i S_i
      H(i, i) = St_times(model.joint[i], F);                              // H_ii = S_i^T F
      int j = i;
      while (model.parent[j] >= 0) {                                      // while lambda(j) != 0
        F = ws.Xup[j].apply_transpose(F);                                 //   F = ^lambda(j) X*_j F
        j = model.parent[j];                                              //   j = lambda(j)
        H(i, j) = H(j, i) = St_times(model.joint[j], F);                  //   H_ij = F^T S_j, H_ji = H_ij^T
      }
    }
  }
};

}  // namespace rbd::planar
