#pragma once
// Scratch for the friction family (point contacts with Coulomb friction; model/contact.hpp's
// friction fields, friction_dynamics/README.md). It is the contact family's workspace (the same
// kinematics passes, Cholesky factor and articulated-body test forces) with three force
// directions per contact instead of one -- the normal n_i and the two tangents t1_i, t2_i -- and
// the friction LCP, whose size depends on which contacts stick:
//     N = n_c + sum over sticking contacts of (k_i + 1)   (lambda_n, beta_1..k, gamma).
// Everything is sized in prepare() for the largest N (every contact sticking), and the solver
// works on the leading N x N block, so a call with the same contacts as the last allocates
// nothing whichever contacts slide.
#include <vector>

#include "contact_dynamics/workspace.hpp"

namespace rbd {

template <class S> struct FrictionWorkspace : ContactWorkspace<S> {
  // Per contact i, columns 3i, 3i+1, 3i+2: the normal and the two tangents (base coordinates).
  Forces6<S> force3;        // 6 x 3 n_c: the unit forces [x x e; e] along n, t1, t2 through C'_i
  MatX<S> T3;               // n x 3 n_c: their joint-space columns (Eq. 11.25 for each direction)
  VecX<S> Tdot3;            // 3 n_c: their T_dot^T qd (Eq. 11.30 for each direction)
  MatX<S> Y3, R3;           // dense route: L^-1 T3; articulated route: H^-1 T3
  MatX<S> G;                // 3 n_c x 3 n_c: T3^T H^-1 T3, so the contact accelerations are a = G f + g
  VecX<S> g;                // 3 n_c: T3^T H^-1 (tau - C) + Tdot3
  std::vector<char> sliding;          // per contact: |u_t| > slip_speed
  std::vector<S> slip1, slip2;        // per sliding contact: u_t / |u_t| in (t1, t2)
  std::vector<int> beta0, gamma;      // per sticking contact: where its beta_0 and its gamma are in lcp_z
  int N = 0;                          // the LCP's size this call
  MatX<S> B;                // 3 n_c x N: the force components f = B z (lcp.hpp)
  MatX<S> GB;               // 3 n_c x N: G B
  MatX<S> lcp_A;            // N x N: w = A z + b (lcp.hpp)
  VecX<S> lcp_b, lcp_z, lcp_w;  // N
  VecX<S> f;                // 3 n_c: (lambda_n, f_1, f_2) per contact, the solution
  VecX<S> target;           // n_c: velocity-level normal targets r_n (impact_dynamics/friction_impact.hpp)
  MatX<S> lemke_tableau;    // N x (2N + 2)
  std::vector<int> lemke_basis;
  std::vector<int> facet_shape;  // the facets of the prepared contacts
  // The pyramid's edge directions d_j = cos(theta_j) t1 + sin(theta_j) t2, theta_j = 2 pi j / k_i,
  // of contact i at facet_first[i] + j, made in S's own precision once per shape.
  std::vector<S> facet_cos, facet_sin;
  std::vector<int> facet_first;

  FrictionWorkspace() = default;
  explicit FrictionWorkspace(const Model<S>& m) : ContactWorkspace<S>(m) {
    this->problem = "friction dynamics";
    this->lcp_name = "the friction LCP (Coulomb's law in a polyhedral cone)";
  }

  void prepare(const Model<S>& m, const PointContacts<S>& contacts) {
    bool same = this->prepared && facet_shape.size() == contacts.size();
    for (std::size_t i = 0; same && i < contacts.size(); ++i) same = facet_shape[i] == contacts[i].facets;
    ContactWorkspace<S>::prepare(m, contacts);
    check_friction(contacts);  // every call: the values may change while the shape does not
    if (same && static_cast<int>(sliding.size()) == this->nc) return;
    const int nc = this->nc, n = m.nv;
    facet_shape.clear();
    facet_cos.clear();
    facet_sin.clear();
    facet_first.clear();
    const S two_pi = S(2) * pi_<S>();
    int cap = nc;
    for (const auto& c : contacts) {
      facet_shape.push_back(c.facets);
      facet_first.push_back(static_cast<int>(facet_cos.size()));
      for (int j = 0; j < c.facets; ++j) {
        const S theta = two_pi * S(j) / S(c.facets);
        facet_cos.push_back(cos_(theta));
        facet_sin.push_back(sin_(theta));
      }
      cap += c.facets + 1;
    }
    force3 = Forces6<S>::Zero(6, 3 * nc);
    T3 = Y3 = R3 = MatX<S>::Zero(n, 3 * nc);
    Tdot3 = g = f = VecX<S>::Zero(3 * nc);
    target = VecX<S>::Zero(nc);
    G = MatX<S>::Zero(3 * nc, 3 * nc);
    sliding.assign(nc, 0);
    slip1.assign(nc, S(0));
    slip2.assign(nc, S(0));
    beta0.assign(nc, -1);
    gamma.assign(nc, -1);
    B = GB = MatX<S>::Zero(3 * nc, cap);
    lcp_A = MatX<S>::Zero(cap, cap);
    lcp_b = lcp_z = lcp_w = VecX<S>::Zero(cap);
    lemke_tableau = MatX<S>::Zero(cap, 2 * cap + 2);
    lemke_basis.assign(cap, 0);
  }
};

}  // namespace rbd
