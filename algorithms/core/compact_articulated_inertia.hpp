#pragma once
// The compact operations of Table A.4 (App. A.3) that move or combine whole inertias with a
// general Plücker transform X = (E, r): X* I X^-1 for a rigid-body inertia, and alpha I^A,
// I^A_1 + I^A_2, I^A + I, X* I^A X^-1 and X^T I^A X for an articulated-body inertia held as
// Table A.3's abi(lt(M), H, lt(I)) (core/axial_screw.hpp's Abi: [Is H; H^T M], 21 numbers;
// Is and M are stored in full, only their lower triangles are read, and the upper ones are
// written as copies, so every result is exactly symmetric). The rotations E A E^T use the
// efficiency tricks of App. A.5, which the table's figures assume; they need E to be a proper
// rotation (E E^T = 1, det E = 1), which a Transform's E is. verify/test_table_a_4.cpp checks
// each operation against its 6x6 definition in Reference and its count against Table A.4.
#include "core/axial_screw.hpp"

namespace rbd {

namespace detail {
// A = L + D + v x with L's third column zero, D = A33 1 and v = (-A23, A13, 0) (App. A.5), so
// E A E^T = E L E^T + A33 1 + (E v) x: L costs 4a, E v 6m + 3a.
template <class S> struct RotationSplit {
  S L00, L01, L10, L11, L20, L21, w0, w1, w2;
  RBD_INLINE RotationSplit(const Mat3<S>& E, const Mat3<S>& A, const S& A01, const S& A02, const S& A12)
      : L00(A(0, 0) - A(2, 2)), L01(A01), L10(A(1, 0)), L11(A(1, 1) - A(2, 2)), L20(A(2, 0) + A02),
        L21(A(2, 1) + A12) {
    const S v0 = -A12, v1 = A02;
    w0 = E(0, 0) * v0 + E(0, 1) * v1;
    w1 = E(1, 0) * v0 + E(1, 1) * v1;
    w2 = E(2, 0) * v0 + E(2, 1) * v1;
  }
  // (E L)_i. for row i: the two non-zero columns, 6m + 4a.
  RBD_INLINE void row(const Mat3<S>& E, int i, S& y0, S& y1) const {
    y0 = E(i, 0) * L00 + E(i, 1) * L10 + E(i, 2) * L20;
    y1 = E(i, 0) * L01 + E(i, 1) * L11 + E(i, 2) * L21;
  }
};
}  // namespace detail

// lt(E A E^T) for symmetric A (App. A.5, "Rotation of a Symmetric Matrix"): L 4a, Y = rows 2-3
// of E L 12m + 8a, Z = lt of rows 2-3 of Y E^T 10m + 5a, Z_11 = L_11 + L_22 - Z_22 - Z_33 from
// the trace's invariance 3a, E v 6m + 3a, Z + D + (E v)x 6a: 28m + 29a. Reads A's lower
// triangle only.
template <class S> inline Mat3<S> rotated_symmetric(const Mat3<S>& E, const Mat3<S>& A) {
  const detail::RotationSplit<S> sp(E, A, A(1, 0), A(2, 0), A(2, 1));
  S y10, y11, y20, y21;
  sp.row(E, 1, y10, y11);
  sp.row(E, 2, y20, y21);
  const S z10 = y10 * E(0, 0) + y11 * E(0, 1), z11 = y10 * E(1, 0) + y11 * E(1, 1);
  const S z20 = y20 * E(0, 0) + y21 * E(0, 1), z21 = y20 * E(1, 0) + y21 * E(1, 1), z22 = y20 * E(2, 0) + y21 * E(2, 1);
  const S z00 = sp.L00 + sp.L11 - z11 - z22;
  Mat3<S> B;
  B(0, 0) = z00 + A(2, 2);
  B(1, 1) = z11 + A(2, 2);
  B(2, 2) = z22 + A(2, 2);
  B(0, 1) = B(1, 0) = z10 + sp.w2;  // (w x)_21 = w_3
  B(0, 2) = B(2, 0) = z20 - sp.w1;  // (w x)_31 = -w_2
  B(1, 2) = B(2, 1) = z21 + sp.w0;  // (w x)_32 = w_1
  return B;
}

// E A E^T for general A (App. A.5, "Rotation of a General Matrix"): L 4a, Y = E L 18m + 12a,
// Y E^T 18m + 9a, E v 6m + 3a, Z + D + (E v)x 9a: 42m + 37a. Z_11 is computed with the rest
// (A.5's alternative, 2m + 1a) rather than from the trace (3a, which would make it 40m + 39a):
// that is the choice with which Table A.4's 137m + 137a for X* I^A X^-1 and X^T I^A X adds up.
template <class S> inline Mat3<S> rotated_general(const Mat3<S>& E, const Mat3<S>& A) {
  const detail::RotationSplit<S> sp(E, A, A(0, 1), A(0, 2), A(1, 2));
  S y[3][2];
  for (int i = 0; i < 3; ++i) sp.row(E, i, y[i][0], y[i][1]);
  Mat3<S> B;
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) B(i, k) = y[i][0] * E(k, 0) + y[i][1] * E(k, 1);  // (E L E^T)_ik
  B(0, 0) += A(2, 2);
  B(1, 1) += A(2, 2);
  B(2, 2) += A(2, 2);
  B(1, 0) += sp.w2; B(0, 1) -= sp.w2;
  B(2, 0) -= sp.w1; B(0, 2) += sp.w1;
  B(2, 1) += sp.w0; B(1, 2) -= sp.w0;
  return B;
}

// X* I X^-1 (Table A.4; App. A.3's worked example): (m, E y, lt(E Z E^T)) with y = h - m r and
// Z = Ibar + rx hx + yx rx. From a x b x = b a^T - (a.b) 1, lt(rx hx) has h_a r_b below the
// diagonal and -(r_b h_b + r_c h_c) on it (6m + 3a), lt(yx rx) likewise r_a y_b and
// -(y_b r_b + y_c r_c) (6m + 3a). Cost as App. A.3 tabulates it: y 3m + 3a, the two 6m + 3a,
// lt(Z) 12a, E y 9m + 6a, E Z E^T 28m + 29a: 52m + 56a. Carries an inertia from A to B
// coordinates (Eq. 2.66, ^B I = ^B X*_A ^A I ^A X_B), the opposite way to
// transform_transpose (core/inertia.hpp).
template <class S> inline Inertia<S> transform(const Transform<S>& X, const Inertia<S>& I) {
  const Vec3<S>& r = X.r;
  const Vec3<S>& h = I.h;
  const Vec3<S> y = h - I.m * r;
  const Vec3<S> p(r[0] * h[0], r[1] * h[1], r[2] * h[2]), q(y[0] * r[0], y[1] * r[1], y[2] * r[2]);
  const Vec3<S> dp(p[1] + p[2], p[2] + p[0], p[0] + p[1]), dq(q[1] + q[2], q[2] + q[0], q[0] + q[1]);
  Mat3<S> Z;
  for (int a = 0; a < 3; ++a) {
    Z(a, a) = I.Ibar(a, a) - dp[a] - dq[a];
    for (int b = 0; b < a; ++b) Z(b, a) = Z(a, b) = I.Ibar(a, b) + h[a] * r[b] + r[a] * y[b];
  }
  return Inertia<S>{I.m, X.E * y, rotated_symmetric<S>(X.E, Z)};
}

// alpha I^A = abi(lt(alpha M), alpha H, lt(alpha I)) (Table A.4): 21m.
template <class S> inline Abi<S> operator*(const S& alpha, const Abi<S>& A) {
  Abi<S> out;
  for (int a = 0; a < 3; ++a) {
    for (int b = 0; b < 3; ++b) out.H(a, b) = alpha * A.H(a, b);
    for (int b = 0; b <= a; ++b) {
      out.Is(b, a) = out.Is(a, b) = alpha * A.Is(a, b);
      out.M(b, a) = out.M(a, b) = alpha * A.M(a, b);
    }
  }
  return out;
}

// I^A_1 + I^A_2 = abi(lt(M_1 + M_2), H_1 + H_2, lt(I_1 + I_2)) (Table A.4): 21a.
template <class S> inline Abi<S> operator+(const Abi<S>& A1, const Abi<S>& A2) {
  Abi<S> out;
  for (int a = 0; a < 3; ++a) {
    for (int b = 0; b < 3; ++b) out.H(a, b) = A1.H(a, b) + A2.H(a, b);
    for (int b = 0; b <= a; ++b) {
      out.Is(b, a) = out.Is(a, b) = A1.Is(a, b) + A2.Is(a, b);
      out.M(b, a) = out.M(a, b) = A1.M(a, b) + A2.M(a, b);
    }
  }
  return out;
}

// I^A + I = abi(lt(M + m 1), H + hx, lt(I + Ibar)) (Table A.4): 3a + 6a + 6a = 15a, adding
// only the non-zero entries of m 1 and hx (Eq. 2.63's [Ibar hx; hx^T m1]).
template <class S> inline Abi<S> operator+(const Abi<S>& A, const Inertia<S>& I) {
  Abi<S> out = A;
  for (int a = 0; a < 3; ++a) {
    const int b = (a + 1) % 3, c = (a + 2) % 3;
    out.M(a, a) = A.M(a, a) + I.m;
    out.H(b, c) = A.H(b, c) - I.h[a];  // (hx)_bc = -h_a, (hx)_cb = h_a
    out.H(c, b) = A.H(c, b) + I.h[a];
    for (int k = 0; k <= a; ++k) out.Is(k, a) = out.Is(a, k) = A.Is(a, k) + I.Ibar(a, k);
  }
  for (int a = 0; a < 3; ++a)
    for (int k = 0; k < a; ++k) out.M(k, a) = out.M(a, k);
  return out;
}

namespace detail {
// r x M for symmetric M (Table A.4's note: a skew times a symmetric matrix, 15m + 9a): row a is
// r_{a+1} M_{a+2,.} - r_{a+2} M_{a+1,.}, and each r_k multiplies the five distinct entries of
// rows k+1 and k+2 of M (M_{k+1,k+2} = M_{k+2,k+1} serves both), read from the lower triangle.
template <class S> inline Mat3<S> cross_symmetric(const Vec3<S>& r, const Mat3<S>& M) {
  auto m = [&M](int i, int j) -> const S& { return i >= j ? M(i, j) : M(j, i); };
  S P[3][3][3];  // P[k][i][j] = r_k M_ij, filled for rows i = k+1, k+2 (the ones used)
  for (int k = 0; k < 3; ++k) {
    const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
    P[k][k1][k] = r[k] * m(k1, k);
    P[k][k1][k1] = r[k] * m(k1, k1);
    P[k][k2][k] = r[k] * m(k2, k);
    P[k][k2][k2] = r[k] * m(k2, k2);
    P[k][k1][k2] = P[k][k2][k1] = r[k] * m(k2, k1);
  }
  Mat3<S> T;
  for (int a = 0; a < 3; ++a) {
    const int a1 = (a + 1) % 3, a2 = (a + 2) % 3;
    for (int b = 0; b < 3; ++b) T(a, b) = P[a1][a2][b] - P[a2][a1][b];
  }
  return T;
}
// lt(I + s (r x G^T - Y r x)) for s = +-1 (the inner terms of both I^A transforms): entry (a, b)
// is r_{a+1} G_{b,a+2} - r_{a+2} G_{b,a+1} (2m + 1a) and Y_{a,b+1} r_{b+2} - Y_{a,b+2} r_{b+1}
// (2m + 1a), added to I_ab (2a): 24m + 24a for the six entries; the upper triangle is copied.
template <bool Plus, class S>
inline Mat3<S> inner_term(const Mat3<S>& I, const Vec3<S>& r, const Mat3<S>& G, const Mat3<S>& Y) {
  Mat3<S> Z;
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b <= a; ++b) {
      const int a1 = (a + 1) % 3, a2 = (a + 2) % 3, b1 = (b + 1) % 3, b2 = (b + 2) % 3;
      const S rG = r[a1] * G(b, a2) - r[a2] * G(b, a1);  // (r x G^T)_ab
      const S Yr = Y(a, b1) * r[b2] - Y(a, b2) * r[b1];  // (Y r x)_ab
      Z(b, a) = Z(a, b) = Plus ? S(I(a, b) + rG - Yr) : S(I(a, b) - rG + Yr);
    }
  return Z;
}
}  // namespace detail

// X* I^A X^-1 (Table A.4; Eq. 2.66's rule, which holds for articulated inertias too): writing
// X* = diag(E, E) [1 -rx; 0 1] (Eq. 2.25) and X^-1 = [1 0; rx 1] diag(E^T, E^T) (Eq. 2.26),
//   X* [I H; H^T M] X^-1 = abi(lt(E M E^T), E Y E^T, lt(E Z E^T)),
//   Y = H - rx M,  Z = I - rx H^T + Y rx,
// the general form of App. A.4's breakdown for an axial screw. Cost: E M E^T 28m + 29a, rx M
// 15m + 9a, Y 9a, lt(Z) 24m + 24a, E Y E^T 42m + 37a, E Z E^T 28m + 29a: 137m + 137a.
template <class S> inline Abi<S> transform(const Transform<S>& X, const Abi<S>& A) {
  const Mat3<S> Y = A.H - detail::cross_symmetric<S>(X.r, A.M);
  const Mat3<S> Z = detail::inner_term<false, S>(A.Is, X.r, A.H, Y);
  return Abi<S>{rotated_symmetric<S>(X.E, Z), rotated_general<S>(X.E, Y), rotated_symmetric<S>(X.E, A.M)};
}

// X^T I^A X (Table A.4): with X = diag(E, E) [1 0; -rx 1] (Eq. 2.24) and X^T = [1 rx; 0 1]
// diag(E^T, E^T) (Eq. 2.27, X^T = ^A X*_B),
//   X^T [I H; H^T M] X = abi(lt(M'), Y, lt(E^T I E + rx H'^T - Y rx)),
//   M' = E^T M E,  H' = E^T H E,  Y = H' + rx M'.
// The same operations as transform() in the other order, and the same 137m + 137a. Carries an
// articulated inertia from B coordinates back to A, as the articulated-body algorithm does from
// a body to its parent.
template <class S> inline Abi<S> transform_transpose(const Transform<S>& X, const Abi<S>& A) {
  const Mat3<S> Et = X.E.transpose();
  const Mat3<S> Mp = rotated_symmetric<S>(Et, A.M), Hp = rotated_general<S>(Et, A.H), Ip = rotated_symmetric<S>(Et, A.Is);
  const Mat3<S> Y = Hp + detail::cross_symmetric<S>(X.r, Mp);
  return Abi<S>{detail::inner_term<true, S>(Ip, X.r, Hp, Y), Y, Mp};
}

}  // namespace rbd
