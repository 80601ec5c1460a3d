// SPDX-License-Identifier: Apache-2.0
// The deadlock detector (systemc/network/deadlock_detector.h) on
// wait-for graphs built by hand.
#include <gtest/gtest.h>

#include <vector>

#include "deadlock_detector.h"

using namespace dsh;
using namespace dsh::net;

TEST(NetDeadlock, ConstructedCycleIsFound) {
  // Links 0 -> 1 -> 2 -> 0 all blocked; last moves at 10, 20, 30 us; still for 100 us at 200 us.
  std::vector<WaitLink> g(4);
  for (int i = 0; i < 3; ++i) {
    g[i].blocked = true;
    g[i].last_move_ps = uint64_t(10 * (i + 1)) * 1'000'000;
    g[i].waits_on = {(i + 1) % 3};
  }
  g[3].blocked = true;  // a blocked link that waits on the cycle is not part of it
  g[3].waits_on = {0};
  const auto d = find_deadlock(g, 200'000'000, 100'000'000);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->cycle.size(), 3u);
  EXPECT_EQ(d->onset_ps, 30'000'000u);  // the cycle formed when its last link stopped
}

TEST(NetDeadlock, CongestedButMovingIsNot) {
  std::vector<WaitLink> g(3);
  for (int i = 0; i < 3; ++i) {
    g[i].blocked = true;
    g[i].waits_on = {(i + 1) % 3};
  }
  g[1].last_move_ps = 150'000'000;  // moved 50 us ago: paused on and off, not stuck
  EXPECT_FALSE(find_deadlock(g, 200'000'000, 100'000'000).has_value());
  g[1].last_move_ps = 0;
  g[2].blocked = false;  // one link of the ring can send: no cycle of paused links
  EXPECT_FALSE(find_deadlock(g, 200'000'000, 100'000'000).has_value());
  g[2].blocked = true;
  g[2].waits_on = {};  // a chain, not a cycle
  EXPECT_FALSE(find_deadlock(g, 200'000'000, 100'000'000).has_value());
}
