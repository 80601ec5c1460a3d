// SPDX-License-Identifier: Apache-2.0
// The PFC watchdog of a switch port in frame mode (spec §6.9), timed by
// hand. Switch S's port toward host A (100 Gb/s: a quantum is 5.12 ns, a
// frame acts 302.08 ns after its last bit, spec §7.1 item 3). Polls every
// 10 us (10, 20, 30, ... us); detection 3 polls, restoration 2.
#include <gtest/gtest.h>

#include <array>

#include "harness.h"

namespace dsh::net::test {
namespace {

constexpr uint64_t kUs = 1'000'000;       // ps
constexpr uint64_t kAct = 302'080;        // a frame's last bit to its action

struct Owner final : Node {
  PacketPool* pool = nullptr;
  unsigned discarded = 0;
  void receive(int, Pkt* p) override { pool->release(p); }
  void on_tx_start(Port&, Pkt&) override {}
  void on_tx_empty(Port&, unsigned) override {}
  void on_discard(Port&, const Pkt&) override { ++discarded; }
};

struct WdogBench : Bench {
  Owner owner;
  Recorder peer;
  std::unique_ptr<Port> port;
  explicit WdogBench(uint8_t action) {
    p.flow_control = FlowControlMode::Frames;
    p.watchdog = WatchdogParams{true, 10 * kUs, 3, 2, action};
    owner.pool = peer.pool = &pool;
    peer.ev = &ev;
    port = std::make_unique<Port>(ctx, owner, 0, 0, topo.ports(0)[0]);  // S toward A
    port->connect(&peer);
  }
  // A PFC frame from A enabling class 0 with `quanta` arrives (last bit) at t.
  void pfc_at(uint64_t t, uint16_t quanta) {
    ev.at(t, [this, quanta] {
      Pkt* f = pool.control(Pkt::Pause, 64);
      std::array<uint16_t, pfc::kMaxClasses> times{};
      times[0] = quanta;
      pfc::MacControl m;
      m.opcode = pfc::kOpPfc;
      m.words = pfc::pfc_words(1, times);
      pool.add_frame(*f, pfc::build_frame(m));
      port->flow_control().frame_arrives(f);
    });
  }
  void data_at(uint64_t t, uint32_t seq) {
    ev.at(t, [this, seq] {
      Pkt* d = pool.alloc();
      d->cls = 0;
      d->bytes = 1500;
      d->seq = seq;
      port->push(d);
    });
  }
  // Samples f() at t.
  template <class F>
  void at(uint64_t t, F f) {
    ev.at(t, f);
  }
};

// A storm: a frame pausing class 0 for 0xFFFF quanta (335.5 us) every
// microsecond from 0.5 us to 60.5 us. The class is paused from 0.802 us on.
//   poll 10: paused, but not at the last poll: the count starts at 0
//   polls 20, 30, 40: paused at this and the last poll, frames, no
//     unpause: counts 1, 2, 3 -> storm at 40 us (detection 30 us after the
//     first poll that saw the pause)
//   drop: the packet queued since 5 us and one arriving at 41 us are
//     dropped; frames acting after 40 us (40.802 .. 60.802, 21) are
//     ignored pauses
//   poll 70: a frame (60.802) since poll 60: count 0; polls 80, 90: none:
//     1, 2 -> restored at 90 us; the last frame's timer (to 396.3 us)
//     pauses the class again, and a packet pushed at 95 us waits.
TEST(Watchdog, DetectsDropsAndRestoresOnThePollGrid) {
  WdogBench b(0);
  for (uint64_t k = 0; k <= 60; ++k) b.pfc_at(k * kUs + kUs / 2, 0xFFFF);
  b.data_at(5 * kUs, 1);
  b.data_at(41 * kUs, 2);
  b.data_at(95 * kUs, 3);
  std::vector<std::pair<uint64_t, bool>> storm, paused;
  for (uint64_t t : {1 * kUs, 39 * kUs + 999'999, 40 * kUs + 1, 89 * kUs + 999'999, 90 * kUs + 1}) {
    b.at(t, [&b, &storm, &paused, t] {
      storm.emplace_back(t, b.port->flow_control().storming() & 1);
      paused.emplace_back(t, b.port->tx_pause(0));
    });
  }
  b.at(45 * kUs, [&b] { EXPECT_EQ(b.owner.discarded, 2u) << "queued and arriving packets dropped by 45 us"; });
  b.ev.run(200 * kUs);
  const std::vector<bool> want_storm = {false, false, true, true, false};
  const std::vector<bool> want_paused = {true, true, false, false, true};
  for (size_t i = 0; i < storm.size(); ++i) {
    EXPECT_EQ(storm[i].second, want_storm[i]) << "storm at " << storm[i].first << " ps";
    EXPECT_EQ(paused[i].second, want_paused[i]) << "paused at " << paused[i].first << " ps";
  }
  const WatchdogStats w = b.port->flow_control().watchdog();
  EXPECT_EQ(w.storms, 1u);
  EXPECT_EQ(w.restores, 1u);
  EXPECT_EQ(w.pauses_ignored, 21u);
  EXPECT_EQ(b.port->discarded, 2u);
  EXPECT_EQ(b.owner.discarded, 2u);
  EXPECT_TRUE(b.peer.got.empty()) << "packet 3 waits for the timer (396.3 us), past the run";
}

// One poll short: frames stop at 28.5 us, their timer keeps the class
// paused through the polls at 30 and 40, but no frame arrives between them
// (the poll at 40 does not count): no storm.
TEST(Watchdog, NeedsFramesInEveryInterval) {
  WdogBench b(0);
  for (uint64_t k = 0; k <= 28; ++k) b.pfc_at(k * kUs + kUs / 2, 0xFFFF);
  b.ev.run(100 * kUs);
  EXPECT_EQ(b.port->flow_control().watchdog().storms, 0u);
}

// A class that unpauses between polls is not in a storm, however many
// frames arrive: 100 quanta (0.512 us) every microsecond.
TEST(Watchdog, AnUnpauseBetweenPollsRestartsTheCount) {
  WdogBench b(0);
  for (uint64_t k = 0; k <= 90; ++k) b.pfc_at(k * kUs + kUs / 2, 100);
  b.ev.run(100 * kUs);
  EXPECT_EQ(b.port->flow_control().watchdog().storms, 0u);
}

// forward: the pauses are ignored from 40 us, nothing is dropped; the
// packet queued at 5 us leaves at 40 us (1500 B: 120 ns, then 1 us of
// link). alert: counted, the class stays paused, nothing leaves.
TEST(Watchdog, ForwardIgnoresAlertCounts) {
  for (uint8_t action : {uint8_t(1), uint8_t(2)}) {
    WdogBench b(action);
    for (uint64_t k = 0; k <= 60; ++k) b.pfc_at(k * kUs + kUs / 2, 0xFFFF);
    b.data_at(5 * kUs, 1);
    b.ev.run(80 * kUs);
    EXPECT_EQ(b.port->flow_control().watchdog().storms, 1u) << int(action);
    EXPECT_EQ(b.port->discarded, 0u) << int(action);
    if (action == 1) {
      ASSERT_EQ(b.peer.got.size(), 1u);
      EXPECT_EQ(b.peer.got[0].t, 40 * kUs + 120'000 + kUs);
      EXPECT_EQ(b.port->flow_control().watchdog().pauses_ignored, 21u);
    } else {
      EXPECT_TRUE(b.peer.got.empty());
      EXPECT_EQ(b.port->flow_control().watchdog().pauses_ignored, 0u);
    }
  }
}

}  // namespace
}  // namespace dsh::net::test
