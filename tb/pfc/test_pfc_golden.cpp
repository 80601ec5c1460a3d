// SPDX-License-Identifier: Apache-2.0
// The golden models of the frame-mode blocks (golden/pfc.h) on cases worked
// out by hand from IEEE 802.1Qbb / 802.3 Annex 31B and spec §6.3–§6.6:
// frame bytes, the quanta rate, a timer's expiry cycle, the sender's
// XOFF / refresh / coalescing / XON sequence, the parser's verdicts and the
// watchdog's detection and restoration polls.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "pfc.h"

namespace {

using namespace dsh::pfc;

TEST(PfcFrame, PfcEnable05ByteForByte) {
  MacControl f;
  f.src = 0x020000000007;
  f.opcode = kOpPfc;
  f.words = pfc_words(0x05, {0xFFFF, 0, 0x0ABC, 0, 0, 0, 0, 0});
  // 802.1Qbb's PFC frame: DA, SA, 88-08, opcode 01-01, class-enable
  // vector 00-05, time[0..7], padding to the 60-byte minimum (FCS by the MAC).
  const Frame want = {0x01, 0x80, 0xC2, 0x00, 0x00, 0x01,  // DA
                      0x02, 0x00, 0x00, 0x00, 0x00, 0x07,  // SA
                      0x88, 0x08, 0x01, 0x01,              // EtherType, opcode
                      0x00, 0x05,                          // class-enable vector
                      0xFF, 0xFF, 0x00, 0x00, 0x0A, 0xBC,  // time[0], time[1], time[2]
                      0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // time[3..5]
                      0x00, 0x00, 0x00, 0x00,              // time[6..7]
                      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};  // 26 bytes of padding
  EXPECT_EQ(build_frame(f), want);
}

TEST(PfcFrame, PauseByteForByte) {
  MacControl f;
  f.src = 0xA0B0C0D0E0F0;
  f.opcode = kOpPause;
  f.words = pause_words(0x7FFF);
  Frame want{};
  const uint8_t head[] = {0x01, 0x80, 0xC2, 0x00, 0x00, 0x01, 0xA0, 0xB0, 0xC0,
                          0xD0, 0xE0, 0xF0, 0x88, 0x08, 0x00, 0x01, 0x7F, 0xFF};
  std::copy(std::begin(head), std::end(head), want.begin());
  EXPECT_EQ(build_frame(f), want);
}

TEST(PfcQuanta, RatePerCycle) {
  // One quantum = 512 bit times: 5.12 ns at 100 Gb/s, so 1/5.12 = 0.1953125
  // a 1 GHz cycle = 12800 / 2^16.
  EXPECT_EQ(quanta_per_cycle(100'000'000'000, 1'000'000'000), 12800u);
  EXPECT_EQ(quanta_per_cycle(25'000'000'000, 1'000'000'000), 3200u);
  EXPECT_EQ(quanta_per_cycle(400'000'000'000, 1'000'000'000), 51200u);
  // 10 Gb/s at 156.25 MHz: 0.125 quanta a cycle.
  EXPECT_EQ(quanta_per_cycle(10'000'000'000, 156'250'000), 8192u);
  // 100 Gb/s at 300 MHz: 0.651041.. -> floor(0.651041.. * 65536) = 42666.
  EXPECT_EQ(quanta_per_cycle(100'000'000'000, 300'000'000), 42666u);
  EXPECT_THROW(quanta_per_cycle(0, 1), std::invalid_argument);
  // 1 Tb/s at 1 MHz: 1953 quanta a cycle, beyond IntW = 8.
  EXPECT_THROW(quanta_per_cycle(1'000'000'000'000, 1'000'000), std::invalid_argument);
}

TEST(PfcQuanta, TickCarriesEvery512Cycles) {
  // 12800 / 65536 a cycle: the k-th quantum in the cycle n with
  // n + 1 = ceil(k * 5.12): cycles 5, 10, 15, 20, 25, 30, 35, 40, 46, ...
  QuantaTick t(12800);
  std::vector<unsigned> carries;
  for (unsigned n = 0; n < 47; ++n) {
    if (t.quanta()) carries.push_back(n);
    t.step();
  }
  EXPECT_EQ(carries, (std::vector<unsigned>{5, 10, 15, 20, 25, 30, 35, 40, 46}));
}

// Feeds a frame's bytes to a receiver, one a cycle, with the quanta of a
// tick that started at cycle 0; returns the next cycle.
unsigned feed(PfcRx& rx, QuantaTick& tick, unsigned cycle, const std::vector<uint8_t>& bytes, bool tuser = false) {
  for (size_t i = 0; i < bytes.size(); ++i, ++cycle) {
    PfcRx::In in;
    in.axis = {bytes[i], true, i + 1 == bytes.size(), tuser && i + 1 == bytes.size()};
    in.quanta = tick.quanta();
    rx.step(in);
    tick.step();
  }
  return cycle;
}
std::vector<uint8_t> pfc_bytes(uint8_t enable, std::array<uint16_t, 8> times) {
  MacControl f;
  f.opcode = kOpPfc;
  f.words = pfc_words(enable, times);
  const Frame b = build_frame(f);
  return {b.begin(), b.end()};
}

TEST(PfcRx, TimerExpiresOnTheWorkedCycle) {
  // 100 Gb/s at 1 GHz. A PFC frame for class 1, time 3, in cycles 0..59
  // (tlast in 59). The parser shows it in cycle 60, the timer is loaded at
  // the end of 60 (that cycle's quanta lost to the load). Quanta fall in the
  // cycles n with n + 1 = ceil(k * 5.12): k = 12, 13, 14 -> 61, 66, 71. So
  // class 1 is paused in cycles 61..71 and free from cycle 72.
  PfcRx rx(8);
  QuantaTick tick(12800);
  unsigned cycle = feed(rx, tick, 0, pfc_bytes(0x02, {0, 3, 0, 0, 0, 0, 0, 0}));
  ASSERT_EQ(cycle, 60u);
  std::vector<unsigned> paused;
  for (; cycle < 80; ++cycle) {
    const PfcRx::Out o = rx.out(0);
    if (cycle == 60) EXPECT_EQ(o.pfc_rx, 0x02);
    if (o.tx_pause) {
      EXPECT_EQ(o.tx_pause, 0x02) << "cycle " << cycle;
      paused.push_back(cycle);
    }
    PfcRx::In in;
    in.quanta = tick.quanta();
    rx.step(in);
    tick.step();
  }
  ASSERT_FALSE(paused.empty());
  EXPECT_EQ(paused.front(), 61u);
  EXPECT_EQ(paused.back(), 71u);
  EXPECT_EQ(paused.size(), 11u);
}

TEST(PfcRx, PortPauseOrsWithClassesAndXonEnds) {
  PfcRx rx(7);  // 7 queues: class 7 is the control class, never paused
  QuantaTick tick(0);  // no time passes
  unsigned c = feed(rx, tick, 0, pfc_bytes(0x81, {100, 0, 0, 0, 0, 0, 0, 100}));
  c = feed(rx, tick, c, {0});  // one idle byte... of a data runt: not control
  EXPECT_EQ(rx.out(0).tx_pause, 0x01);  // class 7's enable bit ignored
  MacControl p;
  p.opcode = kOpPause;
  p.words = pause_words(5);
  const Frame pb = build_frame(p);
  c = feed(rx, tick, c, {pb.begin(), pb.end()});
  c = feed(rx, tick, c, {0});
  EXPECT_EQ(rx.out(0).tx_pause, 0x7F);
  EXPECT_EQ(rx.out(0x01).tx_pause, 0x7F);  // the port's pause holds an ignored class too
  p.words = pause_words(0);                // XON for the port
  const Frame xon = build_frame(p);
  c = feed(rx, tick, c, {xon.begin(), xon.end()});
  c = feed(rx, tick, c, {0});
  EXPECT_EQ(rx.out(0).tx_pause, 0x01);
  EXPECT_EQ(rx.out(0x01).tx_pause, 0x00);  // the watchdog ignores class 0
  c = feed(rx, tick, c, pfc_bytes(0x01, {0, 0, 0, 0, 0, 0, 0, 0}));  // XON class 0
  feed(rx, tick, c, {0});
  EXPECT_EQ(rx.out(0).tx_pause, 0x00);
  const PfcRx::Out o = rx.out(0);
  EXPECT_EQ(o.stat_pfc, 2u);
  EXPECT_EQ(o.stat_pause, 2u);
  EXPECT_EQ(o.stat_malformed, 0u);
  EXPECT_EQ(o.stat_unknown, 0u);
}

TEST(PfcRx, MalformedAndUnknownAreCountedAndIgnored) {
  PfcRx rx(8);
  QuantaTick tick(0);
  const std::vector<uint8_t> good = pfc_bytes(0xFF, {9, 9, 9, 9, 9, 9, 9, 9});
  unsigned c = 0;
  auto settle = [&] { c = feed(rx, tick, c, std::vector<uint8_t>(13, 0xAA)); };  // a data runt: no verdict
  c = feed(rx, tick, c, {good.begin(), good.begin() + 40});  // too short
  settle();
  std::vector<uint8_t> longer = good;
  longer.push_back(0);  // 61 bytes
  c = feed(rx, tick, c, longer);
  settle();
  c = feed(rx, tick, c, good, /*tuser=*/true);  // the MAC saw a bad FCS
  settle();
  std::vector<uint8_t> wrong_type = good;
  wrong_type[13] = 0x09;  // 0x8809 to the MAC Control address
  c = feed(rx, tick, c, wrong_type);
  settle();
  EXPECT_EQ(rx.out(0).stat_malformed, 4u);
  EXPECT_EQ(rx.out(0).tx_pause, 0u);
  std::vector<uint8_t> unknown = good;
  unknown[15] = 0x02;  // opcode 0x0102
  c = feed(rx, tick, c, unknown);
  settle();
  EXPECT_EQ(rx.out(0).stat_unknown, 1u);
  std::vector<uint8_t> data = good;
  data[0] = 0x02;  // unicast
  data[12] = 0x08;
  data[13] = 0x00;  // IPv4
  c = feed(rx, tick, c, data);
  settle();
  const PfcRx::Out o = rx.out(0);
  EXPECT_EQ(o.stat_malformed, 4u);  // a data frame is not counted
  EXPECT_EQ(o.stat_pfc, 0u);
  EXPECT_EQ(o.tx_pause, 0u);
  c = feed(rx, tick, c, good);
  settle();
  EXPECT_EQ(rx.out(0).tx_pause, 0xFF);
  EXPECT_EQ(rx.out(0).stat_pfc, 1u);
}

// Runs a sender for `cycles` cycles with the stream always ready and
// returns the frames it put out, each with the cycle of its first byte.
struct Sent {
  unsigned cycle;
  std::vector<uint8_t> bytes;
};
void run_tx(PfcTx& tx, unsigned& cycle, unsigned until, uint8_t qoff, bool poff, uint32_t quanta,
            std::vector<Sent>& out) {
  for (; cycle < until; ++cycle) {
    const PfcTx::Out o = tx.out();
    if (o.tvalid) {
      if (out.empty() || out.back().bytes.size() == kFrameBytes) out.push_back({cycle, {}});
      out.back().bytes.push_back(o.tdata);
      EXPECT_EQ(o.tlast, out.back().bytes.size() == kFrameBytes);
    }
    tx.step({qoff, poff, quanta, true});
  }
}

TEST(PfcTx, XoffRefreshCoalesceXon) {
  PfcTx::Config cfg;
  cfg.n_queues = 3;
  cfg.pause_quanta = 0x0100;
  cfg.refresh_quanta = 100;  // 1 quantum a cycle below: a refresh 100 cycles after a frame is taken
  cfg.src_mac = 0x020000000001;
  PfcTx tx(cfg);
  std::vector<Sent> f;
  unsigned c = 0;
  run_tx(tx, c, 10, 0, false, 1, f);  // nothing paused: nothing sent
  EXPECT_TRUE(f.empty());
  // Cycle 10: classes 0 and 2 paused. Taken at the end of cycle 10, first
  // byte in cycle 11, last in 70.
  run_tx(tx, c, 30, 0x05, false, 1, f);
  // Cycle 30, mid-frame: class 1 pauses too, class 0 resumes. The builder
  // is free after its last byte (cycle 70), so the change is taken, as one
  // frame, at the end of cycle 71, first byte in 72.
  run_tx(tx, c, 160, 0x06, false, 1, f);
  // That frame loaded the refresh timer with 100 at the end of cycle 71;
  // it counts 1 a cycle from 72 and is 0 after cycle 171: the refresh is
  // taken at the end of 172, first byte in 173.
  run_tx(tx, c, 240, 0x06, false, 1, f);
  // Everything resumes: XON for classes 1 and 2.
  run_tx(tx, c, 400, 0x00, false, 1, f);
  ASSERT_EQ(f.size(), 4u);
  auto pfc = [](uint8_t en, std::array<uint16_t, 8> t) {
    MacControl m;
    m.src = 0x020000000001;
    m.opcode = kOpPfc;
    m.words = pfc_words(en, t);
    const Frame b = build_frame(m);
    return std::vector<uint8_t>(b.begin(), b.end());
  };
  EXPECT_EQ(f[0].cycle, 11u);
  EXPECT_EQ(f[0].bytes, pfc(0x05, {0x100, 0, 0x100, 0, 0, 0, 0, 0}));
  EXPECT_EQ(f[1].cycle, 72u);
  EXPECT_EQ(f[1].bytes, pfc(0x07, {0, 0x100, 0x100, 0, 0, 0, 0, 0}));  // class 0 XON, 1 and 2 XOFF
  EXPECT_EQ(f[2].cycle, 173u);
  EXPECT_EQ(f[2].bytes, pfc(0x06, {0, 0x100, 0x100, 0, 0, 0, 0, 0}));  // the refresh
  EXPECT_EQ(f[3].cycle, 241u);
  EXPECT_EQ(f[3].bytes, pfc(0x06, {0, 0, 0, 0, 0, 0, 0, 0}));  // XON as time 0
  EXPECT_EQ(tx.out().stat_pfc_frames, 4u);
  EXPECT_EQ(tx.out().stat_pause_frames, 0u);
}

TEST(PfcTx, PortPauseAndClassesTakeTurns) {
  PfcTx::Config cfg;  // defaults: 8 classes, 0xFFFF, 0x7FFF
  PfcTx tx(cfg);
  std::vector<Sent> f;
  unsigned c = 0;
  // Both due in cycle 0: PAUSE first (the last frame was not one), bytes in
  // cycles 1..60; then PFC, taken at the end of 61, bytes from 62.
  run_tx(tx, c, 200, 0x01, true, 0, f);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].cycle, 1u);
  EXPECT_EQ(f[0].bytes[15], 0x01);  // opcode 0x0001
  EXPECT_EQ(f[0].bytes[16], 0xFF);  // time 0xFFFF
  EXPECT_EQ(f[0].bytes[17], 0xFF);
  EXPECT_EQ(f[1].cycle, 62u);
  EXPECT_EQ(f[1].bytes[15], 0x01);
  EXPECT_EQ(f[1].bytes[14], 0x01);  // opcode 0x0101
  EXPECT_EQ(f[1].bytes[17], 0x01);  // enable vector 0x0001
  // The port resumes: PAUSE with time 0.
  run_tx(tx, c, 300, 0x01, false, 0, f);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[2].bytes[15], 0x01);
  EXPECT_EQ(f[2].bytes[16], 0x00);
  EXPECT_EQ(f[2].bytes[17], 0x00);
  EXPECT_EQ(tx.out().stat_pause_frames, 2u);
  EXPECT_EQ(tx.out().stat_pfc_frames, 1u);
}

TEST(PfcTx, RejectsBadClassCount) {
  PfcTx::Config cfg;
  cfg.n_queues = 9;
  EXPECT_THROW(PfcTx{cfg}, std::invalid_argument);
  EXPECT_THROW(PfcRx{0}, std::invalid_argument);
}

// Steps a watchdog through polls: each poll interval is `gap` cycles; the
// class is paused throughout, with a PFC frame in each interval when `rx`.
struct WdogRun {
  PfcWdog w;
  bool paused_before = false;
  explicit WdogRun(const PfcWdog::Config& c) : w(c) {}
  PfcWdog::Out interval(bool paused, bool rx, bool unpause_blip = false) {
    for (int i = 0; i < 4; ++i) {
      bool p = paused;
      if (unpause_blip && i == 1) p = false;
      w.step({i == 3, rx && i == 0, p});
    }
    return w.out();
  }
};

TEST(PfcWdog, DetectsAfterDetectPollsAndRestoresAfterQuietPolls) {
  PfcWdog::Config cfg;
  cfg.detect_polls = 3;
  cfg.restore_polls = 2;
  cfg.action = uint8_t(PfcWdog::Action::Drop);
  WdogRun r(cfg);
  // Poll 1: paused now but not at the last poll (there was none): no count.
  EXPECT_FALSE(r.interval(true, true).storm);
  // Polls 2, 3, 4 count: the storm at poll 4, the third in a row.
  EXPECT_FALSE(r.interval(true, true).storm);
  EXPECT_FALSE(r.interval(true, true).storm);
  PfcWdog::Out o = r.interval(true, true);
  EXPECT_TRUE(o.storm);
  EXPECT_TRUE(o.ignore_pause);
  EXPECT_TRUE(o.drop);
  EXPECT_EQ(o.stat_storms, 1u);
  // In the storm: frames keep it; two quiet polls in a row restore.
  EXPECT_TRUE(r.interval(true, true).storm);
  EXPECT_TRUE(r.interval(true, false).storm);
  EXPECT_TRUE(r.interval(true, true).storm);  // the quiet count restarts
  EXPECT_TRUE(r.interval(false, false).storm);
  o = r.interval(false, false);
  EXPECT_FALSE(o.storm);
  EXPECT_FALSE(o.ignore_pause);
  EXPECT_EQ(o.stat_restores, 1u);
}

TEST(PfcWdog, UnpauseOrNoFrameRestartsDetection) {
  PfcWdog::Config cfg;
  cfg.detect_polls = 2;
  cfg.action = uint8_t(PfcWdog::Action::Forward);
  WdogRun r(cfg);
  r.interval(true, true);                          // first poll: no history
  EXPECT_FALSE(r.interval(true, true).storm);      // 1 of 2
  EXPECT_FALSE(r.interval(true, true, true).storm);  // a pause-to-unpause: restarts
  EXPECT_FALSE(r.interval(true, true).storm);      // 1 of 2
  EXPECT_FALSE(r.interval(true, false).storm);     // no PFC frame: restarts
  EXPECT_FALSE(r.interval(true, true).storm);      // 1 of 2
  const PfcWdog::Out o = r.interval(true, true);   // 2 of 2
  EXPECT_TRUE(o.storm);
  EXPECT_TRUE(o.ignore_pause);
  EXPECT_FALSE(o.drop);  // forward: pauses ignored, nothing dropped
}

TEST(PfcWdog, AlertCountsOnlyAndZeroDetectIsOff) {
  PfcWdog::Config cfg;
  cfg.detect_polls = 1;
  cfg.action = uint8_t(PfcWdog::Action::Alert);
  WdogRun r(cfg);
  r.interval(true, true);
  const PfcWdog::Out o = r.interval(true, true);
  EXPECT_TRUE(o.storm);
  EXPECT_FALSE(o.ignore_pause);
  EXPECT_FALSE(o.drop);
  cfg.detect_polls = 0;
  WdogRun off(cfg);
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(off.interval(true, true).storm);
  cfg.action = 4;
  EXPECT_THROW(PfcWdog{cfg}, std::invalid_argument);
}

}  // namespace
