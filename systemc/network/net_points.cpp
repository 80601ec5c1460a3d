// SPDX-License-Identifier: Apache-2.0
#include "net_points.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "cli_common.h"
#include "resources.h"

namespace dsh::net {

std::string net_point_id(const std::string& name, const std::string& scheme, const std::string& cc,
                         const uint64_t* seed, const std::string& load, const KeyValues& extra) {
  KeyValues coords{{"scheme", scheme}, {"cc", cc}};
  for (const auto& kv : extra) coords.push_back(kv);
  if (!load.empty()) coords.emplace_back("load", load);
  if (seed) coords.emplace_back("seed", std::to_string(*seed));
  return sc::make_point_id(name, coords);
}

void refuse_beside_full(const KeyStore& k, const NetSweepOptions& o, const std::string& key,
                        const std::string& full_key) {
  if (o.full && k.given_on_command_line(key))
    k.refuse(key, "--full runs " + full_key + " = " + quoted(k.text(full_key)) + k.where(full_key) + "; set that");
}

KeyValues net_point_params(const KeyStore& k, const std::vector<std::string>& drop, const KeyValues& set) {
  KeyValues kv;
  std::istringstream in(k.dump());
  std::string line;
  while (std::getline(in, line)) {
    const auto eq = line.find(" = ");
    if (eq == std::string::npos) continue;
    const std::string key = line.substr(0, eq);
    if (std::find(drop.begin(), drop.end(), key) != drop.end()) continue;
    auto s = std::find_if(set.begin(), set.end(), [&](const auto& x) { return x.first == key; });
    const std::string value = s != set.end() ? s->second : line.substr(eq + 3);
    if (!sc::implied_chip_default(key, value)) kv.emplace_back(key, value);
  }
  for (const auto& [key, v] : set)
    if (std::none_of(kv.begin(), kv.end(), [&](const auto& x) { return x.first == key; })) kv.emplace_back(key, v);
  return kv;
}

int run_net_sweep(const NetSweep& sw, const NetSweepOptions& o) {
  sc::FixedSweep fixed = sw;
  fixed.ids.clear();
  for (const auto& p : sw.points) fixed.ids.push_back(p.id);
  return sc::run_fixed_sweep(fixed, o);
}

bool plot_net(const NetSweepOptions& o, const std::string& args) {
  try {
    const std::string cmd = "'" + o.python + "' '" + given_or_resource(o.plot_script, DSH_PLOT_NET_SCRIPT) + "' " + args;
    if (std::system(cmd.c_str()) == 0) return true;
    std::fprintf(stderr, "dsh-sim: plot failed: %s\n", cmd.c_str());
  } catch (const ResourceError& e) {
    std::fprintf(stderr, "dsh-sim: plot failed: %s\n", e.what());
  }
  return false;
}

}  // namespace dsh::net
