// SPDX-License-Identifier: Apache-2.0
// spec §3: thresholds from S delayed by thresh_latency, saturation at
// zero, the alpha shift over its whole range, and reset.
#include "helpers.h"

using namespace tb;

namespace {

// DSH small, latency L. c0: enq 12 to (0,0) (12 > phi: shared), S_0..S_3 = 12;
// c4: deq 12, S_4.. = 0; c5..c7 idle. T(0) = 44>>1 = 22, T(12) = 32>>1 = 16.
// Returns thr.t of cycles 0..7 and checks out.s (S at the end of each cycle, undelayed).
std::vector<uint64_t> t_per_cycle(unsigned latency) {
  Mmu m(small(Scheme::DSH, -1, latency));
  std::vector<uint64_t> t;
  for (int c = 0; c < 8; ++c) {
    CycleIn in;
    if (c == 0) in = enq(0, 0, 12);
    if (c == 4) in = deq(0, 0, 12);
    const CycleOut o = m.step(in);
    EXPECT_EQ(o.s, c < 4 ? 12u : 0u) << "cycle " << c;
    t.push_back(o.thr.t);
  }
  return t;
}

}  // namespace

// cycle c uses S_{c-L}; S_c = 12 for c in 0..3, else 0 (also for c < 0)
TEST(Thresholds, LatencyOne) {    // S_{-1}, S_0..S_3, S_4..S_6
  EXPECT_EQ(t_per_cycle(1), (std::vector<uint64_t>{22, 16, 16, 16, 16, 22, 22, 22}));
}
TEST(Thresholds, LatencyTwo) {    // S_{-2}, S_{-1}, S_0..S_3, S_4, S_5
  EXPECT_EQ(t_per_cycle(2), (std::vector<uint64_t>{22, 22, 16, 16, 16, 16, 22, 22}));
}
TEST(Thresholds, LatencyThree) {  // S_{-3}..S_{-1}, S_0..S_3, S_4
  EXPECT_EQ(t_per_cycle(3), (std::vector<uint64_t>{22, 22, 22, 16, 16, 16, 16, 22}));
}

// L = 2: the decisions of a cycle use the delayed thresholds.
TEST(Thresholds, DelayedThresholdsDecidePause) {
  Mmu m(small(Scheme::DSH, -1, 2));
  m.step(enq(0, 0, 12));           // c0: S_{-2} = 0, X_qoff 16: shared, 12 <= 16; S_0 = 12
  auto o = m.step(enq(0, 0, 4));   // c1: S_{-1} = 0, X_qoff still 16: omega 16 <= 16, no PAUSE
  EXPECT_EQ(o.thr.x_qoff, 16u);    //     (with L = 1, X_qoff(12) = 10 would have paused)
  EXPECT_TRUE(events(o).empty());
  o = m.step(deq(0, 0, 1));        // c2: S_0 = 12: X_qoff = 16-6 = 10; omega 15 > 10: PAUSE
  EXPECT_EQ(o.thr.x_qoff, 10u);
  EXPECT_EQ(events(o), (Evs{"PAUSE 0.0"}));
}

// DSH small, delta_q = 3, delta_p = 5:
//  S = 0:  T 22, X_qoff 16, X_qon 13, X_poff 44, X_pon 39
//  S = 12: T 16, X_qoff 10, X_qon 7,  X_poff 32, X_pon 27
TEST(Thresholds, DshValues) {
  Config c = small(Scheme::DSH);
  c.delta_q = 3;
  c.delta_p = 5;
  Mmu m(c);
  auto o = m.step(enq(0, 0, 12));
  EXPECT_EQ(o.thr.t, 22u);
  EXPECT_EQ(o.thr.x_qoff, 16u);
  EXPECT_EQ(o.thr.x_qon, 13u);
  EXPECT_EQ(o.thr.x_poff, 44u);
  EXPECT_EQ(o.thr.x_pon, 39u);
  o = m.idle();
  EXPECT_EQ(o.thr.t, 16u);
  EXPECT_EQ(o.thr.x_qoff, 10u);
  EXPECT_EQ(o.thr.x_qon, 7u);
  EXPECT_EQ(o.thr.x_poff, 32u);
  EXPECT_EQ(o.thr.x_pon, 27u);
  const dsh::Thresholds t = m.thresholds_for(12);
  EXPECT_EQ(t.x_qon, 7u);
  EXPECT_EQ(t.x_pon, 27u);
}

// port_mult_log2 = 3: X_poff = T << 3 = 8T.
TEST(Thresholds, PortMultiplier) {
  Config c = small(Scheme::DSH);
  c.port_mult_log2 = 3;
  EXPECT_EQ(Mmu(c).thresholds_for(0).x_poff, 176u);  // 22*8
  c.port_mult_log2 = 0;
  EXPECT_EQ(Mmu(c).thresholds_for(0).x_poff, 22u);
}

// SIH small, delta_q = 3: X_off = T, X_on = T - 3, no port thresholds.
TEST(Thresholds, SihValues) {
  Config c = small(Scheme::SIH);
  c.delta_q = 3;
  Mmu m(c);
  dsh::Thresholds t = m.thresholds_for(0);   // T = 32>>1 = 16
  EXPECT_EQ(t.t, 16u);
  EXPECT_EQ(t.x_qoff, 16u);
  EXPECT_EQ(t.x_qon, 13u);
  EXPECT_EQ(t.x_poff, 0u);
  EXPECT_EQ(t.x_pon, 0u);
  t = m.thresholds_for(11);                  // T = 21>>1 = 10 (floor of 10.5)
  EXPECT_EQ(t.t, 10u);
  EXPECT_EQ(t.x_qoff, 10u);
  EXPECT_EQ(t.x_qon, 7u);
}

TEST(Thresholds, SaturateAtZero) {
  Config c = small(Scheme::DSH);
  c.delta_q = 3;
  c.delta_p = 50;
  Mmu m(c);
  dsh::Thresholds t = m.thresholds_for(0);   // X_pon = sat0(44-50) = 0
  EXPECT_EQ(t.x_poff, 44u);
  EXPECT_EQ(t.x_pon, 0u);
  t = m.thresholds_for(31);                  // T = 13>>1 = 6: X_qoff = 6-6 = 0, X_qon = sat0(0-3) = 0
  EXPECT_EQ(t.t, 6u);
  EXPECT_EQ(t.x_qoff, 0u);
  EXPECT_EQ(t.x_qon, 0u);
  t = m.thresholds_for(34);                  // T = 10>>1 = 5: X_qoff = sat0(5-6) = 0, X_poff 10, X_pon 0
  EXPECT_EQ(t.t, 5u);
  EXPECT_EQ(t.x_qoff, 0u);
  EXPECT_EQ(t.x_qon, 0u);
  EXPECT_EQ(t.x_poff, 10u);
  EXPECT_EQ(t.x_pon, 0u);
  t = m.thresholds_for(44);                  // pool full: everything 0
  EXPECT_EQ(t.t, 0u);
  EXPECT_EQ(t.x_qoff, 0u);
  EXPECT_EQ(t.x_poff, 0u);
  Config s = small(Scheme::SIH);
  s.delta_q = 20;
  EXPECT_EQ(Mmu(s).thresholds_for(0).x_qon, 0u);  // sat0(16-20)
}

// SIH, 1 x 1, phi = 0, eta = 0, B = 3000: B_s = 3000.
// T = floor(free * 2^a); free = 3000 (S = 0) and 2000 (S = 1000).
TEST(Thresholds, AlphaLog2FullRange) {
  struct Row { int a; uint64_t t3000, t2000; };
  const Row rows[] = {
      {-10, 2, 1},     // 2.93, 1.95
      {-9, 5, 3},      // 5.86, 3.91
      {-8, 11, 7},     // 11.72, 7.81
      {-7, 23, 15},    // 23.44, 15.63
      {-6, 46, 31},    // 46.88, 31.25
      {-5, 93, 62},    // 93.75, 62.5
      {-4, 187, 125},  // 187.5, 125
      {-3, 375, 250},
      {-2, 750, 500},
      {-1, 1500, 1000},
      {0, 3000, 2000},
      {1, 6000, 4000},
      {2, 12000, 8000},
      {3, 24000, 16000},
  };
  for (const Row& r : rows) {
    Config c;
    c.scheme = Scheme::SIH;
    c.n_ports = c.n_queues = 1;
    c.private_cells = 0;
    c.headroom_cells = 0;
    c.buffer_cells = 3000;
    c.alpha_log2 = r.a;
    Mmu m(c);
    EXPECT_EQ(m.thresholds_for(0).t, r.t3000) << "alpha_log2 " << r.a;
    EXPECT_EQ(m.thresholds_for(1000).t, r.t2000) << "alpha_log2 " << r.a;
    EXPECT_EQ(m.idle().thr.t, r.t3000) << "alpha_log2 " << r.a;  // S = 0 in effect after reset
  }
}

// Default configuration: DSH B_s = 55552, T = 55552>>4 = 3472, X_qoff = 3472-228 = 3244,
// X_poff = 3472<<3 = 27776; SIH B_s = 11776, T = 736.
TEST(Thresholds, DefaultConfig) {
  Config c;
  c.scheme = Scheme::DSH;
  dsh::Thresholds t = Mmu(c).thresholds_for(0);
  EXPECT_EQ(t.t, 3472u);
  EXPECT_EQ(t.x_qoff, 3244u);
  EXPECT_EQ(t.x_qon, 3244u);
  EXPECT_EQ(t.x_poff, 27776u);
  EXPECT_EQ(t.x_pon, 27776u);
  c.scheme = Scheme::SIH;
  t = Mmu(c).thresholds_for(0);
  EXPECT_EQ(t.t, 736u);
  EXPECT_EQ(t.x_qoff, 736u);
}

TEST(Thresholds, ResetClearsStateAndHistory) {
  Mmu m(small(Scheme::DSH, -1, 3));
  m.step(enq(0, 0, 12));           // S = 12
  m.step(enq(9, 0, 1));            // error
  m.idle();
  ASSERT_EQ(m.idle().thr.t, 16u);  // c3 uses S_0 = 12
  m.reset();
  EXPECT_EQ(m.cycle(), 0u);
  EXPECT_EQ(m.s(), 0u);
  EXPECT_EQ(occ(m, 0, 0), "0/0/0");
  EXPECT_EQ(m.buffered_cells(), 0u);
  EXPECT_EQ(m.errors(), 0u);
  EXPECT_FALSE(m.error_sticky());
  EXPECT_EQ(m.idle().thr.t, 22u);  // history back to S = 0
}
