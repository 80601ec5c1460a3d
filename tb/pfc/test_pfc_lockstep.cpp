// SPDX-License-Identifier: Apache-2.0
// Lockstep of the frame-mode RTL blocks against their golden models
// (golden/pfc.h) on random stimulus, 10^6 cycles each: every output
// compared every cycle. Each cycle: inputs set, outputs compared (the RTL's
// after settling, the golden model's out()), then the clock edge on both.
// A mismatch prints one line (cycle, block, field, RTL vs golden); a
// passing run prints "matched N cycles".
#include <gtest/gtest.h>
#include <verilated.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "Vpfc_rx_q5.h"
#include "Vpfc_rx_q8.h"
#include "Vpfc_tx_q3.h"
#include "Vpfc_tx_q8.h"
#include "Vpfc_wdog.h"
#include "Vpfc_wdog_p3.h"
#include "Vquanta_tick.h"
#include "pfc.h"
#include "pfc_dut.h"
#include "rtl_coverage.h"

namespace {

using namespace dsh::pfc;
constexpr uint64_t kCycles = 1'000'000;
constexpr uint64_t kStatMask = 0xFFFFFFFFu;  // StatW = 32

struct Ctx : VerilatedContext {
  Ctx() {
    fatalOnError(false);
    Verilated::threadContextp(this);
  }
  ~Ctx() { EXPECT_FALSE(gotError()) << "an RTL assertion failed (its name is in the %Error line above)"; }
};
struct CoverageAtEnd {
  VerilatedContext& ctx;
  ~CoverageAtEnd() { dsh::rtl_coverage::write(ctx); }
};

// Counts mismatches and prints the first few, one line each.
struct Checker {
  const char* block;
  uint64_t cycle = 0, mismatches = 0;
  void eq(const char* field, uint64_t rtl, uint64_t gold) {
    if (rtl == gold) return;
    if (++mismatches <= 20)
      std::printf("cycle %llu %s %s: rtl %llu golden %llu\n", (unsigned long long)cycle, block, field,
                  (unsigned long long)rtl, (unsigned long long)gold);
  }
  void done() {
    EXPECT_EQ(mismatches, 0u) << block;
    if (!mismatches) std::printf("%s: matched %llu cycles\n", block, (unsigned long long)cycle);
  }
};


// Quanta of a cycle: mostly 0 or 1, now and then anything the 9-bit input holds.
uint32_t random_quanta(std::mt19937& rng) {
  const unsigned r = rng() % 100;
  return r < 70 ? 0 : r < 95 ? 1 : rng() % 512;
}

// ------------------------------------------------------------ quanta tick
void tick_lockstep(uint32_t inc, unsigned seed) {
  Ctx ctx;
  Vquanta_tick dut(&ctx);
  CoverageAtEnd cov{ctx};
  reset(dut);
  QuantaTick gold(inc);
  Checker chk{"quanta_tick"};
  std::mt19937 rng(seed);
  dut.cfg_quanta_per_cycle_i = inc;
  for (; chk.cycle < kCycles; ++chk.cycle) {
    dut.eval();
    chk.eq("quanta_o", dut.quanta_o, gold.quanta());
    clock(dut);
    gold.step();
  }
  chk.done();
}
TEST(PfcLockstep, QuantaTick100GAt1GHz) { tick_lockstep(12800, 1); }
TEST(PfcLockstep, QuantaTickLargeRate) { tick_lockstep(0xABCDEF, 2); }

// ------------------------------------------------------------ sender
template <class M>
void tx_lockstep(const PfcTx::Config& cfg, unsigned seed) {
  Ctx ctx;
  M dut(&ctx);
  CoverageAtEnd cov{ctx};
  reset(dut);
  PfcTx gold(cfg);
  Checker chk{"pfc_tx"};
  std::mt19937 rng(seed);
  dut.cfg_pause_quanta_i = cfg.pause_quanta;
  dut.cfg_refresh_quanta_i = cfg.refresh_quanta;
  dut.cfg_src_mac_i = cfg.src_mac;
  PfcTx::In in;
  for (; chk.cycle < kCycles; ++chk.cycle) {
    // qoff changes in bursts (several in one frame time) and quiet spells.
    if (rng() % 50 == 0) in.qoff ^= uint8_t(1u << (rng() % 8));
    if (rng() % 100 == 0) in.poff = !in.poff;
    in.quanta = random_quanta(rng);
    in.tready = rng() % 10 != 0;
    dut.qoff_i = in.qoff & ((1u << cfg.n_queues) - 1);
    dut.poff_i = in.poff;
    dut.quanta_i = in.quanta;
    dut.m_axis_tready_i = in.tready;
    dut.eval();
    const PfcTx::Out o = gold.out();
    chk.eq("m_axis_tvalid_o", dut.m_axis_tvalid_o, o.tvalid);
    chk.eq("m_axis_tdata_o", dut.m_axis_tdata_o, o.tdata);
    chk.eq("m_axis_tlast_o", dut.m_axis_tlast_o, o.tlast);
    chk.eq("stat_pfc_frames_o", dut.stat_pfc_frames_o, o.stat_pfc_frames & kStatMask);
    chk.eq("stat_pause_frames_o", dut.stat_pause_frames_o, o.stat_pause_frames & kStatMask);
    clock(dut);
    gold.step(in);
  }
  const PfcTx::Out o = gold.out();
  std::printf("pfc_tx: %llu PFC and %llu PAUSE frames\n", (unsigned long long)o.stat_pfc_frames,
              (unsigned long long)o.stat_pause_frames);
  EXPECT_GT(o.stat_pfc_frames, 1000u);
  EXPECT_GT(o.stat_pause_frames, 1000u);
  chk.done();
}
TEST(PfcLockstep, TxEightClassesDefaults) {
  PfcTx::Config c;
  c.src_mac = 0x02ABCDEF0123;
  tx_lockstep<Vpfc_tx_q8>(c, 3);
}
TEST(PfcLockstep, TxThreeClassesFastRefresh) {
  PfcTx::Config c;
  c.n_queues = 3;
  c.pause_quanta = 0x0123;
  c.refresh_quanta = 40;
  c.src_mac = 0x020000000001;
  tx_lockstep<Vpfc_tx_q3>(c, 4);
}

// ------------------------------------------------------------ receiver
// A random byte stream: well-formed PFC and PAUSE frames, unknown opcodes,
// malformed MAC Control frames, data frames, gaps within and between frames.
struct Stream {
  std::mt19937& rng;
  std::vector<uint8_t> bytes;
  std::vector<bool> tuser;
  size_t at = 0;
  unsigned gap = 0;
  uint16_t time() {
    const unsigned r = rng() % 10;
    return r < 2 ? 0 : r < 3 ? 0xFFFF : uint16_t(rng() % 60);
  }
  void next_frame() {
    MacControl f;
    f.src = (uint64_t(rng()) << 16) ^ rng();
    const unsigned kind = rng() % 100;
    std::array<uint16_t, 8> t{};
    for (auto& x : t) x = time();
    f.opcode = kind < 50 ? kOpPfc : kind < 65 ? kOpPause : uint16_t(rng());
    if (f.opcode == kOpPfc) f.words = pfc_words(uint8_t(rng()), t);
    else f.words = pause_words(time());
    if (f.opcode == kOpPfc && rng() % 20 == 0) f.words[0] |= uint16_t(rng() << 8);  // reserved byte set
    const Frame fr = build_frame(f);
    bytes.assign(fr.begin(), fr.end());
    tuser.assign(bytes.size(), false);
    const unsigned bad = rng() % 100;
    if (bad < 4) bytes.resize(1 + rng() % 59);                           // too short
    else if (bad < 7) for (unsigned n = 1 + rng() % 10; n; --n) bytes.push_back(uint8_t(rng()));  // too long
    else if (bad < 10) tuser.back() = true;                               // the MAC's bad frame
    else if (bad < 13) bytes[12 + rng() % 2] ^= uint8_t(1 + rng() % 255);  // not 0x8808
    else if (bad < 33) {                                                  // a data frame
      bytes.resize(1 + rng() % 100);
      for (auto& b : bytes) b = uint8_t(rng());
      if (rng() % 4 == 0 && bytes.size() > 6) std::copy(fr.begin(), fr.begin() + 6, bytes.begin());
    }
    tuser.resize(bytes.size(), false);
    if (rng() % 20 == 0) tuser[rng() % tuser.size()] = true;  // tuser away from tlast means nothing
    at = 0;
    gap = rng() % 4 == 0 ? rng() % 30 : 0;
  }
  MacControlParser::In beat() {
    MacControlParser::In b;
    if (gap) {
      --gap;
      b.tdata = uint8_t(rng());  // ignored while tvalid is 0
      return b;
    }
    if (at == bytes.size()) next_frame();
    if (rng() % 10 == 0) return b;  // a gap within the frame
    b.tvalid = true;
    b.tdata = bytes[at];
    b.tuser = tuser[at];
    b.tlast = ++at == bytes.size();
    return b;
  }
};

template <class M>
void rx_lockstep(unsigned n_queues, unsigned seed) {
  Ctx ctx;
  M dut(&ctx);
  CoverageAtEnd cov{ctx};
  reset(dut);
  PfcRx gold(n_queues);
  Checker chk{"pfc_rx"};
  std::mt19937 rng(seed);
  Stream s{rng};
  s.next_frame();
  const uint8_t mask = uint8_t((1u << n_queues) - 1);
  PfcRx::In in;
  uint64_t paused_cycles = 0;
  for (; chk.cycle < kCycles; ++chk.cycle) {
    in.axis = s.beat();
    in.quanta = random_quanta(rng);
    if (rng() % 5000 == 0) in.ignore = uint8_t(rng()) & mask;
    dut.s_axis_tdata_i = in.axis.tdata;
    dut.s_axis_tvalid_i = in.axis.tvalid;
    dut.s_axis_tlast_i = in.axis.tlast;
    dut.s_axis_tuser_i = in.axis.tuser;
    dut.quanta_i = in.quanta;
    dut.ignore_i = in.ignore;
    dut.eval();
    const PfcRx::Out o = gold.out(in.ignore);
    chk.eq("tx_pause_o", dut.tx_pause_o, o.tx_pause);
    chk.eq("class_paused_o", dut.class_paused_o, o.class_paused);
    chk.eq("port_paused_o", dut.port_paused_o, o.port_paused);
    chk.eq("pfc_rx_o", dut.pfc_rx_o, o.pfc_rx);
    chk.eq("stat_pfc_o", dut.stat_pfc_o, o.stat_pfc & kStatMask);
    chk.eq("stat_pause_o", dut.stat_pause_o, o.stat_pause & kStatMask);
    chk.eq("stat_malformed_o", dut.stat_malformed_o, o.stat_malformed & kStatMask);
    chk.eq("stat_unknown_o", dut.stat_unknown_o, o.stat_unknown & kStatMask);
    paused_cycles += o.tx_pause != 0;
    clock(dut);
    gold.step(in);
  }
  const PfcRx::Out o = gold.out(0);
  std::printf("pfc_rx: %llu PFC, %llu PAUSE, %llu malformed, %llu unknown; some class paused in %llu cycles\n",
              (unsigned long long)o.stat_pfc, (unsigned long long)o.stat_pause,
              (unsigned long long)o.stat_malformed, (unsigned long long)o.stat_unknown,
              (unsigned long long)paused_cycles);
  EXPECT_GT(o.stat_pfc, 1000u);
  EXPECT_GT(o.stat_pause, 1000u);
  EXPECT_GT(o.stat_malformed, 1000u);
  EXPECT_GT(o.stat_unknown, 100u);
  EXPECT_GT(paused_cycles, kCycles / 10);
  EXPECT_LT(paused_cycles, kCycles * 9 / 10);
  chk.done();
}
TEST(PfcLockstep, RxEightClasses) { rx_lockstep<Vpfc_rx_q8>(8, 5); }
TEST(PfcLockstep, RxFiveClasses) { rx_lockstep<Vpfc_rx_q5>(5, 6); }

// ------------------------------------------------------------ watchdog
// Regimes of a few hundred cycles: a storm (paused throughout, frames
// often), normal traffic (pauses that end, frames now and then), quiet.
template <class M>
void wdog_lockstep(const PfcWdog::Config& cfg, unsigned seed) {
  Ctx ctx;
  M dut(&ctx);
  CoverageAtEnd cov{ctx};
  reset(dut);
  PfcWdog gold(cfg);
  Checker chk{"pfc_wdog"};
  std::mt19937 rng(seed);
  dut.cfg_detect_polls_i = cfg.detect_polls;
  dut.cfg_restore_polls_i = cfg.restore_polls;
  dut.cfg_action_i = cfg.action;
  PfcWdog::In in;
  unsigned regime = 0, left = 0;
  for (; chk.cycle < kCycles; ++chk.cycle) {
    if (!left) {
      regime = rng() % 3;
      left = 100 + rng() % 600;
    }
    --left;
    in.poll = rng() % 16 == 0;
    if (regime == 0) {
      in.paused = rng() % 500 != 0;
      in.pfc_rx = rng() % 8 == 0;
    } else if (regime == 1) {
      if (rng() % 30 == 0) in.paused = !in.paused;
      in.pfc_rx = rng() % 40 == 0;
    } else {
      in.paused = false;
      in.pfc_rx = false;
    }
    dut.poll_i = in.poll;
    dut.pfc_rx_i = in.pfc_rx;
    dut.paused_i = in.paused;
    dut.eval();
    const PfcWdog::Out o = gold.out();
    chk.eq("storm_o", dut.storm_o, o.storm);
    chk.eq("ignore_pause_o", dut.ignore_pause_o, o.ignore_pause);
    chk.eq("drop_o", dut.drop_o, o.drop);
    chk.eq("stat_storms_o", dut.stat_storms_o, o.stat_storms & kStatMask);
    chk.eq("stat_restores_o", dut.stat_restores_o, o.stat_restores & kStatMask);
    clock(dut);
    gold.step(in);
  }
  const PfcWdog::Out o = gold.out();
  std::printf("pfc_wdog: %llu storms, %llu restores\n", (unsigned long long)o.stat_storms,
              (unsigned long long)o.stat_restores);
  EXPECT_GT(o.stat_storms, 100u);
  EXPECT_GT(o.stat_restores, 100u);
  chk.done();
}
TEST(PfcLockstep, WdogDrop) {
  PfcWdog::Config c;
  c.detect_polls = 3;
  c.restore_polls = 4;
  c.action = 0;
  wdog_lockstep<Vpfc_wdog>(c, 7);
}
TEST(PfcLockstep, WdogForwardSaturatingCounts) {
  PfcWdog::Config c;
  c.poll_w = 3;
  c.detect_polls = 7;  // the largest count of PollW = 3
  c.restore_polls = 0;
  c.action = 1;
  wdog_lockstep<Vpfc_wdog_p3>(c, 8);
}

}  // namespace
