// SPDX-License-Identifier: Apache-2.0
// What the network model's parts share and how they meet (ns-3's Node and
// NetDevice): a node (host, switch) owns its ports; a port asks its owner
// through Node when a packet starts on its wire or a class runs empty, and
// hands arriving packets to the peer's node. A node asks its ports through
// Port's own members. Every node reads the network's common state through
// NetContext, which the Fabric owns.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "congestion_control.h"
#include "event_queue.h"
#include "flow.h"
#include "packet.h"
#include "topology.h"

namespace dsh::net {

enum class FlowControlMode : uint8_t { Level, Frames };  // spec §6.2, §6.3

// The switch's DSCP-to-queue table by default: DSCP d to queue d / 8 (the
// "trust DSCP" default of RoCE NICs, spec §6.7).
constexpr std::array<uint8_t, 64> default_dscp_queue() {
  std::array<uint8_t, 64> t{};
  for (unsigned d = 0; d < 64; ++d) t[d] = uint8_t(d / 8);
  return t;
}

// The PFC watchdog of every connected switch port in frame mode (spec §6.9):
// the golden PfcWdog of each lossless class, polled every poll_ps;
// detection and restoration in polls (the defaults: 200 ms each at 100 ms
// polls, spec §6.6's example).
struct WatchdogParams {
  bool enable = false;
  uint64_t poll_ps = 100'000'000'000;
  uint32_t detect_polls = 2, restore_polls = 2;
  uint8_t action = 0;  // pfc::PfcWdog::Action: 0 drop, 1 forward, 2 alert
};

// A host NIC stuck sending PFC frames (spec §6.9): from start_ps it pauses
// class `cls` of its link with a PFC frame every interval_ps; at stop_ps it
// sends XON and falls silent. host < 0: none.
struct StormParams {
  int host = -1;
  uint8_t cls = 0;
  uint64_t start_ps = 0, stop_ps = ~uint64_t(0), interval_ps = 1000000;
};

struct FabricParams {
  uint64_t mtu_bytes = 1500, packet_bytes = 1500;
  uint64_t processing_bytes = 3840, pause_frame_bytes = 64, cnp_bytes = 64;
  uint64_t dwrr_quantum_bytes = 1600;
  FlowControlMode flow_control = FlowControlMode::Level;
  uint16_t pause_quanta = 0xFFFF, refresh_quanta = 0x7FFF;  // frame mode, quanta of 512 bit times
  std::array<uint8_t, 64> dscp_queue = default_dscp_queue();                      // switch: DSCP -> queue
  std::array<uint8_t, kClasses> class_dscp = {0, 8, 16, 26, 32, 40, 48, 56};  // host: class -> DSCP
  WatchdogParams watchdog;  // frame mode only
  StormParams storm;        // frame mode only
  bool dcqcn = false;
  DcqcnParams dcqcn_params;     // line_gbps set per host
  bool powertcp = false;
  PowerTcpParams powertcp_params;  // line_gbps set per host
  uint64_t ack_bytes = 64;      // PowerTCP's ACK frame (class 7)
  double kmin_kb_100g = 400, kmax_kb_100g = 1600, pmax = 0.2;  // KB = 1000 B, scaled by link rate
  double cnp_interval_us = 4;
  uint64_t seed = 1;
  bool full_compare = false;
  unsigned rtl_fault = 0;  // rtl/lockstep: a planted fault of tb/faults/dsh_faults.sv (the checker's self-test)
  std::string mismatch_dir = ".";
  CcKind cc() const { return dcqcn ? CcKind::Dcqcn : powertcp ? CcKind::PowerTcp : CcKind::None; }
};

class Port;

// The scenarios' hooks (unset: nothing is called).
struct Observers {
  std::function<void(int32_t flow, uint32_t bytes)> on_deliver;  // a receiver takes a data packet
  std::function<void(int32_t flow)> on_flow_done;
  std::function<void(int sw, const Event& e)> on_control;       // a PAUSE/RESUME frame leaves for e.port
  // A cycle with input gives its results: its n slots, the dequeues (slot
  // order) then the enqueues (lane order).
  std::function<void(int sw, const Op* slots, unsigned n)> on_retire;
  std::function<void(int sw, const Thresholds& thr)> on_mmu_out;  // every stepped (or skipped) cycle's thresholds
  std::function<void(const Port& port, const Pkt& p)> on_wire;  // a packet starts on a port's wire (captures)
};

// The network's common state, owned by the Fabric.
struct NetContext {
  EventQueue& ev;
  PacketPool& pool;
  const FabricParams& p;
  const Topology& topo;
  std::vector<NetFlow>& flows;
  const Observers& obs;
  std::mt19937_64& rng;  // ECN marking: one stream for the network
  std::string& error;    // a lockstep mismatch or protocol error stops the run
  void fail(const std::string& what) {
    error = what;
    ev.stop();
  }
};

class Node {
 public:
  virtual ~Node() = default;
  // A packet whose last bit reaches `port` now.
  virtual void receive(int port, Pkt* p) = 0;
  // `p` starts on `port`'s wire now (it has left the port's queue).
  virtual void on_tx_start(Port& port, Pkt& p) = 0;
  // `port`'s class `cls` ran empty as its last packet started.
  virtual void on_tx_empty(Port& port, unsigned cls) = 0;
  // The PFC watchdog drops `p`, queued for `port` or arriving for it: it
  // leaves the node's buffer without reaching the wire.
  virtual void on_discard(Port& /*port*/, const Pkt& /*p*/) {}
};

}  // namespace dsh::net
