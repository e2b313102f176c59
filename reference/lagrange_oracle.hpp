#pragma once
// The independent oracle: rigid-body dynamics from the Euler-Lagrange equations, with every
// derivative taken by forward-mode automatic differentiation (reference/dual.hpp) of forward
// kinematics written with 4x4 homogeneous poses (reference/homogeneous.hpp). It reads only
// the data members of Model (parent, joint type/axis/pitch, Xtree E and r, mass, com, Icom,
// gravity, q_idx, v_idx, nb, nq, nv) and calls nothing in algorithms/, so a shared mistake
// between the judge and the judged would need the same error made twice in unrelated ways.
// See reference/README.md.
//
// Coordinates. Every joint's pose is written as T_joint(q) composed with a local motion of
// nv(joint) coordinates x, with x = 0 at the state being evaluated:
//  - revolute, prismatic, helical, cylindrical: T_joint(q + x) itself (qd = dq/dt);
//  - planar, spherical, free ("chart" joints): T_joint(q) Exp(xi(x)^), xi in the joint's
//    twist subspace. At xi = 0, d/dt of the body twist is xi_ddot and dexp(0) = 1, so
//    x_dot and x_ddot are exactly the model's (body-frame) velocity and acceleration variables
//    (Featherstone section 4.5 and Example 4.5 for the velocity conventions).
// With L(x, x_dot) = T - V, the generalized force is
//   tau = d/dt(dL/dx_dot) - dL/dx - Q_ext = H qdd + (d2L/dx_dot dx) qd - dL/dx - Q_ext.
//
// Extended joints (extended_joints/extended_model.hpp: rack-and-pinion, reversed polarity,
// prescribed drives), read as data only: every member function of Drive, JointExtension and
// ExtendedModel is bypassed and phi(t) is written out here. For an extended joint the pose of
// F_s in F_p is
//   T_fwd(q, t) = D(phi(t)) C(q)        (the drive moves F_p's mount first, then the joint),
//   T_fwd(q, t)^-1 if reversed           (Table 4.2: predecessor and successor swapped),
// with C(q) the Table 4.1 pose (chart joints: T_joint(q) Exp(xi)) or, for a rack and pinion
// (Example 4.6, X_J = rz(q) xlt([r q, 0, 0])), rotation Rz(q) and origin (r q, 0, 0) in F_p;
// D(phi) = translation phi a, or rotation phi about a plus translation pitch phi a.
// Explicit time makes the system rheonomic (Eq. 3.32's sigma): the kinetic energy becomes
// T = qd^T H qd / 2 + b^T qd + c, and the d/dt of Euler-Lagrange is the total derivative, so
// time is carried as one more dual coordinate t(s) = t + s next to x and xd (see energies()).
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "extended_joints/extended_model.hpp"  // Drive, JointExtension, ExtendedModel: data only
#include "model/workspace.hpp"  // Model and ExternalForces: data only, no functions called
#include "reference/gepp.hpp"
#include "reference/homogeneous.hpp"

namespace rbd::oracle {
namespace detail {

inline bool is_chart(JointType t) {
  return t == JointType::Planar || t == JointType::Spherical || t == JointType::Free;
}

[[noreturn]] inline void fail(const std::string& msg) { throw std::invalid_argument("rbd::oracle: " + msg); }

inline void check_size(long got, int want, const char* what, const char* count) {
  if (got != want)
    fail(std::string(what) + " has size " + std::to_string(got) + ", expected " + count + " = " + std::to_string(want));
}

// The model plus the state-dependent constants: for each body, C = pose of F_p in the parent
// body frame (from Xtree), right-multiplied by T_joint(q) for chart joints without extension;
// q0 = the joint coordinates of the other joints. An extended joint's pose is not a product
// C * (something of x) (the drive sits between Xtree and T_joint(q), and a reversed joint
// inverts the whole), so for it C is Xtree's pose alone and Q keeps T_joint(q) of a chart joint.
// ext = nullptr: plain Table 4.1 model; t = the time at which the state is evaluated.
template <class S> struct Prepared {
  const Model<S>& m;
  std::vector<Pose<S>> C;
  std::vector<std::array<S, 2>> q0;
  const std::vector<JointExtension<S>>* ext = nullptr;
  std::vector<Pose<S>> Q;
  S t = S(0);
};

// Whether joint i departs from Table 4.1 (JointExtension::any() written out, not called).
template <class S> bool extended(const Prepared<S>& P, int i) {
  if (!P.ext) return false;
  const JointExtension<S>& e = (*P.ext)[i];
  return e.rack_and_pinion || e.reversed || !(e.drive.amplitude == S(0));
}
template <class S> bool drive_active(const Drive<S>& d) { return !(d.amplitude == S(0)); }

// The oracle computes the dynamics of a rigid model. A rotation, axis or quaternion that is
// not exact to the working precision makes that ill-defined and would show up as a
// disagreement with the algorithms at its own size (1e-16 for data rounded in double), so
// it is refused here; see exact_rigid() and normalize_quaternions() below.
template <class S> S unit_tol() { return S(1024) * std::numeric_limits<S>::epsilon(); }

// The extension data the oracle can judge: one per joint, a rack only on a revolute joint about
// exactly z (Example 4.6 defines the rack along x and the pinion about z of F_p), a radius only
// with a rack, finite drive data (x - x == 0 fails for inf and NaN in any scalar), a unit drive
// axis and no pitch on a translational drive (make_extended_model's rules, checked again in S).
template <class S> void check_extensions(const Model<S>& m, const std::vector<JointExtension<S>>& ext) {
  using std::abs;
  if (static_cast<int>(ext.size()) != m.nb)
    fail("extended model '" + m.name + "' has " + std::to_string(ext.size()) + " joint extensions for nb = " +
         std::to_string(m.nb) + " joints");
  auto finite = [](const S& x) { return x - x == S(0); };
  for (int i = 0; i < m.nb; ++i) {
    const std::string who = "body " + std::to_string(i);
    const JointExtension<S>& e = ext[i];
    const Joint<S>& j = m.joint[i];
    if (e.rack_and_pinion) {
      if (j.type != JointType::Revolute || !(j.axis[0] == S(0) && j.axis[1] == S(0) && j.axis[2] == S(1)))
        fail(who + ": a rack-and-pinion joint must be declared as a revolute joint about exactly z (Example 4.6)");
      if (!finite(e.radius)) fail(who + ": rack-and-pinion radius is not finite");
    } else if (!(e.radius == S(0))) {
      fail(who + ": a radius is given but rack_and_pinion is not set");
    }
    const Drive<S>& d = e.drive;
    if (!finite(d.amplitude) || !finite(d.omega) || !finite(d.phase) || !finite(d.pitch) || !finite(d.axis[0]) ||
        !finite(d.axis[1]) || !finite(d.axis[2]))
      fail(who + ": drive parameters contain a non-finite number");
    if (drive_active(d)) {
      if (!(abs(d.axis.squaredNorm() - S(1)) <= unit_tol<S>()))
        fail(who + ": drive axis is not a unit vector to working precision");
      if (!d.rotational && !(d.pitch == S(0))) fail(who + ": a translational drive has no pitch");
    }
  }
}

template <class S>
Prepared<S> prepare(const Model<S>& m, const VecX<S>& q, const std::vector<JointExtension<S>>* ext = nullptr,
                    const S& t = S(0)) {
  using std::abs;
  check_size(q.size(), m.nq, "q", "nq");
  if (ext) check_extensions(m, *ext);
  Prepared<S> P{m, std::vector<Pose<S>>(m.nb), std::vector<std::array<S, 2>>(m.nb, {S(0), S(0)}), ext,
                std::vector<Pose<S>>(m.nb, identity_pose<S>()), t};
  const S tol = unit_tol<S>();
  // The Lagrangian is written with each body's mass, centre of mass and Icom, which only a
  // physical model has (model.hpp, InertiaKind).
  if (m.inertia_kind != InertiaKind::Physical)
    fail("model '" + m.name + "' is dynamically equivalent, not physical: the oracle needs every body's "
         "mass, centre of mass and Icom; give it the model the equivalent one was derived from");
  for (int i = 0; i < m.nb; ++i) {
    const std::string who = "body " + std::to_string(i);
    const Mat3<S>& E = m.Xtree[i].E;
    if (!((E * E.transpose() - Mat3<S>::Identity()).cwiseAbs().maxCoeff() <= tol) || !(E.determinant() > 0))
      fail(who + ": Xtree rotation is not orthonormal to working precision (use oracle::exact_rigid)");
    if (!((m.Icom[i] - m.Icom[i].transpose()).cwiseAbs().maxCoeff() <= tol * m.Icom[i].cwiseAbs().maxCoeff()))
      fail(who + ": Icom is not symmetric to working precision (use oracle::exact_rigid)");
    Pose<S>& C = P.C[i];
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) C.R[r][c] = E(c, r);  // T = [E^T r; 0 1]
      C.p[r] = m.Xtree[i].r[r];
    }
    const Joint<S>& j = m.joint[i];
    const int k = m.q_idx[i];
    Pose<S> J;  // T_joint(q) of a chart joint
    switch (j.type) {
      case JointType::Revolute: case JointType::Prismatic: case JointType::Helical: case JointType::Cylindrical:
        if (!(abs(j.axis.squaredNorm() - S(1)) <= tol))
          fail(who + ": joint axis is not a unit vector to working precision (use oracle::exact_rigid)");
        P.q0[i][0] = q[k];
        if (j.type == JointType::Cylindrical) P.q0[i][1] = q[k + 1];
        continue;
      case JointType::Planar: {
        const SinCos<S> sc = sin_cos(S(q[k]));
        J = identity_pose<S>();
        J.R[0][0] = sc.c; J.R[0][1] = -sc.s;
        J.R[1][0] = sc.s; J.R[1][1] = sc.c;
        J.p = {q[k + 1], q[k + 2], S(0)};
        break;
      }
      case JointType::Spherical: case JointType::Free: {
        if (!(abs(q.segment(k, 4).squaredNorm() - S(1)) <= tol))
          fail(who + ": quaternion in q is not unit to working precision (use oracle::normalize_quaternions)");
        J.R = quaternion_rotation<S>(q[k], q[k + 1], q[k + 2], q[k + 3]);
        if (j.type == JointType::Free) J.p = {q[k + 4], q[k + 5], q[k + 6]};
        else J.p = {S(0), S(0), S(0)};
        break;
      }
    }
    if (extended(P, i)) P.Q[i] = J;  // the drive goes between Xtree and T_joint(q): keep them apart
    else C = compose<S>(C, J);
  }
  return P;
}

// Pose of body i's Table 4.1 joint: F_s in F_p for non-chart joints, Exp(xi) for chart joints
// (whose T_joint(q) is in C, or in Q for an extended joint). dx points at this joint's nv local
// coordinates.
template <class D, class S> Pose<D> table_joint_motion(const Prepared<S>& P, int i, const D* dx) {
  const Joint<S>& j = P.m.joint[i];
  const std::array<S, 3> a = {j.axis[0], j.axis[1], j.axis[2]};
  const D zero = D(S(0));
  Pose<D> T = identity_pose<D>();
  switch (j.type) {
    case JointType::Revolute:
      T.R = axis_angle(a, D(dx[0] + P.q0[i][0]));
      break;
    case JointType::Prismatic:
      for (int r = 0; r < 3; ++r) T.p[r] = a[r] * (dx[0] + P.q0[i][0]);
      break;
    case JointType::Helical: {
      const D th = dx[0] + P.q0[i][0];
      T.R = axis_angle(a, th);
      for (int r = 0; r < 3; ++r) T.p[r] = S(j.pitch * a[r]) * th;
      break;
    }
    case JointType::Cylindrical:
      T.R = axis_angle(a, D(dx[0] + P.q0[i][0]));
      for (int r = 0; r < 3; ++r) T.p[r] = a[r] * (dx[1] + P.q0[i][1]);
      break;
    case JointType::Planar: return exp_twist<D>({zero, zero, dx[0]}, {dx[1], dx[2], zero});
    case JointType::Spherical: return exp_twist<D>({dx[0], dx[1], dx[2]}, {zero, zero, zero});
    case JointType::Free: return exp_twist<D>({dx[0], dx[1], dx[2]}, {dx[3], dx[4], dx[5]});
  }
  return T;
}

// D(phi(t)) of a drive, with phi(t) = amplitude sin(omega t + phase) written out here, in the
// scalar of t: when t carries dual parts, phi's time derivatives come out of sin_cos.
template <class D, class S> Pose<D> drive_pose(const Drive<S>& d, const D& t) {
  const std::array<S, 3> a = {d.axis[0], d.axis[1], d.axis[2]};
  const D phi = sin_cos(D(t * d.omega + d.phase)).s * d.amplitude;
  Pose<D> T = identity_pose<D>();
  if (d.rotational) T.R = axis_angle(a, phi);  // screw: rotation phi about a, translation pitch phi a
  const S lead = d.rotational ? d.pitch : S(1);
  for (int r = 0; r < 3; ++r) T.p[r] = S(lead * a[r]) * phi;
  return T;
}

// Pose of body i's joint at local coordinates dx and time t. For an extended joint:
// core C (Table 4.1 joint, or Example 4.6's rack and pinion), then T_fwd = D(phi(t)) C, then
// inverted if reversed (Table 4.2). With velocity variables those of the unextended joint.
template <class D, class S> Pose<D> joint_motion(const Prepared<S>& P, int i, const D* dx, const D& t) {
  if (!extended(P, i)) return table_joint_motion<D, S>(P, i, dx);
  const JointExtension<S>& e = (*P.ext)[i];
  Pose<D> core;
  if (e.rack_and_pinion) {  // X_J = rz(q) xlt([r q, 0, 0]): origin at (r q, 0, 0) in F_p, axes Rz(q)
    const D th = dx[0] + P.q0[i][0];
    core = identity_pose<D>();
    core.R = axis_angle(std::array<S, 3>{S(0), S(0), S(1)}, th);
    core.p[0] = e.radius * th;
  } else if (is_chart(P.m.joint[i].type)) {
    core = compose<D>(P.Q[i], table_joint_motion<D, S>(P, i, dx));  // T_joint(q) Exp(xi)
  } else {
    core = table_joint_motion<D, S>(P, i, dx);
  }
  const Pose<D> fwd = drive_active(e.drive) ? compose<D>(drive_pose<D, S>(e.drive, t), core) : core;
  return e.reversed ? inverse_pose<D>(fwd) : fwd;
}

// World poses of all bodies at local coordinates dx (size nv) and time t:
// T_0i = T_0,parent C_i J_i(dx, t).
template <class D, class S>
std::vector<Pose<D>> forward_kinematics(const Prepared<S>& P, const std::vector<D>& dx, const D& t) {
  const Model<S>& m = P.m;
  std::vector<Pose<D>> X(m.nb);
  for (int i = 0; i < m.nb; ++i) {
    const Pose<D> J = joint_motion<D, S>(P, i, dx.data() + m.v_idx[i], t);
    X[i] = m.parent[i] < 0 ? compose<D>(P.C[i], J) : compose<D>(compose<D>(X[m.parent[i]], P.C[i]), J);
  }
  return X;
}
// At the prepared time, frozen: the poses are right, but a derivative through dx alone does not
// see a drive's motion (the loop and contact oracles call this; they take plain models).
template <class D, class S> std::vector<Pose<D>> forward_kinematics(const Prepared<S>& P, const std::vector<D>& dx) {
  return forward_kinematics<D, S>(P, dx, D(P.t));
}

// Body twist from a pose whose entries are duals in time: omega = unskew(R^T Rdot) and
// v = R^T pdot, both in body coordinates (the velocity of the body-frame origin).
template <class U> struct Twist { std::array<U, 3> w, v; };
template <class U> Twist<U> body_twist(const Pose<Dual<U>>& X) {
  auto M = [&](int i, int j) {  // (R^T Rdot)_ij
    return X.R[0][i].a * X.R[0][j].b + X.R[1][i].a * X.R[1][j].b + X.R[2][i].a * X.R[2][j].b;
  };
  using S = base_t<U>;
  const S half = S(1) / S(2);
  Twist<U> t;
  // R^T Rdot is exactly skew for a rotation; averaging the two halves is just unskew.
  t.w = {(M(2, 1) - M(1, 2)) * half, (M(0, 2) - M(2, 0)) * half, (M(1, 0) - M(0, 1)) * half};
  for (int i = 0; i < 3; ++i) t.v[i] = X.R[0][i].a * X.p[0].b + X.R[1][i].a * X.p[1].b + X.R[2][i].a * X.p[2].b;
  return t;
}

// Kinetic and potential energy at local coordinates x with rates xd and time t, in scalar U.
// T_i = m/2 |v + w x c|^2 + w^T Icom w / 2 (body coordinates), V_i = -m g . (p + R c).
// The velocity dual r advances x by r xd and the time by r (t + r): a drive's own motion is
// part of each body's velocity (the b^T qd + c terms of T).
template <class U> struct Energies { U T, V; };
template <class U, class S>
Energies<U> energies(const Prepared<S>& P, const std::vector<U>& x, const std::vector<U>& xd, const U& t) {
  const Model<S>& m = P.m;
  std::vector<Dual<U>> dx(x.size());
  for (size_t k = 0; k < x.size(); ++k) dx[k] = Dual<U>(x[k], xd[k]);  // x(r) = x + r xd
  const std::vector<Pose<Dual<U>>> X = forward_kinematics<Dual<U>, S>(P, dx, Dual<U>(t, U(S(1))));
  const S half = S(1) / S(2);
  Energies<U> e{U(S(0)), U(S(0))};
  for (int i = 0; i < m.nb; ++i) {
    const Twist<U> t = body_twist<U>(X[i]);
    const Vec3<S>& c = m.com[i];
    const std::array<U, 3> vc = {t.v[0] + (t.w[1] * c[2] - t.w[2] * c[1]),
                                 t.v[1] + (t.w[2] * c[0] - t.w[0] * c[2]),
                                 t.v[2] + (t.w[0] * c[1] - t.w[1] * c[0])};
    U rot = U(S(0));
    for (int r = 0; r < 3; ++r)
      for (int s = 0; s < 3; ++s) rot += t.w[r] * (m.Icom[i](r, s) * t.w[s]);
    e.T += (m.mass[i] * half) * (vc[0] * vc[0] + vc[1] * vc[1] + vc[2] * vc[2]) + half * rot;
    for (int r = 0; r < 3; ++r) {
      const U pc = X[i].p[r].a + X[i].R[r][0].a * c[0] + X[i].R[r][1].a * c[1] + X[i].R[r][2].a * c[2];
      e.V -= S(m.mass[i] * m.gravity[r]) * pc;
    }
  }
  return e;
}
template <class U, class S> Energies<U> energies(const Prepared<S>& P, const std::vector<U>& x, const std::vector<U>& xd) {
  return energies<U, S>(P, x, xd, U(P.t));
}

template <class S> using D1 = Dual<S>;
template <class S> using D2 = Dual<Dual<S>>;
// Dual<S> with value v and derivative d (both plain).
template <class S> D1<S> d1(const S& v, const S& d) { return D1<S>(v, d); }

// Joint-space inertia matrix H = d2T/dqd2. T = qd^T H qd / 2 + b^T qd + c (b, c from a drive's
// motion, zero without one), so dT/dqd = H qd + b exactly, and its k-th component at qd = e_j
// minus its k-th component at qd = 0 is H(k, j): one derivative level (eps on qd_k) instead
// of two. Without an active drive b is exactly zero (nothing depends on t) and the second
// evaluation is skipped. All n^2 entries are computed, so symmetry is a check, not an assumption.
template <class S> MatX<S> mass_matrix(const Prepared<S>& P) {
  const int n = P.m.nv;
  using U = D1<S>;
  const std::vector<U> x(n, U(S(0)));
  const U t = U(P.t);
  bool time_dependent = false;
  for (int i = 0; P.ext && i < P.m.nb; ++i) time_dependent = time_dependent || drive_active((*P.ext)[i].drive);
  MatX<S> H(n, n);
  std::vector<U> xd(n);
  std::vector<S> b(n, S(0));  // dT/dqd at qd = 0
  if (time_dependent)
    for (int k = 0; k < n; ++k) {
      for (int l = 0; l < n; ++l) xd[l] = d1<S>(S(0), S(l == k ? 1 : 0));
      b[k] = energies<U, S>(P, x, xd, t).T.b;
    }
  for (int j = 0; j < n; ++j)
    for (int k = 0; k < n; ++k) {
      for (int l = 0; l < n; ++l) xd[l] = d1<S>(S(l == j ? 1 : 0), S(l == k ? 1 : 0));
      H(k, j) = energies<U, S>(P, x, xd, t).T.b;
      if (time_dependent) H(k, j) -= b[k];
    }
  return H;
}

// tau = H(q) qdd + C(q, qd, t) (gravity included) - generalized forces of f_ext, where f_ext[i]
// = [n; f] acts on body i, in body-i coordinates, moment taken about the body-frame origin.
template <class S>
VecX<S> inverse_dynamics(const Prepared<S>& P, const VecX<S>& qd, const VecX<S>& qdd, const ExternalForces<S>* f_ext) {
  const Model<S>& m = P.m;
  check_size(qd.size(), m.nv, "qd", "nv");
  check_size(qdd.size(), m.nv, "qdd", "nv");
  if (f_ext) check_size(static_cast<long>(f_ext->size()), m.nb, "f_ext", "nb");
  const int n = m.nv;
  VecX<S> tau(n);
  for (int k = 0; k < n; ++k) {
    // d/dt (dL/dxd_k) along x = s qd, xd = qd + s qdd and t + s: outer dual s (time), inner eps
    // seeds xd_k. The explicit time advances with the same s, so d/ds is the total derivative
    // that Euler-Lagrange needs for a rheonomic system (a drive's phi(t) and phi_dot(t) move).
    using U2 = D2<S>;
    std::vector<U2> x2(n), xd2(n);
    for (int l = 0; l < n; ++l) {
      x2[l] = U2(d1<S>(S(0), S(0)), d1<S>(qd[l], S(0)));
      xd2[l] = U2(d1<S>(qd[l], S(l == k ? 1 : 0)), d1<S>(qdd[l], S(0)));
    }
    const U2 t2(d1<S>(P.t, S(0)), d1<S>(S(1), S(0)));
    const Energies<U2> e2 = energies<U2, S>(P, x2, xd2, t2);
    // dL/dx_k at (0, qd), a partial derivative: time held at t.
    using U1 = D1<S>;
    std::vector<U1> x1(n), xd1(n);
    for (int l = 0; l < n; ++l) {
      x1[l] = d1<S>(S(0), S(l == k ? 1 : 0));
      xd1[l] = d1<S>(qd[l], S(0));
    }
    const Energies<U1> e1 = energies<U1, S>(P, x1, xd1, U1(P.t));
    tau[k] = (e2.T.b.b - e2.V.b.b) - (e1.T.b - e1.V.b);
    if (f_ext) {
      // Q_k = sum_i n_i . w_i + f_i . v_i for unit rate e_k (virtual power: time held at t).
      std::vector<U1> dx(n);
      for (int l = 0; l < n; ++l) dx[l] = d1<S>(S(0), S(l == k ? 1 : 0));
      const std::vector<Pose<U1>> X = forward_kinematics<U1, S>(P, dx, U1(P.t));
      for (int i = 0; i < m.nb; ++i) {
        const Twist<S> tw = body_twist<S>(X[i]);
        const Vec6<S>& f = (*f_ext)[i];
        for (int r = 0; r < 3; ++r) tau[k] -= f[r] * tw.w[r] + f[r + 3] * tw.v[r];
      }
    }
  }
  return tau;
}

template <class S> S kinetic_energy(const Prepared<S>& P, const VecX<S>& qd) {
  check_size(qd.size(), P.m.nv, "qd", "nv");
  const std::vector<S> x(P.m.nv, S(0)), xd(qd.data(), qd.data() + P.m.nv);
  return energies<S, S>(P, x, xd, P.t).T;
}

template <class S> S potential_energy(const Prepared<S>& P) {
  const std::vector<S> x(P.m.nv, S(0));
  return energies<S, S>(P, x, x, P.t).V;
}

}  // namespace detail

// Plain (Table 4.1) models.
template <class S> MatX<S> mass_matrix(const Model<S>& m, const VecX<S>& q) {
  return detail::mass_matrix(detail::prepare(m, q));
}

template <class S>
VecX<S> inverse_dynamics(const Model<S>& m, const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd,
                         const std::type_identity_t<ExternalForces<S>>* f_ext) {  // non-deduced: nullptr works
  // Sizes of qd and qdd are checked before q's, as before the extension.
  detail::check_size(qd.size(), m.nv, "qd", "nv");
  detail::check_size(qdd.size(), m.nv, "qdd", "nv");
  return detail::inverse_dynamics(detail::prepare(m, q), qd, qdd, f_ext);
}

template <class S> S kinetic_energy(const Model<S>& m, const VecX<S>& q, const VecX<S>& qd) {
  detail::check_size(qd.size(), m.nv, "qd", "nv");
  return detail::kinetic_energy(detail::prepare(m, q), qd);
}

// V = -sum_i m_i g . p_com,i (world coordinates).
template <class S> S potential_energy(const Model<S>& m, const VecX<S>& q) {
  return detail::potential_energy(detail::prepare(m, q));
}

// Extended models (rack and pinion, reversed, driven joints) at time t. t is not deduced, so
// a literal of another type converts to S.
template <class S> MatX<S> mass_matrix(const ExtendedModel<S>& m, const std::type_identity_t<S>& t, const VecX<S>& q) {
  return detail::mass_matrix(detail::prepare(m.tree, q, &m.ext, t));
}

template <class S>
VecX<S> inverse_dynamics(const ExtendedModel<S>& m, const std::type_identity_t<S>& t, const VecX<S>& q,
                         const VecX<S>& qd, const VecX<S>& qdd, const std::type_identity_t<ExternalForces<S>>* f_ext) {
  detail::check_size(qd.size(), m.tree.nv, "qd", "nv");
  detail::check_size(qdd.size(), m.tree.nv, "qdd", "nv");
  return detail::inverse_dynamics(detail::prepare(m.tree, q, &m.ext, t), qd, qdd, f_ext);
}

template <class S>
S kinetic_energy(const ExtendedModel<S>& m, const std::type_identity_t<S>& t, const VecX<S>& q, const VecX<S>& qd) {
  detail::check_size(qd.size(), m.tree.nv, "qd", "nv");
  return detail::kinetic_energy(detail::prepare(m.tree, q, &m.ext, t), qd);
}

template <class S> S potential_energy(const ExtendedModel<S>& m, const std::type_identity_t<S>& t, const VecX<S>& q) {
  return detail::potential_energy(detail::prepare(m.tree, q, &m.ext, t));
}

// qdd = H^-1 (tau + Q_ext - C(q, qd, t)), C = inverse_dynamics at qdd = 0 (f_ext included
// there), solved densely in S by Gaussian elimination with partial pivoting (gepp.hpp).
template <class S>
VecX<S> forward_dynamics(const ExtendedModel<S>& m, const std::type_identity_t<S>& t, const VecX<S>& q,
                         const VecX<S>& qd, const VecX<S>& tau, const std::type_identity_t<ExternalForces<S>>* f_ext) {
  detail::check_size(qd.size(), m.tree.nv, "qd", "nv");
  detail::check_size(tau.size(), m.tree.nv, "tau", "nv");
  const detail::Prepared<S> P = detail::prepare(m.tree, q, &m.ext, t);
  const VecX<S> c = detail::inverse_dynamics(P, qd, VecX<S>(VecX<S>::Zero(m.tree.nv)), f_ext);
  return solve_gepp<S>(detail::mass_matrix(P), VecX<S>(tau - c), "oracle::forward_dynamics: H");
}

// Input conditioning for models filled in by hand in S (as the self-test does). Model::cast
// already returns a rigid model (same Newton-Schulz step, inertia recomputed in S), but a
// state cast from double still needs its quaternions normalized in S. exact_rigid renormalizes
// axes, orthonormalizes Xtree rotations (E <- E (3 - E^T E) / 2, quadratic convergence) and
// symmetrizes Icom; it leaves Model::I alone (the oracle never reads it).
template <class S> Model<S> exact_rigid(Model<S> m) {
  using std::sqrt;
  for (int i = 0; i < m.nb; ++i) {
    m.joint[i].axis /= sqrt(m.joint[i].axis.squaredNorm());
    Mat3<S>& E = m.Xtree[i].E;
    for (int it = 0; it < 8; ++it) E = E * (S(3) * Mat3<S>::Identity() - E.transpose() * E) / S(2);
    m.Icom[i] = ((m.Icom[i] + m.Icom[i].transpose()) / S(2)).eval();  // eval: no aliasing
  }
  return m;
}

template <class S> void normalize_quaternions(const Model<S>& m, VecX<S>& q) {
  using std::sqrt;
  for (int i = 0; i < m.nb; ++i)
    if (m.joint[i].type == JointType::Spherical || m.joint[i].type == JointType::Free) {
      auto u = q.segment(m.q_idx[i], 4);
      u /= sqrt(u.squaredNorm());
    }
}

}  // namespace rbd::oracle
