// SPDX-License-Identifier: Apache-2.0
#include "scenarios.h"

#include <cstdio>

#include "benchmark.h"
#include "collateral.h"
#include "deadlock.h"
#include "exit_status.h"
#include "input.h"
#include "net_main.h"
#include "net_points.h"
#include "params.h"
#include "pfc_storm.h"
#include "toml_text.h"

namespace dsh::sc {

namespace {

KeyStore single_switch_keys() { return Params{}.keys; }

template <void (*Declare)(KeyStore&)>
KeyStore network_keys() {
  KeyStore k;
  Declare(k);
  return k;
}

int single_switch(const SimOptions& o, const ScenarioKind&) { return run_single_switch(o); }

}  // namespace

const std::vector<ScenarioKind>& scenario_kinds() {
  static const std::vector<ScenarioKind> kinds = {
      {"pfc-avoidance", "S1: the pause-free burst sweep of one switch", false, false, single_switch_keys, single_switch, nullptr, nullptr},
      {"saturate", "S4: one switch, every flow endless (the worst-case headroom)", false, false, single_switch_keys, single_switch, nullptr, nullptr},
      {"collateral-damage", "S2: a fan-in's collateral damage on long flows", true, false, network_keys<net::declare_collateral_keys>, net::run_network,
       net::validate_collateral, net::collateral_main},
      {"deadlock", "S3: PFC deadlocks of a leaf-spine with failed links", true, true, network_keys<net::declare_deadlock_keys>, net::run_network, net::validate_deadlock,
       net::deadlock_main},
      {"benchmark", "the paper's benchmark traffic (Fig. 14, 15, 5)", true, true, network_keys<net::declare_benchmark_keys>, net::run_network, net::validate_benchmark,
       net::benchmark_main},
      {"pfc-storm", "S6: a NIC's PFC storm spreading through a leaf-spine, with and without the watchdog", true, false,
       network_keys<net::declare_pfc_storm_keys>, net::run_network, net::validate_pfc_storm, net::pfc_storm_main},
  };
  return kinds;
}

std::string scenario_kind_names() {
  std::string s;
  for (const auto& k : scenario_kinds()) s += (s.empty() ? "" : " | ") + std::string(k.name);
  return s;
}

std::string scenario_kinds_help() {
  std::string s;
  for (const auto& k : scenario_kinds()) s += "  " + std::string(k.name) + std::string(20 - std::string(k.name).size(), ' ') + k.help + "\n";
  return s;
}

std::string full_scale_kinds() {
  std::vector<std::string> names;
  for (const auto& k : scenario_kinds())
    if (k.takes_full) names.emplace_back(k.name);
  std::string s;
  for (size_t i = 0; i < names.size(); ++i) s += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return s;
}

const ScenarioKind& scenario_kind_of(const std::string& path) {
  const auto& kinds = scenario_kinds();
  if (path.empty()) return kinds[0];
  const toml::table t = parse_toml(read_text_file("scenario", path), path);
  const toml::node* n = t.at_path("scenario.kind").node();
  if (!n) return kinds[0];
  const std::string at = path + ":" + std::to_string(n->source().begin.line) + ": ";
  std::string v;
  try {
    v = toml_text(*n);
  } catch (const ConfigError& e) {
    throw ConfigError(at + "scenario.kind: " + e.what());
  }
  for (const auto& k : kinds)
    if (v == k.name) return k;
  throw ConfigError(at + "scenario.kind = " + dsh::quoted(v) + ": expected " + scenario_kind_names());
}

int exit_status_of(const std::function<int()>& run) {
  try {
    return run();
  } catch (const InputError& e) {
    std::fprintf(stderr, "dsh-sim: error: %s\n", e.what());
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dsh-sim: error: %s\n", e.what());
    return kExitToolFailed;
  }
}

}  // namespace dsh::sc
