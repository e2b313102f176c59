#pragma once
// Command-line options of one subcommand: `--name value`, `--name=value` and `--flag`,
// checked against the subcommand's list so a typo is an error naming the valid options,
// never silently ignored.
#include <cctype>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cli/numbers.hpp"

namespace rbd::cli {

struct OptionSpec {
  std::set<std::string> with_value;  // e.g. "--q", "--seed"
  std::set<std::string> flags;       // e.g. "--json", "--floating"
};

struct Args {
  std::vector<std::string> positional;
  std::map<std::string, std::string> value;
  std::set<std::string> flag;
  bool has(const std::string& name) const { return value.count(name) || flag.count(name); }
  const std::string* get(const std::string& name) const {
    const auto it = value.find(name);
    return it == value.end() ? nullptr : &it->second;
  }
};

inline std::string list_options(const OptionSpec& spec) {
  std::string s;
  for (const auto& o : spec.with_value) s += (s.empty() ? "" : ", ") + o + " X";
  for (const auto& o : spec.flags) s += (s.empty() ? "" : ", ") + o;
  return s;
}

// argv[first..argc) of subcommand `command`. "--help"/"-h" is always a flag.
inline Args parse_args(int argc, const char* const* argv, int first, const std::string& command,
                       const OptionSpec& spec) {
  Args a;
  for (int i = first; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") { a.flag.insert("--help"); continue; }
    if (arg.size() < 2 || arg[0] != '-' || arg == "-" ) { a.positional.push_back(arg); continue; }
    // A negative number is an operand, not an option (e.g. after --q it is consumed below).
    if (arg.size() >= 2 && arg[0] == '-' && (std::isdigit(static_cast<unsigned char>(arg[1])) || arg[1] == '.')) {
      a.positional.push_back(arg);
      continue;
    }
    const auto eq = arg.find('=');
    const std::string name = arg.substr(0, eq);
    if (spec.flags.count(name)) {
      if (eq != std::string::npos) throw BadInput(command + ": option " + name + " takes no value");
      a.flag.insert(name);
      continue;
    }
    if (!spec.with_value.count(name))
      throw BadInput(command + ": unknown option " + shown(name) + "; valid options: " + list_options(spec) +
                     ", --help");
    std::string v;
    if (eq != std::string::npos) v = arg.substr(eq + 1);
    else if (i + 1 < argc) v = argv[++i];
    else throw BadInput(command + ": option " + name + " needs a value");
    if (!a.value.emplace(name, v).second) throw BadInput(command + ": option " + name + " given twice");
  }
  return a;
}

}  // namespace rbd::cli
