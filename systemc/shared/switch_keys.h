// SPDX-License-Identifier: Apache-2.0
// The keys every scenario of the switch model shares, declared once:
// [scenario] name and kind, [chip] (the MMU fields of the one field table,
// golden/config.h, plus the cell size and the MMU clock), [link], [switch],
// traffic.packet_bytes and the [run] keys that choose the MMU backend and
// the kernel. Each scenario declares its own keys beside them.
#pragma once

#include <string>
#include <vector>

#include "config.h"
#include "keys.h"

namespace dsh::sc {

// The scenario kinds dsh-sim runs.
const std::vector<std::string>& scenario_kinds();

// The [scenario] kind of a scenario file (pfc-avoidance when it names
// none); a kind that is not one of scenario_kinds() is refused with the
// file's line.
std::string scenario_kind_of(const std::string& path);

void declare_switch_keys(KeyStore& k);

// Refuses what no single key can: a combination of keys (a packet longer
// than the MTU) or an option that has no effect with the chosen backend (a
// planted RTL fault asked of the golden model). Names the keys, their values
// and where they came from.
void check_switch_keys(const KeyStore& k);

}  // namespace dsh::sc
