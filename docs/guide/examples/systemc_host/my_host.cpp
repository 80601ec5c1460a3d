// SPDX-License-Identifier: Apache-2.0
// A host module of your own on the switch model's TLM-2.0 sockets
// (docs/guide/systemc-library.md). One switch S0 with three hosts: H0 is this
// module, H1 and H2 are the model's. H0 and H1 each send to H2 at line rate,
// so S0's port toward H2 is oversubscribed and S0 pauses both senders; H2
// sends 1 MB back to H0. The program checks that PAUSE and RESUME frames
// reached H0, that H0 got H2's megabyte whole and in order, and that the
// switch dropped nothing; it exits 0 when all hold.
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdio>
#include <deque>
#include <vector>

#include "fabric.h"        // dsh::net::Fabric, Topology, Pkt: the model (dsh::model)
#include "tlm_netlist.h"   // dsh::tlmnet::Netlist, Link, PacketExtension: its sockets (dsh::tlm)

using namespace dsh;
using sc_core::sc_time;

// A host: an initiator socket toward its switch port, a target socket for
// what the switch sends back. It sends 1500 B packets of one flow back to
// back at its link rate, stopping between packets while paused, and counts
// what arrives.
struct MyHost : sc_core::sc_module {
  SC_HAS_PROCESS(MyHost);
  tlm_utils::simple_initiator_socket<MyHost> out{"out"};
  tlm_utils::simple_target_socket<MyHost> in{"in"};

  uint32_t self = 0, dst = 0;  // host numbers, as the Topology numbers them
  int32_t flow = -1;           // the flow it sends (Fabric::add_flow)
  sc_time byte_time;           // at its link rate
  uint64_t react_bytes = 0;    // a PAUSE acts this long after its last bit arrived

  uint64_t sent = 0, pause_frames = 0, resume_frames = 0;
  uint64_t received_bytes = 0, out_of_order = 0;

  MyHost(sc_core::sc_module_name n, double gbps, const net::FabricParams& fp)
      : sc_module(n), byte_time(8000.0 / gbps, sc_core::SC_PS),
        react_bytes(fp.processing_bytes - fp.pause_frame_bytes) {
    in.register_b_transport(this, &MyHost::receive);
    SC_THREAD(send);
    SC_METHOD(act);
    sensitive << acts_;
    dont_initialize();
  }

  void send() {
    tlm::tlm_generic_payload gp;
    auto* ext = new tlmnet::PacketExtension;  // the payload owns it and frees it
    gp.set_extension(ext);
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    for (;;) {
      while (paused()) wait(resumed_);
      net::Pkt& p = ext->pkt;
      p = net::Pkt{};
      p.kind = net::Pkt::Data;
      p.cls = 0;
      p.src = self;
      p.dst = dst;
      p.bytes = 1500;
      p.flow = flow;
      p.seq = uint32_t(sent);
      gp.set_data_length(p.bytes);
      gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      const sc_time ser = double(p.bytes) * byte_time;
      sc_time delay = ser;  // annotated: its last bit leaves after its serialization
      out->b_transport(gp, delay);
      if (gp.is_response_error()) SC_REPORT_ERROR("my_host", "the switch refused a packet");
      ++sent;
      wait(ser);
    }
  }

  // `delay`: when the packet's last bit arrives, from now.
  void receive(tlm::tlm_generic_payload& gp, sc_time& delay) {
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    const auto* e = gp.get_extension<tlmnet::PacketExtension>();
    if (!e) return;
    const net::Pkt& p = e->pkt;
    if (p.kind == net::Pkt::Pause) {
      // Level mode (spec §6.2): PAUSE or RESUME of a class, or of the port.
      if (p.fc.kind == Event::Pause || p.fc.kind == Event::PortPause) ++pause_frames;
      else ++resume_frames;
      pending_.push_back(p.fc);
      acts_.notify(delay + double(react_bytes) * byte_time);  // spec §7.1: after the reaction time
    } else if (p.kind == net::Pkt::Data) {
      received_bytes += p.bytes;
      if (p.seq != next_seq_) ++out_of_order;
      next_seq_ = p.seq + 1;
    }
  }

 private:
  bool paused() const { return class0_paused_ || port_paused_; }
  // The frames act in the order they came: each one reacts after the same time.
  void act() {
    const Event e = pending_.front();
    pending_.pop_front();
    if (e.kind == Event::Pause || e.kind == Event::Resume) {
      if (e.queue == 0) class0_paused_ = e.kind == Event::Pause;
    } else {
      port_paused_ = e.kind == Event::PortPause;
    }
    if (!paused()) resumed_.notify();
  }
  sc_core::sc_event_queue acts_;
  std::deque<Event> pending_;
  sc_core::sc_event resumed_;
  bool class0_paused_ = false, port_paused_ = false;
  uint32_t next_seq_ = 0;
};

int sc_main(int, char**) {
  // The network: links of 100 Gb/s and 2 us (LinkSpec's defaults).
  const net::Topology topo({"S0"}, {"H0", "H1", "H2"}, {{"H0", "S0"}, {"H1", "S0"}, {"H2", "S0"}}, {});
  const int sw = topo.node("S0"), h0 = topo.host("H0"), h1 = topo.host("H1"), h2 = topo.host("H2");

  // The switch's chip: a small DSH MMU (spec §1.2), one lossless class, a
  // 1 MiB buffer, each port's headroom as spec §1.3 asks of its link, with
  // the switch's admission wait and decision latency added to the reaction
  // (spec §7.2). The golden model decides.
  net::ChipSpec chip;
  chip.mmu.n_ports = 4;
  chip.mmu.n_queues = 1;
  chip.mmu.buffer_cells = 4096;
  LinkParams link;
  chip.mmu.headroom_cells = net::auto_headroom_cells(link, chip.mmu.n_ports, chip.mmu.lanes, chip.mmu_clock_ghz);
  chip.mmu.validate();  // throws ConfigError naming a field out of range

  const net::FabricParams fp;
  net::Fabric fab(topo, std::vector<net::ChipSpec>{chip}, fp);
  const int32_t mine = fab.add_flow(h0, h2, 0, 0, net::Fabric::kNever, 0);  // endless, sent by MyHost
  fab.add_flow(h1, h2, 0, 0, 0, 0);                                         // endless, from t = 0
  const uint64_t back_bytes = 1'000'000;
  fab.add_flow(h2, h0, 0, back_bytes, 0, 0);

  // The model's modules, all but H0's; MyHost and its two links take H0's place.
  tlmnet::Netlist netlist(fab, {topo.host_node(h0)});
  const net::PortSpec& nic = topo.ports(topo.host_node(h0)).at(0);
  MyHost host("my_host", nic.gbps, fp);
  host.self = uint32_t(h0);
  host.dst = uint32_t(h2);
  host.flow = mine;
  const uint64_t prop_ps = uint64_t(nic.delay_ns * 1000.0);
  tlmnet::Link up("up", prop_ps), down("down", prop_ps);
  host.out.bind(up.in);
  up.out.bind(*netlist.node(sw).in.at(size_t(nic.peer_port)));
  netlist.node(sw).out.at(size_t(nic.peer_port))->bind(down.in);
  down.out.bind(host.in);

  fab.run(300'000'000);  // 300 us, in ps: sc_start() until then

  const net::SwitchStats& st = fab.stats(0);
  std::printf("my_host: sent %llu packets; got %llu PAUSE and %llu RESUME frames, %llu of %llu bytes from H2 "
              "(%llu out of order); H2 got %llu bytes of it; S0 dropped %llu packets\n",
              (unsigned long long)host.sent, (unsigned long long)host.pause_frames,
              (unsigned long long)host.resume_frames, (unsigned long long)host.received_bytes,
              (unsigned long long)back_bytes, (unsigned long long)host.out_of_order,
              (unsigned long long)fab.flows()[size_t(mine)].delivered, (unsigned long long)st.drops);
  bool ok = fab.error.empty();
  if (!ok) std::printf("my_host: the model stopped: %s\n", fab.error.c_str());
  auto expect = [&](bool c, const char* what) {
    if (!c) std::printf("my_host: FAILED: %s\n", what);
    ok &= c;
  };
  expect(host.pause_frames > 0, "a PAUSE reached my_host");
  expect(host.resume_frames > 0, "a RESUME reached my_host");
  expect(host.received_bytes == back_bytes && host.out_of_order == 0, "H2's megabyte reached my_host whole and in order");
  expect(fab.flows()[size_t(mine)].delivered > 0, "my_host's packets reached H2");
  expect(st.drops == 0 && fab.lossless_drops() == 0, "the switch dropped nothing");
  std::printf("my_host: %s\n", ok ? "passed" : "FAILED");
  return ok ? 0 : 1;
}
