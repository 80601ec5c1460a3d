// SPDX-License-Identifier: Apache-2.0
// A switch's MMU clock: the waiting enqueue and dequeue requests, the MMU
// cycle timing, and the MMU's decision latency as every switch sees it.
//
// One enqueue and one dequeue per MMU cycle in request order, an enqueue
// in the first cycle starting at or after the packet's last bit arrived, a
// dequeue when the packet starts on the wire; a cycle's results (the
// packet admitted or dropped, PAUSE/RESUME events) act kRtlLatency cycles
// later, at the start of the next cycle after they come out. Cycles
// without a request or a result are skipped once the MMU is quiet
// (MmuModel::skip_idle). The lane of a request is one ring today; several
// enqueues per cycle would be one ring per lane, taken together in tick().
//
// The latency comes from the model or from the clock:
// - a model with the latency (the RTL, lockstep) is stepped through it,
//   and its results come out of step();
// - a model without it (the golden model) decides a cycle when stepped and
//   the clock holds the results until they would come out of the RTL,
//   which gives the same results without stepping the idle cycles of a
//   delay line. Only a cycle with results is kept. A cycle that decided
//   nothing to act on (a dequeue without events) needs no tick kRtlLatency
//   + 1 cycles later, but a model with the latency had one there: its place
//   in the event order is reserved, and a tick wanted for that cycle later
//   takes it, so that the switches' ticks of a cycle run in the same order
//   either way: the results do not depend on which model decides.
//   Its state runs kRtlLatency cycles ahead of its results, so when the
//   hooks read state (on_retire, on_mmu_out) such a model takes its inputs
//   through a delay line of kRtlLatency cycles instead and is stepped as a
//   model with the latency: every idle cycle in flight is stepped.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "node.h"
#include "ring.h"

namespace dsh::net {

struct MmuStats {
  uint64_t mmu_cycles = 0, mmu_busy_cycles = 0, peak_s = 0;
  uint64_t max_enq_wait_ps = 0, max_deq_wait_ps = 0;
};

// What the clock asks of its switch.
class MmuClient {
 public:
  virtual ~MmuClient() = default;
  // A cycle's results act now; `enq`: the packet of its enqueue, or null.
  virtual void mmu_results(const CycleOut& out, Pkt* enq) = 0;
};

class MmuClock {
 public:
  // The MMU of switch `sw` (`name` in errors), clocked at clock_ghz; its
  // latency kRtlLatency or none.
  MmuClock(NetContext& ctx, MmuClient& client, int sw, std::string name, std::unique_ptr<MmuModel> mmu,
           double clock_ghz, MmuStats& stats);
  // Requests at now: an enqueue of `p`, a dequeue.
  void enqueue(Pkt* p, const Op& op) {
    enq_.push_back({p, op, ctx_.ev.now()});
    request();
  }
  void dequeue(const Op& op) {
    deq_.push_back({nullptr, op, ctx_.ev.now()});
    request();
  }
  MmuModel& model() { return *mmu_; }
  // True when the clock holds the model's results (a model without latency).
  bool holds_results() const { return held_; }
  // The hooks read the model's state with its outputs: a model without the
  // latency takes its inputs through the delay line. Before the first
  // request only (std::logic_error after).
  void read_state_in_step();

 private:
  struct Req {
    Pkt* pkt;
    Op op;
    uint64_t at;
  };
  struct InFlight {  // a stepped cycle whose results have not come out yet
    CycleIn in;
    Pkt* pkt;
  };
  struct Decided {  // held results
    uint64_t act;   // the cycle at whose start they act
    CycleOut out;
    Pkt* pkt;
  };
  struct Reserved {
    uint64_t cycle, key;
    bool taken;
  };
  void request();
  void want(uint64_t cycle);
  void step(const CycleIn& in, Pkt* enq_pkt);
  void tick(uint64_t cycle);
  void tick_steps(uint64_t cycle);
  void result_out(const CycleOut& out, Pkt* pkt);
  const CycleOut& step_model(const CycleIn& in);
  const CycleOut& skip_model(uint64_t n);
  bool line_quiet() const;
  std::string error_at(uint64_t cycle, const CycleOut& out) const;

  NetContext& ctx_;
  MmuClient& client_;
  int sw_;
  std::string name_;
  std::unique_ptr<MmuModel> mmu_;
  MmuStats& st_;
  uint64_t period_ps_ = 1000;
  bool held_ = false;
  Ring<Req> enq_, deq_;
  Ring<InFlight> in_flight_;
  size_t real_in_flight_ = 0;
  Ring<Decided> decided_;
  Ring<Reserved> reserved_;
  uint64_t next_cycle_ = 0;               // cycles stepped so far
  uint64_t last_wanted_ = ~uint64_t(0);   // the cycle last given an event (or a reserved place)
  bool last_reserved_ = false;            // last_wanted_ is a reserved place, not an event
  bool have_result_ = false;              // results of cycle result_cycle_, to act at its end
  uint64_t result_cycle_ = 0;
  CycleOut result_;
  Pkt* result_pkt_ = nullptr;
  std::vector<CycleIn> line_;  // the delay line (empty: none); line_[line_next_] is the oldest
  size_t line_next_ = 0, line_filled_ = 0;
  CycleOut idle_out_;
};

}  // namespace dsh::net
