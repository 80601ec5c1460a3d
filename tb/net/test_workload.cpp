// SPDX-License-Identifier: Apache-2.0
// Flow sizes and gaps (systemc/network/workload.h): the CDF sampler and
// Poisson arrivals against hand-worked means.
#include <gtest/gtest.h>

#include <random>

#include "input.h"
#include "workload.h"

using namespace dsh;
using namespace dsh::net;

TEST(NetWorkload, CdfSampler) {
  // 50 % of flows uniform in [0, 100] B, 50 % in [100, 300] B.
  const SizeCdf c({{0, 0}, {100, 0.5}, {300, 1}}, "test");
  EXPECT_EQ(c.at(0.25), 50u);
  EXPECT_EQ(c.at(0.75), 200u);
  EXPECT_EQ(c.at(1.0), 300u);
  EXPECT_DOUBLE_EQ(c.mean_bytes(), 125);  // 0.5*50 + 0.5*200
  std::mt19937_64 rng(3);
  double sum = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) sum += double(c.sample(rng));
  EXPECT_NEAR(sum / n, 125, 1.5);  // sd of the mean ~0.2
  EXPECT_THROW(SizeCdf({{0, 0}, {100, 0.6}, {50, 1}}, "test"), InputError);   // sizes decrease
  EXPECT_THROW(SizeCdf({{0, 0}, {100, 0.6}}, "test"), InputError);             // does not reach 1
  // The Hadoop file: 50 % of flows at most 700 B; the median is that point.
  const SizeCdf h = SizeCdf::load(DSH_DATA_DIR "/hadoop.cdf");
  EXPECT_EQ(h.at(0.5), 700u);
  EXPECT_EQ(h.at(0.975), 1'000'000u);
  // Poisson gaps: mean = mean_bytes*8/(load*rate): 125 B at 50 % of 100 Gb/s = 20 ns.
  double g = 0;
  for (int i = 0; i < n; ++i) g += double(poisson_gap_ps(rng, 125, 100, 0.5));
  EXPECT_NEAR(g / n, 20000, 200);
}
