#pragma once
// Seeded random point contacts on any tree (Featherstone chapter 11; model/contact.hpp), for the
// contact family's gates. draw_contacts() draws only their shape: for each, the body s that
// carries the point, the body p that carries the plane (the base with probability 1/2), the
// point in s's coordinates (uniform in [-0.3, 0.3]^3) and the plane's unit normal in p's
// coordinates (the z column of a uniformly random rotation). place_contacts() then puts each
// plane through its point at the state's q, in the target scalar, so phi = 0 to the working
// precision (50 digits in Reference, not the 16 a double offset cast up would give), and
// consistent_contact_velocity() projects qd onto null(T^T) in the same scalar, so zeta = 0 too:
// every contact is in state 3 of Figure 11.4, the state sections 11.1-11.5 treat.
#include <algorithm>
#include <vector>

#include <Eigen/SVD>

#include "cases/loops.hpp"
#include "cases/random.hpp"
#include "contact_dynamics/steps.hpp"

namespace rbd::cases {

struct ContactSpec {
  int p = -1, s = 0;
  Vec3<double> point = Vec3<double>::Zero();   // body s coordinates
  Vec3<double> normal = Vec3<double>::UnitZ(); // body p coordinates (base when p = -1)
  double restitution = 0;                      // Newton's e (Eq. 11.64): the impact family's
};

// The contacts of `specs` with each plane through its point at q, in S.
template <class S>
PointContacts<S> place_contacts(const Model<S>& m, const VecX<S>& q, const std::vector<ContactSpec>& specs) {
  const std::vector<Transform<S>> X0 = body_transforms<S>(m, q);
  PointContacts<S> out;
  for (const ContactSpec& c : specs) {
    PointContact<double> d;
    d.p = c.p; d.s = c.s; d.point = c.point; d.normal = c.normal; d.restitution = c.restitution;
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

// qd projected orthogonally onto null(T^T): qd - T (T^T T)^-1 T^T qd, so zeta = T^T qd = 0
// (Eq. 11.28). T has full column rank for the drawn contacts (draw_contacts).
template <class S>
VecX<S> consistent_contact_velocity(const Model<S>& m, const PointContacts<S>& contacts, const VecX<S>& q,
                                    const VecX<S>& qd) {
  if (contacts.empty()) return qd;
  const MatX<S> T = contact_T<S>(m, contacts, q);
  const MatX<S> TtT = T.transpose() * T;
  const VecX<S> y = TtT.llt().solve(VecX<S>(T.transpose() * qd));
  return qd - T * y;
}

// 1 to 3 contacts (never more than nv - 1, so the contacts cannot fix every acceleration), then
// thinned from the last until T, at q and in double, has full column rank with
// sigma_min / sigma_max >= 1e-3: the normals are then independent in joint space, so lambda
// is unique as well as qdd (section 11.5's property 1) and the gates can compare it, and M's
// conditioning stays within a few thousand (cond(M) <= cond(H) / 1e-6).
inline std::vector<ContactSpec> draw_contacts(const Model<double>& m, const VecX<double>& q, Rng& rng) {
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
  while (!out.empty()) {
    const MatX<double> T = contact_T<double>(m, place_contacts<double>(m, q, out), q);
    const Eigen::JacobiSVD<MatX<double>> svd(T);
    const auto& sv = svd.singularValues();
    if (sv[sv.size() - 1] >= 1e-3 * sv[0]) break;
    out.pop_back();
  }
  // Newton's e for the impact family, drawn after the thinning so that the contacts themselves
  // are those the contact family has always seen: 0 (plastic) and 1 (elastic) a quarter of the
  // time each, else uniform in (0, 1).
  for (ContactSpec& c : out) {
    const double u = rng.uniform(0, 1);
    c.restitution = u < 0.25 ? 0.0 : u >= 0.75 ? 1.0 : 2 * (u - 0.25);
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

}  // namespace rbd::cases
