#pragma once
// An impact with friction that arrests the tangential motion (Featherstone section 11.7, Eqs.
// 11.66-11.72), for a tree at touching point contacts. Eq. 11.72 treats two free bodies at one
// contact: the impulse N lambda (N = [n_x n_y n_z], the contact's two tangents and its normal)
// is the one that leaves no tangential slip and a normal separation speed -e zeta_z,
//     lambda = -(N^T (I_1^-1 + I_2^-1) N)^-1 (1 + E) N^T (v_2 - v_1).
// On a tree the same three conditions per contact hold with the joint-space inverse inertia in
// place of I_1^-1 + I_2^-1: with T3 the columns of each contact's normal and tangents
// (friction_dynamics/steps.hpp),
//     (T3^T H^-1 T3) lambda = -(1 + E) T3^T qd^-,     qd^+ = qd^- + H^-1 T3 lambda,
// E holding each contact's e at its normal entry. As in the book, every contact is assumed to be
// struck and stuck; nothing enforces lambda_n >= 0 or the friction cone. The caller learns
// whether the assumption holds: the result says, per contact, whether lambda_n >= 0 and
// |lambda_t| <= mu lambda_n (the cone, not the pyramid: the book's Eq. 11.72 has no pyramid).
// When it fails, the contact slides or separates during the impact, which needs the impact
// LCP with friction (not here yet). T3 must have full column rank (independent contact rows).
// Not a hot-loop routine: the 3 n_c x 3 n_c solve allocates.
#include <Eigen/Cholesky>
#include <stdexcept>
#include <string>
#include <vector>

#include "friction_dynamics/steps.hpp"

namespace rbd {

struct StickingImpactResult {
  std::vector<char> pressing;  // per contact: lambda_n >= 0
  std::vector<char> in_cone;   // per contact: |lambda_t| <= mu lambda_n
  bool consistent() const {
    for (std::size_t i = 0; i < pressing.size(); ++i)
      if (!pressing[i] || !in_cone[i]) return false;
    return true;
  }
};

template <class S>
StickingImpactResult sticking_impact(const Model<S>& m, const PointContacts<S>& contacts, const VecX<S>& q,
                                     const VecX<S>& qd_minus, VecX<S>& qd_plus, FrictionWorkspace<S>& ws) {
  check_restitution(contacts);
  const VecX<S> zero = VecX<S>::Zero(m.nv);
  friction::dense_rows<S>(m, contacts, q, qd_minus, zero, nullptr, ws);  // T3, H = L L^T, G = T3^T H^-1 T3
  const int nc = ws.nc;
  VecX<S> rhs = -(ws.T3.transpose() * qd_minus);  // -(1 + E) zeta, zeta = T3^T qd^- (Eq. 11.69)
  for (int i = 0; i < nc; ++i) rhs[3 * i] *= S(1) + contacts[i].restitution;
  const Eigen::LDLT<MatX<S>> G(ws.G);
  if (G.info() != Eigen::Success || !(G.vectorD().minCoeff() > S(0)))
    throw std::domain_error("sticking impact: T3^T H^-1 T3 is singular -- the contacts' normal and tangent rows are "
                            "dependent (a redundant contact, or a mechanism that cannot move a contact point in 3D)");
  ws.f = G.solve(rhs);                                                        // Eq. 11.72
  VecX<S> dqd = ws.T3 * ws.f;
  ws.llt->solveInPlace(dqd);
  qd_plus = qd_minus + dqd;
  StickingImpactResult out;
  for (int i = 0; i < nc; ++i) {
    const S ln = ws.f[3 * i], lt2 = ws.f[3 * i + 1] * ws.f[3 * i + 1] + ws.f[3 * i + 2] * ws.f[3 * i + 2];
    out.pressing.push_back(ln >= S(0));
    out.in_cone.push_back(lt2 <= contacts[i].friction * contacts[i].friction * ln * ln);
  }
  return out;
}

}  // namespace rbd
