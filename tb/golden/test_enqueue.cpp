// SPDX-License-Identifier: Apache-2.0
// spec §4.3, enqueue admission: private, shared, headroom/insurance, drop for
// SIH and DSH, with their boundaries and the PAUSE / PORT_PAUSE they emit.
// Configuration: tb::small() (see helpers.h), L = 1, so the thresholds of a
// cycle come from S at the end of the previous cycle.
//   SIH: B_s = 32, T(S) = (32-S)>>1         DSH: B_s = 44, T(S) = (44-S)>>1, X_qoff = T-6, X_poff = 2T
#include "helpers.h"

using namespace tb;

// ---------------------------------------------------------------- SIH

TEST(SihEnqueue, PrivateUpToPhiThenShared) {
  Mmu m(small(Scheme::SIH));
  auto o = m.step(enq(0, 0, 2));  // 0+2 <= phi=2: private (equal admits)
  EXPECT_EQ(region(o), "P");
  EXPECT_EQ(occ(m, 0, 0), "2/0/0");
  EXPECT_EQ(m.s(), 0u);
  o = m.step(enq(0, 0, 1));       // 2+1 > 2; !qoff, 0+1 <= X_off=T(0)=16, S+1 <= 32: shared
  EXPECT_EQ(region(o), "S");
  EXPECT_EQ(occ(m, 0, 0), "2/1/0");
  EXPECT_EQ(pocc(m, 0), "1/0");
  EXPECT_EQ(m.s(), 1u);
  EXPECT_EQ(m.buffered_cells(), 3u);
  EXPECT_TRUE(events(o).empty());
  expect_invariants(m);
}

TEST(SihEnqueue, PacketIsNotSplitAcrossPrivateAndShared) {
  Mmu m(small(Scheme::SIH));
  m.step(enq(0, 0, 1));           // private: 1
  auto o = m.step(enq(0, 0, 2));  // 1+2 = 3 > 2: whole packet to shared
  EXPECT_EQ(region(o), "S");
  EXPECT_EQ(occ(m, 0, 0), "1/2/0");
}

TEST(SihEnqueue, SharedExactlyAtXoffAdmits) {
  Mmu m(small(Scheme::SIH));
  m.step(enq(0, 0, 2));           // c0 private
  m.step(enq(0, 0, 10));          // c1 shared, S = 10
  auto o = m.step(enq(0, 0, 1));  // c2: T = (32-10)>>1 = 11; 10+1 = 11 <= 11: shared
  EXPECT_EQ(o.thr.t, 11u);
  EXPECT_EQ(o.thr.x_qoff, 11u);   // SIH: X_off = T
  EXPECT_EQ(region(o), "S");
  EXPECT_EQ(occ(m, 0, 0), "2/11/0");
  EXPECT_FALSE(m.queue(0, 0).qoff);
  EXPECT_TRUE(events(o).empty());
}

TEST(SihEnqueue, OneOverXoffGoesToHeadroomAndPauses) {
  Mmu m(small(Scheme::SIH));
  m.step(enq(0, 0, 2));
  m.step(enq(0, 0, 10));
  auto o = m.step(enq(0, 0, 2));  // c2: 10+2 = 12 > X_off=11; hdrm 0+2 <= 6: headroom; !qoff -> PAUSE
  EXPECT_EQ(region(o), "H");
  EXPECT_EQ(events(o), (Evs{"PAUSE 0.0"}));
  EXPECT_EQ(occ(m, 0, 0), "2/10/2");
  EXPECT_EQ(pocc(m, 0), "10/2");
  EXPECT_TRUE(m.queue(0, 0).qoff);
  EXPECT_EQ(m.queue(0, 0).pauses, 1u);
  EXPECT_EQ(m.queue(0, 0).resumes, 0u);
  EXPECT_EQ(m.s(), 10u);          // headroom is not shared occupancy
  EXPECT_EQ(m.buffered_cells(), 14u);
  EXPECT_FALSE(m.port(0).poff);   // no port level under SIH
  EXPECT_EQ(m.port(0).pauses, 0u);
  expect_invariants(m);
}

TEST(SihEnqueue, QoffGatesSharedRow) {
  Mmu m = sih_paused();           // (0,0) = 2/10/2, QOFF, S = 10
  auto o = m.step(enq(0, 0, 1));  // T(10) = 11: 10+1 <= 11 and S+1 <= 32, but qoff -> headroom 2+1 <= 6
  EXPECT_EQ(region(o), "H");
  EXPECT_EQ(occ(m, 0, 0), "2/10/3");
  EXPECT_TRUE(events(o).empty());  // already QOFF: no second PAUSE
  EXPECT_EQ(m.queue(0, 0).pauses, 1u);
}

// alpha = 2: T(S) = (32-S)<<1 exceeds what is left of the pool, so S+s <= B_s decides.
TEST(SihEnqueue, SharedNeedsRoomInPool) {
  Mmu m(small(Scheme::SIH, 1));
  m.step(enq(0, 0, 2));            // c0 private
  m.step(enq(1, 0, 2));            // c1 private
  auto o = m.step(enq(0, 0, 30));  // c2: T(0) = 64; 30 <= 64, S+30 = 30 <= 32: shared
  EXPECT_EQ(region(o), "S");
  EXPECT_EQ(o.thr.t, 64u);
  Mmu full = m;
  o = m.step(enq(1, 0, 3));        // c3: T(30) = 2<<1 = 4; 0+3 <= 4 but S+3 = 33 > 32: headroom, PAUSE
  EXPECT_EQ(o.thr.t, 4u);
  EXPECT_EQ(region(o), "H");
  EXPECT_EQ(events(o), (Evs{"PAUSE 1.0"}));
  EXPECT_EQ(occ(m, 1, 0), "2/0/3");
  o = full.step(enq(1, 0, 2));     // 2 <= 4 and S+2 = 32 <= 32: shared, pool exactly full
  EXPECT_EQ(region(o), "S");
  EXPECT_EQ(full.s(), 32u);
  expect_invariants(full);
}

TEST(SihEnqueue, HeadroomUpToEtaThenDrop) {
  Mmu m(tight(Scheme::SIH));       // T = 32>>10 = 0, X_off = 0
  m.step(enq(0, 0, 2));            // private
  auto o = m.step(enq(0, 0, 6));   // 2+6 > 2; 6 > X_off=0; hdrm 0+6 <= 6 (equal): headroom, PAUSE
  EXPECT_EQ(region(o), "H");
  EXPECT_EQ(events(o), (Evs{"PAUSE 0.0"}));
  o = m.step(enq(0, 0, 1));        // 6+1 = 7 > 6: drop
  EXPECT_EQ(region(o), "D");
  EXPECT_TRUE(events(o).empty());
  EXPECT_EQ(occ(m, 0, 0), "2/0/6");
  EXPECT_EQ(m.buffered_cells(), 8u);
  EXPECT_EQ(m.queue(0, 0).drops, 1u);
  EXPECT_EQ(m.queue(0, 0).pauses, 1u);
  EXPECT_FALSE(o.error());         // a drop is a loss, not a protocol error
  EXPECT_EQ(m.errors(), 0u);
}

TEST(SihEnqueue, HeadroomIsPerQueue) {
  Mmu m(tight(Scheme::SIH));
  auto o = m.step(enq(0, 0, 5));   // 5 > 2; 5 > 0; 0+5 <= 6: headroom, PAUSE 0.0
  EXPECT_EQ(region(o), "H");
  o = m.step(enq(0, 1, 6));        // (0,1) has its own eta: 0+6 <= 6 even though port holds 5
  EXPECT_EQ(region(o), "H");
  EXPECT_EQ(events(o), (Evs{"PAUSE 0.1"}));
  EXPECT_EQ(pocc(m, 0), "0/11");   // port_hdrm = 5+6 (only a per-queue limit under SIH)
  EXPECT_FALSE(m.port(0).poff);
  EXPECT_EQ(o.thr.x_poff, 0u);     // no port thresholds under SIH
  EXPECT_EQ(o.thr.x_pon, 0u);
  expect_invariants(m);
}

TEST(SihEnqueue, DropCountsPerQueueAndChangesNothingElse) {
  Mmu m(tight(Scheme::SIH));
  auto o = m.step(enq(0, 1, 7));   // 7 > 2; 7 > X_off=0; 0+7 > 6: drop
  EXPECT_EQ(region(o), "D");
  EXPECT_EQ(m.queue(0, 1).drops, 1u);
  EXPECT_EQ(m.queue(0, 0).drops, 0u);
  EXPECT_EQ(m.queue(1, 1).drops, 0u);
  EXPECT_EQ(occ(m, 0, 1), "0/0/0");
  EXPECT_FALSE(m.queue(0, 1).qoff);  // the drop row emits nothing
  EXPECT_TRUE(events(o).empty());
  EXPECT_EQ(m.buffered_cells(), 0u);
}

// ---------------------------------------------------------------- DSH

TEST(DshEnqueue, PrivateUpToPhiThenShared) {
  Mmu m(small(Scheme::DSH));
  auto o = m.step(enq(1, 1, 2));   // 0+2 <= 2: private
  EXPECT_EQ(region(o), "P");
  o = m.step(enq(1, 1, 1));        // 3 > 2; !poff, port_shared 0+1 <= X_poff=44, S+1 <= 44: shared
  EXPECT_EQ(region(o), "S");
  EXPECT_EQ(occ(m, 1, 1), "2/1/0");
  EXPECT_EQ(pocc(m, 1), "1/0");
  EXPECT_EQ(m.s(), 1u);
}

TEST(DshEnqueue, QoffDoesNotGateSharedAndXpoffEqualAdmits) {
  Mmu m = dsh_queue_paused();      // (0,0) = 2/20/0, QOFF, S = 20
  EXPECT_TRUE(m.queue(0, 0).qoff);
  auto o = m.step(enq(0, 0, 4));   // T(20) = 12, X_poff = 24: 20+4 = 24 <= 24, S+4 <= 44: shared
  EXPECT_EQ(o.thr.x_poff, 24u);
  EXPECT_EQ(region(o), "S");
  EXPECT_EQ(occ(m, 0, 0), "2/24/0");
  EXPECT_TRUE(events(o).empty());  // already QOFF
}

TEST(DshEnqueue, OneOverXpoffGoesToInsuranceAndPortPauses) {
  Mmu m = dsh_queue_paused();
  auto o = m.step(enq(0, 0, 5));   // 20+5 = 25 > 24; port_hdrm 0+5 <= 6: insurance; !poff -> PORT_PAUSE
  EXPECT_EQ(region(o), "H");
  EXPECT_EQ(events(o), (Evs{"PORT_PAUSE 0"}));
  EXPECT_EQ(occ(m, 0, 0), "2/20/5");
  EXPECT_EQ(pocc(m, 0), "20/5");
  EXPECT_TRUE(m.port(0).poff);
  EXPECT_EQ(m.port(0).pauses, 1u);
  EXPECT_EQ(m.queue(0, 0).pauses, 1u);  // only the PAUSE of the shared enqueue
  EXPECT_EQ(m.s(), 20u);
  expect_invariants(m);
}

TEST(DshEnqueue, PoffGatesSharedRowButNotPrivate) {
  Mmu m = dsh_port_paused();       // (0,0) = 2/20/5, port 0 POFF, S = 20
  auto o = m.step(enq(0, 0, 1));   // X_poff = 24: 21 <= 24 and S+1 <= 44, but poff: insurance 5+1 = 6 <= 6
  EXPECT_EQ(region(o), "H");
  EXPECT_TRUE(events(o).empty());  // already POFF
  EXPECT_EQ(pocc(m, 0), "20/6");
  o = m.step(enq(0, 1, 2));        // private row comes before the gate: 0+2 <= 2
  EXPECT_EQ(region(o), "P");
  o = m.step(enq(0, 1, 1));        // 3 > 2; poff; port_hdrm 6+1 = 7 > 6: drop
  EXPECT_EQ(region(o), "D");
  EXPECT_EQ(m.queue(0, 1).drops, 1u);
  EXPECT_EQ(m.queue(0, 0).drops, 0u);
  EXPECT_EQ(m.port(0).pauses, 1u);
  expect_invariants(m);
}

TEST(DshEnqueue, InsuranceIsSharedByThePortsQueues) {
  Mmu m(tight(Scheme::DSH));       // T = 44>>10 = 0: X_qoff = X_poff = 0
  auto o = m.step(enq(0, 0, 4));   // 4 > 2; 0+4 > X_poff=0; 0+4 <= 6: insurance, PORT_PAUSE 0
  EXPECT_EQ(region(o), "H");
  EXPECT_EQ(events(o), (Evs{"PORT_PAUSE 0"}));
  o = m.step(enq(0, 1, 3));        // 3 > 2; poff; port_hdrm 4+3 = 7 > 6: drop (queue's own hdrm is 0)
  EXPECT_EQ(region(o), "D");
  EXPECT_EQ(m.queue(0, 1).drops, 1u);
  m.step(enq(0, 1, 2));            // private
  o = m.step(enq(0, 1, 2));        // 4 > 2; poff; port_hdrm 4+2 = 6 <= 6: insurance, no new event
  EXPECT_EQ(region(o), "H");
  EXPECT_TRUE(events(o).empty());
  EXPECT_EQ(occ(m, 0, 1), "2/0/2");
  EXPECT_EQ(pocc(m, 0), "0/6");
  o = m.step(enq(1, 0, 6));        // port 1 has its own eta: 0+6 <= 6, PORT_PAUSE 1
  EXPECT_EQ(region(o), "H");
  EXPECT_EQ(events(o), (Evs{"PORT_PAUSE 1"}));
  expect_invariants(m);
}

TEST(DshEnqueue, InsuranceDoesNotPauseTheQueue) {
  Mmu m(tight(Scheme::DSH));
  auto o = m.step(enq(0, 0, 4));   // insurance; queue FSM: omega 0 > X_qoff 0? no
  EXPECT_EQ(events(o), (Evs{"PORT_PAUSE 0"}));
  EXPECT_FALSE(m.queue(0, 0).qoff);
  EXPECT_EQ(m.queue(0, 0).pauses, 0u);
}

TEST(DshEnqueue, XpoffComparesThePortSum) {
  Mmu m(small(Scheme::DSH));
  m.step(enq(0, 0, 20));           // c0: 20 > 2; 20 <= 44: shared, S = 20; 20 > X_qoff=16: PAUSE 0.0
  auto o = m.step(enq(0, 1, 5));   // c1: X_poff = 24; port_shared 20+5 = 25 > 24: insurance, PORT_PAUSE 0
  EXPECT_EQ(region(o), "H");       //     (queue (0,1) alone holds 0+5 <= 24)
  EXPECT_EQ(events(o), (Evs{"PORT_PAUSE 0"}));
  o = m.step(enq(1, 0, 5));        // c2: other port: 0+5 <= 24, S+5 = 25 <= 44: shared
  EXPECT_EQ(region(o), "S");
  EXPECT_TRUE(events(o).empty());  // omega 5 <= X_qoff = 6
  EXPECT_EQ(pocc(m, 1), "5/0");
}

// alpha = 2: T(S) = (44-S)<<1, X_poff = T<<1, far above what is left of the pool.
TEST(DshEnqueue, SharedNeedsRoomInPool) {
  Mmu m(small(Scheme::DSH, 1));
  auto o = m.step(enq(0, 0, 41));  // T(0) = 88, X_poff = 176; S+41 = 41 <= 44: shared; 41 <= X_qoff=82
  EXPECT_EQ(region(o), "S");
  EXPECT_TRUE(events(o).empty());
  Mmu fill = m;
  o = m.step(enq(1, 0, 4));        // T(41) = 3<<1 = 6, X_poff = 12: 4 <= 12 but S+4 = 45 > 44: insurance
  EXPECT_EQ(o.thr.x_poff, 12u);
  EXPECT_EQ(region(o), "H");
  EXPECT_EQ(events(o), (Evs{"PORT_PAUSE 1"}));
  o = fill.step(enq(1, 0, 3));     // S+3 = 44 <= 44: shared, pool full
  EXPECT_EQ(region(o), "S");       // and omega 3 > X_qoff = sat0(6-6) = 0: PAUSE 1.0
  EXPECT_EQ(events(o), (Evs{"PAUSE 1.0"}));
  EXPECT_EQ(fill.s(), 44u);
  expect_invariants(fill);
}
