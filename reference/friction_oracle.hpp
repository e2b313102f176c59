#pragma once
// The independent oracle for point-contact forward dynamics WITH Coulomb friction (the friction
// family, friction_dynamics/): a tree Model plus PointContacts (model/contact.hpp, data only: p,
// s, point, normal, offset, friction = mu, tangent = t1, facets = k, slip_speed, name), at a state
// where every contact is in state 3 of Figure 11.4 (phi = 0, phi_dot = 0), checked exactly as the
// frictionless oracle checks it (reference/contact_oracle.hpp's contact_lcp). See reference/README.md.
//
// The problem (the definition the variants implement too). For contact i, x_i(q) = C'_i in p's
// coordinates, n = normal, t1 = tangent, t2 = n x t1, all fixed in p:
//  - rows: phi_n = n . x - offset (the contact oracle's phi), phi_1 = t1 . x, phi_2 = t2 . x; along
//    x(t) = t qd + t^2 qdd / 2, a_n = Phi_n qdd + bias_n, a_t = (Phi_1 qdd + bias_1, Phi_2 qdd +
//    bias_2), and the slip velocity is u = (Phi_1 qd, Phi_2 qd);
//  - the force on s at C' is lambda_n n + f_1 t1 + f_2 t2 (its opposite on p), whose virtual power is
//    lambda_n phi_n_dot + f_1 phi_1_dot + f_2 phi_2_dot: generalized force Phi_n^T lambda_n +
//    Phi_1^T f_1 + Phi_2^T f_2, and H qdd + C = tau + the sum over the contacts;
//  - normal law: lambda_n >= 0, a_n >= 0, lambda_n a_n = 0;
//  - |u| > slip_speed: SLIDING, f_t = -mu lambda_n u / |u| (kinetic law, exact direction);
//  - otherwise STICKING: f_t = (f_1, f_2) in P = mu lambda_n conv{d_j}, d_j = (cos 2 pi j/k, sin 2 pi j/k)
//    in the (t1, t2) coordinates, with maximum dissipation on P: a_t = 0 (f_t anywhere in P), or
//    f_t = sum_j beta_j d_j, beta_j >= 0, sum beta_j = mu lambda_n, beta_j > 0 only where d_j . a_t
//    is minimal (and that minimum < 0).
//
// Method: enumeration of contact modes (no LCP pivoting, no Lemke, no QP).
//  1. contact_lcp (contact_oracle.hpp) checks the state and gives H (mass_matrix), C
//     (inverse_dynamics(q, qd, 0, f_ext): Euler-Lagrange with gravity and f_ext), H^-1 (solve_gepp),
//     u0 = H^-1 (tau - C) and the normal rows Phi_n, bias_n (dual numbers on 4x4 poses).
//  2. The tangential rows by the contact oracle's own contact_rows on copies of the contacts whose
//     normal is a coordinate axis e_c of p and offset 0: these give the rows of x itself (dx/dx and
//     d^2/dt^2 x(t qd)), and since phi_1 = t1 . x is linear in t1, Phi_1 = sum_c t1_c (Phi of copy c),
//     bias_1 likewise (t2 = n x t1 the same way). This is the "copy with normal := t1" trick made
//     linear, which avoids handing contact_rows a t2 whose length is 1 only to ~2 eps^0.8 (n and t1
//     are each checked to eps^0.8) and would then be refused. A contact with mu = 0 gets no
//     tangential rows (its tangent is not read: it may be anything, even parallel to the normal).
//  3. Schur form. With Phi3 the 3 nc x nv stack of (Phi_n, Phi_1, Phi_2) per contact, W3 = H^-1 Phi3^T,
//     K = Phi3 W3, a0 = Phi3 u0 + bias3: the force components F (3 nc) give qdd = u0 + W3 F and the
//     contact accelerations a = K F + a0. qdd itself is never an unknown.
//  4. Modes, per contact:
//       sliding (mu > 0, |u| > slip_speed): SEPARATE (F_i = 0; accept a_n >= -tol) and SLIDE (F_i =
//         lambda_n (n - mu u/|u|), equation a_n = 0; accept lambda_n >= -tol);
//       mu = 0: SEPARATE and PRESS (F_i = lambda_n n, a_n = 0, lambda_n >= -tol): every sticking mode
//         below has f_t = 0 then, so they all reduce to these two;
//       sticking (mu > 0, |u| <= slip_speed), 2k + 2 modes: SEPARATE; STICK (unknowns lambda_n, f_1, f_2;
//         a_n = 0, a_t = 0; accept lambda_n >= -tol and f_t . nu_j <= mu lambda_n cos(pi/k) + tol for
//         every edge (j, j+1), nu_j its outward unit normal at angle (2j+1) pi/k); VERTEX j (f_t =
//         mu lambda_n d_j; a_n = 0; accept lambda_n >= -tol, d_j . a_t <= d_i . a_t + tol for all i,
//         d_j . a_t <= tol); EDGE j (f_t = beta_j d_j + beta_j+1 d_j+1, beta_j + beta_j+1 = mu lambda_n;
//         a_n = 0, (d_j - d_j+1) . a_t = 0; accept lambda_n, beta_j, beta_j+1 >= -tol and the VERTEX
//         conditions on d_j . a_t). The sum condition is substituted (beta_j+1 = mu lambda_n - beta_j),
//         and the unknown is beta_j |d_j - d_j+1| with the unit edge direction (d_j - d_j+1)/|d_j - d_j+1|
//         in the equation, so that every unknown is a force and every equation an acceleration.
//     For each combination (product over the contacts, at most kMaxCombinations = 20000, else
//     std::invalid_argument), the square system (equation rows) K (unknown directions) z = -(equation
//     rows) a0 is solved by Gaussian elimination with complete pivoting (contact_detail::
//     solve_complete_pivoting); singular systems are skipped (see below); the mode's conditions are
//     checked on F and a = K F + a0.
//  5. Every accepted combination must give the same qdd = u0 + W3 F (within the agreement tolerance),
//     else std::logic_error "several solutions with different accelerations" listing both
//     combinations: with friction the solution need not be unique (Painleve's paradox: a sliding
//     contact whose normal acceleration decreases with its own lambda_n, a_n = d + k lambda_n with
//     k < 0, has lambda_n = 0 and -d/k when d > 0). None accepted: std::domain_error ("no contact
//     forces satisfy ...", Painleve's k < 0 with d < 0, or Example 11.1's wedge). forces_out (3 x nc,
//     optional) receives the first accepted combination's (lambda_n, f_1, f_2) per contact.
//
// Modes = the variants' LCP. The sticking law is the LCP d_j . a_t + gamma >= 0 _|_ beta_j >= 0,
// mu lambda_n - sum beta_j >= 0 _|_ gamma >= 0. If gamma > 0, sum beta_j = mu lambda_n and beta_j > 0
// only where d_j . a_t = -gamma = min_i d_i . a_t < 0; for a_t != 0, d_j . a_t = |a_t| cos(angle) is
// minimal at one vertex or at two adjacent ones: VERTEX j or EDGE j. If gamma = 0, every d_j . a_t
// >= 0, and sum_j d_j = 0 (k >= 3) makes them all 0, so a_t = 0 (the d_j span the plane) and
// f_t = sum beta_j d_j with sum beta_j <= mu lambda_n is any point of mu lambda_n conv({0} u {d_j}) =
// P (0 is inside the polygon): STICK. Conversely each accepted mode gives (beta, gamma) solving
// the LCP (STICK: f_t in P as a combination of two adjacent d_j and 0, gamma = 0; VERTEX, EDGE:
// gamma = -d_j . a_t). The normal law is the same complementarity as the frictionless oracle's.
//
// Singular systems. A null direction that leaves W3 F unchanged (dependent rows: duplicate contacts;
// a tangential row no joint can move, e.g. t2 of a planar model) means the mode's solution set is a
// continuum with one qdd; moving along it until lambda_n or a beta reaches 0, or f_t reaches P's
// boundary, gives the same qdd in a combination with fewer unknowns (SEPARATE, VERTEX, EDGE), which
// is enumerated too. A null direction that changes qdd (a coefficient exactly at a critical value,
// e.g. Painleve's k(mu) = 0) is a degenerate problem within rank_tol of a bifurcation that the
// oracle does not judge.
//
// Independence from algorithms/: as contact_oracle.hpp. It reads only the data members of Model
// (through lagrange_oracle.hpp) and of PointContact, checks the friction data itself, in S (not
// contact.hpp's check_friction), calls nothing in algorithms/ (nothing of friction_dynamics/ or
// contact_dynamics/: no Lemke, no pivoting LCP, no QP, no spatial vectors, no Jacobians, no n_dot).
//
// Tolerances (eps = numeric_limits<S>::epsilon(): ~5e-51 in Reference, 2.2e-16 in double), the
// contact oracle's, for the same reasons (contact_detail):
//  - data: mu finite and >= 0, 3 <= facets <= 64, slip_speed finite and > 0, and when mu > 0 a finite
//    tangent with | |t1|^2 - 1 | and |t1 . n| <= eps^0.8 (PointContact::cast makes t1 exact in S;
//    one rounded to double is refused in Reference, as a normal is): std::invalid_argument
//    naming the contact;
//  - rank: a pivot <= eps^(2/3) K_scale (1 + max mu) is singular. K_scale = max(max|K|, max|H^-1| max
//    L_i^2) as the contact oracle's M_scale (L_i its per-contact length), and (1 + max mu) the size
//    of the unknown directions (1, mu d_j): dependent rows leave ~eps of that, genuine pivots are
//    geometric, O(1) of it;
//  - acceptance: forces against eps^0.8 F_scale (the polygon test against eps^0.8 (1 + mu) F_scale),
//    accelerations against eps^0.8 (a_scale + K_scale F_scale), with F_scale = max|F| + a_scale /
//    K_scale and a_scale the size of the terms of a0 (per row: sum_j |Phi3_ij| times u0's scale,
//    |bias3_i|, L_i max|qd|^2): rounding leaves a few eps of these (times the system's condition
//    number), a wrong mode misses by an O(1) fraction. The mode equations' residuals are checked
//    against the same acceleration tolerance;
//  - agreement: |qdd_A - qdd_B| <= eps^0.6 (u0's scale + |W3 F_A| + |W3 F_B|): two accepted
//    combinations that describe the same motion differ only by contacts within tolerance of a mode
//    boundary (lambda_n = a_n = 0, beta_j = 0, f_t on P's boundary with a_t = 0), which moves qdd by
//    ~eps^0.8 times the conditioning; a second motion (Painleve) differs at O(1).
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "reference/contact_oracle.hpp"

namespace rbd::oracle {
namespace friction_detail {

// The number of mode combinations visited (each a solve of at most 3 nc x 3 nc): 20000 is four
// sticking contacts with k = 4 (10^4), two with k = 64 (130^2 = 16900), or any number of sliding
// ones up to the contact oracle's nc <= 12 (2^12 = 4096).
inline constexpr long kMaxCombinations = 20000;
inline constexpr int kMinFacets = 3, kMaxFacets = 64;

enum class Kind { Separate, Press, Slide, Stick, Vertex, Edge };
struct Mode {
  Kind kind;
  int j = 0;  // VERTEX j, EDGE (j, j+1 mod k)
};

inline std::string mode_name(const Mode& md, int k) {
  switch (md.kind) {
    case Kind::Separate: return "separate";
    case Kind::Press: return "press (mu = 0)";
    case Kind::Slide: return "slide";
    case Kind::Stick: return "stick";
    case Kind::Vertex: return "vertex " + std::to_string(md.j);
    case Kind::Edge: return "edge " + std::to_string(md.j) + "-" + std::to_string((md.j + 1) % k);
  }
  return "?";
}

// The friction data, checked in S (std::invalid_argument naming the contact).
template <class S> void validate_friction(const PointContacts<S>& cs) {
  using std::abs;
  namespace cd = contact_detail;
  const S tol = cd::tol<S>();
  for (std::size_t i = 0; i < cs.size(); ++i) {
    const PointContact<S>& c = cs[i];
    const std::string who = "friction oracle: " + cd::contact_who(cs, i);
    if (!(c.friction >= S(0) && cd::is_finite_value(c.friction)))
      detail::fail(who + ": the friction coefficient mu = " + cd::fmt(c.friction) + " must be finite and >= 0");
    if (c.facets < kMinFacets || c.facets > kMaxFacets)
      detail::fail(who + ": the friction pyramid needs " + std::to_string(kMinFacets) + " to " +
                   std::to_string(kMaxFacets) + " facets, not " + std::to_string(c.facets));
    if (!(c.slip_speed > S(0) && cd::is_finite_value(c.slip_speed)))
      detail::fail(who + ": slip_speed = " + cd::fmt(c.slip_speed) + " must be finite and > 0");
    if (c.friction > S(0)) {
      for (int r = 0; r < 3; ++r)
        if (!cd::is_finite_value(S(c.tangent[r]))) detail::fail(who + ": the tangent t1 has a non-finite coordinate");
      const S len2 = c.tangent.squaredNorm() - S(1), dot = c.tangent.dot(c.normal);
      if (!(abs(len2) <= tol))
        detail::fail(who + ": the tangent t1 is not a unit vector to working precision (|t1|^2 - 1 = " + cd::fmt(len2) +
                     "; use PointContact::cast, which makes it exact)");
      if (!(abs(dot) <= tol))
        detail::fail(who + ": the tangent t1 is not perpendicular to the normal to working precision (t1 . normal = " +
                     cd::fmt(dot) + ")");
    }
  }
}

// Per contact: friction data in S, the pyramid, the slip, and its modes.
template <class S> struct Frame {
  S mu = S(0);
  int k = 4;
  bool sliding = false;
  std::array<S, 2> slip{S(0), S(0)};    // u = (Phi_1 qd, Phi_2 qd)
  std::array<S, 2> slide_dir{S(0), S(0)};  // u / |u| when sliding
  std::vector<std::array<S, 2>> d;      // d_j, (t1, t2) coordinates
  std::vector<std::array<S, 2>> nu;     // outward unit normal of edge (j, j+1), angle (2j+1) pi / k
  std::vector<std::array<S, 2>> e;      // unit (d_j - d_j+1)
  std::vector<S> e_len;                 // |d_j - d_j+1| = 2 sin(pi / k)
  S cos_half = S(1);                    // cos(pi / k): the distance of P's edges from 0, per unit mu lambda_n
  std::vector<Mode> modes;
};

// One unknown: a force direction g (n, t1, t2 components) on contact c; one equation: a
// direction r, the row r . a_c = 0.
template <class S> struct Dir {
  int c;
  std::array<S, 3> v;
};

}  // namespace friction_detail

// qdd of the tree with point contacts and Coulomb friction (see the header). f_ext as for
// inverse_dynamics (nullptr: none); forces_out, if given, receives 3 x nc: (lambda_n, f_1, f_2) of each
// contact in the first accepted mode combination.
template <class S>
VecX<S> friction_forward_dynamics(const Model<S>& m, const PointContacts<S>& cs, const VecX<S>& q, const VecX<S>& qd,
                                  const VecX<S>& tau, const std::type_identity_t<ExternalForces<S>>* f_ext,
                                  std::type_identity_t<MatX<S>>* forces_out = nullptr) {
  using std::abs;
  using std::acos;
  using std::cos;
  using std::sin;
  using std::sqrt;
  namespace cd = contact_detail;
  namespace fd = friction_detail;
  using fd::Kind;

  // Data first (bodies, finite numbers, unit normals, the contact limit; then friction), then the state.
  cd::validate(m, cs);
  fd::validate_friction(cs);
  const ContactLcp<S> L = [&] {
    try {
      return contact_lcp(m, cs, q, qd, tau, f_ext);  // state 3 of Figure 11.4 for every contact
    } catch (const std::domain_error& e) {
      throw std::domain_error(std::string("friction oracle: ") + e.what());
    }
  }();
  const int n = m.nv, nc = static_cast<int>(cs.size());
  if (nc == 0) {
    if (forces_out) forces_out->resize(3, 0);
    return L.u;
  }

  // Step 2: the rows of x = C' in p's coordinates, one coordinate axis of p at a time.
  std::array<ContactRows<S>, 3> X;
  for (int a = 0; a < 3; ++a) {
    PointContacts<S> axis = cs;
    for (PointContact<S>& c : axis) {
      c.normal = Vec3<S>::Zero();
      c.normal[a] = S(1);
      c.offset = S(0);
    }
    X[a] = contact_rows(m, axis, q, qd);
  }
  MatX<S> Phi3 = MatX<S>::Zero(3 * nc, n);
  VecX<S> bias3 = VecX<S>::Zero(3 * nc);
  std::vector<fd::Frame<S>> fr(nc);
  const S pi = acos(S(-1));
  S mu_max = S(0);
  for (int i = 0; i < nc; ++i) {
    const PointContact<S>& c = cs[i];
    fd::Frame<S>& F = fr[i];
    F.mu = c.friction;
    F.k = c.facets;
    mu_max = std::max<S>(mu_max, F.mu);
    Phi3.row(3 * i) = L.rows.Phi.row(i);
    bias3[3 * i] = L.rows.bias[i];
    if (F.mu > S(0)) {
      const Vec3<S> t1 = c.tangent, t2 = c.normal.cross(t1);
      for (int a = 0; a < 3; ++a) {
        Phi3.row(3 * i + 1) += t1[a] * X[a].Phi.row(i);
        Phi3.row(3 * i + 2) += t2[a] * X[a].Phi.row(i);
        bias3[3 * i + 1] += t1[a] * X[a].bias[i];
        bias3[3 * i + 2] += t2[a] * X[a].bias[i];
      }
      for (int r = 0; r < 2; ++r) F.slip[r] = Phi3.row(3 * i + 1 + r).dot(qd);
      const S speed = sqrt(S(F.slip[0] * F.slip[0] + F.slip[1] * F.slip[1]));
      F.sliding = speed > c.slip_speed;
      if (F.sliding) F.slide_dir = {S(F.slip[0] / speed), S(F.slip[1] / speed)};
      const int k = F.k;
      F.cos_half = cos(S(pi / S(k)));
      for (int j = 0; j < k; ++j) {
        const S th = S(2) * pi * S(j) / S(k), thn = (S(2 * j + 1)) * pi / S(k);
        F.d.push_back({S(cos(th)), S(sin(th))});
        F.nu.push_back({S(cos(thn)), S(sin(thn))});
      }
      for (int j = 0; j < k; ++j) {
        const auto& a = F.d[j];
        const auto& b = F.d[(j + 1) % k];
        const S dx = a[0] - b[0], dy = a[1] - b[1], len = sqrt(S(dx * dx + dy * dy));
        F.e.push_back({S(dx / len), S(dy / len)});
        F.e_len.push_back(len);
      }
    }
    F.modes.push_back({Kind::Separate});
    if (F.mu == S(0)) F.modes.push_back({Kind::Press});
    else if (F.sliding) F.modes.push_back({Kind::Slide});
    else {
      F.modes.push_back({Kind::Stick});
      for (int j = 0; j < F.k; ++j) F.modes.push_back({Kind::Vertex, j});
      for (int j = 0; j < F.k; ++j) F.modes.push_back({Kind::Edge, j});
    }
  }

  // The combination count, before any enumeration.
  long combinations = 1;
  for (int i = 0; i < nc; ++i) {
    combinations *= static_cast<long>(fr[i].modes.size());
    if (combinations > fd::kMaxCombinations) {
      std::ostringstream os;
      os << "friction oracle: the contacts' modes (";
      for (int l = 0; l < nc; ++l)
        os << (l ? " x " : "") << fr[l].modes.size();
      os << ": 2 per sliding or frictionless contact, 2 k + 2 per sticking one) exceed the enumeration's limit of "
         << fd::kMaxCombinations << " combinations (kMaxCombinations)";
      detail::fail(os.str());
    }
  }

  // Step 3: Schur form.
  const MatX<S> W3 = L.Hinv * Phi3.transpose();
  const MatX<S> K = Phi3 * W3;
  const VecX<S> a0 = Phi3 * L.u + bias3;
  const S qd_max = cd::maxabs(qd);
  S a_scale = S(0), L2 = S(0);
  for (int r = 0; r < 3 * nc; ++r) {
    S row = S(0);
    for (int j = 0; j < n; ++j) row += abs(Phi3(r, j));
    const S Li = L.rows.scale[r / 3];
    a_scale = std::max<S>(a_scale, row * L.u_scale + abs(bias3[r]) + Li * qd_max * qd_max);
    L2 = std::max<S>(L2, Li * Li);
  }
  a_scale = std::max<S>(a_scale, cd::maxabs(a0));
  const S K_scale = std::max<S>(cd::maxabs(K), S(cd::maxabs(L.Hinv) * L2));
  const S tol = cd::tol<S>(), piv_tol = cd::rank_tol<S>() * K_scale * (S(1) + mu_max);

  // Step 4: every combination.
  std::vector<int> idx(nc, 0);
  auto describe = [&](const std::vector<int>& id) {
    std::ostringstream os;
    os << "{";
    for (int i = 0; i < nc; ++i)
      os << (i ? ", " : " ") << "contact " << i << ": " << fd::mode_name(fr[i].modes[id[i]], fr[i].k);
    os << " }";
    return os.str();
  };
  int accepted = 0;
  VecX<S> first_F, first_w;
  std::vector<int> first_idx;
  S first_w_size = S(0);
  for (long comb = 0; comb < combinations; ++comb) {
    if (comb > 0)  // mixed-radix increment, contact 0 fastest
      for (int i = 0; i < nc; ++i) {
        if (++idx[i] < static_cast<int>(fr[i].modes.size())) break;
        idx[i] = 0;
      }
    // Unknown directions g (F_c += z g) and equation rows r (r . a_c = 0).
    std::vector<fd::Dir<S>> unk, eqn;
    for (int i = 0; i < nc; ++i) {
      const fd::Frame<S>& F = fr[i];
      const fd::Mode& md = F.modes[idx[i]];
      const std::array<S, 3> en{S(1), S(0), S(0)};
      switch (md.kind) {
        case Kind::Separate: break;
        case Kind::Press: unk.push_back({i, en}); eqn.push_back({i, en}); break;
        case Kind::Slide:
          unk.push_back({i, {S(1), S(-F.mu * F.slide_dir[0]), S(-F.mu * F.slide_dir[1])}});
          eqn.push_back({i, en});
          break;
        case Kind::Stick:
          for (int r = 0; r < 3; ++r) {
            std::array<S, 3> v{S(0), S(0), S(0)};
            v[r] = S(1);
            unk.push_back({i, v});
            eqn.push_back({i, v});
          }
          break;
        case Kind::Vertex:
          unk.push_back({i, {S(1), S(F.mu * F.d[md.j][0]), S(F.mu * F.d[md.j][1])}});
          eqn.push_back({i, en});
          break;
        case Kind::Edge: {
          // f_t = mu lambda_n d_j+1 + b e_j (b = beta_j |d_j - d_j+1|, e_j the unit edge direction).
          const auto& dn = F.d[(md.j + 1) % F.k];
          const auto& e = F.e[md.j];
          unk.push_back({i, {S(1), S(F.mu * dn[0]), S(F.mu * dn[1])}});
          unk.push_back({i, {S(0), e[0], e[1]}});
          eqn.push_back({i, en});
          eqn.push_back({i, {S(0), e[0], e[1]}});
          break;
        }
      }
    }
    const int nunk = static_cast<int>(unk.size());
    VecX<S> z(nunk);
    if (nunk > 0) {
      MatX<S> A(nunk, nunk);
      VecX<S> rhs(nunk);
      for (int r = 0; r < nunk; ++r) {
        const fd::Dir<S>& E = eqn[r];
        S b = S(0);
        for (int a = 0; a < 3; ++a) b += E.v[a] * a0[3 * E.c + a];
        rhs[r] = -b;
        for (int u = 0; u < nunk; ++u) {
          const fd::Dir<S>& G = unk[u];
          S s = S(0);
          for (int a = 0; a < 3; ++a)
            for (int b2 = 0; b2 < 3; ++b2) s += E.v[a] * K(3 * E.c + a, 3 * G.c + b2) * G.v[b2];
          A(r, u) = s;
        }
      }
      if (!cd::solve_complete_pivoting<S>(A, rhs, piv_tol, z)) continue;  // singular: see the header
    }
    VecX<S> Fv = VecX<S>::Zero(3 * nc);
    for (int u = 0; u < nunk; ++u)
      for (int a = 0; a < 3; ++a) Fv[3 * unk[u].c + a] += z[u] * unk[u].v[a];
    const VecX<S> acc = K * Fv + a0;
    const S F_scale = cd::maxabs(Fv) + a_scale / K_scale;
    const S tol_f = tol * F_scale, tol_a = tol * (a_scale + K_scale * F_scale);

    bool ok = true;
    for (int r = 0; r < nunk && ok; ++r) {  // the mode equations hold (a nearly singular solve would not)
      S res = S(0);
      for (int a = 0; a < 3; ++a) res += eqn[r].v[a] * acc[3 * eqn[r].c + a];
      ok = abs(res) <= tol_a;
    }
    // The position of this combination's unknowns of contact i in z.
    int zpos = 0;
    for (int i = 0; i < nc && ok; ++i) {
      const fd::Frame<S>& F = fr[i];
      const fd::Mode& md = F.modes[idx[i]];
      const S lam = Fv[3 * i], an = acc[3 * i];
      const std::array<S, 2> ft{Fv[3 * i + 1], Fv[3 * i + 2]}, at{acc[3 * i + 1], acc[3 * i + 2]};
      // The vertex conditions: d_j . a_t minimal over the d_i (within tol) and <= tol.
      auto minimal = [&](int j) {
        const S sj = F.d[j][0] * at[0] + F.d[j][1] * at[1];
        if (!(sj <= tol_a)) return false;
        for (int l = 0; l < F.k; ++l)
          if (!(sj <= F.d[l][0] * at[0] + F.d[l][1] * at[1] + tol_a)) return false;
        return true;
      };
      switch (md.kind) {
        case Kind::Separate: ok = an >= -tol_a; break;
        case Kind::Press: case Kind::Slide: ok = lam >= -tol_f; zpos += 1; break;
        case Kind::Stick: {
          ok = lam >= -tol_f;
          const S bound = F.mu * lam * F.cos_half, ptol = tol_f * (S(1) + F.mu);
          for (int j = 0; j < F.k && ok; ++j) ok = F.nu[j][0] * ft[0] + F.nu[j][1] * ft[1] <= bound + ptol;
          zpos += 3;
          break;
        }
        case Kind::Vertex: ok = lam >= -tol_f && minimal(md.j); zpos += 1; break;
        case Kind::Edge: {
          const S beta_j = z[zpos + 1] / F.e_len[md.j], beta_next = F.mu * lam - beta_j;
          ok = lam >= -tol_f && beta_j >= -tol_f && beta_next >= -tol_f && minimal(md.j);
          zpos += 2;
          break;
        }
      }
    }
    if (!ok) continue;

    // Step 5: agreement on qdd - u0 = W3 F.
    const VecX<S> w = W3 * Fv;
    const S w_size = cd::maxabs(w);
    if (accepted == 0) {
      first_F = Fv;
      first_w = w;
      first_w_size = w_size;
      first_idx = idx;
    } else {
      const S diff = cd::maxabs(VecX<S>(w - first_w));
      const S allowed = cd::agree_tol<S>() * (L.u_scale + first_w_size + w_size);
      if (!(diff <= allowed)) {
        std::ostringstream os;
        os << "friction oracle: the frictional problem has several solutions with different accelerations (qdd "
              "differs by " << cd::fmt(diff) << " > " << cd::fmt(allowed) << " between the contact modes "
           << describe(first_idx) << " and " << describe(idx)
           << "): with friction, uniqueness is not guaranteed (Painleve's paradox)";
        throw std::logic_error(os.str());
      }
    }
    ++accepted;
  }
  if (accepted == 0) {
    std::ostringstream os;
    os << "friction oracle: no contact forces satisfy the normal law and Coulomb's law at every contact (Painleve's "
          "paradox or Example 11.1): none of the " << combinations << " mode combinations is consistent (nc = " << nc
       << "; contacts sliding:";
    for (int i = 0; i < nc; ++i) os << " " << (fr[i].sliding ? "yes" : "no");
    os << "; contact-free normal accelerations:";
    for (int i = 0; i < nc; ++i) os << " " << cd::fmt(S(a0[3 * i]));
    os << ")";
    throw std::domain_error(os.str());
  }
  if (forces_out) {
    forces_out->resize(3, nc);
    for (int i = 0; i < nc; ++i)
      for (int a = 0; a < 3; ++a) (*forces_out)(a, i) = first_F[3 * i + a];
  }
  return L.u + W3 * first_F;
}

}  // namespace rbd::oracle
