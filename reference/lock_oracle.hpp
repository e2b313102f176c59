#pragma once
// Independent oracle for the lock constraint (algorithms/constraints/, seed 001): two bodies
// and a relative motion law move on prescribed trajectories, and C(t) is evaluated from its
// meaning with arithmetic that shares nothing with what it judges:
//  - rotations as 3x3 matrices by Rodrigues' formula, R = I + sin(th) K + (1 - cos(th)) K^2,
//    K = [n]x, for the translational rows;
//  - quaternions as 2x2 complex matrices (the SU(2) representation q = w + x i + y j + z k ->
//    [[w + i x, y + i z], [-y + i z, w - i x]], conjugate = conjugate transpose), so the
//    Hamilton products of Eqs. 48-49 become matrix products, for the rotational rows;
//  - time derivatives by two nested dual numbers (dual.hpp): C_dot and C_ddot are exact
//    derivatives of C(t), and so are the rates and accelerations handed to the algorithm.
// Each orientation is R(t) = Rod(n_a, th_a(t)) Rod(n_b, th_b(t)) (its quaternion the product
// of the half-angle quaternions), so the angular velocity turns in space and every trajectory
// stays on the unit-quaternion manifold exactly.
#include <array>

#include "reference/dual.hpp"

namespace rbd::oracle::lock {

template <class R> using D2 = Dual<Dual<R>>;
template <class R> using A3 = std::array<R, 3>;
template <class R> using A4 = std::array<R, 4>;
template <class T> using M3 = std::array<std::array<T, 3>, 3>;

template <class R> struct Angle { A3<R> n; R th0, th1, th2; };              // n unit; th(t) = th0 + th1 t + th2 t^2 / 2
template <class R> struct Orientation { Angle<R> a, b; };                  // R(t) = Rod(a) Rod(b)
template <class R> struct Path { A3<R> p0, p1, p2; };                      // p0 + p1 t + p2 t^2 / 2

template <class R> struct LockCase {
  Path<R> xA, xB;                 // body origins, world coordinates
  Orientation<R> qA, qB;          // body orientations
  A3<R> uP, uS;                   // marker origins in body coordinates (fixed)
  Orientation<R> qP, qS;          // marker orientations (use th1 = th2 = 0: fixed on the body)
  Path<R> d;                      // the law's position of P in S
  Orientation<R> qD;              // the law's rotation of P in S
};

// Values at t0, each with its first and second time derivatives ([0], [1], [2]).
template <class R> struct Jet3 { std::array<A3<R>, 3> v; };
template <class R> struct Jet4 { std::array<A4<R>, 3> v; };
template <class R> struct BodyMotion {
  Jet3<R> x;
  Jet4<R> q;
  A3<R> omega_body, alpha_body;    // vee(R^T R_dot) and its derivative
  A3<R> omega_world, alpha_world;  // vee(R_dot R^T) and its derivative
};
template <class R> struct LockMotion {
  BodyMotion<R> A, B;
  A4<R> qP, qS;
  Jet3<R> d;
  Jet4<R> qD;
  std::array<std::array<R, 6>, 3> C;  // C, C_dot, C_ddot
  Jet3<R> dW;                          // X_P - X_S in world coordinates (Eqs. 44, 36)
};

namespace detail {
template <class T> struct Cx { T re, im; };
template <class T> Cx<T> operator+(const Cx<T>& a, const Cx<T>& b) { return {a.re + b.re, a.im + b.im}; }
template <class T> Cx<T> operator-(const Cx<T>& a, const Cx<T>& b) { return {a.re - b.re, a.im - b.im}; }
template <class T> Cx<T> operator*(const Cx<T>& a, const Cx<T>& b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
template <class T> Cx<T> conj(const Cx<T>& a) { return {a.re, -a.im}; }
template <class T> using U2 = std::array<std::array<Cx<T>, 2>, 2>;

template <class T> U2<T> mul(const U2<T>& a, const U2<T>& b) {
  U2<T> c;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) c[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j];
  return c;
}
template <class T> U2<T> adjoint(const U2<T>& a) {
  U2<T> c;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) c[i][j] = conj(a[j][i]);
  return c;
}
template <class T> U2<T> from_quaternion(const T& w, const T& x, const T& y, const T& z) {
  return {{{{Cx<T>{w, x}, Cx<T>{y, z}}}, {{Cx<T>{-y, z}, Cx<T>{w, -x}}}}};
}
template <class T> M3<T> mul(const M3<T>& a, const M3<T>& b) {
  M3<T> c;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) c[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
  return c;
}
template <class T> M3<T> transpose(const M3<T>& a) {
  M3<T> c;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) c[i][j] = a[j][i];
  return c;
}
template <class T> A3<T> mat_vec(const M3<T>& a, const A3<T>& x) {
  return {a[0][0] * x[0] + a[0][1] * x[1] + a[0][2] * x[2], a[1][0] * x[0] + a[1][1] * x[1] + a[1][2] * x[2],
          a[2][0] * x[0] + a[2][1] * x[1] + a[2][2] * x[2]};
}
template <class T> A3<T> sub(const A3<T>& a, const A3<T>& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
template <class T> A3<T> add(const A3<T>& a, const A3<T>& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }

template <class R> D2<R> angle_at(const Angle<R>& g, const D2<R>& t) { return g.th0 + g.th1 * t + (g.th2 / R(2)) * (t * t); }
template <class R> A3<D2<R>> path_at(const Path<R>& p, const D2<R>& t) {
  A3<D2<R>> x;
  for (int k = 0; k < 3; ++k) x[k] = p.p0[k] + p.p1[k] * t + (p.p2[k] / R(2)) * (t * t);
  return x;
}
// Rodrigues: I + s K + (1 - c) K K with K = [n]x.
template <class R> M3<D2<R>> rodrigues(const Angle<R>& g, const D2<R>& t) {
  const SinCos<D2<R>> sc = sin_cos(angle_at(g, t));
  const M3<R> K{{{{R(0), -g.n[2], g.n[1]}}, {{g.n[2], R(0), -g.n[0]}}, {{-g.n[1], g.n[0], R(0)}}}};
  const M3<R> K2 = mul(K, K);
  const D2<R> one_c = D2<R>(R(1)) - sc.c;
  M3<D2<R>> out;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) out[i][j] = D2<R>(R(i == j ? 1 : 0)) + sc.s * K[i][j] + one_c * K2[i][j];
  return out;
}
template <class R> M3<D2<R>> rotation(const Orientation<R>& o, const D2<R>& t) { return mul(rodrigues(o.a, t), rodrigues(o.b, t)); }
// The half-angle quaternion cos(th/2) + n sin(th/2), as an SU(2) matrix.
template <class R> U2<D2<R>> half_angle(const Angle<R>& g, const D2<R>& t) {
  const SinCos<D2<R>> sc = sin_cos(angle_at(g, t) * (R(1) / R(2)));
  return from_quaternion<D2<R>>(sc.c, sc.s * g.n[0], sc.s * g.n[1], sc.s * g.n[2]);
}
template <class R> U2<D2<R>> quaternion(const Orientation<R>& o, const D2<R>& t) { return mul(half_angle(o.a, t), half_angle(o.b, t)); }

template <class R> std::array<R, 3> jet(const D2<R>& f) { return {f.a.a, f.a.b, f.b.b}; }
template <class R> Jet3<R> jet3(const A3<D2<R>>& x) {
  Jet3<R> j;
  for (int k = 0; k < 3; ++k)
    for (int o = 0; o < 3; ++o) j.v[o][k] = jet(x[k])[o];
  return j;
}
template <class R> Jet4<R> jet4(const U2<D2<R>>& u) {  // read back w, x, y, z
  const std::array<D2<R>, 4> q{u[0][0].re, u[0][0].im, u[0][1].re, u[0][1].im};
  Jet4<R> j;
  for (int k = 0; k < 4; ++k)
    for (int o = 0; o < 3; ++o) j.v[o][k] = jet(q[k])[o];
  return j;
}
// vee of the antisymmetric part of M (M itself is antisymmetric for R^T R_dot).
template <class R> A3<R> vee(const M3<R>& m) {
  const R h = R(1) / R(2);
  return {h * (m[2][1] - m[1][2]), h * (m[0][2] - m[2][0]), h * (m[1][0] - m[0][1])};
}
template <class R> M3<R> order(const M3<D2<R>>& m, int o) {
  M3<R> c;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) c[i][j] = jet(m[i][j])[o];
  return c;
}
// omega_body = vee(R^T R_dot); its derivative vee(R^T R_ddot) (R_dot^T R_dot is symmetric).
template <class R> BodyMotion<R> body(const Path<R>& p, const Orientation<R>& o, const D2<R>& t) {
  BodyMotion<R> b;
  b.x = jet3(path_at(p, t));
  b.q = jet4(quaternion(o, t));
  const M3<D2<R>> Rt = rotation(o, t);
  const M3<R> R0 = order(Rt, 0), R1 = order(Rt, 1), R2 = order(Rt, 2);
  b.omega_body = vee(mul(transpose(R0), R1));
  b.alpha_body = vee(mul(transpose(R0), R2));
  b.omega_world = vee(mul(R1, transpose(R0)));
  b.alpha_world = vee(mul(R2, transpose(R0)));
  return b;
}
}  // namespace detail

// Everything at time t0.
template <class R> LockMotion<R> lock_motion(const LockCase<R>& c, const R& t0) {
  using namespace detail;
  const D2<R> t(Dual<R>(t0, R(1)), Dual<R>(R(1), R(0)));  // t0 + eps1 + eps2
  LockMotion<R> m;
  m.A = body(c.xA, c.qA, t);
  m.B = body(c.xB, c.qB, t);
  m.d = jet3(path_at(c.d, t));
  m.qD = jet4(quaternion(c.qD, t));
  m.qP = jet4(quaternion(c.qP, t)).v[0];
  m.qS = jet4(quaternion(c.qS, t)).v[0];
  // Translational rows: r = R_S^T R_B^T (X_P - X_S) - d, X_P = x_A + R_A u_P, X_S = x_B + R_B u_S.
  const M3<D2<R>> RA = rotation(c.qA, t), RB = rotation(c.qB, t), RS = rotation(c.qS, t);
  A3<D2<R>> uP, uS;
  for (int k = 0; k < 3; ++k) uP[k] = D2<R>(c.uP[k]), uS[k] = D2<R>(c.uS[k]);
  const A3<D2<R>> XP = add(path_at(c.xA, t), mat_vec(RA, uP)), XS = add(path_at(c.xB, t), mat_vec(RB, uS));
  const A3<D2<R>> dW = sub(XP, XS);
  const A3<D2<R>> r = sub(mat_vec(mul(transpose(RS), transpose(RB)), dW), path_at(c.d, t));
  // Rotational rows: Im(q_D* q_S* q_B* q_A q_P), products of SU(2) matrices.
  const U2<D2<R>> p = mul(adjoint(quaternion(c.qD, t)),
                          mul(adjoint(quaternion(c.qS, t)), mul(adjoint(quaternion(c.qB, t)), mul(quaternion(c.qA, t), quaternion(c.qP, t)))));
  const std::array<D2<R>, 6> C{r[0], r[1], r[2], p[0][0].im, p[0][1].re, p[0][1].im};
  for (int k = 0; k < 6; ++k)
    for (int o = 0; o < 3; ++o) m.C[o][k] = jet(C[k])[o];
  m.dW = jet3(dW);
  return m;
}

}  // namespace rbd::oracle::lock
