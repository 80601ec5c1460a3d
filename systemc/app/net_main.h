// SPDX-License-Identifier: Apache-2.0
// dsh-sim's runner of the network scenarios (collateral-damage, deadlock, benchmark).
#pragma once

#include <string>

#include "keys.h"
#include "scenarios.h"
#include "sim_options.h"

namespace dsh::net {

// Runs the network scenario the options name (its entry of scenarios.h)
// and returns dsh-sim's exit status.
int run_network(const sc::SimOptions& o, const sc::ScenarioKind& kind);

}  // namespace dsh::net
