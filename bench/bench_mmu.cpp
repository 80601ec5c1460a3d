// SPDX-License-Identifier: Apache-2.0
// Benchmark (not a test): MMU cycles per second of the 32 x 7 DSH chip, for
// the Verilated RTL stepped from C++ and for the golden model, on the same
// pre-generated stimulus with an enqueue every cycle and a dequeue whenever
// the chosen queue holds cells. Both run in this one process, so the ratio
// is robust to a noisy machine.
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>

#include "mmu_model.h"
#include "traffic.h"

namespace {
uint64_t step(dsh::MmuModel& m, const dsh::CycleIn& in) { return m.step(in).s; }
uint64_t step(dsh::MmuModel& m, const dsh::LaneCycleIn& in) { return m.step_lanes(in).s; }

template <class In>
double run(dsh::MmuModel& m, const std::vector<In>& stim) {
  const auto t0 = std::chrono::steady_clock::now();
  uint64_t sink = 0;
  for (const auto& in : stim) sink += step(m, in);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (sink == 42) std::puts("");  // keep the loop
  return double(stim.size()) / s;
}

// The best cycles/s of each model over the repeats, interleaved so that a
// noisy machine affects all alike; light 0 when the chip has no light build.
struct Best {
  double rtl = 0, light = 0, gold = 0;
};
template <class In>
Best best_of(const dsh::Config& cfg, const std::vector<In>& stim, int repeats) {
  const auto widths = dsh::find_rtl_variant(cfg).widths;
  dsh::RtlOptions light;
  light.light = true;
  const bool has_light = dsh::find_rtl_variant(cfg, light).light;
  Best b;
  for (int r = 0; r < repeats; ++r) {
    b.rtl = std::max(b.rtl, run(*dsh::make_rtl(cfg), stim));
    if (has_light) b.light = std::max(b.light, run(*dsh::make_rtl(cfg, light), stim));
    b.gold = std::max(b.gold, run(*dsh::make_golden(cfg, widths), stim));
  }
  return b;
}

// The chip with lanes (--lanes N: N lanes, N dequeue slots) at full load
// (Traffic::next_lanes, no errors).
int bench_lanes(dsh::Config cfg, unsigned lanes, uint64_t cycles, int repeats, const std::string& scheme) {
  cfg.lanes = cfg.deq_per_cycle = lanes;
  const auto widths = dsh::find_rtl_variant(cfg).widths;
  dsh::TrafficOptions to;
  to.error_rate = 0;
  std::vector<dsh::LaneCycleIn> stim;
  stim.reserve(cycles);
  uint64_t enq = 0, deq = 0;
  {
    auto g = dsh::make_golden(cfg, widths);
    dsh::Traffic t(cfg, widths, to);
    for (uint64_t i = 0; i < cycles; ++i) {
      stim.push_back(t.next_lanes(*g));
      g->step_lanes(stim.back());
      for (unsigned l = 0; l < lanes; ++l) enq += stim.back().enq[l].valid, deq += stim.back().deq[l].valid;
    }
  }
  const Best b = best_of(cfg, stim, repeats);
  std::printf("dsh_mmu %u x %u %s, %u lanes, %u dequeue slots, %llu cycles at full load: %.1f enqueue and %.1f "
              "dequeue slots filled a cycle\n",
              cfg.n_ports, cfg.n_queues, scheme.c_str(), lanes, lanes, (unsigned long long)cycles,
              double(enq) / double(cycles), double(deq) / double(cycles));
  std::printf("  RTL (Verilator, stepped from C++): %8.3f M cycles/s  (checked: assertions, trace)\n", b.rtl / 1e6);
  if (b.light > 0)
    std::printf("  RTL, light build:                  %8.3f M cycles/s\n", b.light / 1e6);
  std::printf("  golden model:                      %8.3f M cycles/s\n", b.gold / 1e6);
  std::printf("reproduce: build/bench/bench_mmu -n %llu -r %d --scheme %s --lanes %u\n", (unsigned long long)cycles,
              repeats, scheme.c_str(), lanes);
  return 0;
}
}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Cycles per second of dsh_mmu: Verilated RTL vs golden model (32 x 7 DSH by default)."};
  uint64_t cycles = 2000000;
  int repeats = 3;
  std::string scheme = "DSH";
  app.add_option("-n,--cycles", cycles, "cycles per measurement")->capture_default_str()->check(CLI::PositiveNumber);
  app.add_option("-r,--repeats", repeats, "measurements per model (best is kept)")->capture_default_str()
      ->check(CLI::Range(1, 100));
  app.add_option("--scheme", scheme, "DSH or SIH")->capture_default_str();
  unsigned lanes = 1;
  app.add_option("--lanes", lanes, "lanes and dequeue slots (a chip built with them; 1: the one-lane chip)")
      ->capture_default_str()->check(CLI::Range(1, 64));
  CLI11_PARSE(app, argc, argv);

  dsh::Config cfg;
  cfg.scheme = dsh::scheme_from_string(scheme);
  if (lanes > 1) return bench_lanes(cfg, lanes, cycles, repeats, scheme);
  const auto widths = dsh::find_rtl_variant(cfg).widths;
  dsh::TrafficOptions to;
  to.every_cycle = true;
  to.error_rate = 0;
  std::vector<dsh::CycleIn> stim;
  stim.reserve(cycles);
  {
    auto g = dsh::make_golden(cfg, widths);
    dsh::Traffic t(cfg, widths, to);
    for (uint64_t i = 0; i < cycles; ++i) {
      stim.push_back(t.next(*g));
      g->step(stim.back());
    }
  }
  uint64_t deqs = 0;
  for (const auto& in : stim) deqs += in.deq.valid;
  const Best b = best_of(cfg, stim, repeats);
  std::printf("dsh_mmu %u x %u %s, %llu cycles, enqueue every cycle, dequeue in %.0f %% of cycles\n", cfg.n_ports,
              cfg.n_queues, scheme.c_str(), (unsigned long long)cycles, 100.0 * double(deqs) / double(cycles));
  std::printf("  RTL (Verilator, stepped from C++): %8.2f M cycles/s  (checked: assertions, trace)\n", b.rtl / 1e6);
  if (b.light > 0)
    std::printf("  RTL, light build:                  %8.2f M cycles/s  (the switch and network runs' model)\n",
                b.light / 1e6);
  std::printf("  golden model:                      %8.2f M cycles/s\n", b.gold / 1e6);
  std::printf("  golden / RTL:                      %8.2f x\n", b.gold / b.rtl);
  if (b.light > 0) std::printf("  light / checked RTL:               %8.2f x\n", b.light / b.rtl);
  std::printf("reproduce: build/bench/bench_mmu -n %llu -r %d --scheme %s\n", (unsigned long long)cycles, repeats,
              scheme.c_str());
  return 0;
}
