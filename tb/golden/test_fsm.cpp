// SPDX-License-Identifier: Apache-2.0
// spec §4.5 state machines (SIH queue, DSH queue, DSH port), with and
// without hysteresis, evaluated only for touched queues/ports; event order
// (spec §4.6); counters and their wrap modulo 2^cnt_w (spec §5.2).
#include "helpers.h"

using namespace tb;

// ---------------------------------------------------------------- SIH queue
// sih_paused(): (0,0) = 2/10/2, QOFF, S = 10, so X_on = T(10) = 11.

TEST(SihFsm, NoResumeWhileHeadroomHeld) {
  Mmu m = sih_paused();
  auto o = m.step(deq(0, 0, 1));   // hdrm 1 != 0 (omega 10 <= 11 is not enough)
  EXPECT_TRUE(events(o).empty());
  EXPECT_TRUE(m.queue(0, 0).qoff);
}

TEST(SihFsm, ResumeWhenHeadroomEmptyAndOmegaBelowXon) {
  Mmu m = sih_paused();
  auto o = m.step(deq(0, 0, 2));   // hdrm 0 and omega 10 <= X_on 11: RESUME
  EXPECT_EQ(events(o), (Evs{"RESUME 0.0"}));
  EXPECT_FALSE(m.queue(0, 0).qoff);
  EXPECT_EQ(m.queue(0, 0).resumes, 1u);
  EXPECT_EQ(m.queue(0, 0).pauses, 1u);
}

// sih_high(): (0,0) = 2/16/0, QOFF, S = 16, T(16) = 8.
TEST(SihFsm, ResumeNeedsOmegaAtMostXon) {
  Mmu m(small(Scheme::SIH));
  m.step(enq(0, 0, 2));
  m.step(enq(0, 0, 16));
  m.step(enq(0, 0, 1));
  auto o = m.step(deq(0, 0, 1));   // hdrm 0 but omega 16 > X_on = T(16) = 8: stays QOFF
  EXPECT_EQ(o.thr.x_qon, 8u);
  EXPECT_TRUE(events(o).empty());
  EXPECT_TRUE(m.queue(0, 0).qoff);
  o = m.step(deq(0, 0, 8));        // thresholds still from S = 16: omega 8 <= 8: RESUME
  EXPECT_EQ(o.thr.x_qon, 8u);
  EXPECT_EQ(events(o), (Evs{"RESUME 0.0"}));
  EXPECT_FALSE(m.queue(0, 0).qoff);
}

// delta_q = 3: X_on = T - 3, X_off = T unchanged.
TEST(SihFsm, HysteresisAndOnlyTouchedQueues) {
  Config c = small(Scheme::SIH);
  c.delta_q = 3;
  Mmu m = sih_high(c);             // (0,0) = 2/16/0 QOFF, S = 16
  auto o = m.step(deq(0, 0, 8));   // c4: T(16) = 8, X_on = 5: omega 8 > 5: stays QOFF; S = 8
  EXPECT_EQ(o.thr.x_qoff, 8u);
  EXPECT_EQ(o.thr.x_qon, 5u);
  EXPECT_TRUE(events(o).empty());
  o = m.idle();                    // c5: T(8) = 12, X_on = 9 >= omega 8, but (0,0) is not touched
  EXPECT_EQ(o.thr.x_qoff, 12u);
  EXPECT_EQ(o.thr.x_qon, 9u);
  EXPECT_TRUE(events(o).empty());
  o = m.step(enq(1, 0, 1));        // c6: another queue touched, (0,0) still not evaluated
  EXPECT_EQ(region(o), "P");
  EXPECT_TRUE(events(o).empty());
  EXPECT_TRUE(m.queue(0, 0).qoff);
  o = m.step(deq(0, 0, 1));        // c7: touched: hdrm 0, omega 7 <= 9: RESUME
  EXPECT_EQ(events(o), (Evs{"RESUME 0.0"}));
}

TEST(SihFsm, QoffWithEmptyHeadroomStillGatesShared) {
  Config c = small(Scheme::SIH);
  c.delta_q = 3;
  Mmu m = sih_high(c);
  m.step(deq(0, 0, 8));            // c4: omega 8 > X_on 5: QOFF stays, S = 8
  auto o = m.step(enq(0, 0, 1));   // c5: X_off = T(8) = 12: 8+1 <= 12, but qoff: headroom, no PAUSE
  EXPECT_EQ(region(o), "H");
  EXPECT_TRUE(events(o).empty());  // and hdrm 1 != 0: no RESUME either
  EXPECT_EQ(occ(m, 0, 0), "2/8/1");
  EXPECT_EQ(m.queue(0, 0).pauses, 1u);
}

// ---------------------------------------------------------------- DSH queue
// small DSH: X_qoff(0) = 22-6 = 16; T(17) = 13, X_qoff(17) = 7.

TEST(DshFsm, PauseOnlyWhenOmegaAboveXqoff) {
  Mmu a(small(Scheme::DSH)), b(small(Scheme::DSH));
  a.step(enq(0, 0, 2));
  b.step(enq(0, 0, 2));
  auto o = a.step(enq(0, 0, 16));  // omega 16 > 16? no
  EXPECT_EQ(region(o), "S");
  EXPECT_TRUE(events(o).empty());
  EXPECT_FALSE(a.queue(0, 0).qoff);
  o = b.step(enq(0, 0, 17));       // omega 17 > 16: PAUSE
  EXPECT_EQ(region(o), "S");
  EXPECT_EQ(events(o), (Evs{"PAUSE 0.0"}));
  EXPECT_TRUE(b.queue(0, 0).qoff);
  EXPECT_EQ(b.queue(0, 0).pauses, 1u);
  EXPECT_FALSE(b.port(0).poff);
}

TEST(DshFsm, ResumeWhenOmegaAtMostXqon) {
  Mmu a(small(Scheme::DSH));
  a.step(enq(0, 0, 2));
  a.step(enq(0, 0, 17));           // PAUSE, S = 17
  Mmu b = a;
  auto o = a.step(deq(0, 0, 9));   // X_qon = 7: omega 8 > 7: stays
  EXPECT_EQ(o.thr.x_qon, 7u);
  EXPECT_TRUE(events(o).empty());
  o = b.step(deq(0, 0, 10));       // omega 7 <= 7: RESUME
  EXPECT_EQ(events(o), (Evs{"RESUME 0.0"}));
  EXPECT_FALSE(b.queue(0, 0).qoff);
  EXPECT_EQ(b.queue(0, 0).resumes, 1u);
}

// delta_q = 2: X_qon = X_qoff - 2.
TEST(DshFsm, ResumeHysteresis) {
  Config c = small(Scheme::DSH);
  c.delta_q = 2;
  Mmu m(c);
  m.step(enq(0, 0, 2));
  m.step(enq(0, 0, 17));           // X_qoff(0) = 16 (delta_q does not move it): PAUSE, S = 17
  auto o = m.step(deq(0, 0, 10));  // T(17) = 13, X_qoff = 7, X_qon = 5: omega 7 > 5: stays
  EXPECT_EQ(o.thr.x_qoff, 7u);
  EXPECT_EQ(o.thr.x_qon, 5u);
  EXPECT_TRUE(events(o).empty());
  o = m.step(deq(0, 0, 1));        // T(7) = 37>>1 = 18, X_qoff = 12, X_qon = 10: omega 6 <= 10: RESUME
  EXPECT_EQ(o.thr.x_qon, 10u);
  EXPECT_EQ(events(o), (Evs{"RESUME 0.0"}));
}

// ---------------------------------------------------------------- DSH port
// dsh_port_paused(): (0,0) = 2/20/5, port 0 = 20/5 POFF, S = 20;
// T(20) = 12, X_qon = 6, X_poff = 24, X_pon = 24 - delta_p.

TEST(DshFsm, PortResumeNeedsEmptyInsurance) {
  Mmu m = dsh_port_paused();
  auto o = m.step(deq(0, 0, 4));   // port_hdrm 1 != 0 (port_shared 20 <= 24 is not enough)
  EXPECT_TRUE(events(o).empty());
  EXPECT_TRUE(m.port(0).poff);
}

TEST(DshFsm, PortResumeWhenInsuranceEmptyAndPortSharedAtMostXpon) {
  Mmu m = dsh_port_paused();
  auto o = m.step(deq(0, 0, 5));   // port_hdrm 0, 20 <= 24: PORT_RESUME; queue: 20 > X_qon 6, stays QOFF
  EXPECT_EQ(events(o), (Evs{"PORT_RESUME 0"}));
  EXPECT_FALSE(m.port(0).poff);
  EXPECT_TRUE(m.queue(0, 0).qoff);
  EXPECT_EQ(m.port(0).pauses, 1u);
  EXPECT_EQ(m.port(0).resumes, 1u);
}

TEST(DshFsm, PortResumeHysteresis) {
  Config c = small(Scheme::DSH);
  c.delta_p = 10;
  Mmu m = dsh_port_paused(c);      // same admissions: delta_p does not move X_poff
  ASSERT_TRUE(m.port(0).poff);
  auto o = m.step(deq(0, 0, 5));   // X_pon = 24-10 = 14: port_hdrm 0 but 20 > 14: stays
  EXPECT_EQ(o.thr.x_poff, 24u);
  EXPECT_EQ(o.thr.x_pon, 14u);
  EXPECT_TRUE(events(o).empty());
  o = m.step(deq(0, 0, 6));        // thresholds from S = 20 still: 14 <= 14: PORT_RESUME
  EXPECT_EQ(events(o), (Evs{"PORT_RESUME 0"}));
  EXPECT_EQ(m.s(), 14u);
}

TEST(DshFsm, OnlyTouchedPortsAreEvaluated) {
  Mmu m(small(Scheme::DSH));
  m.step(enq(1, 0, 14));           // c0: shared, S = 14
  m.step(enq(0, 0, 20));           // c1: T(14) = 15, X_poff 30: shared, S = 34; 20 > X_qoff 9: PAUSE 0.0
  auto o = m.step(enq(0, 0, 3));   // c2: T(34) = 5, X_poff 10: 23 > 10: insurance, PORT_PAUSE 0
  ASSERT_EQ(events(o), (Evs{"PORT_PAUSE 0"}));
  o = m.step(deq(0, 0, 3));        // c3: X_pon 10: port_hdrm 0 but 20 > 10: stays POFF
  EXPECT_TRUE(events(o).empty());
  o = m.step(deq(1, 0, 14));       // c4: port 1 drains, S = 20; port 0 not touched
  EXPECT_TRUE(events(o).empty());
  o = m.idle();                    // c5: T(20) = 12, X_pon 24 >= 20, but port 0 not touched
  EXPECT_EQ(o.thr.x_pon, 24u);
  EXPECT_TRUE(events(o).empty());
  EXPECT_TRUE(m.port(0).poff);
  o = m.step(enq(0, 1, 1));        // c6: private enqueue on port 0 touches it: PORT_RESUME
  EXPECT_EQ(region(o), "P");
  EXPECT_EQ(events(o), (Evs{"PORT_RESUME 0"}));
}

// ---------------------------------------------------------------- event order
// Sorted by kind (PAUSE, RESUME, PORT_PAUSE, PORT_RESUME), then port, then queue.

TEST(Events, KindBeforePort) {
  Mmu m(small(Scheme::DSH));
  m.step(enq(0, 0, 2));
  m.step(enq(1, 0, 2));
  m.step(enq(0, 0, 17));           // X_qoff(0) = 16: PAUSE 0.0, S = 17
  // T(17) = 13, X_qoff = X_qon = 7, X_poff = 26.
  // deq (0,0) 10: omega 7 <= 7: RESUME 0.0; enq (1,0) 8: shared (8 <= 26, S 15 <= 44), 8 > 7: PAUSE 1.0
  auto o = m.step(deq_enq(op(0, 0, 10), op(1, 0, 8)));
  EXPECT_EQ(events(o), (Evs{"PAUSE 1.0", "RESUME 0.0"}));
}

// Two PAUSEs in one cycle, the dequeue's first in generation order. Queue (p,q) is
// (1,0), then (0,1): the dequeue's PAUSE sorts after PAUSE 0.0 by port, then by queue.
TEST(Events, SameKindByPortThenQueueAndDequeueCanPause) {
  struct Case { uint32_t p, q; Evs want; };
  for (const Case& k : {Case{1, 0, {"PAUSE 0.0", "PAUSE 1.0"}}, Case{0, 1, {"PAUSE 0.0", "PAUSE 0.1"}}}) {
    Mmu m(small(Scheme::DSH));
    m.step(enq(k.p, k.q, 2));
    m.step(enq(0, 0, 2));
    m.step(enq(k.p, k.q, 12));     // X_qoff(0) 16: shared, no pause, S = 12
    m.step(enq(0, 0, 6));          // X_qoff(12) 10, X_poff 32: shared (port 0 holds <= 18), no pause, S = 18
    // T(18) = 13, X_qoff = 7, X_poff = 26.
    // deq (p,q) 1: omega 11 > 7, !qoff: PAUSE p.q; enq (0,0) 2: shared (port 0 <= 19), omega 8 > 7: PAUSE 0.0
    auto o = m.step(deq_enq(op(k.p, k.q, 1), op(0, 0, 2)));
    EXPECT_EQ(region(o), "S");
    EXPECT_EQ(events(o), k.want);
    EXPECT_EQ(m.s(), 19u);         // 18 - 1 + 2
  }
}

TEST(Events, FourEventsInOneCycle) {
  Mmu m(small(Scheme::DSH));
  m.step(enq(0, 1, 14));           // c0: T(0) 22, X_qoff 16: shared, no pause, S = 14
  m.step(enq(1, 0, 16));           // c1: T(14) 15, X_qoff 9, X_poff 30: shared, PAUSE 1.0, S = 30
  m.step(enq(1, 0, 3));            // c2: T(30) 7, X_poff 14: 16+3 > 14: insurance, PORT_PAUSE 1
  // c3: T(30) = 7, X_qoff = X_qon = 1, X_poff = X_pon = 14.
  //  deq (1,0) 19 = hdrm 3 + shared 16: empty; S = 14
  //  enq (0,1) 3: port_shared 14+3 > 14: insurance 3 <= 6, PORT_PAUSE 0
  //  FSM (1,0): omega 0 <= 1: RESUME 1.0;  FSM (0,1): omega 14 > 1, !qoff: PAUSE 0.1
  //  port 1: hdrm 0, 0 <= 14: PORT_RESUME 1;  port 0: hdrm 3: stays
  auto o = m.step(deq_enq(op(1, 0, 19), op(0, 1, 3)));
  EXPECT_EQ(events(o), (Evs{"PAUSE 0.1", "RESUME 1.0", "PORT_PAUSE 0", "PORT_RESUME 1"}));
  EXPECT_EQ(occ(m, 1, 0), "0/0/0");
  EXPECT_EQ(occ(m, 0, 1), "0/14/3");
  expect_invariants(m);
}

TEST(Events, StringFormat) {
  EXPECT_EQ((dsh::Event{dsh::Event::Pause, 3, 1}).str(), "PAUSE 3.1");
  EXPECT_EQ((dsh::Event{dsh::Event::PortResume, 4, 0}).str(), "PORT_RESUME 4");
  EXPECT_EQ(dsh::region_letter(dsh::Region::Headroom), 'H');
  EXPECT_EQ(dsh::region_letter(dsh::Region::None), '-');
}

// ---------------------------------------------------------------- counters

// cnt_w = 4: counters wrap modulo 16.
TEST(Counters, DropsWrap) {
  Mmu m(tight(Scheme::SIH), dsh::RtlWidths{20, 8, 4});
  for (int i = 0; i < 15; ++i) m.step(enq(0, 0, 7));
  EXPECT_EQ(m.queue(0, 0).drops, 15u);
  m.step(enq(0, 0, 7));
  EXPECT_EQ(m.queue(0, 0).drops, 0u);  // 16 mod 16
  m.step(enq(0, 0, 7));
  EXPECT_EQ(m.queue(0, 0).drops, 1u);  // 17 mod 16
  Mmu wide(tight(Scheme::SIH));        // default cnt_w = 32: no wrap
  for (int i = 0; i < 17; ++i) wide.step(enq(0, 0, 7));
  EXPECT_EQ(wide.queue(0, 0).drops, 17u);
}

// SIH, T = 0: enq 3 -> headroom + PAUSE; deq 3 -> hdrm 0, omega 0 <= X_on 0: RESUME.
TEST(Counters, QueuePausesAndResumesWrap) {
  Mmu m(tight(Scheme::SIH), dsh::RtlWidths{20, 8, 4});
  for (int i = 0; i < 17; ++i) {
    ASSERT_EQ(events(m.step(enq(0, 0, 3))), (Evs{"PAUSE 0.0"}));
    ASSERT_EQ(events(m.step(deq(0, 0, 3))), (Evs{"RESUME 0.0"}));
    if (i == 14) {
      EXPECT_EQ(m.queue(0, 0).pauses, 15u);
      EXPECT_EQ(m.queue(0, 0).resumes, 15u);
    }
  }
  EXPECT_EQ(m.queue(0, 0).pauses, 1u);   // 17 mod 16
  EXPECT_EQ(m.queue(0, 0).resumes, 1u);
}

// DSH, T = 0: enq 3 -> insurance + PORT_PAUSE; deq 3 -> port_hdrm 0, 0 <= X_pon 0: PORT_RESUME.
TEST(Counters, PortPausesAndResumesWrap) {
  Mmu m(tight(Scheme::DSH), dsh::RtlWidths{20, 8, 4});
  for (int i = 0; i < 17; ++i) {
    ASSERT_EQ(events(m.step(enq(1, 1, 3))), (Evs{"PORT_PAUSE 1"}));
    ASSERT_EQ(events(m.step(deq(1, 1, 3))), (Evs{"PORT_RESUME 1"}));
  }
  EXPECT_EQ(m.port(1).pauses, 1u);
  EXPECT_EQ(m.port(1).resumes, 1u);
  EXPECT_EQ(m.queue(1, 1).pauses, 0u);
  EXPECT_EQ(m.port(0).pauses, 0u);
}

// 8 cycles with both events erroneous = 16 errors = 0 mod 16; one more = 1.
TEST(Counters, ErrorsWrap) {
  Mmu m(small(Scheme::SIH), dsh::RtlWidths{20, 8, 4});
  for (int i = 0; i < 7; ++i) m.step(deq_enq(op(0, 0, 1), op(0, 0, 0)));
  EXPECT_EQ(m.errors(), 14u);
  m.step(deq_enq(op(0, 0, 1), op(0, 0, 0)));
  EXPECT_EQ(m.errors(), 0u);
  m.step(enq(5, 0, 1));
  EXPECT_EQ(m.errors(), 1u);
  EXPECT_TRUE(m.error_sticky());
}
