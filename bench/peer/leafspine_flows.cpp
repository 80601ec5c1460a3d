// SPDX-License-Identifier: Apache-2.0
#include "leafspine_flows.h"

#include <algorithm>
#include <random>
#include <stdexcept>

#include "topology.h"  // mix64, as the runner seeds its per-pair generators
#include "workload.h"  // SizeCdf, poisson_gap_ps, pick_distinct

namespace dsh::bench {

std::vector<FlowSpec> leafspine_flows(const LeafSpineTraffic& t) {
  if (t.fanin_min < 1 || t.fanin_max < t.fanin_min || t.fanin_max > t.hosts_per_leaf)
    throw std::invalid_argument("fan-in must be 1 <= min <= max <= hosts per leaf");
  if (!(t.pair_load > 0 && t.pair_load <= 1)) throw std::invalid_argument("pair load must be in (0, 1]");
  const net::SizeCdf cdf = net::SizeCdf::load(t.cdf_path);
  const uint64_t pkt = t.packet_bytes;
  auto size_of = [&](uint64_t b) { return t.whole_packets ? (b + pkt - 1) / pkt * pkt : b; };
  // The runner's mean flow size: of the rounded sizes, 200,000 draws of a
  // generator seeded with the seed alone.
  double mean_size = cdf.mean_bytes();
  if (t.whole_packets) {
    std::mt19937_64 m(t.seed);
    double sum = 0;
    for (int i = 0; i < 200000; ++i) sum += double(size_of(cdf.sample(m)));
    mean_size = sum / 200000;
  }
  const uint64_t end_ps = uint64_t(t.window_ms * 1e9);
  auto hosts_of = [&](unsigned leaf) {
    std::vector<int> v;
    for (unsigned i = 0; i < t.hosts_per_leaf; ++i) v.push_back(int(leaf * t.hosts_per_leaf + i));
    return v;
  };
  std::vector<FlowSpec> specs;
  uint64_t pair_index = 0;
  for (const auto& [a, b] : t.pairs) {
    if (a >= t.leaves || b >= t.leaves) throw std::invalid_argument("a pair names a leaf that is not there");
    std::mt19937_64 rng(net::mix64(t.seed * 0x9e3779b97f4a7c15ULL + ++pair_index));
    const auto src = hosts_of(a), dst = hosts_of(b);
    const double cap_gbps = t.host_gbps * double(dst.size());  // the destination leaf's downlinks
    const double burst_bytes = mean_size * double(t.fanin_min + t.fanin_max) / 2;
    for (uint64_t at = net::poisson_gap_ps(rng, burst_bytes, cap_gbps, t.pair_load); at < end_ps;
         at += net::poisson_gap_ps(rng, burst_bytes, cap_gbps, t.pair_load)) {
      const size_t n = size_t(std::uniform_int_distribution<uint64_t>(t.fanin_min, t.fanin_max)(rng));
      const int rx = dst[std::uniform_int_distribution<size_t>(0, dst.size() - 1)(rng)];
      for (int tx : net::pick_distinct(rng, src, n))
        specs.push_back({at, uint32_t(tx), uint32_t(rx), size_of(cdf.sample(rng))});
    }
  }
  std::stable_sort(specs.begin(), specs.end(), [](const FlowSpec& x, const FlowSpec& y) { return x.start_ps < y.start_ps; });
  return specs;
}

}  // namespace dsh::bench
