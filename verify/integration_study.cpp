// The integration family's measurement program (issue 6; seed 004, Mueller & Terze,
// DETC2013-12151). Writes reports/data/integration.json (atomically; to data/failed/ when a
// gate fails, exit status 1):
//   lie_accuracy      each SO(3)/SE(3) closed form and coefficient in double vs the same in
//                     Reference (which verify/test_lie_groups.cpp holds to the series to
//                     40 digits), over angles 0..pi, with the branch taken;
//   printed_formulas  the seed's Eqs. 8-11 as printed, digits of agreement with the series;
//   systems           the four systems of section 5: per joint position/velocity constraint
//                     violation and energy drift vs time at h = 1e-3 over 10 s (the first
//                     1 s at full resolution) for every variant in double, and over 0.5 s in
//                     Reference for the two Munthe-Kaas schemes (method error without
//                     round-off); convergence order fits (gated: 4 +- 0.2) against a
//                     Reference solution checked by step halving; operation counts per step
//                     (Counted) and wall-clock time per step (reported, not gated);
//   verdict           each conclusion of the paper, confirmed or contradicted, with the numbers;
//   discrepancies     printed formulas / claims found wrong.
#include <chrono>
#include <iostream>

#include <boost/math/constants/constants.hpp>

#include "reference/lie_series.hpp"
#include "verify/support/json_out.hpp"
#include "verify/support/lie_integration.hpp"
#include "verify/support/metrics.hpp"

using namespace rbd;
using namespace rbd::integration;
using nlohmann::json;

namespace {
constexpr double eps = std::numeric_limits<double>::epsilon();
constexpr double kH = 1e-3;          // the paper's step (sections 5.1, 5.2)
constexpr double kLong = 10.0;       // s
constexpr double kShort = 1.0;       // s
constexpr double kRefSpan = 0.5;     // s, Reference runs
constexpr double kOrderT = 0.064;    // s, order study horizon (8 steps of 8 ms)
constexpr double kOrderTol = 0.2;
// Budget for the closed forms in double (normwise, vs Reference): a coefficient from a 16-term
// nested series or a closed form carries <= ~16 roundings of terms no larger than its value
// (16 eps), the 3-term matrix polynomial adds <= 2 products of 3x3 matrices with entries
// <= |w|^2 <= 10 (3 roundings each, relative to the O(1) result: <= 18), and the result is
// compared normwise: ~34 eps, rounded up to 64. Measured: ~3 eps.
constexpr double kLieBudgetEps = 64.0;
bool lie_pass = true;
constexpr double kAsymptotic = 0.25;  // rad per step: the order gate's range, h * max|omega| <= 0.25
// "Similar" in the paper's sense: maxima within a factor of 10 of each other; "exact": at
// round-off, below steps * 0.5 m * 8 eps (one product of O(1) rotations per step, lever
// arms <= 0.5 m) = 1e4 * 0.5 * 8 * 2.2e-16 ~ 9e-12 m over 10 s.
constexpr double kSimilar = 10.0;
constexpr double kRoundoff10s = 1e4 * 0.5 * 8 * eps;

// Plotted series keep 3 significant digits (the JSON stays small; maxima keep all digits).
double sig3(double x) { char b[32]; std::snprintf(b, sizeof b, "%.3g", x); return std::strtod(b, nullptr); }

std::string sci(double x) { char b[32]; std::snprintf(b, sizeof b, "%.2g", x); return b; }

double rel_err(const MatX<double>& d, const MatX<Reference>& r) { return sig3(verify::error_in_eps(d, r)); }

// ---------------------------------------------------------------- lie_accuracy
json lie_accuracy() {
  using R = Reference;
  std::vector<double> theta;
  for (int k = 0; k <= 80; ++k) theta.push_back(std::pow(10.0, -8.0 + 7.0 * k / 80.0));  // 1e-8 .. 0.1
  for (int k = 1; k <= 120; ++k) theta.push_back(0.1 + (M_PI - 0.1) * k / 120.0);       // .. pi
  json funcs = json::object(), coeffs = json::object();
  const char* fnames[] = {"so3_exp", "so3_log", "so3_dexp", "so3_dexp_inv", "se3_exp", "se3_log", "se3_dexp", "se3_dexp_inv"};
  const char* cnames[] = {"A", "B", "C", "G", "dB", "dC", "dG"};
  for (auto n : fnames) funcs[n] = json::array();
  for (auto n : cnames) coeffs[n] = {{"series", json::array()}, {"closed", json::array()}};
  json branch = json::array();
  for (size_t k = 0; k < theta.size(); ++k) {
    const double t = theta[k];
    Vec3<double> u(0.3 + 0.01 * (k % 7), -0.8, 0.5 - 0.02 * (k % 5));
    u /= u.norm();
    const Vec3<double> w = u * t;
    Vec6<double> X;
    X << w, 0.7, -1.1, 0.4;
    const Vec3<R> wr = w.cast<R>();
    const Vec6<R> Xr = X.cast<R>();
    const Mat3<double> Rd = so3::exp<double>(w);
    const se3::Pose<double> Cd = se3::exp<double>(X);
    // log is measured on the same (double) input in both scalars.
    funcs["so3_exp"].push_back(rel_err(Rd, so3::exp<R>(wr)));
    funcs["so3_log"].push_back(rel_err(so3::log<double>(Rd), so3::log<R>(Rd.cast<R>())));
    funcs["so3_dexp"].push_back(rel_err(so3::dexp<double>(w), so3::dexp<R>(wr)));
    funcs["so3_dexp_inv"].push_back(rel_err(so3::dexp_inv<double>(w), so3::dexp_inv<R>(wr)));
    funcs["se3_exp"].push_back(rel_err(Cd.matrix(), se3::exp<R>(Xr).matrix()));
    const se3::Pose<R> Cr{Cd.R.cast<R>(), Cd.r.cast<R>()};
    funcs["se3_log"].push_back(rel_err(se3::log<double>(Cd), se3::log<R>(Cr)));
    funcs["se3_dexp"].push_back(rel_err(se3::dexp<double>(X), se3::dexp<R>(Xr)));
    funcs["se3_dexp_inv"].push_back(rel_err(se3::dexp_inv<double>(X), se3::dexp_inv<R>(Xr)));
    // Coefficients: each branch forced, in double, against Reference (auto branch, which
    // test_lie_groups.cpp holds to the series). Same x in both scalars (x = t^2 rounded to
    // double, then exact in Reference), so only the formula's rounding is measured. Relative
    // error, except A (-> 0 at pi): absolute, A being <= 1.
    const double x = t * t;
    const lie::Coeffs<R> cr = lie::coefficients<R>(R(x), sqrt(R(x)));
    const lie::Coeffs<double> cs = lie::coefficients_series<double>(x);
    const lie::Coeffs<double> cc = lie::coefficients_closed<double>(x, std::sqrt(x));
    auto ce = [](double d, const R& r, bool absolute) {
      const R den = absolute ? R(1) : abs(r);
      return den == 0 ? 0.0 : sig3(static_cast<double>(abs(R(d) - r) / den) / eps);
    };
    auto put = [&](const char* n, double ds, double dc, const R& r) {
      coeffs[n]["series"].push_back(ce(ds, r, std::string(n) == "A"));
      coeffs[n]["closed"].push_back(ce(dc, r, std::string(n) == "A"));
    };
    put("A", cs.A, cc.A, cr.A);
    put("B", cs.B, cc.B, cr.B);
    put("C", cs.C, cc.C, cr.C);
    put("G", cs.G, cc.G, cr.G);
    put("dB", cs.dB, cc.dB, cr.dB);
    put("dC", cs.dC, cc.dC, cr.dC);
    put("dG", cs.dG, cc.dG, cr.dG);
    branch.push_back(lie::branch_C<double>(w.squaredNorm()) == lie::Branch::series ? "series" : "closed");
  }
  double worst = 0;
  for (auto& [k, v] : funcs.items())
    for (double e : v) worst = std::max(worst, e);
  // Gate: each closed form in double within kLieBudgetEps of Reference (see its definition).
  lie_pass = worst <= kLieBudgetEps;
  return {{"what", "functions: normwise relative error (Frobenius) of double vs Reference, in eps, same input; coefficients: each branch forced, relative error in eps (A: absolute)"},
          {"theta", theta}, {"functions", funcs}, {"coefficients", coeffs}, {"branch_C_G_derivatives", branch},
          {"threshold_theta", {{"A_B", std::sqrt(lie::threshold_AB<double>())}, {"C_G_dB_dC_dG", std::sqrt(lie::threshold_CG<double>())}}},
          {"worst_eps", worst}, {"budget_eps", kLieBudgetEps}, {"pass", lie_pass}};
}

// ---------------------------------------------------------------- printed formulas
json printed_formulas(json& discrepancies) {
  namespace O = rbd::oracle::lie;
  using R = Reference;
  using std::cos;
  using std::sin;
  json out = json::array();
  Vec6<R> X;
  X << R(0.3), R(-0.9), R(0.6), R(0.7), R(-1.1), R(0.4);  // |w| = 1.1225
  const Vec3<R> w = X.head<3>(), v = X.tail<3>();
  const R th = w.norm();
  const O::M3 W = O::cross_matrix(w), Rs = O::expm<3>(W);
  auto dg = [](const auto& a, const auto& b) { const MatX<R> x = a, y = b; return verify::exact_digits(verify::rel_diff(x, y)); };
  const O::M3 p9 = O::M3::Identity() + sin(th) / th * W + (1 - cos(th)) / th * W * W;
  const double d9 = dg(p9, Rs);
  const double orth9 = static_cast<double>((p9.transpose() * p9 - O::M3::Identity()).norm());
  out.push_back({{"equation", "Eq. 9 (exp on SO(3))"}, {"digits", d9}, {"correct", d9 >= 40},
                 {"note", "as printed, (1 - cos|w|)/|w| multiplies w^2; ||R^T R - I|| = " + std::to_string(orth9)}});
  if (d9 < 40)
    discrepancies.push_back({{"quantity", "exp on SO(3), Eq. 9"}, {"source", "seed 004 (Mueller & Terze 2013) Eq. 9"},
                             {"published", "exp w^ = I + sin|w|/|w| w^ + (1 - cos|w|)/|w| w^2"},
                             {"rbdlab_exact", "I + sin|w|/|w| w^ + (1 - cos|w|)/|w|^2 w^2 (Rodrigues)"},
                             {"evidence", "at |w| = 1.1225 the printed form agrees with the series exp to " + std::to_string(d9).substr(0, 4) +
                                          " digits and is not orthogonal (||R^T R - I|| = " + std::to_string(orth9) +
                                          "); with |w|^2 it agrees to 50 digits"},
                             {"test", "verify/test_lie_groups.cpp"}});
  {
    // Eq. 53, row 1 (double pendulum, body-fixed twists, joint to the ground): printed eta_1 =
    // w1^ v1 + w1^ w1^ r0 with Eq. 50's row J_1 = (r0^, -I), i.e. the residual -R1^T g1; the
    // index-1 form needs eta = -rho'' along a constant twist (test_integration.cpp checks J_1 and
    // the printed rows of Eqs. 39, 41, 61, 64 the same way).
    const System<R> sys = cases::double_pendulum().sys.cast<R>();
    const State<R> x = verify::generic_chain_state(sys);
    const Vec3<R> r0 = sys.joint[0].a, w1 = x.V.segment<3>(0), v1 = x.V.segment<3>(3);
    const auto d = verify::flow_derivatives<Se3Group>(x, 2, [&](const State<R>& y) {
      return Vec3<R>(-(y.C[0].R.transpose() * (y.C[0].R * r0 + y.C[0].r))); });
    const Vec3<R> printed = skew<R>(w1) * v1 + skew<R>(w1) * skew<R>(w1) * r0;
    const double d53 = dg(printed, Vec3<R>(-d.second)), d53neg = dg(Vec3<R>(-printed), Vec3<R>(-d.second));
    out.push_back({{"equation", "Eq. 53 row 1 (eta of the ground joint, SE(3))"}, {"digits", d53}, {"correct", d53 >= 20},
                   {"note", "negated, it agrees to " + std::to_string(d53neg).substr(0, 4) + " digits (finite differences in Reference)"}});
    if (d53 < 20)
      discrepancies.push_back({{"quantity", "acceleration constraint of the double pendulum's ground joint, Eq. 53 row 1"},
                               {"source", "seed 004 (Mueller & Terze 2013) Eqs. 50, 53, 54"},
                               {"published", "J_1 = (r0^, -I), eta_1 = w1^ v1 + w1^ w1^ r0"},
                               {"rbdlab_exact", "eta_1 = -(w1^ v1 + w1^ w1^ r0) for that J_1 (= -Jdot_1 V)"},
                               {"evidence", "second derivative of the residual -R1^T g1 along a constant twist, central differences in "
                                            "Reference: the printed eta_1 agrees to " + std::to_string(d53).substr(0, 4) +
                                            " digits, its negative to " + std::to_string(d53neg).substr(0, 4) +
                                            "; the other rows of Eqs. 39/40, 41, 53 (row 2), 61 and 64 agree to >= 20 digits"},
                               {"test", "verify/test_integration.cpp"}});
  }
  const Vec3<R> p8 = (O::M3::Identity() - Rs) * w.cross(v) / (th * th) + w.dot(v) / (th * th) * w;
  const double d8 = dg(p8, Vec3<R>(O::expm<4>(O::twist_matrix(X)).block<3, 1>(0, 3)));
  out.push_back({{"equation", "Eq. 8 (exp on SE(3), translation)"}, {"digits", d8}, {"correct", d8 >= 40}, {"note", "h = w.v/|w|^2"}});
  const O::M6 ad = O::ad_commutator(X), ad2 = ad * ad, ad4 = ad2 * ad2;
  const O::M6 p10 = O::M6::Identity() - ad / 2 + (2 / (th * th) + (th + 3 * sin(th)) / (4 * th * (cos(th) - 1))) * ad2 +
                    (1 / (th * th * th * th) + (th + sin(th)) / (4 * th * th * th * (cos(th) - 1))) * ad4;
  const double d10 = dg(O::M6(p10 * O::dexp_series<6>(ad)), O::M6::Identity());
  // Eq. 10 evaluated in double as printed, at small angles, against Reference: its 1/|w|^2
  // and 1/|w|^4 coefficients are differences of nearly equal numbers.
  std::string e10;
  for (double t : {1e-1, 1e-2, 1e-3}) {
    Vec6<double> Xd;
    Xd << 0.6 * t, -0.8 * t, 0.0, 0.7, -1.1, 0.4;
    const Mat6<double> ad_d = se3::ad<double>(Xd), ad2_d = ad_d * ad_d, ad4_d = ad2_d * ad2_d;
    const double q = t, sq = std::sin(q), cq = std::cos(q);
    const Mat6<double> p10d = Mat6<double>::Identity() - ad_d / 2.0 + (2 / (q * q) + (q + 3 * sq) / (4 * q * (cq - 1))) * ad2_d +
                              (1 / (q * q * q * q) + (q + sq) / (4 * q * q * q * (cq - 1))) * ad4_d;
    e10 += (e10.empty() ? "" : ", ") + std::string("|w| = ") + sci(t) + ": " + sci(verify::error_in_eps(p10d, se3::dexp_inv<R>(Xd.cast<R>()))) + " eps";
  }
  out.push_back({{"equation", "Eq. 10 (dexp^-1 on SE(3))"}, {"digits", d10}, {"correct", d10 >= 36},
                 {"note", "right, but evaluated as printed in double its coefficients cancel: error " + e10 +
                          " (rbdlab's block form: see the accuracy plot)"}});
  const O::M3 p11 = O::M3::Identity() - W / 2 + (1 - th / 2 * cos(th / 2) / sin(th / 2)) * W * W / (th * th);
  const double d11 = dg(O::M3(p11 * O::dexp_series<3>(W)), O::M3::Identity());
  out.push_back({{"equation", "Eq. 11 (dexp^-1 on SO(3))"}, {"digits", d11}, {"correct", d11 >= 40}, {"note", ""}});
  return out;
}

// ---------------------------------------------------------------- trajectories
struct Track {
  std::vector<double> t, energy;                    // E - E0 (J)
  std::vector<std::vector<double>> pos, vel;        // per joint
  std::vector<double> max_pos_1s, max_pos_10s, max_vel_1s, max_vel_10s;
  double max_dE_1s = 0, max_dE_10s = 0;
};

template <class V, class S>
Track run_track(const cases::LieCase& c, double T, double sample_dt) {
  using G = typename V::Group;
  const System<S> sys = c.sys.template cast<S>();
  State<S> x = cases::initial_state<G, S>(c);
  const Tableau<S> tab = classical_rk4<S>();
  const S E0 = kinetic_energy<G, S>(sys, x) + potential_energy<S>(sys, x);
  Track tr;
  tr.pos.resize(sys.nj);
  tr.vel.resize(sys.nj);
  tr.max_pos_1s.assign(sys.nj, 0); tr.max_pos_10s.assign(sys.nj, 0);
  tr.max_vel_1s.assign(sys.nj, 0); tr.max_vel_10s.assign(sys.nj, 0);
  const int n = static_cast<int>(std::lround(T / kH)), every = static_cast<int>(std::lround(sample_dt / kH));
  const S h = S(1) / S(1000);
  for (int k = 0; k <= n; ++k) {
    if (k > 0) V::template step<S>(sys, x, h, tab);
    const double t = k * kH;
    const double dE = static_cast<double>(kinetic_energy<G, S>(sys, x) + potential_energy<S>(sys, x) - E0);
    const bool sample = (t <= kShort + 1e-12 && k % every == 0) || k % (5 * every) == 0;
    if (sample) { tr.t.push_back(t); tr.energy.push_back(sig3(dE)); }
    for (int j = 0; j < sys.nj; ++j) {
      const double gp = static_cast<double>(joint_residual<S>(sys, x, j).norm());
      const double gv = static_cast<double>(joint_velocity_violation<G, S>(sys, x, j));
      if (sample) { tr.pos[j].push_back(sig3(gp)); tr.vel[j].push_back(sig3(gv)); }
      tr.max_pos_10s[j] = std::max(tr.max_pos_10s[j], gp);
      tr.max_vel_10s[j] = std::max(tr.max_vel_10s[j], gv);
      if (t <= kShort + 1e-12) { tr.max_pos_1s[j] = std::max(tr.max_pos_1s[j], gp); tr.max_vel_1s[j] = std::max(tr.max_vel_1s[j], gv); }
    }
    tr.max_dE_10s = std::max(tr.max_dE_10s, std::abs(dE));
    if (t <= kShort + 1e-12) tr.max_dE_1s = tr.max_dE_1s > std::abs(dE) ? tr.max_dE_1s : std::abs(dE);
  }
  return tr;
}

json track_json(const Track& tr, const std::string& variant, const std::string& scalar, double T) {
  json joints = json::array();
  for (size_t j = 0; j < tr.pos.size(); ++j)
    joints.push_back({{"joint", j + 1}, {"position", tr.pos[j]}, {"velocity", tr.vel[j]},
                      {"max_position_1s", tr.max_pos_1s[j]}, {"max_position", tr.max_pos_10s[j]},
                      {"max_velocity_1s", tr.max_vel_1s[j]}, {"max_velocity", tr.max_vel_10s[j]}});
  return {{"variant", variant}, {"scalar", scalar}, {"h", kH}, {"T", T}, {"t", tr.t}, {"energy_drift", tr.energy},
          {"max_energy_drift_1s", tr.max_dE_1s}, {"max_energy_drift", tr.max_dE_10s}, {"joints", joints}};
}

template <class V> json cost_json(const cases::LieCase& c) {
  using G = typename V::Group;
  const System<Counted> sys = c.sys.template cast<Counted>();
  State<Counted> x = cases::initial_state<G, double>(c).template cast<Counted>();
  const Tableau<Counted> tab = classical_rk4<Counted>();
  const OpCounts ops = count_ops([&] { V::template step<Counted>(sys, x, Counted(kH), tab); });
  // Wall clock (reported only): 2000 steps in double.
  State<double> xd = cases::initial_state<G, double>(c);
  const Tableau<double> td = classical_rk4<double>();
  const auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < 2000; ++k) V::template step<double>(c.sys, xd, kH, td);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / 2000;
  return {{"variant", V::name}, {"m", ops.m()}, {"a", ops.a()}, {"sqrt", ops.sqrt}, {"sin", ops.sin}, {"cos", ops.cos},
          {"ns_per_step", s * 1e9}, {"ns_per_body_update", s * 1e9 / c.sys.n}};
}


// ---------------------------------------------------------------- verdict
const json& find_run(const json& systems, const std::string& id, const std::string& variant) {
  for (const json& s : systems)
    if (s["id"] == id)
      for (const json& r : s["runs"])
        if (r["variant"] == variant && r["scalar"] == "double") return r;
  throw std::runtime_error("no run " + id + "/" + variant);
}
double max_pos(const json& run, int joint) { return run["joints"][joint - 1]["max_position"].get<double>(); }
double max_all(const json& run) {
  double m = 0;
  for (const json& j : run["joints"]) m = std::max(m, j["max_position"].get<double>());
  return m;
}
double drift(const json& run) { return run["max_energy_drift"].get<double>(); }
bool similar(double a, double b) { return std::max(a, b) <= kSimilar * std::min(a, b); }

json verdict(const json& systems, json& discrepancies) {
  json v = json::array();
  auto claim = [&](const std::string& where, const std::string& claim, bool confirmed, const std::string& evidence) {
    v.push_back({{"where", where}, {"claim", claim}, {"confirmed", confirmed}, {"evidence", evidence}});
    if (!confirmed)
      discrepancies.push_back({{"quantity", "claim: " + claim}, {"source", "seed 004 (Mueller & Terze 2013) " + where},
                               {"published", claim}, {"rbdlab_exact", "not reproduced"}, {"evidence", evidence},
                               {"test", "verify/integration_study.cpp"}});
  };
  const std::string se = RkmkSe3::name, so = RkmkSo3R3::name;
  {
    const json &a = find_run(systems, "heavy_top", se), &b = find_run(systems, "heavy_top", so);
    claim("section 5.1, Fig. 2", "heavy top: SE(3) keeps the pivot to computing accuracy, SO(3)xR3 drifts",
          max_pos(a, 1) <= kRoundoff10s && max_pos(b, 1) > 1e3 * max_pos(a, 1),
          "max |g| over 10 s at h = 1 ms: SE(3) " + sci(max_pos(a, 1)) + " m, SO(3)xR3 " + sci(max_pos(b, 1)) + " m");
    const double r = drift(b) / drift(a);
    claim("section 5.1, Fig. 3", "heavy top: kinetic-energy drift on SE(3) two orders of magnitude below SO(3)xR3",
          r >= std::pow(10.0, 1.5),
          "max |T - T0| over 10 s: SE(3) " + sci(drift(a)) + " J, SO(3)xR3 " + sci(drift(b)) + " J (ratio " + sci(r) +
              "; confirmed would need >= 10^1.5)");
  }
  {
    const json &a = find_run(systems, "double_pendulum", se), &b = find_run(systems, "double_pendulum", so);
    claim("section 5.2, Figs. 5-6", "double pendulum: SE(3) generally better in constraint satisfaction",
          max_pos(a, 1) < max_pos(b, 1) && max_pos(a, 2) <= max_pos(b, 2),
          "max |g| joint 1: SE(3) " + sci(max_pos(a, 1)) + ", SO(3)xR3 " + sci(max_pos(b, 1)) + "; joint 2: SE(3) " +
              sci(max_pos(a, 2)) + ", SO(3)xR3 " + sci(max_pos(b, 2)) + " m");
    claim("section 5.2", "double pendulum: violation of joint 2 (between the bodies) higher than of joint 1",
          max_pos(a, 2) > max_pos(a, 1) && max_pos(b, 2) > max_pos(b, 1),
          "joint 2 / joint 1: SE(3) " + sci(max_pos(a, 2) / max_pos(a, 1)) + ", SO(3)xR3 " + sci(max_pos(b, 2) / max_pos(b, 1)));
    claim("section 5.2, Fig. 7", "double pendulum: total-energy drift comparable for both", similar(drift(a), drift(b)),
          "max |E - E0| over 10 s: SE(3) " + sci(drift(a)) + " J, SO(3)xR3 " + sci(drift(b)) + " J");
  }
  {
    const json &a = find_run(systems, "floating_pair", se), &b = find_run(systems, "floating_pair", so);
    claim("section 5.3, Fig. 9", "floating bodies: both perform similarly in constraint satisfaction",
          similar(max_all(a), max_all(b)), "max |g|: SE(3) " + sci(max_all(a)) + ", SO(3)xR3 " + sci(max_all(b)) + " m");
    claim("section 5.3, Fig. 10", "floating bodies: kinetic-energy drifts similar", similar(drift(a), drift(b)),
          "max |T - T0|: SE(3) " + sci(drift(a)) + ", SO(3)xR3 " + sci(drift(b)) + " J");
  }
  {
    const json &a = find_run(systems, "three_bar", se), &b = find_run(systems, "three_bar", so);
    claim("section 5.4, Figs. 12, 14", "3-bar linkage: SE(3) satisfies the base joints (1 and 3) perfectly",
          max_pos(a, 1) <= kRoundoff10s && max_pos(a, 3) <= kRoundoff10s,
          "max |g| SE(3): joint 1 " + sci(max_pos(a, 1)) + ", joint 3 " + sci(max_pos(a, 3)) + " m (SO(3)xR3: " +
              sci(max_pos(b, 1)) + ", " + sci(max_pos(b, 3)) + ")");
    claim("section 5.4, Fig. 13", "3-bar linkage: violation of joint 2 similar for both", similar(max_pos(a, 2), max_pos(b, 2)),
          "max |g| joint 2: SE(3) " + sci(max_pos(a, 2)) + ", SO(3)xR3 " + sci(max_pos(b, 2)) + " m");
    claim("section 5.4, Fig. 15", "3-bar linkage: energy drift similar", similar(drift(a), drift(b)),
          "max |E - E0|: SE(3) " + sci(drift(a)) + ", SO(3)xR3 " + sci(drift(b)) + " J");
  }
  {
    double mse = 0, mso = 0;
    std::string ev;
    for (const json& s : systems) {
      const double a = s["cost"][0]["m"].get<double>() + s["cost"][0]["a"].get<double>();
      const double b = s["cost"][1]["m"].get<double>() + s["cost"][1]["a"].get<double>();
      mse += a; mso += b;
      ev += s["id"].get<std::string>() + " " + sci(a / b) + "x; ";
    }
    claim("abstract, section 6", "the SE(3) formulation is numerically more complex than SO(3)xR3", mse > mso,
          "flops (m + a) per RK4 step, SE(3) / SO(3)xR3: " + ev);
  }
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  const std::filesystem::path data_dir = argc > 1 ? argv[1] : "reports/data";
  json out, discrepancies = json::array(), systems = json::array();
  bool pass = true;
  try {
    out["lie_accuracy"] = lie_accuracy();
    pass = pass && lie_pass;
    out["printed_formulas"] = printed_formulas(discrepancies);
    for (const cases::LieCase& c : cases::lie_cases()) {
      json s = {{"id", c.id}, {"title", c.title}, {"source", c.source}, {"choices", c.choices},
                {"bodies", c.sys.n}, {"joints", c.sys.nj}};
      {
        const State<double> x0 = cases::initial_state<Se3Group, double>(c);
        s["E0"] = kinetic_energy<Se3Group, double>(c.sys, x0) + potential_energy<double>(c.sys, x0);
        s["T0"] = kinetic_energy<Se3Group, double>(c.sys, x0);
      }
      json runs = json::array();
      runs.push_back(track_json(run_track<RkmkSe3, double>(c, kLong, 0.01), RkmkSe3::name, "double", kLong));
      runs.push_back(track_json(run_track<RkmkSo3R3, double>(c, kLong, 0.01), RkmkSo3R3::name, "double", kLong));
      runs.push_back(track_json(run_track<QuaternionRk, double>(c, kLong, 0.01), QuaternionRk::name, "double", kLong));
      if (c.id == "heavy_top" || c.id == "double_pendulum") {
        runs.push_back(track_json(run_track<RkmkSe3, Reference>(c, kRefSpan, 0.01), RkmkSe3::name, "Reference", kRefSpan));
        runs.push_back(track_json(run_track<RkmkSo3R3, Reference>(c, kRefSpan, 0.01), RkmkSo3R3::name, "Reference", kRefSpan));
      }
      s["runs"] = runs;
      // Order study.
      const verify::ReferenceSolution ref = verify::reference_solution(c, kOrderT, 0.5e-3 / 8);
      // Fastest body rotation at t = 0: RK4's error expansion is asymptotic once h * rho is
      // small; the gate fits the steps with h * rho <= kAsymptotic (the full 8..0.5 ms fit is
      // reported beside it: the double pendulum's 8 and 4 ms steps turn ~0.6 and 0.3 rad).
      double rho = 0;
      for (int i = 0; i < c.sys.n; ++i) rho = std::max(rho, c.omega[i].norm());
      json ord = {{"T", kOrderT}, {"h", verify::order_steps()}, {"reference_h", ref.h}, {"rho", rho},
                  {"asymptotic_h_rho", kAsymptotic},
                  {"reference_halving_diff", ref.halving_diff}, {"variants", json::array()}};
      {
        auto one = [&]<class V>() {
          const std::vector<double> err = verify::order_errors<V>(c, kOrderT, ref.x, classical_rk4<double>());
          const double p_full = verify::order_fit(verify::order_steps(), err);
          std::vector<double> hg, eg;
          for (size_t k = 0; k < err.size(); ++k)
            if (verify::order_steps()[k] * rho <= kAsymptotic) { hg.push_back(verify::order_steps()[k]); eg.push_back(err[k]); }
          const double p = hg.size() >= 3 ? verify::order_fit(hg, eg) : 0.0;
          const bool ok = hg.size() >= 3 && std::abs(p - 4.0) <= kOrderTol && ref.halving_diff / 15 < 1e-3 * err.back();
          pass = pass && ok;
          ord["variants"].push_back({{"variant", V::name}, {"errors", err}, {"order_full_range", p_full},
                                     {"order", p}, {"gated_h", hg}, {"pass", ok}});
          std::cout << c.id << " " << V::name << ": order " << p << " (8..0.5 ms: " << p_full << ")" << (ok ? "" : "  FAIL") << "\n";
        };
        one.template operator()<RkmkSe3>();
        one.template operator()<RkmkSo3R3>();
        one.template operator()<QuaternionRk>();
      }
      s["order"] = ord;
      s["cost"] = {cost_json<RkmkSe3>(c), cost_json<RkmkSo3R3>(c), cost_json<QuaternionRk>(c)};
      systems.push_back(s);
      std::cout << c.id << " done\n";
    }
  } catch (const std::exception& e) {
    std::cerr << "integration study failed: " << e.what() << "\n";
    return 2;
  }
  out["systems"] = systems;
  out["verdict"] = verdict(systems, discrepancies);
  out["discrepancies"] = discrepancies;
  out["pass"] = pass;
  out["constants"] = {{"h", kH}, {"T_long", kLong}, {"T_short", kShort}, {"T_reference", kRefSpan},
                      {"similar_factor", kSimilar}, {"roundoff_10s_m", kRoundoff10s}, {"order_tolerance", kOrderTol}};
  out["source"] = "seed 004: Mueller & Terze, DETC2013-12151, sections 2-5";
  verify::write_json_atomically(verify::result_path(data_dir, "integration.json", pass), out);
  std::cout << "integration study: " << (pass ? "pass" : "FAIL") << "\n";
  return pass ? 0 : 1;
}
