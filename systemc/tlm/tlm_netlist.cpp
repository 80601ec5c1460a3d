// SPDX-License-Identifier: Apache-2.0
#include "tlm_netlist.h"

#include <string>

namespace dsh::tlmnet {

using sc_core::sc_time;

namespace {
uint64_t now_ps() { return uint64_t(sc_core::sc_time_stamp().value()); }

std::string range_text(size_t n) { return n ? "0.." + std::to_string(n - 1) : "none"; }
}  // namespace

std::string packet_fault(net::Fabric& fab, int node, const net::Pkt& p) {
  using net::Pkt;
  const net::Topology& t = fab.topo();
  const size_t hosts = t.n_hosts();
  const auto flows = fab.flows().size();
  if (p.kind > Pkt::Ack)
    return "kind = " + std::to_string(unsigned(p.kind)) + ": not a packet kind (Data 0, Cnp 1, Pause 2, Ack 3)";
  if (p.bytes == 0 || p.bytes > fab.params().mtu_bytes)
    return "bytes = " + std::to_string(p.bytes) + ": outside 1.." + std::to_string(fab.params().mtu_bytes) +
           " (FabricParams::mtu_bytes)";
  if (p.tel != -1 && (p.tel < 0 || size_t(p.tel) >= fab.telemetry_slots()))
    return "tel = " + std::to_string(p.tel) + ": no such telemetry record (-1 for none; " +
           std::to_string(fab.telemetry_slots()) + " records)";
  if (p.kind == Pkt::Pause) {
    if (p.fc.kind > Event::PortResume)
      return "fc.kind = " + std::to_string(unsigned(p.fc.kind)) +
             ": not a flow-control event (Pause 0, Resume 1, PortPause 2, PortResume 3)";
    if (p.fc.queue >= kControlClass)
      return "fc.queue = " + std::to_string(p.fc.queue) + ": outside the lossless classes " +
             range_text(kControlClass);
    return "";
  }
  if (p.src >= hosts) return "src = " + std::to_string(p.src) + ": no such host (hosts " + range_text(hosts) + ")";
  if (p.dst >= hosts) return "dst = " + std::to_string(p.dst) + ": no such host (hosts " + range_text(hosts) + ")";
  if (p.flow < 0 || size_t(p.flow) >= flows)
    return "flow = " + std::to_string(p.flow) + ": no such flow (flows " + range_text(flows) +
           "; Fabric::add_flow adds one)";
  const net::NetFlow& f = fab.flows()[size_t(p.flow)];
  // Data goes from the flow's source to its destination; a CNP or an ACK back.
  const bool data = p.kind == Pkt::Data;
  const uint32_t src = data ? f.src : f.dst, dst = data ? f.dst : f.src;
  if (p.src != src || p.dst != dst)
    return "src = " + std::to_string(p.src) + ", dst = " + std::to_string(p.dst) + ": flow " +
           std::to_string(p.flow) + (data ? " goes from host " : "'s CNP and ACK go from host ") +
           std::to_string(src) + " to host " + std::to_string(dst);
  if (data) {
    if (p.cls != f.cls)
      return "cls = " + std::to_string(unsigned(p.cls)) + ": flow " + std::to_string(p.flow) + " is of class " +
             std::to_string(unsigned(f.cls));
    const net::FabricParams& fp = fab.params();
    if (p.dscp > 63 || fp.dscp_queue[p.dscp] != p.cls)
      return "dscp = " + std::to_string(unsigned(p.dscp)) + ": " +
             (p.dscp > 63 ? std::string("outside 0..63") : "names queue " + std::to_string(fp.dscp_queue[p.dscp])) +
             ", the packet is of class " + std::to_string(unsigned(p.cls)) + " (mark class c with FabricParams::class_dscp[c] = " +
             std::to_string(unsigned(fp.class_dscp[p.cls & 7])) + " here)";
    if (t.is_switch(node) && p.cls >= fab.mmu(node).config().n_queues)
      return "cls = " + std::to_string(unsigned(p.cls)) + ": switch " + t.name(node) + "'s chip has classes " +
             range_text(fab.mmu(node).config().n_queues) + " (n_queues)";
  } else if (p.cls != kControlClass) {
    return "cls = " + std::to_string(unsigned(p.cls)) + ": a CNP or an ACK is of the control class " +
           std::to_string(kControlClass);
  }
  if (!t.is_switch(node)) {
    if (p.dst != uint32_t(t.node_host(node)))
      return "dst = " + std::to_string(p.dst) + ": arrived at host " + t.name(node) + " (host " +
             std::to_string(t.node_host(node)) + ")";
    // A flow whose congestion control wants ACKs (PowerTCP) carries telemetry
    // in its data and ACKs: the receiver echoes it, the sender reads it.
    const bool acked = f.cc && f.cc->wants_acks();
    if (acked && p.kind != Pkt::Cnp && p.tel < 0)
      return "tel = -1: flow " + std::to_string(p.flow) + " is a PowerTCP flow, its data and ACKs carry telemetry";
    if (p.kind == Pkt::Ack && !acked)
      return "kind = Ack: flow " + std::to_string(p.flow) + " is not a PowerTCP flow";
  }
  return "";
}

tlm::tlm_extension_base* PacketExtension::clone() const {
  auto* e = new PacketExtension;
  e->pkt = pkt;
  return e;
}

void PacketExtension::copy_from(const tlm::tlm_extension_base& other) {
  pkt = static_cast<const PacketExtension&>(other).pkt;
}

// ------------------------------------------------------------------ Scheduler

Scheduler::Scheduler(sc_core::sc_module_name n, net::EventQueue& q) : sc_module(n), q_(q) {
  // The lockstep RTL evaluates on this thread: more stack than SystemC's default.
  SC_THREAD(run);
  set_stack_size(size_t(16) << 20);
}

void Scheduler::schedule(uint64_t t_ps, net::EventQueue::Action a) {
  q_.at(t_ps, std::move(a));
  if (!running_) wake_.notify(sc_core::SC_ZERO_TIME);
}

void Scheduler::run() {
  for (;;) {
    const uint64_t now = now_ps();
    running_ = true;
    q_.run(now);  // every event due by now, in the queue's order
    running_ = false;
    if (q_.stopped()) break;
    const uint64_t next = q_.next_time();
    if (next > until_) {
      if (now >= until_) break;
      wait(sc_time::from_value(until_ - now), wake_);
    } else if (next == ~uint64_t(0)) {
      wait(wake_);
    } else {
      wait(sc_time::from_value(next - now), wake_);
    }
  }
  sc_core::sc_stop();
}

// ----------------------------------------------------------------------- Node

Node::Node(sc_core::sc_module_name n, net::Fabric& fab, Scheduler& sched, int node)
    : sc_module(n), fab_(fab), sched_(sched), node_(node) {
  const auto& ports = fab.topo().ports(node);
  for (size_t i = 0; i < ports.size(); ++i) {
    const std::string k = std::to_string(i);
    if (ports[i].peer < 0) {  // no link: no sockets
      out.emplace_back();
      in.emplace_back();
      gp_.emplace_back();
      ext_.push_back(nullptr);
      continue;
    }
    out.push_back(std::make_unique<Out>(("out" + k).c_str()));
    in.push_back(std::make_unique<In>(("in" + k).c_str()));
    in.back()->register_b_transport(this, &Node::b_transport, int(i));
    gp_.push_back(std::make_unique<tlm::tlm_generic_payload>());
    ext_.push_back(new PacketExtension);
    gp_.back()->set_extension(ext_.back());
    gp_.back()->set_command(tlm::TLM_WRITE_COMMAND);
    fab.tx_port(node, int(i)).wire = [this, i](net::Pkt* p, uint64_t ser) { send(unsigned(i), p, ser); };
  }
}

void Node::send(unsigned port, net::Pkt* p, uint64_t ser_ps) {
  tlm::tlm_generic_payload& gp = *gp_[port];
  ext_[port]->pkt = *p;
  p->tel = -1;  // PowerTCP's telemetry (Fabric::telemetry) travels with the copy
  fab_.release(p);
  gp.set_data_length(p->bytes);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_time d = sc_time::from_value(ser_ps);
  (*out[port])->b_transport(gp, d);
}

// The annotation is the time to the packet's last bit: it arrives then.
void Node::b_transport(int port, tlm::tlm_generic_payload& gp, sc_time& delay) {
  const PacketExtension* e = gp.get_extension<PacketExtension>();
  const std::string fault = e ? packet_fault(fab_, node_, e->pkt) : "no PacketExtension: not a packet of the model";
  if (!fault.empty()) {
    const std::string msg = std::string(name()) + ".in" + std::to_string(port) + ": packet refused: " + fault;
    gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    SC_REPORT_ERROR("dsh/tlm/packet", msg.c_str());
    return;
  }
  net::Pkt* p = fab_.alloc();
  *p = e->pkt;
  sched_.schedule(now_ps() + uint64_t(delay.value()), [this, port, p] { fab_.receive(node_, port, p); });
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

// ----------------------------------------------------------------------- Link

Link::Link(sc_core::sc_module_name n, uint64_t prop_ps)
    : sc_module(n), in("in"), out("out"), prop_(sc_time::from_value(prop_ps)) {
  in.register_b_transport(this, &Link::b_transport);
}

void Link::b_transport(tlm::tlm_generic_payload& gp, sc_time& delay) {
  delay += prop_;
  out->b_transport(gp, delay);
}

// -------------------------------------------------------------------- Netlist

Netlist::Netlist(net::Fabric& fab, const std::set<int>& external) {
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);  // "stopped by user"
  sched_ = std::make_unique<Scheduler>("scheduler", fab.events());
  const net::Topology& t = fab.topo();
  for (size_t n = 0; n < t.n_nodes(); ++n)
    nodes_.push_back(external.count(int(n)) ? nullptr
                                            : std::make_unique<Node>(t.name(int(n)).c_str(), fab, *sched_, int(n)));
  for (size_t n = 0; n < t.n_nodes(); ++n) {
    if (!nodes_[n]) continue;
    const auto& ports = t.ports(int(n));
    for (size_t i = 0; i < ports.size(); ++i) {
      const net::PortSpec& ps = ports[i];
      if (ps.peer < 0 || !nodes_[size_t(ps.peer)]) continue;  // no link, or the caller's module
      const std::string name = "link_" + t.name(int(n)) + "_" + t.name(ps.peer);
      links_.push_back(std::make_unique<Link>(name.c_str(), fab.tx(int(n), int(i)).prop_ps));
      nodes_[n]->out[i]->bind(links_.back()->in);
      links_.back()->out.bind(*nodes_[size_t(ps.peer)]->in[size_t(ps.peer_port)]);
    }
  }
  fab.kernel = [this](uint64_t until_ps) {
    sched_->set_until(until_ps);
    sc_core::sc_start();
  };
}

Netlist::~Netlist() = default;

}  // namespace dsh::tlmnet
