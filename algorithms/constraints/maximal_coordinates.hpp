#pragma once
// Forward dynamics in maximal (absolute) coordinates with lock constraints (seed 001,
// section 4, Eq. 27): every body has x (world origin) and q (unit quaternion), velocities
// u_i = [x_dot_i; omega_i] (world; body), and the joints of a Featherstone Model become lock
// constraints between the body and its parent (marker S = the joint frame F_p on the parent,
// from X_T(i); marker P = the body frame F_s). The accelerations solve the KKT system
//   [M  C_v^T] [u_dot  ]   [f    ]
//   [C_v  0  ] [-lambda] = [gamma]
// with, per body, M_i = T^T I_i T and f_i = T^T (I_i (a_g - xi) - V x* I_i V), where V = T u =
// [omega; A^T x_dot] is the body's spatial velocity in body coordinates (Featherstone's
// angular-first convention) and xi = [0; -omega x A^T x_dot] its velocity-dependent rate
// (V_dot = T u_dot + xi). Baumgarte stabilisation replaces gamma by
// gamma - 2 alpha C_dot - beta^2 C (Eq. 27's Q_s). The KKT matrix is dense (MatX in a
// workspace sized once); this route is the comparison, not a fast path. Redundant constraints
// make it singular: maximal_forward_dynamics refuses that, maximal_loops.hpp solves it.
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include "constraints/lock_constraint.hpp"
#include "forward_dynamics/aba.hpp"

namespace rbd {

template <class S> struct MaximalLock {
  int A = 0, B = -1;  // body indices; -1 is the ground
  LockConstraint<S> lock;
};

template <class S> struct MaximalSystem {
  std::vector<Inertia<S>> I;      // body inertias (body coordinates, body origin)
  std::vector<MaximalLock<S>> locks;
  Vec3<S> gravity = Vec3<S>::Zero();
  int nb() const { return static_cast<int>(I.size()); }
  int nc() const {
    int n = 0;
    for (const auto& l : locks) n += lock_row_count(l.lock.mask);
    return n;
  }
};

template <class S> struct MaximalState {
  std::vector<BodyPose<S>> pose;
  std::vector<BodyTwist<S>> twist;  // (x_dot world, omega body)
};

// The lock mask of a Table 4.1 joint about z (the axis of marker S).
inline unsigned lock_mask_of(JointType t) {
  switch (t) {
    case JointType::Revolute: return kCx | kCy | kCz | kCthI | kCthJ;
    case JointType::Prismatic: return kCx | kCy | kCthI | kCthJ | kCthK;
    case JointType::Cylindrical: return kCx | kCy | kCthI | kCthJ;
    case JointType::Planar: return kCz | kCthI | kCthJ;
    case JointType::Spherical: return kCx | kCy | kCz;
    case JointType::Free: return 0u;
    default: throw std::invalid_argument("maximal coordinates: the helical joint has no lock mask");
  }
}

// The equivalent maximal system of a Model whose 1-DoF joints are along z.
template <class S> MaximalSystem<S> maximal_system(const Model<S>& m) {
  MaximalSystem<S> sys;
  sys.I = m.I;
  sys.gravity = m.gravity;
  for (int i = 0; i < m.nb; ++i) {
    const Joint<S>& j = m.joint[i];
    if (j.nv() < 6 && j.type != JointType::Spherical && j.type != JointType::Planar && j.aligned != 2)
      throw std::invalid_argument("maximal coordinates: body " + std::to_string(i) + "'s joint axis is not z");
    const unsigned mask = lock_mask_of(j.type);
    if (mask == 0u) continue;  // a free joint constrains nothing
    MaximalLock<S> l;
    l.A = i;
    l.B = m.parent[i];
    l.lock.mask = mask;
    l.lock.marker_S = Marker<S>{m.Xtree[i].r, quaternion_from_matrix<S>(m.Xtree[i].E.transpose())};
    sys.locks.push_back(l);
  }
  return sys;
}

template <class S> struct MaximalWorkspace {
  MatX<S> K;
  VecX<S> rhs, sol;
  Eigen::PartialPivLU<MatX<S>> lu;
  explicit MaximalWorkspace(const MaximalSystem<S>& sys)
      : K(6 * sys.nb() + sys.nc(), 6 * sys.nb() + sys.nc()), rhs(K.rows()), sol(K.rows()), lu(K.rows()) {}
};

struct Baumgarte {
  double alpha = 0, beta = 0;  // 0, 0: none
};

namespace maximal_detail {
template <class S> Mat6<S> inertia_matrix(const Inertia<S>& I) {
  Mat6<S> M;
  M << I.Ibar, skew(I.h), skew(I.h).transpose(), I.m * Mat3<S>::Identity();
  return M;
}
}  // namespace maximal_detail

// The KKT matrix and right side above into ws.K and ws.rhs.
template <class S>
void assemble_kkt(const MaximalSystem<S>& sys, const MaximalState<S>& x, MaximalWorkspace<S>& ws, const Baumgarte& stab = {}) {
  const int n = 6 * sys.nb();
  ws.K.setZero();
  for (int i = 0; i < sys.nb(); ++i) {
    const Mat3<S> At = x.pose[i].q.matrix().transpose();
    Mat6<S> T = Mat6<S>::Zero();  // u = [x_dot; omega] -> V = [omega; A^T x_dot]
    T.template block<3, 3>(0, 3).setIdentity();
    T.template block<3, 3>(3, 0) = At;
    const Mat6<S> I6 = maximal_detail::inertia_matrix(sys.I[i]);
    ws.K.template block<6, 6>(6 * i, 6 * i) = T.transpose() * I6 * T;
    const Vec3<S> w = x.twist[i].omega, vb = At * x.twist[i].x_dot;
    const Vec6<S> V = join<S>(w, vb);
    const Vec6<S> a = join<S>(Vec3<S>::Zero(), Vec3<S>(At * sys.gravity + cross<S>(w, vb)));  // a_g - xi
    ws.rhs.template segment<6>(6 * i) = T.transpose() * (sys.I[i] * a - bias_force(sys.I[i], V));
  }
  int row = n;
  for (const auto& l : sys.locks) {
    const BodyPose<S> ground{};
    const BodyTwist<S> rest{};
    const BodyPose<S>& PB = l.B < 0 ? ground : x.pose[l.B];
    const BodyTwist<S>& TB = l.B < 0 ? rest : x.twist[l.B];
    const auto Cv = select_lock_rows(l.lock.mask, lock_cv(l.lock, x.pose[l.A], PB));
    auto g = select_lock_rows(l.lock.mask, lock_gamma6(l.lock, x.pose[l.A], PB, x.twist[l.A], TB));
    if (stab.alpha != 0 || stab.beta != 0) {
      Eigen::Matrix<S, 12, 1> v;
      v << x.twist[l.A].x_dot, x.twist[l.A].omega, TB.x_dot, TB.omega;
      const Vec6<S> Cdot = lock_cv(l.lock, x.pose[l.A], PB) * v + lock_ct(l.lock, x.pose[l.A], PB);
      const Vec6<S> C = lock_c(l.lock, x.pose[l.A], PB);
      g -= select_lock_rows(l.lock.mask, Vec6<S>(S(2 * stab.alpha) * Cdot + S(stab.beta * stab.beta) * C));
    }
    const int k = static_cast<int>(Cv.rows());
    for (int side = 0; side < 2; ++side) {
      const int b = side == 0 ? l.A : l.B;
      if (b < 0) continue;
      ws.K.block(row, 6 * b, k, 6) = Cv.middleCols(6 * side, 6);
      ws.K.block(6 * b, row, 6, k) = Cv.middleCols(6 * side, 6).transpose();
    }
    ws.rhs.segment(row, k) = g;
    row += k;
  }
}

// The relative size below which a pivot of the KKT matrix is taken for 0: sqrt(eps) (1.5e-8 in
// double, 1e-25 in Reference). Redundant constraints leave pivots of rounding size, ~eps of the
// largest; a mechanism whose KKT is conditioned worse than 1/sqrt(eps) is refused as if redundant.
template <class S> S kkt_pivot_tolerance() { return S(sqrt_(S(Eigen::NumTraits<S>::epsilon()))); }

// u_dot (6 per body, [x_ddot; omega_dot]) of the maximal system, by the KKT system above and the
// seed's dense LU. Redundant constraints make the KKT matrix singular, and an LU of it gives
// numbers, not an answer: a pivot below kkt_pivot_tolerance of the largest is refused instead
// (maximal_loops.hpp's maximal_forward_dynamics_redundant solves such systems).
template <class S>
void maximal_forward_dynamics(const MaximalSystem<S>& sys, const MaximalState<S>& x, VecX<S>& udot, MaximalWorkspace<S>& ws,
                              const Baumgarte& stab = {}) {
  assemble_kkt(sys, x, ws, stab);
  ws.lu.compute(ws.K);
  const auto pivots = ws.lu.matrixLU().diagonal().cwiseAbs();
  if (!(pivots.minCoeff() > kkt_pivot_tolerance<S>() * pivots.maxCoeff())) {
    std::ostringstream what;
    what << "maximal coordinates: the KKT matrix is singular (its LU has a pivot of " << std::setprecision(2)
         << double(pivots.minCoeff() / pivots.maxCoeff()) << " of the largest, below sqrt(eps)): the lock constraints "
         << "are redundant or the configuration is singular (maximal_forward_dynamics_redundant solves the former)";
    throw std::domain_error(what.str());
  }
  ws.sol = ws.lu.solve(ws.rhs);
  udot = ws.sol.head(6 * sys.nb());
}

// All active rows stacked: C (nc) and C_v (nc x 6 nb), for drift figures and projection.
template <class S> void maximal_constraints(const MaximalSystem<S>& sys, const MaximalState<S>& x, VecX<S>& C, MatX<S>& Cv,
                                            VecX<S>* Cdot = nullptr) {
  C.resize(sys.nc());
  Cv.setZero(sys.nc(), 6 * sys.nb());
  if (Cdot) Cdot->resize(sys.nc());
  int row = 0;
  for (const auto& l : sys.locks) {
    const BodyPose<S> ground{};
    const BodyTwist<S> rest{};
    const BodyPose<S>& PB = l.B < 0 ? ground : x.pose[l.B];
    const BodyTwist<S>& TB = l.B < 0 ? rest : x.twist[l.B];
    const Mat6x12<S> J = lock_cv(l.lock, x.pose[l.A], PB);
    const auto rows = select_lock_rows(l.lock.mask, J);
    const int k = static_cast<int>(rows.rows());
    C.segment(row, k) = select_lock_rows(l.lock.mask, lock_c(l.lock, x.pose[l.A], PB));
    Cv.block(row, 6 * l.A, k, 6) = rows.leftCols(6);
    if (l.B >= 0) Cv.block(row, 6 * l.B, k, 6) = rows.rightCols(6);
    if (Cdot) {
      Eigen::Matrix<S, 12, 1> v;
      v << x.twist[l.A].x_dot, x.twist[l.A].omega, TB.x_dot, TB.omega;
      Cdot->segment(row, k) = select_lock_rows(l.lock.mask, Vec6<S>(J * v + lock_ct(l.lock, x.pose[l.A], PB)));
    }
    row += k;
  }
}

// Projection onto the constraint manifold (the alternative to Baumgarte): Gauss-Newton steps
// on the positions, dz = -Cv^T (Cv Cv^T)^-1 C applied as x += dx, q <- q (x) [1, d omega / 2]
// renormalised, then the velocities' minimum-norm correction onto C_v u = -C_t (static locks).
template <class S> void project_onto_constraints(const MaximalSystem<S>& sys, MaximalState<S>& x, int iterations = 2) {
  VecX<S> C, Cdot;
  MatX<S> Cv;
  for (int it = 0; it < iterations; ++it) {
    maximal_constraints(sys, x, C, Cv);
    const VecX<S> dz = -Cv.transpose() * (Cv * Cv.transpose()).ldlt().solve(C);
    for (int i = 0; i < sys.nb(); ++i) {
      x.pose[i].x += dz.template segment<3>(6 * i);
      Quaternion<S>& q = x.pose[i].q;
      q = q * Quaternion<S>{S(1), Vec3<S>(dz.template segment<3>(6 * i + 3) / S(2))};
      q = (S(1) / sqrt_(q.squared_norm())) * q;
    }
  }
  maximal_constraints(sys, x, C, Cv, &Cdot);
  const VecX<S> du = -Cv.transpose() * (Cv * Cv.transpose()).ldlt().solve(Cdot);
  for (int i = 0; i < sys.nb(); ++i) {
    x.twist[i].x_dot += du.template segment<3>(6 * i);
    x.twist[i].omega += du.template segment<3>(6 * i + 3);
  }
}

// The maximal state of a Model's state (q, qd), and with qdd the maximal accelerations, by a
// forward pass of Featherstone's kinematics (Eqs. 5.7-5.8 with cJ = 0): body transforms
// ^iX_0 = X_J X_T ^lambdaX_0, velocities v_i = ^iX_lambda v_lambda + S qd and accelerations
// a_i = ^iX_lambda a_lambda + S qdd + v_i x S qd. Then x = r of ^iX_0, A = E^T,
// x_dot = A v_lin, omega = v_ang, x_ddot = A (a_lin + omega x v_lin) (the spatial acceleration
// is not the origin's classical acceleration), omega_dot = a_ang.
template <class S>
MaximalState<S> maximal_state_of(const Model<S>& m, const VecX<S>& q, const VecX<S>& qd, const VecX<S>* qdd = nullptr,
                                 VecX<S>* udot = nullptr) {
  MaximalState<S> x{std::vector<BodyPose<S>>(m.nb), std::vector<BodyTwist<S>>(m.nb)};
  std::vector<Transform<S>> X0(m.nb);
  std::vector<Vec6<S>> v(m.nb), a(m.nb);
  if (udot) udot->resize(6 * m.nb);
  for (int i = 0; i < m.nb; ++i) {
    JointKinematics<S> J;
    const int nv = m.joint[i].nv();
    jcalc(m.joint[i], q.segment(m.q_idx[i], m.joint[i].nq()), qd.segment(m.v_idx[i], nv), J);
    const Transform<S> Xup = J.XJ * m.Xtree[i];
    const int p = m.parent[i];
    X0[i] = p < 0 ? Xup : Xup * X0[p];
    v[i] = p < 0 ? J.vJ : Vec6<S>(Xup.apply(v[p]) + J.vJ);
    const Mat3<S> A = X0[i].E.transpose();
    x.pose[i] = BodyPose<S>{X0[i].r, quaternion_from_matrix<S>(A)};
    x.twist[i] = BodyTwist<S>{A * lin(v[i]), ang(v[i])};
    if (qdd && udot) {
      const Vec6<S> Sqdd = J.S_ * qdd->segment(m.v_idx[i], nv);
      a[i] = (p < 0 ? Sqdd : Vec6<S>(Xup.apply(a[p]) + Sqdd)) + crm<S>(v[i], J.vJ);
      udot->template segment<3>(6 * i) = A * (lin(a[i]) + cross<S>(ang(v[i]), lin(v[i])));
      udot->template segment<3>(6 * i + 3) = ang(a[i]);
    }
  }
  return x;
}

}  // namespace rbd
