// SPDX-License-Identifier: Apache-2.0
// The keys of the PFC watchdog in every switch and of a storming host NIC
// (spec §6.9), for every network scenario: [watchdog] and [storm], in
// microseconds and names, into the switch model's WatchdogParams and
// StormParams.
#pragma once

#include <string>

#include "keys.h"
#include "node.h"
#include "topology.h"

namespace dsh::net {

// The keys as given, each filled by its declaration.
struct WatchdogKeys {
  bool enable = false;
  double poll_us = 0, detect_us = 0, restore_us = 0;
  std::string action;
};
struct StormKeys {
  std::string host;  // "": no storm
  unsigned cls = 0;
  double start_us = 0, stop_us = 0, interval_us = 0;
};

void declare_watchdog_keys(sc::KeyStore& k);
// Fills f.watchdog and f.storm; refuses (naming the key, its value and the
// limit) a watchdog or storm outside frame mode, a detection or
// restoration time that is not a whole number of polls, an unknown host.
void apply_watchdog_keys(const sc::KeyStore& k, const Topology& t, FabricParams& f);

}  // namespace dsh::net
