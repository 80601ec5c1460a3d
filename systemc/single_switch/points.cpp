// SPDX-License-Identifier: Apache-2.0
#include "points.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace dsh::sc {

nlohmann::ordered_json metrics_json(const Metrics& m) { return m; }

Metrics metrics_from_json(const nlohmann::json& j) {
  try {
    return j.get<Metrics>();
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(std::string("metrics: ") + e.what());
  }
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
  KeyValues coords;
  if (!chip.label.empty()) coords.emplace_back("rate_gbps", chip.label);
  coords.emplace_back("scheme", lower_name(s));
  coords.emplace_back("burst_pct", format_number(burst_pct));
  if (refine) coords.emplace_back("refine", "1");
  return make_point_id(p.name, coords);
}

std::vector<SweepPoint> grid_points(const Params& p, const std::vector<SweepChip>& chips) {
  check_point_name(p.name);
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
  const auto split = split_point_id(id);
  if (!split || split->second.size() < 2) return std::nullopt;
  const KeyValues& parts = split->second;
  PointKey k;
  k.scenario = split->first;
  for (size_t i = 0; i < parts.size(); ++i) {
    const auto& [key, v] = parts[i];
    if (key == "rate_gbps" && i == 0) k.generation = v;
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
    if (key == "run.jobs" || key == "run.kernel" || key.rfind("sweep.", 0) == 0 || key.rfind("generation[", 0) == 0) continue;
    if (implied_chip_default(key, line.substr(eq + 3))) continue;
    kv.emplace_back(key, line.substr(eq + 3));
  }
  return kv;
}

}  // namespace dsh::sc
