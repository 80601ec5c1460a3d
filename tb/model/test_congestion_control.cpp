// SPDX-License-Identifier: Apache-2.0
// The congestion-control strategies on their own, with their timers on an
// event queue. DCQCN with its defaults at 100 Gb/s (g = 1/256, alpha
// interval 1 us, decrease interval 4 us, increase timer 300 us, one fast
// recovery step).
#include <gtest/gtest.h>

#include <cmath>

#include "congestion_control.h"

namespace dsh::net {
namespace {

TEST(CongestionControl, NoneSendsAtLineRateWithoutWindow) {
  EventQueue ev;
  auto cc = make_congestion_control(CcKind::None, 100, DcqcnParams{}, PowerTcpParams{}, ev);
  EXPECT_TRUE(std::isinf(cc->rate_gbps()));
  EXPECT_TRUE(cc->window_open(uint64_t(1) << 40));
  EXPECT_FALSE(cc->wants_acks());
  EXPECT_FALSE(cc->answers_marks());
}

// CNP at 0: the first cuts at once with alpha = 1: 100 -> 50 Gb/s, increase
// timer at 300 us. CNP at 2 us: inside the 4 us decrease interval, so the
// cut waits until 4 us; alpha then is, interval by interval (a CNP in the
// interval: (1-g) a + g; none: (1-g) a):
//   at 2 us: a2 = ((1-g) * 1 + g) (1-g)    (the intervals ending at 1, 2 us)
//   at 4 us: a4 = ((1-g) a2 + g) (1-g)     (ending at 3 us with the CNP, 4 us)
// rate 50 (1 - a4/2). The cut restarts the increase timer: the one armed for
// 300 us does nothing, the one at 304 us is fast recovery, halfway to the
// target 100.
TEST(CongestionControl, DcqcnPendingCutAndIncreaseTimer) {
  EventQueue ev;
  auto cc = make_congestion_control(CcKind::Dcqcn, 100, DcqcnParams{}, PowerTcpParams{}, ev);
  EXPECT_TRUE(cc->answers_marks());
  EXPECT_DOUBLE_EQ(cc->rate_gbps(), 100);
  const double g = 1.0 / 256;
  const double a2 = ((1 - g) * 1 + g) * (1 - g);
  const double a4 = ((1 - g) * a2 + g) * (1 - g);
  const double r4 = 50 * (1 - a4 / 2);
  std::vector<std::pair<uint64_t, double>> seen;
  for (uint64_t t : {1'000'000u, 3'000'000u, 5'000'000u, 303'000'000u, 305'000'000u})
    ev.at(t, [&, t] { seen.emplace_back(t, cc->rate_gbps()); });
  ev.at(0, [&] { cc->on_cnp(); });
  ev.at(2'000'000, [&] { cc->on_cnp(); });
  ev.run(400'000'000);
  ASSERT_EQ(seen.size(), 5u);
  EXPECT_DOUBLE_EQ(seen[0].second, 50);
  EXPECT_DOUBLE_EQ(seen[1].second, 50);
  EXPECT_NEAR(seen[2].second, r4, 1e-9);
  EXPECT_NEAR(seen[3].second, r4, 1e-9);
  EXPECT_NEAR(seen[4].second, (r4 + 100) / 2, 1e-9);
}

}  // namespace
}  // namespace dsh::net
