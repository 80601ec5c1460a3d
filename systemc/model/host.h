// SPDX-License-Identifier: Apache-2.0
// A host: one port (its NIC) and the flows it sends and receives. A sender
// keeps, per class, its started flows in a round robin and gives the NIC
// one packet of the next flow its congestion control lets go (a pacing
// rate, a window) whenever the class's queue runs empty; when none may go
// yet, it wakes at the earliest time one may. A receiver counts bytes,
// checks order, records completion, and answers as the flow's congestion
// control asks: a CNP for an ECN-marked packet (at most once per
// cnp_interval per flow), an ACK with the packet's telemetry for each one.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <vector>

#include "node.h"
#include "port.h"

namespace dsh::net {

class Host final : public Node {
 public:
  // Host `host` (topology node `node`); its first port is its NIC.
  Host(NetContext& ctx, int host, int node);
  Port& nic() { return ports_[0]; }
  std::vector<Port>& ports() { return ports_; }

  // Flow `flow` (sent by this host) starts now.
  void start_flow(int32_t flow);

  void receive(int port, Pkt* p) override;
  void on_tx_start(Port& port, Pkt& p) override;
  void on_tx_empty(Port& port, unsigned cls) override;

 private:
  void refill(unsigned cls);
  void deliver(Pkt* p);
  void send_ack(Pkt& data);
  void ack_arrives(Pkt* ack);

  NetContext& ctx_;
  int host_;
  std::vector<Port> ports_;
  std::array<std::deque<int32_t>, kClasses> active_;  // started flows per class, round robin
  std::array<uint64_t, kClasses> wake_;               // a refill wake-up in the queue, ~0 none
};

}  // namespace dsh::net
