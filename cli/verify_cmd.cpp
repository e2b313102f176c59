// `rbdlab verify MODEL`: the suite's gates on one user model, over seeded random states.
//  - gate 1 (exactness): every variant in the 50-digit Reference scalar against the
//    Lagrangian oracle on seeds 1..2, >= 40 digits (verify/support/exactness.hpp's bar);
//  - gate 2 (identities): H(q) symmetric and positive definite in Reference (an LDL^T with
//    positive pivots), and 1/2 qd^T H qd equal to the oracle's kinetic energy summed body
//    by body, to 40 digits;
//  - gate 3 (accuracy): every variant in double against itself in Reference over --seeds
//    states, held to the budgets of verify/support/accuracy.hpp.
// The same measurement code as `make verify` (verify/support/), on the user's model.
// A model with loop joints of its own (an MJCF file's <equality> connect/weld) is measured at
// states on its loops (cases/model_loop_states.hpp): q moved from the drawn pose and projected
// onto them, and the closed-loop family holds the model's loops, not loops drawn at random. The
// tree families run on the spanning tree at the same states.
#include <algorithm>
#include <iomanip>
#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/mass_matrix_check.hpp"
#include "cli/model_input.hpp"
#include "cases/model_loop_states.hpp"
#include "reference/lagrange_oracle.hpp"
#include "verify/support/accuracy.hpp"
#include "verify/support/metrics.hpp"

namespace rbd::cli {
namespace {

struct IdentityRecord {
  std::string name;
  double digits;
  bool pass;
};

// Gate 2 on seeds 1..seeds: symmetry and positive pivots of H, and the energy identity.
std::vector<IdentityRecord> check_identities(const Model<double>& md, int seeds) {
  const Model<Reference> m = md.template cast<Reference>();
  Workspace<Reference> ws(m);
  double sym_digits = 50, energy_digits = 50;
  bool pd = true;
  for (int seed = 1; seed <= seeds; ++seed) {
    const auto x = verify::cast_state<Reference>(m, cases::random_state(md, seed));
    MatX<Reference> H = MatX<Reference>::Zero(m.nv, m.nv);
    Crba::run<Reference>(m, x.q, H, ws);
    sym_digits = std::min(sym_digits, verify::exact_digits(verify::rel_diff(H.transpose(), H)));
    Reference pivot;
    if (cli::first_small_pivot<Reference>(H, Reference(0), &pivot) >= 0) pd = false;  // every pivot must be > 0
    const Reference T_H = Reference(x.qd.dot(H * x.qd)) / 2;
    const Reference T = oracle::kinetic_energy(m, x.q, x.qd);
    MatX<Reference> a(1, 1), b(1, 1);
    a(0, 0) = T_H;
    b(0, 0) = T;
    energy_digits = std::min(energy_digits, verify::exact_digits(verify::rel_diff(a, b)));
  }
  return {{"H symmetric (crba, Reference)", sym_digits, sym_digits >= verify::kExactDigitsGate},
          {"H positive definite (LDL^T pivots > 0, Reference)", pd ? 50.0 : 0.0, pd},
          {"1/2 qd^T H qd = kinetic energy (oracle)", energy_digits, energy_digits >= verify::kExactDigitsGate}};
}

}  // namespace

int run_verify(const Args& a) {
  if (a.positional.size() != 1) throw BadInput("verify: expected exactly one MODEL (a URDF file or a case id); see rbdlab verify --help");
  int seeds = 20;
  if (const std::string* s = a.get("--seeds")) seeds = static_cast<int>(parse_count(*s, "--seeds", 2, 1000));
  const cases::LoadedModel lm = load_model(a);
  const Model<double>& m = lm.model;
  for (const auto& w : lm.warnings) std::cerr << "rbdlab verify: warning: " << w << "\n";
  const Progress progress("verify");
  std::vector<verify::AccuracyRecord> records;
  const verify::StateSource draw = lm.loops.empty()
                                       ? verify::StateSource(verify::default_state)
                                       : verify::StateSource([&lm](const Model<double>& md, int seed) {
                                           return cases::closed_random_state(md, lm.loops, static_cast<std::uint64_t>(seed));
                                         });
  for (const verify::FamilyEntry* family : verify::all_families()) {
    progress.step(std::string(family->name) + ": Reference vs oracle (2 seeds), double vs Reference (" +
                  std::to_string(seeds) + " seeds)");
    verify::measure_accuracy(
        *family, m.name, m, seeds, 2, [&](const verify::AccuracyRecord& r) { records.push_back(r); }, draw);
  }
  progress.step("identities (H symmetric positive definite, kinetic energy)");
  const std::vector<IdentityRecord> ids = check_identities(m, 2);
  bool all = true;
  for (const auto& r : records) all = all && r.pass;
  for (const auto& r : ids) all = all && r.pass;

  if (a.flag.count("--json")) {
    nlohmann::ordered_json out = {{"model", m.name}, {"nq", m.nq}, {"nv", m.nv}, {"depth", m.depth()}, {"seeds", seeds},
                          {"pass", all}};
    out["loop_joints"] = nlohmann::ordered_json::array();
    for (const auto& L : lm.loops)
      out["loop_joints"].push_back({{"name", L.name}, {"type", std::string(loop_joint_type_name(L.type))},
                                    {"predecessor", L.p < 0 ? "base" : m.body_name[L.p]}, {"successor", m.body_name[L.s]}});
    out["accuracy"] = nlohmann::ordered_json::array();
    for (const auto& r : records) out["accuracy"].push_back(nlohmann::ordered_json::parse(verify::to_json(r).dump()));
    out["identities"] = nlohmann::ordered_json::array();
    for (const auto& r : ids) out["identities"].push_back({{"identity", r.name}, {"digits", r.digits}, {"pass", r.pass}});
    std::cout << out.dump(1) << "\n";
  } else {
    std::cout << "rbdlab verify " << m.name << ": nq = " << m.nq << ", nv = " << m.nv << ", depth = " << m.depth()
              << ", " << seeds << " seeded states\n";
    if (!lm.loops.empty()) {
      std::cout << lm.loops.size() << " loop joint(s), held by the closed_loop_dynamics family at states on them:";
      for (const auto& L : lm.loops)
        std::cout << " '" << L.name << "' (" << loop_joint_type_name(L.type) << ", "
                  << (L.p < 0 ? std::string("base") : m.body_name[L.p]) << " - " << m.body_name[L.s] << ")";
      std::cout << "\n";
    }
    std::cout
              << "exact digits: Reference vs the Lagrangian oracle (>= 40 to pass); error: double vs Reference in "
                 "eps = 2.2e-16 (max / mean over seeds), held to the budget against the typical output size\n\n";
    std::cout << std::left << std::setw(46) << "family/variant" << std::right << std::setw(8) << "digits"
              << std::setw(12) << "max eps" << std::setw(12) << "mean eps" << std::setw(16) << "budget"
              << "  result\n";
    std::cout << std::fixed;
    for (const auto& r : records)
      std::cout << std::left << std::setw(46) << (r.family + "/" + r.variant) << std::right << std::setprecision(1)
                << std::setw(8) << r.exact_digits << std::setw(12) << r.err_eps_max << std::setw(12)
                << r.err_eps_mean << std::setw(16) << r.budget_eps << "  " << (r.pass ? "pass" : "FAIL")
                << (r.fallback_to.empty() ? "" : "  (ran " + r.fallback_to + ": no DH form)")
                << (r.non_finite.empty() ? "" : "  non-finite: " + r.non_finite) << "\n";
    std::cout << "\nidentities (Reference, >= 40 digits):\n";
    for (const auto& r : ids)
      std::cout << "  " << std::left << std::setw(52) << r.name << std::right << std::setw(6) << std::setprecision(1)
                << r.digits << "  " << (r.pass ? "pass" : "FAIL") << "\n";
    std::cout << "\n" << (all ? "all gates pass" : "SOME GATES FAIL") << "\n";
  }
  return all ? 0 : 1;
}

}  // namespace rbd::cli
