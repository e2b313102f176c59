#pragma once
// The planar rigid body of Featherstone section 10.1 (Figure 10.1, Eq. 10.1), for
// verify/roundoff_study.cpp: unit mass, unit rotational inertia about its centre of mass C,
// C at c = (c_x, c_y) from the origin O; velocity v_C = [1 0 0] and force f_C = [1 -1 1] in
// C coordinates. In O coordinates (planar vectors [omega; v_x; v_y]):
//   I_O a_O = f_O - v_O x* I_O v_O,
//   I_O = [1 + c_x^2 + c_y^2, -c_y, c_x; -c_y, 1, 0; c_x, 0, 1],  f_O = [1 + c_x + c_y; -1; 1],
//   v_O = [1; c_y; -c_x],  v_O x* = [0 c_x c_y; 0 0 -1; 0 1 0],
// whose exact solution is a_O = [1; c_y - 1; 1 - c_x]. Seen at C, a_C = ^C X_O a_O with
// ^C X_O = [1 0 0; -c_y 1 0; c_x 0 1] (the planar motion transform by -c), which is [1 -1 1]
// for every c. Figure 10.2 plots ||a_C - ^C X_O a_O||_inf against |c|, a_O computed in double
// and a_C exact: that is what error_at_C measures.
//
// Both the formulas above and that closed form are checked, not trusted: reference_residual()
// solves the system in 50-digit arithmetic for the given c and returns the largest deviation of
// ^C X_O a_O from [1 -1 1] (the study requires < 1e-40).
#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "cases/shapes.hpp"
#include "reference/reference_scalar.hpp"
#include "verify/support/state.hpp"

namespace rbd::verify::planar {

template <class S> using M3 = Eigen::Matrix<S, 3, 3>;
template <class S> using V3 = Eigen::Matrix<S, 3, 1>;

// I_O and the right-hand side f_O - v_O x* I_O v_O, evaluated in S from the double c (exact
// in Reference; rounded op by op in double, as a program would form them).
template <class S> void system(double cx_d, double cy_d, M3<S>& IO, V3<S>& rhs) {
  const S cx(cx_d), cy(cy_d), one(1);
  IO << one + cx * cx + cy * cy, -cy, cx, -cy, one, S(0), cx, S(0), one;
  const V3<S> fO(one + cx + cy, -one, one);
  const V3<S> vO(one, cy, -cx);
  M3<S> vxs;  // v_O x* for a planar motion vector [w; vx; vy]: [0 -vy vx; 0 0 -w; 0 w 0]
  vxs << S(0), -vO[2], vO[1], S(0), S(0), -vO[0], S(0), vO[0], S(0);
  rhs = fO - vxs * (IO * vO);
}

template <class S> V3<S> at_C(double cx_d, double cy_d, const V3<S>& aO) {
  const S cx(cx_d), cy(cy_d);
  return V3<S>(aO[0], aO[1] - cy * aO[0], aO[2] + cx * aO[0]);
}

enum class Solver { llt, ldlt, lu };
inline const char* solver_name(Solver s) { return s == Solver::llt ? "cholesky_llt" : s == Solver::ldlt ? "ldlt" : "lu_partial_pivoting"; }

inline V3<double> solve_double(double cx, double cy, Solver s) {
  M3<double> IO;
  V3<double> rhs;
  system<double>(cx, cy, IO, rhs);
  switch (s) {
    case Solver::llt: return IO.llt().solve(rhs);
    case Solver::ldlt: return IO.ldlt().solve(rhs);
    default: return IO.partialPivLu().solve(rhs);
  }
}

// Figure 10.2's quantity, in units of eps: ||a_C - ^C X_O a_O||_inf with a_O from double and
// the transform applied exactly (in Reference), so that only the solve's round-off is measured.
inline double error_at_C_eps(double cx, double cy, Solver s) {
  const V3<double> aO = solve_double(cx, cy, s);
  const V3<Reference> aC = at_C<Reference>(cx, cy, aO.cast<Reference>());
  const V3<Reference> exact(Reference(1), Reference(-1), Reference(1));
  return static_cast<double>((aC - exact).cwiseAbs().maxCoeff()) / std::numeric_limits<double>::epsilon();
}

// The error of a_O itself, ||a_O - a_O,exact||_inf / ||a_O,exact||_inf (the section's
// "one part in 10^12" for c = (100, 10)).
inline double relative_error_aO(double cx, double cy, Solver s) {
  const V3<double> aO = solve_double(cx, cy, s);
  const V3<Reference> exact(Reference(1), Reference(cy) - 1, 1 - Reference(cx));
  return static_cast<double>((aO.cast<Reference>() - exact).cwiseAbs().maxCoeff() / exact.cwiseAbs().maxCoeff());
}

// Largest |(^C X_O a_O)_k - [1 -1 1]_k| with a_O solved in Reference.
inline Reference reference_residual(double cx, double cy) {
  M3<Reference> IO;
  V3<Reference> rhs;
  system<Reference>(cx, cy, IO, rhs);
  const V3<Reference> aO = IO.llt().solve(rhs);  // I_O is SPD; Eigen's LLT runs on Reference
  const V3<Reference> aC = at_C<Reference>(cx, cy, aO);
  return (aC - V3<Reference>(Reference(1), Reference(-1), Reference(1))).cwiseAbs().maxCoeff();
}

// The same body as an rbdlab model, so that the forward-dynamics family's variants solve
// Eq. 10.1 themselves: one body on a planar joint (Table 4.1: S = [e_wz e_vx e_vy] in body
// coordinates, cJ = 0, velocities in body coordinates) whose frame is O (q = 0), centre of mass
// (c_x, c_y, 0), rotational inertia about C the identity (only its zz moment, 1, enters planar
// motion), no gravity. Then H = I_O, qd = v_O, tau = S^T f_O, and qdd = a_O.
inline Model<double> body_model(double cx, double cy) {
  ModelBuilder mb("planar_body");
  mb.gravity(cases::Vec3d::Zero());
  mb.add_body("body", -1, cases::make_joint(JointType::Planar), Transform<double>{}, 1.0, cases::Vec3d(cx, cy, 0),
              cases::Mat3d::Identity());
  return mb.finish();
}

inline StateOf<double> body_state(double cx, double cy) {
  StateOf<double> x;
  x.q = VecX<double>::Zero(3);
  x.qd = (VecX<double>(3) << 1, cy, -cx).finished();
  x.qdd = VecX<double>::Zero(3);
  x.tau = (VecX<double>(3) << 1 + cx + cy, -1, 1).finished();  // f_O; its (1) entry rounded once
  x.f_ext.assign(1, Vec6<double>::Zero());
  return x;
}

}  // namespace rbd::verify::planar
