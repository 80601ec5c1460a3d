// SPDX-License-Identifier: Apache-2.0
// S6, PFC storm (scenarios §S6, spec §6.9): on S3's leaf-spine, one host's
// NIC keeps sending PFC frames on a class from storm.start_us while
// long-lived flows cross the fabric. Without the watchdog the pause spreads
// from the storming host's leaf through the fabric; with it, the storm is
// detected after watchdog.detect_us and the class's packets for that port
// are dropped (or its pauses ignored). Over time, per scheme and watchdog
// off/on: the throughput of the innocent flows (neither end the storming
// host), the switches and hosts with a paused lossless class, the
// watchdog's counters.
#pragma once

#include <string>
#include <vector>

#include "json_record.h"
#include "net_setup.h"

namespace dsh::net {

void declare_pfc_storm_keys(KeyStore& k);
// The traffic keys, before any run (throws ConfigError naming the key).
void validate_pfc_storm(const KeyStore& k, const NetSetup& s);

// S6's own keys, each filled by its declaration.
struct PfcStormKeys {
  unsigned cls = 0;                 // traffic.class
  std::vector<std::string> flows;   // traffic.flows, SRC>DST
  std::vector<std::string> watchdog;  // run.watchdog: off, on
  double duration_us = 0, bin_us = 0, before_us = 0, recovered_frac = 0;
};

// A watchdog's storm detected or restored on one switch port (1 us samples).
struct WatchdogEvent {
  std::string port;   // NODE>PEER: the switch and the node its port leads to
  std::string event;  // "storm" or "restore"
  double at_us = 0;   // from t = 0
};
DSH_JSON_RECORD(WatchdogEvent, port, event, at_us)

struct PfcStormRun {
  std::string scheme;
  bool watchdog = false;
  std::string error;
  double storm_start_us = 0, bound_us = 0;  // bound: detection time + one poll
  double pre_gbps = 0;                      // innocent flows, the before_us ahead of the storm
  double min_gbps = 0;                      // the lowest bin after the storm's start
  // From the storm's start to the first bin back at recovered_frac of
  // pre_gbps with the mean of the bins from it to the storm's stop; -1
  // never, 0 never below.
  double recovered_us = -1;
  double detected_us = -1;   // from the storm's start to the first detection (1 us samples); -1 none
  unsigned max_switches_paused = 0, max_hosts_paused = 0;
  // From the storm's start until every switch / the first host had a
  // lossless class paused at once (1 us samples); -1 never.
  double all_switches_paused_us = -1, first_host_paused_us = -1;
  std::vector<std::string> switches_paused;  // every switch that had a lossless class paused after the storm's start
  uint64_t storms = 0, restores = 0, pauses_ignored = 0, wd_dropped = 0, lossless_drops = 0;
  std::vector<WatchdogEvent> watchdog_events;  // in time order, then port order
  double sim_us = 0, wall_s = 0, cpu_s = 0;
  // Per bin of bin_us from 0: innocent and victim throughput, Gb/s.
  std::vector<double> innocent_gbps, victim_gbps;
  // Per microsecond: switches and hosts with a lossless class paused.
  std::vector<unsigned> sw_paused_per_us, hosts_paused_per_us;
};
DSH_JSON_RECORD(PfcStormRun, scheme, watchdog, error, storm_start_us, bound_us, pre_gbps, min_gbps, recovered_us,
                detected_us, max_switches_paused, max_hosts_paused, all_switches_paused_us, first_host_paused_us, switches_paused, storms, restores, pauses_ignored,
                wd_dropped, lossless_drops, watchdog_events, sim_us, wall_s, cpu_s, innocent_gbps, victim_gbps, sw_paused_per_us,
                hosts_paused_per_us)

// One point: `scheme` and `cc`, the watchdog on or off.
PfcStormRun run_pfc_storm(const KeyStore& k, NetSetup& s, Scheme scheme, const std::string& cc, bool watchdog);

struct NetSweepOptions;

// Every scheme x watchdog as points, then storm.csv, summary.json,
// summary.txt and pfc_storm.png in out_dir. The exit status.
int pfc_storm_main(const KeyStore& k, const NetSweepOptions& o);

// The outputs from the runs (in point order).
int write_pfc_storm_outputs(const KeyStore& k, const std::vector<PfcStormRun>& runs, const NetSweepOptions& o);

}  // namespace dsh::net
