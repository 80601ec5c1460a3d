// SPDX-License-Identifier: Apache-2.0
// The switch model (fabric.h) as a SystemC netlist: every switch and host is
// an sc_module (Node) with a TLM-2.0 initiator socket per linked port for the
// packets it starts and a target socket per port for the packets that
// arrive; every link direction is an sc_module (Link) between them. A packet
// is a tlm_generic_payload carrying a PacketExtension.
//
// Loosely timed with timing annotation (systemc/README.md says why): the
// sender calls b_transport when a packet starts, annotated with its
// serialization time; the Link adds its propagation delay; the receiving
// Node turns the annotation into an event of the model at now + delay
// (the packet's last bit), without waiting. The model's events run on the
// SystemC kernel through one Scheduler thread that waits until the next
// event's time and runs the events due then in the model's own order
// (time, phase, sequence number), so the SystemC kernel and the plain event
// queue give the same results byte for byte (tb/net/test_kernels.py).
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "fabric.h"

namespace dsh::tlmnet {

// The packet a transaction carries (a copy: the sender keeps nothing).
struct PacketExtension : tlm::tlm_extension<PacketExtension> {
  net::Pkt pkt;
  tlm::tlm_extension_base* clone() const override;
  void copy_from(const tlm::tlm_extension_base& other) override;
};

// Why packet `p` may not arrive at `node` of `fab` through a socket: the
// field, its value and the limit ("dst = 7: no such host (hosts 0..2)"),
// or "" when it may. Checked so that no packet from a module outside the
// model reaches the model's tables with an index out of their range.
std::string packet_fault(net::Fabric& fab, int node, const net::Pkt& p);

// Runs the model's event queue on the SystemC kernel.
class Scheduler : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Scheduler);
  Scheduler(sc_core::sc_module_name n, net::EventQueue& q);
  // An event at t_ps (>= now) from outside the queue's own events (a socket).
  void schedule(uint64_t t_ps, net::EventQueue::Action a);
  void set_until(uint64_t t_ps) { until_ = t_ps; }

 private:
  void run();
  net::EventQueue& q_;
  sc_core::sc_event wake_;
  uint64_t until_ = ~uint64_t(0);
  bool running_ = false;  // inside the queue's events: no wake-up needed
};

// A switch or host of the model. A transaction without a PacketExtension
// or with a packet_fault is reported with SC_REPORT_ERROR (message type
// "dsh/tlm/packet"; by default it throws, out of sc_start and Fabric::run)
// and answered TLM_GENERIC_ERROR_RESPONSE; the packet is not taken.
class Node : public sc_core::sc_module {
 public:
  using Out = tlm_utils::simple_initiator_socket_tagged<Node>;
  using In = tlm_utils::simple_target_socket_tagged<Node>;
  Node(sc_core::sc_module_name n, net::Fabric& fab, Scheduler& sched, int node);
  // Per port of the node (null where the port has no link).
  std::vector<std::unique_ptr<Out>> out;
  std::vector<std::unique_ptr<In>> in;

 private:
  void send(unsigned port, net::Pkt* p, uint64_t ser_ps);
  void b_transport(int port, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  net::Fabric& fab_;
  Scheduler& sched_;
  int node_;
  // Per port: b_transport is blocking, so one payload suffices; it owns its
  // extension (the payload frees it).
  std::vector<std::unique_ptr<tlm::tlm_generic_payload>> gp_;
  std::vector<PacketExtension*> ext_;
};

// One direction of a link: its propagation delay.
class Link : public sc_core::sc_module {
 public:
  Link(sc_core::sc_module_name n, uint64_t prop_ps);
  tlm_utils::simple_target_socket<Link> in;
  tlm_utils::simple_initiator_socket<Link> out;

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  sc_core::sc_time prop_;
};

// Elaborates the whole model: a Node per switch and host, a Link per linked
// direction, bound. Nodes in `external` get no module: the caller binds its
// own sc_module to their peers' sockets (a test's host). Afterwards
// fab.run() runs on the SystemC kernel (sc_start); once per process.
class Netlist {
 public:
  explicit Netlist(net::Fabric& fab, const std::set<int>& external = {});
  ~Netlist();
  Node& node(int n) { return *nodes_.at(size_t(n)); }
  Scheduler& scheduler() { return *sched_; }

 private:
  std::unique_ptr<Scheduler> sched_;
  std::vector<std::unique_ptr<Node>> nodes_;
  std::vector<std::unique_ptr<Link>> links_;
};

}  // namespace dsh::tlmnet
