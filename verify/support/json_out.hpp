#pragma once
// Writing results: atomically (temp file + rename), and never over good data after a
// failed run. A run whose checks fail writes to data/failed/ instead, so the last good
// reports/data/*.json stays for the report and the gate.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace rbd::verify {

inline void write_json_atomically(const std::filesystem::path& path, const nlohmann::json& j) {
  std::filesystem::create_directories(path.parent_path());
  const std::filesystem::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp);
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
    out << j.dump(1) << '\n';
    if (!out.flush()) throw std::runtime_error("write failed for " + tmp.string());
  }
  std::filesystem::rename(tmp, path);
}

// data_dir/name when the run passed, data_dir/failed/name when it did not.
inline std::filesystem::path result_path(const std::filesystem::path& data_dir, const std::string& name,
                                         bool passed) {
  return passed ? data_dir / name : data_dir / "failed" / name;
}

}  // namespace rbd::verify
