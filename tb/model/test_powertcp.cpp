// SPDX-License-Identifier: Apache-2.0
// PowerTCP's window update (systemc/model/powertcp.h), worked by hand.
#include <gtest/gtest.h>

#include "powertcp.h"

using namespace dsh;
using namespace dsh::net;

// PowerTCP's window update (powertcp.h), worked by hand. tau = 10 us, one
// 100 Gb/s hop: BDP b*tau = 125,000 B; beta*tau = 150 Mb/s * 10 us = 187.5 B;
// gamma 0.9, target 0.95; the first window is one BDP, u starts at 1.
//   ACK 1 (acks 1,500 B; 125,000 B sent): hop at 10 us, 125,000 B entered,
//     queue 0; previous INT zero: current = 125,000 B / 10 us = 100 Gb/s,
//     Gamma = (100/100) * (0 + 125,000) / 125,000 = 1, dt = 10 us = tau, u = 1;
//     cwnd = 0.9 * (125,000 / (1/0.95) + 187.5) + 0.1 * 125,000
//          = 0.9 * 118,937.5 + 12,500 = 119,543.75 B (95.635 Gb/s);
//     1,500 > 0 acknowledged at the last update: committed, cwnd_old = 119,543.75.
//   ACK 2 (acks 3,000 B, within the RTT): hop at 12 us, 175,000 B, queue
//     62,500 B: current = 50,000 B / 2 us = 200 Gb/s,
//     Gamma = 2 * (62,500 + 125,000) / 125,000 = 3, u = (1*8 + 3*2) / 10 = 1.4;
//     cwnd = 0.9 * (119,543.75 * 0.95 / 1.4 + 187.5) + 0.1 * 119,543.75
//          = 0.9 * (81,118.97321 + 187.5) + 11,954.375 = 85,130.20089 B;
//     3,000 <= 125,000: not committed, cwnd_old stays 119,543.75.
//   ACK 3 (acks 126,500 B; 240,000 B sent): hop at 14 us, 180,000 B, queue
//     0: 5,000 B / 2 us = 20 Gb/s, below the floor 0.5 * 100: current 50,
//     Gamma = 0.5, u = (1.4*8 + 0.5*2) / 10 = 1.22;
//     cwnd = 0.9 * (113,566.5625 / 1.22 + 187.5) + 11,954.375 = 95,901.73668 B;
//     committed (126,500 > 125,000).
TEST(NetPowerTcp, WindowUpdateByHand) {
  PowerTcpParams p;
  p.base_rtt_us = 10;
  PowerTcp w(p);
  EXPECT_DOUBLE_EQ(w.cwnd_bytes(), 125000);
  EXPECT_DOUBLE_EQ(w.rate_gbps(), 100);
  IntStack a;
  a.push({10'000'000, 125'000, 0, 100});
  a.ack_bytes = 1500;
  EXPECT_TRUE(w.on_ack(a, 125'000));
  EXPECT_NEAR(w.power(), 1, 1e-12);
  EXPECT_NEAR(w.cwnd_bytes(), 119543.75, 1e-6);
  EXPECT_NEAR(w.rate_gbps(), 95.635, 1e-9);
  IntStack b;
  b.push({12'000'000, 175'000, 62'500, 100});
  b.ack_bytes = 3000;
  EXPECT_FALSE(w.on_ack(b, 130'000));
  EXPECT_NEAR(w.power(), 1.4, 1e-12);
  EXPECT_NEAR(w.cwnd_bytes(), 85130.20089, 1e-4);
  EXPECT_NEAR(w.cwnd_old_bytes(), 119543.75, 1e-6);
  IntStack c;
  c.push({14'000'000, 180'000, 0, 100});
  c.ack_bytes = 126'500;
  EXPECT_TRUE(w.on_ack(c, 240'000));
  EXPECT_NEAR(w.power(), 1.22, 1e-12);
  EXPECT_NEAR(w.cwnd_bytes(), 95901.73668, 1e-4);
  EXPECT_NEAR(w.cwnd_old_bytes(), 95901.73668, 1e-4);
}

// The bottleneck hop decides: of two hops, the one with the larger power
// (a 400 Gb/s hop at half its rate, queue 0: 0.5; a 100 Gb/s hop at its rate
// with 250,000 B queued: (250,000 + 125,000) / 125,000 = 3), and the window
// stays within [min_rate, line] * tau = [125, 125,000] B (beta = 0 here: with
// beta tau = 187.5 B the window cannot fall below 0.9 * 187.5 B).
TEST(NetPowerTcp, BottleneckHopAndBounds) {
  PowerTcpParams p;
  p.base_rtt_us = 10;
  p.beta_mbps = 0;
  PowerTcp w(p);
  IntStack t;
  t.push({10'000'000, 250'000, 0, 400});
  t.push({10'000'000, 125'000, 250'000, 100});
  uint64_t dt = 0;
  EXPECT_NEAR(w.norm_power(t, &dt), 3, 1e-12);
  EXPECT_EQ(dt, 10'000'000u);
  IntStack idle;  // nothing arrived: the floor (0.5) everywhere, the window grows to the line rate
  idle.push({10'000'000, 0, 0, 100});
  for (int i = 1; i < 50; ++i) {
    idle.hop[0].ts_ps = uint64_t(i) * 10'000'000;
    idle.ack_bytes = uint64_t(i) * 1'000'000;
    w.on_ack(idle, uint64_t(i) * 1'000'000);
  }
  EXPECT_DOUBLE_EQ(w.cwnd_bytes(), 125000);
  IntStack jam;  // 10 MB queued at the hop: Gamma = 81, the window shrinks ~9x per update to its floor
  jam.push({0, 0, 10'000'000, 100});
  for (int i = 50; i < 200; ++i) {
    jam.hop[0].ts_ps = uint64_t(i) * 10'000'000;
    jam.hop[0].rx_bytes = uint64_t(i) * 125'000;
    jam.ack_bytes = uint64_t(i) * 1'000'000;
    w.on_ack(jam, uint64_t(i) * 1'000'000);
  }
  EXPECT_DOUBLE_EQ(w.cwnd_bytes(), 125);
}
