// SPDX-License-Identifier: Apache-2.0
#include "point_files.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "config.h"
#include "input.h"

namespace dsh::sc {

// An ID is a file name and a shell word: the sweep's name must be plain.
void check_point_name(const std::string& name) {
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'))
      throw ConfigError("scenario.name = " + quoted(name) +
                        ": a sweep's points are named after it; use letters, digits, '-', '_' and '.' only");
}

std::string make_point_id(const std::string& name, const KeyValues& coords) {
  check_point_name(name);
  std::string id = name;
  for (const auto& [k, v] : coords) id += "," + k + "=" + v;
  return id;
}

std::optional<std::pair<std::string, KeyValues>> split_point_id(const std::string& id) {
  std::vector<std::string> parts;
  std::stringstream in(id);
  std::string item;
  while (std::getline(in, item, ',')) parts.push_back(item);
  if (parts.empty() || parts[0].empty() || id.back() == ',') return std::nullopt;
  KeyValues kv;
  for (size_t i = 1; i < parts.size(); ++i) {
    const auto eq = parts[i].find('=');
    if (eq == std::string::npos || eq == 0) return std::nullopt;
    kv.emplace_back(parts[i].substr(0, eq), parts[i].substr(eq + 1));
  }
  return std::make_pair(parts[0], kv);
}

std::string format_number(double x) {
  char b[40];
  std::snprintf(b, sizeof b, "%.10g", x);
  return b;
}

bool implied_chip_default(const std::string& key, const std::string& value) {
  if (key.rfind("chip.", 0) != 0) return false;
  const ConfigField* f = find_config_field(key.substr(5));
  return f && f->implied_at_default && value == f->default_text();
}

std::string point_record_text(const std::string& id, const KeyValues& params, const nlohmann::ordered_json& metrics) {
  nlohmann::ordered_json j;
  j["dsh_sim_point"] = 1;  // format version
  j["id"] = id;
  j["params"] = nlohmann::ordered_json::object();
  for (const auto& [k, v] : params) j["params"][k] = v;
  j["metrics"] = metrics;
  return j.dump(1) + "\n";
}

PointRecord read_point_record(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read it");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("not JSON: ") + e.what());
  }
  if (!j.is_object() || !j.contains("dsh_sim_point") || j["dsh_sim_point"] != 1)
    throw std::runtime_error("not a dsh-sim point result (no \"dsh_sim_point\": 1)");
  PointRecord f;
  f.path = path;
  if (!j.contains("id") || !j["id"].is_string()) throw std::runtime_error("no \"id\"");
  f.id = j["id"].get<std::string>();
  if (!j.contains("params") || !j["params"].is_object()) throw std::runtime_error("no \"params\" object");
  for (const auto& [k, v] : j["params"].items()) {
    if (!v.is_string()) throw std::runtime_error("params." + k + " is not a string");
    f.params.emplace_back(k, v.get<std::string>());
  }
  if (!j.contains("metrics") || !j["metrics"].is_object()) throw std::runtime_error("no \"metrics\" object");
  f.metrics = std::move(j["metrics"]);
  return f;
}

std::string params_difference(const KeyValues& there, const KeyValues& want) {
  for (const auto& [k, v] : want) {
    auto it = std::find_if(there.begin(), there.end(), [&](const auto& x) { return x.first == k; });
    if (it == there.end()) return k + " missing there (here " + v + ")";
    if (it->second != v) return k + " = " + it->second + " there, " + v + " here";
  }
  for (const auto& [k, v] : there)
    if (std::none_of(want.begin(), want.end(), [&](const auto& x) { return x.first == k; }))
      return k + " = " + v + " there, not a key here";
  return "";
}

PointScan scan_points(const std::string& dir, bool merge,
                      const std::function<std::optional<KeyValues>(const PointRecord&)>& expected) {
  namespace fs = std::filesystem;
  PointScan scan;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    scan.no_dir = true;
    return scan;
  }
  std::map<std::string, std::string> seen;  // id -> path
  for (const auto& path : point_files_in(dir, merge)) {
    PointRecord f;
    std::optional<KeyValues> want;
    try {
      f = read_point_record(path);
      const std::string name = fs::path(path).filename().string();
      if (name != f.id + ".json") {
        if (merge) scan.problems.push_back(path + ": holds point " + f.id + " under another name (expected " + f.id + ".json)");
        else ++scan.ignored;
        continue;
      }
      want = expected(f);
    } catch (const std::exception& e) {
      if (merge) scan.problems.push_back(path + ": foreign file, not a point result: " + e.what());
      else ++scan.stale;
      continue;
    }
    if (!want) {
      if (merge) scan.problems.push_back(path + ": point " + f.id + " is not a point of this sweep (foreign)");
      else ++scan.ignored;
      continue;
    }
    const std::string diff = params_difference(f.params, *want);
    if (!diff.empty()) {
      if (merge) scan.problems.push_back(path + ": point " + f.id + " was run with other parameters (foreign): " + diff);
      else ++scan.stale;
      continue;
    }
    if (seen.count(f.id)) {
      scan.problems.push_back("point " + f.id + " twice: " + seen[f.id] + " and " + path + " (duplicate)");
      continue;
    }
    seen[f.id] = path;
    scan.valid[f.id] = std::move(f);
  }
  return scan;
}

void note_missing_points(PointScan& scan, const std::vector<std::string>& ids, const std::string& dir) {
  std::vector<std::string> missing;
  for (const auto& id : ids)
    if (!scan.valid.count(id)) missing.push_back(id);
  if (missing.empty()) return;
  std::string m = std::to_string(missing.size()) + " of " + std::to_string(ids.size()) +
                  " points have no result file in " + dir + " (missing):";
  for (size_t i = 0; i < missing.size() && i < 10; ++i) m += "\n  " + missing[i];
  if (missing.size() > 10) m += "\n  ...";
  scan.problems.insert(scan.problems.begin(), m);
}

bool refuse_merge(const PointScan& scan, const std::string& dir) {
  if (scan.no_dir) {
    std::fprintf(stderr, "dsh-sim: error: --merge = %s: not a directory of point files\n", dir.c_str());
    return true;
  }
  if (scan.problems.empty()) return false;
  std::fprintf(stderr, "dsh-sim: error: --merge %s refused, nothing written:\n", dir.c_str());
  for (const auto& m : scan.problems) std::fprintf(stderr, "  %s\n", m.c_str());
  return true;
}

std::vector<std::string> point_files_in(const std::string& dir, bool recursive) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  auto take = [&](const fs::directory_entry& e) {
    const std::string name = e.path().filename().string();
    if (e.is_regular_file() && name.size() > 5 && name[0] != '.' && name.compare(name.size() - 5, 5, ".json") == 0)
      out.push_back(e.path().string());
  };
  if (recursive) {
    for (const auto& e : fs::recursive_directory_iterator(dir)) take(e);
  } else {
    for (const auto& e : fs::directory_iterator(dir)) take(e);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace dsh::sc
