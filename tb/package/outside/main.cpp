// SPDX-License-Identifier: Apache-2.0
// Three enqueues into an empty SIH MMU, worked out by hand
// (spec §1.4, §3.1, §4.3):
// 2 ports x 1 queue, B = 100, phi = 4, eta = 10, so B_s = 100 - 2*4 - 2*10
// = 72 and T = (B_s - S) >> 3: 9 at S = 0, 8 at S = 3.
#include <cstdio>

#include "mmu.h"

int main() {
  dsh::Config c;
  c.n_ports = 2; c.n_queues = 1; c.scheme = dsh::Scheme::SIH;
  c.buffer_cells = 100; c.private_cells = 4; c.headroom_cells = 10; c.alpha_log2 = -3;
  dsh::Mmu m(c);
  auto enq = [&](uint32_t cells) { dsh::CycleIn in; in.enq = {true, 0, 0, cells}; return m.step(in).region; };
  const bool ok = m.shared_cells() == 72
      && enq(3) == dsh::Region::Private    // 0 + 3 <= phi
      && enq(3) == dsh::Region::Shared     // 3 + 3 > phi; shared 0 + 3 <= T
      && enq(8) == dsh::Region::Headroom   // shared 3 + 8 > T; headroom 0 + 8 <= eta
      && m.last().n_events == 1 && m.last().events[0].str() == "PAUSE 0.0"
      && m.s() == 3 && m.queue(0, 0).total() == 14 && m.check_invariants().empty();
  std::printf("%s: %s\n", ok ? "ok" : "FAILED", m.queue(0, 0).qoff ? "queue 0.0 paused" : "queue 0.0 not paused");
  return ok ? 0 : 1;
}
