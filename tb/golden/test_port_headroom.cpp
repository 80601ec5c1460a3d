// SPDX-License-Identifier: Apache-2.0
// Headroom per port (spec §1.2, §1.4, §3.1, §4.3): eta_p of the port decides
// its X_qoff/X_qon (DSH), its insurance (DSH) and its queues' headroom (SIH),
// and B_s subtracts the per-port sums. Every number is worked by hand in the
// comments; the configurations are helpers.h's small chip with eta 4 on
// port 0 and 10 on port 1 unless said otherwise.
#include <random>

#include "helpers.h"

namespace tb {
namespace {

// small(): 2 ports x 2 queues, B = 64, phi = 2, alpha = 1/2, X_poff = 2T, L = 1.
Config two_eta(Scheme s, uint64_t eta0, uint64_t eta1, int alpha_log2 = -1) {
  Config c = small(s, alpha_log2);
  c.port_headroom_cells = {eta0, eta1};
  return c;
}

// DSH B_s = 64 - 8 private - (4 + 10) insurance = 42; SIH B_s = 64 - 8 - 2*(4 + 10) = 28.
TEST(PortHeadroom, SharedBufferSubtractsEachPortsEta) {
  EXPECT_EQ(two_eta(Scheme::DSH, 4, 10).shared_cells(), 42);
  EXPECT_EQ(two_eta(Scheme::SIH, 4, 10).shared_cells(), 28);
  EXPECT_EQ(two_eta(Scheme::DSH, 4, 10).headroom_of(1), 10u);
  // The mixed-speed chip: 24 ports of 228 cells, 8 of 828, B = 131072, phi = 12.
  Config c;
  c.buffer_cells = 131072;
  c.port_headroom_cells.assign(24, 228);
  c.port_headroom_cells.insert(c.port_headroom_cells.end(), 8, 828);
  // private 32*7*12 = 2688; insurance 24*228 + 8*828 = 5472 + 6624 = 12096
  EXPECT_EQ(c.shared_cells(), 131072 - 2688 - 12096);  // 116288
  c.scheme = Scheme::SIH;                             // headroom 7 * 12096 = 84672
  EXPECT_EQ(c.shared_cells(), 131072 - 2688 - 84672);  // 43712
  // The same eta on every port is the single-eta chip: spec §1.4's 55552 and 11776.
  Config one;
  one.port_headroom_cells.assign(32, 228);
  EXPECT_EQ(one.shared_cells(), 55552);
  one.scheme = Scheme::SIH;
  EXPECT_EQ(one.shared_cells(), 11776);
}

// T(S) = (42 - S) >> 1. At S = 0, T = 21: X_qoff = 21 - 4 = 17 on port 0 and
// 21 - 10 = 11 on port 1; with delta_q = 3, X_qon = 14 and 8.
TEST(PortHeadroom, QueuePauseThresholdUsesThePortsEta) {
  Config c = two_eta(Scheme::DSH, 4, 10);
  c.delta_q = 3;
  Mmu m(c);
  EXPECT_EQ(m.thresholds_for(0, 0).x_qoff, 17u);
  EXPECT_EQ(m.thresholds_for(0, 1).x_qoff, 11u);
  EXPECT_EQ(m.thresholds_for(0, 0).x_qon, 14u);
  EXPECT_EQ(m.thresholds_for(0, 1).x_qon, 8u);
  // T and the port limits do not depend on the port: X_poff = 42 both.
  EXPECT_EQ(m.thresholds_for(0, 1).x_poff, 42u);
  EXPECT_EQ(m.thresholds_for(0, 0).t, m.thresholds_for(0, 1).t);
  // T = 3 at S = 36: port 1's X_qoff saturates at 0 (3 - 10 < 0), port 0's is 0 too (3 - 4).
  EXPECT_EQ(m.thresholds_for(36, 1).x_qoff, 0u);
  EXPECT_EQ(m.thresholds_for(30, 0).x_qoff, 2u);  // T = 6: 6 - 4
}

// One cycle whose dequeue (slot 0 in the RTL) and enqueue (slot 1) touch
// queues on ports of different eta: each state machine uses its own port's
// X_qoff. `small_port` has eta 4, the other 10.
void pause_on_the_large_eta_port(unsigned small_port) {
  const unsigned big = 1 - small_port;
  Config c = small_port == 0 ? two_eta(Scheme::DSH, 4, 10) : two_eta(Scheme::DSH, 10, 4);
  Mmu m(c);
  // c0: enq 12 to (small,0): 12 > phi; T(S=0) = 21, X_poff = 42: shared, S = 12.
  //     X_qoff(small) = 21 - 4 = 17: 12 <= 17, no PAUSE.
  CycleOut o = m.step(enq(small_port, 0, 12));
  EXPECT_EQ(region(o), "S");
  EXPECT_EQ(events(o), Evs{});
  // c1: T(S=12) = 15. Dequeue 1 from (small,0): shared 11, S = 11. Enqueue 8 to
  //     (big,0): 8 > phi; 8 <= X_poff 30, 11 + 8 <= 42: shared, S = 19.
  //     (small,0): 11 > X_qoff(small) = 15 - 4 = 11? no.
  //     (big,0):    8 > X_qoff(big)   = 15 - 10 = 5: PAUSE.
  // With eta 4 on both ports (big,0) would stay QON (8 <= 11); with 10 on both,
  // (small,0) would pause too (11 > 5).
  o = m.step(deq_enq(op(small_port, 0, 1), op(big, 0, 8)));
  EXPECT_EQ(region(o), "S");
  EXPECT_EQ(events(o), Evs{"PAUSE " + std::to_string(big) + ".0"});
  EXPECT_EQ(occ(m, small_port, 0), "0/11/0");
  EXPECT_EQ(occ(m, big, 0), "0/8/0");
  EXPECT_EQ(m.s(), 19u);
  expect_invariants(m);
}
TEST(PortHeadroom, DequeuesAndEnqueuesPortEachUseItsOwnEta) { pause_on_the_large_eta_port(0); }
TEST(PortHeadroom, DequeuesAndEnqueuesPortEachUseItsOwnEtaSwapped) { pause_on_the_large_eta_port(1); }

// tight(): alpha = 2^-10, so T = 42 >> 10 = 0 and X_poff = 0: every packet
// past the private buffer goes to its port's insurance, up to eta_p.
TEST(PortHeadroom, DshInsuranceUpToThePortsEta) {
  Mmu m(two_eta(Scheme::DSH, 4, 10, -10));
  EXPECT_EQ(region(m.step(enq(0, 0, 2))), "P");                    // 2 <= phi
  CycleOut o = m.step(enq(0, 0, 3));                                // port 0: 0 + 3 <= 4
  EXPECT_EQ(region(o), "H");
  EXPECT_EQ(events(o), Evs{"PORT_PAUSE 0"});
  EXPECT_EQ(region(m.step(enq(0, 1, 2))), "P");                    // queue (0,1)'s own phi
  EXPECT_EQ(region(m.step(enq(0, 1, 1))), "H");                    // 3 + 1 = 4 <= 4
  EXPECT_EQ(region(m.step(enq(0, 1, 1))), "D");                    // 5 > 4
  EXPECT_EQ(region(m.step(enq(1, 0, 2))), "P");
  o = m.step(enq(1, 0, 6));                                         // port 1: 6 <= 10
  EXPECT_EQ(region(o), "H");
  EXPECT_EQ(events(o), Evs{"PORT_PAUSE 1"});
  EXPECT_EQ(region(m.step(enq(1, 1, 4))), "H");                    // 4 > phi; 6 + 4 = 10 <= 10
  EXPECT_EQ(region(m.step(enq(1, 1, 3))), "D");                    // 3 > phi; 10 + 3 > 10
  EXPECT_EQ(pocc(m, 0), "0/4");
  EXPECT_EQ(pocc(m, 1), "0/10");
  EXPECT_EQ(m.queue(0, 1).drops, 1u);
  EXPECT_EQ(m.queue(1, 1).drops, 1u);
  expect_invariants(m);
}

// SIH, tight: B_s = 28, T = 28 >> 10 = 0 = X_off: past phi, each queue's own
// headroom, eta of its port.
TEST(PortHeadroom, SihQueueHeadroomUpToItsPortsEta) {
  Mmu m(two_eta(Scheme::SIH, 4, 10, -10));
  EXPECT_EQ(region(m.step(enq(0, 0, 2))), "P");
  CycleOut o = m.step(enq(0, 0, 3));  // 3 <= 4
  EXPECT_EQ(region(o), "H");
  EXPECT_EQ(events(o), Evs{"PAUSE 0.0"});
  EXPECT_EQ(region(m.step(enq(0, 0, 1))), "H");  // 4 <= 4
  EXPECT_EQ(region(m.step(enq(0, 0, 1))), "D");  // 5 > 4
  EXPECT_EQ(region(m.step(enq(1, 1, 2))), "P");
  o = m.step(enq(1, 1, 10));  // 10 <= 10
  EXPECT_EQ(region(o), "H");
  EXPECT_EQ(events(o), Evs{"PAUSE 1.1"});
  EXPECT_EQ(region(m.step(enq(1, 1, 1))), "D");  // 11 > 10
  EXPECT_EQ(occ(m, 0, 0), "2/0/4");
  EXPECT_EQ(occ(m, 1, 1), "2/0/10");
  expect_invariants(m);
}

// The same eta on every port, given per port, is the single-eta chip, cycle
// for cycle (random traffic; both models are the golden one, so this checks
// that the per-port path adds nothing of its own).
TEST(PortHeadroom, SameEtaPerPortBehavesAsOneEta) {
  for (Scheme s : {Scheme::SIH, Scheme::DSH}) {
    Config one = small(s, -2, 2);
    Config per = one;
    per.port_headroom_cells = {6, 6};
    Mmu a(one), b(per);
    std::mt19937 rng(5);
    auto r = [&](uint32_t hi) { return std::uniform_int_distribution<uint32_t>(0, hi)(rng); };
    for (int i = 0; i < 20000; ++i) {
      CycleIn in;
      if (r(1)) in.enq = op(r(1), r(1), 1 + r(5));
      if (r(2) == 0) in.deq = op(r(1), r(1), 1 + r(3));
      const CycleOut& x = a.step(in);
      const CycleOut& y = b.step(in);
      ASSERT_EQ(region(x), region(y)) << "cycle " << i;
      ASSERT_EQ(events(x), events(y)) << "cycle " << i;
      ASSERT_EQ(x.s, y.s) << "cycle " << i;
    }
  }
}

TEST(PortHeadroom, RefusesAWrongNumberOfEntries) {
  Config c = small(Scheme::DSH);
  c.port_headroom_cells = {4, 10, 6};  // 3 entries, 2 ports
  const std::string m = reject(c);
  EXPECT_TRUE(has(m, "port_headroom_cells has 3 entries") && has(m, "n_ports = 2")) << m;
  c.port_headroom_cells = {4};
  EXPECT_TRUE(has(reject(c), "has 1 entries")) << reject(c);
}

TEST(PortHeadroom, RefusesAnEtaBeyondCellW) {
  Config c = small(Scheme::DSH);
  c.buffer_cells = 60;
  c.port_headroom_cells = {4, 64};  // CellW = 6 holds 0..63
  const std::string m = reject(c, dsh::RtlWidths{6, 4, 8});
  EXPECT_TRUE(has(m, "port_headroom_cells of port 1 = 64") && has(m, "0..63") && has(m, "CellW")) << m;
  c.port_headroom_cells = {4, 63};  // fits; B_s = 60 - 8 - 67 < 0 is the next refusal
  EXPECT_TRUE(has(reject(c, dsh::RtlWidths{6, 4, 8}), "leaves no shared buffer"));
}

// Text form (spec §1.2): values, COUNTxVALUE runs, commas.
TEST(PortHeadroom, SetParsesListsAndRuns) {
  Config c;
  c.set("port_headroom_cells", "2x4, 10,3x7");
  EXPECT_EQ(c.port_headroom_cells, (std::vector<uint64_t>{4, 4, 10, 7, 7, 7}));
  EXPECT_EQ(dsh::port_headroom_text(c.port_headroom_cells), "2x4,10,3x7");
  EXPECT_TRUE(has(c.describe(), "port_headroom_cells=2x4,10,3x7")) << c.describe();
  c.set("port_headroom_cells", "");
  EXPECT_TRUE(c.port_headroom_cells.empty());
  EXPECT_FALSE(has(c.describe(), "port_headroom_cells"));  // single-eta text unchanged
  auto bad = [&](const std::string& v) {
    try {
      c.set("port_headroom_cells", v);
    } catch (const dsh::ConfigError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_TRUE(has(bad("4,x"), "port_headroom_cells entry 2")) << bad("4,x");
  EXPECT_TRUE(has(bad("4,x6"), "entry 2 = 'x6': expected a value or COUNTxVALUE")) << bad("4,x6");
  EXPECT_TRUE(has(bad("3x"), "entry 1 = '3x'")) << bad("3x");
  EXPECT_TRUE(has(bad("0x5"), "entry 1 count = 0 is out of range 1..1024")) << bad("0x5");
  EXPECT_TRUE(has(bad("4,,5"), "entry 2")) << bad("4,,5");
  EXPECT_TRUE(has(bad("1025x1"), "out of range 1..1024")) << bad("1025x1");
  EXPECT_TRUE(has(bad("1000x1,1000x1"), "more than 1024 entries")) << bad("1000x1,1000x1");
  EXPECT_TRUE(has(bad("-3"), "entry 1")) << bad("-3");
}

}  // namespace
}  // namespace tb
