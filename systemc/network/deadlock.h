// S3, PFC deadlock (DSH paper §V-A, Fig. 12): a leaf-spine with two failed
// links whose routes close the cycle S0 -> L1 -> S1 -> L2 -> S0; fan-in
// bursts between leaf pairs (1..15 senders, Hadoop flow sizes, Poisson
// arrivals at a load of the destination leaf's downlinks). Each run (scheme,
// congestion control, seed) ends at the first deadlock (deadlock_detector.h)
// or at its duration; the output is the CDF of onset times per scheme.
#pragma once

#include <string>
#include <vector>

#include "net_setup.h"
#include "net_setup.h"

namespace dsh::net {

void declare_deadlock_keys(KeyStore& k);
// Every traffic and deadlock key, before any run (throws ConfigError naming the key).
void validate_deadlock(const KeyStore& k, const NetSetup& s);

struct DeadlockRun {
  std::string scheme, cc;
  uint64_t seed = 0;
  bool deadlocked = false;
  double onset_ms = 0, detected_ms = 0, sim_ms = 0;
  std::string cycle;  // "S0>L1 L1>S1 ..." (link directions)
  uint64_t lossless_drops = 0, forwarded = 0, flows = 0, flows_done = 0, pause_frames = 0;
  double wall_s = 0, cpu_s = 0;
  std::string error;
};

DeadlockRun run_deadlock(const KeyStore& k, NetSetup& s, Scheme scheme, const std::string& cc, uint64_t seed,
                         double duration_ms);

struct NetSweepOptions;

// The runs of the default command (or --full) as points: --list-points,
// --point, --merge or every point not already done in out_dir/points, then
// deadlock.csv, summary.json, summary.txt and deadlock.png. The exit status.
int deadlock_main(const KeyStore& k, const NetSweepOptions& o, bool plot, const std::string& python,
                  const std::string& plot_script, bool full, bool reproducible);

// The outputs from the runs (any order; one per scheme, cc and seed).
int write_deadlock_outputs(const KeyStore& k, std::vector<DeadlockRun> runs, const std::vector<uint64_t>& seeds,
                           double duration_ms, const std::string& out_dir, bool plot, const std::string& python,
                           const std::string& plot_script, bool reproducible);

}  // namespace dsh::net
