// SPDX-License-Identifier: Apache-2.0
// The keys every scenario of the switch model shares, declared once:
// [scenario] name and kind, [chip] (the MMU fields of the one field table,
// golden/config.h, plus the cell size and the MMU clock), [link], [switch],
// traffic.packet_bytes and the [run] keys that choose the MMU backend and
// the kernel. Each scenario declares its own keys beside them.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "config.h"
#include "keys.h"

namespace dsh::net {

// What runs the model's events (run.kernel): its own event queue, or the SystemC
// kernel through the TLM netlist (tlm_netlist.h). The same results.
enum class Kernel { Events, SystemC };
inline Kernel parse_kernel(const std::string& text, const std::string& key) {
  if (text == "events") return Kernel::Events;
  if (text == "systemc") return Kernel::SystemC;
  throw ConfigError(key + " = '" + text + "': expected events | systemc");
}
inline const char* to_string(Kernel k) { return k == Kernel::Events ? "events" : "systemc"; }

}  // namespace dsh::net

namespace dsh::sc {

// Declares the shared keys; each chip.<field> of the field table fills its
// Config field through the table's accessor (fill(Config&)).
void declare_switch_keys(KeyStore& k);

// Refuses what no single key can: a combination of keys (a packet longer
// than the MTU) or an option that has no effect with the chosen backend (a
// planted RTL fault asked of the golden model). Names the keys, their values
// and where they came from.
void check_switch_keys(const KeyStore& k);

// What the link, switch and traffic keys say about the wire: the flow
// control's mode and times (spec §6.3), the DSCP of each class and the
// switch's DSCP-to-queue table (spec §6.7), the captured links. Refuses a
// table under which a class's DSCP names another queue.
struct WireKeys {
  bool frames = false;
  uint16_t pause_quanta = 0xFFFF, refresh_quanta = 0x7FFF;
  std::array<uint8_t, 64> dscp_queue{};
  std::array<uint8_t, 8> class_dscp{};
  std::string capture_links;
};
WireKeys wire_keys(const KeyStore& k);

}  // namespace dsh::sc
