#pragma once
// Axial-screw transforms (Featherstone App. A.4) and the efficiency tricks of App. A.5: the
// building blocks of the Denavit-Hartenberg variants (section 10.3.1, optimisation 3). An
// axial screw scr_K(theta, dist) = rot(r_K(theta)) xlt(dist e_K) rotates about and
// translates along one coordinate axis K (0 = x, 1 = y, 2 = z); each operation here is the
// general compact formula of Table A.4 with the zeros of E and r taken out, at the cost
// Table A.5 states (checked by verify/test_dh_frames.cpp against the general forms).
#include "core/inertia.hpp"

namespace rbd {

// The axial-rotation data structure of App. A.4/A.5: c = cos(theta), s = sin(theta) and
// the derived cs, s^2, 2cs, 1 - 2s^2 used by the symmetric-matrix rotation trick (A.5).
template <class S> struct AxialRotation {
  S c = S(1), s = S(0), cs = S(0), ss = S(0), two_cs = S(0), one_minus_2ss = S(1);
  // The one-time cost of App. A.5: cs, s^2 (2m); 2cs, 1 - 2s^2 (3a).
  RBD_INLINE void set(const S& c_, const S& s_) {
    c = c_; s = s_;
    cs = c * s;
    ss = s * s;
    two_cs = cs + cs;
    one_minus_2ss = S(1) - ss - ss;
  }
  // The rotation by -theta (E^T): sign changes only, no arithmetic.
  RBD_INLINE AxialRotation inverse() const { return {c, -s, -cs, ss, -two_cs, one_minus_2ss}; }
};

// ---------------------------------------------------------------------------------------
// Axial-screw operations (App. A.4), for a screw about coordinate axis K (0 = x, 2 = z) with
// rotation R and translation `dist` along K. X = scr = rot(E) xlt(dist e_K), E = r_K(theta).

// f <- X^T f (force from the screwed frame back to the original): [E^T n + r x E^T f; E^T f],
// 10m + 6a (Table A.5, first row).
template <int K, class S>
RBD_INLINE void screw_transpose_force(const AxialRotation<S>& R, const S& dist, S& n0, S& n1, S& n2, S& f0, S& f1,
                                      S& f2) {
  constexpr int k1 = (K + 1) % 3, k2 = (K + 2) % 3;
  S* n[3] = {&n0, &n1, &n2};
  S* f[3] = {&f0, &f1, &f2};
  const S g1 = R.c * *f[k1] - R.s * *f[k2], g2 = R.c * *f[k2] + R.s * *f[k1];  // E^T f
  const S m1 = R.c * *n[k1] - R.s * *n[k2], m2 = R.c * *n[k2] + R.s * *n[k1];  // E^T n
  *f[k1] = g1; *f[k2] = g2;
  *n[k1] = m1 - dist * g2;  // + dist e_K x g
  *n[k2] = m2 + dist * g1;
}

// m <- X m (motion from the original frame to the screwed one): [E w; E (v - r x w)],
// 10m + 6a (Table A.5, first row).
template <int K, class S>
RBD_INLINE void screw_apply_motion(const AxialRotation<S>& R, const S& dist, S& w0, S& w1, S& w2, S& v0, S& v1,
                                   S& v2) {
  constexpr int k1 = (K + 1) % 3, k2 = (K + 2) % 3;
  S* w[3] = {&w0, &w1, &w2};
  S* v[3] = {&v0, &v1, &v2};
  const S u1 = *v[k1] + dist * *w[k2], u2 = *v[k2] - dist * *w[k1];  // v - dist e_K x w
  const S o1 = R.c * *w[k1] + R.s * *w[k2], o2 = R.c * *w[k2] - R.s * *w[k1];
  *w[k1] = o1; *w[k2] = o2;
  *v[k1] = R.c * u1 + R.s * u2;
  *v[k2] = R.c * u2 - R.s * u1;
}

// lt(E A E^T) for symmetric A and E = r_K(theta) (App. A.5, "Rotation of a Symmetric Matrix
// about a Coordinate Axis"): 8m + 7a recurring, given R's one-time part. Pass R.inverse() for
// E^T A E. Writes both triangles (copies are free).
// Z >= 0 declares row and column Z of A exactly zero (an articulated inertia I^a of a joint
// with S = e_Z, App. A.4) and skips the terms that vanish: Z = K keeps them zero (4m + 5a),
// Z = K + 2 gives 4m + 1a (the two cases of Table A.5's I^a rows).
template <int K, int Z = -1, class S> RBD_INLINE void rotate_symmetric(const AxialRotation<S>& R, Mat3<S>& A) {
  constexpr int k1 = (K + 1) % 3, k2 = (K + 2) % 3;
  static_assert(Z == -1 || Z == K || Z == k2, "zero row/column supported on the axis or on K + 2");
  if constexpr (Z == k2) {
    const S D = -A(k1, k1);                           // A_k2k2 = A_k2k1 = 0
    const S alpha = R.ss * D, beta = R.cs * D;
    const S bk1 = R.c * A(K, k1), bk2 = -(R.s * A(K, k1));
    A(k1, k1) += alpha;
    A(k2, k2) = -alpha;
    A(k2, k1) = A(k1, k2) = beta;
    A(K, k1) = A(k1, K) = bk1;
    A(K, k2) = A(k2, K) = bk2;
  } else {
    const S D = A(k2, k2) - A(k1, k1);
    const S alpha = R.two_cs * A(k2, k1) + R.ss * D;
    const S beta = R.cs * D + R.one_minus_2ss * A(k2, k1);
    A(k1, k1) += alpha;
    A(k2, k2) -= alpha;
    A(k2, k1) = A(k1, k2) = beta;
    if constexpr (Z != K) {                           // row and column K stay zero when Z = K
      const S bk1 = R.c * A(K, k1) + R.s * A(K, k2), bk2 = R.c * A(K, k2) - R.s * A(K, k1);
      A(K, k1) = A(k1, K) = bk1;
      A(K, k2) = A(k2, K) = bk2;
    }
  }
}

// I <- X^T I X, the inertia carried from the screwed frame back to the original (Table A.4's
// formula for X^T I X with E^T r = r): (m, E^T y, E^T (Ibar - rx hx - yx rx) E), y = h + m r.
// With md = m * dist precomputed: y 1a, Z 3m + 5a, E^T y 4m + 2a, E^T Z E 8m + 7a:
// 15m + 15a (section 10.3.1, one m below Table A.5's 16m + 15a).
template <int K, class S>
RBD_INLINE void screw_transpose_inertia(const AxialRotation<S>& R, const S& dist, const S& md, Inertia<S>& I) {
  constexpr int k1 = (K + 1) % 3, k2 = (K + 2) % 3;
  const S yK = I.h[K] + md;                     // y = h + m r
  const S t = (I.h[K] + yK) * dist;             // Z = Ibar - (rx hx + yx rx)
  const S dk1 = dist * I.h[k1], dk2 = dist * I.h[k2];
  I.Ibar(k1, k1) += t;
  I.Ibar(k2, k2) += t;
  I.Ibar(K, k1) -= dk1; I.Ibar(k1, K) = I.Ibar(K, k1);
  I.Ibar(K, k2) -= dk2; I.Ibar(k2, K) = I.Ibar(K, k2);
  const AxialRotation<S> Rt = R.inverse();      // E^T
  const S h1 = Rt.c * I.h[k1] + Rt.s * I.h[k2], h2 = Rt.c * I.h[k2] - Rt.s * I.h[k1];
  I.h[k1] = h1; I.h[k2] = h2; I.h[K] = yK;      // E^T y
  rotate_symmetric<K>(Rt, I.Ibar);              // E^T Z E
}

// acc += I for compact inertias with symmetric Ibar: 10a (section 10.3.1's ra; App. A.3),
// the upper triangle copied.
template <class S> RBD_INLINE void add_inertia(const Inertia<S>& I, Inertia<S>& acc) {
  acc.m += I.m;
  acc.h += I.h;
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b <= a; ++b) acc.Ibar(b, a) = acc.Ibar(a, b) = acc.Ibar(a, b) + I.Ibar(a, b);
}

// A compact articulated-body inertia [Is H; H^T M] (Table A.3: 21 numbers; Is, M symmetric
// and stored in full, H general).
template <class S> struct Abi {
  Mat3<S> Is = Mat3<S>::Zero(), H = Mat3<S>::Zero(), M = Mat3<S>::Zero();
  Mat6<S> matrix() const {
    Mat6<S> X;
    X << Is, H, H.transpose(), M;
    return X;
  }
  static Abi from_matrix(const Mat6<S>& X) {
    return Abi{X.template topLeftCorner<3, 3>(), X.template topRightCorner<3, 3>(), X.template bottomRightCorner<3, 3>()};
  }
  static Abi from_inertia(const Inertia<S>& I) {  // [Ibar hx; hx^T m1] (Eq. 2.63), no arithmetic
    Abi A;
    A.Is = I.Ibar;
    A.H = skew<S>(I.h);
    A.M.diagonal().setConstant(I.m);
    return A;
  }
};

// B = E A E^T for a general 3x3 A and E = r_K(theta) (App. A.5, "Rotation of a General Matrix
// about a Coordinate Axis"): 12m + 12a given R's cs and s^2. Pass R.inverse() for E^T A E.
// Z >= 0 declares row Z of A exactly zero (the H block of an I^a, App. A.4): Z = K keeps it
// zero (8m + 10a), Z = K + 2 costs 10m + 6a.
template <int K, int Z = -1, class S> RBD_INLINE void rotate_general(const AxialRotation<S>& R, Mat3<S>& A) {
  constexpr int k1 = (K + 1) % 3, k2 = (K + 2) % 3;
  static_assert(Z == -1 || Z == K || Z == k2, "zero row supported on the axis or on K + 2");
  if constexpr (Z == k2) {
    const S sum = A(k1, k2), dif = -A(k1, k1);       // row k2 is zero
    const S alpha = R.cs * sum + R.ss * dif, beta = R.cs * dif - R.ss * sum;
    const S rK1 = R.c * A(K, k1) + R.s * A(K, k2), rK2 = R.c * A(K, k2) - R.s * A(K, k1);
    const S c1K = R.c * A(k1, K), c2K = -(R.s * A(k1, K));
    A(k1, k1) += alpha;
    A(k2, k2) = -alpha;
    A(k1, k2) += beta;
    A(k2, k1) = beta;
    A(K, k1) = rK1; A(K, k2) = rK2;
    A(k1, K) = c1K; A(k2, K) = c2K;
  } else {
    const S sum = A(k1, k2) + A(k2, k1), dif = A(k2, k2) - A(k1, k1);
    const S alpha = R.cs * sum + R.ss * dif, beta = R.cs * dif - R.ss * sum;
    const S c1K = R.c * A(k1, K) + R.s * A(k2, K), c2K = R.c * A(k2, K) - R.s * A(k1, K);
    if constexpr (Z != K) {                           // row K stays zero when Z = K
      const S rK1 = R.c * A(K, k1) + R.s * A(K, k2), rK2 = R.c * A(K, k2) - R.s * A(K, k1);
      A(K, k1) = rK1; A(K, k2) = rK2;
    }
    A(k1, k1) += alpha;
    A(k2, k2) -= alpha;
    A(k1, k2) += beta;
    A(k2, k1) += beta;
    A(k1, K) = c1K; A(k2, K) = c2K;
  }
}

// A <- X^T A X for an articulated inertia and X = scr_K(theta, dist) (Table A.4's X^T I^A X
// with r = dist e_K): M' = E^T M E, H' = E^T H E, Y = H' + rx M', and
// Is' = E^T Is E + rx H'^T - Y rx; the result is (Is', Y, M'). With r along e_K the
// correction T = rx H'^T - Y rx has five distinct non-zero entries (k1 = K+1, k2 = K+2):
//   T_k1k1 = -dist (H'_k1k2 + Y_k1k2), T_k2k2 = dist (H'_k2k1 + Y_k2k1),
//   T_k2k1 = dist (H'_k1k1 - Y_k2k2), T_Kk1 = -dist H'_Kk2, T_Kk2 = dist H'_Kk1.
// Cost: 8m + 7a, 12m + 12a, 5m + 6a, 8m + 7a, 5m + 8a: 38m + 40a (Table A.5's I^A row).
// Z >= 0: row and column Z of Is and row Z of H are exactly zero (I^a of a joint with
// S = e_Z, App. A.4): Z = K (scrz of an I^a about its own joint axis) keeps them zero and
// costs 28m + 34a; Z = K + 2 (the following scrx) costs 32m + 28a, as Table A.5 states.
template <int K, int Z = -1, class S> RBD_INLINE void screw_transpose_abi(const AxialRotation<S>& R, const S& dist, Abi<S>& A) {
  constexpr int k1 = (K + 1) % 3, k2 = (K + 2) % 3;
  const AxialRotation<S> Rt = R.inverse();
  rotate_symmetric<K>(Rt, A.M);                       // M'
  rotate_general<K, Z>(Rt, A.H);                      // H'
  rotate_symmetric<K, Z>(Rt, A.Is);                   // E^T Is E
  const Mat3<S>& M = A.M;
  const S d21 = dist * M(k2, k1);                     // rx M': row k1 = -dist M'_k2., row k2 = dist M'_k1.
  Mat3<S> Y = A.H;
  Y(k1, k1) -= d21;
  Y(k1, k2) -= dist * M(k2, k2);
  Y(k1, K) -= dist * M(k2, K);
  Y(k2, k1) += dist * M(k1, k1);
  Y(k2, k2) += d21;
  Y(k2, K) += dist * M(k1, K);
  const S tk1k1 = -dist * (A.H(k1, k2) + Y(k1, k2)), tk2k2 = dist * (A.H(k2, k1) + Y(k2, k1));
  const S tk2k1 = dist * (A.H(k1, k1) - Y(k2, k2));
  A.Is(k1, k1) += tk1k1;
  A.Is(k2, k2) += tk2k2;
  A.Is(k2, k1) += tk2k1; A.Is(k1, k2) = A.Is(k2, k1);
  if constexpr (Z != K) {                             // H'_K. = 0 when Z = K: T_Kk1 = T_Kk2 = 0
    const S tKk1 = -dist * A.H(K, k2), tKk2 = dist * A.H(K, k1);
    A.Is(K, k1) += tKk1; A.Is(k1, K) = A.Is(K, k1);
    A.Is(K, k2) += tKk2; A.Is(k2, K) = A.Is(K, k2);
  }
  A.H = Y;
}

}  // namespace rbd
