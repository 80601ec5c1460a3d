// SPDX-License-Identifier: Apache-2.0
// The co-simulation library from outside: the smallest RTL parameter set
// built into dsh::cosim in lockstep with the golden model (step() throws
// MismatchError on any difference), 20 enqueues then the same 20 dequeues.
#include <cstdio>

#include "mmu_model.h"

int main() {
  const auto& vs = dsh::rtl_variants();
  if (vs.empty()) {
    std::printf("no RTL parameter set in this build of dsh::cosim; nothing to run\n");
    return 0;
  }
  const dsh::RtlVariant* v = &vs[0];
  for (const auto& x : vs) if (x.ports * x.queues < v->ports * v->queues) v = &x;
  dsh::Config c;
  c.n_ports = v->ports; c.n_queues = v->queues; c.scheme = v->scheme; c.thresh_latency = v->latency;
  c.buffer_cells = uint64_t(1) << (v->widths.cell_w - 1);
  c.private_cells = 2; c.headroom_cells = 4; c.alpha_log2 = -1;
  auto m = dsh::make_lockstep(*v, c, dsh::LockstepOptions{});
  for (uint32_t i = 0; i < 40; ++i) {
    const uint32_t k = i % 20;
    dsh::CycleIn in;
    (i < 20 ? in.enq : in.deq) = {true, k % c.n_ports, k % c.n_queues, 1 + k % 3};
    if (m->step(in).error()) { std::printf("FAILED: protocol error at cycle %u\n", i); return 1; }
  }
  m->finish();
  for (uint32_t p = 0; p < c.n_ports; ++p)
    for (uint32_t q = 0; q < c.n_queues; ++q)
      if (m->queue(p, q).total() != 0) { std::printf("FAILED: queue %u.%u not empty\n", p, q); return 1; }
  std::printf("ok: %s in lockstep, matched %llu cycles\n", v->name, (unsigned long long)m->cycle());
  return 0;
}
