// SPDX-License-Identifier: Apache-2.0
// The switch model: a network of shared-buffer switches (switch.h) and
// hosts (host.h), each owning its ports (port.h), whose timed actions are
// callbacks in one event queue ordered by (time, phase, sequence number)
// (event_queue.h), so that the model, not a simulation kernel, orders
// same-time events. The single-switch scenarios are the one-switch
// topology (single_switch.h); the others are networks. The queue is run
// either directly (run.kernel = events) or by the SystemC kernel through
// TLM-2.0 sockets (tlm_netlist.h); both give the same results.
//
// The Fabric owns the nodes, the event queue, the packet pool and the
// flows, and wires each port to its peer's node. Scenario knowledge stays
// outside: a scenario watches through the hooks (Observers: on_control,
// on_retire, on_deliver, ...).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "host.h"
#include "node.h"
#include "port.h"
#include "switch.h"
#include "switch_mmu.h"
#include "topology.h"

namespace dsh::net {

class Fabric : public Observers {
 public:
  // chips[s]: the chip of switch s (its headroom_cells already set).
  Fabric(const Topology& topo, const std::vector<ChipSpec>& chips, const FabricParams& p);
  Fabric(const Topology& topo, std::vector<SwitchChip> chips, const FabricParams& p);
  ~Fabric();

  EventQueue& events() { return ev_; }
  const Topology& topo() const { return topo_; }
  const FabricParams& params() const { return p_; }
  std::vector<NetFlow>& flows() { return flows_; }
  // Adds a flow; it starts at start_ps (kNever: when start_flow_at says).
  // Returns its index. Flows are added before the run.
  static constexpr uint64_t kNever = ~uint64_t(0);
  int32_t add_flow(uint32_t src, uint32_t dst, uint8_t cls, uint64_t bytes, uint64_t start_ps, int group);
  void start_flow_at(int32_t flow, uint64_t t_ps);
  // Runs the events up to until_ps (or until stop()): on the event queue
  // itself, or through `kernel` when one is set (the SystemC netlist).
  void run(uint64_t until_ps);
  void stop() { ev_.stop(); }
  std::function<void(uint64_t until_ps)> kernel;

  const SwitchStats& stats(int sw) const { return sw_.at(size_t(sw))->stats(); }
  uint64_t forwarded() const;  // packets all switches started on an egress link
  uint64_t lossless_drops() const;
  MmuModel& mmu(int sw) { return sw_.at(size_t(sw))->clock().model(); }
  const Port& tx(int node, int port) const { return node_ports_.at(size_t(node))->at(size_t(port)); }
  Port& tx_port(int node, int port) { return node_ports_.at(size_t(node))->at(size_t(port)); }
  std::string error;  // a lockstep mismatch or protocol error stops the run
  uint64_t reordered() const;

  // A packet whose last bit reaches `port` of `node` now.
  void receive(int node, int port, Pkt* p) { nodes_[size_t(node)]->receive(port, p); }
  Pkt* alloc() { return pool_.alloc(); }
  void release(Pkt* p) { pool_.release(p); }
  IntStack& telemetry(const Pkt& p) { return pool_.telemetry(p); }
  const pfc::Frame& frame(const Pkt& p) const { return pool_.frame(p); }  // a frame-mode PAUSE frame's bytes
  size_t telemetry_slots() const { return pool_.telemetry_slots(); }  // a valid Pkt::tel is below this

 private:
  void start_flow(int32_t f);

  const Topology& topo_;
  FabricParams p_;
  EventQueue ev_;
  PacketPool pool_;
  std::vector<NetFlow> flows_;
  std::mt19937_64 rng_;
  NetContext ctx_;
  std::vector<std::unique_ptr<Switch>> sw_;
  std::vector<std::unique_ptr<Host>> hosts_;
  std::vector<Node*> nodes_;                    // [node]
  std::vector<std::vector<Port>*> node_ports_;  // [node]
  uint32_t start_lane_ = 0;  // flow starts, scheduled in time order by most scenarios
};

}  // namespace dsh::net
