// SPDX-License-Identifier: Apache-2.0
// The scenario kinds dsh-sim runs, registered once each: the [scenario] kind
// a file names picks its entry, and every dispatch reads the entry (the keys
// --keys lists, the stack that runs it, a network's checks and run). A new
// scenario is one more entry in scenarios.cpp.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "keys.h"
#include "sim_options.h"

namespace dsh::net {
struct NetSetup;
struct NetSweepOptions;
}  // namespace dsh::net

namespace dsh::sc {

struct ScenarioKind {
  const char* name;
  const char* help;
  bool network;     // hosts and switches (network/), else one switch (single_switch/)
  bool takes_full;  // --full: the paper's scale
  KeyStore (*keys)();  // every key, at its default
  int (*run)(const SimOptions&, const ScenarioKind&);  // dsh-sim's exit status
  // A network kind: its checks beyond the keys, and its points and outputs.
  void (*validate)(const KeyStore&, const net::NetSetup&);
  int (*run_points)(const KeyStore&, const net::NetSweepOptions&);
};

const std::vector<ScenarioKind>& scenario_kinds();
std::string scenario_kind_names();  // "pfc-avoidance | saturate | ..."
std::string scenario_kinds_help();  // one line per kind: "  name  help"
std::string full_scale_kinds();    // the kinds that take --full: "deadlock and benchmark"
// The entry of a scenario file's [scenario] kind (pfc-avoidance when it
// names none, or without a file); another kind is refused naming the file's
// line and the kinds.
const ScenarioKind& scenario_kind_of(const std::string& path);

// run()'s exit status, or that of the error it threw, said on stderr:
// bad input (InputError) 2, any other 3.
int exit_status_of(const std::function<int()>& run);

// The single-switch runner (dsh_sim.cpp).
int run_single_switch(const SimOptions& o);

}  // namespace dsh::sc
