#pragma once
// Strict number parsing for the command line (also a fuzz target: verify/fuzz/).
//
// A number is what std::from_chars reads in full (locale-independent, no silent partial
// reads: "1.5x" is an error, not 1.5), optionally preceded by '+', and finite: "nan", "inf"
// and values that overflow double are rejected, because a NaN in a state would flow through
// every algorithm and come out as a silently meaningless result. Lists are comma-separated
// with optional spaces; an empty element ("1,,2") is an error. Every error names the option
// and, for a list, the element's position (1-based).
#include <charconv>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace rbd::cli {

// Input the user must fix: exit status 2 (cli/main.cpp).
struct BadInput : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

inline std::string shown(std::string_view s) {
  constexpr std::size_t kMax = 40;  // keep messages readable for pathological input
  std::string out;
  for (char c : s.substr(0, kMax)) out += (c >= 32 && c < 127) ? c : '?';
  return "'" + out + (s.size() > kMax ? "...'" : "'");
}

inline double parse_double(std::string_view text, const std::string& what) {
  std::string_view s = trim(text);
  if (s.empty()) throw BadInput(what + ": expected a number, got nothing");
  std::string_view digits = s;
  if (digits.front() == '+') digits.remove_prefix(1);  // from_chars takes '-' but not '+'
  if (!digits.empty() && (digits.front() == '+' || digits.front() == '-') && s.front() == '+')
    throw BadInput(what + ": " + shown(s) + " is not a number");
  double value = 0;
  const char* end = digits.data() + digits.size();
  const auto [ptr, ec] = std::from_chars(digits.data(), end, value);
  if (ec == std::errc::result_out_of_range)
    throw BadInput(what + ": " + shown(s) + " is out of the range of double");
  if (ec != std::errc() || ptr != end) throw BadInput(what + ": " + shown(s) + " is not a number");
  if (!std::isfinite(value)) throw BadInput(what + ": " + shown(s) + " is not finite (NaN and inf are not accepted)");
  return value;
}

inline std::vector<double> parse_list(std::string_view text, const std::string& what) {
  std::vector<double> out;
  if (trim(text).empty()) throw BadInput(what + ": expected a comma-separated list of numbers, got nothing");
  std::size_t start = 0;
  for (int k = 1;; ++k) {
    const std::size_t comma = text.find(',', start);
    const std::string_view item = text.substr(start, comma == std::string_view::npos ? text.npos : comma - start);
    out.push_back(parse_double(item, what + " element " + std::to_string(k)));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

// A non-negative integer (seeds, counts) in [lo, hi].
inline std::uint64_t parse_count(std::string_view text, const std::string& what, std::uint64_t lo, std::uint64_t hi) {
  const std::string_view s = trim(text);
  std::uint64_t value = 0;
  const char* end = s.data() + s.size();
  const auto [ptr, ec] = std::from_chars(s.data(), end, value);
  if (s.empty() || ec != std::errc() || ptr != end)
    throw BadInput(what + ": " + shown(s) + " is not a non-negative integer");
  if (value < lo || value > hi)
    throw BadInput(what + ": " + std::to_string(value) + " is outside [" + std::to_string(lo) + ", " +
                   std::to_string(hi) + "]");
  return value;
}

}  // namespace rbd::cli
