// `rbdlab eval MODEL`: every selected family x variant on one state, as JSON (--json) or a
// readable listing. The families and their evaluation are the gates' own, compiled once
// (verify/support/family_table.hpp), so `eval` prints exactly what the gates judge.
#include <iomanip>
#include <iostream>
#include <limits>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cases/model_source.hpp"
#include "cli/commands.hpp"
#include "cli/mass_matrix_check.hpp"
#include "cli/model_input.hpp"
#include "cli/model_loops_state.hpp"
#include "cli/state_input.hpp"
#include "reference/reference_scalar.hpp"
#include "verify/support/family_table.hpp"

namespace rbd::cli {
namespace {

// Every digit a Reference number carries, as a JSON string (a JSON number would be read
// back as a double by most parsers).
std::string full_digits(const Reference& x) {
  return x.str(std::numeric_limits<Reference>::max_digits10, std::ios_base::scientific);
}

nlohmann::ordered_json value_json(const MatX<double>& v) {
  if (v.cols() == 1) return std::vector<double>(v.data(), v.data() + v.size());
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (Eigen::Index r = 0; r < v.rows(); ++r) {
    std::vector<double> row(static_cast<std::size_t>(v.cols()));
    for (Eigen::Index c = 0; c < v.cols(); ++c) row[static_cast<std::size_t>(c)] = v(r, c);
    rows.push_back(row);
  }
  return rows;
}

nlohmann::ordered_json value_json(const MatX<Reference>& v) {
  auto row_of = [&](Eigen::Index r) {
    nlohmann::ordered_json row = nlohmann::ordered_json::array();
    for (Eigen::Index c = 0; c < v.cols(); ++c) row.push_back(full_digits(v(r, c)));
    return row;
  };
  if (v.cols() == 1) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (Eigen::Index r = 0; r < v.rows(); ++r) out.push_back(full_digits(v(r, 0)));
    return out;
  }
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (Eigen::Index r = 0; r < v.rows(); ++r) rows.push_back(row_of(r));
  return rows;
}

bool all_finite(const MatX<double>& v) { return v.allFinite(); }
bool all_finite(const MatX<Reference>& v) {
  for (Eigen::Index k = 0; k < v.size(); ++k)
    if (!boost::multiprecision::isfinite(v.data()[k])) return false;
  return true;
}

struct Selection {
  std::set<std::string> families;  // empty = all
  std::string variant = "all";
};

Selection parse_selection(const Args& a) {
  std::set<std::string> known_families, known_variants;
  for (const verify::FamilyEntry* f : verify::all_families()) {
    known_families.insert(std::string(f->name));
    for (const verify::VariantEntry& v : f->variants) known_variants.insert(std::string(v.name));
  }
  auto list = [](const std::set<std::string>& s) {
    std::string out;
    for (const auto& x : s) out += (out.empty() ? "" : ", ") + x;
    return out;
  };
  Selection sel;
  if (const std::string* f = a.get("--family")) {
    std::stringstream ss(*f);
    std::string name;
    while (std::getline(ss, name, ',')) {
      if (!known_families.count(name))
        throw BadInput("--family: unknown family " + shown(name) + "; known: " + list(known_families));
      sel.families.insert(name);
    }
  }
  if (const std::string* v = a.get("--variant")) {
    if (*v != "all" && !known_variants.count(*v))
      throw BadInput("--variant: unknown variant " + shown(*v) + "; known: all, " + list(known_variants));
    sel.variant = *v;
  }
  return sel;
}

// The variant's applicability test and evaluation in scalar S, from the compiled table.
bool applicable(const verify::VariantEntry& v, const Model<double>& m) { return v.applicable_in_double(m); }
bool applicable(const verify::VariantEntry& v, const Model<Reference>& m) { return v.applicable_in_reference(m); }
MatX<double> evaluate(const verify::VariantEntry& v, const Model<double>& m, const verify::StateOf<double>& x,
                      Workspace<double>& ws) {
  return v.in_double(m, x, ws);
}
MatX<Reference> evaluate(const verify::VariantEntry& v, const Model<Reference>& m,
                         const verify::StateOf<Reference>& x, Workspace<Reference>& ws) {
  return v.in_reference(m, x, ws);
}

template <class S>
void evaluate_all(const Model<double>& md, const cases::State& x, const Selection& sel, const std::string& scalar,
                  nlohmann::ordered_json& results, nlohmann::ordered_json& skipped) {
  const Model<S> m = md.template cast<S>();
  const verify::StateOf<S> xs = verify::cast_state<S>(m, x);
  Workspace<S> ws(m);
  for (const verify::FamilyEntry* f : verify::all_families()) {
    const std::string family(f->name);
    if (!sel.families.empty() && !sel.families.count(family)) continue;
    for (const verify::VariantEntry& v : f->variants) {
      const std::string variant(v.name);
      if (sel.variant != "all" && sel.variant != variant) continue;
      if (!applicable(v, m)) {
        skipped.push_back({{"family", family}, {"variant", variant},
                           {"reason", "not applicable to this model (see algorithms/" + family + "/README.md)"}});
        continue;
      }
      const MatX<S> value = evaluate(v, m, xs, ws);
      if (!all_finite(value))
        throw BadInput(family + "/" + variant + " produced non-finite numbers at this state: the model or the "
                       "state is beyond double's range (or the mass matrix is singular)");
      results.push_back({{"family", family}, {"variant", variant}, {"scalar", scalar}, {"value", value_json(value)}});
      if (family == "hybrid_dynamics") {  // which entry is which: Eq. 9.2's unknowns
        std::vector<std::string> names;
        for (int i = 0; i < md.nb; ++i)
          for (int k = 0; k < joint_nv(md.joint[i].type); ++k)
            names.push_back((x.forward[static_cast<std::size_t>(i)] ? "qdd[" : "tau[") + std::to_string(md.v_idx[i] + k) + "]");
        results.back()["unknowns"] = names;
      }
      if (family == "geared_dynamics") {  // ydd: the undriven joint variables, in qd order
        const GearMap<double> g = GearMap<double>::build(md, x.gears);
        std::vector<std::string> names;
        for (int c = 0; c < g.ny; ++c) names.push_back("qdd[" + std::to_string(g.v_of_y[c]) + "]");
        results.back()["unknowns"] = names;
      }
    }
  }
}

void print_readable(const nlohmann::ordered_json& out) {
  std::cout << "model " << out["model"].get<std::string>() << ": nq = " << out["nq"] << ", nv = " << out["nv"] << "\n";
  for (const auto& r : out["results"]) {
    std::cout << r["family"].get<std::string>() << "/" << r["variant"].get<std::string>() << " ("
              << r["scalar"].get<std::string>() << "):\n";
    if (r.contains("unknowns")) {
      std::string names;
      for (const auto& n : r["unknowns"]) names += (names.empty() ? "" : ", ") + n.get<std::string>();
      std::cout << "  unknowns: " << names << "\n";
    }
    const auto& v = r["value"];
    if (!v.empty() && v[0].is_array())
      for (const auto& row : v) std::cout << "  " << row.dump() << "\n";
    else
      std::cout << "  " << v.dump() << "\n";
  }
  for (const auto& s : out["skipped"])
    std::cout << "skipped " << s["family"].get<std::string>() << "/" << s["variant"].get<std::string>() << ": "
              << s["reason"].get<std::string>() << "\n";
}

}  // namespace

int run_eval(const Args& a) {
  if (a.positional.size() != 1) throw BadInput("eval: expected exactly one MODEL (a URDF file or a case id); see rbdlab eval --help");
  const Selection sel = parse_selection(a);
  std::string scalar = "double";
  if (const std::string* s = a.get("--scalar")) {
    if (*s != "double" && *s != "reference") throw BadInput("--scalar: expected double or reference, got " + shown(*s));
    scalar = *s;
  }
  const cases::LoadedModel lm = load_model(a);
  const Model<double>& m = lm.model;
  EvalState st = make_eval_state(m, lm.joint_names, a);
  use_model_loops(m, lm.loops, a, st);  // an MJCF file's <equality> loops: q must close them
  const bool solves = sel.families.empty() || sel.families.count("forward_dynamics") || sel.families.count("factorization") ||
                      sel.families.count("hybrid_dynamics") || sel.families.count("geared_dynamics");
  if (solves) check_mass_matrix(m, st.x.q, lm.joint_names);

  nlohmann::ordered_json out;
  out["model"] = m.name;
  out["source"] = lm.kind;
  out["nq"] = m.nq;
  out["nv"] = m.nv;
  out["joint_names"] = lm.joint_names;
  nlohmann::ordered_json joints = nlohmann::ordered_json::array();
  for (int i = 0; i < m.nb; ++i)
    joints.push_back({{"name", lm.joint_names[i]}, {"type", std::string(joint_type_name(m.joint[i].type))},
                      {"q_index", m.q_idx[i]}, {"nq", joint_nq(m.joint[i].type)},
                      {"v_index", m.v_idx[i]}, {"nv", joint_nv(m.joint[i].type)}});
  out["joints"] = joints;
  out["gravity"] = std::vector<double>{m.gravity[0], m.gravity[1], m.gravity[2]};
  auto vec = [](const VecX<double>& v) { return std::vector<double>(v.data(), v.data() + v.size()); };
  out["state"] = {{"q", vec(st.x.q)}, {"qd", vec(st.x.qd)}, {"qdd", vec(st.x.qdd)}, {"tau", vec(st.x.tau)},
                  {"forward", std::vector<int>(st.x.forward.begin(), st.x.forward.end())}, {"f_ext", "none"}};
  nlohmann::ordered_json gears = nlohmann::ordered_json::array();
  for (const GearPair& p : st.x.gears) gears.push_back({{"driven", p.driven}, {"driver", p.driver}, {"ratio", p.ratio}});
  out["state"]["gears"] = gears;
  nlohmann::ordered_json loop_joints = nlohmann::ordered_json::array();
  for (const auto& L : lm.loops)
    loop_joints.push_back({{"name", L.name}, {"type", std::string(loop_joint_type_name(L.type))},
                           {"predecessor", L.p < 0 ? "base" : m.body_name[L.p]}, {"successor", m.body_name[L.s]}});
  out["loop_joints"] = loop_joints;
  nlohmann::ordered_json warnings = lm.warnings;
  for (const auto& w : st.warnings) warnings.push_back(w);
  out["warnings"] = warnings;
  for (const auto& w : warnings) std::cerr << "rbdlab eval: warning: " << w.get<std::string>() << "\n";
  out["results"] = nlohmann::ordered_json::array();
  out["skipped"] = nlohmann::ordered_json::array();
  if (scalar == "double") {
    evaluate_all<double>(m, st.x, sel, scalar, out["results"], out["skipped"]);
  } else {
    Progress("eval").step("evaluating in the 50-digit Reference scalar");
    evaluate_all<Reference>(m, st.x, sel, scalar, out["results"], out["skipped"]);
  }
  if (out["results"].empty()) throw BadInput("eval: no variant of the selected families applies to this model");
  if (a.flag.count("--json"))
    std::cout << out.dump(1) << "\n";
  else
    print_readable(out);
  return 0;
}

}  // namespace rbd::cli
