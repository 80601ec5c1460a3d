// SPDX-License-Identifier: Apache-2.0
// spec §4.7–§4.10: the multi-event cycle. Lanes and slots, dequeue routing
// and merging, the conservative pool rule, state machines on the merged
// result, errors per slot, and the configuration of lanes. Every expected
// value is worked by hand from the spec text; the comments show how.
#include <random>
#include <stdexcept>

#include "helpers.h"

using namespace tb;
using dsh::DeqRouting;
using dsh::LaneCycleIn;
using dsh::LaneCycleOut;

namespace {

// One multi-event cycle, built slot by slot.
struct Lc {
  LaneCycleIn in;
  Lc& enq(unsigned slot, uint32_t p, uint32_t q, uint32_t cells) {
    in.enq[slot] = op(p, q, cells);
    return *this;
  }
  Lc& deq(unsigned slot, uint32_t p, uint32_t q, uint32_t cells) {
    in.deq[slot] = op(p, q, cells);
    return *this;
  }
};

// Region letters of lanes 0..n-1 ("SH-", spec §5.1).
std::string regions(const LaneCycleOut& o, unsigned n) {
  std::string s;
  for (unsigned l = 0; l < n; ++l) s += dsh::region_letter(o.region[l]);
  return s;
}
// One character per slot: '1' or '0'.
template <size_t N>
std::string bits(const std::array<bool, N>& a, unsigned n) {
  std::string s;
  for (unsigned k = 0; k < n; ++k) s += a[k] ? '1' : '0';
  return s;
}
Evs events(const LaneCycleOut& o) {
  Evs v;
  for (unsigned i = 0; i < o.n_events; ++i) v.push_back(ev(o.events[i]));
  return v;
}

// The pool configuration: 4 ports x 2 queues, DSH, no private buffer,
// eta = 6, alpha = 2^3 = 8, m = 1, L = 1.
//   B_s = 48 - 0 (private) - 4*6 (insurance) = 24
//   T(S) = (24 - S) << 3, X_qoff = sat0(T - 6), X_poff = T << 1 = 2T
// alpha = 8 keeps X_qoff and X_poff far above the sizes used, so only the
// pool term decides the shared row: with lanes S_{c-2} + A_{c-1} + P_l + s
// <= B_s, where S_{c-2} is S two cycles back (0 before cycle 0) and A_{c-1}
// the sizes of the last cycle's valid, error-free enqueues.
Config pool_cfg(unsigned lanes, unsigned deq_per_cycle) {
  Config c;
  c.scheme = Scheme::DSH;
  c.n_ports = 4;
  c.n_queues = 2;
  c.buffer_cells = 48;
  c.private_cells = 0;
  c.headroom_cells = 6;
  c.alpha_log2 = 3;
  c.port_mult_log2 = 1;
  c.thresh_latency = 1;
  c.lanes = lanes;
  c.deq_per_cycle = deq_per_cycle;
  return c;
}

// The pool filled to S = 20 by queue (2,0): one enqueue of 20 cells in the
// slot of port 2's lane.
//   c0: T(S_-1 = 0) = 24 << 3 = 192, X_poff = 384, X_qoff = 186.
//       private: 0 + 20 <= 0 no; shared: 0 + 20 <= 384, pool: S_-2 + A_-1
//       + P + s = 0 + 0 + 0 + 20 <= 24 -> shared, S = 20. FSM (2,0):
//       20 > 186? no. No event.
// From then on (L = 1, S_0 = 20): T = 4 << 3 = 32, X_qoff = 26, X_poff = 64.
// The next cycle, c1, has the pool base S_-1 + A_0 = 0 + 20 = 20 (= S').
Mmu pool_at_20(unsigned lanes, unsigned deq_per_cycle) {
  Mmu m(pool_cfg(lanes, deq_per_cycle));
  const LaneCycleOut& o = m.step(Lc().enq(2 % lanes, 2, 0, 20).in);
  EXPECT_EQ(regions(o, lanes).substr(2 % lanes, 1), "S");
  EXPECT_EQ(m.s(), 20u);
  EXPECT_TRUE(events(o).empty());
  return m;
}

// The merge configuration: 4 ports x 2 queues, DSH, phi = 2, eta = 6,
// alpha = 1/2, m = 1, L = 1, 2 lanes (lane 0: ports 0, 2; lane 1: 1, 3),
// 4 dequeue slots.
//   B_s = 64 - 4*2*2 (private) - 4*6 (insurance) = 64 - 16 - 24 = 24
//   T(S) = (24 - S) >> 1, X_qoff = X_qon = sat0(T - 6),
//   X_poff = X_pon = 2T
Config merge_cfg() {
  Config c = pool_cfg(2, 4);
  c.buffer_cells = 64;
  c.private_cells = 2;
  c.alpha_log2 = -1;
  return c;
}

// Queue (0,0) holding priv 2, shared 10, insurance 5; port 0 POFF, S = 10.
//   c0: enq (0,0,2): 0 + 2 <= phi = 2 -> private.
//   c1: T(0) = 12, X_qoff = 6, X_poff = 24. enq (0,0,10): private 2 + 10 > 2;
//       shared: 10 <= 24, pool 0 + 10 <= 24 -> shared, S = 10.
//       FSM (0,0): 10 > X_qoff 6 -> PAUSE 0.0.
//   c2: T(S_1 = 10) = 7, X_qoff = 1, X_poff = 14. enq (0,0,5): private no;
//       shared: 10 + 5 = 15 > 14 no; insurance 0 + 5 <= 6 -> insurance,
//       PORT_PAUSE 0. FSM (0,0): QOFF, 10 <= X_qon 1? no. Port 0: hdrm 5.
// From then on (S_2 = 10): T = 7, X_qoff = X_qon = 1, X_poff = X_pon = 14.
Mmu port0_paused() {
  Mmu m(merge_cfg());
  m.step(Lc().enq(0, 0, 0, 2).in);
  EXPECT_EQ(events(m.step(Lc().enq(0, 0, 0, 10).in)), (Evs{"PAUSE 0.0"}));
  EXPECT_EQ(events(m.step(Lc().enq(0, 0, 0, 5).in)), (Evs{"PORT_PAUSE 0"}));
  EXPECT_EQ(occ(m, 0, 0), "2/10/5");
  EXPECT_EQ(pocc(m, 0), "10/5");
  EXPECT_EQ(m.s(), 10u);
  return m;
}

}  // namespace

// ---- spec §4.9: the pool rule ---------------------------------------------

// Lane 0 fills the pool up to 23; lane 1's packet does not fit and goes to
// its port's insurance.
TEST(LanesPool, EarlierLanesPacketSendsLaterLaneToInsurance) {
  Mmu m = pool_at_20(2, 2);
  // c1: pool base S_-1 + A_0 = 20. T = 32, X_poff = 64.
  //   lane 0, (0,0,3): P_0 = 0: 20 + 0 + 3 = 23 <= 24, 0 + 3 <= 64 -> shared
  //   lane 1, (1,0,3): P_1 = 3: 20 + 3 + 3 = 26 > 24 -> not shared;
  //                    insurance 0 + 3 <= 6 -> insurance, PORT_PAUSE 1
  //   FSMs: (0,0) 3 > 26? no; (1,0) 0 > 26? no; port 1 POFF with hdrm 3.
  const LaneCycleOut& o = m.step(Lc().enq(0, 0, 0, 3).enq(1, 1, 0, 3).in);
  EXPECT_EQ(regions(o, 2), "SH");
  EXPECT_EQ(events(o), (Evs{"PORT_PAUSE 1"}));
  EXPECT_EQ(o.s, 23u);
  EXPECT_EQ(occ(m, 1, 0), "0/0/3");
  EXPECT_TRUE(m.port(1).poff);
  EXPECT_FALSE(o.error());
  expect_invariants(m);
}

// The rule is conservative: lane 0's packet counts in P_1 although it went
// to insurance, so lane 1 is kept out of a shared pool it would have fit.
TEST(LanesPool, PrefixCountsAPacketThatDidNotGoShared) {
  Mmu m = pool_at_20(2, 2);
  // c1 (pool base 20):
  //     lane 0, (0,0,5): P_0 = 0: 20 + 5 = 25 > 24 -> insurance 0 + 5 <= 6,
  //                      PORT_PAUSE 0
  //     lane 1, (1,0,2): P_1 = 5: 20 + 5 + 2 = 27 > 24 -> insurance
  //                      0 + 2 <= 6, PORT_PAUSE 1
  //     (S after lane 0 is still 20, and 20 + 2 = 22 <= 24: the exact rule
  //     would have taken lane 1's packet to shared.)
  const LaneCycleOut& o = m.step(Lc().enq(0, 0, 0, 5).enq(1, 1, 0, 2).in);
  EXPECT_EQ(regions(o, 2), "HH");
  EXPECT_EQ(events(o), (Evs{"PORT_PAUSE 0", "PORT_PAUSE 1"}));
  EXPECT_EQ(o.s, 20u);
  EXPECT_EQ(occ(m, 0, 0), "0/0/5");
  EXPECT_EQ(occ(m, 1, 0), "0/0/2");
  expect_invariants(m);
}

TEST(LanesPool, PrefixCountsADroppedPacket) {
  Mmu m = pool_at_20(2, 2);
  // c1 (pool base 20):
  //     lane 0, (0,0,7): 20 + 7 = 27 > 24; insurance 0 + 7 > 6 -> drop
  //     lane 1, (1,0,2): P_1 = 7 (valid, not an error: it counts):
  //                      20 + 7 + 2 = 29 > 24 -> insurance, PORT_PAUSE 1
  const LaneCycleOut& o = m.step(Lc().enq(0, 0, 0, 7).enq(1, 1, 0, 2).in);
  EXPECT_EQ(regions(o, 2), "DH");
  EXPECT_EQ(events(o), (Evs{"PORT_PAUSE 1"}));
  EXPECT_EQ(m.queue(0, 0).drops, 1u);
  EXPECT_EQ(o.s, 20u);
  expect_invariants(m);
}

// An erroneous enqueue (here: a port of the other lane) is not counted in
// P_l, and does not stop the other lane.
TEST(LanesPool, WrongLaneIsAnErrorAndNotCounted) {
  Mmu m = pool_at_20(2, 2);
  // c1 (pool base 20):
  //     slot 0 names port 1: 1 mod 2 = 1 != 0 -> protocol error, nothing.
  //     lane 1, (1,0,2): P_1 = 0: 20 + 0 + 2 = 22 <= 24 -> shared, S = 22
  const LaneCycleOut& o = m.step(Lc().enq(0, 1, 1, 5).enq(1, 1, 0, 2).in);
  EXPECT_EQ(regions(o, 2), "-S");
  EXPECT_EQ(bits(o.enq_error, 2), "10");
  EXPECT_EQ(o.n_errors, 1u);
  EXPECT_EQ(o.s, 22u);
  EXPECT_EQ(occ(m, 1, 1), "0/0/0");  // the erroneous slot's queue
  EXPECT_EQ(occ(m, 1, 0), "0/2/0");
  EXPECT_EQ(m.errors(), 1u);
  EXPECT_TRUE(m.error_sticky());
  expect_invariants(m);
}

// Four lanes admit at once with the pool nearly full: the first three fit
// B_s exactly, the fourth goes to insurance. The next cycle, with T = 0,
// every lane goes to insurance and the cycle has six events.
TEST(LanesPool, EveryLaneAdmitsAtOnceWithThePoolNearlyFull) {
  Mmu m = pool_at_20(4, 4);
  // c1: T = 32, X_qoff = 26, X_poff = 64; pool base 20.
  //   lane 0, (0,0,1): P_0 = 0: 20 + 0 + 1 = 21 <= 24 -> shared
  //   lane 1, (1,1,2): P_1 = 1: 20 + 1 + 2 = 23 <= 24 -> shared
  //   lane 2, (2,1,1): P_2 = 3: 20 + 3 + 1 = 24 <= 24 -> shared
  //                    (port 2's port_shared 20 + 1 = 21 <= 64)
  //   lane 3, (3,0,2): P_3 = 4: 20 + 4 + 2 = 26 > 24 -> insurance, PORT_PAUSE 3
  //   S = 20 + 1 + 2 + 1 = 24 = B_s. No queue passes X_qoff = 26.
  LaneCycleOut o = m.step(Lc().enq(0, 0, 0, 1).enq(1, 1, 1, 2).enq(2, 2, 1, 1).enq(3, 3, 0, 2).in);
  EXPECT_EQ(regions(o, 4), "SSSH");
  EXPECT_EQ(events(o), (Evs{"PORT_PAUSE 3"}));
  EXPECT_EQ(o.s, 24u);
  expect_invariants(m);
  // c2: T(S_1 = 24) = 0, X_qoff = 0, X_poff = 0; pool base S_0 + A_1 =
  //   20 + 6 = 26, above B_s: no lane could go shared either way.
  //   lane 0, (0,0,1): shared 1 + 1 <= 0 no -> insurance 0 + 1 <= 6, PORT_PAUSE 0
  //   lane 1, (1,1,1): 2 + 1 <= 0 no -> insurance, PORT_PAUSE 1
  //   lane 2, (2,1,1): 21 + 1 <= 0 no -> insurance, PORT_PAUSE 2
  //   lane 3, (3,0,1): POFF -> insurance 2 + 1 <= 6 (already POFF: no event)
  //   FSMs, X_qoff = 0: (0,0) shared 1 > 0 -> PAUSE 0.0; (1,1) 2 > 0 ->
  //   PAUSE 1.1; (2,1) 1 > 0 -> PAUSE 2.1; (3,0) 0 > 0 no. (2,0) holds 20
  //   but is not touched: no state machine runs for it. Ports: all POFF with
  //   hdrm > 0, none resumes.
  o = m.step(Lc().enq(0, 0, 0, 1).enq(1, 1, 1, 1).enq(2, 2, 1, 1).enq(3, 3, 0, 1).in);
  EXPECT_EQ(regions(o, 4), "HHHH");
  EXPECT_EQ(events(o), (Evs{"PAUSE 0.0", "PAUSE 1.1", "PAUSE 2.1", "PORT_PAUSE 0", "PORT_PAUSE 1",
                            "PORT_PAUSE 2"}));
  EXPECT_EQ(o.s, 24u);
  EXPECT_FALSE(m.queue(2, 0).qoff);
  EXPECT_EQ(pocc(m, 3), "0/3");
  expect_invariants(m);
}

// The pool base counts the last cycle's enqueues at their full size, where
// they went: a packet that went to insurance keeps the next cycle's lanes
// out of shared; two idle cycles later the base is S again.
TEST(LanesPool, BaseCountsTheLastCyclesEnqueues) {
  Mmu m = pool_at_20(2, 2);
  // c1 (base S_-1 + A_0 = 0 + 20 = 20):
  //   lane 0, (0,0,5): 20 + 0 + 5 = 25 > 24 -> insurance 0 + 5 <= 6, PORT_PAUSE 0.
  //   S_1 = 20, A_1 = 5.
  LaneCycleOut o = m.step(Lc().enq(0, 0, 0, 5).in);
  EXPECT_EQ(regions(o, 2), "H-");
  EXPECT_EQ(o.s, 20u);
  // c2 (base S_0 + A_1 = 20 + 5 = 25):
  //   lane 1, (1,0,3): 25 + 0 + 3 = 28 > 24 -> insurance 0 + 3 <= 6,
  //   PORT_PAUSE 1. (S' = 20 and 20 + 3 <= 24: the exact rule would take
  //   it to shared.) S_2 = 20, A_2 = 3.
  o = m.step(Lc().enq(1, 1, 0, 3).in);
  EXPECT_EQ(regions(o, 2), "-H");
  EXPECT_EQ(events(o), (Evs{"PORT_PAUSE 1"}));
  EXPECT_EQ(o.s, 20u);
  // c3 idle (base S_1 + A_2 = 23); c4 idle (base S_2 + A_3 = 20 + 0 = 20).
  m.step(Lc().in);
  m.step(Lc().in);
  // c5 (base S_3 + A_4 = 20): lane 1, (3,0,4): port 3 PON, 20 + 0 + 4 = 24
  //   <= 24, 0 + 4 <= X_poff 64 -> shared, S = 24.
  o = m.step(Lc().enq(1, 3, 0, 4).in);
  EXPECT_EQ(regions(o, 2), "-S");
  EXPECT_EQ(o.s, 24u);
  expect_invariants(m);
}

// The pool base leaves out the dequeues of this cycle and the last: what
// they drained is free again only two cycles later.
TEST(LanesPool, BaseLeavesOutRecentDequeues) {
  Mmu m = pool_at_20(2, 2);
  // c1 (base 20): dequeue (2,0,10) from lane 0: 10 from shared, S' = 10.
  //   lane 1, (1,0,6): 20 + 0 + 6 = 26 > 24 -> insurance 0 + 6 <= 6,
  //   PORT_PAUSE 1. (The exact rule: 10 + 6 = 16 <= 24, shared.)
  //   S_1 = 10, A_1 = 6.
  LaneCycleOut o = m.step(Lc().deq(0, 2, 0, 10).enq(1, 1, 0, 6).in);
  EXPECT_EQ(regions(o, 2), "-H");
  EXPECT_EQ(events(o), (Evs{"PORT_PAUSE 1"}));
  EXPECT_EQ(o.s, 10u);
  EXPECT_EQ(occ(m, 2, 0), "0/10/0");
  // c2: T(S_1 = 10) = 14 << 3 = 112, X_poff = 224; base S_0 + A_1 = 20 + 6 = 26.
  //   dequeue (2,0,10): S' = 0. lane 1, (3,0,1): 26 + 1 = 27 > 24 ->
  //   insurance 0 + 1 <= 6, PORT_PAUSE 3. S_2 = 0, A_2 = 1.
  o = m.step(Lc().deq(0, 2, 0, 10).enq(1, 3, 0, 1).in);
  EXPECT_EQ(regions(o, 2), "-H");
  EXPECT_EQ(events(o), (Evs{"PORT_PAUSE 3"}));
  EXPECT_EQ(o.s, 0u);
  // c3: base S_1 + A_2 = 10 + 1 = 11. lane 0, (0,0,13): private 0 + 13 > 0;
  //   port 0 PON, 0 + 13 <= X_poff; pool 11 + 0 + 13 = 24 <= 24 -> shared.
  //   S_3 = 13.
  o = m.step(Lc().enq(0, 0, 0, 13).in);
  EXPECT_EQ(regions(o, 2), "S-");
  EXPECT_EQ(o.s, 13u);
  expect_invariants(m);
}

// ---- spec §4.8: routing and merging ---------------------------------------

// Three slots to one queue merge into one dequeue of 12 cells, which
// crosses from insurance into shared; a second merged group crosses from
// shared into private.
TEST(LanesDequeue, MergedGroupCrossesRegionBoundaries) {
  Mmu m = port0_paused();  // (0,0) = 2/10/5, S = 10; X_qon = 1, X_pon = 14
  // c3: slots 0, 1, 2 all (0,0,4): lane 0, slot 0 leads, 1 and 2 merge:
  //     sum 12 <= 17 held. Drain: insurance 5 -> 0 (5 cells), shared
  //     10 -> 3 (7 cells). (0,0) = 2/3/0, port 0 = 3/0, S = 3.
  //     (Slot by slot: 4 from hdrm 5 -> 1; 1 + 3: hdrm 0, shared 7;
  //     4: shared 3. The same.)
  //     FSMs: (0,0) QOFF, 3 <= X_qon 1? no. Port 0: POFF, hdrm 0,
  //     3 <= X_pon 14 -> PORT_RESUME 0.
  LaneCycleOut o = m.step(Lc().deq(0, 0, 0, 4).deq(1, 0, 0, 4).deq(2, 0, 0, 4).in);
  EXPECT_EQ(bits(o.deq_taken, 4), "1110");
  EXPECT_EQ(bits(o.deq_error, 4), "0000");
  EXPECT_EQ(occ(m, 0, 0), "2/3/0");
  EXPECT_EQ(pocc(m, 0), "3/0");
  EXPECT_EQ(o.s, 3u);
  EXPECT_EQ(events(o), (Evs{"PORT_RESUME 0"}));
  EXPECT_EQ(m.buffered_cells(), 5u);  // 17 - 12
  // c4: T(S_3 = 3) = 21 >> 1 = 10, X_qoff = X_qon = 4.
  //     slots 1 and 3 (0,0,2): slot 1 leads lane 0, slot 3 merges: sum 4 <= 5.
  //     Drain: shared 3 -> 0 (3), priv 2 -> 1 (1). (0,0) = 1/0/0, S = 0.
  //     FSM (0,0): QOFF, 0 <= 4 -> RESUME 0.0.
  o = m.step(Lc().deq(1, 0, 0, 2).deq(3, 0, 0, 2).in);
  EXPECT_EQ(bits(o.deq_taken, 4), "0101");
  EXPECT_EQ(occ(m, 0, 0), "1/0/0");
  EXPECT_EQ(o.s, 0u);
  EXPECT_EQ(events(o), (Evs{"RESUME 0.0"}));
  expect_invariants(m);
}

// Two merged dequeues drain port 0's insurance while an enqueue to another
// queue of the port lands in private: the port's state machine runs once,
// on the merged result, and resumes the port.
TEST(LanesDequeue, MergedDequeuesAndAnEnqueueResumeOnePort) {
  Mmu m = port0_paused();  // (0,0) = 2/10/5, port 0 = 10/5 POFF
  // c3: slots 0 (0,0,3), 1 (0,0,2): merged, 5 <= 17: insurance 5 -> 0.
  //     enq lane 0 (0,1,2): (0,1) private 0 + 2 <= 2 -> private.
  //     FSMs: (0,0) QOFF, 10 <= 1? no; (0,1) QON, 0 > X_qoff 1? no.
  //     Port 0 (touched by both, runs once): POFF, hdrm 0, 10 <= X_pon 14
  //     -> PORT_RESUME 0. (Slot 0 alone would leave hdrm 2: no resume.)
  const LaneCycleOut& o = m.step(Lc().deq(0, 0, 0, 3).deq(1, 0, 0, 2).enq(0, 0, 1, 2).in);
  EXPECT_EQ(regions(o, 2), "P-");
  EXPECT_EQ(bits(o.deq_taken, 4), "1100");
  EXPECT_EQ(events(o), (Evs{"PORT_RESUME 0"}));
  EXPECT_EQ(occ(m, 0, 0), "2/10/0");
  EXPECT_EQ(occ(m, 0, 1), "2/0/0");
  EXPECT_EQ(pocc(m, 0), "10/0");
  EXPECT_FALSE(m.port(0).poff);
  EXPECT_EQ(m.port(0).resumes, 1u);
  expect_invariants(m);
}

// The same cycle, but the enqueue needs the port's insurance: admission
// runs before the state machines, sees POFF, and the port stays paused.
TEST(LanesDequeue, EnqueueInTheSameCycleKeepsThePortPaused) {
  Mmu m = port0_paused();
  // c3: merged dequeue as above: insurance 5 -> 0.
  //     enq lane 0 (0,1,3): private 0 + 3 > 2; shared: port 0 POFF -> no;
  //     insurance 0 + 3 <= 6 -> insurance (already POFF: no event).
  //     Port 0: POFF, hdrm 3 != 0 -> stays POFF. No event.
  const LaneCycleOut& o = m.step(Lc().deq(0, 0, 0, 3).deq(1, 0, 0, 2).enq(0, 0, 1, 3).in);
  EXPECT_EQ(regions(o, 2), "H-");
  EXPECT_TRUE(events(o).empty());
  EXPECT_EQ(pocc(m, 0), "10/3");
  EXPECT_TRUE(m.port(0).poff);
  expect_invariants(m);
}

// A merged dequeue and an enqueue to the same queue in one cycle: the
// dequeue first, the enqueue on its result, the queue's state machine once.
TEST(LanesDequeue, DequeueAndEnqueueToOneQueue) {
  Mmu m(merge_cfg());
  // c0: enq (0,0,2) -> private.
  // c1: T(0) = 12, X_qoff = 6, X_poff = 24. enq (0,0,6): shared, S = 6;
  //     FSM: 6 > 6? no, QON.
  m.step(Lc().enq(0, 0, 0, 2).in);
  m.step(Lc().enq(0, 0, 0, 6).in);
  ASSERT_EQ(occ(m, 0, 0), "2/6/0");
  // c2: T(S_1 = 6) = 9, X_qoff = 3, X_poff = 18.
  //     slots 0, 1 (0,0,1): merged, 2 <= 8: shared 6 -> 4, S' = 4.
  //     lane 0 enq (0,0,2): private 2 + 2 > 2; shared: 4 + 2 = 6 <= 18,
  //       pool 4 + 0 + 2 = 6 <= 24 -> shared. (0,0) = 2/6/0, S = 6.
  //     lane 1 enq (1,0,1): private 0 + 1 <= 2 -> private.
  //     FSM (0,0) once: QON, 6 > 3 -> PAUSE 0.0 (one event, counted once).
  const LaneCycleOut& o = m.step(Lc().deq(0, 0, 0, 1).deq(1, 0, 0, 1).enq(0, 0, 0, 2).enq(1, 1, 0, 1).in);
  EXPECT_EQ(regions(o, 2), "SP");
  EXPECT_EQ(occ(m, 0, 0), "2/6/0");
  EXPECT_EQ(o.s, 6u);
  EXPECT_EQ(events(o), (Evs{"PAUSE 0.0"}));
  EXPECT_EQ(m.queue(0, 0).pauses, 1u);
  expect_invariants(m);
}

// Slots to one lane naming another queue than its leader are not taken;
// their queues are unchanged and they are not errors.
TEST(LanesDequeue, OtherQueueOfALaneIsNotTaken) {
  Config cfg = merge_cfg();
  cfg.deq_per_cycle = 5;
  Mmu m(cfg);
  // c0..c2: 2 private cells in each of (0,0), (0,1), (1,0) and (2,0).
  m.step(Lc().enq(0, 0, 0, 2).enq(1, 1, 0, 2).in);
  m.step(Lc().enq(0, 2, 0, 2).in);
  m.step(Lc().enq(0, 0, 1, 2).in);
  // slot 0 (0,0,1): lane 0, leads.
  // slot 1 (2,0,1): lane 0 (2 mod 2 = 0), another port -> not taken.
  // slot 2 (1,0,1): lane 1, leads.
  // slot 3 (0,0,1): lane 0, the leader's queue -> merged (sum 2).
  // slot 4 (0,1,1): lane 0, the leader's port but another queue -> not taken.
  const Lc c = Lc().deq(0, 0, 0, 1).deq(1, 2, 0, 1).deq(2, 1, 0, 1).deq(3, 0, 0, 1).deq(4, 0, 1, 1);
  const DeqRouting r = dsh::route_dequeues(m.config(), c.in);  // before the step
  EXPECT_EQ(bits(r.taken, 5), "10110");
  EXPECT_EQ(r.leader[3], 0u);
  EXPECT_EQ(r.leader[2], 2u);
  const LaneCycleOut& o = m.step(c.in);
  EXPECT_EQ(bits(o.deq_taken, 5), "10110");
  EXPECT_EQ(bits(o.deq_error, 5), "00000");
  EXPECT_EQ(occ(m, 0, 0), "0/0/0");
  EXPECT_EQ(occ(m, 2, 0), "2/0/0");  // untouched
  EXPECT_EQ(occ(m, 0, 1), "2/0/0");  // untouched
  EXPECT_EQ(occ(m, 1, 0), "1/0/0");
  EXPECT_FALSE(m.error_sticky());
  // Presented again, alone in its lane: taken.
  const LaneCycleOut& o2 = m.step(Lc().deq(0, 2, 0, 1).in);
  EXPECT_EQ(bits(o2.deq_taken, 5), "10000");
  EXPECT_EQ(occ(m, 2, 0), "1/0/0");
  expect_invariants(m);
}

// A slot that is an error on its own is not routed: it does not lead its
// lane, and the next slot of the lane does.
TEST(LanesDequeue, ErroneousSlotDoesNotLead) {
  Mmu m(merge_cfg());
  m.step(Lc().enq(0, 2, 0, 2).in);  // (2,0) = 2/0/0
  // slot 0 (0,0,0): size 0 -> error, taken, not routed.
  // slot 1 (2,0,1): lane 0's leader -> taken, 2/0/0 -> 1/0/0.
  // slot 2 (5,0,1): port 5 >= n_ports 4 -> error.
  const LaneCycleOut& o = m.step(Lc().deq(0, 0, 0, 0).deq(1, 2, 0, 1).deq(2, 5, 0, 1).in);
  EXPECT_EQ(bits(o.deq_taken, 4), "1110");
  EXPECT_EQ(bits(o.deq_error, 4), "1010");
  EXPECT_EQ(o.n_errors, 2u);
  EXPECT_EQ(m.errors(), 2u);
  EXPECT_EQ(occ(m, 2, 0), "1/0/0");
  expect_invariants(m);
}

// A merged group larger than its queue: every slot of the group is an
// error, nothing of it applies, though slot 0 alone would fit. The other
// lane's dequeue and the lane's own enqueue apply.
TEST(LanesDequeue, GroupLargerThanTheQueueErrsWhole) {
  Mmu m(merge_cfg());
  m.step(Lc().enq(0, 0, 0, 2).enq(1, 1, 0, 2).in);  // (0,0) = 2/0/0, (1,0) = 2/0/0
  // slots 0 (0,0,1) and 1 (0,0,2): merged, 3 > 2 held -> both errors.
  // slot 2 (1,0,1): lane 1, 1 <= 2 -> 1/0/0.
  // lane 0 enq (0,1,1): private.
  const LaneCycleOut& o = m.step(Lc().deq(0, 0, 0, 1).deq(1, 0, 0, 2).deq(2, 1, 0, 1).enq(0, 0, 1, 1).in);
  EXPECT_EQ(bits(o.deq_taken, 4), "1110");
  EXPECT_EQ(bits(o.deq_error, 4), "1100");
  EXPECT_EQ(o.n_errors, 2u);  // one per erroneous input
  EXPECT_EQ(m.errors(), 2u);
  EXPECT_EQ(occ(m, 0, 0), "2/0/0");
  EXPECT_EQ(occ(m, 1, 0), "1/0/0");
  EXPECT_EQ(regions(o, 2), "P-");
  expect_invariants(m);
}

TEST(LanesDequeue, ValidSlotBeyondTheCountsIsACallersBug) {
  Mmu m(merge_cfg());  // 2 lanes, 4 dequeue slots
  EXPECT_THROW(m.step(Lc().enq(2, 2, 0, 1).in), std::invalid_argument);
  EXPECT_THROW(m.step(Lc().deq(4, 0, 0, 1).in), std::invalid_argument);
}

// ---- spec §4.7: one lane is the cycle of spec §4.1 ------------------------

// A multi-lane model stepped with one enqueue (in its lane's slot) and one
// dequeue (in a random slot) a cycle gives what the one-lane model gives
// for the same CycleIn while the pool has room for two cycles' packets: one
// dequeue slot is always taken, P_l = 0 for the only enqueue, and the pool
// base S_{c-2} + A_{c-1} and S' decide the shared row alike when S stays
// at least two packets (2 x 9 cells) below B_s. The dynamic threshold
// keeps it there (checked every cycle). Random traffic, errors included.
TEST(LanesProperty, OneEnqueueAndOneDequeueACycleEqualsOneLane) {
  for (const Scheme scheme : {Scheme::SIH, Scheme::DSH})
    for (const unsigned lanes : {1u, 2u, 4u, 8u}) {
      SCOPED_TRACE(std::string(dsh::to_string(scheme)) + " lanes " + std::to_string(lanes));
      Config one;
      one.scheme = scheme;
      one.n_ports = 8;
      one.n_queues = 3;
      one.buffer_cells = scheme == Scheme::SIH ? 600 : 300;
      one.private_cells = 2;
      one.headroom_cells = 6;
      one.alpha_log2 = -2;
      one.port_mult_log2 = 1;
      one.delta_q = 1;
      one.thresh_latency = 2;
      Config many = one;
      many.lanes = lanes;
      many.deq_per_cycle = 3;
      Mmu a(one), b(many);
      std::mt19937 rng(7 + lanes);
      auto pick = [&](uint32_t n) { return uint32_t(rng() % n); };
      for (int c = 0; c < 20000; ++c) {
        CycleIn in;
        if (pick(4)) in.enq = op(pick(9), pick(3), pick(10));  // port 8, size 0: errors
        if (pick(2)) {
          const uint32_t p = pick(8), q = pick(3);
          in.deq = op(p, q, uint32_t(std::min<uint64_t>(a.queue(p, q).total() + pick(2), 1 + pick(8))));
        }
        LaneCycleIn li;
        if (in.enq.valid) li.enq[in.enq.port % lanes] = in.enq;
        const unsigned slot = pick(3);
        if (in.deq.valid) li.deq[slot] = in.deq;
        const CycleOut& x = a.step(in);
        const LaneCycleOut& y = b.step(li);
        ASSERT_LE(x.s + 18, uint64_t(one.shared_cells())) << "cycle " << c << ": the pool came within two packets of full";
        const unsigned lane = in.enq.port % lanes;
        ASSERT_EQ(region(x), std::string(1, dsh::region_letter(y.region[lane]))) << "cycle " << c;
        ASSERT_EQ(x.enq_error, y.enq_error[lane]) << "cycle " << c;
        ASSERT_EQ(x.deq_error, y.deq_error[slot]) << "cycle " << c;
        ASSERT_EQ(in.deq.valid, y.deq_taken[slot]) << "cycle " << c;
        ASSERT_EQ(tb::events(x), events(y)) << "cycle " << c;
        ASSERT_EQ(x.s, y.s) << "cycle " << c;
        ASSERT_EQ(x.thr.t, y.thr.t) << "cycle " << c;
      }
      for (uint32_t p = 0; p < 8; ++p) {
        for (uint32_t q = 0; q < 3; ++q) {
          EXPECT_EQ(occ(a, p, q), occ(b, p, q));
          EXPECT_EQ(a.queue(p, q).qoff, b.queue(p, q).qoff);
          EXPECT_EQ(a.queue(p, q).drops, b.queue(p, q).drops);
          EXPECT_EQ(a.queue(p, q).pauses, b.queue(p, q).pauses);
        }
        EXPECT_EQ(a.port(p).poff, b.port(p).poff);
        EXPECT_EQ(a.port(p).pauses, b.port(p).pauses);
      }
      EXPECT_EQ(a.errors(), b.errors());
      EXPECT_GT(a.errors(), 0u);
      uint64_t pauses = 0;  // the thresholds did decide
      for (uint32_t p = 0; p < 8; ++p) pauses += a.port(p).pauses + a.queue(p, 0).pauses;
      EXPECT_GT(pauses, 0u);
    }
}

// Full load, every slot valid every cycle: the invariants of spec §8 hold,
// the events are at most 4 per lane with at most one per queue and port,
// deq_taken is route_dequeues', and the error counter counts slots.
TEST(LanesProperty, FullLoadKeepsInvariants) {
  for (const Scheme scheme : {Scheme::SIH, Scheme::DSH}) {
    Config c;
    c.scheme = scheme;
    c.n_ports = 8;
    c.n_queues = 2;
    c.buffer_cells = scheme == Scheme::SIH ? 300 : 150;
    c.private_cells = 1;
    c.headroom_cells = 8;
    c.alpha_log2 = 0;
    c.port_mult_log2 = 1;
    c.thresh_latency = 1;
    c.lanes = 4;
    c.deq_per_cycle = 6;
    Mmu m(c);
    std::mt19937 rng(11);
    auto pick = [&](uint32_t n) { return uint32_t(rng() % n); };
    uint64_t errors = 0, merged = 0, not_taken = 0;
    for (int cyc = 0; cyc < 20000; ++cyc) {
      LaneCycleIn in;
      for (unsigned l = 0; l < 4; ++l) in.enq[l] = op(l + 4 * pick(2), pick(2), 1 + pick(6));
      for (unsigned k = 0; k < 6; ++k) in.deq[k] = op(pick(8), pick(2), 1 + pick(3));
      const DeqRouting r = dsh::route_dequeues(c, in);
      const LaneCycleOut& o = m.step(in);
      ASSERT_EQ(bits(o.deq_taken, 6), bits(r.taken, 6));
      for (unsigned k = 0; k < 6; ++k) {
        merged += r.taken[k] && r.leader[k] != k;
        not_taken += !r.taken[k];
      }
      ASSERT_LE(o.n_events, 16u);
      for (unsigned i = 1; i < o.n_events; ++i) ASSERT_TRUE(o.events[i - 1] < o.events[i]);  // sorted, no repeat
      errors += o.n_errors;
      const auto bad = m.check_invariants();
      ASSERT_TRUE(bad.empty()) << bad.front();
    }
    EXPECT_EQ(m.errors(), errors);
    EXPECT_GT(errors, 0u);  // groups larger than their queues happen
    EXPECT_GT(merged, 0u);
    EXPECT_GT(not_taken, 0u);
  }
}

// ---- configuration (spec §1.2, §4.7) ---------------------------------------

TEST(LanesConfig, RefusedWithFieldValueAndLimit) {
  Config c;  // 32 ports
  c.lanes = 3;
  EXPECT_EQ(reject(c), "lanes = 3 is not a power of two (1, 2, 4, ..., 64; spec §4.7)");
  c.lanes = 0;
  EXPECT_EQ(reject(c), "lanes = 0 is out of range 1..64");
  c.lanes = 128;
  EXPECT_EQ(reject(c), "lanes = 128 is out of range 1..64");
  c.lanes = 32;
  EXPECT_EQ(reject(c), "");
  c.n_ports = 16;
  EXPECT_EQ(reject(c), "lanes = 32 exceeds n_ports = 16 (each lane serves at least one port; spec §4.7)");
  c.lanes = 16;
  c.deq_per_cycle = 0;
  EXPECT_EQ(reject(c), "deq_per_cycle = 0 is out of range 1..64");
  c.deq_per_cycle = 65;
  EXPECT_EQ(reject(c), "deq_per_cycle = 65 is out of range 1..64");
  c.deq_per_cycle = 64;
  EXPECT_EQ(reject(c), "");
  EXPECT_THROW(Mmu(pool_cfg(8, 1)), dsh::ConfigError);  // 8 lanes, 4 ports
}

// describe() leaves the two fields out at 1, so a one-lane chip's text is
// what it was; at other values they read back.
TEST(LanesConfig, DescribeImpliesOneLane) {
  Config c;
  EXPECT_FALSE(has(c.describe(), "lanes"));
  EXPECT_FALSE(has(c.describe(), "deq_per_cycle"));
  c.set("lanes", "4");
  c.set("deq_per_cycle", "5");
  EXPECT_TRUE(has(c.describe(), " lanes=4 deq_per_cycle=5")) << c.describe();
  const Config r = Config::from_text(c.describe());
  EXPECT_EQ(r.lanes, 4u);
  EXPECT_EQ(r.deq_per_cycle, 5u);
}
