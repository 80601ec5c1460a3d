// SPDX-License-Identifier: Apache-2.0
// DCQCN's rate response and ECN marking (systemc/model/dcqcn.h), worked by
// hand with HPCC's defaults.
#include <gtest/gtest.h>

#include "dcqcn.h"

using namespace dsh;
using namespace dsh::net;

// HPCC defaults (g = 1/256, alpha every 1 us, cuts at most every 4 us,
// increase timer 300 us, one fast-recovery step, AI 20 Mb/s), worked by hand:
//   t=0: first CNP: alpha = 1, rate = 100 * (1 - 1/2) = 50, target stays 100.
//   t=300 us: stage 0 < 1: fast recovery, rate = (50 + 100) / 2 = 75.
//   t=600 us: stage 1 = 1: additive, target = min(100, 100.02) = 100, rate = 87.5.
//   t=700 us: CNP. alpha: the interval ending at 1 us had the first CNP:
//     (1-g)*1 + g = 1; 699 intervals without: (255/256)^699 = 0.0648411;
//     target = 87.5 (an increase happened), rate = 87.5 * (1 - 0.0648411/2) = 84.6632.
//   t=702 us: CNP within 4 us of the cut: no cut now, one due at 704 us.
TEST(NetDcqcn, RateResponseToMarkedPackets) {
  DcqcnParams p;
  Dcqcn d(p);
  EXPECT_DOUBLE_EQ(d.rate_gbps(), 100);
  EXPECT_TRUE(d.on_cnp(0));
  EXPECT_DOUBLE_EQ(d.rate_gbps(), 50);
  EXPECT_DOUBLE_EQ(d.target_gbps(), 100);
  EXPECT_EQ(d.increase_due_ps(), 300'000'000u);
  d.on_increase_timer(300'000'000);
  EXPECT_DOUBLE_EQ(d.rate_gbps(), 75);
  EXPECT_EQ(d.increase_due_ps(), 600'000'000u);
  d.on_increase_timer(600'000'000);
  EXPECT_DOUBLE_EQ(d.target_gbps(), 100);
  EXPECT_DOUBLE_EQ(d.rate_gbps(), 87.5);
  EXPECT_TRUE(d.on_cnp(700'000'000));
  EXPECT_NEAR(d.alpha_at(700'000'000), 0.0648411, 1e-6);
  EXPECT_NEAR(d.rate_gbps(), 84.6632, 1e-3);
  EXPECT_DOUBLE_EQ(d.target_gbps(), 87.5);
  EXPECT_FALSE(d.on_cnp(702'000'000));
  EXPECT_EQ(d.decrease_due_ps(), 704'000'000u);
  // Hyper increase after the additive step: stage 0 FR, 1 AI, 2 HAI (+0.2).
  Dcqcn h(p);
  h.on_cnp(0);  // 50 / 100
  h.on_increase_timer(1);  // FR 75
  h.on_increase_timer(2);  // AI: target 100, rate 87.5
  h.on_increase_timer(3);  // HAI: target 100 (capped), rate 93.75
  EXPECT_DOUBLE_EQ(h.rate_gbps(), 93.75);
  // The floor: many cuts at alpha = 1 never go below min_rate (1 Gb/s).
  Dcqcn m(p);
  for (int i = 0; i < 20; ++i) m.on_cnp(uint64_t(i) * 5'000'000);
  EXPECT_GE(m.rate_gbps(), 1.0);
  EXPECT_LT(m.rate_gbps(), 1.2);
}

TEST(NetDcqcn, EcnMarkingIsRedLike) {
  // Kmin 400 KB, Kmax 1600 KB, Pmax 0.2 (HPCC, 100 Gb/s).
  EXPECT_EQ(ecn_mark_probability(400'000, 400'000, 1'600'000, 0.2), 0);
  EXPECT_NEAR(ecn_mark_probability(1'000'000, 400'000, 1'600'000, 0.2), 0.1, 1e-12);  // 0.2 * 600/1200
  EXPECT_EQ(ecn_mark_probability(1'600'001, 400'000, 1'600'000, 0.2), 1);
}
