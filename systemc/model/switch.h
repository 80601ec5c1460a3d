// SPDX-License-Identifier: Apache-2.0
// A shared-buffer switch: its ports, its MMU clock (mmu_clock.h), ECMP
// routing (topology.h) and what happens to a packet on the way through.
// A data packet that arrives goes to the queue its DSCP names
// (FabricParams::dscp_queue) and asks the MMU for admission (an enqueue);
// the results admit it to its egress queue or drop it, and their pause
// events go to the ingress ports' flow control (flow_control.h), which
// tells the peers. A packet
// that starts on an egress wire gives the MMU a dequeue, is ECN-marked
// (DCQCN, RED-like on its class's queue) and stamped with telemetry
// (PowerTCP). Class 7 (PAUSE, CNP, ACK) bypasses the MMU: it is not
// lossless traffic and the paper's model keeps one queue for it.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "mmu_clock.h"
#include "node.h"
#include "port.h"
#include "switch_mmu.h"

namespace dsh::net {

struct SwitchStats : MmuStats {
  uint64_t forwarded = 0, drops = 0, pause_frames = 0, resume_frames = 0, ecn_marked = 0;
};

class Switch final : public Node, private MmuClient {
 public:
  // Switch `sw` of ctx.topo (also its node index), its ports built from the
  // topology.
  Switch(NetContext& ctx, int sw, SwitchChip chip);
  std::vector<Port>& ports() { return ports_; }
  const SwitchStats& stats() const { return st_; }
  MmuClock& clock() { return clock_; }

  void receive(int port, Pkt* p) override;
  void on_tx_start(Port& port, Pkt& p) override;
  void on_tx_empty(Port&, unsigned) override {}
  void on_discard(Port& port, const Pkt& p) override;

 private:
  void mmu_decided(Pkt* p, Region region) override;
  void mmu_event(const Event& e) override;
  void mark_ecn(const Port& port, Pkt& p);

  NetContext& ctx_;
  int id_;
  uint64_t cell_bytes_;
  std::vector<Port> ports_;
  SwitchStats st_;
  MmuClock clock_;
};

}  // namespace dsh::net
