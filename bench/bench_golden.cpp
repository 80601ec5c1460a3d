// SPDX-License-Identifier: Apache-2.0
// Benchmark (not a test): cycles per second of the golden model alone, for
// the one-lane step (step(CycleIn): an enqueue every cycle, a dequeue when
// the chosen queue holds cells, as bench_mmu) and for the multi-event step
// at full load (every lane enqueues and dequeues every cycle, spec §4.7).
// The stimulus is made before the clock starts; the best of the repeats is
// kept.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

#include "mmu.h"

namespace {

template <typename In>
double cycles_per_s(const dsh::Config& cfg, const std::vector<In>& stim, int repeats) {
  double best = 0;
  for (int r = 0; r < repeats; ++r) {
    dsh::Mmu m(cfg);
    uint64_t sink = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (const In& in : stim) sink += m.step(in).s;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (sink == 42) std::puts("");  // keep the loop
    best = std::max(best, double(stim.size()) / s);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Cycles per second of the golden model: the one-lane step and the multi-event step at full load."};
  uint64_t cycles = 1000000;
  int repeats = 3;
  std::string scheme = "DSH";
  unsigned lanes = 32;
  app.add_option("-n,--cycles", cycles, "cycles per measurement")->capture_default_str()->check(CLI::PositiveNumber);
  app.add_option("-r,--repeats", repeats, "measurements (best is kept)")->capture_default_str()->check(CLI::Range(1, 100));
  app.add_option("--scheme", scheme, "DSH or SIH")->capture_default_str();
  app.add_option("--lanes", lanes, "lanes (and dequeue slots) of the full-load run; 0: none")
      ->capture_default_str()
      ->check(CLI::Range(0u, dsh::kLanesMax));
  CLI11_PARSE(app, argc, argv);

  dsh::Config cfg;
  cfg.scheme = dsh::scheme_from_string(scheme);
  std::mt19937_64 rng(1);
  auto pick = [&](uint64_t n) { return uint32_t(rng() % n); };

  std::vector<dsh::CycleIn> one(cycles);
  {
    dsh::Mmu g(cfg);
    for (dsh::CycleIn& in : one) {
      in.enq = dsh::Op{true, pick(cfg.n_ports), pick(cfg.n_queues), 1 + pick(6)};
      const uint32_t p = pick(cfg.n_ports), q = pick(cfg.n_queues);
      const uint64_t held = g.queue(p, q).total();
      if (held) in.deq = dsh::Op{true, p, q, uint32_t(std::min<uint64_t>(held, 1 + pick(8)))};
      g.step(in);
    }
  }
  const double one_rate = cycles_per_s(cfg, one, repeats);
  std::printf("golden %u x %u %s, %llu cycles\n", cfg.n_ports, cfg.n_queues, scheme.c_str(),
              (unsigned long long)cycles);
  std::printf("  1 lane, step(CycleIn):            %8.2f M cycles/s\n", one_rate / 1e6);

  if (lanes) {
    dsh::Config many = cfg;
    many.lanes = lanes;
    many.deq_per_cycle = lanes;
    many.validate();
    // Lane l enqueues to a port of its own and dequeue slot l names a queue
    // of lane l, so every slot is taken; sizes never exceed what a queue holds.
    std::vector<dsh::LaneCycleIn> full(cycles);
    const uint32_t per_lane = cfg.n_ports / lanes;
    dsh::Mmu g(many);
    for (dsh::LaneCycleIn& in : full) {
      for (unsigned l = 0; l < lanes; ++l) {
        in.enq[l] = dsh::Op{true, l + lanes * pick(per_lane), pick(cfg.n_queues), 1 + pick(6)};
        const uint32_t p = l + lanes * pick(per_lane), q = pick(cfg.n_queues);
        const uint64_t held = g.queue(p, q).total();
        if (held) in.deq[l] = dsh::Op{true, p, q, uint32_t(std::min<uint64_t>(held, 1 + pick(8)))};
      }
      g.step(in);
    }
    const double rate = cycles_per_s(many, full, repeats);
    std::printf("  %2u lanes, step(LaneCycleIn), full: %8.2f M cycles/s (%.2f M enqueues/s)\n", lanes, rate / 1e6,
                rate * lanes / 1e6);
  }
  std::printf("reproduce: build/bench/bench_golden -n %llu -r %d --scheme %s --lanes %u\n",
              (unsigned long long)cycles, repeats, scheme.c_str(), lanes);
  return 0;
}
