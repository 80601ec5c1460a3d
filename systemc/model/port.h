// SPDX-License-Identifier: Apache-2.0
// One direction of a link, as its sending node holds it: eight class FIFOs,
// the class arbiter (DWRR over the lossless classes, class 7 first), the
// flow control the peer's frames set, and the wire. A port tells its owner
// when a packet starts and when a class runs empty (Node), and hands a
// packet whose last bit arrives to the peer's node.
//
// The port's flow control (flow_control.h: level or frame mode) sends what
// its owner's MMU decides about the port's ingress to the peer, and sets
// the port's pause gate from the peer's frames; a paused class stops
// between packets. Flow-control frames go before any queued CNP.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "class_arbiter.h"
#include "flow_control.h"
#include "node.h"
#include "ring.h"

namespace dsh::net {

// The OR gate of spec §6.1 on one egress: class c may start a packet while
// neither its class state nor the port state is paused (the control class
// never is). The flow control sets both states; the gate keeps the time
// each class spent paused.
struct PauseGate {
  std::array<bool, kClasses> q_paused{};
  bool port_paused = false;
  std::array<bool, kClasses> seen{};  // paused(c) as last accounted (and traced)
  std::array<uint64_t, kClasses> paused_ps{}, paused_since{};
  bool paused(unsigned c) const { return c != kControlClass && (q_paused[c] || port_paused); }
  // Accounts the states as they are set at `now`.
  void settle(uint64_t now);
  uint64_t total_ps(unsigned c, uint64_t now) const { return paused_ps[c] + (seen[c] ? now - paused_since[c] : 0); }
};

class Port {
 public:
  Port(NetContext& ctx, Node& owner, int node, int port, const PortSpec& spec);
  // The peer's node (null: none), which takes the packets whose last bit
  // arrives; gives the port its lane in the event queue.
  void connect(Node* peer_node);

  // A packet joins its class's queue (a PAUSE frame ahead of other class-7
  // frames); it starts at once if the wire is free.
  void push(Pkt* p);
  // Starts the arbiter's next packet if the wire is free.
  void try_start();
  FlowControl& flow_control() { return *fc_; }
  const FlowControl& flow_control() const { return *fc_; }
  // The PFC watchdog's drop action on class `cls` (spec §6.9): while on,
  // the class's data packets, queued or arriving, leave through the
  // owner's on_discard instead of the wire.
  void set_discard(unsigned cls, bool on);

  uint64_t ser_ps(uint64_t bytes) const { return uint64_t(double(bytes) * ps_per_byte + 0.5); }
  bool tx_pause(unsigned c) const { return pause.paused(c); }
  uint64_t paused_total_ps(unsigned c, uint64_t now) const { return pause.total_ps(c, now); }
  bool connected() const { return peer >= 0; }
  size_t lossless_queued() const {
    size_t n = 0;
    for (unsigned c = 0; c < kControlClass; ++c) n += q[c].size();
    return n;
  }
  uint64_t queued_bytes() const {
    uint64_t n = 0;
    for (unsigned c = 0; c < kClasses; ++c) n += qbytes[c];
    return n;
  }

  int node = -1, port = -1, peer = -1, peer_port = -1;
  double ps_per_byte = 80;
  uint64_t prop_ps = 0;
  double gbps = 100;
  std::array<Ring<Pkt*>, kClasses> q;
  std::array<uint64_t, kClasses> qbytes{};
  uint64_t rx_bytes = 0;  // bytes that entered the queues so far (PowerTCP's INT)
  ClassArbiter arb{1600};
  bool busy = false;
  PauseGate pause;
  uint64_t last_start_ps = 0;  // when a lossless packet last started (deadlock detector)
  std::array<bool, kClasses> discard{};  // set_discard's state
  uint64_t discarded = 0;                // packets the watchdog dropped
  // Hands a packet that starts now to the link, `ser` ps of serialization;
  // empty: the port delivers it to the peer's node after ser + prop_ps.
  std::function<void(Pkt*, uint64_t ser)> wire;

 private:
  NetContext* ctx_;
  Node* owner_;
  std::unique_ptr<FlowControl> fc_;
  void drop(Pkt* p);

  Node* peer_node_ = nullptr;
  uint32_t lane_ = 0;  // the event-queue lane of its packets in flight
};

// The ports of topology node `node`, owned by `owner`.
std::vector<Port> make_ports(NetContext& ctx, Node& owner, int node);

}  // namespace dsh::net
