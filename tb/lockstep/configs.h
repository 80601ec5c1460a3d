// SPDX-License-Identifier: Apache-2.0
// Configurations the lockstep regressions and the soak draw for a built-in
// RTL parameter set: knobs from a seed, sizes the traffic fills.
#pragma once

#include <algorithm>
#include <random>

#include "mmu_model.h"

namespace dsh {

// A configuration for a variant: the paper's chip for 32 x 7 (with a smaller
// buffer on odd seeds, so it fills more often), else small sizes that the
// traffic fills quickly. Knobs drawn from the seed.
inline Config config_for(const RtlVariant& v, uint64_t seed) {
  std::mt19937_64 rng(seed * 7919 + 17);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Config c;
  c.n_ports = v.ports;
  c.n_queues = v.queues;
  c.scheme = v.scheme;
  c.thresh_latency = v.latency;
  if (v.ports == 32 && v.queues == 7) {
    if (seed % 2) c.buffer_cells = v.scheme == Scheme::SIH ? 60000 : 16000;
    c.alpha_log2 = pick(-6, 1);
    c.delta_q = pick(0, 1) ? 0 : pick(1, 60);
    c.delta_p = pick(0, 1) ? 0 : pick(1, 200);
  } else {
    const uint64_t cell_max = (uint64_t(1) << v.widths.cell_w) - 1;
    const uint64_t nq = uint64_t(v.ports) * v.queues;
    c.private_cells = pick(0, 4);
    c.headroom_cells = pick(6, 24);
    const uint64_t fixed = nq * c.private_cells + (v.scheme == Scheme::SIH ? nq : v.ports) * c.headroom_cells;
    c.buffer_cells = std::min<uint64_t>(cell_max, fixed + uint64_t(pick(40, 400)));
    c.alpha_log2 = pick(kAlphaLog2Min, kAlphaLog2Max);
    c.delta_q = pick(0, 2) ? 0 : pick(1, 20);
    c.delta_p = pick(0, 2) ? 0 : pick(1, 40);
  }
  c.port_mult_log2 = unsigned(pick(0, int(kPortMultLog2Max)));
  return c;
}

// Headroom per port (spec §1.2): ports of two or three different eta, so
// that the RTL's per-port table, the eta each event carries and the two
// slots' X_qoff/X_qon (spec §9.1, §9.3) are held to the golden model. 32 x 7:
// the mixed-speed chip's 228/828 scaled down by 6 so that random traffic
// fills both kinds; others: eta 6, 15, 24 in turn from a drawn start.
inline Config config_with_port_eta(const RtlVariant& v, uint64_t seed) {
  Config c = config_for(v, seed);
  std::mt19937_64 rng(seed * 104729 + 3);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  if (v.ports == 32 && v.queues == 7) {
    c.port_headroom_cells.assign(24, 38);
    c.port_headroom_cells.insert(c.port_headroom_cells.end(), 8, 138);
    c.buffer_cells = v.scheme == Scheme::SIH ? 30000 : 9000;
  } else {
    const uint64_t cell_max = (uint64_t(1) << v.widths.cell_w) - 1;
    const uint64_t nq = uint64_t(v.ports) * v.queues;
    const uint64_t levels[] = {6, 15, 24};
    uint64_t sum = 0;
    const int first = pick(0, 2);  // neighbouring ports differ
    for (unsigned p = 0; p < v.ports; ++p) {
      c.port_headroom_cells.push_back(levels[(p + first) % 3]);
      sum += c.port_headroom_cells.back();
    }
    const uint64_t fixed = nq * c.private_cells + (v.scheme == Scheme::SIH ? v.queues : 1) * sum;
    c.buffer_cells = std::min<uint64_t>(cell_max, fixed + uint64_t(pick(40, 400)));
  }
  return c;
}

}  // namespace dsh
