#pragma once
// A velocity-level time-stepping scheme for a tree with candidate point contacts, the other way
// to simulate chapter 11's systems besides Table 11.1's event-driven procedure: no events, no
// interpolation; every step solves one LCP for impulses (the scheme of Stewart and Trinkle, and
// of Anitescu and Potra, with the book's frictionless contacts). With h the step, at q:
//   qd_free = qd + h H^-1 (tau - C)                                (no contact forces)
//   qd'     = qd_free + H^-1 T lambda,   lambda >= 0               (impulses, Eq. 11.57)
//   zeta'_i = t_i^T qd' >= r_i,  lambda_i (zeta'_i - r_i) = 0      (an LCP with M = T^T H^-1 T)
//   q'      = q (+) h qd'                                          (semi-implicit Euler)
// The target r_i lets a contact close its gap within the step and no further: r_i = -phi_i / h.
// A contact that would close within the step (zeta_i < 0 and phi_i + h zeta_i <= 0, zeta_i =
// t_i^T qd) instead gets Newton's target r_i = -e_i zeta_i, so it rebounds -- from wherever it
// is, up to h |zeta_i| short of the plane: the scheme's position error at an impact is O(h), and
// its impact times are quantised to the step. All candidates enter the LCP every step; one far
// from its plane gets lambda_i = 0. Everything is in S.
#include <stdexcept>
#include <string>

#include "contact_dynamics/dantzig.hpp"
#include "contact_dynamics/steps.hpp"
#include "contact_simulation/gaps.hpp"
#include "model/configuration.hpp"

namespace rbd::simulation {

// The target r_i of a contact's velocity after a step of length h (header): Newton's -e zeta for a
// contact that would close within the step, else -phi / h (close the gap and no further).
template <class S> S step_target(const S& phi, const S& zeta, const S& e, const S& h) {
  const bool closing = zeta < S(0) && phi + h * zeta <= S(0);
  return closing ? S(-e * zeta) : S(-phi / h);
}

// qd_free = qd + h H^-1 (tau - C), with C and H's factor from the step's dense pass (ws.C, ws.llt).
template <class S>
void free_velocity(const VecX<S>& tau, const VecX<S>& qd, const S& h, const ContactWorkspace<S>& ws, VecX<S>& out) {
  out = tau - ws.C;
  ws.llt->solveInPlace(out);
  out = qd + h * out;
}

template <class S> class TimeSteppingSimulator {
 public:
  TimeSteppingSimulator(const Model<S>& m, PointContacts<S> candidates, VecX<S> q0, VecX<S> qd0, VecX<S> tau, const S& h)
      : q(std::move(q0)), qd(std::move(qd0)), m_(m), cand_(std::move(candidates)), tau_(std::move(tau)), h_(h), ws_(m) {
    if (!(h_ > S(0))) throw std::invalid_argument("time-stepping simulation: the step h must be > 0");
    if (q.size() != m.nq || qd.size() != m.nv || tau_.size() != m.nv)
      throw std::invalid_argument("time-stepping simulation: q, qd, tau must have nq, nv, nv entries");
    check_contact_bodies(m, cand_);
    check_restitution(cand_);
    ws_.problem = "time-stepping simulation";
    ws_.lcp_name = "the step's impulse LCP";
    ws_.d_name = "b = T^T qd_free - r";
  }

  void step() {
    contact_gaps<S>(m_, cand_, q, ws_, phi_);
    contacts::dense_lcp<S>(m_, cand_, q, qd, tau_, nullptr, ws_);  // H = L L^T, C, T and M = T^T H^-1 T
    const int nc = ws_.nc;
    free_velocity<S>(tau_, qd, h_, ws_, free_);
    if (nc > 0) {
      zeta_.noalias() = ws_.T.transpose() * qd;
      ws_.d.noalias() = ws_.T.transpose() * free_;
      for (int i = 0; i < nc; ++i) ws_.d[i] -= step_target<S>(phi_[i], zeta_[i], cand_[static_cast<std::size_t>(i)].restitution, h_);
      contacts::require_finite_lcp<S>(ws_);
      contacts::dantzig<S>(ws_);
      ws_.rhs.noalias() = ws_.T * ws_.lambda;
      ws_.llt->solveInPlace(ws_.rhs);
      free_ += ws_.rhs;
    }
    qd = free_;
    q = integrate(m_, q, qd, h_);
    t += h_;
    ++steps;
  }

  void advance_to(const S& t_end) {
    while (t + h_ / S(2) < t_end) step();
  }

  // The last step's impulses (one per candidate; 0 for those not pushed).
  const VecX<S>& impulses() const { return ws_.lambda; }

  S t = S(0);
  VecX<S> q, qd;
  int steps = 0;

 private:
  const Model<S>& m_;
  PointContacts<S> cand_;
  VecX<S> tau_;
  S h_;
  ContactWorkspace<S> ws_;
  VecX<S> phi_, zeta_, free_;
};

}  // namespace rbd::simulation
