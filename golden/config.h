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

  std::string describe() const;  // one line, every field (port_headroom_cells when set)

  // Every field of spec §1.2, in its order, with its value as text that
  // set() reads back (port_headroom_cells "" when unset): the vector files'
  // header (vector format §2) and its comparison.
  std::vector<std::pair<std::string, std::string>> fields() const;
};

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
