// SPDX-License-Identifier: Apache-2.0
// spec §4.4 protocol errors: cells = 0, index out of range, dequeue of more
// than the queue holds. Sticky flag + error counter (one per erroneous event),
// nothing else changes; a valid event of the same cycle still applies.
#include "helpers.h"

using namespace tb;

TEST(Errors, EnqueueOfZeroCells) {
  Mmu m(small(Scheme::SIH));
  auto o = m.step(enq(0, 0, 0));
  EXPECT_TRUE(o.enq_error);
  EXPECT_FALSE(o.deq_error);
  EXPECT_EQ(region(o), "-");
  EXPECT_TRUE(m.error_sticky());
  EXPECT_EQ(m.errors(), 1u);
  EXPECT_EQ(occ(m, 0, 0), "0/0/0");
  EXPECT_EQ(m.buffered_cells(), 0u);
  EXPECT_EQ(m.queue(0, 0).drops, 0u);
}

TEST(Errors, DequeueOfZeroCells) {
  Mmu m(small(Scheme::SIH));
  m.step(enq(0, 0, 2));
  auto o = m.step(deq(0, 0, 0));
  EXPECT_TRUE(o.deq_error);
  EXPECT_FALSE(o.enq_error);
  EXPECT_EQ(occ(m, 0, 0), "2/0/0");
  EXPECT_EQ(m.errors(), 1u);
}

TEST(Errors, EnqueueIndexOutOfRange) {
  Mmu m(small(Scheme::DSH));       // ports 0..1, queues 0..1
  EXPECT_TRUE(m.step(enq(2, 0, 1)).enq_error);
  EXPECT_TRUE(m.step(enq(0, 2, 1)).enq_error);
  EXPECT_TRUE(m.step(enq(0xFFFFFFFFu, 0, 1)).enq_error);
  EXPECT_EQ(m.errors(), 3u);
  EXPECT_EQ(m.buffered_cells(), 0u);
  EXPECT_EQ(m.s(), 0u);
  for (uint32_t p = 0; p < 2; ++p) EXPECT_FALSE(m.port(p).poff);
}

TEST(Errors, DequeueIndexOutOfRange) {
  Mmu m(small(Scheme::DSH));
  m.step(enq(1, 1, 2));
  EXPECT_TRUE(m.step(deq(2, 1, 1)).deq_error);
  EXPECT_TRUE(m.step(deq(1, 2, 1)).deq_error);
  EXPECT_EQ(m.errors(), 2u);
  EXPECT_EQ(occ(m, 1, 1), "2/0/0");
}

TEST(Errors, DequeueOfMoreThanTheQueueHolds) {
  Mmu m = sih_paused();            // (0,0) = 2/10/2: 14 cells, QOFF
  auto o = m.step(deq(0, 0, 15));
  EXPECT_TRUE(o.deq_error);
  EXPECT_EQ(occ(m, 0, 0), "2/10/2");
  EXPECT_EQ(m.s(), 10u);
  EXPECT_TRUE(m.queue(0, 0).qoff);
  EXPECT_TRUE(events(o).empty());
  o = m.step(deq(0, 0, 14));       // exactly what it holds: fine
  EXPECT_FALSE(o.deq_error);
  EXPECT_EQ(occ(m, 0, 0), "0/0/0");
  EXPECT_EQ(m.errors(), 1u);
}

TEST(Errors, StickyFlagAndOneCyclePulse) {
  Mmu m(small(Scheme::SIH));
  EXPECT_FALSE(m.error_sticky());
  EXPECT_TRUE(m.step(deq(0, 0, 1)).error());  // empty queue
  auto o = m.step(enq(0, 0, 1));
  EXPECT_FALSE(o.error());                   // pulse only in the erroneous cycle
  EXPECT_EQ(region(o), "P");
  EXPECT_TRUE(m.error_sticky());             // flag stays
  EXPECT_EQ(m.errors(), 1u);
}

TEST(Errors, BothErroneousInOneCycleCountTwo) {
  Mmu m(small(Scheme::SIH));
  auto o = m.step(deq_enq(op(0, 0, 1), op(0, 0, 0)));
  EXPECT_TRUE(o.deq_error);
  EXPECT_TRUE(o.enq_error);
  EXPECT_EQ(m.errors(), 2u);
  EXPECT_EQ(region(o), "-");
}

TEST(Errors, ValidEnqueueAppliesBesideBadDequeue) {
  Mmu m(small(Scheme::SIH));
  auto o = m.step(deq_enq(op(1, 1, 5), op(0, 0, 2)));  // (1,1) empty: error; enq 0+2 <= 2: private
  EXPECT_TRUE(o.deq_error);
  EXPECT_FALSE(o.enq_error);
  EXPECT_EQ(region(o), "P");
  EXPECT_EQ(occ(m, 0, 0), "2/0/0");
  EXPECT_EQ(m.errors(), 1u);
}

TEST(Errors, ValidDequeueAppliesBesideBadEnqueue) {
  Mmu m(small(Scheme::SIH));
  m.step(enq(0, 0, 2));
  auto o = m.step(deq_enq(op(0, 0, 1), op(0, 5, 1)));
  EXPECT_FALSE(o.deq_error);
  EXPECT_TRUE(o.enq_error);
  EXPECT_EQ(occ(m, 0, 0), "1/0/0");
  EXPECT_EQ(m.errors(), 1u);
}

// An erroneous dequeue does not touch its queue: its state machine is not run.
// SIH delta_q = 3: after sih_high() and deq 8, (0,0) = 2/8/0 QOFF with X_on(S=8) = 9.
TEST(Errors, ErroneousDequeueDoesNotTouchTheQueue) {
  Config c = small(Scheme::SIH);
  c.delta_q = 3;
  Mmu m = sih_high(c);
  m.step(deq(0, 0, 8));            // X_on(16) = 5 < 8: stays QOFF; S = 8
  auto o = m.step(deq(0, 0, 100)); // X_on(8) = 9 >= 8, but the dequeue is an error
  EXPECT_TRUE(o.deq_error);
  EXPECT_TRUE(events(o).empty());
  EXPECT_TRUE(m.queue(0, 0).qoff);
  o = m.step(deq(0, 0, 1));        // valid touch: omega 7 <= 9: RESUME
  EXPECT_EQ(events(o), (Evs{"RESUME 0.0"}));
}
