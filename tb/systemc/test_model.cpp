// SPDX-License-Identifier: Apache-2.0
// Pieces of the switch model on hand-built flows: DWRR on a host's uplink,
// the PAUSE delay of spec §7.1, frame mode's timers and refresh 
// (spec §6.7), and a host module written here, as a user would write one, driving
// the switch's TLM-2.0 sockets.
#include <gtest/gtest.h>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <sstream>

#include "sim.h"
#include "single_switch.h"
#include "tlm_netlist.h"

namespace dsh::sc {
namespace {

std::unique_ptr<MmuModel> delayed_golden(const Params& p) {
  auto m = make_golden(p.mmu_config(Scheme::DSH));
  return make_delayed(std::move(m), kRtlLatency - m->latency());
}

// The one-lane chip at 1 GHz: the times below are worked on its 1 ns cycle.
Params saturate(double run_us) {
  Params p;
  p.set("chip.lanes", "1");
  p.set("chip.deq_per_cycle", "1");
  p.set("chip.mmu_clock_ghz", "1");
  p.backend = Backend::Golden;
  p.kind = Kind::Saturate;
  p.run_us = run_us;
  return p;
}

// Host 0 sends three classes endlessly to host 1 (no congestion anywhere):
// DWRR with a 1600 B quantum gives each class a third of the link, one
// 1500 B packet per round, so after 100 us the delivered bytes differ by at
// most a packet or two, and together fill the link from the first arrival at
// host 1 (two hops: 2 * (2 us + 120 ns) after the start).
TEST(Model, DwrrSharesTheUplinkEqually) {
  SingleSwitch sw(saturate(100), delayed_golden(saturate(100)));
  for (uint8_t c = 0; c < 3; ++c) sw.fabric().add_flow(0, 1, c, 0, 0, kBackground);
  sw.arm();
  sw.fabric().run(~uint64_t(0));
  ASSERT_EQ(sw.fabric().error, "");
  const auto& f = sw.fabric().flows();
  const uint64_t a = f[0].delivered, b = f[1].delivered, c = f[2].delivered;
  const double link_bytes = 12.5 * (100e3 - 2 * (2000 + 120));  // 12.5 B/ns after the first arrival
  EXPECT_NEAR(double(a + b + c), link_bytes, 3 * 1500.0);
  EXPECT_LE(std::max({a, b, c}) - std::min({a, b, c}), 3000u);
}

// One sender into a paused queue: the spec §7.1 delay with an idle reverse
// link is D_prop + processing (3840 B at 100 Gb/s) from the MMU event to the
// sender; the sender then finishes its packet. Measured on the host side: the
// first PAUSE reaches host 0 2000 + 307.2 ns after the MMU cycle that emitted it.
TEST(Model, PauseActsAfterPropagationAndProcessing) {
  // Hosts 0 and 1 fill their queues at C/2 each; the first pause comes at ~118 us.
  SingleSwitch sw(saturate(200), delayed_golden(saturate(200)));
  sw.fabric().add_flow(0, 2, 0, 0, 0, kBackground);
  sw.fabric().add_flow(1, 2, 0, 0, 0, kBackground);
  sw.arm();
  // Sample host 0's pause state and the MMU's qoff every ns (the first
  // pause of host 0 lasts 5 ns: delta_q = 0 lets the queue chatter).
  uint64_t qoff_ps = 0, tx_ps = 0;
  net::EventQueue& ev = sw.events();
  std::function<void()> sample = [&] {
    const uint64_t now = ev.now();
    if (!qoff_ps && sw.mmu().queue(0, 0).qoff) qoff_ps = now;
    if (!tx_ps && sw.nic(0).tx_pause(0)) tx_ps = now;
    if (!tx_ps) ev.after(1'000, sample);
  };
  ev.at(0, sample);
  sw.fabric().run(~uint64_t(0));
  ASSERT_GT(qoff_ps, 0u) << "queue 0.0 never paused";
  ASSERT_GT(tx_ps, 0u) << "host 0 never saw the pause";
  // The event acts at the start of the cycle after qoff shows (1 ns); both
  // sampled on a 1 ns grid; the reverse link toward host 0 carries nothing else.
  EXPECT_NEAR(double(tx_ps - qoff_ps), 2000e3 + 307.2e3, 2e3);
}

// A host as a user writes one: an sc_module with a TLM-2.0 initiator socket
// toward switch port 0 and a target socket for what the switch sends back,
// each through a Link (2 us). It sends 1500 B packets of class 0 back to
// back at 100 Gb/s to host 2 (annotated with their serialization) and
// honours PAUSE/RESUME frames processing_bytes (3840 B) after their first bit.
struct BurstHost : sc_core::sc_module {
  SC_HAS_PROCESS(BurstHost);
  tlm_utils::simple_initiator_socket<BurstHost> out{"out"};
  tlm_utils::simple_target_socket<BurstHost> in{"in"};
  int32_t flow = 0;
  bool paused = false;
  uint64_t sent = 0, pause_frames = 0, paused_at_ps = 0;
  sc_core::sc_event resumed;
  const sc_core::sc_time byte_time{80, sc_core::SC_PS};

  explicit BurstHost(sc_core::sc_module_name n) : sc_module(n) {
    in.register_b_transport(this, &BurstHost::receive);
    SC_THREAD(send);
  }
  void send() {
    tlm::tlm_generic_payload gp;
    auto& ext = *new tlmnet::PacketExtension;  // the payload owns (frees) it
    gp.set_extension(&ext);
    for (;;) {
      while (paused) wait(resumed);
      ext.pkt = net::Pkt{};
      ext.pkt.cls = 0;
      ext.pkt.src = 0;
      ext.pkt.dst = 2;
      ext.pkt.bytes = 1500;
      ext.pkt.flow = flow;
      ext.pkt.seq = uint32_t(sent++);
      sc_core::sc_time delay = 1500 * byte_time;
      out->b_transport(gp, delay);
      wait(1500 * byte_time);
    }
  }
  void receive(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
    const auto* e = gp.get_extension<tlmnet::PacketExtension>();
    if (!e || e->pkt.kind != net::Pkt::Pause) return;
    // Its last bit arrives after `delay`; it acts (3840 - 64) B later.
    const sc_core::sc_time act = delay + (3840 - 64) * byte_time;
    const Event fc = e->pkt.fc;
    if (fc.kind == Event::Pause && fc.queue == 0) ++pause_frames;
    sc_core::sc_spawn([this, act, fc] {
      wait(act);
      paused = fc.kind == Event::Pause || fc.kind == Event::PortPause;
      if (paused && !paused_at_ps) paused_at_ps = uint64_t(sc_core::sc_time_stamp().value());
      if (!paused) resumed.notify();
    });
  }
};

// The test's host on port 0 and the model's host 1 both send to host 2 at
// line rate: switch port 2 is oversubscribed and queue 0.0 pauses (~118 us,
// as above). The first PAUSE reaches the test's host through the sockets and
// acts 2 us + 307.2 ns after the MMU paused its queue. From then on both
// senders are paused alike: the switch drops nothing and admits as much of
// the test's host as of the model's own host (each half the egress).
TEST(Model, TlmHostSeesPauseThroughSockets) {
  const std::string out = run_in_child([] {
    const Params p = saturate(200);
    SingleSwitch sw(p, delayed_golden(p));
    net::Fabric& fab = sw.fabric();
    const int32_t mine = fab.add_flow(0, 2, 0, 0, net::Fabric::kNever, kBackground);  // the test's host sends it
    const int32_t theirs = fab.add_flow(1, 2, 0, 0, 0, kBackground);
    sw.arm();
    const int host0 = sw.topology().host_node(0), switch_node = 0;
    tlmnet::Netlist netlist(fab, {host0});
    BurstHost host("burst_host");
    host.flow = mine;
    tlmnet::Link up("up", 2'000'000), down("down", 2'000'000);
    host.out.bind(up.in);
    up.out.bind(*netlist.node(switch_node).in[0]);
    netlist.node(switch_node).out[0]->bind(down.in);
    down.out.bind(host.in);
    uint64_t qoff_ps = 0;
    net::EventQueue& ev = sw.events();
    std::function<void()> sample = [&] {  // every ns until the queue first pauses
      if (sw.mmu().queue(0, 0).qoff) qoff_ps = ev.now();
      else ev.after(1'000, sample);
    };
    ev.at(0, sample);
    fab.run(~uint64_t(0));
    std::ostringstream m;
    m << fab.error << "|" << qoff_ps << ' ' << host.paused_at_ps << ' ' << host.pause_frames << ' '
      << fab.flows()[size_t(mine)].admitted << ' ' << fab.flows()[size_t(theirs)].admitted << ' ' << fab.stats(0).drops;
    return m.str();
  });
  const auto bar = out.find('|');
  ASSERT_NE(bar, std::string::npos) << out;
  ASSERT_EQ(out.substr(0, bar), "") << out;
  std::istringstream in(out.substr(bar + 1));
  uint64_t qoff = 0, paused_at = 0, frames = 0, mine = 0, theirs = 0, drops = 0;
  ASSERT_TRUE(in >> qoff >> paused_at >> frames >> mine >> theirs >> drops) << out;
  ASSERT_GT(qoff, 0u) << "queue 0.0 never paused";
  ASSERT_GT(frames, 0u) << "no PAUSE reached the test's host";
  ASSERT_GT(paused_at, 0u) << "the PAUSE never acted";
  EXPECT_NEAR(double(paused_at - qoff), 2000e3 + 307.2e3, 2e3);
  EXPECT_EQ(drops, 0u);
  // 200 us, less the first 2 us of link, at C/2 each: ~1.24 MB; equal within 2 %.
  EXPECT_GT(mine, 1'000'000u);
  EXPECT_NEAR(double(mine), double(theirs), 0.02 * double(theirs));
}

// A host that sends one packet, as given, at t = 0, and takes what comes.
struct OnePacketHost : sc_core::sc_module {
  SC_HAS_PROCESS(OnePacketHost);
  tlm_utils::simple_initiator_socket<OnePacketHost> out{"out"};
  tlm_utils::simple_target_socket<OnePacketHost> in{"in"};
  net::Pkt pkt;
  tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
  explicit OnePacketHost(sc_core::sc_module_name n) : sc_module(n) {
    in.register_b_transport(this, &OnePacketHost::receive);
    SC_THREAD(send);
  }
  void receive(tlm::tlm_generic_payload& gp, sc_core::sc_time&) { gp.set_response_status(tlm::TLM_OK_RESPONSE); }
  void send() {
    tlm::tlm_generic_payload gp;
    auto* ext = new tlmnet::PacketExtension;
    ext->pkt = pkt;
    gp.set_extension(ext);
    sc_core::sc_time delay(1500 * 80, sc_core::SC_PS);
    out->b_transport(gp, delay);
    status = gp.get_response_status();
  }
};

// A packet from a host module outside the model, sent to switch port 0
// (host 0's) with one field wrong: the run stops with an error naming the
// field, its value and the limit (SC_REPORT_ERROR, which throws out of
// Fabric::run), not a crash. The first case is a packet to a host that
// does not exist. Without the throw (the report only logged), the sender
// gets TLM_GENERIC_ERROR_RESPONSE and the run goes on.
TEST(Model, SocketRefusesABadPacket) {
  struct Case {
    std::function<void(net::Pkt&)> spoil;
    std::string expect;
  };
  const std::vector<Case> cases = {
      {[](net::Pkt& p) { p.dst = 99; }, "dst = 99: no such host (hosts 0.."},
      {[](net::Pkt& p) { p.src = 77; }, "src = 77: no such host (hosts 0.."},
      {[](net::Pkt& p) { p.flow = 12345; }, "flow = 12345: no such flow (flows 0..0;"},
      {[](net::Pkt& p) { p.bytes = 0; }, "bytes = 0: outside 1..1500"},
      {[](net::Pkt& p) { p.bytes = 9000; }, "bytes = 9000: outside 1..1500"},
      {[](net::Pkt& p) { p.kind = net::Pkt::Kind(9); }, "kind = 9: not a packet kind"},
      {[](net::Pkt& p) { p.cls = 3; }, "cls = 3: flow 0 is of class 0"},
      {[](net::Pkt& p) { p.dst = 0; }, "src = 0, dst = 0: flow 0 goes from host 0 to host 2"},
      {[](net::Pkt& p) { p.tel = 5; }, "tel = 5: no such telemetry record"},
      {[](net::Pkt& p) { p.kind = net::Pkt::Pause; p.fc = Event{Event::Pause, 0, 9}; },
       "fc.queue = 9: outside the lossless classes 0..6"},
  };
  for (bool throws : {true, false}) {
    for (const Case& c : cases) {
      const std::string out = run_in_child([&] {
        const Params p = saturate(20);
        SingleSwitch sw(p, delayed_golden(p));
        net::Fabric& fab = sw.fabric();
        const int32_t flow = fab.add_flow(0, 2, 0, 0, net::Fabric::kNever, kBackground);
        sw.arm();
        tlmnet::Netlist netlist(fab, {sw.topology().host_node(0)});
        if (!throws) sc_core::sc_report_handler::set_actions("dsh/tlm/packet", sc_core::SC_LOG);
        OnePacketHost host("one_packet_host");
        host.pkt.src = 0;
        host.pkt.dst = 2;
        host.pkt.bytes = 1500;
        host.pkt.flow = flow;
        c.spoil(host.pkt);
        host.out.bind(*netlist.node(0).in[0]);
        netlist.node(0).out[0]->bind(host.in);
        fab.run(20'000'000);
        return "ran|" + fab.error + "|" + std::to_string(int(host.status)) + "|" +
               std::to_string(fab.stats(0).forwarded);
      });
      SCOPED_TRACE(c.expect);
      if (throws) {
        EXPECT_EQ(out.rfind("error: ", 0), 0u) << out;
        EXPECT_NE(out.find("switch.in0: packet refused: " + c.expect), std::string::npos) << out;
      } else {
        EXPECT_EQ(out, "ran||" + std::to_string(int(tlm::TLM_GENERIC_ERROR_RESPONSE)) + "|0");
      }
    }
  }
}

// Frame mode (spec §6.7) on an idle link, the switch's flow control of port
// 0 driven by hand: an event at t0 leaves at once as a 64 B frame (5.12 ns
// at 100 Gb/s), its last bit reaches host 0 after D_prop = 2 us, and it acts
// 3840 B (307.2 ns) after its first bit, at t0 + 2307.2 ns. A pause time of
// 100 quanta lasts 100 x 5.12 ns = 512 ns from then. Sampled 1 ps either side.
struct FrameRun {
  std::vector<std::pair<uint64_t, bool>> samples;  // (time, host 0 class c paused)
};

FrameRun frame_run(uint16_t pause, uint16_t refresh, std::vector<std::pair<uint64_t, Event>> events, unsigned cls,
                   const std::vector<uint64_t>& at) {
  Params p = saturate(10);
  p.wire.frames = true;
  p.wire.pause_quanta = pause;
  p.wire.refresh_quanta = refresh;
  SingleSwitch sw(p, delayed_golden(p));
  sw.arm();
  net::EventQueue& ev = sw.events();
  net::Port& to_host0 = sw.fabric().tx_port(0, 0);
  for (const auto& [t, e] : events) ev.at(t, [&to_host0, e = e] { to_host0.flow_control().send(e); });
  FrameRun r;
  for (uint64_t t : at) ev.at(t, [&, t, cls] { r.samples.emplace_back(t, sw.nic(0).tx_pause(cls)); });
  sw.fabric().run(10'000'000);
  return r;
}

constexpr uint64_t kT0 = 1'000'000, kActs = kT0 + 2'000'000 + 307'200;

TEST(Model, FramePauseRunsOutWithoutRefresh) {
  // Refresh 65535 quanta: none within the run; the pause ends after 512 ns.
  const FrameRun r = frame_run(100, 0xFFFF, {{kT0, Event{Event::Pause, 0, 2}}}, 2,
                               {kActs - 1, kActs + 1, kActs + 512'000 - 1, kActs + 512'000 + 1});
  ASSERT_EQ(r.samples.size(), 4u);
  EXPECT_FALSE(r.samples[0].second);
  EXPECT_TRUE(r.samples[1].second);
  EXPECT_TRUE(r.samples[2].second);
  EXPECT_FALSE(r.samples[3].second);
}

TEST(Model, FramePauseRefreshedUntilXon) {
  // Refresh every 60 quanta (307.2 ns) keeps the pause until the RESUME sent
  // at t0 + 1 us acts at t0 + 1 us + 2307.2 ns; the control class never pauses.
  const uint64_t xon = kT0 + 1'000'000 + 2'307'200;
  const std::vector<std::pair<uint64_t, Event>> ev = {{kT0, Event{Event::Pause, 0, 2}},
                                                      {kT0 + 1'000'000, Event{Event::Resume, 0, 2}}};
  const FrameRun r = frame_run(100, 60, ev, 2, {kActs + 1, kActs + 512'000 + 1, xon - 1, xon + 1});
  ASSERT_EQ(r.samples.size(), 4u);
  EXPECT_TRUE(r.samples[0].second);
  EXPECT_TRUE(r.samples[1].second);
  EXPECT_TRUE(r.samples[2].second);
  EXPECT_FALSE(r.samples[3].second);
}

TEST(Model, FramePortPauseStopsEveryLosslessClass) {
  // PORT_PAUSE travels as an 802.3x PAUSE frame: the port timer pauses
  // classes 0..6 (here 5) for its 512 ns, never class 7.
  const std::vector<std::pair<uint64_t, Event>> ev = {{kT0, Event{Event::PortPause, 0, 0}}};
  const FrameRun c5 = frame_run(100, 0xFFFF, ev, 5, {kActs + 1, kActs + 512'000 + 1});
  const FrameRun c7 = frame_run(100, 0xFFFF, ev, 7, {kActs + 1});
  ASSERT_EQ(c5.samples.size(), 2u);
  EXPECT_TRUE(c5.samples[0].second);
  EXPECT_FALSE(c5.samples[1].second);
  EXPECT_FALSE(c7.samples.at(0).second);
}

}  // namespace
}  // namespace dsh::sc
