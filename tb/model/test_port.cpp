// SPDX-License-Identifier: Apache-2.0
// A port on its own: its owner and its peer are recorders. 100 Gb/s is
// 80 ps per byte; the link's propagation delay is 1 us.
#include <gtest/gtest.h>

#include "harness.h"

namespace dsh::net::test {
namespace {

struct PortBench : Bench {
  Recorder owner, peer;
  Port port{ctx, owner, 1, 0, topo.ports(1)[0]};  // host A's NIC toward S
  PortBench() {
    owner.ev = peer.ev = &ev;
    owner.pool = peer.pool = &pool;
    port.connect(&peer);
  }
  Pkt* data(unsigned cls, uint32_t bytes, uint32_t seq) {
    Pkt* p = pool.alloc();
    p->cls = uint8_t(cls);
    p->bytes = bytes;
    p->seq = seq;
    return p;
  }
};

// A 64 B control frame keeps the wire busy while classes 0 and 1 each queue
// three 1000 B packets. DWRR, quantum 1600 B, one quantum per visit:
//   class 0: deficit 1600 -> sends A0, 600 left (< 1000): next class
//   class 1: 1600 -> B0, 600 left
//   class 0: 600 + 1600 = 2200 -> A1 (1200), A2 (200), empty: deficit 0
//   class 1: 600 + 1600 = 2200 -> B1, B2
// Each arrives 1 us after its last bit: the frame at 64 * 80 ps = 5.12 ns,
// then one 1000 B packet every 80 ns.
TEST(Port, DwrrOrderAndArrivalTimes) {
  PortBench b;
  b.port.push(b.pool.control(Pkt::Cnp, 64));
  for (uint32_t i = 0; i < 3; ++i) b.port.push(b.data(0, 1000, i));
  for (uint32_t i = 0; i < 3; ++i) b.port.push(b.data(1, 1000, 10 + i));
  b.ev.run(~uint64_t(0));
  const std::vector<std::pair<unsigned, uint32_t>> order = {{7, 0}, {0, 0}, {1, 10}, {0, 1}, {0, 2}, {1, 11}, {1, 12}};
  ASSERT_EQ(b.peer.got.size(), order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    EXPECT_EQ(b.peer.got[i].cls, order[i].first) << i;
    EXPECT_EQ(b.peer.got[i].seq, order[i].second) << i;
    const uint64_t last_bit = 5120 + 80'000 * i;
    EXPECT_EQ(b.peer.got[i].t, last_bit + 1'000'000) << i;
  }
  // Class 0 ran empty when A2 started (5.12 + 3 * 80 ns), class 1 at B2's.
  ASSERT_EQ(b.owner.emptied.size(), 3u);  // the control class, then 0, then 1
  EXPECT_EQ(b.owner.emptied[1], std::make_pair(0u, uint64_t(5120 + 3 * 80'000)));
  EXPECT_EQ(b.owner.emptied[2], std::make_pair(1u, uint64_t(5120 + 5 * 80'000)));
}

// A PAUSE frame goes before queued CNPs; among PAUSE frames, in order.
TEST(Port, PauseFramesGoBeforeQueuedCnps) {
  PortBench b;
  b.port.push(b.data(0, 1500, 0));  // on the wire
  Pkt* c1 = b.pool.control(Pkt::Cnp, 64);
  c1->seq = 1;
  Pkt* c2 = b.pool.control(Pkt::Cnp, 64);
  c2->seq = 2;
  Pkt* p1 = b.pool.control(Pkt::Pause, 64);
  p1->seq = 3;
  Pkt* p2 = b.pool.control(Pkt::Pause, 64);
  p2->seq = 4;
  for (Pkt* p : {c1, c2, p1, p2}) b.port.push(p);
  b.ev.run(~uint64_t(0));
  ASSERT_EQ(b.peer.got.size(), 5u);
  const uint32_t seqs[] = {0, 3, 4, 1, 2};
  for (size_t i = 0; i < 5; ++i) EXPECT_EQ(b.peer.got[i].seq, seqs[i]) << i;
}

// A PAUSE of class 0 acts (3840 - 64) B * 80 ps = 302.08 ns after its last
// bit arrived (spec §7.1 item 3): the packet on the wire (the third, from
// 240 ns) finishes, the fourth waits for the RESUME, which acts as long
// after its own arrival (1302.08 ns). Class 1 is not paused: its packet,
// queued at 500 ns, goes at once.
TEST(Port, PauseStopsItsClassBetweenPackets) {
  PortBench b;
  for (uint32_t i = 0; i < 5; ++i) b.port.push(b.data(0, 1500, i));  // 120 ns each
  auto frame = [&](Event::Kind k) {
    Pkt* f = b.pool.control(Pkt::Pause, 64);
    f->fc.kind = k;
    f->fc.queue = 0;
    return f;
  };
  b.ev.at(0, [&] { b.port.flow_control().frame_arrives(frame(Event::Pause)); });
  b.ev.at(1'000'000, [&] { b.port.flow_control().frame_arrives(frame(Event::Resume)); });
  b.ev.at(500'000, [&] { b.port.push(b.data(1, 1500, 20)); });
  b.ev.run(~uint64_t(0));
  const std::vector<std::pair<uint32_t, uint64_t>> want = {
      {0, 120'000}, {1, 240'000}, {2, 360'000}, {20, 620'000}, {3, 1'422'080}, {4, 1'542'080}};
  ASSERT_EQ(b.peer.got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(b.peer.got[i].seq, want[i].first) << i;
    EXPECT_EQ(b.peer.got[i].t, want[i].second + 1'000'000) << i;
  }
  EXPECT_EQ(b.port.paused_total_ps(0, b.ev.now()), 1'000'000u);
  EXPECT_EQ(b.port.paused_total_ps(1, b.ev.now()), 0u);
}

// While paused, a class's queued packet waits for the RESUME.
TEST(Port, PausedClassWaitsForResume) {
  PortBench b;
  Pkt* f = b.pool.control(Pkt::Pause, 64);
  f->fc.kind = Event::Pause;
  f->fc.queue = 0;
  b.port.flow_control().frame_arrives(f);  // acts at 302.08 ns
  b.ev.at(400'000, [&] { b.port.push(b.data(0, 1500, 7)); });
  b.ev.at(1'000'000, [&] {
    Pkt* r = b.pool.control(Pkt::Pause, 64);
    r->fc.kind = Event::Resume;
    r->fc.queue = 0;
    b.port.flow_control().frame_arrives(r);  // acts at 1302.08 ns
  });
  b.ev.run(~uint64_t(0));
  ASSERT_EQ(b.peer.got.size(), 1u);
  EXPECT_EQ(b.peer.got[0].t, 1'302'080u + 120'000 + 1'000'000);
}

}  // namespace
}  // namespace dsh::net::test
