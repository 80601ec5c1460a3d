// SPDX-License-Identifier: Apache-2.0
// Mmu::check_invariants(): the invariants of spec §8 (the counters sum up,
// the limits hold), the model's self-check.
#include <string>
#include <vector>

#include "mmu.h"

namespace dsh {

std::vector<std::string> Mmu::check_invariants() const {
  std::vector<std::string> bad;
  auto fail = [&](const std::string& what) { bad.push_back("cycle " + std::to_string(cycle_) + ": " + what); };
  uint64_t sum_all = 0, sum_s = 0;
  for (uint32_t p = 0; p < cfg_.n_ports; ++p) {
    uint64_t ps = 0, ph = 0;
    for (uint32_t q = 0; q < cfg_.n_queues; ++q) {
      const QueueState& qs = queue(p, q);
      const std::string at = " at " + std::to_string(p) + "." + std::to_string(q);
      if (qs.priv > cfg_.private_cells) fail("priv " + std::to_string(qs.priv) + " > private_cells" + at);
      if (cfg_.scheme == Scheme::SIH && qs.hdrm > cfg_.headroom_of(p))
        fail("hdrm " + std::to_string(qs.hdrm) + " > its port's eta " + std::to_string(cfg_.headroom_of(p)) + at);
      ps += qs.shared;
      ph += qs.hdrm;
      sum_all += qs.total();
    }
    const std::string at = " at port " + std::to_string(p);
    if (ps != ports_[p].shared) fail("port_shared " + std::to_string(ports_[p].shared) + " != sum " + std::to_string(ps) + at);
    if (ph != ports_[p].hdrm) fail("port_hdrm " + std::to_string(ports_[p].hdrm) + " != sum " + std::to_string(ph) + at);
    if (cfg_.scheme == Scheme::DSH && ph > cfg_.headroom_of(p))
      fail("port_hdrm " + std::to_string(ph) + " > its eta " + std::to_string(cfg_.headroom_of(p)) + at);
    if (cfg_.scheme == Scheme::SIH && ports_[p].poff) fail("poff set under SIH" + at);
    sum_s += ps;
  }
  if (sum_s != s_) fail("S " + std::to_string(s_) + " != sum of shared " + std::to_string(sum_s));
  if (s_ > bs_) fail("S " + std::to_string(s_) + " > B_s " + std::to_string(bs_));
  if (sum_all != buffered_) fail("priv+shared+hdrm " + std::to_string(sum_all) + " != cells buffered " + std::to_string(buffered_));
  return bad;
}

}  // namespace dsh
