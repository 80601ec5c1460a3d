// SPDX-License-Identifier: Apache-2.0
// MMU configuration (spec §1): fields, defaults, validation, headroom helper.
// Plain C++17: no simulator dependency.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "input.h"

namespace dsh {

enum class Scheme { SIH, DSH };

const char* to_string(Scheme s);
const char* lower_name(Scheme s);  // "sih"/"dsh": the name in scenario keys, point IDs and file names
Scheme scheme_from_string(const std::string& s);  // "SIH"/"DSH", any case; throws ConfigError

// A configuration the RTL or the model cannot run; what() names field, value and limit.
class ConfigError : public InputError {
 public:
  using InputError::InputError;
};

// Widths of the RTL datapath; a configuration must fit them (spec §1.2).
// Defaults match the parameter defaults of rtl/dsh_mmu.sv.
struct RtlWidths {
  unsigned cell_w = 20;  // occupancy counters and cfg_* sizes, in bits
  unsigned size_w = 8;   // cells of one enqueue/dequeue event
  unsigned cnt_w = 32;   // statistics counters (wrap modulo 2^cnt_w)
};

// Limits of the fields that have a fixed range.
inline constexpr int kAlphaLog2Min = -10;
inline constexpr int kAlphaLog2Max = 3;
inline constexpr unsigned kPortMultLog2Max = 5;
inline constexpr unsigned kThreshLatencyMin = 1;
inline constexpr unsigned kThreshLatencyMax = 3;
inline constexpr unsigned kLanesMax = 64;        // lanes: enqueue slots a cycle (spec §4.7)
inline constexpr unsigned kDeqPerCycleMax = 64;  // deq_per_cycle: dequeue slots a cycle

struct Config {
  unsigned n_ports = 32;              // N_p
  unsigned n_queues = 7;              // N_q lossless queues per port
  uint64_t buffer_cells = 65536;      // B: 16 MiB / 256 B
  uint64_t private_cells = 12;        // phi: 3 KiB per queue
  uint64_t headroom_cells = 228;      // eta: per queue (SIH) or per port (DSH)
  // eta of each port (spec §1.2): empty, every port has headroom_cells;
  // else exactly n_ports entries, port p's at [p], and headroom_cells unused.
  std::vector<uint64_t> port_headroom_cells;
  int alpha_log2 = -4;                // alpha = 2^alpha_log2
  unsigned port_mult_log2 = 3;        // DSH: X_poff = T << port_mult_log2
  uint64_t delta_q = 0;               // queue resume hysteresis
  uint64_t delta_p = 0;               // port resume hysteresis
  Scheme scheme = Scheme::DSH;
  unsigned thresh_latency = 2;        // L, cycles
  unsigned lanes = 1;                 // N_l: a power of two <= n_ports (spec §4.7)
  unsigned deq_per_cycle = 1;         // N_d

  // eta_p of port p (< n_ports): port_headroom_cells[p], or headroom_cells.
  uint64_t headroom_of(unsigned port) const {
    return port_headroom_cells.empty() ? headroom_cells : port_headroom_cells[port];
  }
  bool per_port_headroom() const { return !port_headroom_cells.empty(); }

  // B_s: what is left after private and headroom/insurance (spec §1.4); may be <= 0.
  int64_t shared_cells() const;
  int64_t private_total_cells() const;
  int64_t headroom_total_cells() const;  // N_q * sum of eta_p (SIH) or sum of eta_p (DSH)

  // Throws ConfigError naming the field, its value and the limit.
  void validate(const RtlWidths& w = RtlWidths{}) const;
  // The checks that do not depend on an RTL's widths (ranges, a shared
  // buffer left): run before a backend is looked for.
  void validate_ranges() const;

  // Sets one field by its name (spec §1.2) from text; throws ConfigError on an
  // unknown name, a value that is not a decimal integer (no float, no bool,
  // no wrap) or one outside the field's fixed range.
  void set(const std::string& field, const std::string& value);

  // One line of space-separated name=value, every field of config_fields()
  // in its order (port_headroom_cells only when set, the fields that are
  // implied at their default only when not at it); from_text() reads it
  // back, so it is also how a configuration crosses the RTL plugin's ABI.
  std::string describe() const;
  static Config from_text(const std::string& text);  // throws ConfigError

  // Every field of config_fields(), in its order, with its value as text
  // that set() reads back (port_headroom_cells "" when unset): the vector
  // files' header (vector format §2) and its comparison.
  std::vector<std::pair<std::string, std::string>> fields() const;
};

// The configuration fields (spec §1.2), each declared once: Config::set()
// and describe(), the tools' --<field> flags and their help, the scenario
// keys chip.<field> and the RTL plugin's ABI are all made from this table.
// validate() adds the checks that depend on each other or on the RTL's
// widths (sizes within CellW, one eta per port, a shared buffer left).
struct ConfigField {
  enum class Kind { Integer, Scheme, PortList };
  const char* name;
  Kind kind;
  int64_t lo, hi;     // Integer: the fixed range set() accepts
  const char* unit;   // "cells", "cycles", "" (shown in help)
  const char* spec;   // where it is defined, "spec §1.2"
  const char* help;
  std::string (*get)(const Config&);   // the value as set() reads it
  void (*put)(Config&, int64_t);       // Integer: store a checked value
  int64_t (*num)(const Config&);       // Integer: the value (saturated to int64)
  // Omitted from describe() and the vector header when at its default,
  // which a reader then assumes: the fields of the multi-event cycle, whose
  // default (1) is the cycle every older file and tool describes.
  bool implied_at_default = false;
  std::string range() const;           // "1..1024", "SIH|DSH", ...
  std::string default_text() const { return get(Config{}); }
};
const std::vector<ConfigField>& config_fields();
const ConfigField* find_config_field(const std::string& name);  // nullptr when unknown
std::string config_field_names();  // "n_ports, n_queues, ..." for messages

// port_headroom_cells as text (spec §1.2): comma-separated entries, each a
// value or COUNTxVALUE for COUNT ports in a row ("24x228,8x828"); empty text
// is an empty list. parse_port_headroom throws ConfigError naming the entry.
std::vector<uint64_t> parse_port_headroom(const std::string& text, uint64_t max_value);
std::string port_headroom_text(const std::vector<uint64_t>& cells);  // runs as COUNTxVALUE

// Headroom in whole cells per in-flight packet (spec §1.3):
//   bytes = 2*(C*D_prop + L_MTU) + processing_bytes
//   cells = ceil(bytes / pkt_bytes) * ceil(pkt_bytes / cell_bytes)
struct LinkParams {
  double link_gbps = 100.0;
  double prop_delay_ns = 2000.0;
  uint64_t mtu_bytes = 1500;
  uint64_t processing_bytes = 3840;  // IEEE 802.1Qbb response-time cap
  uint64_t cell_bytes = 256;
  uint64_t pkt_bytes = 1500;          // packet size the port must keep lossless
};
uint64_t headroom_bytes(const LinkParams& p);
uint64_t headroom_cells(const LinkParams& p);
inline uint64_t cells_of(uint64_t bytes, uint64_t cell_bytes) {
  return (bytes + cell_bytes - 1) / cell_bytes;
}

}  // namespace dsh
