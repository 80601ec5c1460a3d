// SPDX-License-Identifier: Apache-2.0
// S3, PFC deadlock (systemc/network/deadlock.h): the detector on a running
// network, the offered load's two readings, and the MMU clock's delay line
// when hooks read the switches' state. Worked by hand in the comments.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "deadlock.h"
#include "net_setup.h"

using namespace dsh;
using namespace dsh::net;

// The detector on a running fabric. The S3 leaf-spine with its two failed
// links, routed by ECMP, at the per-leaf reading of the paper's load 0.5
// (800 Gb/s per leaf pair) offers L0's one working uplink L0->S0 and the
// detour links S0->L1, S0->L2 twice their 400 Gb/s (worked in
// OfferedLoadByHand), so PFC closes one of the two detour cycles within a
// millisecond. The same network without failures routes up-down (no cyclic
// buffer dependency): congested, with PAUSE frames, but it can never
// deadlock.
namespace {
KeyStore deadlock_keys() {
  KeyStore k;
  declare_deadlock_keys(k);
  k.load_toml(DSH_SCENARIO_DIR "/deadlock.toml");
  k.set("traffic.load_unit", "leaf");
  k.set("traffic.load", "0.5");
  k.set("deadlock.still_us", "200");
  return k;
}
}  // namespace

TEST(NetDeadlock, DetectedInTheFailedLinkLeafSpine) {
  KeyStore k = deadlock_keys();
  NetSetup s = build_setup(k);
  const DeadlockRun r = run_deadlock(k, s, Scheme::SIH, "none", 1, 1.5, 0.5);
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_TRUE(r.deadlocked);
  // One of the two detour cycles, as the detector prints it from its first link.
  const std::vector<std::string> cycles = {"S0>L1 L1>S1 S1>L2 L2>S0", "L1>S1 S1>L2 L2>S0 S0>L1",
                                           "S1>L2 L2>S0 S0>L1 L1>S1", "L2>S0 S0>L1 L1>S1 S1>L2",
                                           "S0>L2 L2>S1 S1>L1 L1>S0", "L2>S1 S1>L1 L1>S0 S0>L2",
                                           "S1>L1 L1>S0 S0>L2 L2>S1", "L1>S0 S0>L2 L2>S1 S1>L1"};
  EXPECT_NE(std::find(cycles.begin(), cycles.end(), r.cycle), cycles.end()) << r.cycle;
  EXPECT_LT(r.onset_ms, r.detected_ms);
  EXPECT_GE(r.detected_ms - r.onset_ms, 0.2);  // still for deadlock.still_us before it counts
  EXPECT_EQ(r.lossless_drops, 0u);
}

TEST(NetDeadlock, CongestedUpDownNetworkIsNot) {
  KeyStore k = deadlock_keys();
  k.set("net.failed_links", "");
  k.set("net.routes", "");
  NetSetup s = build_setup(k);
  const DeadlockRun r = run_deadlock(k, s, Scheme::SIH, "none", 1, 1.0, 0.5);
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_GT(r.pause_frames, 0u);  // congested: PFC at work
  EXPECT_FALSE(r.deadlocked) << r.cycle;
  EXPECT_EQ(r.lossless_drops, 0u);
}

// The load's two readings on the S3 network, worked by hand. Per leaf pair:
// leaf = load x 16 x 100 Gb/s, receiver = load x 100 Gb/s. ECMP splits
// evenly: L0 -> S0 carries all of L0->L3 (S1-L0 failed); S0 -> L1 carries
// half of L0->L3 (S0 -> {L1, L2}) plus half of L2->L1 (L2 -> {S0, S1}).
//   leaf 0.25: 400 Gb/s per pair; L0->S0 = 400, S0->L1 = 200 + 200 = 400:
//     both exactly full (1.0): the largest feasible per-leaf load.
//   leaf 0.5: 800 per pair: 2.0, infeasible.
//   receiver 0.5: 50 per pair: L0->S0 = 50 of 400 = 0.125.
TEST(NetDeadlock, OfferedLoadByHand) {
  KeyStore k = deadlock_keys();
  NetSetup s = build_setup(k);
  EXPECT_NEAR(offered_load(k, *s.topo, 0.25).utilisation, 1.0, 1e-9);
  EXPECT_NEAR(offered_load(k, *s.topo, 0.5).utilisation, 2.0, 1e-9);
  EXPECT_NEAR(offered_load(k, *s.topo, 0.5).gbps, 800, 1e-6);
  k.set("traffic.load_unit", "receiver");
  EXPECT_NEAR(offered_load(k, *s.topo, 0.5).utilisation, 0.125, 1e-9);
  // The load list: each once, as point text.
  k.set("traffic.load", "0.1, 0.50, 0.1,0.9");
  EXPECT_EQ(deadlock_loads(k), (std::vector<std::string>{"0.1", "0.5", "0.9"}));
  EXPECT_THROW(k.set("traffic.load", "0.5,0"), ConfigError);
  EXPECT_THROW(k.set("traffic.load", "1.5"), ConfigError);
}

// A network's golden switches decide when stepped and the MMU clock holds
// their results, so their state runs kRtlLatency cycles ahead of their
// outputs. The hooks that read state (on_retire, on_mmu_out) make the clock
// feed the model through a delay line instead; that is chosen before the
// MMUs run (refused after), and gives the same packets at the same times.
// One flow of 10 packets H0 -> H20 crosses three switches (L0, a spine,
// L1): at least 10 enqueue cycles each.
TEST(NetFabric, StateHooksTakeTheDelayLineBeforeTheRun) {
  KeyStore k = deadlock_keys();
  NetSetup s = build_setup(k);
  configure_run(s, k, Scheme::DSH, "none");
  uint64_t last[2] = {0, 0};
  for (int hooks = 0; hooks < 2; ++hooks) {
    Fabric fab(*s.topo, s.chips, s.fp);
    uint64_t retired = 0;
    if (hooks) fab.on_retire = [&](int, const Op*, unsigned) { ++retired; };
    fab.on_deliver = [&](int32_t, uint32_t) { last[hooks] = fab.events().now(); };
    fab.add_flow(0, 20, 0, 15000, 0, 0);
    fab.run(100'000'000);
    ASSERT_EQ(fab.error, "");
    EXPECT_EQ(fab.flows()[0].delivered, 15000u);
    if (hooks) {
      EXPECT_GE(retired, 30u);
    }
    if (!hooks) {
      fab.on_mmu_out = [](int, const Thresholds&) {};
      EXPECT_THROW(fab.run(200'000'000), std::logic_error);
    }
  }
  EXPECT_GT(last[0], 0u);
  EXPECT_EQ(last[0], last[1]);
}
