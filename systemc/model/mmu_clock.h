// SPDX-License-Identifier: Apache-2.0
// A switch's MMU clock: the waiting enqueue and dequeue requests, the MMU
// cycle timing, and the MMU's decision latency as every switch sees it.
//
// Each MMU cycle is the multi-event cycle of spec §4.7, stepped through
// MmuModel::step_lanes: one enqueue a lane, the oldest waiting in its
// lane's ring (lane = ingress port mod chip lanes), in the first cycle
// starting at or after the packet's last bit arrived; up to deq_per_cycle
// dequeues from one ring in request order, a dequeue asked when the packet
// starts on the wire. The dequeues a cycle does not take (spec §4.8,
// known before the step: route_dequeues) stay at the front of the ring and
// are presented again next cycle in lower slots than new ones. A cycle's
// results (each enqueued packet admitted or dropped, PAUSE/RESUME events)
// act kRtlLatency cycles later, at the start of the next cycle after they
// come out. Cycles without a request or a result are skipped once the MMU
// is quiet (MmuModel::skip_idle).
//
// The latency comes from the model or from the clock:
// - a model with the latency (the RTL) is stepped through it, and its
//   results come out of step_lanes();
// - a model without it (the golden model, lockstep) decides a cycle when
//   stepped and the clock holds the results until they would come out of
//   the RTL, which gives the same results without stepping the idle cycles
//   of a delay line. Only a cycle with results is kept. A cycle that
//   decided nothing to act on (dequeues without events) needs no tick
//   kRtlLatency + 1 cycles later, but a model with the latency had one
//   there: its place in the event order is reserved, and a tick wanted for
//   that cycle later takes it, so that the switches' ticks of a cycle run
//   in the same order either way: the results do not depend on which model
//   decides.
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
  unsigned max_enq_slots = 0, max_deq_slots = 0;  // the most enqueues (lanes) and dequeues taken in one cycle
};

// What the clock asks of its switch: a cycle's results act now, each
// enqueue's region in lane order, then the cycle's events (sorted).
class MmuClient {
 public:
  virtual ~MmuClient() = default;
  virtual void mmu_decided(Pkt* p, Region region) = 0;
  virtual void mmu_event(const Event& e) = 0;
};

class MmuClock {
 public:
  // The MMU of switch `sw` (`name` in errors), clocked at clock_ghz; its
  // latency kRtlLatency or none; its lanes and dequeue slots those of its
  // configuration.
  MmuClock(NetContext& ctx, MmuClient& client, int sw, std::string name, std::unique_ptr<MmuModel> mmu,
           double clock_ghz, MmuStats& stats);
  // Requests at now: an enqueue of `p` (in the lane of op.port), a dequeue.
  void enqueue(Pkt* p, const Op& op) {
    enq_[op.port & lane_mask_].push_back({p, op, ctx_.ev.now()});
    ++enq_waiting_;
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
  // A cycle's input: its valid dequeue slots (slot order), then its
  // enqueues (lane order); in flight, the ops and packets in their rings.
  struct Slots {
    uint32_t n_deq = 0, n_enq = 0;
    bool idle() const { return n_deq == 0 && n_enq == 0; }
  };
  // A stepped cycle's results, of the one-event cycle (one lane, one
  // dequeue slot) or the multi-event one: region[l] of enqueue lane l.
  struct Out {
    const Thresholds* thr;
    const Region* region;
    const Event* events;
    unsigned n_events;
    bool error, enq_error;  // any slot's protocol error; any enqueue's
  };
  struct Decided {  // results to act at the start of cycle `act`: n_enq of admits_, n_events of events_
    uint64_t act;
    uint32_t n_enq, n_events;
  };
  struct Admit {
    Pkt* pkt;
    Region region;
  };
  struct Reserved {
    uint64_t cycle, key;
    bool taken;
  };
  void request();
  void want(uint64_t cycle);
  void present(uint64_t now);
  void step(const Op* ops, Slots s, Pkt* const* pkts);
  void tick(uint64_t cycle);
  void tick_steps(uint64_t cycle);
  void keep_results(uint64_t act, const Out& out, const Op* enq_ops, Pkt* const* pkts, uint32_t n_enq);
  void act_results();
  Out step_model(const Op* ops, Slots s);
  Out model_step(const Op* ops, Slots s);
  Thresholds skip_model(uint64_t n);
  bool line_quiet() const;
  std::string error_at(uint64_t cycle, const Out& out) const;

  NetContext& ctx_;
  MmuClient& client_;
  int sw_;
  std::string name_;
  std::unique_ptr<MmuModel> mmu_;
  MmuStats& st_;
  uint64_t period_ps_ = 1000;
  bool held_ = false;
  uint32_t lane_mask_ = 0, deq_slots_ = 1;
  bool one_event_ = false;  // one lane, one dequeue slot: the model's step() is its step_lanes() (spec §4.7)
  std::vector<Ring<Req>> enq_;  // per lane
  size_t enq_waiting_ = 0;
  Ring<Req> deq_;
  std::unique_ptr<Op[]> cur_ops_;     // the cycle being presented (Slots order)
  std::unique_ptr<Pkt*[]> cur_pkts_;  // its enqueues' packets
  Slots cur_;
  LaneCycleIn in_;              // the model's input; every slot invalid between steps
  Ring<Slots> in_flight_;       // stepped cycles whose results have not come out yet
  Ring<Op> flight_ops_;
  Ring<Pkt*> flight_pkts_;
  size_t real_in_flight_ = 0;
  std::unique_ptr<Op[]> retire_ops_;     // the cycle whose results come out: its slots (Slots order)
  std::unique_ptr<Pkt*[]> retire_pkts_;  // and its enqueues' packets
  Ring<Decided> decided_;
  Ring<Admit> admits_;
  Ring<Event> events_;
  Ring<Reserved> reserved_;
  uint64_t next_cycle_ = 0;               // cycles stepped so far
  uint64_t last_wanted_ = ~uint64_t(0);   // the cycle last given an event (or a reserved place)
  bool last_reserved_ = false;            // last_wanted_ is a reserved place, not an event
  // The delay line (line_on_): the inputs of the last kRtlLatency cycles
  // stepped, the oldest first; idle while the first kRtlLatency fill it.
  bool line_on_ = false;
  Ring<Slots> line_;
  Ring<Op> line_ops_;
  std::unique_ptr<Op[]> line_out_;  // the cycle leaving the line
  size_t line_filled_ = 0;
  Thresholds idle_thr_;
  Out idle_out_{&idle_thr_, nullptr, nullptr, 0, false, false};
};

}  // namespace dsh::net
