#pragma once
// The same chain as a kinematic tree of one branch, in Plücker coordinates with rbdlab's own
// core spatial types (Featherstone ch. 2-3, angular first): frame i+1 relative to frame i
// becomes the coordinate transform X_i = rot(A_i^T) xlt(r_i) (core/transform.hpp), the
// relative spatial velocity vJ_i = [omega_i; A_i^T r_dot_i] at the child origin in child
// coordinates, and its apparent derivative in the child's coordinates
// cJ_i = [alpha_i; A_i^T r_ddot_i - omega_i x A_i^T r_dot_i] (the derivative of A_i^T r_dot_i
// with d/dt A^T = -[omega x] A^T). Then, as in the RNEA in body coordinates (Eqs. 5.18-5.19),
//   v_i = X_i v_{i-1} + vJ_i,   a_i = X_i a_{i-1} + cJ_i + v_i x vJ_i,
// and the last body's frame is read off the spatial quantities: omega = ang(v),
// r_dot = A lin(v), alpha = ang(a), r_ddot = A (lin(a) + omega x lin(v)) (the classical
// acceleration of the origin, Eqs. 2.47-2.50), q from the accumulated E by Shepperd.
#include <span>

#include "core/transform.hpp"
#include "frames/moving_frame.hpp"

namespace rbd {

struct SpatialPropagation {
  static constexpr const char* name = "spatial_propagation";
  static constexpr const char* summary = "Plücker transforms and spatial velocity/acceleration recursion (core/ types)";
  static constexpr const char* complexity = "n transform products and motion-vector updates";

  template <class S> static void run(std::span<const MovingFrame<S>> chain, MovingFrame<S>& out) {
    Transform<S> X0 = Transform<S>::identity();  // ^iX_0
    Vec6<S> v = Vec6<S>::Zero(), a = Vec6<S>::Zero();
    for (const MovingFrame<S>& f : chain) {
      const Mat3<S> E = f.q.matrix().transpose();
      const Transform<S> X{E, f.r};
      const Vec3<S> vl = E * f.r_dot;
      const Vec6<S> vJ = join<S>(f.omega, vl);
      const Vec6<S> cJ = join<S>(f.alpha, Vec3<S>(E * f.r_ddot - f.omega.cross(vl)));
      v = X.apply(v) + vJ;
      a = X.apply(a) + cJ + crm<S>(v, vJ);
      X0 = X * X0;
    }
    const Mat3<S> A = X0.E.transpose();
    out.r = X0.r;
    out.q = quaternion_from_matrix<S>(A);
    out.omega = ang(v);
    out.r_dot = A * lin(v);
    out.alpha = ang(a);
    out.r_ddot = A * (lin(a) + out.omega.cross(lin(v)));
  }
};

}  // namespace rbd
