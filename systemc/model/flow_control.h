// SPDX-License-Identifier: Apache-2.0
// The flow control of one port (one direction of a link, held by its
// sending node): what the port tells its peer when the owner's MMU pauses
// or resumes the port's ingress, and how the peer's frames set the port's
// pause gate (spec §6.1). Two implementations:
//
// - level mode (spec §6.2): each MMU event travels as one control frame
//   carrying the event, which sets or clears its state until the opposite
//   event arrives;
// - frame mode (spec §6.3–§6.5): the events travel as 802.1Qbb PFC frames
//   (classes) and 802.3x PAUSE frames (the port), whose 60 bytes the
//   golden frame builder (golden/pfc.h) writes and the golden parser
//   reads; the receiver keeps a timer per class and one for the port, as
//   expiry times. The sender refreshes a pause before it expires and
//   coalesces the changes a frame waits through into that frame.
//
// In frame mode a switch port may run the PFC watchdog (spec §6.9) on the
// peer's frames, and a host's NIC may storm (FabricParams::storm).
//
// Both act on a frame processing_bytes at link rate after its first bit
// arrived (spec §7.1 item 3), and both send their frames as class 7, ahead
// of any queued CNP.
#pragma once

#include <cstdint>
#include <memory>

#include "node.h"
#include "pfc.h"

namespace dsh::net {

// A port's PFC watchdog counts (spec §6.9): storms detected and restored
// over its classes, PFC frames' class pauses ignored during a storm.
struct WatchdogStats {
  uint64_t storms = 0, restores = 0, pauses_ignored = 0;
};

class FlowControl {
 public:
  virtual ~FlowControl() = default;
  // The owner's MMU paused or resumed a queue of the port's ingress, or the
  // whole port: the peer (the upstream) must follow.
  virtual void send(const Event& e) = 0;
  // A flow-control frame this port queued starts on its wire now.
  virtual void frame_starts(Pkt&) {}
  // A flow-control frame from the peer: its last bit is here now.
  virtual void frame_arrives(Pkt* p) = 0;
  virtual WatchdogStats watchdog() const { return {}; }
  // Classes (bit c) whose watchdog is in a storm now.
  virtual uint8_t storming() const { return 0; }
};

// The flow control of ctx.p.flow_control for `port` (held by the port; the
// port must not move afterwards).
std::unique_ptr<FlowControl> make_flow_control(NetContext& ctx, Port& port);

// The MAC address the model gives port `port` of node `node`: locally
// administered, 02-00-NN-NN-PP-PP.
uint64_t port_mac(int node, int port);

}  // namespace dsh::net
