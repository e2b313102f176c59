#pragma once
// Section 8.11's loop-closure function for a planar five-bar (examples/mjcf/five_bar.xml: two
// two-link arms on ground pivots, their distal links joined at P by a spherical loop joint),
// for closure_function_dynamics (closed_loop_dynamics/closure_function.hpp). The independent
// variables are the two base joints, y = (q0, q2): a five-bar parallel robot's actuated angles.
//
// The geometry is read from the model and the loop joint, not typed in, so the closure is exact
// for the model as loaded (in Reference, to ~50 digits, although the file gives its angles to
// 1e-10 degrees): the tree must be body 0 (a revolute joint on the base), body 1 (on 0), body 2
// (on the base), body 3 (on 2), every joint about +z, every tree transform a rotation about z,
// and the loop joint spherical between bodies 1 and 3; anything else is refused. With planar
// poses (angle A_i, position P_i) composed from the tree transforms and the joint angles, the
// elbows are E_L = P_1, E_R = P_3 (functions of y alone), and the loop's two frame origins must
// meet at P: P = E_L + u_L = E_R + u_R with |u_L| = rho_L, |u_R| = rho_R (the frame origins'
// distances from the elbows, in the distal links' xy-planes). So P is where the circles of radius
// rho_L about E_L and rho_R about E_R meet: with e = E_R - E_L, L = |e|,
//   x = (rho_L^2 - rho_R^2 + L^2) / (2 L),  h = sign sqrt(rho_L^2 - x^2),  P = E_L + (x e + h J e) / L,
// J(v) = (-v_y, v_x) a quarter turn, and `sign` the branch the drawn pose (q = 0) is on. The
// distal links' absolute angles follow from u_L and u_R, then q1 and q3.
//
// Rates. With w_i the absolute angular rates, E_L' = w_0 J (E_L - P_0), u_L' = w_1 J u_L (and
// the same on the right); differentiating the closure,
//   w_1 J u_L - w_3 J u_R = E_R' - E_L' =: v,
// and dotting with u_R, then u_L (J a . b = a x b, the planar cross product),
//   w_1 = (v . u_R) / (u_L x u_R),   w_3 = (v . u_L) / (u_L x u_R);
// qd = (w_0, w_1 - w_0, w_2, w_3 - w_2) with (w_0, w_2) = yd, so G's columns are qd at yd = e_1
// and e_2. Accelerations with ydd = 0 (Eq. 8.60's g = Gdot yd): E_L'' = -w_0^2 (E_L - P_0) and
// (w_1 J u_L)' = w_1' J u_L - w_1^2 u_L, so
//   w_1' J u_L - w_3' J u_R = r,   r = w_0^2 (E_L - P_0) + w_1^2 u_L - w_2^2 (E_R - P_2) - w_3^2 u_R,
// the same 2x2 system, and g = (0, w_1', 0, w_3'). The determinant u_L x u_R vanishes where the
// two distal links are aligned (P on the line through the elbows: the five-bar's singularity);
// evaluate refuses |sin| < 1e-6 there, as four_bar_state does, and y where the circles miss.
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/so3.hpp"
#include "model/loop_joint.hpp"
#include "model/model.hpp"

namespace rbd::cases {

template <class S> struct FiveBarClosure {
  // Per arm: the base pivot (P_0 or P_2), the base body's tree angle, the elbow's offset and
  // angle in the base body, the distal body's tree angle, and the loop frame's origin in it.
  struct Arm {
    S pivot_x, pivot_y, base_angle, elbow_x, elbow_y, distal_angle, anchor_x, anchor_y;
  };
  Arm left{}, right{};
  S sign = S(1);  // the circle intersection's branch (the drawn pose's)

  FiveBarClosure(const Model<S>& m, const LoopJoint<S>& loop) {
    auto refuse = [](const std::string& why) {
      throw std::invalid_argument("FiveBarClosure: " + why + " (a planar five-bar as examples/mjcf/five_bar.xml is expected)");
    };
    if (m.nb != 4 || m.parent != std::vector<int>{-1, 0, -1, 2}) refuse("the tree is not bodies 0-1 and 2-3 on the base");
    for (int i = 0; i < 4; ++i) {
      const Joint<S>& j = m.joint[i];
      if (j.type != JointType::Revolute || !(j.axis == Vec3<S>::UnitZ())) refuse("joint " + std::to_string(i) + " is not revolute about +z");
      const Mat3<S>& E = m.Xtree[i].E;
      if (E(0, 2) != S(0) || E(1, 2) != S(0) || E(2, 0) != S(0) || E(2, 1) != S(0) || E(2, 2) != S(1) ||
          m.Xtree[i].r[2] != S(0))
        refuse("the tree transform of body " + std::to_string(i) + " is not a planar motion about z");
    }
    if (loop.type != LoopJointType::Spherical) refuse("the loop joint is not spherical");
    const bool forward = loop.p == 1 && loop.s == 3, backward = loop.p == 3 && loop.s == 1;
    if (!forward && !backward) refuse("the loop joint does not join bodies 1 and 3");
    const Vec3<S> a1 = forward ? loop.XP.r : loop.XS.r, a3 = forward ? loop.XS.r : loop.XP.r;
    if (abs_(S(a1[2] - a3[2])) > S(1e-9) * (S(1) + a1.norm()))
      refuse("the loop joint's frame origins are at different heights: the loop cannot close in the plane");
    auto arm = [&](int base, int distal, const Vec3<S>& anchor) {
      // E = Rz(theta)^T for a tree transform rotating by theta about z: E(0, 1) = sin theta.
      return Arm{m.Xtree[base].r[0], m.Xtree[base].r[1], atan2_(m.Xtree[base].E(0, 1), m.Xtree[base].E(0, 0)),
                 m.Xtree[distal].r[0], m.Xtree[distal].r[1], atan2_(m.Xtree[distal].E(0, 1), m.Xtree[distal].E(0, 0)),
                 anchor[0], anchor[1]};
    };
    left = arm(0, 1, a1);
    right = arm(2, 3, a3);
    // The branch: the drawn pose (q = 0) has P on the side of E_L -> E_R that its own u_L says.
    const Poses p0 = poses(S(0), S(0));
    const S ux = cos_(p0.AL1) * left.anchor_x - sin_(p0.AL1) * left.anchor_y;  // u_L at q = 0
    const S uy = sin_(p0.AL1) * left.anchor_x + cos_(p0.AL1) * left.anchor_y;
    sign = (p0.ERx - p0.ELx) * uy - (p0.ERy - p0.ELy) * ux >= S(0) ? S(1) : S(-1);
  }

  int ny() const { return 2; }

  // |sin| of the angle between the distal links at y: the 2 x 2 rate system's determinant over
  // rho_L rho_R (its conditioning is ~1 / this; 0 at the singularity).
  S transmission_sine(const VecX<S>& y) const {
    const Meeting P = meet(poses(y[0], y[1]));
    return abs_(S(P.uLx * P.uRy - P.uLy * P.uRx)) / (P.rhoL * P.rhoR);
  }

  void evaluate(const VecX<S>& y, const VecX<S>& yd, VecX<S>& q, MatX<S>& G, VecX<S>& g) const {
    const Poses p = poses(y[0], y[1]);
    const Meeting P = meet(p);
    const S uLx = P.uLx, uLy = P.uLy, uRx = P.uRx, uRy = P.uRy, cross = uLx * uRy - uLy * uRx;
    if (!(abs_(cross) > S(1e-6) * P.rhoL * P.rhoR))
      throw std::domain_error("FiveBarClosure: the distal links are (nearly) aligned: a singular configuration");
    // Absolute distal angles: u_L's direction minus the anchor's angle in the distal body.
    const S AL_distal = atan2_(uLy, uLx) - atan2_(left.anchor_y, left.anchor_x);
    const S AR_distal = atan2_(uRy, uRx) - atan2_(right.anchor_y, right.anchor_x);
    q.resize(4);
    q << y[0], wrap(S(AL_distal - p.AL1)), y[1], wrap(S(AR_distal - p.AR1));
    // Rates at yd = e_1 and e_2 (G), then at yd (for g): v = E_R' - E_L'.
    const S dLx = p.ELx - left.pivot_x, dLy = p.ELy - left.pivot_y;    // E_L - P_0
    const S dRx = p.ERx - right.pivot_x, dRy = p.ERy - right.pivot_y;  // E_R - P_2
    auto distal_rates = [&](const S& w0, const S& w2, S& w1, S& w3) {
      const S vx = -w2 * dRy + w0 * dLy, vy = w2 * dRx - w0 * dLx;   // w2 J dR - w0 J dL
      w1 = (vx * uRx + vy * uRy) / cross;
      w3 = (vx * uLx + vy * uLy) / cross;
    };
    G.resize(4, 2);
    S w1, w3;
    distal_rates(S(1), S(0), w1, w3);
    G.col(0) << S(1), S(w1 - 1), S(0), w3;
    distal_rates(S(0), S(1), w1, w3);
    G.col(1) << S(0), w1, S(1), S(w3 - 1);
    const S w0 = yd[0], w2 = yd[1];
    distal_rates(w0, w2, w1, w3);
    const S rx = w0 * w0 * dLx + w1 * w1 * uLx - w2 * w2 * dRx - w3 * w3 * uRx;
    const S ry = w0 * w0 * dLy + w1 * w1 * uLy - w2 * w2 * dRy - w3 * w3 * uRy;
    g.resize(4);
    g << S(0), S((rx * uRx + ry * uRy) / cross), S(0), S((rx * uLx + ry * uLy) / cross);
  }

 private:
  // Absolute angles of the base bodies and world positions of the elbows at base angles y.
  struct Poses {
    S AL1, AR1, ELx, ELy, ERx, ERy;  // AL1, AR1: the distal bodies' angles with q1 = q3 = 0
  };
  Poses poses(const S& q0, const S& q2) const {
    Poses p;
    const S AL0 = left.base_angle + q0, AR0 = right.base_angle + q2;
    p.ELx = left.pivot_x + cos_(AL0) * left.elbow_x - sin_(AL0) * left.elbow_y;
    p.ELy = left.pivot_y + sin_(AL0) * left.elbow_x + cos_(AL0) * left.elbow_y;
    p.ERx = right.pivot_x + cos_(AR0) * right.elbow_x - sin_(AR0) * right.elbow_y;
    p.ERy = right.pivot_y + sin_(AR0) * right.elbow_x + cos_(AR0) * right.elbow_y;
    p.AL1 = AL0 + left.distal_angle;
    p.AR1 = AR0 + right.distal_angle;
    return p;
  }
  // Where the distal links meet (header): u_L = P - E_L, u_R = P - E_R, and their lengths.
  struct Meeting {
    S uLx, uLy, uRx, uRy, rhoL, rhoR;
  };
  Meeting meet(const Poses& p) const {
    const S rhoL2 = left.anchor_x * left.anchor_x + left.anchor_y * left.anchor_y;
    const S rhoR2 = right.anchor_x * right.anchor_x + right.anchor_y * right.anchor_y;
    const S ex = p.ERx - p.ELx, ey = p.ERy - p.ELy, L2 = ex * ex + ey * ey, L = sqrt_(L2);
    const S x = (rhoL2 - rhoR2 + L2) / (S(2) * L), h2 = rhoL2 - x * x;
    if (!(h2 > S(0))) throw std::domain_error("FiveBarClosure: the distal links cannot meet at these base angles");
    const S h = sign * sqrt_(h2);
    const S Px = p.ELx + (x * ex - h * ey) / L, Py = p.ELy + (x * ey + h * ex) / L;
    return {Px - p.ELx, Py - p.ELy, Px - p.ERx, Py - p.ERy, sqrt_(rhoL2), sqrt_(rhoR2)};
  }
  // An angle difference into (-pi, pi]: the joint angle nearest the drawn pose.
  static S wrap(const S& a) {
    const S pi = atan2_(S(0), S(-1)), two_pi = S(2) * pi;
    S r = a;
    while (r > pi) r -= two_pi;
    while (r <= -pi) r += two_pi;
    return r;
  }
};

}  // namespace rbd::cases
