#pragma once
// The friction LCP at the acceleration level, from a = G f + g (steps.hpp). It is the LCP of
// Eq. 11.42 with Coulomb's law added in the form Stewart and Trinkle (1996) and Trinkle, Pang,
// Sudarsky and Lo (1997) gave it, written here for accelerations as chapter 11 writes the
// frictionless one. Per contact i, with k facet directions d_j (model/contact.hpp):
//  - a sticking contact (|u_t| <= slip_speed) has unknowns lambda_n, beta_1..k and gamma, its
//    friction force is f_t = sum_j beta_j d_j, and
//        a_n                    >= 0  _|_  lambda_n >= 0   (Eq. 11.42's condition)
//        d_j . a_t + gamma      >= 0  _|_  beta_j   >= 0   (friction opposes the tangential
//                                                           acceleration: only the facets that
//                                                           oppose it most carry force)
//        mu lambda_n - sum beta >= 0  _|_  gamma    >= 0   (f_t within the pyramid; gamma > 0,
//                                                           the contact starts to slip, only on
//                                                           its boundary)
//    If the contact stays stuck, a_t = 0 and gamma = 0; if it starts to slip, gamma is
//    -min_j d_j . a_t > 0 and f_t lies on the pyramid's boundary at the vertex or edge that
//    opposes a_t (maximum dissipation over the polygon).
//  - a sliding contact (|u_t| > slip_speed) has only lambda_n: its force is
//    lambda_n (n - mu u_t / |u_t|), the kinetic law, and its row is a_n >= 0 _|_ lambda_n >= 0.
//    So has a contact with mu = 0, sticking or not: its pyramid is a point, f_t = 0 (with beta and
//    gamma kept, its rows would be degenerate: beta = 0 forced and gamma free, the ties that
//    make Lemke's path fragile).
// z = [lambda_n of every contact; beta, gamma of each sticking contact], f = B z, and the rows
// above are w = A z + b with A = P G B plus the gamma and mu couplings, b = P g (P picks a_n
// and d_j . a_t). A is not symmetric, and with sliding contacts not even copositive: Painleve's
// paradox (a sliding rod whose friction pulls it into the surface) is an LCP with no solution
// or several. Lemke's algorithm (contact_dynamics/lemke.hpp) solves it; ending in a ray is a
// clear error. For sticking contacts alone the matrix is copositive-plus (PSD G plus the
// skew-like mu / -1 / +1 couplings), and Lemke then finds a solution whenever one exists.
#include "contact_dynamics/lemke.hpp"
#include "friction_dynamics/workspace.hpp"

namespace rbd::friction {

// The layout of z (beta0, gamma, N), B, then A and b, from ws.G, ws.g and the slip classes.
template <class S> void build_lcp(const PointContacts<S>& contacts, FrictionWorkspace<S>& ws) {
  const int nc = ws.nc;
  int next = nc;
  for (int i = 0; i < nc; ++i) {
    if (ws.sliding[i] || !(contacts[i].friction > S(0))) {  // mu = 0: the pyramid is a point, no beta or gamma
      ws.beta0[i] = ws.gamma[i] = -1;
    } else {
      ws.beta0[i] = next;
      next += contacts[i].facets;
      ws.gamma[i] = next++;
    }
  }
  const int N = ws.N = next;
  auto B = ws.B.leftCols(N);
  B.setZero();
  for (int i = 0; i < nc; ++i) {
    const S mu = contacts[i].friction;
    B(3 * i, i) = S(1);
    if (ws.beta0[i] < 0) {  // sliding (f_t = -mu lambda_n u_t / |u_t|) or frictionless (mu = 0, f_t = 0)
      B(3 * i + 1, i) = -mu * ws.slip1[i];
      B(3 * i + 2, i) = -mu * ws.slip2[i];
    } else {
      for (int j = 0; j < contacts[i].facets; ++j) {
        B(3 * i + 1, ws.beta0[i] + j) = ws.facet_cos[ws.facet_first[i] + j];
        B(3 * i + 2, ws.beta0[i] + j) = ws.facet_sin[ws.facet_first[i] + j];
      }
    }
  }
  // G B column by column over B's nonzeros (one to three per column): a dense product would
  // spend most of its work on B's zeros.
  auto GB = ws.GB.leftCols(N);
  for (int j = 0; j < N; ++j) {
    GB.col(j).setZero();
    for (int k = 0; k < 3 * nc; ++k)
      if (B(k, j) != S(0)) GB.col(j) += B(k, j) * ws.G.col(k);
  }
  auto A = ws.lcp_A.topLeftCorner(N, N);
  A.setZero();
  for (int i = 0; i < nc; ++i) {
    A.row(i) = GB.row(3 * i);  // a_n
    ws.lcp_b[i] = ws.g[3 * i];
    if (ws.beta0[i] < 0) continue;
    const int k = contacts[i].facets, g = ws.gamma[i];
    for (int j = 0; j < k; ++j) {
      const int r = ws.beta0[i] + j;
      const S cj = ws.facet_cos[ws.facet_first[i] + j], sj = ws.facet_sin[ws.facet_first[i] + j];
      A.row(r) = cj * GB.row(3 * i + 1) + sj * GB.row(3 * i + 2);  // d_j . a_t
      A(r, g) = S(1);                                             // + gamma
      ws.lcp_b[r] = cj * ws.g[3 * i + 1] + sj * ws.g[3 * i + 2];
      A(g, r) = S(-1);                                            // - sum beta
    }
    A(g, i) = contacts[i].friction;                               // mu lambda_n
    ws.lcp_b[g] = S(0);
  }
}

// Solves the LCP and sets f = B z.
template <class S> void solve_lcp(FrictionWorkspace<S>& ws) {
  contacts::lemke_solve<S>(ws.N, ws.lcp_A, ws.lcp_b, ws.lemke_tableau, ws.lemke_basis, ws.lcp_z, ws.lcp_w, ws.problem,
                           ws.lcp_name);
  ws.f.noalias() = ws.B.leftCols(ws.N) * ws.lcp_z.head(ws.N);
}

}  // namespace rbd::friction
