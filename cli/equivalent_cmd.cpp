// `rbdlab equivalent MODEL`: Featherstone section 9.7 on the user's model. Prints the
// dynamically equivalent inertias (model/dynamic_equivalence.hpp: Table 9.7's inertias moved
// from each body to its parent, from the tips in), how many of the ten parameters of each body
// they zero, which bodies stop being physically valid (zero or negative mass, an inertia that no
// rigid body has: by design, section 9.7), and two verdicts:
//  - the equivalent model's tau (rnea_spatial), H (crba) and qdd (aba) at a seeded state, and
//    rnea_equivalent's tau on the original, against the Lagrangian oracle on the ORIGINAL model,
//    in 50-digit arithmetic (the oracle refuses an equivalent model: it needs rigid bodies);
//  - the operation counts of rnea_spatial and rnea_equivalent on the model (counting scalar):
//    the saving section 9.7 predicts for revolute-heavy models.
// Exit 0 when every agreement reaches the gates' 40 digits, 1 otherwise, 2 for bad input.
#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cases/states.hpp"
#include "cli/commands.hpp"
#include "cli/model_input.hpp"
#include "core/counting_scalar.hpp"
#include "forward_dynamics/aba.hpp"
#include "inverse_dynamics/rnea_equivalent.hpp"
#include "inverse_dynamics/rnea_spatial.hpp"
#include "mass_matrix/crba.hpp"
#include "model/dynamic_equivalence.hpp"
#include "reference/lagrange_oracle.hpp"
#include "verify/support/accuracy.hpp"
#include "verify/support/metrics.hpp"
#include "verify/support/state.hpp"

namespace rbd::cli {
namespace {

// Why an inertia is not a rigid body's, or "" if it is one: ModelBuilder's rules for the models
// it builds (model.hpp, check_inertia: positive mass; rotational inertia at the centre of mass
// with principal moments > 0; the triangle inequality with a slack of 16 eps of the trace),
// applied to Icom = Ibar - m c^ c^T, c = h / m (Eq. 2.63), since an equivalent body's
// (mass, com, Icom) may not exist. That reconstruction rounds by a few eps of |Ibar|, so a body
// within that of the boundary (a lamina, a thin rod) may be judged either way.
std::string not_physical_because(const Inertia<double>& I) {
  if (!(I.m > 0)) {
    std::ostringstream os;
    os << "mass " << I.m << " (not positive)";
    return os.str();
  }
  const Vec3<double> c = I.h / I.m;
  const Mat3<double> cx = skew<double>(c);
  const Mat3<double> Ic = I.Ibar + I.m * cx * cx;
  const Vec3<double> p = Eigen::SelfAdjointEigenSolver<Mat3<double>>(Ic, Eigen::EigenvaluesOnly).eigenvalues();
  std::ostringstream os;
  if (!(p[0] > 0)) {
    os << "rotational inertia at the centre of mass not positive definite (principal moments " << p.transpose() << ")";
    return os.str();
  }
  if (p[2] > p[0] + p[1] + 16 * std::numeric_limits<double>::epsilon() * p.sum()) {
    os << "principal moments " << p.transpose() << " violate the triangle inequality";
    return os.str();
  }
  return "";
}

nlohmann::ordered_json inertia_json(const Inertia<double>& I) {
  nlohmann::ordered_json Ibar = nlohmann::ordered_json::array();
  for (int r = 0; r < 3; ++r) Ibar.push_back({I.Ibar(r, 0), I.Ibar(r, 1), I.Ibar(r, 2)});
  return {{"m", I.m}, {"h", {I.h[0], I.h[1], I.h[2]}}, {"Ibar", Ibar}};
}

struct Agreement {
  std::string what;
  double digits;
};

// The equivalent model against the oracle on the original model at the seeded state. The
// equivalent model is derived again in Reference: the double one carries rounding of 1e-16.
std::vector<Agreement> check_against_oracle(const Model<double>& md, std::uint64_t seed) {
  using R = Reference;
  const Model<R> m = md.cast<R>(), e = dynamically_equivalent(m);
  const auto x = verify::cast_state<R>(m, cases::random_state(md, seed));
  Workspace<R> wm(m), we(e);
  const VecX<R> tau_o = oracle::inverse_dynamics(m, x.q, x.qd, x.qdd, nullptr);
  const MatX<R> H_o = oracle::mass_matrix(m, x.q);
  const VecX<R> C_o = oracle::inverse_dynamics(m, x.q, x.qd, VecX<R>(VecX<R>::Zero(m.nv)), nullptr);
  const VecX<R> qdd_o = H_o.partialPivLu().solve(VecX<R>(x.tau - C_o));
  VecX<R> tau(m.nv), qdd(m.nv);
  MatX<R> H = MatX<R>::Zero(m.nv, m.nv);
  std::vector<Agreement> out;
  auto digits = [](const VecX<R>& a, const VecX<R>& b) { return verify::exact_digits(verify::rel_diff(a, b)); };
  RneaSpatial::run<R>(e, x.q, x.qd, x.qdd, nullptr, tau, we);
  out.push_back({"tau: rnea_spatial on the equivalent model", digits(tau, tau_o)});
  Crba::run<R>(e, x.q, H, we);
  out.push_back({"H: crba on the equivalent model", verify::exact_digits(verify::rel_diff(H, H_o))});
  ForwardDynamicsWorkspace<R> wf(e);
  Aba::run<R>(e, x.q, x.qd, x.tau, nullptr, qdd, wf);
  out.push_back({"qdd: aba on the equivalent model", digits(qdd, qdd_o)});
  RneaEquivalent::run<R>(m, x.q, x.qd, x.qdd, nullptr, tau, wm);
  out.push_back({"tau: rnea_equivalent (original model, zeros skipped)", digits(tau, tau_o)});
  return out;
}

std::pair<OpCounts, OpCounts> rnea_counts(const Model<double>& md) {
  const Model<Counted> m = md.cast<Counted>();
  Workspace<Counted> ws(m);
  const VecX<Counted> q = neutral_configuration(m), z = VecX<Counted>::Zero(m.nv);
  VecX<Counted> tau(m.nv);
  const OpCounts plain = count_ops([&] { RneaSpatial::run<Counted>(m, q, z, z, nullptr, tau, ws); });
  const OpCounts skipped = count_ops([&] { RneaEquivalent::run<Counted>(m, q, z, z, nullptr, tau, ws); });
  return {plain, skipped};
}

}  // namespace

int run_equivalent(const Args& a) {
  if (a.positional.size() != 1)
    throw BadInput("equivalent: expected exactly one MODEL (a URDF file or a case id); see rbdlab equivalent --help");
  std::uint64_t seed = 1;
  if (const std::string* s = a.get("--seed")) seed = parse_count(*s, "--seed", 0, std::numeric_limits<std::uint64_t>::max());
  const cases::LoadedModel lm = load_model(a);
  const Model<double>& m = lm.model;
  for (const auto& w : lm.warnings) std::cerr << "rbdlab equivalent: warning: " << w << "\n";
  const Model<double> e = dynamically_equivalent(m);
  const Progress progress("equivalent");
  progress.step("checking the equivalent model against the oracle on the original (50 digits)");
  const std::vector<Agreement> checks = check_against_oracle(m, seed);
  const auto [plain, skipped] = rnea_counts(m);
  bool pass = true;
  for (const Agreement& c : checks) pass = pass && c.digits >= verify::kExactDigitsGate;

  int zeroed = 0, non_physical = 0;
  nlohmann::ordered_json bodies = nlohmann::ordered_json::array();
  for (int i = 0; i < m.nb; ++i) {
    const int before = count_zero_parameters(zero_parameters(m.I[i]));
    const int after = count_zero_parameters(zero_parameters(e.I[i]));
    zeroed += after - before;
    const std::string why = not_physical_because(e.I[i]);
    non_physical += !why.empty();
    nlohmann::ordered_json b = {{"body", m.body_name[i]}, {"joint", std::string(joint_type_name(m.joint[i].type))},
                                {"zero_parameters", {{"original", before}, {"equivalent", after}}},
                                {"equivalent_inertia", inertia_json(e.I[i])}, {"physically_valid", why.empty()}};
    if (!why.empty()) b["why_not"] = why;
    bodies.push_back(b);
  }
  auto ops_json = [](const OpCounts& c) { return nlohmann::ordered_json{{"m", c.m()}, {"a", c.a()}}; };

  if (a.flag.count("--json")) {
    nlohmann::ordered_json checks_json = nlohmann::ordered_json::array();
    for (const Agreement& c : checks) checks_json.push_back({{"what", c.what}, {"digits", c.digits}});
    const nlohmann::ordered_json out = {
        {"model", m.name}, {"nb", m.nb}, {"nv", m.nv}, {"bodies", bodies},
        {"parameters_zeroed", zeroed}, {"parameters_total", 10 * m.nb}, {"bodies_not_physically_valid", non_physical},
        {"check", {{"seed", seed}, {"against", "Lagrangian oracle on the original model (50-digit arithmetic)"},
                   {"required_digits", verify::kExactDigitsGate}, {"results", checks_json}, {"pass", pass}}},
        {"rnea_ops", {{"rnea_spatial", ops_json(plain)}, {"rnea_equivalent", ops_json(skipped)}}}};
    std::cout << out.dump(2) << "\n";
    return pass ? 0 : 1;
  }
  std::cout << "Dynamically equivalent inertias of " << m.name << " (Featherstone section 9.7, Table 9.7)\n\n";
  std::cout << std::left << std::setw(24) << "body" << std::setw(13) << "joint" << std::setw(15) << "zero params"
            << "equivalent inertia (m; h; Ibar xx yy zz xy xz yz)\n";
  for (int i = 0; i < m.nb; ++i) {
    const Inertia<double>& I = e.I[i];
    const auto& b = bodies[static_cast<std::size_t>(i)];
    std::ostringstream zp, in;
    zp << b["zero_parameters"]["original"].get<int>() << " -> " << b["zero_parameters"]["equivalent"].get<int>();
    in << std::setprecision(6) << I.m << "; " << I.h.transpose() << "; " << I.Ibar(0, 0) << " " << I.Ibar(1, 1) << " "
       << I.Ibar(2, 2) << " " << I.Ibar(0, 1) << " " << I.Ibar(0, 2) << " " << I.Ibar(1, 2);
    std::cout << std::setw(24) << m.body_name[i] << std::setw(13) << b["joint"].get<std::string>() << std::setw(15)
              << zp.str() << in.str() << "\n";
    if (b.contains("why_not")) std::cout << std::setw(52) << "" << "not physically valid: " << b["why_not"].get<std::string>() << "\n";
  }
  std::cout << "\n" << zeroed << " of " << 10 * m.nb << " inertia parameters zeroed; " << non_physical << " of " << m.nb
            << " bodies are not physically valid (allowed: only the equation of motion must be unchanged).\n\n";
  std::cout << "Against the Lagrangian oracle on the original model, seed " << seed
            << ", 50-digit arithmetic (required: " << verify::kExactDigitsGate << " digits):\n";
  for (const Agreement& c : checks)
    std::cout << "  " << std::setw(56) << c.what << std::fixed << std::setprecision(1) << c.digits << " digits"
              << (c.digits >= verify::kExactDigitsGate ? "" : "   FAIL") << "\n" << std::defaultfloat;
  std::cout << "\nRNEA operation counts (counting scalar): rnea_spatial " << plain.m() << "m + " << plain.a()
            << "a, rnea_equivalent " << skipped.m() << "m + " << skipped.a() << "a\n";
  return pass ? 0 : 1;
}

}  // namespace rbd::cli
