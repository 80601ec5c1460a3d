// SPDX-License-Identifier: Apache-2.0
// spec §4.2: dequeue drain order (hdrm, shared, priv) with port sums and S,
// and the order of a cycle (dequeue, then enqueue, then the state machines).
#include "helpers.h"

using namespace tb;

TEST(Dequeue, DrainsHeadroomThenSharedThenPrivate) {
  Mmu m = sih_paused();            // (0,0) = 2/10/2, S = 10, 14 cells
  m.step(deq(0, 0, 1));            // hdrm 2 -> 1
  EXPECT_EQ(occ(m, 0, 0), "2/10/1");
  EXPECT_EQ(pocc(m, 0), "10/1");
  EXPECT_EQ(m.s(), 10u);
  EXPECT_EQ(m.buffered_cells(), 13u);
  m.step(deq(0, 0, 3));            // hdrm 1 -> 0, then shared 10 -> 8
  EXPECT_EQ(occ(m, 0, 0), "2/8/0");
  EXPECT_EQ(pocc(m, 0), "8/0");
  EXPECT_EQ(m.s(), 8u);
  m.step(deq(0, 0, 9));            // shared 8 -> 0, then priv 2 -> 1
  EXPECT_EQ(occ(m, 0, 0), "1/0/0");
  EXPECT_EQ(pocc(m, 0), "0/0");
  EXPECT_EQ(m.s(), 0u);
  auto o = m.step(deq(0, 0, 1));   // priv 1 -> 0
  EXPECT_EQ(occ(m, 0, 0), "0/0/0");
  EXPECT_EQ(m.buffered_cells(), 0u);
  EXPECT_EQ(o.s, 0u);
  EXPECT_FALSE(m.error_sticky());
  expect_invariants(m);
}

TEST(Dequeue, DrainsInsuranceFirstUnderDsh) {
  Mmu m = dsh_port_paused();       // (0,0) = 2/20/5, port 0 = 20/5, S = 20
  auto o = m.step(deq(0, 0, 7));   // insurance 5 -> 0, shared 20 -> 18
  EXPECT_EQ(occ(m, 0, 0), "2/18/0");
  EXPECT_EQ(pocc(m, 0), "18/0");
  EXPECT_EQ(m.s(), 18u);
  EXPECT_EQ(o.s, 18u);
  EXPECT_EQ(m.buffered_cells(), 20u);
  expect_invariants(m);
}

TEST(Dequeue, OtherQueuesAndPortsUntouched) {
  Mmu m(small(Scheme::DSH));
  m.step(enq(0, 0, 10));           // shared: 0/10/0, S = 10
  m.step(enq(1, 1, 8));            // shared: 0/8/0, S = 18
  m.step(deq(1, 1, 3));            // 0/5/0, S = 15
  EXPECT_EQ(occ(m, 0, 0), "0/10/0");
  EXPECT_EQ(occ(m, 1, 1), "0/5/0");
  EXPECT_EQ(pocc(m, 0), "10/0");
  EXPECT_EQ(pocc(m, 1), "5/0");
  EXPECT_EQ(m.s(), 15u);
}

TEST(Dequeue, SameCycleDequeueIsAppliedBeforeEnqueue) {
  Mmu m(small(Scheme::SIH));
  m.step(enq(0, 0, 2));                                 // private full: 2/0/0
  auto o = m.step(deq_enq(op(0, 0, 2), op(0, 0, 2)));  // deq: priv 0; then enq 0+2 <= 2: private
  EXPECT_EQ(region(o), "P");                            // (enqueue first would have gone to shared)
  EXPECT_EQ(occ(m, 0, 0), "2/0/0");
  EXPECT_FALSE(o.error());
}

TEST(Dequeue, DequeueOfEmptyQueueFailsEvenWithSameCycleEnqueue) {
  Mmu m(small(Scheme::SIH));
  auto o = m.step(deq_enq(op(0, 0, 1), op(0, 0, 1)));  // deq first: queue holds 0 < 1: error
  EXPECT_TRUE(o.deq_error);
  EXPECT_FALSE(o.enq_error);
  EXPECT_EQ(region(o), "P");                            // the valid enqueue still applies
  EXPECT_EQ(occ(m, 0, 0), "1/0/0");
  EXPECT_EQ(m.errors(), 1u);
}

// DSH: (0,0) = 2/17/0 QOFF; T(17) = 13, X_qoff = X_qon = 7, X_poff = 26.
// deq 10 (omega 7) and enq 10 (omega 17) in one cycle; the FSM runs once, after
// both: QOFF and 17 > X_qon: nothing. (Run after the dequeue alone it would RESUME.)
TEST(Dequeue, StateMachineRunsOnceAfterBoth) {
  Mmu m(small(Scheme::DSH));
  m.step(enq(0, 0, 2));            // private
  auto o = m.step(enq(0, 0, 17));  // X_qoff(0) = 16: 17 > 16: PAUSE
  ASSERT_EQ(events(o), (Evs{"PAUSE 0.0"}));
  o = m.step(deq_enq(op(0, 0, 10), op(0, 0, 10)));  // 17-10 = 7, then 7+10 = 17 <= 26: shared
  EXPECT_EQ(o.thr.x_qon, 7u);
  EXPECT_EQ(region(o), "S");
  EXPECT_EQ(occ(m, 0, 0), "2/17/0");
  EXPECT_TRUE(events(o).empty());
  EXPECT_TRUE(m.queue(0, 0).qoff);
  EXPECT_EQ(m.queue(0, 0).pauses, 1u);
  EXPECT_EQ(m.queue(0, 0).resumes, 0u);
}
