#pragma once
// Seeded random point contacts on any tree (Featherstone chapter 11; model/contact.hpp), for the
// contact family's gates. draw_contacts() draws only their shape: for each, the body s that
// carries the point, the body p that carries the plane (the base with probability 1/2), the
// point in s's coordinates (uniform in [-0.3, 0.3]^3) and the plane's unit normal in p's
// coordinates (the z column of a uniformly random rotation). place_contacts() then puts each
// plane through its point at the state's q, in the target scalar, so phi = 0 to the working
// precision (50 digits in Reference, not the 16 a double offset cast up would give), and
// consistent_contact_velocity() projects qd onto null(T^T) in the same scalar, so zeta = 0 too:
// every contact is in state 3 of Figure 11.4, the state sections 11.1-11.5 treat. For the
// friction family each contact also gets mu, a pyramid and t1, and is marked sticking or sliding;
// frictional_velocity() then also zeroes the sticking contacts' slip (draw_contacts says how the
// draws keep the frictional problem well posed).
#include <algorithm>
#include <cmath>
#include <vector>

#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <Eigen/SVD>

#include "cases/loops.hpp"
#include "cases/random.hpp"
#include "contact_dynamics/steps.hpp"
#include "friction_dynamics/steps.hpp"

namespace rbd::cases {

struct ContactSpec {
  int p = -1, s = 0;
  Vec3<double> point = Vec3<double>::Zero();   // body s coordinates
  Vec3<double> normal = Vec3<double>::UnitZ(); // body p coordinates (base when p = -1)
  double restitution = 0;                      // Newton's e (Eq. 11.64): the impact family's
  // Coulomb friction (the friction family's; model/contact.hpp): mu, t1 (unit, perpendicular to
  // normal, p's coordinates), the pyramid's facets, and whether the state makes the contact
  // stick (slip u_t = 0, frictional_velocity) or leaves it sliding.
  double friction = 0;
  Vec3<double> tangent = Vec3<double>::UnitX();
  int facets = 4;
  bool sticks = true;
};

// The contacts of `specs` with each plane through its point at q, in S.
template <class S>
PointContacts<S> place_contacts(const Model<S>& m, const VecX<S>& q, const std::vector<ContactSpec>& specs) {
  const std::vector<Transform<S>> X0 = body_transforms<S>(m, q);
  PointContacts<S> out;
  for (const ContactSpec& c : specs) {
    PointContact<double> d;
    d.p = c.p; d.s = c.s; d.point = c.point; d.normal = c.normal; d.restitution = c.restitution;
    d.friction = c.friction; d.tangent = c.tangent; d.facets = c.facets;
    PointContact<S> x = d.template cast<S>();  // the normal re-normalised in S
    const Vec3<S> world = X0[c.s].r + X0[c.s].E.transpose() * x.point;
    const Vec3<S> in_p = c.p < 0 ? world : Vec3<S>(X0[c.p].E * (world - X0[c.p].r));
    x.offset = x.normal.dot(in_p);
    out.push_back(x);
  }
  return out;
}

// T at q (Eq. 11.31), from the contact family's shared kinematics.
template <class S> MatX<S> contact_T(const Model<S>& m, const PointContacts<S>& contacts, const VecX<S>& q) {
  ContactWorkspace<S> ws(m);
  const VecX<S> zero = VecX<S>::Zero(m.nv);
  contacts::dense_lcp<S>(m, contacts, q, zero, zero, nullptr, ws);
  return ws.T;
}

// Whether the columns of T (n x rows: contact rows in joint space) span every joint velocity.
// Then the velocity they leave free is exactly zero; computed as a projection qd - T y it is
// rounding amplified by cond(T^T T) (8.7e-49 of |qd| in Reference on GU(2) with chain_contacts,
// seed 1), and with more rows than n T^T T is singular: a qd no contact check can hold to a
// tolerance relative to its own size (the oracle's, Figure 11.4's state 3), which aborted
// rbdlab_bench's start-up check. A snap of results below 64 n eps |qd| missed the bench's
// states; the rank decides it instead, Eigen's column-pivoting QR's at its default threshold
// (eps times the size, relative to the largest pivot).
template <class S> bool holds_every_freedom(const MatX<S>& T) {
  if (T.cols() < T.rows()) return false;
  const Eigen::ColPivHouseholderQR<MatX<S>> qr(T);
  return qr.rank() == T.rows();
}

// qd projected orthogonally onto null(T^T): qd - T (T^T T)^-1 T^T qd, so zeta = T^T qd = 0
// (Eq. 11.28). T has full column rank for the drawn contacts (draw_contacts).
template <class S>
VecX<S> consistent_contact_velocity(const Model<S>& m, const PointContacts<S>& contacts, const VecX<S>& q,
                                    const VecX<S>& qd) {
  if (contacts.empty()) return qd;
  const MatX<S> T = contact_T<S>(m, contacts, q);
  if (holds_every_freedom<S>(T)) return VecX<S>::Zero(qd.size());
  const MatX<S> TtT = T.transpose() * T;
  const VecX<S> y = TtT.llt().solve(VecX<S>(T.transpose() * qd));
  return qd - T * y;
}

// The rows a frictional state holds at zero velocity (friction_dynamics/steps.hpp's T3): each
// contact's normal row, and its two tangent rows if it sticks. n x (rows).
template <class S>
MatX<S> held_rows(const Model<S>& m, const PointContacts<S>& contacts, const VecX<S>& q, const std::vector<char>& sticks) {
  FrictionWorkspace<S> ws(m);
  const VecX<S> zero = VecX<S>::Zero(m.nv);
  friction::dense_rows<S>(m, contacts, q, zero, zero, nullptr, ws);
  int rows = 0;
  for (std::size_t i = 0; i < contacts.size(); ++i) rows += sticks[i] ? 3 : 1;
  MatX<S> K(m.nv, rows);
  for (int i = 0, r = 0; i < static_cast<int>(contacts.size()); ++i)
    for (int d = 0; d < (sticks[i] ? 3 : 1); ++d) K.col(r++) = ws.T3.col(3 * i + d);
  return K;
}

// qd projected orthogonally onto the null space of the held rows (held_rows), in S: every
// contact's separation velocity and every sticking contact's slip become zero; a sliding
// contact keeps its slip. The drawn rows have full column rank (draw_contacts); dependent ones
// are projected through a rank-revealing QR.
template <class S>
VecX<S> frictional_velocity(const Model<S>& m, const PointContacts<S>& contacts, const VecX<S>& q, const VecX<S>& qd,
                            const std::vector<ContactSpec>& specs) {
  if (contacts.empty()) return qd;
  std::vector<char> sticks(specs.size());
  for (std::size_t i = 0; i < specs.size(); ++i) sticks[i] = specs[i].sticks;
  const MatX<S> K = held_rows<S>(m, contacts, q, sticks);
  const Eigen::ColPivHouseholderQR<MatX<S>> qr(K);
  const Eigen::Index r = qr.rank();
  if (r == K.rows()) return VecX<S>::Zero(qd.size());  // they hold every freedom (holds_every_freedom)
  if (r < K.cols()) {
    // Dependent rows (the drawn contacts never have them; cases::chain_friction_contacts on a
    // binary tree of 7 does: rank 3 of 4), where K^T K is singular and the normal equations
    // below give no projection at all: subtract qd's part in range(K), spanned by the first r
    // columns of the QR's orthogonal factor.
    const MatX<S> Q = MatX<S>(qr.householderQ()).leftCols(r);
    return qd - Q * VecX<S>(Q.transpose() * qd);
  }
  const MatX<S> KtK = K.transpose() * K;
  const VecX<S> y = KtK.llt().solve(VecX<S>(K.transpose() * qd));
  return qd - K * y;
}

// See draw_contacts. With G = T3^T H^-1 T3 at the frictional state, G_nn (the normal rows and
// columns) and G_nt (normal rows, tangent columns): lambda_min(G_nn) > mu_max ||G_nt||_2. Then for
// any friction forces with |f_t,i| <= mu_i lambda_n,i -- sliding, slipping or stuck -- the normal
// accelerations a_n = G_nn lambda_n + G_nt f_t + g_n respond to lambda_n through a matrix whose
// symmetric part stays positive definite (its perturbation of G_nn is at most mu_max ||G_nt||_2),
// which rules out Painleve's paradox and the self-locking jam (a wedge: a contact whose normal
// barely moves the mechanism while its friction moves it a lot). It is a
// sufficient condition in the spirit of the small-friction uniqueness results for this LCP
// (Pang and Trinkle), not a proof of uniqueness for the whole problem: the oracle still refuses a
// state with two solutions.
inline bool friction_well_posed(const Model<double>& m, const VecX<double>& q, const VecX<double>& qd,
                                const std::vector<ContactSpec>& specs) {
  double mu = 0;
  for (const ContactSpec& c : specs) mu = std::max(mu, c.friction);
  if (mu == 0) return true;
  const PointContacts<double> placed = place_contacts<double>(m, q, specs);
  const VecX<double> v = frictional_velocity<double>(m, placed, q, qd, specs);
  FrictionWorkspace<double> ws(m);
  const VecX<double> zero = VecX<double>::Zero(m.nv);
  friction::dense_rows<double>(m, placed, q, v, zero, nullptr, ws);
  const int nc = ws.nc;
  MatX<double> Gnn(nc, nc), Gnt(nc, 2 * nc);
  for (int i = 0; i < nc; ++i)
    for (int j = 0; j < nc; ++j) {
      Gnn(i, j) = ws.G(3 * i, 3 * j);
      Gnt(i, 2 * j) = ws.G(3 * i, 3 * j + 1);
      Gnt(i, 2 * j + 1) = ws.G(3 * i, 3 * j + 2);
    }
  const double lmin = Eigen::SelfAdjointEigenSolver<MatX<double>>(Gnn, Eigen::EigenvaluesOnly).eigenvalues()[0];
  const double coupling = Eigen::JacobiSVD<MatX<double>>(Gnt).singularValues()[0];
  return lmin > mu * coupling;
}

// Every mu halved (at most 8 times, then 0) until friction_well_posed holds at (q, qd).
inline void make_friction_well_posed(const Model<double>& m, const VecX<double>& q, const VecX<double>& qd,
                                     std::vector<ContactSpec>& specs) {
  for (int attempt = 0; attempt <= 8 && !friction_well_posed(m, q, qd, specs); ++attempt)
    for (ContactSpec& c : specs) c.friction = attempt < 8 ? 0.5 * c.friction : 0.0;
}

// 1 to 3 contacts (never more than nv - 1, so the contacts cannot fix every acceleration), then
// thinned from the last until T, at q and in double, has full column rank with
// sigma_min / sigma_max >= 1e-3: the normals are then independent in joint space, so lambda
// is unique as well as qdd (section 11.5's property 1) and the gates can compare it, and M's
// conditioning stays within a few thousand (cond(M) <= cond(H) / 1e-6).
inline std::vector<ContactSpec> draw_contacts(const Model<double>& m, const VecX<double>& q, const VecX<double>& qd, Rng& rng) {
  std::vector<ContactSpec> out;
  auto pick = [&](int lo, int hi) {  // uniform integer in [lo, hi]
    return std::min(lo + static_cast<int>(rng.uniform(0, 1) * (hi - lo + 1)), hi);
  };
  const int count = std::min(pick(1, 3), m.nv - 1);
  for (int k = 0; k < count; ++k) {
    ContactSpec c;
    c.s = pick(0, m.nb - 1);
    if (rng.uniform(0, 1) < 0.5 || m.nb < 2) c.p = -1;
    else do c.p = pick(0, m.nb - 1); while (c.p == c.s);
    for (int i = 0; i < 3; ++i) c.point[i] = rng.uniform(-0.3, 0.3);
    c.normal = rng.rotation().col(2);
    c.normal /= c.normal.norm();
    out.push_back(c);
  }
  auto well_conditioned = [&](const MatX<double>& T) {  // full column rank, sigma_min / sigma_max >= 1e-3
    if (T.cols() > T.rows()) return false;
    const Eigen::JacobiSVD<MatX<double>> svd(T);
    const auto& sv = svd.singularValues();
    return sv[sv.size() - 1] >= 1e-3 * sv[0];
  };
  while (!out.empty()) {
    if (well_conditioned(contact_T<double>(m, place_contacts<double>(m, q, out), q))) break;
    out.pop_back();
  }
  // Newton's e for the impact family, drawn after the thinning so that the contacts themselves
  // are those the contact family has always seen: 0 (plastic) and 1 (elastic) a quarter of the
  // time each, else uniform in (0, 1).
  for (ContactSpec& c : out) {
    const double u = rng.uniform(0, 1);
    c.restitution = u < 0.25 ? 0.0 : u >= 0.75 ? 1.0 : 2 * (u - 0.25);
  }
  // Friction for the friction family, drawn last for the same reason. Each contact sticks with
  // probability 1/2, with mu uniform in [0, 1); a sliding one gets mu in [0, 0.25), because
  // kinetic friction makes the LCP non-symmetric and large mu on a sliding contact invites
  // Painleve's paradox (no solution, or several), which the gates cannot judge. mu = 0 a tenth
  // of the time either way. The pyramid has 4 facets half the time, else 3 to 8; t1 is at a
  // uniform angle in the plane. Then, from the last contact back, a sticking contact becomes a
  // sliding one until the held rows (3 per sticking contact, 1 per sliding one) have full rank
  // with sigma_min / sigma_max >= 1e-3: redundant sticking contacts leave the friction forces
  // indeterminate, which is a different problem.
  for (ContactSpec& c : out) {
    c.sticks = rng.uniform(0, 1) < 0.5;
    const double u = rng.uniform(0, 1);
    c.friction = u < 0.1 ? 0.0 : (c.sticks ? 1.0 : 0.25) * (u - 0.1) / 0.9;
    c.facets = rng.uniform(0, 1) < 0.5 ? 4 : pick(3, 8);
    const Vec3<double> a = std::abs(c.normal.x()) < 0.6 ? Vec3<double>::UnitX() : Vec3<double>::UnitY();
    const Vec3<double> e = (a - c.normal * c.normal.dot(a)).normalized();
    const double psi = rng.uniform(0, 2 * 3.141592653589793);
    c.tangent = std::cos(psi) * e + std::sin(psi) * c.normal.cross(e);
  }
  if (!out.empty()) {
    const PointContacts<double> placed = place_contacts<double>(m, q, out);
    std::vector<char> sticks(out.size());
    for (std::size_t i = 0; i < out.size(); ++i) sticks[i] = out[i].sticks;
    for (int i = static_cast<int>(out.size()) - 1; i >= 0; --i) {
      if (well_conditioned(held_rows<double>(m, placed, q, sticks))) break;
      sticks[i] = out[i].sticks = false;
      out[i].friction *= 0.25;  // a sliding contact's mu range (above)
    }
    // Friction large against the normals' own response makes the problem ill posed: Painleve's
    // paradox (no solution, or two) or a self-locking jam (two).
    make_friction_well_posed(m, q, qd, out);
  }
  return out;
}

// Velocities just before an impact (Featherstone section 11.7) at touching contacts: qd changed
// only along the contact normals, qd - T (T^T T)^-1 (zeta - zeta^-), so that the separation
// velocities become zeta^- = T^T qd with contact 0 approaching (zeta^-_0 = -|zeta_0|; -|qd|_inf
// if zeta_0 happens to be 0) and the others keeping their own sign: an impact at contact 0,
// whose impulse may then reach contacts that were separating. In S, like
// consistent_contact_velocity.
template <class S>
VecX<S> approaching_velocity(const Model<S>& m, const PointContacts<S>& contacts, const VecX<S>& q, const VecX<S>& qd) {
  if (contacts.empty()) return qd;
  using std::abs;
  const MatX<S> T = contact_T<S>(m, contacts, q);
  VecX<S> change = VecX<S>::Zero(T.cols());
  const S zeta0 = T.col(0).dot(qd);
  change[0] = zeta0 > S(0) ? S(2 * zeta0) : zeta0 == S(0) ? S(qd.cwiseAbs().maxCoeff()) : S(0);
  const MatX<S> TtT = T.transpose() * T;
  return qd - T * VecX<S>(TtT.llt().solve(change));
}

// The fixed contacts the op counts and the benchmarks use on a chain of nb bodies: a point of the
// tip body and one of the middle body against planes fixed in the base (one contact if nb = 1).
// Which of them press depends on the state; place_contacts() puts the planes through the points.
inline std::vector<ContactSpec> chain_contacts(int nb) {
  std::vector<ContactSpec> specs(nb >= 2 ? 2 : 1);
  specs[0].s = nb - 1;
  specs[0].point = Vec3<double>(0.1, 0.05, -0.02);
  specs[0].normal = Vec3<double>(0.6, 0, 0.8);
  if (nb >= 2) {
    specs[1].s = nb / 2;
    specs[1].point = Vec3<double>(-0.05, 0.1, 0.03);
    specs[1].normal = Vec3<double>(0, 0.8, 0.6);
  }
  return specs;
}

// chain_contacts with Coulomb friction, for the friction family's op counts and benchmarks:
// mu = 0.5, 4-facet pyramids with t1 in the x-z plane (perpendicular to each normal); the tip's
// contact is held stuck (frictional_velocity), the middle body's keeps the state's slip (none at
// the op counts' rest state, some at the benchmarks' random states).
inline std::vector<ContactSpec> chain_friction_contacts(int nb) {
  std::vector<ContactSpec> specs = chain_contacts(nb);
  specs[0].tangent = Vec3<double>(0.8, 0, -0.6);
  if (specs.size() > 1) {
    specs[1].tangent = Vec3<double>::UnitX();
    specs[1].sticks = false;
  }
  for (ContactSpec& c : specs) c.friction = 0.5;
  return specs;
}

}  // namespace rbd::cases
