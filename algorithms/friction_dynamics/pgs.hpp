#pragma once
// Projected Gauss-Seidel with Coulomb friction, blocked per contact: the iterative scheme of
// real-time engines (sequential impulses, ODE's and MuJoCo's PGS), here on the friction family's
// rows a = G f + g (steps.hpp) so that its result can be held against friction_lemke's. One sweep
// visits the contacts in order and, with a = G f + g from the newest values,
//  - a sticking contact (mu > 0, |u_t| <= slip_speed):
//        lambda_n <- max(0, lambda_n - a_n / G_nn),
//        f_t      <- P(f_t - a_t / rho),   rho >= the largest eigenvalue of G's 2 x 2 tangent block,
//    P the nearest point of the k-gon with vertices mu lambda_n d_j: lcp.hpp's pyramid cut at
//    lambda_n. A fixed point has a_n >= 0 _|_ lambda_n >= 0 and -a_t in the polygon's normal cone
//    at f_t: zero inside (it sticks), opposing a_t on the boundary (maximum dissipation over the
//    polygon) -- the conditions of lcp.hpp's LCP. The scalar step 1 / rho matters: a step by
//    G_tt^-1 would give -G_tt^-1 a_t in the normal cone instead, a different law unless G_tt is
//    isotropic.
//  - a sliding contact: the kinetic law f_t = -mu lambda_n s (s = u_t / |u_t|) makes a_n depend on
//    lambda_n through c = G_nn - mu (G_n1 s_1 + G_n2 s_2), so lambda_n <- max(0, lambda_n - a_n / c)
//    when c > 0 (c <= 0 is Painleve's case, where no Gauss-Seidel step is defined: left unchanged);
//  - mu = 0: the normal step alone.
// Unlike the frictionless PGS (contact_dynamics/pgs.hpp) this is not a descent method of one
// quadratic (the cone's radius depends on lambda_n), so nothing guarantees convergence:
// verify/lcp_solver_study.cpp measures it.
#include "friction_dynamics/workspace.hpp"

namespace rbd::friction {

template <class S> using Vec2 = Eigen::Matrix<S, 2, 1>;  // a force in a contact's tangent plane, (t1, t2)

namespace pgs_detail {

// The nearest point to p of the convex polygon with the given vertices in counter-clockwise order.
template <class S> Vec2<S> nearest_in_polygon(const Vec2<S>& p, const Vec2<S>* v, int k) {
  bool inside = true;
  for (int j = 0; j < k && inside; ++j) {
    const Vec2<S> e = v[(j + 1) % k] - v[j], w = p - v[j];
    inside = e[0] * w[1] - e[1] * w[0] >= S(0);
  }
  if (inside) return p;
  Vec2<S> best = v[0];
  S best_d = (p - v[0]).squaredNorm();
  for (int j = 0; j < k; ++j) {
    const Vec2<S> a = v[j], e = v[(j + 1) % k] - a;
    S t = e.dot(p - a) / e.squaredNorm();
    t = t < S(0) ? S(0) : (t > S(1) ? S(1) : t);
    const Vec2<S> c = a + t * e;
    const S d = (p - c).squaredNorm();
    if (d < best_d) best_d = d, best = c;
  }
  return best;
}

}  // namespace pgs_detail

// One sweep over f = (lambda_n, f_1, f_2) per contact (3 n_c, in place), on ws.G, ws.g and the
// slip classes of ws (friction_kinematics). rho[i]: contact i's tangential step scale.
template <class S>
void friction_pgs_sweep(const PointContacts<S>& contacts, const FrictionWorkspace<S>& ws, const VecX<S>& rho, VecX<S>& f,
                        std::vector<Vec2<S>>& polygon) {
  const MatX<S>& G = ws.G;
  for (int i = 0; i < ws.nc; ++i) {
    const int r = 3 * i;
    const S mu = contacts[i].friction;
    const S an = G.row(r).dot(f) + ws.g[r];
    if (ws.sliding[i] && mu > S(0)) {
      const S s1 = ws.slip1[i], s2 = ws.slip2[i];
      const S c = G(r, r) - mu * (G(r, r + 1) * s1 + G(r, r + 2) * s2);
      if (c > S(0)) {
        const S next = f[r] - an / c;
        f[r] = next > S(0) ? next : S(0);
      }
      f[r + 1] = -mu * f[r] * s1;
      f[r + 2] = -mu * f[r] * s2;
      continue;
    }
    if (G(r, r) > S(0)) {
      const S next = f[r] - an / G(r, r);
      f[r] = next > S(0) ? next : S(0);
    }
    if (!(mu > S(0))) {
      f[r + 1] = f[r + 2] = S(0);
      continue;
    }
    const S a1 = G.row(r + 1).dot(f) + ws.g[r + 1], a2 = G.row(r + 2).dot(f) + ws.g[r + 2];
    const int k = contacts[i].facets, first = ws.facet_first[i];
    const S radius = mu * f[r];
    for (int j = 0; j < k; ++j) polygon[j] = Vec2<S>(radius * ws.facet_cos[first + j], radius * ws.facet_sin[first + j]);
    const Vec2<S> trial(f[r + 1] - a1 / rho[i], f[r + 2] - a2 / rho[i]);
    const Vec2<S> next = radius > S(0) ? pgs_detail::nearest_in_polygon<S>(trial, polygon.data(), k) : Vec2<S>::Zero();
    f[r + 1] = next[0];
    f[r + 2] = next[1];
  }
}

// rho[i] = the largest eigenvalue of contact i's tangent block [G_11 G_12; G_12 G_22] (closed form).
template <class S> void friction_pgs_steps(const FrictionWorkspace<S>& ws, VecX<S>& rho) {
  rho.resize(ws.nc);
  for (int i = 0; i < ws.nc; ++i) {
    const int r = 3 * i + 1;
    const S a = ws.G(r, r), b = ws.G(r, r + 1), d = ws.G(r + 1, r + 1);
    const S mean = (a + d) / S(2), half = (a - d) / S(2);
    rho[i] = mean + sqrt_<S>(S(half * half + b * b));
  }
}

}  // namespace rbd::friction
