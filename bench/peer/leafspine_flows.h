// SPDX-License-Identifier: Apache-2.0
// The flow list of the deadlock runner (systemc/network/deadlock.cpp,
// run_deadlock) on a regular leaf-spine, rebuilt outside the fabric so that
// another simulator can run the very same flows.
//
// Hosts are numbered leaf by leaf (hosts_per_leaf to a leaf, as
// "H0..H15-L0", "H16..H31-L1", ... list them); `pairs` are (source leaf,
// destination leaf) in the order of traffic.pairs. The load is of
// traffic.load_unit = "leaf": each pair offers `pair_load` of the
// destination leaf's downlinks together, in fan-in bursts of
// fanin_min..fanin_max senders of the source leaf to one host of the
// destination leaf drawn per burst. The generator, its seeding and the
// order of its draws are the runner's, step for step, so with the same
// standard library the list is the same flow for flow: the peer benchmark
// checks that by the count of flows both sides report.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace dsh::bench {

struct LeafSpineTraffic {
  unsigned leaves = 16, hosts_per_leaf = 16;
  double host_gbps = 100;
  std::vector<std::pair<unsigned, unsigned>> pairs;  // (source leaf, destination leaf)
  unsigned fanin_min = 1, fanin_max = 1;
  double pair_load = 0.06;  // fraction of the destination leaf's downlinks, per pair
  std::string cdf_path;     // flow sizes (data/*.cdf)
  bool whole_packets = true;
  uint64_t packet_bytes = 1500;
  uint64_t seed = 1;
  double window_ms = 1;  // flows start in [0, window)
};

struct FlowSpec {
  uint64_t start_ps;
  uint32_t src, dst;  // hosts
  uint64_t bytes;
};

// Sorted by start time (stably, as the runner numbers its flows).
// Throws dsh::InputError on a bad CDF file, std::invalid_argument on a
// traffic description the runner would refuse.
std::vector<FlowSpec> leafspine_flows(const LeafSpineTraffic& t);

}  // namespace dsh::bench
