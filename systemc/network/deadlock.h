// SPDX-License-Identifier: Apache-2.0
// S3, PFC deadlock (DSH paper §V-A, Fig. 12): a leaf-spine with two failed
// links, routed by ECMP around them, so that the detours close the cycles
// S0 -> L1 -> S1 -> L2 -> S0 and S0 -> L2 -> S1 -> L1 -> S0; fan-in bursts
// between leaf pairs (1..15 senders, Hadoop flow sizes, Poisson arrivals at
// traffic.load of one receiver's downlink or of the destination leaf's
// downlinks, traffic.load_unit). Each run (scheme, congestion control,
// load, seed) ends at the first deadlock (deadlock_detector.h) or at its
// duration; the outputs are the deadlocked fraction with its Wilson 95 %
// interval and the CDF of onset times per scheme, CC and load.
#pragma once

#include <string>
#include <vector>

#include "json_record.h"
#include "net_setup.h"

namespace dsh::net {

void declare_deadlock_keys(KeyStore& k);
// Every traffic and deadlock key, before any run (throws ConfigError naming the key).
void validate_deadlock(const KeyStore& k, const NetSetup& s);

// traffic.load's items as point text ("0.5"), in order, each once.
std::vector<std::string> deadlock_loads(const KeyStore& k);

// The busiest switch-to-switch link at `load` (a receiver's downlink is at
// `load` in either reading): each leaf pair's rate split
// evenly over the ECMP candidates at every switch (what a fair hash gives
// over many flows). Above 1: the reading of the load overloads the network.
struct OfferedLoad {
  std::string link;  // "S0>L1"
  double gbps = 0, utilisation = 0;
};
OfferedLoad offered_load(const KeyStore& k, const Topology& t, double load);

// S3's own keys, each filled by its declaration (declare_deadlock_keys).
struct DeadlockKeys {
  unsigned cls = 0;  // traffic.class
  std::vector<std::string> pairs;
  uint64_t fanin_min = 0, fanin_max = 0;
  bool per_receiver = true;  // traffic.load_unit = receiver (else leaf)
  bool whole_packets = true;
  double duration_ms = 0, full_duration_ms = 0, still_us = 0, check_us = 0;
};

struct DeadlockRun {
  std::string scheme, cc, load;
  uint64_t seed = 0;
  bool deadlocked = false;
  double onset_ms = 0, detected_ms = 0, sim_ms = 0;
  std::string cycle;  // "S0>L1 L1>S1 ..." (link directions)
  uint64_t lossless_drops = 0, packets_forwarded = 0, flows = 0, flows_done = 0, pause_frames = 0;
  double wall_s = 0, cpu_s = 0;
  std::string error;
};
// A run as a point's metrics and back, in this order.
DSH_JSON_RECORD(DeadlockRun, scheme, cc, load, seed, deadlocked, onset_ms, detected_ms, sim_ms, cycle, lossless_drops,
                packets_forwarded, flows, flows_done, pause_frames, wall_s, cpu_s, error)

DeadlockRun run_deadlock(const KeyStore& k, NetSetup& s, Scheme scheme, const std::string& cc, uint64_t seed,
                         double duration_ms, double load);

struct NetSweepOptions;

// The runs of the default command (or --full) as points: --list-points,
// --point, --merge or every point not already done in out_dir/points, then
// deadlock.csv, summary.json, summary.txt and deadlock.png. The exit status.
int deadlock_main(const KeyStore& k, const NetSweepOptions& o);

// The outputs from the runs (any order; one per scheme, cc, load and seed).
int write_deadlock_outputs(const KeyStore& k, const Topology& topo, std::vector<DeadlockRun> runs,
                           const std::vector<uint64_t>& seeds, double duration_ms, const NetSweepOptions& o);

}  // namespace dsh::net
