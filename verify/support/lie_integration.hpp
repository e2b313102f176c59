#pragma once
// Shared by verify/test_integration.cpp and verify/integration_study.cpp:
//   - global error of a trajectory end point, least-squares order fits;
//   - the convergence-order truth: an independent Reference solution (reference/extrapolation.hpp's
//     Gragg-Bulirsch-Stoer on reference/rigid_body_dae.hpp's quaternion-coordinate equations, no
//     Lie-group code), with its own error estimate, and the former truth (rkmk4_se3 in Reference
//     with a small step), kept as a cross-check of the new one (issue 13, item 4);
//   - the non-finite guard and the trajectory maxima every measurement goes through (a NaN or an
//     inf fails the study instead of vanishing in a std::max);
//   - the two readings of seed 004's heavy-top equations (Eqs. 38-42), as index-1 solves and a
//     Munthe-Kaas step that takes the acceleration function as a parameter.
#include <cmath>
#include <functional>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cases/lie_systems.hpp"
#include "integration/variants.hpp"
#include "reference/extrapolation.hpp"
#include "reference/reference_scalar.hpp"
#include "reference/rigid_body_dae.hpp"
#include "verify/support/metrics.hpp"

namespace rbd::verify {

// ---------------------------------------------------------------- non-finite values
// Issue 13, item 4: a NaN or an inf anywhere in a measurement (a trajectory, an energy, a
// violation, an order-study error, the reference) fails the study. std::max, std::min and
// `x > max` silently drop a NaN, so every measured number goes through check() (an explicit
// std::isfinite), and running maxima use max_into (verify/support/metrics.hpp: NaN is sticky).
struct FiniteGuard {
  std::vector<std::string> failures;  // "system/variant/scalar: what is NaN (first at ...)"
  // True when x is finite; otherwise records a failure naming `where` (system/variant/scalar)
  // and `what` (the scalar measured), once per (where, what).
  bool check(double x, const std::string& where, const std::string& what, const std::string& at = "") {
    if (std::isfinite(x)) return true;
    if (seen_.insert(where + "|" + what).second)
      failures.push_back(where + ": " + what + " is " + (std::isnan(x) ? "NaN" : "inf") + (at.empty() ? "" : " (first at " + at + ")"));
    return false;
  }
  bool check_all(const std::vector<double>& xs, const std::string& where, const std::string& what) {
    bool ok = true;
    for (size_t k = 0; k < xs.size(); ++k) ok = check(xs[k], where, what, "entry " + std::to_string(k)) && ok;
    return ok;
  }
  bool ok() const { return failures.empty(); }

 private:
  std::set<std::string> seen_;
};

// Maxima of one trajectory (energy drift |E - E0|, per joint position |g| and velocity |J V|
// violation) over the whole run and over its first `short_span` seconds. Every sample passes
// the guard; a NaN makes the maxima NaN (never a smaller number), so the JSON carries null.
struct TrackStats {
  std::string where;  // system/variant/scalar
  double short_span = 1.0;
  double max_dE = 0, max_dE_short = 0;
  std::vector<double> max_pos, max_pos_short, max_vel, max_vel_short;

  TrackStats(std::string w, int joints, double short_s)
      : where(std::move(w)), short_span(short_s), max_pos(joints, 0.0), max_pos_short(joints, 0.0),
        max_vel(joints, 0.0), max_vel_short(joints, 0.0) {}

  void add(double t, double dE, const std::vector<double>& gp, const std::vector<double>& gv, FiniteGuard& guard) {
    const std::string at = "t = " + std::to_string(t) + " s";
    const bool in_short = t <= short_span + 1e-12;
    guard.check(dE, where, "energy drift", at);
    max_into(max_dE, std::abs(dE));
    if (in_short) max_into(max_dE_short, std::abs(dE));
    for (size_t j = 0; j < gp.size(); ++j) {
      guard.check(gp[j], where, "position violation of joint " + std::to_string(j + 1), at);
      guard.check(gv[j], where, "velocity violation of joint " + std::to_string(j + 1), at);
      max_into(max_pos[j], gp[j]);
      max_into(max_vel[j], gv[j]);
      if (in_short) { max_into(max_pos_short[j], gp[j]); max_into(max_vel_short[j], gv[j]); }
    }
  }
};

// ---------------------------------------------------------------- errors and order fits
// Configuration error of x against the truth y (both any group, same configuration
// meaning): max over bodies of ||R - R_ref||_F + ||r - r_ref|| (metres; the systems are
// ~0.1-1 m in size, so both terms weigh alike). NaN in either state gives NaN.
template <class S, class T>
double configuration_error(int n, const integration::State<S>& x, const integration::State<T>& y) {
  double e = 0;
  for (int i = 0; i < n; ++i) {
    const Mat3<Reference> dR = x.C[i].R.template cast<Reference>() - y.C[i].R.template cast<Reference>();
    const Vec3<Reference> dr = x.C[i].r.template cast<Reference>() - y.C[i].r.template cast<Reference>();
    max_into(e, static_cast<double>(dR.norm() + dr.norm()));
  }
  return e;
}

// Least-squares slope of log(err) against log(h) (NaN if any error is NaN or not positive).
inline double order_fit(const std::vector<double>& h, const std::vector<double>& err) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = static_cast<double>(h.size());
  for (size_t k = 0; k < h.size(); ++k) {
    const double x = std::log(h[k]), y = std::log(err[k]);
    sx += x; sy += y; sxx += x * x; sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

// The order study's step sizes (issue 6: 8 ms down to 0.5 ms) and horizon.
inline const std::vector<double>& order_steps() {
  static const std::vector<double> h = {8e-3, 4e-3, 2e-3, 1e-3, 5e-4};
  return h;
}

// ---------------------------------------------------------------- the former truth (cross-check)
struct RkmkReference {
  integration::State<Reference> x;  // in Se3Group's velocity convention
  double h = 0, halving_diff = 0;   // step used, ||x(h) - x(2h)|| (configuration error)
  // RK4's error at h is ~ halving_diff / 15 (Richardson: err(2h) ~ 16 err(h)).
  double error_estimate() const { return halving_diff / 15; }
};

// The case integrated in Reference by rkmk4_se3 with step h_ref over T, and again with 2 h_ref.
// Until issue 13 this was the order study's truth: one of the variants under test judging
// itself. It is kept as a cross-check of the independent reference below.
inline RkmkReference rkmk_reference_solution(const cases::LieCase& c, double T, double h_ref) {
  using namespace integration;
  const System<Reference> sys = c.sys.template cast<Reference>();
  const Tableau<Reference> tab = classical_rk4<Reference>();
  const State<Reference> x0 = cases::initial_state<Se3Group, Reference>(c);
  RkmkReference out;
  out.h = h_ref;
  out.x = x0;
  const int n = static_cast<int>(std::lround(T / h_ref));
  integrate<RkmkSe3, Reference>(sys, out.x, Reference(T) / n, n, tab);
  State<Reference> x2 = x0;
  integrate<RkmkSe3, Reference>(sys, x2, Reference(T) / (n / 2), n / 2, tab);
  out.halving_diff = configuration_error(sys.n, out.x, x2);
  return out;
}

// ---------------------------------------------------------------- the independent truth
// The system as plain data for reference/rigid_body_dae.hpp (exact: double -> Reference).
inline oracle::dae::Bodies to_dae(const integration::System<double>& sys) {
  oracle::dae::Bodies b;
  for (int i = 0; i < sys.n; ++i) b.body.push_back({Reference(sys.body[i].m), sys.body[i].Theta.cast<Reference>()});
  for (int k = 0; k < sys.nj; ++k)
    b.joint.push_back({sys.joint[k].i, sys.joint[k].a.cast<Reference>(), sys.joint[k].j, sys.joint[k].b.cast<Reference>()});
  b.gravity = sys.gravity.cast<Reference>();
  oracle::dae::validate(b);
  return b;
}
// A state in So3R3Group's (hybrid) convention as the DAE's vector y = (q, r, w, u) per body.
inline oracle::dae::VecX to_dae_state(const integration::State<Reference>& x, int n) {
  using oracle::dae::kBodyState;
  oracle::dae::VecX y(kBodyState * n);
  for (int i = 0; i < n; ++i) {
    const std::array<Reference, 4> q = oracle::dae::quaternion(x.C[i].R);
    for (int l = 0; l < 4; ++l) y(kBodyState * i + l) = q[l];
    y.segment<3>(kBodyState * i + 4) = x.C[i].r;
    y.segment<6>(kBodyState * i + 7) = x.V.segment<6>(6 * i);
  }
  return y;
}
// The DAE's y as a State in Se3Group's convention (body-fixed twist: v = R^T u).
inline integration::State<Reference> from_dae_state(const oracle::dae::VecX& y, int n) {
  using oracle::dae::kBodyState;
  integration::State<Reference> x;
  x.V = integration::VecV<Reference>(6 * n);
  for (int i = 0; i < n; ++i) {
    x.C[i].R = oracle::dae::rotation(y, i);
    x.C[i].r = y.segment<3>(kBodyState * i + 4);
    x.V.segment<3>(6 * i) = y.segment<3>(kBodyState * i + 7);
    x.V.segment<3>(6 * i + 3) = x.C[i].R.transpose() * Vec3<Reference>(y.segment<3>(kBodyState * i + 10));
  }
  return x;
}

struct IndependentReference {
  integration::State<Reference> x;  // at T, Se3Group's convention: the truth (the finer run, H = T / macro_steps)
  oracle::dae::VecX y;              // the same, as the DAE's vector
  double T = 0;
  int macro_steps = 0, columns = 0;  // of the returned run
  long evaluations = 0;              // vector-field calls, both runs
  double halving_diff = 0;      // configuration distance of the runs with macro steps 2H and H (m)
  double tableau_estimate = 0;  // the returned run's summed |T_kk - T_k,k-1|, as a configuration distance (m)
  // The truth's error estimate: the larger of the two. halving_diff is itself ~ the error of the
  // 2H run, ~2^(2k) times that of the returned one, so it over-estimates the returned run's
  // error; the tableau sum misses the flow's amplification of local errors (the double
  // pendulum's 32-step run: tableau sum 8e-34 m, actual error ~1e-32 m by a 64-step run),
  // hence the maximum.
  double error_estimate = 0;
  double position_residual = 0, velocity_residual = 0;  // the DAE's own |g|, |J V| at T (max over joints)
  // The same at t = 0: the initial-value problem's own data (a configuration built in double
  // closes a joint only to ~1e-17 m; the index-1 form carries that offset unchanged).
  double initial_position_residual = 0, initial_velocity_residual = 0;
  double energy_change = 0;                              // |E(T) - E(0)| (J)
};

// The case integrated over T by Gragg-Bulirsch-Stoer (k = `columns` extrapolation columns,
// order 2k) with `macro_steps` / 2 and `macro_steps` macro steps; the second is the truth.
// Initial state: cases::initial_state in So3R3Group's convention (the same initial-value
// problem as the variants'); its velocity residual under the DAE's own J is recorded.
inline IndependentReference independent_reference(const cases::LieCase& c, double T, int macro_steps, int columns) {
  namespace dae = oracle::dae;
  if (macro_steps < 2 || macro_steps % 2) throw std::invalid_argument("independent_reference: macro_steps must be even and >= 2");
  const dae::Bodies b = to_dae(c.sys);
  const int n = c.sys.n;
  const dae::VecX y0 = to_dae_state(cases::initial_state<integration::So3R3Group, Reference>(c), n);
  auto f = [&](const dae::VecX& y) { return dae::rhs(b, y); };
  const oracle::ExtrapolationRun coarse = oracle::gbs_integrate(f, y0, Reference(T), macro_steps / 2, columns);
  const oracle::ExtrapolationRun fine = oracle::gbs_integrate(f, y0, Reference(T), macro_steps, columns);
  IndependentReference out;
  out.T = T;
  out.macro_steps = macro_steps;
  out.columns = columns;
  out.evaluations = coarse.evaluations + fine.evaluations;
  out.y = fine.y;
  out.x = from_dae_state(fine.y, n);
  out.halving_diff = configuration_error(n, from_dae_state(coarse.y, n), out.x);
  out.tableau_estimate = configuration_error(n, from_dae_state(dae::VecX(fine.y + fine.tableau_estimate), n), out.x);
  out.error_estimate = out.halving_diff;
  max_into(out.error_estimate, out.tableau_estimate);
  auto maxnorm = [&](const dae::VecX& r) {
    double m = 0;
    for (int k = 0; k < r.size() / 3; ++k) max_into(m, static_cast<double>(Vec3<Reference>(r.segment<3>(3 * k)).norm()));
    return m;
  };
  out.position_residual = maxnorm(dae::position_residual(b, fine.y));
  out.velocity_residual = maxnorm(dae::velocity_residual(b, fine.y));
  out.initial_position_residual = maxnorm(dae::position_residual(b, y0));
  out.initial_velocity_residual = maxnorm(dae::velocity_residual(b, y0));
  out.energy_change = static_cast<double>(abs(dae::kinetic_energy(b, fine.y) + dae::potential_energy(b, fine.y) -
                                              dae::kinetic_energy(b, y0) - dae::potential_energy(b, y0)));
  return out;
}

// Cross-check of the two truths: |x_independent - x_rkmk| must lie within the sum of their
// error estimates. The rkmk4_se3 estimate (halving_diff / 15) is Richardson's asymptotic value,
// exact to O(h): at h = 62.5 us and h max|w| <= 0.005 rad its relative error is ~1%; the factor
// 2 on it leaves room for that and for the next term of the expansion, and is far below the
// 16x by which a reference one halving coarser (or a wrong step count) would miss.
inline constexpr double kCrossCheckFactor = 2.0;
inline bool references_agree(double distance, double rkmk_estimate, double independent_estimate) {
  return std::isfinite(distance) && distance <= kCrossCheckFactor * rkmk_estimate + independent_estimate;
}

// End-point errors of variant V (double, tableau tab) at the order steps against `truth`.
template <class V>
std::vector<double> order_errors(const cases::LieCase& c, double T, const integration::State<Reference>& truth,
                                 const integration::Tableau<double>& tab) {
  using namespace integration;
  const System<double> sys = c.sys;
  std::vector<double> err;
  for (double h : order_steps()) {
    State<double> x = cases::initial_state<typename V::Group, double>(c);
    const int n = static_cast<int>(std::lround(T / h));
    integrate<V, double>(sys, x, T / n, n, tab);
    err.push_back(configuration_error(sys.n, x, truth));
  }
  return err;
}

// Central differences in Reference of a residual along the exact flow of the state's
// constant velocity, C(t) = G::retract(C, t V): returns (d/dt, d^2/dt^2) at t = 0, i.e.
// (J V, Jdot V) for the residual's Jacobian J. Step 1e-12: truncation ~1e-24 |g^(4)|,
// round-off ~1e-50/1e-24: ~20+ digits.
template <class G>
std::pair<Vec3<Reference>, Vec3<Reference>> flow_derivatives(
    const integration::State<Reference>& x, int n, const std::function<Vec3<Reference>(const integration::State<Reference>&)>& g) {
  using R = Reference;
  auto flow = [&](const R& t) {
    integration::State<R> y = x;
    for (int i = 0; i < n; ++i) y.C[i] = G::template retract<R>(x.C[i], Vec6<R>(t * x.V.template segment<6>(6 * i)));
    return y;
  };
  const R d = R(1e-12);
  const Vec3<R> gp = g(flow(d)), g0 = g(x), gm = g(flow(-d));
  return {(gp - gm) / (2 * d), (gp - 2 * g0 + gm) / (d * d)};
}

// A generic state of a one- or two-body chain on the position constraint (joint 0 to the
// ground, joint 1 from body 0 to body 1): rotations from exp, positions closing the joints,
// arbitrary velocities (off J V = 0, so J V and Jdot V are not trivially zero).
inline integration::State<Reference> generic_chain_state(const integration::System<Reference>& sys) {
  using R = Reference;
  integration::State<R> x;
  x.V = integration::VecV<R>(sys.nv());
  for (int i = 0; i < sys.n; ++i) {
    x.C[i].R = so3::exp<R>(Vec3<R>(R(0.4) + R(i) / 3, R(-0.7), R(1.1) - R(i)));
    for (int k = 0; k < 6; ++k) x.V(6 * i + k) = R(1 + k + 2 * i) / R(3) * (k % 2 ? R(-1) : R(1));
  }
  x.C[0].r = sys.joint[0].b - x.C[0].R * sys.joint[0].a;
  if (sys.n == 2) x.C[1].r = x.C[0].R * sys.joint[1].a + x.C[0].r - x.C[1].R * sys.joint[1].b;
  return x;
}

// ---------------------------------------------------------------- the two readings of Eqs. 38-42
// Seed 004 writes the heavy top's pivot (section 5.1) as g(C) = r0 - R^T r^s = 0 (Eq. 38), r0 the
// COM seen from the pivot in the body frame (constant), r^s the COM in space. Differentiating it
// gives rows with R^T r^s (Eq. 39: (hat(R^T r^s), I)); the printed index-1 systems then put r0 in
// its place "where (38) is assumed satisfied" (Eqs. 40, 41, 42). Once the pivot drifts (it does on
// SO(3)xR3), p = R^T (r^s - b) is no longer r0 and the two readings are different equations:
//   (a) printed_r0: J and eta of Eqs. 40/42 with the fixed r0 = -a (a: the joint in the body frame)
//       SE(3)     J = (r0^, I),     eta = -w^ w^ r0 + w^ v                        (Eq. 40)
//       SO(3)xR3  J = (R r0^, I),   eta = R w^ w^ r0                              (Eqs. 41, 42)
//   (b) current_configuration: Eq. 3's J(q) and eta(q, V) = -Jdot V of Eq. 38's residual
//       rho = R^T (r - b) + a = p - r0 at the current state (derivatives along the flow:
//       p' = p^ w + R^T r', and w, v constant):
//       SE(3)     J = (p^, I),      eta = -w^ w^ p + w^ v                         (Eq. 39 with p)
//       SO(3)xR3  J = R (p^, R^T) = (R p^, I),  eta = R (-w^ w^ p + 2 w^ R^T v)   (rows scaled by R,
//                 eta with them: the same accelerations as the body-frame rows)
// On the constraint manifold (p = r0, J V = 0) both are the same equations. The variants of
// algorithms/integration differentiate the space-frame residual R a + r - b (Eq. 43's form): on
// SO(3)xR3 that is reading (a) exactly; on SE(3) it is reading (a) times R up to terms in the
// residual, which SE(3) keeps at round-off. Joints between two bodies keep the group's rows.
enum class HeavyTopReading { printed_r0, current_configuration };

inline const char* reading_name(HeavyTopReading r) {
  return r == HeavyTopReading::printed_r0 ? "printed_r0" : "current_configuration";
}

// The rows (3 x 6, the body's velocity columns) and eta of a joint to the ground in a reading.
template <class G, class S>
void ground_joint_rows(HeavyTopReading reading, const se3::Pose<S>& C, const Vec6<S>& V, const integration::Spherical<S>& jt,
                       integration::Mat36<S>& J, Vec3<S>& eta) {
  const Vec3<S> w = V.template head<3>(), v = V.template tail<3>();
  const Vec3<S> x = reading == HeavyTopReading::printed_r0 ? Vec3<S>(-jt.a) : Vec3<S>(C.R.transpose() * (C.r - jt.b));
  if constexpr (std::is_same_v<G, integration::Se3Group>) {
    J.template block<3, 3>(0, 0) = skew<S>(x);
    J.template block<3, 3>(0, 3) = Mat3<S>::Identity();
    eta = -w.cross(w.cross(x)) + w.cross(v);
  } else {
    static_assert(std::is_same_v<G, integration::So3R3Group>);
    J.template block<3, 3>(0, 0) = C.R * skew<S>(x);
    J.template block<3, 3>(0, 3) = Mat3<S>::Identity();
    if (reading == HeavyTopReading::printed_r0)
      eta = C.R * w.cross(w.cross(x));
    else
      eta = C.R * Vec3<S>(-w.cross(w.cross(x)) + S(2) * w.cross(Vec3<S>(C.R.transpose() * v)));
  }
}

// Eq. 3 solved as algorithms/integration/lie/index1.hpp's accelerations() does (Schur
// complement, same operation order: with the group's own rows it gives the same bits, which
// test_integration.cpp checks), for given rows J and eta.
template <class G, class S>
void accelerations_with_rows(const integration::System<S>& sys, const integration::State<S>& x, const integration::MatGV<S>& J,
                             const integration::VecG<S>& eta, integration::VecV<S>& Vdot) {
  using namespace integration;
  VecV<S> Q(sys.nv());
  for (int i = 0; i < sys.n; ++i)
    Q.template segment<6>(6 * i) = G::template bias<S>(sys.body[i], x.C[i], x.V.template segment<6>(6 * i), sys.gravity);
  const VecV<S> MiQ = apply_inverse_mass<S>(sys, Q);
  if (sys.nj == 0) { Vdot = MiQ; return; }
  MatGV<S> JMi(sys.ng(), sys.nv());
  for (int r = 0; r < sys.ng(); ++r) JMi.row(r) = apply_inverse_mass<S>(sys, VecV<S>(J.row(r).transpose())).transpose();
  const MatGG<S> K = JMi * J.transpose();
  const Eigen::LLT<MatGG<S>> llt(K);
  if (llt.info() != Eigen::Success) throw std::runtime_error("accelerations_with_rows: J M^-1 J^T is not positive definite");
  const VecG<S> lam = llt.solve(VecG<S>(J * MiQ - eta));
  Vdot = MiQ - JMi.transpose() * lam;
}

// The rows of every joint in a reading: the group's (Eq. 43 form) for joints between bodies,
// ground_joint_rows for joints to the ground.
template <class G, class S>
void reading_rows(HeavyTopReading reading, const integration::System<S>& sys, const integration::State<S>& x,
                  integration::MatGV<S>& J, integration::VecG<S>& eta) {
  using namespace integration;
  constraint_jacobian<G, S>(sys, x, J, &eta);
  for (int k = 0; k < sys.nj; ++k) {
    const Spherical<S>& jt = sys.joint[k];
    if (jt.j != kGround) continue;
    Mat36<S> Jk;
    Vec3<S> ek;
    ground_joint_rows<G, S>(reading, x.C[jt.i], Vec6<S>(x.V.template segment<6>(6 * jt.i)), jt, Jk, ek);
    J.template middleRows<3>(3 * k).setZero();
    J.template block<3, 6>(3 * k, 6 * jt.i) = Jk;
    eta.template segment<3>(3 * k) = ek;
  }
}

template <class G, class S>
void accelerations_in_reading(HeavyTopReading reading, const integration::System<S>& sys, const integration::State<S>& x,
                              integration::VecV<S>& Vdot) {
  integration::MatGV<S> J;
  integration::VecG<S> eta;
  reading_rows<G, S>(reading, sys, x, J, eta);
  accelerations_with_rows<G, S>(sys, x, J, eta, Vdot);
}

// algorithms/integration/rkmk.hpp's Munthe-Kaas step (seed 004 Eq. 37), line for line, with the
// acceleration function as a parameter: accel(sys, state, Vdot). With accelerations<G> it is
// the variant itself (test_integration.cpp checks the bits).
template <class G, class S, class Accel>
void rkmk_step(const integration::System<S>& sys, integration::State<S>& x, const S& h, const integration::Tableau<S>& tab,
               const Accel& accel) {
  using namespace integration;
  std::array<std::array<Vec6<S>, kMaxBodies>, kMaxStages> kC;
  std::array<VecV<S>, kMaxStages> kV;
  State<S> y = x;
  for (int j = 0; j < tab.s; ++j) {
    VecV<S> psiV = VecV<S>::Zero(sys.nv());
    for (int l = 0; l < j; ++l)
      if (tab.a[j][l] != S(0)) psiV += (h * tab.a[j][l]) * kV[l];
    y.V = x.V + psiV;
    std::array<Vec6<S>, kMaxBodies> psiC;
    for (int i = 0; i < sys.n; ++i) {
      psiC[i].setZero();
      for (int l = 0; l < j; ++l)
        if (tab.a[j][l] != S(0)) psiC[i] += (h * tab.a[j][l]) * kC[l][i];
      y.C[i] = j == 0 ? x.C[i] : G::template retract<S>(x.C[i], psiC[i]);
    }
    accel(sys, y, kV[j]);
    for (int i = 0; i < sys.n; ++i) {
      const Vec6<S> Vi = y.V.template segment<6>(6 * i);
      kC[j][i] = j == 0 ? Vi : Vec6<S>(G::template dexp_inv<S>(Vec6<S>(-psiC[i])) * Vi);
    }
  }
  for (int i = 0; i < sys.n; ++i) {
    Vec6<S> phi = Vec6<S>::Zero();
    for (int j = 0; j < tab.s; ++j) phi += (h * tab.b[j]) * kC[j][i];
    x.C[i] = G::template retract<S>(x.C[i], phi);
  }
  for (int j = 0; j < tab.s; ++j) x.V += (h * tab.b[j]) * kV[j];
}

}  // namespace rbd::verify
