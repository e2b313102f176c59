#pragma once
// Simulation with compliant contact (Featherstone section 11.8; the force law is
// soft_contact_forces.hpp): the third way to run chapter 11's scenes, beside the event-driven
// procedure (event_driven.hpp) and the impulse time-stepping scheme (time_stepping.hpp). The
// state is (q, qd, z, x): the tree's, and each contact patch's normal deflection z and tangential
// deflection x, all advanced together by the classical Runge-Kutta method (RK4):
//   k1 = f(y0), k2 = f(y0 + h/2 k1), k3 = f(y0 + h/2 k2), k4 = f(y0 + h k3),
//   y1 = y0 + h (k1 + 2 k2 + 2 k3 + k4) / 6,
// positions through model/configuration.hpp's integrate (q (+) v h with v the stages' velocity
// combination, as heun.hpp does), so free and spherical joints stay on their groups. RK4 rather
// than Heun: the contact springs make oscillations of frequency sqrt(K / m), and Heun's method
// amplifies an undamped oscillation at every step (its stability region misses the imaginary
// axis), while RK4 keeps it for h sqrt(K / m) < 2.8. The patches add their own rates K / D
// (Eqs. 11.76-11.77 relax at them), which RK4 follows stably for h K / D < 2.7: the step must
// resolve both. (For a joint that turns in 3D, q (+) v h with the stages' averaged body velocity
// lacks the dexp^-1 corrections of the Munthe-Kaas methods, integration/rkmk.hpp, which leaves
// the orientation second-order accurate; joints with flat configuration spaces, and free bodies
// that do not turn, get RK4's fourth order.)
//
// Each contact is in one of Eq. 11.75's two cases for a whole step (SoftContactCase: touching,
// p = z; or apart), decided at the step's start: a computed p and z are never exactly equal, and
// a test p <= z repeated at every stage would flip on rounding while the body rests on the patch.
//  - Onset. The force jumps when C' reaches the patch (the damper's -D_n pdot starts at once), and
//    RK4 across a jump loses its order. So when a contact apart at a step's start (p > z) has
//    p <= z at its end, the step is cut back to the instant it arrives, found by bisection on the
//    step length (Eq. 11.51's idea, with RK4's own step in place of an interpolant).
//  - Lift-off needs no event: Eq. 11.75's max(0, .) takes the force continuously to 0 within the
//    step, and a touching contact whose force would pull at a step's end is apart from there on
//    (resolved to the step; the kink costs the step containing it O(h^2), not O(h)). Likewise a
//    contact apart with p <= z (just released) that pushes again at a step's end: its force
//    restarts from near 0 there.
//  - While touching, the patch rides on the body: z is set to p at each step's end (the model's
//    p = z; the integrated z differs from p only by the integrator's error, which Eq. 11.76 is
//    already pulling back at the rate K_n / D_n).
#include <algorithm>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "contact_simulation/soft_contact_forces.hpp"
#include "model/configuration.hpp"

namespace rbd::simulation {

template <class S> class SoftContactSimulator {
 public:
  // z0, x0: the patches' initial deflections (nc and 2 nc entries); empty: x0 = 0 and each z0 at
  // min(p, 0) -- undeformed, or pressed in to where a body that starts below the surface is.
  SoftContactSimulator(const Model<S>& m, PointContacts<S> candidates, VecX<S> q0, VecX<S> qd0, VecX<S> tau, const S& h,
                       std::vector<SoftContactParameters<S>> parameters, VecX<S> z0 = VecX<S>(), VecX<S> x0 = VecX<S>())
      : q(std::move(q0)), qd(std::move(qd0)), z(std::move(z0)), x(std::move(x0)), m_(m), cand_(std::move(candidates)),
        params_(std::move(parameters)), tau_(std::move(tau)), h_(h), ws_(m, cand_.size()) {
    const Eigen::Index nc = static_cast<Eigen::Index>(cand_.size());
    if (!(soft_detail::finite(h_) && h_ > S(0)))
      throw std::invalid_argument("soft contact simulation: the step h = " + soft_detail::text(h_) + " must be finite and > 0");
    if (q.size() != m.nq || qd.size() != m.nv || tau_.size() != m.nv)
      throw std::invalid_argument("soft contact simulation: q0, qd0, tau must have nq, nv, nv entries");
    check_contact_bodies(m, cand_);
    check_soft_contact_parameters(cand_, params_);
    require_finite({{"q0", &q}, {"qd0", &qd}, {"tau", &tau_}});
    if (z.size() == 0) {  // before the check of z0: it reads p
      soft_contact_points<S>(m_, cand_, q, qd, ws_);
      z.resize(nc);
      for (Eigen::Index i = 0; i < nc; ++i) z[i] = std::min<S>(ws_.points[static_cast<std::size_t>(i)].gap, S(0));
    }
    if (x.size() == 0) x = VecX<S>::Zero(2 * nc);
    if (z.size() != nc || x.size() != 2 * nc)
      throw std::invalid_argument("soft contact simulation: z0 and x0 must have nc and 2 nc entries (or be empty)");
    require_finite({{"z0", &z}, {"x0", &x}});
    for (auto* v : {&qd1_, &qdd_, &qds_, &vsum_}) v->resize(m.nv);
    for (auto* v : {&q1_, &qs_}) v->resize(m.nq);
    for (auto* v : {&z1_, &zs_, &gap0_}) v->resize(nc);
    for (auto* v : {&x1_, &xs_}) v->resize(2 * nc);
    for (int j = 0; j < 4; ++j) {
      kv_[j].resize(m.nv); ka_[j].resize(m.nv); kz_[j].resize(nc); kx_[j].resize(2 * nc);
    }
    case_.assign(cand_.size(), SoftContactCase::apart);
    onset_.assign(cand_.size(), 0);
    onset_hi_.assign(cand_.size(), 0);
    settle();
  }

  // One step of length h (shorter when a contact is reached within it: the step ends there).
  void step() { advance(h_); }

  // Steps until t reaches t_end, the last step shortened to land on it.
  void advance_to(const S& t_end) {
    while (t < t_end) advance(std::min<S>(h_, S(t_end - t)));
  }

  // At the current state: whether contact i is touching (the book's p = z), the contact forces
  // (f_n, f_t and the patches' rates), each contact's p, pdot and slip, and qdd.
  bool touching(std::size_t i) const { return case_[i] == SoftContactCase::touching; }
  const std::vector<SoftContactForce<S>>& forces() const { return forces_; }
  const std::vector<SoftContactPoint<S>>& points() const { return points_; }
  const VecX<S>& qdd() const { return qdd_; }
  const PointContacts<S>& candidates() const { return cand_; }
  Vec2<S> tangential_deflection(std::size_t i) const { return x.template segment<2>(2 * static_cast<Eigen::Index>(i)); }

  S t = S(0);
  VecX<S> q, qd;
  VecX<S> z, x;        // patch deflections: z_i, and x_i in (t1, t2) at entries 2i, 2i + 1
  int steps = 0;       // steps taken (a step cut back to a contact's onset counts once)
  int onsets = 0;      // contacts reached (each found by bisection)

 private:
  const Model<S>& m_;
  PointContacts<S> cand_;
  std::vector<SoftContactParameters<S>> params_;
  VecX<S> tau_;
  S h_;
  SoftContactWorkspace<S> ws_;
  std::vector<SoftContactCase> case_;  // per contact, for the step: touching or apart
  std::vector<char> onset_, onset_hi_;  // per contact: reached within this step (at the bisection's hi)
  std::vector<SoftContactForce<S>> forces_;
  std::vector<SoftContactPoint<S>> points_;
  // RK4's stages: k_j = (kv_, ka_, kz_, kx_) = (qd, qdd, zdot, xdot) at stage j; k1 = f(y0) is
  // kept from the end of the previous step (the state it was evaluated at is y0).
  VecX<S> kv_[4], ka_[4], kz_[4], kx_[4];
  VecX<S> q1_, qd1_, z1_, x1_, qs_, qds_, zs_, xs_, qdd_, vsum_, gap0_;
  static constexpr int kMaxBisections = 200;  // delta reaches eps in double (53 halvings) and Reference (~170)

  using Named = std::pair<const char*, const VecX<S>*>;
  static Eigen::Index first_non_finite(const VecX<S>& v) {
    for (Eigen::Index k = 0; k < v.size(); ++k)
      if (!soft_detail::finite(v[k])) return k;
    return -1;
  }
  static void require_finite(std::initializer_list<Named> vectors) {
    for (const auto& [name, v] : vectors)
      if (const Eigen::Index k = first_non_finite(*v); k >= 0)
        throw std::invalid_argument(std::string("soft contact simulation: ") + name + " has a non-finite entry (index " +
                                    std::to_string(k) + ")");
  }

  void stage(int j) {
    kv_[j] = qds_;
    soft_contact_dynamics<S>(m_, cand_, params_, qs_, qds_, tau_, zs_, xs_, case_, ws_, ka_[j], kz_[j], kx_[j]);
  }

  // One RK4 step of length dt from the current state into (q1_, qd1_, z1_, x1_); k1 is kv_[0]...
  void rk4(const S& dt) {
    const S c[3] = {dt / S(2), dt / S(2), dt};
    for (int j = 1; j < 4; ++j) {
      integrate_into<S>(m_, q, kv_[j - 1], c[j - 1], qs_);
      qds_ = qd + c[j - 1] * ka_[j - 1];
      zs_ = z + c[j - 1] * kz_[j - 1];
      xs_ = x + c[j - 1] * kx_[j - 1];
      stage(j);
    }
    const S w = dt / S(6);
    vsum_ = (kv_[0] + S(2) * kv_[1] + S(2) * kv_[2] + kv_[3]) / S(6);
    integrate_into<S>(m_, q, vsum_, dt, q1_);
    qd1_ = qd + w * (ka_[0] + S(2) * ka_[1] + S(2) * ka_[2] + ka_[3]);
    z1_ = z + w * (kz_[0] + S(2) * kz_[1] + S(2) * kz_[2] + kz_[3]);
    x1_ = x + w * (kx_[0] + S(2) * kx_[1] + S(2) * kx_[2] + kx_[3]);
  }

  // After rk4: does a contact apart at the step's start (p > z) reach its patch (p <= z) by its
  // end? Marks each such contact in onset_.
  bool reached() {
    soft_contact_points<S>(m_, cand_, q1_, qd1_, ws_);
    bool any = false;
    for (std::size_t i = 0; i < cand_.size(); ++i) {
      const Eigen::Index ii = static_cast<Eigen::Index>(i);
      onset_[i] = case_[i] == SoftContactCase::apart && gap0_[ii] > z[ii] && ws_.points[i].gap <= z1_[ii];
      any = any || onset_[i];
    }
    return any;
  }

  void advance(const S& dt) {
    for (std::size_t i = 0; i < cand_.size(); ++i) gap0_[static_cast<Eigen::Index>(i)] = points_[i].gap;
    rk4(dt);
    S fraction = S(1);
    if (reached()) {
      // The largest fraction of the step with no contact reached (lo) and the smallest with one
      // (hi); onset_ keeps the contacts reached at hi.
      onset_hi_ = onset_;
      S lo = S(0), hi = S(1);
      for (int it = 0; it < kMaxBisections && hi - lo > std::numeric_limits<S>::epsilon() * hi; ++it) {
        const S mid = (lo + hi) / S(2);
        rk4(mid * dt);
        if (reached()) { hi = mid; onset_hi_ = onset_; }
        else lo = mid;
      }
      onset_ = onset_hi_;
      fraction = lo;
      rk4(lo * dt);
      ++onsets;
    }
    q = q1_; qd = qd1_; z = z1_; x = x1_;
    t += fraction * dt;
    ++steps;
    for (const auto& [name, v] : {Named{"q", &q}, Named{"qd", &qd}, Named{"z", &z}, Named{"x", &x}})
      if (first_non_finite(*v) >= 0)
        throw std::domain_error(std::string("soft contact simulation: ") + name + " became non-finite at t = " +
                                soft_detail::text(t) + " (is h = " + soft_detail::text(h_) +
                                " too large for the contacts? RK4 needs h sqrt(K / m) < 2.8 and h K / D < 2.7)");
    settle();
  }

  // The contact modes at the current state, then k1 = f(state) for the next step. A contact
  // touches when its patch holds it (touching already, just reached, or p <= z) and the force
  // pushes (-K_n p - D_n pdot > 0); a touching one's patch is put on the body (z = p).
  void settle() {
    soft_contact_points<S>(m_, cand_, q, qd, ws_);
    for (std::size_t i = 0; i < cand_.size(); ++i) {
      const Eigen::Index ii = static_cast<Eigen::Index>(i);
      const SoftContactPoint<S>& pt = ws_.points[i];
      const S push = -params_[i].normal_stiffness * pt.gap - params_[i].normal_damping * pt.gap_rate;
      if (onset_[i]) z[ii] = pt.gap;  // reached: p = z (it was p > z by the bisection's last bit)
      const bool together = case_[i] == SoftContactCase::touching || onset_[i] || pt.gap <= z[ii];
      case_[i] = together && push > S(0) ? SoftContactCase::touching : SoftContactCase::apart;
      if (case_[i] == SoftContactCase::touching) z[ii] = pt.gap;
      onset_[i] = 0;
    }
    kv_[0] = qd;
    soft_contact_dynamics<S>(m_, cand_, params_, q, qd, tau_, z, x, case_, ws_, ka_[0], kz_[0], kx_[0]);
    qdd_ = ka_[0];
    forces_ = ws_.forces;
    points_ = ws_.points;
  }
};

}  // namespace rbd::simulation
