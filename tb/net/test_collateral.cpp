// SPDX-License-Identifier: Apache-2.0
// S2, collateral damage (systemc/network/collateral.h), shortened: DSH
// against SIH, one RTL switch in lockstep among golden ones (the one-lane
// chip and the 32-lane one), and a 2:1
// incast under PowerTCP on one switch built from the same keys. Expected
// values are worked by hand in the comments.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <functional>

#include "collateral.h"
#include "mmu_model.h"
#include "net_setup.h"
#include "powertcp.h"

using namespace dsh;
using namespace dsh::net;

namespace {
// The S2 scenario file's keys.
KeyStore s2_keys() {
  KeyStore k;
  declare_collateral_keys(k);
  k.load_toml(DSH_SCENARIO_DIR "/collateral-damage.toml");
  return k;
}

// S2 shortened: the fan-in after 100 us of long flows, the run at most 600 us.
KeyStore short_s2_keys() {
  KeyStore k = s2_keys();
  k.set("traffic.settle_us", "100");
  k.set("traffic.max_run_us", "600");
  k.set("traffic.tail_us", "20");
  return k;
}
}  // namespace

// S2 shortened: no congestion control, the fan-in once the long flows have
// run 100 us at 45 Gb/s or more. DSH keeps the innocent flow near its 50 Gb/s
// (the fan-in is 1.5 MB, far below DSH's pause-free burst, ~38 % of 16 MiB);
// SIH's queue threshold is reached within ~20 us, S1 pauses S0 and F0 stops.
TEST(NetScenario, CollateralDamageShortRun) {
  KeyStore k = short_s2_keys();
  k.set("run.cc", "none");
  NetSetup s = build_setup(k);
  const CollateralRun d = run_collateral(k, s, Scheme::DSH, "none");
  const CollateralRun i = run_collateral(k, s, Scheme::SIH, "none");
  ASSERT_TRUE(d.error.empty()) << d.error;
  ASSERT_TRUE(i.error.empty()) << i.error;
  ASSERT_TRUE(d.fanin_done && i.fanin_done);
  EXPECT_EQ(d.lossless_drops + i.lossless_drops, 0u);
  EXPECT_EQ(d.reordered + i.reordered, 0u);
  EXPECT_GT(d.f0_mean_during, 45);
  EXPECT_LT(i.f0_mean_during, 0.8 * d.f0_mean_during);
  // 24 x 64 KB + F1's share through R1's 100 Gb/s link: at least 24*65536*8/100 ns = 126 us.
  EXPECT_GT(d.fanin_end_us - d.fanin_start_us, 125.8);
}

// S2 with four lanes in every switch's MMU at 0.2 GHz (spec §4.7): the
// run completes with no MMU error and no lossless drop, and the switches
// report lane use: the fan-in's packets reach a switch together on ports of
// different lanes, so some cycle decides more than one enqueue (and none
// more than the four lanes).
TEST(NetLanes, CollateralRunsWithFourLanes) {
  KeyStore k;
  declare_collateral_keys(k);
  k.load_toml(DSH_SCENARIO_DIR "/collateral-damage.toml");
  k.set("traffic.settle_us", "100");
  k.set("traffic.max_run_us", "600");
  k.set("traffic.tail_us", "20");
  k.set("run.backend", "golden");
  k.set("chip.lanes", "4");
  k.set("chip.deq_per_cycle", "4");
  k.set("chip.mmu_clock_ghz", "0.2");
  NetSetup s = build_setup(k);
  const CollateralRun r = run_collateral(k, s, Scheme::DSH, "none");
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.lossless_drops, 0u);
  EXPECT_TRUE(r.fanin_done);
  ASSERT_EQ(r.max_enq_per_cycle.size(), s.topo->n_switches());
  unsigned most = 0;
  for (unsigned n : r.max_enq_per_cycle) {
    EXPECT_LE(n, 4u);
    most = std::max(most, n);
  }
  EXPECT_GT(most, 1u);
}

// One switch's MMU as the Verilated RTL in lockstep with the golden model,
// inside a network of golden ones: the same S2 result, no mismatch; and a
// planted RTL fault (spec §9, shared drains before headroom) is caught.
TEST(NetLockstep, OneRtlSwitchGivesTheSameResult) {
  KeyStore k = short_s2_keys();
  // The golden switches hold their results (MmuClock::holds_results), the
  // RTL has the latency itself; with DCQCN too (ECN draws). This small
  // network has too few same-nanosecond MMU cycles to tell a change in
  // their order across switches: net/benchmark_rtl checks that at scale.
  for (const char* cc : {"none", "dcqcn"}) {
    k.set("net.rtl_switches", "");
    k.set("run.backend", "golden");
    NetSetup g = build_setup(k);
    const CollateralRun gold = run_collateral(k, g, Scheme::SIH, cc);
    k.set("net.rtl_switches", "S1");
    k.set("run.backend", "lockstep");
    NetSetup l = build_setup(k);
    const CollateralRun lock = run_collateral(k, l, Scheme::SIH, cc);
    ASSERT_TRUE(lock.error.empty()) << lock.error;
    EXPECT_EQ(lock.packets_forwarded, gold.packets_forwarded) << cc;
    EXPECT_EQ(lock.f0_bytes_per_us, gold.f0_bytes_per_us) << cc;
    EXPECT_EQ(lock.pause_frames, gold.pause_frames) << cc;
    EXPECT_EQ(lock.ecn_marks, gold.ecn_marks) << cc;
    EXPECT_EQ(lock.fanin_bytes_per_us, gold.fanin_bytes_per_us) << cc;
  }
  k.set("run.rtl_fault", "11");
  k.set("run.mismatch_dir", ::testing::TempDir());
  NetSetup f = build_setup(k);
  const CollateralRun bad = run_collateral(k, f, Scheme::SIH, "none");
  EXPECT_TRUE(dsh::is_lockstep_report(bad.error)) << "planted fault not caught: " << bad.error;
}

// The 32-lane chips (32 lanes, 32 dequeue slots, spec §4.7) as one
// switch's Verilated RTL in lockstep with its golden model, among golden
// switches of the same chip at 0.2 GHz: no mismatch, and the same S2
// result as the all-golden run, for both schemes. The fan-in reaches S1 on
// ports of different lanes, so some cycle decides several enqueues. SIH
// fills S1's headroom, so a planted fault in the lane chip's drain order
// (spec §9) is caught.
TEST(NetLockstep, LaneChipSwitchGivesTheSameResult) {
  KeyStore k = short_s2_keys();
  k.set("chip.lanes", "32");
  k.set("chip.deq_per_cycle", "32");
  k.set("chip.mmu_clock_ghz", "0.2");
  for (Scheme scheme : {Scheme::DSH, Scheme::SIH}) {
    k.set("net.rtl_switches", "");
    k.set("run.backend", "golden");
    NetSetup g = build_setup(k);
    const CollateralRun gold = run_collateral(k, g, scheme, "none");
    ASSERT_TRUE(gold.error.empty()) << gold.error;
    k.set("net.rtl_switches", "S1");
    k.set("run.backend", "lockstep");
    NetSetup l = build_setup(k);
    const CollateralRun lock = run_collateral(k, l, scheme, "none");
    ASSERT_TRUE(lock.error.empty()) << lock.error;
    EXPECT_TRUE(lock.fanin_done);
    EXPECT_EQ(lock.lossless_drops, 0u);
    EXPECT_EQ(lock.packets_forwarded, gold.packets_forwarded);
    EXPECT_EQ(lock.f0_bytes_per_us, gold.f0_bytes_per_us);
    EXPECT_EQ(lock.pause_frames, gold.pause_frames);
    EXPECT_EQ(lock.fanin_bytes_per_us, gold.fanin_bytes_per_us);
    unsigned most = 0;
    for (unsigned n : lock.max_enq_per_cycle) most = std::max(most, n);
    EXPECT_GT(most, 1u);
    EXPECT_LE(most, 32u);
  }
  k.set("run.rtl_fault", "11");
  k.set("run.mismatch_dir", ::testing::TempDir());
  NetSetup f = build_setup(k);
  const CollateralRun bad = run_collateral(k, f, Scheme::SIH, "none");
  EXPECT_TRUE(dsh::is_lockstep_report(bad.error)) << "planted fault not caught: " << bad.error;
}

// A 2:1 incast under PowerTCP: A and B send without end to R through one
// switch (100 Gb/s, 2 us links; tau = 2 * 4 us + 2 * 0.12 us = 8.24 us,
// BDP 103,000 B). At PowerTCP's fixed point each window w satisfies
// w = w / (Gamma / 0.95) + beta tau, and the queue q = 2w - BDP when
// positive, Gamma = 1 + q / BDP; so q = 2 beta tau - 0.05 BDP
// = 2 * 154.5 - 5,150 < 0: the target is an empty queue, the link at
// (0.95 + 2 * 0.0015) = 95.3 % (Gamma = 2w / BDP = 0.953). The first RTT at
// line rate queues up to about one BDP, far below the PFC threshold of
// either scheme; from 0.5 ms the queue stays within a few packets, R
// receives 90-100 Gb/s, and no switch sends PAUSE.
TEST(NetPowerTcp, IncastTwoToOneHoldsTheQueueWithoutPause) {
  for (Scheme scheme : {Scheme::DSH, Scheme::SIH}) {
    KeyStore k = s2_keys();
    k.set("net.switches", "S0");
    k.set("net.hosts", "A,B,R");
    k.set("net.links", "A-S0,B-S0,R-S0");
    NetSetup s = build_setup(k);
    EXPECT_NEAR(s.fp.powertcp_params.base_rtt_us, 8.24, 1e-9);
    configure_run(s, k, scheme, "powertcp");
    Fabric fab(*s.topo, s.chips, s.fp);
    const uint32_t a = uint32_t(s.topo->host("A")), b = uint32_t(s.topo->host("B")), r = uint32_t(s.topo->host("R"));
    fab.add_flow(a, r, 0, 0, 0, 0);
    fab.add_flow(b, r, 0, 0, 0, 0);
    const int sw = s.topo->node("S0");
    const Port& down = fab.tx(sw, 2);  // S0 -> R
    EventQueue& ev = fab.events();
    uint64_t peak_first_rtt = 0, peak = 0, samples = 0, rx = 0;
    double sum = 0;
    fab.on_deliver = [&](int32_t, uint32_t bytes) {
      if (ev.now() >= 500'000'000) rx += bytes;
    };
    std::function<void()> sample = [&] {
      const uint64_t q = down.qbytes[0];
      if (ev.now() < 500'000'000) {
        peak_first_rtt = std::max(peak_first_rtt, q);
      } else {
        peak = std::max(peak, q);
        sum += double(q);
        ++samples;
      }
      ev.after(100'000, sample);  // every 0.1 us
    };
    ev.at(0, sample);
    fab.run(3'000'000'000);  // 3 ms
    ASSERT_TRUE(fab.error.empty()) << fab.error;
    const double mean = sum / double(samples), gbps = double(rx) * 8 / 2.5e6;
    std::printf("%s: queue first 0.5 ms peak %llu B; then mean %.0f B, peak %llu B; R gets %.2f Gb/s; window %.0f B\n",
                scheme == Scheme::DSH ? "dsh" : "sih", (unsigned long long)peak_first_rtt, mean,
                (unsigned long long)peak, gbps, static_cast<const PowerTcpControl&>(*fab.flows()[0].cc).powertcp().cwnd_bytes());
    EXPECT_EQ(fab.stats(sw).pause_frames, 0u);
    EXPECT_EQ(fab.lossless_drops(), 0u);
    EXPECT_LT(peak_first_rtt, 2 * 103'000u);
    EXPECT_LT(mean, 3000);  // within two packets of the empty target on average
    EXPECT_LT(peak, 15'000u);  // ten packets at most
    EXPECT_GT(gbps, 90);
    EXPECT_LE(gbps, 100);
  }
}
