// SPDX-License-Identifier: Apache-2.0
// dsh-sim's runner of the network scenarios (collateral-damage, deadlock).
#pragma once

#include <string>

#include "keys.h"
#include "sim_options.h"

namespace dsh::net {

// The keys of a network scenario kind (collateral-damage, deadlock).
sc::KeyStore network_keys(const std::string& kind);

// Runs the scenario the options name and returns dsh-sim's exit status.
int run_network(const sc::SimOptions& o, const std::string& kind);

}  // namespace dsh::net
