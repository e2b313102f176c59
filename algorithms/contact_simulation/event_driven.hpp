#pragma once
// Event-driven simulation of a tree with candidate point contacts: the procedure of Featherstone
// Table 11.1, with Heun's method and its interpolant (Eqs. 11.50-11.51, heun.hpp).
//
// The simulator keeps the set of current contacts (touching and not separating: state 3 of
// Figure 11.4). Each step:
//  1. solves the LCP of Eq. 11.42 over the current contacts (contact_dantzig) at every evaluation
//     of f. Table 11.1 solves it only at events and otherwise treats the active contacts as
//     equality constraints; solving it every time gives the same accelerations while no force
//     changes sign, and makes steps 2 and 6 of the table (a negative contact force) automatic:
//     a current contact whose LCP solution has lambda_i = 0 and zeta_dot_i > release_accel at the
//     start of a step lifts off (a contact loss, step 5) and leaves the set;
//  2. takes a Heun step with the current set fixed;
//  3. looks for contact gains: a candidate not in the set whose gap phi_i (gaps.hpp) is negative
//     at the step's end. Its crossing is found by bisection on phi_i(y(delta)) over Eq. 11.51's
//     interpolant; the step is cut back to the earliest crossing (step 3 of the table);
//  4. at a gain, applies impulsive dynamics (section 11.7, impact_dantzig) to the touching
//     contacts -- the gained one and the current ones, which may be pushed too (Newton's cradle)
//     -- and makes the new current set: the touching contacts that leave with
//     zeta^+ <= rest_speed (step 4).
// A rebound slower than rest_speed is made plastic (e = 0 for that contact, the impact redone):
// without that, a ball with e < 1 would bounce infinitely often before coming to rest at the
// finite time t_0 (1 + e) / (1 - e) (the Zeno behaviour of rigid impacts), and the simulation
// would never get past it. Everything is in S; the study runs it in double.
#include <algorithm>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "contact_dynamics/contact_dantzig.hpp"
#include "contact_simulation/gaps.hpp"
#include "contact_simulation/heun.hpp"
#include "forward_dynamics/aba.hpp"
#include "impact_dynamics/impact_dantzig.hpp"

namespace rbd::simulation {

template <class S> struct EventDrivenOptions {
  S h = S(1e-3);                 // integration step
  S rest_speed = S(1e-6);        // a contact leaving an impact slower than this stays in contact
  S release_accel = S(1e-9);     // a current contact with lambda = 0 lifts off if zeta_dot exceeds this
  S touch_distance = S(1e-9);    // |phi| below this counts as touching at the start
  int max_bisections = 200;      // ample for delta to reach eps in double (53 halvings) or Reference (~170)
  // Contact gains allowed within one step length h of simulated time. A real Zeno sequence is
  // ended by rest_speed after a few hundred impacts at most (a ball dropped 1 m with e = 0.9 and
  // rest_speed 1e-6 m/s bounces about 145 times in all, ln(4.4e6) / ln(1 / 0.9)); thousands within h mean cut-backs that make ever smaller progress
  // (an interpolant inconsistent with the step, a contact that keeps re-entering): refused
  // instead of a simulation that never reaches t_end.
  int max_gains_per_step = 1000;
};

template <class S> struct ContactEvent {
  enum class Kind { impact, release };
  Kind kind = Kind::impact;
  S t = S(0);
  int contact = -1;                          // the contact gained (impact) or lost (release)
  S speed_before = S(0), speed_after = S(0);  // impact: that contact's zeta^- and zeta^+
  bool came_to_rest = false;                 // impact: its rebound was below rest_speed (made plastic)
};

template <class S> class EventDrivenSimulator {
 public:
  using Observer = std::function<void(const S& t, const VecX<S>& q, const VecX<S>& qd)>;

  EventDrivenSimulator(const Model<S>& m, PointContacts<S> candidates, VecX<S> q0, VecX<S> qd0, VecX<S> tau,
                       EventDrivenOptions<S> options = {})
      : q(std::move(q0)), qd(std::move(qd0)), m_(m), cand_(std::move(candidates)), tau_(std::move(tau)), opt_(options),
        fws_(m), cws_(m), iws_(m) {
    if (!(opt_.h > S(0)) || !(opt_.rest_speed >= S(0)) || !(opt_.touch_distance >= S(0)))
      throw std::invalid_argument("event-driven simulation: the step h must be > 0 and rest_speed, touch_distance >= 0");
    if (q.size() != m.nq || qd.size() != m.nv || tau_.size() != m.nv)
      throw std::invalid_argument("event-driven simulation: q, qd, tau must have nq, nv, nv entries");
    check_contact_bodies(m, cand_);
    check_restitution(cand_);
    current.assign(cand_.size(), 0);
    contact_gaps<S>(m_, cand_, q, fws_, phi_);
    std::vector<int> touching;
    for (int i = 0; i < ncand(); ++i) {
      if (!(phi_[i] >= -opt_.touch_distance))
        throw std::domain_error("event-driven simulation: " + contact_name(cand_, static_cast<std::size_t>(i)) +
                                " starts penetrating (phi = " + std::to_string(static_cast<double>(phi_[i])) +
                                ") or with a non-finite state");
      if (phi_[i] <= opt_.touch_distance) touching.push_back(i);
    }
    if (!touching.empty()) impact(touching, -1);  // approaching touching contacts collide at t = 0; the others rest
  }

  // Steps until t reaches t_end (the last step shortened to land on it).
  void advance_to(const S& t_end, const Observer& observe = nullptr) {
    while (t < t_end) {
      step(std::min<S>(opt_.h, S(t_end - t)));
      if (observe) observe(t, q, qd);
    }
  }

  const PointContacts<S>& candidates() const { return cand_; }
  int ncand() const { return static_cast<int>(cand_.size()); }

  S t = S(0);
  VecX<S> q, qd;
  std::vector<char> current;        // per candidate: in the current set (state 3)
  std::vector<ContactEvent<S>> events;
  int steps = 0, evaluations = 0;   // accepted or cut steps; evaluations of f (each an ABA or a contact LCP)
  S max_current_gap = S(0);         // largest |phi| of a current contact seen at a step's end (drift)

 private:
  const Model<S>& m_;
  PointContacts<S> cand_, sub_;
  std::vector<int> sub_index_;
  VecX<S> tau_, phi_, phi0_, qdd_, q1_, qd1_;
  EventDrivenOptions<S> opt_;
  ForwardDynamicsWorkspace<S> fws_;
  ContactWorkspace<S> cws_;
  ImpactWorkspace<S> iws_;
  HeunStep<S> heun_;
  static constexpr int kMaxStalled = 100;
  int stalled_ = 0;  // consecutive steps cut back to delta = 0
  S window_start_ = S(0);  // contact gains since simulated time window_start_ (within one h)
  int gains_in_window_ = 0;

  void select(const std::vector<int>& which) {
    sub_.clear();
    sub_index_ = which;
    for (int i : which) sub_.push_back(cand_[static_cast<std::size_t>(i)]);
  }
  std::vector<int> current_list() const {
    std::vector<int> out;
    for (int i = 0; i < ncand(); ++i)
      if (current[static_cast<std::size_t>(i)]) out.push_back(i);
    return out;
  }

  // f(q, qd): qdd with the current contacts as the LCP of Eq. 11.42 (none: the ABA).
  void accelerations(const VecX<S>& qq, const VecX<S>& vv, VecX<S>& qdd) {
    ++evaluations;
    qdd.resize(m_.nv);
    if (sub_.empty()) Aba::run<S>(m_, qq, vv, tau_, nullptr, qdd, fws_);
    else ContactDantzig::run<S>(m_, sub_, qq, vv, tau_, nullptr, qdd, cws_);
  }

  void step(const S& h) {
    contact_gaps<S>(m_, cand_, q, fws_, phi0_);
    select(current_list());
    accelerations(q, qd, qdd_);
    bool released = false;  // contact losses (Table 11.1, steps 5-6)
    for (int k = 0; k < static_cast<int>(sub_.size()); ++k)
      if (!(cws_.lambda[k] > S(0)) && cws_.zeta_dot[k] > opt_.release_accel) {
        current[static_cast<std::size_t>(sub_index_[k])] = 0;
        events.push_back({ContactEvent<S>::Kind::release, t, sub_index_[k], S(0), S(0), false});
        released = true;
      }
    if (released) {
      select(current_list());
      accelerations(q, qd, qdd_);
    }
    heun_.begin(m_, q, qd, qdd_, h);
    accelerations(heun_.q2, heun_.qd2, heun_.qdd2);
    heun_.at(m_, S(1), q1_, qd1_);
    ++steps;
    // Contact gains: the earliest crossing of phi = 0 by a candidate not in the current set. Only
    // a candidate with phi >= 0 at the step's start can cross: one just released with a gap of
    // -1e-17 (rounding) is not gained again at delta = 0, which would repeat a zero-length step.
    contact_gaps<S>(m_, cand_, q1_, fws_, phi_);
    S earliest = S(2);
    int gained = -1;
    for (int i = 0; i < ncand(); ++i)
      if (!current[static_cast<std::size_t>(i)] && phi0_[i] >= S(0) && phi_[i] < S(0)) {
        const S d = crossing(i);
        if (d < earliest) { earliest = d; gained = i; }
      }
    if (gained < 0) {
      q = q1_; qd = qd1_; t += h;
      for (int i = 0; i < ncand(); ++i)
        if (current[static_cast<std::size_t>(i)]) max_current_gap = std::max<S>(max_current_gap, abs_(S(phi_[i])));
      return;
    }
    // A gain at delta = 0 makes no progress; repeated, it would hang the simulation (a contact
    // that keeps re-entering at the same instant: e.g. an inconsistent interpolant). Refuse instead.
    stalled_ = earliest > S(0) ? 0 : stalled_ + 1;
    if (stalled_ > kMaxStalled)
      throw std::domain_error("event-driven simulation: no progress at t = " + std::to_string(static_cast<double>(t)) +
                              ": " + contact_name(cand_, static_cast<std::size_t>(gained)) + " was gained at the start of " +
                              std::to_string(kMaxStalled) + " steps in a row");
    // Progress that shrinks without reaching zero escapes that guard; count the gains within one
    // step length of simulated time instead (EventDrivenOptions::max_gains_per_step).
    if (t - window_start_ >= opt_.h) {
      window_start_ = t;
      gains_in_window_ = 0;
    }
    if (++gains_in_window_ > opt_.max_gains_per_step)
      throw std::domain_error("event-driven simulation: no progress at t = " + std::to_string(static_cast<double>(t)) +
                              ": " + std::to_string(opt_.max_gains_per_step) + " contact gains within one step length h = " +
                              std::to_string(static_cast<double>(opt_.h)) + " (last: " +
                              contact_name(cand_, static_cast<std::size_t>(gained)) +
                              "); a Zeno sequence rest_speed does not end, or an interpolant inconsistent with the step?");
    heun_.at(m_, earliest, q, qd);  // cut the step back to the gain (Eq. 11.51)
    t += earliest * h;
    contact_gaps<S>(m_, cand_, q, fws_, phi_);
    std::vector<int> touching = current_list();
    touching.push_back(gained);
    for (int i = 0; i < ncand(); ++i)  // others reaching the plane at the same instant (to rounding)
      if (i != gained && !current[static_cast<std::size_t>(i)] && phi_[i] <= opt_.touch_distance) touching.push_back(i);
    impact(touching, gained);
  }

  // delta in (0, 1] at which phi_i(y(delta)) crosses zero (the last delta with phi_i >= 0).
  S crossing(int i) {
    S lo = S(0), hi = S(1);
    VecX<S> qq, vv, ph;
    for (int it = 0; it < opt_.max_bisections && hi - lo > std::numeric_limits<S>::epsilon() * hi; ++it) {
      const S mid = (lo + hi) / S(2);
      heun_.at(m_, mid, qq, vv);
      contact_gaps<S>(m_, cand_, qq, fws_, ph);
      if (ph[i] < S(0)) hi = mid;
      else lo = mid;
    }
    return lo;
  }

  // Section 11.7 at the touching contacts; the new current set (Table 11.1, step 4).
  void impact(std::vector<int> touching, int gained) {
    std::sort(touching.begin(), touching.end());
    touching.erase(std::unique(touching.begin(), touching.end()), touching.end());
    select(touching);
    VecX<S> qd_plus(m_.nv);
    ImpactDantzig::run<S>(m_, sub_, q, qd, qd_plus, iws_);
    bool redo = false;
    std::vector<char> plastic(sub_.size(), 0);
    for (std::size_t k = 0; k < sub_.size(); ++k)
      if (iws_.lambda[static_cast<Eigen::Index>(k)] > S(0) && iws_.zeta_plus[static_cast<Eigen::Index>(k)] < opt_.rest_speed &&
          sub_[k].restitution > S(0)) {
        sub_[k].restitution = S(0);
        plastic[k] = 1;
        redo = true;
      }
    if (redo) ImpactDantzig::run<S>(m_, sub_, q, qd, qd_plus, iws_);
    for (std::size_t k = 0; k < sub_.size(); ++k) {
      const Eigen::Index kk = static_cast<Eigen::Index>(k);
      const int i = sub_index_[k];
      current[static_cast<std::size_t>(i)] = iws_.zeta_plus[kk] <= opt_.rest_speed;
      if (i == gained || (gained < 0 && iws_.lambda[kk] > S(0)))
        events.push_back({ContactEvent<S>::Kind::impact, t, i, iws_.zeta_minus[kk], iws_.zeta_plus[kk], plastic[k] != 0});
    }
    qd = qd_plus;
  }
};

}  // namespace rbd::simulation
