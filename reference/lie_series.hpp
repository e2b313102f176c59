#pragma once
// Independent oracle for the Lie-group closed forms (algorithms/core/so3.hpp, se3.hpp):
// everything here is computed from the definitions by power series on dense matrices, in
// the Reference scalar, and shares no code with algorithms/ (its own hat/vee, no closed
// forms, no small-angle branches).
//   expm(M)       = sum M^k/k!, by scaling and squaring (M/2^s has norm < 1/2, then 60 terms:
//                   the tail is < 2^-60/60! ~ 1e-100, far below 1e-50)
//   dexp series   = sum ad^k/(k+1)!  (right-trivialised, the paper's convention, Eq. 6 ff.)
//   ad(X) Y       = vee(X^ Y^ - Y^ X^), the matrix commutator, column by column
//   Ad(C) X       = vee(C X^ C^-1)
// dexp^-1 is checked as the matrix inverse of the dexp series (dense LU in Reference).
#include <Eigen/Dense>

#include "reference/reference_scalar.hpp"

namespace rbd::oracle::lie {

using R = Reference;
using M3 = Eigen::Matrix<R, 3, 3>;
using M4 = Eigen::Matrix<R, 4, 4>;
using M6 = Eigen::Matrix<R, 6, 6>;
using V3 = Eigen::Matrix<R, 3, 1>;
using V6 = Eigen::Matrix<R, 6, 1>;

inline M3 cross_matrix(const V3& a) {
  M3 m = M3::Zero();
  m(0, 1) = -a(2); m(0, 2) = a(1);
  m(1, 0) = a(2);  m(1, 2) = -a(0);
  m(2, 0) = -a(1); m(2, 1) = a(0);
  return m;
}
// 4x4 twist matrix of X = (omega, v), angular first.
inline M4 twist_matrix(const V6& X) {
  M4 m = M4::Zero();
  m.block<3, 3>(0, 0) = cross_matrix(X.head<3>());
  m.block<3, 1>(0, 3) = X.tail<3>();
  return m;
}
inline V6 twist_vector(const M4& m) {
  V6 X;
  X << m(2, 1), m(0, 2), m(1, 0), m(0, 3), m(1, 3), m(2, 3);
  return X;
}

template <int N> Eigen::Matrix<R, N, N> expm(const Eigen::Matrix<R, N, N>& M) {
  using MN = Eigen::Matrix<R, N, N>;
  int s = 0;
  R scale = 1;
  const R norm = M.cwiseAbs().rowwise().sum().maxCoeff();
  while (norm / scale > R(0.5)) { scale *= 2; ++s; }
  const MN A = M / scale;
  MN term = MN::Identity(), sum = MN::Identity();
  for (int k = 1; k <= 60; ++k) {
    term = (term * A) / R(k);
    sum += term;
  }
  for (int i = 0; i < s; ++i) sum = sum * sum;
  return sum;
}

inline M6 ad_commutator(const V6& X) {
  M6 m;
  const M4 Xh = twist_matrix(X);
  for (int j = 0; j < 6; ++j) {
    V6 e = V6::Zero();
    e(j) = 1;
    const M4 E = twist_matrix(e);
    m.col(j) = twist_vector(Xh * E - E * Xh);
  }
  return m;
}

// sum_k ad^k/(k+1)!, summed until the term is below 1e-70 of the sum (|ad| <= ~10 here).
template <int N> Eigen::Matrix<R, N, N> dexp_series(const Eigen::Matrix<R, N, N>& ad) {
  using MN = Eigen::Matrix<R, N, N>;
  MN term = MN::Identity(), sum = MN::Identity();
  for (int k = 1; k < 400; ++k) {
    term = (term * ad) / R(k + 1);
    sum += term;
    if (term.norm() < R(1e-70)) break;
  }
  return sum;
}

inline M6 Ad_conjugation(const M4& C) {
  M6 m;
  const M4 Ci = C.inverse();
  for (int j = 0; j < 6; ++j) {
    V6 e = V6::Zero();
    e(j) = 1;
    m.col(j) = twist_vector(C * twist_matrix(e) * Ci);
  }
  return m;
}

}  // namespace rbd::oracle::lie
