#include "points.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace dsh::sc {

namespace {

const char* lower_name(Scheme s) { return s == Scheme::DSH ? "dsh" : "sih"; }

// Metrics <-> JSON, field by field (the names are the CSV's where it has them).
#define DSH_METRICS_FIELDS(X)                                                                                   \
  X(scheme) X(refine) X(burst_pct) X(burst_bytes) X(burst_cells) X(fanin_pause_us) X(fanin_pause_frames)        \
  X(pause_frames) X(resume_frames) X(drops) X(peak_shared_cells) X(peak_queue_hdrm_cells) X(peak_port_hdrm_cells) \
  X(fanin_bytes_admitted) X(fanin_bytes_total) X(fanin_bytes_generated) X(fanin_bytes_done) X(fanin_start_us)   \
  X(sim_us) X(wall_s) X(mmu_cycles) X(mmu_busy_cycles) X(max_enq_wait_ns) X(max_deq_wait_ns) X(mismatch)

nlohmann::ordered_json metrics_json(const Metrics& m) {
  nlohmann::ordered_json j;
#define X(f) j[#f] = m.f;
  DSH_METRICS_FIELDS(X)
#undef X
  return j;
}

Metrics metrics_from(const nlohmann::json& j) {
  Metrics m;
#define X(f)                                                                        \
  if (!j.contains(#f) || !j.at(#f).is_number())                                     \
    throw std::runtime_error("metrics." #f " is missing or not a number");          \
  m.f = j.at(#f).get<decltype(m.f)>();
  DSH_METRICS_FIELDS(X)
#undef X
  return m;
}

}  // namespace

std::string format_number(double x) {
  char b[40];
  std::snprintf(b, sizeof b, "%.10g", x);
  return b;
}

std::vector<SweepChip> sweep_chips(const Params& p, const KeyValues& infeasible) {
  std::vector<SweepChip> chips;
  if (p.generations.empty()) {
    SweepChip c;
    c.params = std::make_shared<const Params>(p);
    c.infeasible = infeasible;
    chips.push_back(c);
    return chips;
  }
  for (size_t row : p.selected_generations()) {
    Params q = p.for_generation(row);
    SweepChip c;
    c.generation = int(row);
    c.label = p.generations[row].label();
    c.infeasible = q.infeasible();
    for (const auto& [sch, why] : c.infeasible) q.schemes.erase(std::find(q.schemes.begin(), q.schemes.end(), sch));
    c.params = std::make_shared<const Params>(q);
    chips.push_back(c);
  }
  return chips;
}

std::vector<double> sorted_grid(const Params& p) {
  std::vector<double> grid = p.burst_pct;
  std::sort(grid.begin(), grid.end());
  grid.erase(std::unique(grid.begin(), grid.end()), grid.end());
  return grid;
}

std::string point_id(const Params& p, const SweepChip& chip, Scheme s, double burst_pct, bool refine) {
  std::string id = p.name;
  if (!chip.label.empty()) id += ",rate_gbps=" + chip.label;
  id += std::string(",scheme=") + lower_name(s) + ",burst_pct=" + format_number(burst_pct);
  if (refine) id += ",refine=1";
  return id;
}

std::vector<SweepPoint> grid_points(const Params& p, const std::vector<SweepChip>& chips) {
  // An ID is a file name and a shell word: the scenario name must be plain.
  for (char c : p.name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'))
      throw ConfigError("scenario.name = " + quoted(p.name) +
                        ": a sweep's points are named after it; use letters, digits, '-', '_' and '.' only");
  std::vector<SweepPoint> out;
  const std::vector<double> grid = sorted_grid(p);
  for (size_t c = 0; c < chips.size(); ++c)
    for (const auto& sch : chips[c].params->schemes)
      for (double g : grid) {
        SweepPoint pt;
        pt.chip = c;
        pt.spec.scheme = scheme_from_string(sch);
        pt.spec.burst_pct = g;
        pt.spec.params = chips[c].params;
        pt.id = point_id(p, chips[c], pt.spec.scheme, g, false);
        pt.spec.id = pt.id;
        out.push_back(pt);
      }
  return out;
}

std::optional<PointKey> parse_point_id(const std::string& id) {
  std::vector<std::string> parts;
  std::stringstream in(id);
  std::string item;
  while (std::getline(in, item, ',')) parts.push_back(item);
  if (parts.size() < 3 || parts[0].empty()) return std::nullopt;
  PointKey k;
  k.scenario = parts[0];
  for (size_t i = 1; i < parts.size(); ++i) {
    const auto eq = parts[i].find('=');
    if (eq == std::string::npos) return std::nullopt;
    const std::string key = parts[i].substr(0, eq), v = parts[i].substr(eq + 1);
    if (key == "rate_gbps" && i == 1) k.generation = v;
    else if (key == "scheme" && k.scheme.empty()) k.scheme = v;
    else if (key == "burst_pct" && k.burst.empty() && !k.scheme.empty()) k.burst = v;
    else if (key == "refine" && v == "1" && i + 1 == parts.size() && !k.burst.empty()) k.refine = true;
    else return std::nullopt;
  }
  if (k.scheme.empty() || k.burst.empty()) return std::nullopt;
  return k;
}

KeyValues point_params(const Params& chip) {
  KeyValues kv;
  std::istringstream in(chip.dump());
  std::string line;
  while (std::getline(in, line)) {
    const auto eq = line.find(" = ");
    if (eq == std::string::npos) continue;
    const std::string key = line.substr(0, eq);
    if (key == "run.jobs" || key.rfind("sweep.", 0) == 0 || key.rfind("generation[", 0) == 0) continue;
    kv.emplace_back(key, line.substr(eq + 3));
  }
  return kv;
}

std::string point_file_text(const std::string& id, const Params& chip, const Metrics& m) {
  nlohmann::ordered_json j;
  j["dsh_sim_point"] = 1;  // format version
  j["id"] = id;
  j["params"] = nlohmann::ordered_json::object();
  for (const auto& [k, v] : point_params(chip)) j["params"][k] = v;
  j["metrics"] = metrics_json(m);
  return j.dump(1) + "\n";
}

PointFile read_point_file(const std::string& path) {
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
  PointFile f;
  f.path = path;
  if (!j.contains("id") || !j["id"].is_string()) throw std::runtime_error("no \"id\"");
  f.id = j["id"].get<std::string>();
  if (!j.contains("params") || !j["params"].is_object()) throw std::runtime_error("no \"params\" object");
  for (const auto& [k, v] : j["params"].items()) {
    if (!v.is_string()) throw std::runtime_error("params." + k + " is not a string");
    f.params.emplace_back(k, v.get<std::string>());
  }
  if (!j.contains("metrics") || !j["metrics"].is_object()) throw std::runtime_error("no \"metrics\" object");
  f.m = metrics_from(j["metrics"]);
  return f;
}

std::string params_difference(const PointFile& f, const Params& chip) {
  const KeyValues want = point_params(chip);
  for (const auto& [k, v] : want) {
    auto it = std::find_if(f.params.begin(), f.params.end(), [&](const auto& x) { return x.first == k; });
    if (it == f.params.end()) return k + " missing there (here " + v + ")";
    if (it->second != v) return k + " = " + it->second + " there, " + v + " here";
  }
  for (const auto& [k, v] : f.params)
    if (std::none_of(want.begin(), want.end(), [&](const auto& x) { return x.first == k; }))
      return k + " = " + v + " there, not a key here";
  return "";
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
