// SPDX-License-Identifier: Apache-2.0
// A switch and its MMU clock in a one-switch network (A, B, R on S at
// 100 Gb/s, 1 us links; MMU clock 1 GHz), with the golden model whose
// results the clock holds and with a golden model that has the latency
// itself (make_delayed): the same times and statistics.
#include <gtest/gtest.h>

#include "fabric.h"

namespace dsh::net {
namespace {

struct OneSwitch {
  Topology topo{{"S"}, {"A", "B", "R"}, {{"A", "S", 100, 1000}, {"B", "S", 100, 1000}, {"R", "S", 100, 1000}}, {}};
  std::unique_ptr<Fabric> fab;
  explicit OneSwitch(bool held) {
    std::vector<SwitchChip> chips;
    std::unique_ptr<MmuModel> m = make_golden(Config{});
    if (!held) m = make_delayed(std::move(m), kRtlLatency);
    chips.push_back(SwitchChip{256, 1.0, std::move(m)});
    fab = std::make_unique<Fabric>(topo, std::move(chips), FabricParams{});
  }
};

// One 1500 B packet A -> R. Its last bit reaches S at 120 + 1000 ns; the
// enqueue takes MMU cycle 1120 (1 ns each), whose results act at the start
// of cycle 1120 + kRtlLatency + 1 = 1125: the packet starts toward R at
// 1125 ns and arrives at 1125 + 120 + 1000 ns.
TEST(SwitchMmuClock, DecisionLatencyOfBothModels) {
  for (bool held : {true, false}) {
    OneSwitch n(held);
    uint64_t at = 0;
    n.fab->on_deliver = [&](int32_t, uint32_t) { at = n.fab->events().now(); };
    n.fab->add_flow(0, 2, 0, 1500, 0, 0);
    n.fab->run(~uint64_t(0));
    ASSERT_EQ(n.fab->error, "");
    EXPECT_EQ(at, 2'245'000u) << (held ? "held" : "delayed");
    EXPECT_EQ(n.fab->stats(0).forwarded, 1u);
  }
}

// A and B send 100 packets of 1500 B (6 cells) each to R at once: R's link
// drains half of what arrives, so each ingress queue peaks near 50 packets
// = 300 cells, 288 above its 12 private cells; the shared occupancy peaks
// near 2 * 288 = 576 cells (within a packet per queue), far below the
// pause threshold. The peak is the same whichever model decides.
TEST(SwitchMmuClock, PeakSharedOccupancyOnEveryPath) {
  uint64_t peak[2] = {0, 0};
  for (bool held : {true, false}) {
    OneSwitch n(held);
    n.fab->add_flow(0, 2, 0, 150'000, 0, 0);
    n.fab->add_flow(1, 2, 0, 150'000, 0, 0);
    n.fab->run(~uint64_t(0));
    ASSERT_EQ(n.fab->error, "");
    EXPECT_EQ(n.fab->stats(0).pause_frames, 0u);
    EXPECT_EQ(n.fab->flows()[0].delivered + n.fab->flows()[1].delivered, 300'000u);
    peak[held] = n.fab->stats(0).peak_s;
    EXPECT_GE(peak[held], 576u - 12) << (held ? "held" : "delayed");
    EXPECT_LE(peak[held], 576u + 12) << (held ? "held" : "delayed");
  }
  EXPECT_EQ(peak[0], peak[1]);
}

}  // namespace
}  // namespace dsh::net
