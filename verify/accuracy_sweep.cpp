// Gate 3 (DESIGN.md section 2): the accuracy of every variant in double, measured against
// the same variant in the 50-digit Reference scalar, over kSeeds seeded states per verify
// case. The measurement, its error measure and its budgets are in
// verify/support/accuracy.hpp (shared with `rbdlab verify MODEL`). The Reference result is
// itself held to the oracle by gate 1; the sweep re-measures that agreement on seed 1 and
// records it as exact_digits. Writes reports/data/accuracy.json (or data/failed/ when a
// variant is over budget).
//
// Beside the verify cases (whose closed-loop states draw loops at random), the closed-loop
// mechanisms of cases/closed_mjcf.hpp as a user's files reach `rbdlab verify`: read through MuJoCo's
// compiler with their <equality> constraints as loop joints (cases/mjcf_loader.hpp), measured at
// states on those loops (cases/model_loop_states.hpp), closed-loop family only (case ids
// "mjcf:<name>"); and examples/sdf/'s four-bar and biped with linkage knees and ankles, whose
// cycle-closing joints are the loops (cases/sdf_loader.hpp, case ids "sdf:<name>"). That puts the path from a user's closed-loop
// model to the gates under the regression gate too. The loop-contact family also runs on those
// SDF mechanisms (their loops, the drawn contacts they leave independent) and on the biped
// standing on its soles ("sdf:biped_linkages_standing").
#include <iostream>

#include "cases/closed_mjcf.hpp"
#include "cases/model_loop_states.hpp"
#include "cases/registry.hpp"
#include "cases/sdf_loader.hpp"
#include "verify/support/accuracy.hpp"
#include "verify/support/json_out.hpp"

namespace {

// The SDF biped standing on its feet (issue 15): its knee four-bars and ankle actuators closed,
// its sole welds dropped, and each foot on three corners of its sole (a tripod: the contacts the
// loop-contact family keeps must be independent, and a fourth corner on a rigid sole is not),
// at random states on those loops with each sole's plane put through its corners.
rbd::cases::State biped_standing_state(const rbd::cases::SdfModel& sd, const rbd::Model<double>& md, int seed) {
  rbd::LoopJoints<double> linkages;
  for (const auto& L : sd.loops)
    if (L.type != rbd::LoopJointType::Weld) linkages.push_back(L);
  rbd::cases::State s = rbd::cases::closed_random_state(md, linkages, static_cast<std::uint64_t>(seed));
  s.contacts.clear();
  for (const char* foot : {"left_foot", "right_foot"})
    for (int b = 0; b < md.nb; ++b)
      if (md.body_name[b] == foot)
        for (const auto& [x, y] : {std::pair{-0.05, -0.04}, std::pair{-0.05, 0.04}, std::pair{0.15, 0.0}}) {
          rbd::cases::ContactSpec c;  // the sole (z = -0.05 in the foot's frame: test_loop_contact_dynamics.cpp)
          c.s = b;
          c.point = rbd::Vec3<double>(x, y, -0.05);
          s.contacts.push_back(c);
        }
  if (s.contacts.size() != 6) throw std::runtime_error("biped_linkages.sdf: the feet 'left_foot' and 'right_foot' were not found");
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace rbd::verify;
  constexpr int kSeeds = 20;
  const std::filesystem::path data_dir = argc > 1 ? argv[1] : "reports/data";
  nlohmann::json records = nlohmann::json::array();
  bool all_pass = true;
  try {
    auto sink = [&](const AccuracyRecord& r) {
      records.push_back(to_json(r));
      all_pass = all_pass && r.pass;
      std::cout << r.family << "/" << r.variant << " " << r.case_id << ": max " << r.err_eps_max << " eps, mean "
                << r.err_eps_mean << " eps, exact digits " << r.exact_digits << "; vs typical size "
                << r.err_eps_vs_typical_max << " eps (budget " << r.budget_eps << ", " << r.budget_rule << ")"
                << (r.fallback_to.empty() ? "" : "; ran " + r.fallback_to)
                << (r.non_finite.empty() ? "" : "; NON-FINITE: " + r.non_finite) << (r.pass ? "" : "  FAIL") << "\n";
    };
    for (const auto& spec : rbd::cases::verify_cases()) {
      const rbd::Model<double> md = spec.build();
      for (const FamilyEntry* family : all_families()) measure_accuracy(*family, spec.id, md, kSeeds, 1, sink);
    }
    for (const auto& c : rbd::cases::closed_mjcf_cases(RBDLAB_SOURCE_DIR)) {
      const StateSource draw = [&c](const rbd::Model<double>& md, int seed) {
        return rbd::cases::closed_random_state(md, c.mj.loops, static_cast<std::uint64_t>(seed));
      };
      measure_accuracy(closed_loop_dynamics_family(), c.id, c.mj.model, kSeeds, 1, sink, draw);
    }
    for (const std::string name : {"four_bar", "biped_linkages"}) {
      const rbd::cases::SdfModel sd = rbd::cases::load_sdf(std::string(RBDLAB_SOURCE_DIR) + "/examples/sdf/" + name + ".sdf");
      const StateSource draw = [&sd](const rbd::Model<double>& md, int seed) {
        return rbd::cases::closed_random_state(md, sd.loops, static_cast<std::uint64_t>(seed));
      };
      measure_accuracy(closed_loop_dynamics_family(), "sdf:" + name, sd.model, kSeeds, 1, sink, draw);
      measure_accuracy(loop_contact_dynamics_family(), "sdf:" + name, sd.model, kSeeds, 1, sink, draw);
    }
    {  // The biped standing: see biped_standing_state.
      const rbd::cases::SdfModel sd = rbd::cases::load_sdf(std::string(RBDLAB_SOURCE_DIR) + "/examples/sdf/biped_linkages.sdf");
      const StateSource draw = [&sd](const rbd::Model<double>& md, int seed) { return biped_standing_state(sd, md, seed); };
      measure_accuracy(loop_contact_dynamics_family(), "sdf:biped_linkages_standing", sd.model, kSeeds, 1, sink, draw);
    }
  } catch (const std::exception& e) {
    std::cerr << "accuracy sweep failed: " << e.what() << "\n";
    return 2;
  }
  const auto path = result_path(data_dir, "accuracy.json", all_pass);
  write_json_atomically(path, {{"what", "accuracy of each variant in double vs Reference"},
                               {"eps", std::numeric_limits<double>::epsilon()},
                               {"digits_required", 40},
                               {"budget_rules", {{"recursion", "16*(depth+1)"},
                                                 {"solve_with_H", "cond2(H)*(32*(depth+1)+4*nv), cond_H_max in the record"},
                                                 {"articulated_solves", "32*(depth+1)*max_i cond2(D_i), cond_D_max in the record"},
                                                 {"inverse_inertias", "32*(depth+1)*max_i lambda_max(I^A_i)/lambda_min(I_i), cond_I_max in the record"},
                                                 {"solve_with_geared_H", "cond2(G^T H G)*(32*(depth+1)+4*nv), cond_H_max in the record is cond2(G^T H G)"},
                                                 {"solve_with_loops", "cond2(Z^T H Z)*cond_r(K)*(32*(depth+1)+4*(nv+nc)), cond_H_max in the record is that product"},
                                                 {"solve_with_sparse_loops", "cond_r(A)*(32*(depth+1)+4*m), A = T^T P^T I^-1 P T of m rows (section 8.13), cond_H_max in the record is cond_r(A)"},
                                                 {"solve_with_contacts", "cond2(Z_A^T H Z_A)*cond2(T_A)*(32*(depth+1)+4*(nv+nc)), A the active contacts, cond_H_max in the record is that product"},
                                                 {"impact_with_contacts", "cond2(Z_A^T H Z_A)*cond2(T_A)*(32*(depth+1)+4*(nv+nc)), A the contacts given an impulse, cond_H_max in the record is that product"},
                                                 {"solve_with_loop_contacts", "cond2(Z^T H Z)*cond_r([K; T_A^T])*(32*(depth+1)+4*(nv+n^c+nc)), Z spanning both null spaces, A the active contacts, cond_H_max in the record is that product"},
                                                 {"friction_with_contacts", "cond2(Z_A^T H Z_A)*cond2(K_A)*rho_f*(32*(depth+1)+4*(nv+N)), K_A the held rows, rho_f the friction tilt (budgets.hpp), cond_H_max in the record is that product"}}},
                               {"budget_derivations", "verify/support/budgets.hpp"},
                               {"budget_measured_against", "RMS over seeds of ||x_ref|| (typical output size)"},
                               {"records", records}});
  std::cout << "wrote " << path.string() << "\n"
            << (all_pass ? "accuracy: all variants within budget" : "accuracy: FAILED") << "\n";
  return all_pass ? 0 : 1;
}
