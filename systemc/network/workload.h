// SPDX-License-Identifier: Apache-2.0
// Traffic of the network scenarios: flow sizes drawn from a CDF file,
// Poisson arrivals at a target load, fan-in bursts of N senders.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace dsh::net {

// A flow-size distribution: points (bytes, cumulative probability 0..1),
// sizes between points interpolated linearly in probability.
class SizeCdf {
 public:
  // Points in increasing order of both columns, the last at probability 1.
  // Throws dsh::InputError naming `what` otherwise.
  SizeCdf(std::vector<std::pair<double, double>> points, const std::string& what);
  // A file of "bytes percent" lines ('#' comments); the last percent is 100.
  static SizeCdf load(const std::string& path);
  // The size at cumulative probability u in [0, 1], at least 1 byte.
  uint64_t at(double u) const;
  template <class Rng>
  uint64_t sample(Rng& rng) const {
    return at(std::uniform_real_distribution<double>(0, 1)(rng));
  }
  double mean_bytes() const;

 private:
  std::vector<std::pair<double, double>> pts_;
};

// A flow of `bytes` rounded up to whole packets of `pkt` bytes (the
// headroom, spec §1.3, counts the cells of full packets).
inline uint64_t whole_packets(uint64_t bytes, uint64_t pkt) { return (bytes + pkt - 1) / pkt * pkt; }
// The mean of the CDF's sizes rounded up to whole packets, from 200,000
// samples drawn with `seed` (what a load of rounded flows is computed from).
double mean_whole_packets(const SizeCdf& cdf, uint64_t pkt, uint64_t seed);

// Time to the next arrival of a Poisson process whose flows of mean size
// `mean_bytes` load a link of `gbps` to `load` (0..1]: exponential with mean
// mean_bytes*8 / (load * gbps) ns. Returns picoseconds.
template <class Rng>
uint64_t poisson_gap_ps(Rng& rng, double mean_bytes, double gbps, double load) {
  const double mean_ps = mean_bytes * 8000.0 / (load * gbps);
  return uint64_t(std::exponential_distribution<double>(1.0 / mean_ps)(rng) + 0.5);
}

// k distinct members of `pool` chosen uniformly (partial Fisher-Yates).
template <class Rng>
std::vector<int> pick_distinct(Rng& rng, std::vector<int> pool, size_t k) {
  if (k > pool.size()) k = pool.size();
  for (size_t i = 0; i < k; ++i) {
    const size_t j = i + size_t(std::uniform_int_distribution<size_t>(0, pool.size() - 1 - i)(rng));
    std::swap(pool[i], pool[j]);
  }
  pool.resize(k);
  return pool;
}

}  // namespace dsh::net
