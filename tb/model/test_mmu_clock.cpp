// SPDX-License-Identifier: Apache-2.0
// A switch's MMU clock with lanes (spec §4.7, §4.8), on its own: requests
// at chosen times, the golden model behind a recorder of the slots each
// cycle presents, and a client that records when each result acts. Both
// latency forms: results held by the clock, and the delay line the
// state-reading hooks ask for. And the auto eta of spec §7.2 by lane count
// and clock, worked by hand from spec §1.3.
#include <gtest/gtest.h>

#include "harness.h"
#include "mmu_clock.h"
#include "switch_mmu.h"

namespace dsh::net::test {
namespace {

// One slot of a presented cycle: 'E' enqueue or 'D' dequeue, its slot, port, queue.
struct Slot {
  char kind;
  unsigned slot, port, queue;
  bool operator==(const Slot& o) const {
    return kind == o.kind && slot == o.slot && port == o.port && queue == o.queue;
  }
};
using Cycle = std::vector<Slot>;

// The golden model; every input that is not idle is logged, in order.
class Recording final : public MmuModel {
 public:
  Recording(const Config& c, std::vector<Cycle>& log) : m_(make_golden(c)), log_(log) {}
  const CycleOut& step(const CycleIn& in) override { return m_->step(in); }
  const LaneCycleOut& step_lanes(const LaneCycleIn& in) override {
    Cycle c;
    for (unsigned k = 0; k < kDeqPerCycleMax; ++k)
      if (in.deq[k].valid) c.push_back({'D', k, in.deq[k].port, in.deq[k].queue});
    for (unsigned l = 0; l < kLanesMax; ++l)
      if (in.enq[l].valid) c.push_back({'E', l, in.enq[l].port, in.enq[l].queue});
    if (!c.empty()) log_.push_back(c);
    return m_->step_lanes(in);
  }
  const Config& config() const override { return m_->config(); }
  uint64_t cycle() const override { return m_->cycle(); }
  uint64_t s() const override { return m_->s(); }
  uint64_t errors() const override { return m_->errors(); }
  bool error_sticky() const override { return m_->error_sticky(); }
  QueueState queue(uint32_t p, uint32_t q) const override { return m_->queue(p, q); }
  PortState port(uint32_t p) const override { return m_->port(p); }
  const char* name() const override { return "recording"; }
  bool quiet() const override { return m_->quiet(); }
  const CycleOut& skip_idle(uint64_t n) override { return m_->skip_idle(n); }

 private:
  std::unique_ptr<MmuModel> m_;
  std::vector<Cycle>& log_;
};

struct Decided {
  uint64_t t;
  Pkt* p;
  Region region;
};

struct ClockBench : Bench, MmuClient {
  std::vector<Cycle> log;
  std::vector<Decided> decided;
  MmuStats st;
  std::unique_ptr<MmuClock> clock;
  // lanes and dequeue slots of a default chip (32 ports, 7 queues), MMU at
  // 1 GHz (cycle c starts at c ns); line: the delay line instead of held
  // results.
  ClockBench(unsigned lanes, unsigned deq, bool line) {
    Config c;
    c.lanes = lanes;
    c.deq_per_cycle = deq;
    clock = std::make_unique<MmuClock>(ctx, *this, 0, "S", std::make_unique<Recording>(c, log), 1.0, st);
    if (line) clock->read_state_in_step();
  }
  void mmu_decided(Pkt* p, Region region) override { decided.push_back({ev.now(), p, region}); }
  void mmu_event(const Event&) override {}
  Pkt* enqueue_at(uint64_t t_ps, unsigned port) {
    Pkt* p = pool.alloc();
    ev.at(t_ps, [this, p, port] { clock->enqueue(p, Op{true, port, 0, 6}); });
    return p;
  }
  void dequeue_at(uint64_t t_ps, unsigned port) {
    ev.at(t_ps, [this, port] { clock->dequeue(Op{true, port, 0, 6}); });
  }
  void run() {
    ev.run(1'000'000);
    ASSERT_EQ(error, "");
  }
};

// Ports 0 and 1 are lanes 0 and 1 of 2: their packets, both complete at
// 0.5 ns, are decided together in cycle 1 (the first to start after them,
// at 1 ns) and act together at the start of cycle 1 + kRtlLatency + 1 = 6,
// in lane order. 6 cells fit the 12 private cells of a queue.
TEST(MmuClockLanes, TwoLanesDecideInOneCycle) {
  for (bool line : {false, true}) {
    ClockBench b(2, 1, line);
    Pkt* p1 = b.enqueue_at(500, 1);
    Pkt* p0 = b.enqueue_at(500, 0);
    b.run();
    ASSERT_EQ(b.log.size(), 1u) << line;
    EXPECT_EQ(b.log[0], (Cycle{{'E', 0, 0, 0}, {'E', 1, 1, 0}})) << line;
    ASSERT_EQ(b.decided.size(), 2u);
    EXPECT_EQ(b.decided[0].t, 6000u);
    EXPECT_EQ(b.decided[0].p, p0);
    EXPECT_EQ(b.decided[1].t, 6000u);
    EXPECT_EQ(b.decided[1].p, p1);
    EXPECT_EQ(b.decided[0].region, Region::Private);
    EXPECT_EQ(b.decided[1].region, Region::Private);
    EXPECT_EQ(b.st.max_enq_slots, 2u);
    EXPECT_EQ(b.st.max_enq_wait_ps, 500u);
  }
}

// Ports 0 and 2 share lane 0 of 2: the first requested takes cycle 1, the
// other waits for cycle 2 (1.5 ns), and their results act at 6 and 7 ns.
TEST(MmuClockLanes, OneLaneDecidesInConsecutiveCycles) {
  for (bool line : {false, true}) {
    ClockBench b(2, 1, line);
    Pkt* p2 = b.enqueue_at(500, 2);
    Pkt* p0 = b.enqueue_at(500, 0);
    b.run();
    ASSERT_EQ(b.log.size(), 2u) << line;
    EXPECT_EQ(b.log[0], (Cycle{{'E', 0, 2, 0}})) << line;
    EXPECT_EQ(b.log[1], (Cycle{{'E', 0, 0, 0}})) << line;
    ASSERT_EQ(b.decided.size(), 2u);
    EXPECT_EQ(b.decided[0].t, 6000u);
    EXPECT_EQ(b.decided[0].p, p2);
    EXPECT_EQ(b.decided[1].t, 7000u);
    EXPECT_EQ(b.decided[1].p, p0);
    EXPECT_EQ(b.st.max_enq_slots, 1u);
    EXPECT_EQ(b.st.max_enq_wait_ps, 1500u);
  }
}

// Two lanes, two dequeue slots. Packets of ports 0 and 1 (cycle 1) and 2
// (cycle 2) are buffered; at 10.5 ns three dequeues are asked, of ports 0,
// 2, 1. Cycle 11 presents the first two: both of lane 0, and slot 1 names
// another queue than its lane's leader, slot 0, so it is not taken
// (spec §4.8 rule 4). Cycle 12 presents it again in slot 0, before the
// new one of port 1 (lane 1) in slot 1: both taken. Every queue ends
// empty, with no protocol error; the longest dequeue wait is 12 - 10.5 ns.
TEST(MmuClockLanes, NotTakenDequeueComesAgainFirst) {
  for (bool line : {false, true}) {
    ClockBench b(2, 2, line);
    b.enqueue_at(500, 0);
    b.enqueue_at(500, 1);
    b.enqueue_at(500, 2);
    b.dequeue_at(10'500, 0);
    b.dequeue_at(10'500, 2);
    b.dequeue_at(10'500, 1);
    b.run();
    ASSERT_EQ(b.log.size(), 4u) << line;
    EXPECT_EQ(b.log[2], (Cycle{{'D', 0, 0, 0}, {'D', 1, 2, 0}})) << line;
    EXPECT_EQ(b.log[3], (Cycle{{'D', 0, 2, 0}, {'D', 1, 1, 0}})) << line;
    MmuModel& m = b.clock->model();
    EXPECT_EQ(m.errors(), 0u);
    for (unsigned p = 0; p < 3; ++p) EXPECT_EQ(m.queue(p, 0).total(), 0u) << "port " << p;
    EXPECT_EQ(b.st.max_deq_slots, 2u);
    EXPECT_EQ(b.st.max_deq_wait_ps, 1500u);
  }
}

// Spec §7.2 at 32 ports, 100 Gb/s, 2 us, 1500 B (spec §1.3: 56840 B, 6
// cells a packet): the wait is (kRtlLatency + 1 + ceil(32 / lanes))
// cycles, in bytes at 12.5 B/ns, added to the reaction; eta is
// ceil(bytes / 1500) packets of 6 cells.
//   1 lane, 1 GHz:    37 ns,  463 B: 57303 -> 39 packets, 234 cells
//   32 lanes, 1 GHz:   6 ns,   75 B: 56915 -> 38, 228 (the paper's eta)
//   1 lane, 0.2 GHz: 185 ns, 2313 B: 59153 -> 40, 240
//   32 lanes, 0.2 GHz: 30 ns, 375 B: 57215 -> 39, 234
//   16 lanes, 0.3 GHz: 23.3 ns, 292 B: 57132 -> 39, 234
//   4 lanes, 1 GHz:   13 ns,  163 B: 57003 -> 39, 234
TEST(MmuClockLanes, EtaFollowsTheLaneWait) {
  const LinkParams l;
  EXPECT_EQ(auto_headroom_cells(l, 32, 1, 1.0), 234u);
  EXPECT_EQ(auto_headroom_cells(l, 32, 32, 1.0), 228u);
  EXPECT_EQ(auto_headroom_cells(l, 32, 1, 0.2), 240u);
  EXPECT_EQ(auto_headroom_cells(l, 32, 32, 0.2), 234u);
  EXPECT_EQ(auto_headroom_cells(l, 32, 16, 0.3), 234u);
  EXPECT_EQ(auto_headroom_cells(l, 32, 4, 1.0), 234u);
}

}  // namespace
}  // namespace dsh::net::test
