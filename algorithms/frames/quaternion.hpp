#pragma once
// Quaternions, scalar first (w, v) = w + v_x i + v_y j + v_z k (DESIGN.md section 10).
// Only what the frame algebra needs: the Hamilton product, the conjugate, the pure
// quaternion S(x) = {0, x} of Tasora's seed (000, Eq. 4), the rotation it represents as a
// matrix (the seed's [A(q)], Eq. 5) and the way back from a rotation matrix.
#include "core/scalar.hpp"

namespace rbd {

template <class S> struct Quaternion {
  S w = S(1);
  Vec3<S> v = Vec3<S>::Zero();

  static Quaternion identity() { return Quaternion{}; }
  // S(x) = {0, x}: a vector as a pure quaternion (seed 000, Eq. 4).
  static Quaternion pure(const Vec3<S>& x) { return Quaternion{S(0), x}; }

  Quaternion conjugate() const { return Quaternion{w, -v}; }
  S squared_norm() const { return w * w + v.squaredNorm(); }

  // Hamilton product: (w1 w2 - v1.v2, w1 v2 + w2 v1 + v1 x v2).
  friend Quaternion operator*(const Quaternion& a, const Quaternion& b) {
    return Quaternion{a.w * b.w - a.v.dot(b.v), a.w * b.v + b.w * a.v + a.v.cross(b.v)};
  }
  friend Quaternion operator+(const Quaternion& a, const Quaternion& b) { return Quaternion{a.w + b.w, a.v + b.v}; }
  friend Quaternion operator-(const Quaternion& a, const Quaternion& b) { return Quaternion{a.w - b.w, a.v - b.v}; }
  friend Quaternion operator-(const Quaternion& a) { return Quaternion{-a.w, -a.v}; }
  friend Quaternion operator*(const S& s, const Quaternion& a) { return Quaternion{s * a.w, s * a.v}; }

  // The rotation matrix A(q) of a unit quaternion, mapping child to parent coordinates:
  // A x = vec(q S(x) q*) = (w^2 - v.v) x + 2 (v.x) v + 2 w v x x (seed 000, Eqs. 4-5).
  Mat3<S> matrix() const {
    const S two(2);
    const S xx = v.x() * v.x(), yy = v.y() * v.y(), zz = v.z() * v.z();
    const S xy = v.x() * v.y(), xz = v.x() * v.z(), yz = v.y() * v.z();
    const S wx = w * v.x(), wy = w * v.y(), wz = w * v.z();
    Mat3<S> A;
    A << S(1) - two * (yy + zz), two * (xy - wz), two * (xz + wy),
         two * (xy + wz), S(1) - two * (xx + zz), two * (yz - wx),
         two * (xz - wy), two * (yz + wx), S(1) - two * (xx + yy);
    return A;
  }

  // vec(q S(x) q*) without forming the matrix: x + 2 w (v x x) + 2 v x (v x x).
  Vec3<S> rotate(const Vec3<S>& x) const {
    const Vec3<S> t = S(2) * v.cross(x);
    return x + w * t + v.cross(t);
  }

  template <class T> Quaternion<T> cast() const {
    return Quaternion<T>{scalar_cast<T>(w), v.unaryExpr([](const S& x) { return scalar_cast<T>(x); })};
  }
};

// The unit quaternion of a rotation matrix A (child to parent), by Shepperd's method: the
// largest of 4w^2 = 1 + tr A, 4v_k^2 = 1 + 2A_kk - tr A is taken as the pivot, so the square
// root is of a number >= 1 and the divisions are well conditioned. The sign is the one with
// a positive pivot component.
template <class S> Quaternion<S> quaternion_from_matrix(const Mat3<S>& A) {
  const S tr = A(0, 0) + A(1, 1) + A(2, 2);
  const S quarter = S(1) / S(4);
  Quaternion<S> q;
  if (tr >= A(0, 0) && tr >= A(1, 1) && tr >= A(2, 2)) {
    const S s = sqrt_(S(1) + tr) * S(2);  // 4 w
    q.w = quarter * s;
    q.v = Vec3<S>(A(2, 1) - A(1, 2), A(0, 2) - A(2, 0), A(1, 0) - A(0, 1)) / s;
  } else if (A(0, 0) >= A(1, 1) && A(0, 0) >= A(2, 2)) {
    const S s = sqrt_(S(1) + S(2) * A(0, 0) - tr) * S(2);  // 4 x
    q.w = (A(2, 1) - A(1, 2)) / s;
    q.v = Vec3<S>(quarter * s, (A(0, 1) + A(1, 0)) / s, (A(0, 2) + A(2, 0)) / s);
  } else if (A(1, 1) >= A(2, 2)) {
    const S s = sqrt_(S(1) + S(2) * A(1, 1) - tr) * S(2);  // 4 y
    q.w = (A(0, 2) - A(2, 0)) / s;
    q.v = Vec3<S>((A(0, 1) + A(1, 0)) / s, quarter * s, (A(1, 2) + A(2, 1)) / s);
  } else {
    const S s = sqrt_(S(1) + S(2) * A(2, 2) - tr) * S(2);  // 4 z
    q.w = (A(1, 0) - A(0, 1)) / s;
    q.v = Vec3<S>((A(0, 2) + A(2, 0)) / s, (A(1, 2) + A(2, 1)) / s, quarter * s);
  }
  return q;
}

}  // namespace rbd
