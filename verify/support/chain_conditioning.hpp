#pragma once
// cond2(H) against the number of bodies (Featherstone section 10.2, after Featherstone 2004):
// the largest condition number of the joint-space inertia matrix found over the configuration
// space, for chains of identical links (the book's approximate worst case 4 N_B^4) and for
// branched trees of the same links. For verify/roundoff_study.cpp.
//
// The worst case over q is searched, not known: candidates are q = 0, the alternating
// configurations (+a, -a, +a, ...) for a = 0..180 degrees in 1-degree steps (the zigzag of
// Figure 10.3 is a = 75), seeded uniformly random configurations, and a coordinate ascent from
// the best of them (each joint in turn moved by +-step while that increases cond2, steps
// halved from 0.5 rad to 1/64 rad). What is reported is therefore a lower bound on the true
// maximum, together with the configuration that attains it.
#include <cmath>
#include <vector>

#include <nlohmann/json.hpp>

#include "cases/states.hpp"
#include "mass_matrix/crba.hpp"
#include "verify/support/roundoff_vs_n.hpp"

namespace rbd::verify::conditioning {

struct Search {
  double cond_q0 = 0, cond_zigzag75 = 0, best = 0, best_alternating = 0, best_alternating_deg = 0;
  VecX<double> q_best;
  std::string found_by;
  int evaluations = 0;
};

class CondOf {
 public:
  explicit CondOf(const Model<double>& m) : m_(m), ws_(m), H_(MatX<double>::Zero(m.nv, m.nv)) {}
  double operator()(const VecX<double>& q) {
    ++count;
    Crba::run<double>(m_, q, H_, ws_);
    return roundoff::cond2_double(H_);
  }
  int count = 0;

 private:
  const Model<double>& m_;
  Workspace<double> ws_;
  MatX<double> H_;
};

// Revolute joints only (planar_chain, auto_tree): q has one angle per body.
inline Search worst_cond(const Model<double>& m, int random_samples, int ascent_rounds) {
  CondOf cond(m);
  Search s;
  const double pi = std::acos(-1.0);
  auto consider = [&](const VecX<double>& q, const char* how) {
    const double c = cond(q);
    if (c > s.best) { s.best = c; s.q_best = q; s.found_by = how; }
    return c;
  };
  s.cond_q0 = consider(VecX<double>::Zero(m.nq), "q = 0");
  for (int deg = 0; deg <= 180; ++deg) {
    VecX<double> q(m.nq);
    for (int i = 0; i < m.nq; ++i) q[i] = (i % 2 == 0 ? 1 : -1) * deg * pi / 180;
    const double c = consider(q, "alternating +-a");
    if (deg == 75) s.cond_zigzag75 = c;
    if (c > s.best_alternating) { s.best_alternating = c; s.best_alternating_deg = deg; }
  }
  for (int seed = 1; seed <= random_samples; ++seed) consider(cases::random_state(m, seed).q, "random");
  // Coordinate ascent from the best candidate.
  VecX<double> q = s.q_best;
  double c = s.best;
  for (double step = 0.5; step >= 1.0 / 64; step /= 2)
    for (int round = 0; round < ascent_rounds; ++round) {
      bool improved = false;
      for (int i = 0; i < m.nq; ++i)
        for (double d : {step, -step}) {
          VecX<double> t = q;
          t[i] += d;
          const double ct = cond(t);
          if (ct > c) { c = ct; q = t; improved = true; }
        }
      if (!improved) break;
    }
  if (c > s.best) { s.best = c; s.q_best = q; s.found_by += " + coordinate ascent"; }
  s.evaluations = cond.count;
  return s;
}

inline nlohmann::json to_json(const Search& s) {
  return {{"cond_q0", s.cond_q0}, {"cond_zigzag75", s.cond_zigzag75}, {"cond_worst_found", s.best},
          {"best_alternating_cond", s.best_alternating}, {"best_alternating_deg", s.best_alternating_deg},
          {"q_worst_found", roundoff::sig4(std::vector<double>(s.q_best.data(), s.q_best.data() + s.q_best.size()))},
          {"found_by", s.found_by}, {"evaluations", s.evaluations}};
}

}  // namespace rbd::verify::conditioning
