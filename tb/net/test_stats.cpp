// SPDX-License-Identifier: Apache-2.0
// The intervals of systemc/network/stats.h against values worked by hand
// and published tables.
#include <gtest/gtest.h>

#include <cmath>

#include "stats.h"

using namespace dsh::net;

// The Wilson 95 % interval, worked by hand with z = 1.959964, z^2 = 3.841459:
//   k = 0, n = 10: centre = half = z^2/2 / (n + z^2), so [0, z^2/(n + z^2)]
//     = [0, 3.841459/13.841459] = [0, 0.277533].
//   k = 4, n = 100: centre = (4 + 1.920729)/103.841459 = 0.057017;
//     half = 1.959964 * 10/103.841459 * sqrt(0.04*0.96 + 3.841459/400)
//          = 0.188746 * sqrt(0.048004) = 0.188746 * 0.219098 = 0.041354;
//     [0.015663, 0.098371] (the paper's DSH/DCQCN 4 of 100).
//   k = n = 16: the mirror of k = 0: [16/(16 + z^2), 1] = [16/19.841459, 1] = [0.806392, 1].
TEST(stats, WilsonIntervalByHand) {
  const Interval a = wilson_interval(0, 10);
  EXPECT_EQ(a.lo, 0);
  EXPECT_NEAR(a.hi, 0.277533, 1e-6);
  const Interval b = wilson_interval(4, 100);
  EXPECT_NEAR(b.lo, 0.015663, 1e-6);
  EXPECT_NEAR(b.hi, 0.098371, 1e-6);
  const Interval c = wilson_interval(16, 16);
  EXPECT_NEAR(c.lo, 0.806392, 1e-6);
  EXPECT_EQ(c.hi, 1);
}

// k = 45, n = 100: centre = (45 + 1.920729)/103.841459 = 0.451850;
//   half = 0.188746 * sqrt(0.45*0.55 + 3.841459/400) = 0.188746 * sqrt(0.257104)
//        = 0.188746 * 0.507054 = 0.095704; [0.356146, 0.547554].
TEST(stats, WilsonIntervalNearAHalf) {
  const Interval i = wilson_interval(45, 100);
  EXPECT_NEAR(i.lo, 0.356146, 2e-6);
  EXPECT_NEAR(i.hi, 0.547554, 2e-6);
}

// t_{0.975, df} from the three-decimal tables (NIST/SEMATECH 1.3.6.7.2;
// Abramowitz and Stegun table 26.10): 12.706 (1), 4.303 (2), 2.776 (4),
// 2.228 (10), 2.042 (30), 2.000 (60), 1.980 (120); the normal 1.960 far out.
TEST(stats, StudentTQuantilesMatchThePublishedTable) {
  EXPECT_NEAR(t95(1), 12.706, 5e-4);
  EXPECT_NEAR(t95(2), 4.303, 5e-4);
  EXPECT_NEAR(t95(4), 2.776, 5e-4);
  EXPECT_NEAR(t95(10), 2.228, 5e-4);
  EXPECT_NEAR(t95(30), 2.042, 5e-4);
  EXPECT_NEAR(t95(60), 2.000, 5e-4);
  EXPECT_NEAR(t95(120), 1.980, 5e-4);
  EXPECT_NEAR(t95(100000), 1.960, 5e-4);
  // Decreasing in df, across the table's end too.
  for (uint64_t df = 1; df < 200; ++df) EXPECT_GT(t95(df), t95(df + 1)) << df;
}

// {1, 2, 3, 4, 5}: mean 3, s^2 = (4+1+0+1+4)/4 = 2.5, s/sqrt(5) = sqrt(0.5)
//   = 0.707107; half = 2.7764 * 0.707107 = 1.963213: [1.036787, 4.963213].
// {0.9, 1.1}: mean 1, s = sqrt(0.02) = 0.141421, s/sqrt(2) = 0.1;
//   half = 12.7062 * 0.1 = 1.27062: [-0.27062, 2.27062].
// One value: its mean, no interval.
TEST(stats, TIntervalOfAMeanByHand) {
  const MeanInterval a = t_interval({1, 2, 3, 4, 5});
  EXPECT_EQ(a.n, 5u);
  EXPECT_DOUBLE_EQ(a.mean, 3);
  EXPECT_NEAR(a.lo, 1.036787, 1e-5);
  EXPECT_NEAR(a.hi, 4.963213, 1e-5);
  const MeanInterval b = t_interval({0.9, 1.1});
  EXPECT_NEAR(b.mean, 1, 1e-12);
  EXPECT_NEAR(b.lo, -0.27062, 1e-5);
  EXPECT_NEAR(b.hi, 2.27062, 1e-5);
  const MeanInterval c = t_interval({0.7});
  EXPECT_FALSE(c.has_interval());
  EXPECT_DOUBLE_EQ(c.mean, 0.7);
  EXPECT_FALSE(t_interval({}).has_interval());
}
