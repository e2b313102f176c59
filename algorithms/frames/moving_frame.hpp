#pragma once
// A moving frame chi = {r, q, r_dot, omega, r_ddot, alpha} (Tasora, seed 000, section 2):
// the pose of a child frame in its parent (origin r in parent coordinates, unit quaternion
// q scalar first, A(q) maps child to parent coordinates), the velocity r_dot and the
// acceleration r_ddot of its origin (parent coordinates, time derivatives of r), and its
// angular velocity omega and angular acceleration alpha relative to the parent, both in
// the child's own coordinates (as the seed defines them). Chrono stores q_dot and q_ddot
// instead (seed section 4); frames/quaternion_rates.hpp evaluates that form.
//
// Composition, following the seed's subscripts chi_{a,(c)} = chi_{a,(b)} >> chi_{b,(c)}
// (Eq. 2) and chi_{c,(a)} = chi_{b,(a)} * chi_{c,(b)} (section 5), so a >> b == b * a.
// The formulas are the rigid-body kinematics of a frame a moving in a frame b that itself
// moves in c, derived here from r_ac = r_bc + A_bc r_ab and A_ac = A_bc A_ab:
//   r_dot_ac  = r_dot_bc + A_bc (omega_bc x r_ab + r_dot_ab)
//   r_ddot_ac = r_ddot_bc + A_bc (alpha_bc x r_ab + omega_bc x (omega_bc x r_ab)
//                                  + 2 omega_bc x r_dot_ab + r_ddot_ab)
//   omega_ac  = A_ab^T omega_bc + omega_ab
//   alpha_ac  = A_ab^T alpha_bc + alpha_ab + (A_ab^T omega_bc) x omega_ab
// (the last from d/dt A_ab^T = -[omega_ab x] A_ab^T). The seed's quaternion forms of the same
// (Eqs. 7-12) are checked against these in verify/test_frames_seed.cpp.
#include <stdexcept>
#include <string>

#include "frames/quaternion.hpp"

namespace rbd {

// A point moving in a frame: position, velocity and acceleration in that frame's coordinates.
template <class S> struct MovingPoint {
  Vec3<S> p = Vec3<S>::Zero(), p_dot = Vec3<S>::Zero(), p_ddot = Vec3<S>::Zero();
};

template <class S> struct MovingFrame {
  Vec3<S> r = Vec3<S>::Zero();
  Quaternion<S> q{};
  Vec3<S> r_dot = Vec3<S>::Zero();
  Vec3<S> omega = Vec3<S>::Zero();
  Vec3<S> r_ddot = Vec3<S>::Zero();
  Vec3<S> alpha = Vec3<S>::Zero();

  // chi_I = {0, 1, 0, 0, 0, 0} (seed Theorem 1).
  static MovingFrame identity() { return MovingFrame{}; }

  // A point moving in this (child) frame, seen from the parent: p_c = r + A p and its two
  // time derivatives (the translational rows of the composition above).
  MovingPoint<S> to_parent(const MovingPoint<S>& x) const { return to_parent(q.matrix(), x); }
  MovingPoint<S> to_parent(const Mat3<S>& A, const MovingPoint<S>& x) const {
    const Vec3<S> wxp = omega.cross(x.p);
    MovingPoint<S> y;
    y.p = r + A * x.p;
    y.p_dot = r_dot + A * (wxp + x.p_dot);
    y.p_ddot = r_ddot + A * (alpha.cross(x.p) + omega.cross(wxp) + S(2) * omega.cross(x.p_dot) + x.p_ddot);
    return y;
  }
  // The inverse map: a point moving in the parent, seen from this frame.
  MovingPoint<S> to_local(const MovingPoint<S>& y) const {
    const Mat3<S> At = q.matrix().transpose();
    MovingPoint<S> x;
    x.p = At * (y.p - r);
    const Vec3<S> wxp = omega.cross(x.p);
    x.p_dot = At * (y.p_dot - r_dot) - wxp;
    x.p_ddot = At * (y.p_ddot - r_ddot) - alpha.cross(x.p) - omega.cross(wxp) - S(2) * omega.cross(x.p_dot);
    return x;
  }
  // Positions and free vectors only (no motion): r + A p and A d.
  Vec3<S> point_to_parent(const Vec3<S>& p) const { return r + q.rotate(p); }
  Vec3<S> direction_to_parent(const Vec3<S>& d) const { return q.rotate(d); }

  // chi^{-1}: the parent seen from the child. With W = A omega, W_dot = A alpha (the
  // angular velocity and acceleration in parent coordinates), differentiating
  // r_inv = -A^T r twice with d/dt A^T = -A^T [W x] gives
  //   r_dot_inv  = A^T (-r_dot + W x r)
  //   r_ddot_inv = A^T (-r_ddot + 2 W x r_dot + W_dot x r - W x (W x r)),
  // and omega_inv = -W, alpha_inv = -W_dot: the parent turns the opposite way relative to
  // the child, and the parent's coordinates are the inverse's own. This replaces the seed's
  // Eqs. 19-23 (see README.md for what is printed wrong there).
  MovingFrame inverse() const {
    const Mat3<S> A = q.matrix();
    const Mat3<S> At = A.transpose();
    const Vec3<S> W = A * omega, Wd = A * alpha;
    const Vec3<S> Wxr = W.cross(r);
    MovingFrame f;
    f.q = q.conjugate();
    f.r = -(At * r);
    f.r_dot = At * (Wxr - r_dot);
    f.r_ddot = At * (S(2) * W.cross(r_dot) + Wd.cross(r) - W.cross(Wxr) - r_ddot);
    f.omega = -W;
    f.alpha = -Wd;
    return f;
  }

  template <class T> MovingFrame<T> cast() const {
    auto c = [](const Vec3<S>& x) { return Vec3<T>(x.unaryExpr([](const S& s) { return scalar_cast<T>(s); })); };
    return MovingFrame<T>{c(r), q.template cast<T>(), c(r_dot), c(omega), c(r_ddot), c(alpha)};
  }
};

// chi_{a,(c)} = chi_{a,(b)} >> chi_{b,(c)} (seed Eq. 2), by the formulas at the top.
template <class S> MovingFrame<S> compose(const MovingFrame<S>& ab, const MovingFrame<S>& bc) {
  const Mat3<S> A_bc = bc.q.matrix();
  const Mat3<S> A_abT = ab.q.matrix().transpose();
  const MovingPoint<S> o = bc.to_parent(A_bc, MovingPoint<S>{ab.r, ab.r_dot, ab.r_ddot});
  const Vec3<S> w_bc_in_a = A_abT * bc.omega;
  MovingFrame<S> ac;
  ac.r = o.p;
  ac.r_dot = o.p_dot;
  ac.r_ddot = o.p_ddot;
  ac.q = bc.q * ab.q;  // Eq. 6
  ac.omega = w_bc_in_a + ab.omega;
  ac.alpha = A_abT * bc.alpha + ab.alpha + w_bc_in_a.cross(ab.omega);
  return ac;
}

// The seed's operators (section 4, Table 1): >> chains left to right, * right to left.
template <class S> MovingFrame<S> operator>>(const MovingFrame<S>& ab, const MovingFrame<S>& bc) { return compose(ab, bc); }
template <class S> MovingFrame<S> operator*(const MovingFrame<S>& bc, const MovingFrame<S>& ab) { return compose(ab, bc); }
// In place, with C++'s meaning of op=: x >>= f is x = x >> f, x *= f is x = x * f.
template <class S> MovingFrame<S>& operator>>=(MovingFrame<S>& x, const MovingFrame<S>& f) { return x = compose(x, f); }
template <class S> MovingFrame<S>& operator*=(MovingFrame<S>& x, const MovingFrame<S>& f) { return x = compose(f, x); }
// Points: p >> f1 >> f2 == f2 * f1 * p (seed section 4); only vectors are carried along.
template <class S> MovingPoint<S> operator>>(const MovingPoint<S>& p, const MovingFrame<S>& f) { return f.to_parent(p); }
template <class S> MovingPoint<S> operator*(const MovingFrame<S>& f, const MovingPoint<S>& p) { return f.to_parent(p); }
template <class S> Vec3<S> operator>>(const Vec3<S>& p, const MovingFrame<S>& f) { return f.point_to_parent(p); }
template <class S> Vec3<S> operator*(const MovingFrame<S>& f, const Vec3<S>& p) { return f.point_to_parent(p); }
// The inverse element (the seed overloads ! for it).
template <class S> MovingFrame<S> operator!(const MovingFrame<S>& f) { return f.inverse(); }

// Bad input: a frame whose numbers are not finite or whose quaternion is not unit to within
// sqrt(eps) (a quaternion rounded from a higher precision is unit to a few eps; one that is
// off by more was never normalised). `where` names the frame in the message.
template <class S> void validate_frame(const MovingFrame<S>& f, const std::string& where) {
  using std::isfinite;
  auto finite = [](const Vec3<S>& x) { return isfinite(x.x()) && isfinite(x.y()) && isfinite(x.z()); };
  const char* bad = !finite(f.r) ? "r" : !isfinite(f.q.w) || !finite(f.q.v) ? "q" : !finite(f.r_dot) ? "r_dot"
                  : !finite(f.omega) ? "omega" : !finite(f.r_ddot) ? "r_ddot" : !finite(f.alpha) ? "alpha" : nullptr;
  if (bad) throw std::invalid_argument(where + ": component " + bad + " is not finite");
  const S tol = sqrt_(S(Eigen::NumTraits<S>::epsilon()));
  if (abs_(S(f.q.squared_norm() - S(1))) > tol)
    throw std::invalid_argument(where + ": quaternion q is not unit (|q|^2 - 1 exceeds sqrt(eps))");
}

}  // namespace rbd
