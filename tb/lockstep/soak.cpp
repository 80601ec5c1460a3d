// SPDX-License-Identifier: Apache-2.0
// Lockstep soak: RTL against the golden model (default compare: outputs and
// touched entries every cycle, every entry every kFullCompareEvery cycles)
// for many cycles over both schemes, every threshold latency and one or a
// per-port eta, on the parameter sets built into this binary. The run is
// cut into chunks of one configuration each; chunk i draws its seed and
// knobs from the soak's seed and runs exactly as `dsh-run -n CHUNK -s SEED
// <configuration>` does, so a failing chunk is rerun (with its trace and
// .gtkw) from the command printed. docs/guide/debugging.md.
//
//   lockstep_soak [--seed S] [--cycles N] [--chunk C] [--progress P] [--fault F]
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "configs.h"
#include "mmu_model.h"
#include "traffic.h"

namespace dsh {
namespace {

struct Soak {
  uint64_t seed = 1, cycles = 100000000, chunk = 1000000, progress = 10000000;
  unsigned fault = 0;  // a planted fault (tb/faults/dsh_faults.sv): shows the soak fails and its rerun line
};

// Both schemes at each threshold latency, one eta and eta per port.
struct Setup {
  const char* variant;
  bool port_eta;
};
const Setup kSetups[] = {
    {"p3q3_dsh_l1", false}, {"p32q7_dsh_l2", false}, {"p5q6_dsh_l3", false},
    {"p4q8_sih_l1", false}, {"p32q7_sih_l2", false}, {"p3q3_sih_l3", false},
    {"p3q3_dsh_l1", true},  {"p32q7_dsh_l2", true},  {"p5q6_dsh_l3", true},
    {"p4q8_sih_l1", true},  {"p32q7_sih_l2", true},  {"p3q3_sih_l3", true},
};

// The seed of chunk i: splitmix64 of the soak's seed and i.
uint64_t chunk_seed(uint64_t seed, uint64_t i) {
  uint64_t z = seed * 0x9e3779b97f4a7c15ull + i + 1;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (z ^ (z >> 31)) >> 1;  // below 2^63: a plain positive number on any command line
}

std::string rerun_command(const Config& c, uint64_t cycles, uint64_t seed, unsigned fault) {
  std::string s = "build/tools/dsh-run -n " + std::to_string(cycles) + " -s " + std::to_string(seed) +
                  " --n_ports=" + std::to_string(c.n_ports) + " --n_queues=" + std::to_string(c.n_queues) +
                  " --scheme=" + to_string(c.scheme) + " --thresh_latency=" + std::to_string(c.thresh_latency) +
                  " --buffer_cells=" + std::to_string(c.buffer_cells) + " --private_cells=" +
                  std::to_string(c.private_cells);
  s += c.per_port_headroom() ? " --port_headroom_cells=" + port_headroom_text(c.port_headroom_cells)
                             : " --headroom_cells=" + std::to_string(c.headroom_cells);
  s += " --alpha_log2=" + std::to_string(c.alpha_log2) + " --port_mult_log2=" + std::to_string(c.port_mult_log2) +
       " --delta_q=" + std::to_string(c.delta_q) + " --delta_p=" + std::to_string(c.delta_p);
  if (fault) s += " --fault " + std::to_string(fault);
  return s;
}

uint64_t number(const char* flag, const char* text, uint64_t lo) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (!*text || *end || errno || text[0] == '-' || v < lo) {
    std::cerr << "lockstep_soak: error: " << flag << " = '" << text << "': expected an integer >= " << lo << '\n';
    std::exit(2);
  }
  return v;
}

int run(const Soak& o) {
  std::vector<const RtlVariant*> variants;
  for (const Setup& s : kSetups) {
    const RtlVariant* v = nullptr;
    for (const auto& x : rtl_variants())
      if (std::string(x.name) == s.variant) v = &x;
    if (!v) {
      std::cerr << "lockstep_soak: error: parameter set " << s.variant
                << " is not built into this binary (DSH_RTL_VARIANT_FILTER?)\n";
      return 2;
    }
    variants.push_back(v);
  }
  std::printf("lockstep soak: seed %llu, %llu cycles in chunks of %llu over %zu configurations\n"
              "rerun: lockstep_soak --seed %llu --cycles %llu --chunk %llu\n",
              (unsigned long long)o.seed, (unsigned long long)o.cycles, (unsigned long long)o.chunk,
              std::size(kSetups), (unsigned long long)o.seed, (unsigned long long)o.cycles,
              (unsigned long long)o.chunk);
  std::fflush(stdout);
  const auto t0 = std::chrono::steady_clock::now();
  uint64_t done = 0, next_report = o.progress;
  for (uint64_t i = 0; done < o.cycles; ++i) {
    const Setup& setup = kSetups[i % std::size(kSetups)];
    const RtlVariant& v = *variants[i % std::size(kSetups)];
    const uint64_t seed = chunk_seed(o.seed, i), n = std::min(o.chunk, o.cycles - done);
    const Config c = setup.port_eta ? config_with_port_eta(v, seed) : config_for(v, seed);
    LockstepOptions lo;
    lo.tag = "seed=" + std::to_string(seed);
    lo.fst_dir = "soak_traces";
    try {
      std::filesystem::create_directories(lo.fst_dir);
      RtlOptions ro;
      ro.fault = o.fault;
      auto m = make_lockstep(v, c, lo, ro);
      TrafficOptions to;  // as dsh-run's defaults
      to.seed = seed;
      Traffic t(c, v.widths, to);
      for (uint64_t k = 0; k < n; ++k) m->step(t.next(*m));
      m->finish();
    } catch (const MismatchError& e) {
      std::cerr << e.what() << "\nlockstep_soak: chunk " << i << " (" << v.name << ", " << c.describe()
                << ") failed after " << done << " soak cycles; rerun it alone:\n  " << rerun_command(c, n, seed, o.fault)
                << "\n";
      return 1;
    }
    done += n;
    if (done >= next_report || done == o.cycles) {
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const double rate = double(done) / s;
      std::fprintf(stderr, "soak: %llu / %llu cycles (%.0f %%), %.2f M cycles/s, %.0f s, ETA %.0f s\n",
                   (unsigned long long)done, (unsigned long long)o.cycles, 100.0 * double(done) / double(o.cycles),
                   rate / 1e6, s, double(o.cycles - done) / rate);
      while (next_report <= done) next_report += o.progress;
    }
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("matched %llu cycles in %.0f s (%.2f M cycles/s), seed %llu\n", (unsigned long long)done, s,
              double(done) / s / 1e6, (unsigned long long)o.seed);
  return 0;
}

}  // namespace
}  // namespace dsh

int main(int argc, char** argv) {
  dsh::Soak o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc ||
        (a != "--seed" && a != "--cycles" && a != "--chunk" && a != "--progress" && a != "--fault")) {
      std::cerr << "lockstep_soak: error: '" << a
                << "': usage: lockstep_soak [--seed S] [--cycles N] [--chunk C] [--progress P] [--fault F]\n";
      return 2;
    }
    const char* v = argv[++i];
    if (a == "--seed") o.seed = dsh::number("--seed", v, 0);
    if (a == "--cycles") o.cycles = dsh::number("--cycles", v, 1);
    if (a == "--chunk") o.chunk = dsh::number("--chunk", v, 1);
    if (a == "--progress") o.progress = dsh::number("--progress", v, 1);
    if (a == "--fault") o.fault = unsigned(std::min<uint64_t>(dsh::number("--fault", v, 1), dsh::kRtlFaults + 1));
  }
  if (o.fault > dsh::kRtlFaults) {
    std::cerr << "lockstep_soak: error: --fault: the planted faults are 1.." << dsh::kRtlFaults << "\n";
    return 2;
  }
  return dsh::run(o);
}
