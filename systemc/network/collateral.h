// SPDX-License-Identifier: Apache-2.0
// S2, collateral damage (DSH paper Fig. 13): two long-lived flows share a
// link between two switches; once both carry their share, a fan-in of
// 64 KB flows congests the second switch. The innocent flow F0's throughput
// before and during the fan-in, per scheme and congestion control.
#pragma once

#include <string>
#include <vector>

#include "json_record.h"
#include "net_setup.h"

namespace dsh::net {

void declare_collateral_keys(KeyStore& k);
// Every traffic key, before any run (throws ConfigError naming the key).
void validate_collateral(const KeyStore& k, const NetSetup& s);

// S2's own keys, each filled by its declaration (declare_collateral_keys).
struct CollateralKeys {
  unsigned cls = 0;  // traffic.class
  std::vector<std::string> long_flows, fanin_srcs;
  std::string fanin_dst;
  uint64_t fanin_bytes = 0;
  double trigger_gbps = 0, trigger_window_us = 0, settle_us = 0, fanin_latest_us = 0;
  double bin_us = 0, before_us = 0, tail_us = 0, max_run_us = 0;
};

struct CollateralRun {
  std::string scheme, cc;
  std::string error;            // a lockstep mismatch, an MMU error, a routing hole
  bool triggered = false;       // the long flows reached traffic.trigger_gbps before the fan-in
  bool fanin_done = false;
  double fanin_start_us = 0, fanin_end_us = 0;
  double f0_mean_during = 0, f0_min_during = 0, f0_mean_before = 0;
  uint64_t lossless_drops = 0, packets_forwarded = 0, reordered = 0;
  std::vector<uint64_t> pause_frames, ecn_marks;  // per switch
  // Per switch, when a chip has several lanes: the most enqueues its MMU
  // decided in one cycle (MmuStats::max_enq_slots); empty with one lane.
  std::vector<unsigned> max_enq_per_cycle;
  double sim_us = 0, wall_s = 0, cpu_s = 0;
  // Delivered bytes per microsecond from t = 0: F0, F1, the fan-in flows.
  std::vector<uint64_t> f0_bytes_per_us, f1_bytes_per_us, fanin_bytes_per_us;
};
// A run as a point's metrics and back, in this order (the per-microsecond
// byte counts too: the CSV and the plot are made from them).
DSH_JSON_RECORD(CollateralRun, scheme, cc, triggered, fanin_done, fanin_start_us, fanin_end_us, f0_mean_during,
                f0_min_during, f0_mean_before, lossless_drops, packets_forwarded, reordered, pause_frames, ecn_marks,
                sim_us, wall_s, cpu_s, error, f0_bytes_per_us, f1_bytes_per_us, fanin_bytes_per_us)

CollateralRun run_collateral(const KeyStore& k, NetSetup& s, Scheme scheme, const std::string& cc);

// Shared by collateral.cpp and collateral_outputs.cpp.
struct FlowEnds {
  int src, dst;
};
FlowEnds parse_flow(const Topology& t, const std::string& item, const std::string& what);  // "SRC>DST" of two hosts
double gbps(uint64_t bytes, double us);
uint64_t sum_us(const std::vector<uint64_t>& v, long a, long b);  // bytes in [a, b) us of a per-microsecond series

struct NetSweepOptions;

// Every scheme x cc as points (--list-points, --point, --merge, or the
// default run resuming from out_dir/points), then throughput.csv,
// summary.json, summary.txt and collateral.png in out_dir. The exit status.
int collateral_main(const KeyStore& k, const NetSweepOptions& o);

// The outputs from the runs (scheme x cc, in run order).
int write_collateral_outputs(const KeyStore& k, const NetSetup& s, const std::vector<CollateralRun>& runs,
                             const NetSweepOptions& o);

}  // namespace dsh::net
