// SPDX-License-Identifier: Apache-2.0
// Scenario parameters of the SystemC switch model: every knob has a key
// "section.name" that a TOML scenario file sets (`[section]` then
// `name = value`) and the command line overrides (`--set section.name=value`).
// Plain C++17 (no SystemC), so the sweep runner and the tests can use it.
#pragma once

#include <string>
#include <vector>

#include "config.h"
#include "keys.h"
#include "switch_keys.h"
#include "mmu_model.h"
#include "theory.h"

namespace dsh::sc {

// What the scenario does with its flows.
//   pfc-avoidance: scenarios §S1. Background flows start at 0. The
//     fan-in flows start together, burst/M bytes each, once the background
//     queues have settled: at settle_us, and not before every background
//     queue has reached its pause threshold once plus settle_after_pause_us
//     (a large buffer or a slow link takes longer to fill). A point ends when
//     every fan-in byte has been admitted and no fan-in sender is paused (or
//     at max_run_us).
//   saturate: every flow is endless; a point runs for run_us. For the
//     worst-case headroom check.
enum class Kind { PfcAvoidance, Saturate };

// One row of a `[[generation]]` table (scenarios/link-speeds.toml): S1 on the
// chip of a switch-chip generation. The switch keeps chip.n_ports ports; its
// links run at rate_gbps and its buffer is the chip's buffer per unit of
// switching capacity times n_ports * rate_gbps (buffer time, the paper's
// Fig. 4 measure, kept); the MMU clock scales with the link rate
// (sweep.mmu_ghz_per_100gbps).
struct Generation {
  double rate_gbps = 0;           // every link
  std::string chip;               // what the row describes
  std::string source;             // where its figures come from
  double chip_buffer_mb = 0;      // the chip's packet buffer, MB of 2^20 B (vendors' usage)
  double chip_capacity_gbps = 0;  // the chip's switching capacity
  std::string label() const;      // rate_gbps as text: the key in point IDs and summary.json
};

// A single-switch scenario: its keys (the one registry, keys.h; declared in
// params.cpp and switch_keys.cpp) and the values the model reads, taken from
// them. Every value changes through set(), so that the keys, dump() and
// the point files say what ran.
struct Params {
  Params();  // every key at its default
  std::string name;
  Kind kind;

  // [chip] the MMU (spec §1.2). `mmu.scheme` is set per point from sweep.schemes.
  Config mmu;
  uint64_t cell_bytes;
  bool headroom_auto;  // chip.headroom_cells = "auto": auto_headroom_cells of each port's link
  double mmu_clock_ghz;

  // [link] every link (host <-> switch port), both directions.
  double link_gbps;
  double prop_delay_ns;
  uint64_t mtu_bytes;
  uint64_t processing_bytes;   // PAUSE frame first bit in -> upstream decides (spec §7.1 item 3)
  uint64_t pause_frame_bytes;    // PFC/PAUSE frame on the wire, class 7
  WireKeys wire;                 // flow-control mode and times, DSCPs, captured links
  std::vector<std::pair<int, double>> port_rate_gbps;  // per-port exceptions "port:gbps" (both directions)

  // [switch]
  uint64_t dwrr_quantum_bytes;

  // [traffic] hosts are numbered like the switch ports they hang on.
  uint64_t packet_bytes;
  std::vector<int> background_srcs;
  int background_dst;  // negative: counted from the last port (-1 = last)
  unsigned background_class;
  std::vector<int> fanin_srcs;
  int fanin_dst;
  std::vector<int> fanin_classes;  // each fan-in host sends one flow per class
  std::vector<int> reverse_srcs;  // reverse_srcs[k] sends endlessly to fanin_srcs[k]
  unsigned reverse_class;
  double settle_us;        // pfc-avoidance: earliest fan-in start
  double settle_after_pause_us;  // ... and this long after the last background queue first paused
  double start_stagger_ns;   // host h starts its flows h * this later
  double run_us;           // saturate: length of a point
  double max_run_us;      // any point stops here

  // [sweep]
  std::vector<std::string> schemes;
  std::vector<double> burst_pct;
  unsigned refine_steps;  // bisections around each scheme's pause-free edge
  std::vector<Generation> generations;  // [[generation]] rows; empty: one chip, this one
  std::vector<double> generation_rates;  // sweep.generations: the rows to run (empty: all)
  double mmu_ghz_per_100gbps;     // a generation's MMU clock per 100 Gb/s of link rate

  // [run]
  Backend backend;
  unsigned jobs;
  net::Kernel kernel;  // what runs the model's events (--trace: always SystemC)
  bool full_compare;  // lockstep: every queue every cycle (slow) instead of the touched ones
  bool allow_lossy;   // run a headroom below the link's need (labelled lossy) instead of refusing it
  std::string rtl_variant;    // rtl/lockstep: this built parameter set by name (default: the matching one)
  unsigned rtl_fault;     // rtl/lockstep: a planted fault of tb/faults/dsh_faults.sv (the checker's self-test)

  KeyStore keys;  // every key, with where its value came from

  // Sets one key from text; `key` may omit the section when the name is
  // unique (`burst_pct`). Lists are comma separated; host lists take ranges
  // "a..b". Throws ConfigError naming the origin, the key and what is accepted.
  void set(const std::string& key, const std::string& value, const std::string& origin = "");
  void load_toml(const std::string& path);  // every key of the file, in file order
  void load_toml_text(const std::string& text, const std::string& name);  // the same from text
  std::string dump() const;                 // "key = value" per line, all keys, then the generation rows
  // Throws ConfigError naming the key and limit: validate_scenario(), and
  // at least one scheme of sweep.schemes feasible on this chip.
  void validate() const;
  // Everything but the chip's per-scheme configuration, including the
  // preconditions of the experiment (a destination among its sources; a
  // headroom below the link's need unless run.allow_lossy).
  void validate_scenario() const;
  // The schemes of sweep.schemes that cannot be configured on this chip (no
  // shared buffer left, no RTL built for it, ...), with the reason.
  std::vector<std::pair<std::string, std::string>> infeasible() const;
  bool lossy() const;  // chip.headroom_cells is below what some port's link needs

  // Generation sweeps. The rows sweep.generations selects, in table order,
  // and the chip of one row (this scenario with its link rate, buffer and
  // MMU clock; no generations of its own).
  std::vector<size_t> selected_generations() const;
  Params for_generation(size_t row) const;

  // Derived values.
  unsigned port_of(int host) const;  // negative counted from the end
  uint64_t headroom_cells() const;   // eta in cells (auto: of a link at link.rate_gbps; or the chip value)
  uint64_t link_headroom_cells() const;  // what a link at link.rate_gbps needs (spec §1.3 formula)
  uint64_t link_headroom_cells(unsigned port) const;  // what port's link needs: its 'auto' eta
  uint64_t link_headroom_cells(double gbps) const;    // 'auto' eta of a link at gbps (switch_keys.h)
  uint64_t max_link_headroom_cells() const;  // the most any port's link needs
  // The MMU configuration of a scheme. Auto headroom on ports of different
  // rates: eta per port (Config::port_headroom_cells), else one eta.
  Config mmu_config(Scheme s) const;
  RtlWidths widths(Scheme s) const;  // of the backend that will run
  uint64_t buffer_bytes() const { return mmu.buffer_cells * cell_bytes; }
  uint64_t burst_bytes(double pct) const;  // total of the fan-in flows
  uint64_t cells_per_packet() const { return cells_of(packet_bytes, cell_bytes); }
  double rate_gbps(unsigned port) const;  // link.rate_gbps unless listed in link.port_rate_gbps
  // Theorem 1/2 inputs for this scenario: N = background flows, M = fan-in
  // flows (queues), R = fan-in hosts (each queue gets C / classes and drains
  // C / M), private_per_queue = phi (private_cells).
  AbsorptionModel absorption_model() const;

 private:
  void apply();  // the values above from keys
};

// Parses "a,b,c" with ranges "a..b" (hosts) and "lo:hi:step" (numbers);
// `what` names the key in a refusal.
// Every single-switch key at its default, bound to Params (params_keys.cpp).
KeyStore s1_keys();

std::vector<int> parse_int_list(const std::string& s, const std::string& what = "value");
std::vector<double> parse_num_list(const std::string& s, const std::string& what = "value");

// A burst size, % of the buffer: (0, kBurstPctMax]. The sweep, --point and
// --trace all check it here.
inline constexpr double kBurstPctMax = 1000;
void check_burst_pct(const std::string& what, double pct);

// eq. (7)/(19) generalised so that the N congested queues drain at k times
// the rate of a bursty queue (the paper assumes k = 1; in S1 the background
// queues share their own egress, k = M/N). Burst in cells, like
// dsh::max_pause_free_burst (which this equals for k = 1 in case 2).
double pause_free_burst_k(const AbsorptionModel& m, Scheme s, double k);

}  // namespace dsh::sc
