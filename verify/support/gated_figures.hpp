#pragma once
// The figures a study hands to the regression gate (tools/gate.py), as the top-level array
// "gated_figures" of its JSON. The gate compares each with the committed baseline of the same
// id (reports/baselines/<study>.json); the kinds and their rules are documented in
// tools/gate.py. A figure's id is stable across runs (names and integers, never a computed
// floating-point value). NaN and inf are written as null (nlohmann's rule for non-finite
// doubles), which the gate rejects.
#include <string>

#include <nlohmann/json.hpp>

namespace rbd::verify {

struct GatedFigures {
  nlohmann::json list = nlohmann::json::array();

  // A non-negative error, drift or violation (smaller is better); unit e.g. "eps", "m", "J".
  void error(const std::string& id, double value, const std::string& unit) {
    list.push_back({{"id", id}, {"value", value}, {"kind", "error"}, {"unit", unit}});
  }
  // As error(), with an absolute floor below which a difference from the baseline is
  // round-off (for figures whose baseline is legitimately zero or at round-off level).
  void error(const std::string& id, double value, const std::string& unit, double floor, const std::string& why) {
    list.push_back({{"id", id}, {"value", value}, {"kind", "error"}, {"unit", unit}, {"floor", floor}, {"why", why}});
  }
  // Significant digits of agreement (larger is better), never below `required`.
  void digits(const std::string& id, double value, double required) {
    list.push_back({{"id", id}, {"value", value}, {"kind", "digits"}, {"required", required}});
  }
  // An a-priori budget the study holds its figures to: it may not grow without a new baseline.
  void add_budget(const std::string& id, double value) {
    list.push_back({{"id", id}, {"value", value}, {"kind", "budget"}});
  }
  // A value that must stay within an absolute tolerance of its baseline (a fitted slope).
  void near(const std::string& id, double value, double tolerance) {
    list.push_back({{"id", id}, {"value", value}, {"kind", "near"}, {"tolerance", tolerance}});
  }
};

}  // namespace rbd::verify
