// Symbolic simplification (Featherstone section 10.4; algorithms/symbolic/, issue 17): operation
// counts of every traceable variant of inverse dynamics, mass matrix, forward dynamics and factor + solve on the
// generated cases, before and after simplification, with each rule's share of the saving, and
// Table 10.3's worked example with the section's figures checked (29 operations to 5, "almost a
// factor of 6", "90% of the possible cost savings"). Writes reports/data/symbolic.json; the
// counts are deterministic, so tools/gate.py compares them with the baseline exactly.
//
// The values of these lists are checked in verify/test_symbolic.cpp (Reference to 40 digits, and
// bit for bit in double against the generic variants); this program only counts.
#include <cstdio>
#include <iostream>
#include <string>

#include "cases/registry.hpp"
#include "cases/states.hpp"
#include "symbolic/generate.hpp"
#include "verify/support/json_out.hpp"
#include "verify/support/table_10_3.hpp"

namespace {

using namespace rbd;
using namespace rbd::symbolic;
using json = nlohmann::json;

json counts_json(const ListCounts& c) {
  return {{"m", c.m()}, {"a", c.a()}, {"mul", c.mul}, {"div", c.div}, {"add", c.add}, {"sqrt", c.sqrt},
          {"sin", c.sin}, {"cos", c.cos}};
}

json table_10_3_json(json& reproductions) {
  // I = diag(1.5, 1.6, 1.7), Table 10.3's model data; any sample v (the list does not depend on it).
  const Tape<double> raw = verify::table_10_3<double>(1.5, 1.6, 1.7, Vec3<double>(0.5, 1.5, 2.5));
  const Tape<double> book = simplify(raw, Rules{true, true, false});
  const long before = raw.counts().total(), after = book.counts().total();
  // The optimum the book names, tau_out = 0.1 v1 v2, costs 2 multiplications (verify/test_symbolic.cpp
  // checks that the simplified list computes exactly this, in Reference).
  const long optimum = 2;
  const double factor = double(before) / double(after);
  const double share = double(before - after) / double(before - optimum);
  char buf[96];
  const std::string src = "Featherstone section 10.4, Table 10.3";
  reproductions.push_back({{"quantity", "Table 10.3: operations in the executer's assignment-statement file"},
                           {"source", src}, {"published", 29}, {"rbdlab", before}, {"criterion", "equal"},
                           {"agree", before == 29}});
  reproductions.push_back({{"quantity", "Table 10.3: operations after the book's simplification rules"},
                           {"source", src}, {"published", 5}, {"rbdlab", after}, {"criterion", "equal"},
                           {"agree", after == 5}});
  std::snprintf(buf, sizeof buf, "%.2f", factor);
  reproductions.push_back({{"quantity", "Table 10.3: cost cut by the simplifier (operations before / after)"},
                           {"source", src + " ('almost a factor of 6')"}, {"published", "almost 6"}, {"rbdlab", buf},
                           {"criterion", "5.5 <= factor < 6"}, {"agree", factor >= 5.5 && factor < 6}});
  std::snprintf(buf, sizeof buf, "%.1f%% ((29 - 5) / (29 - 2), the optimum 0.1 v1 v2 costing 2)", 100 * share);
  reproductions.push_back({{"quantity", "Table 10.3: share of the possible saving found by the simple rules"},
                           {"source", src + " ('90% of the possible cost savings')"}, {"published", "90%"},
                           {"rbdlab", buf}, {"criterion", "rounds to 90% at the printed precision (85% to 95%)"},
                           {"agree", share >= 0.85 && share < 0.95}});
  std::cout << "Table 10.3: " << before << " -> " << after << " operations (factor " << factor << ", "
            << 100 * share << "% of the possible saving)\n";
  return {{"raw", counts_json(raw.counts())}, {"book_rules", counts_json(book.counts())},
          {"optimum_operations", optimum}, {"factor", factor}, {"share_of_possible_saving", share}};
}

}  // namespace

int main(int argc, char** argv) {
  const std::filesystem::path data_dir = argc > 1 ? argv[1] : "reports/data";
  json reproductions = json::array(), records = json::array(), best = json::array();
  bool pass = true;
  json table;
  try {
    table = table_10_3_json(reproductions);
    for (const std::string id : {"urdf:ur5", "urdf:iiwa14", "urdf:panda", "urdf:solo12", "gu:7", "humanoid"}) {
      const Model<double> model = cases::build_case(id);
      const cases::State s = cases::random_state(model, 1);
      for (Algorithm a : {Algorithm::InverseDynamics, Algorithm::MassMatrix, Algorithm::ForwardDynamics,
                          Algorithm::FactorSolve}) {
        const SampleState<double> x{s.q, s.qd, a == Algorithm::InverseDynamics || a == Algorithm::MassMatrix ? s.qdd : s.tau};
        const auto all = trace_family(a, model, model, x);
        const TracedVariant<double>* fewest_raw = nullptr;
        for (const auto& r : all) {
          json rec = {{"family", std::string(algorithm_name(a))}, {"variant", r.variant}, {"case", id},
                      {"n", model.nv}, {"traced", r.traced}};
          if (!r.traced) {
            rec["why_not"] = r.why_not;
          } else {
            const SimplifyStats& st = r.stats;
            rec["raw"] = counts_json(st.before);
            rec["simplified"] = counts_json(st.after);
            rec["removed_by"] = {{"constant_folding", st.folded}, {"identities", st.identities},
                                 {"common_subexpressions", st.common}, {"dead_assignments", st.dead}};
            if (!fewest_raw || st.before.all() < fewest_raw->stats.before.all()) fewest_raw = &r;
          }
          records.push_back(rec);
        }
        const TracedVariant<double>& gen = shortest(all);
        const double ratio = double(gen.stats.after.total()) / double(fewest_raw->stats.before.total());
        best.push_back({{"family", std::string(algorithm_name(a))}, {"case", id}, {"n", model.nv},
                        {"generic_variant", fewest_raw->variant}, {"generic", counts_json(fewest_raw->stats.before)},
                        {"generated_from", gen.variant}, {"generated", counts_json(gen.stats.after)},
                        {"ratio_m_plus_a", ratio}});
        std::printf("%-12s %-17s generic %-16s %6ld -> generated from %-16s %6ld (%.3f)\n", id.c_str(),
                    algorithm_name(a), fewest_raw->variant.c_str(), fewest_raw->stats.before.total(),
                    gen.variant.c_str(), gen.stats.after.total(), ratio);
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "symbolic study failed: " << e.what() << "\n";
    return 2;
  }
  for (const auto& r : reproductions) pass = pass && r["agree"].get<bool>();
  const auto path = verify::result_path(data_dir, "symbolic.json", pass);
  verify::write_json_atomically(
      path, {{"what", "symbolic simplification (Featherstone section 10.4): operation counts of each variant's "
                      "assignment list on one model, before and after simplification"},
             {"convention", "m = multiplications + divisions; a = additions + subtractions; sin, cos and sqrt apart; "
                            "negation free"},
             {"rules", "constant folding, algebraic identities (with signs moved out of products and sums), common "
                       "subexpressions, dead assignments (algorithms/symbolic/simplify.hpp)"},
             {"table_10_3", table}, {"records", records}, {"best", best}, {"reproductions", reproductions},
             {"discrepancies", json::array()}});
  std::cout << "wrote " << path.string() << "\n";
  return pass ? 0 : 1;
}
