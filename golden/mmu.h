// SPDX-License-Identifier: Apache-2.0
// Golden reference of the MMU threshold pipeline (spec §2–§5, §8).
// One step() is one MMU clock cycle. Plain C++17, no simulator dependency.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "config.h"

namespace dsh {

// Where this cycle's enqueue went. Codes match the RTL's stat_region_o.
enum class Region : uint8_t { None = 0, Private = 1, Shared = 2, Headroom = 3, Drop = 4 };
char region_letter(Region r);  // '-', 'P', 'S', 'H', 'D' (vector format)

struct Event {
  // Sort order of the vector format: kind, then port, then queue.
  enum Kind : uint8_t { Pause = 0, Resume = 1, PortPause = 2, PortResume = 3 };
  Kind kind;
  uint32_t port;
  uint32_t queue;  // 0 for port events
  bool operator==(const Event& o) const {
    return kind == o.kind && port == o.port && queue == o.queue;
  }
  bool operator<(const Event& o) const;
  std::string str() const;  // "PAUSE 3.1", "PORT_RESUME 4"
};

// One enqueue or dequeue request: one packet of `cells` cells.
struct Op {
  bool valid = false;
  uint32_t port = 0;
  uint32_t queue = 0;
  uint32_t cells = 0;
};

// The cycle of spec §4.1: one dequeue, one enqueue. With any `lanes` and
// `deq_per_cycle` it is the multi-event cycle with the enqueue in slot
// port mod lanes and the dequeue in slot 0 (spec §4.7), which gives the
// same results.
struct CycleIn {
  Op deq;
  Op enq;
  bool idle() const { return !deq.valid && !enq.valid; }  // neither a dequeue nor an enqueue
};

// The multi-event cycle (spec §4.7): enqueue slot l of lane l (its port p
// must have p mod lanes == l) for l < lanes, dequeue slot k for any queue
// for k < deq_per_cycle. Slots at or beyond those counts must be invalid.
struct LaneCycleIn {
  std::array<Op, kLanesMax> enq{};
  std::array<Op, kDeqPerCycleMax> deq{};
  bool idle() const {  // no slot valid
    const auto valid = [](const Op& o) { return o.valid; };
    return std::none_of(enq.begin(), enq.end(), valid) && std::none_of(deq.begin(), deq.end(), valid);
  }
};

// Which dequeue slots a cycle takes and how they merge (spec §4.8): a pure
// function of the slots and the configuration (one that validate()
// accepts), known before the step.
struct DeqRouting {
  // valid and taken this cycle: every valid slot but those whose lane's
  // leader names another queue (their error, if any, is their result).
  std::array<bool, kDeqPerCycleMax> taken{};
  // taken and an error on its own (size 0 or an index out of range): not routed.
  std::array<bool, kDeqPerCycleMax> own_error{};
  // for a routed, taken slot: the slot number of its group's leader (the
  // lowest slot routed to its lane); the leader's own number for a leader.
  std::array<uint8_t, kDeqPerCycleMax> leader{};
};
DeqRouting route_dequeues(const Config& cfg, const LaneCycleIn& in);

// Thresholds in effect during a cycle (spec §3.1, §3.2). SIH: x_qoff = X_off,
// x_qon = X_on, port thresholds 0. DSH's x_qoff and x_qon depend on the
// port's eta: those of one port (CycleOut::thr: port 0's).
struct Thresholds {
  uint64_t t = 0, x_qoff = 0, x_qon = 0, x_poff = 0, x_pon = 0;
};

struct CycleOut {
  Region region = Region::None;
  Thresholds thr;            // in effect during the cycle
  uint64_t s = 0;            // S at the end of the cycle
  bool deq_error = false;    // dequeue was a protocol error
  bool enq_error = false;    // enqueue was a protocol error
  unsigned n_events = 0;
  std::array<Event, 4> events{};  // sorted; at most 2 queue + 2 port events
  bool error() const { return deq_error || enq_error; }
};

// Results of a multi-event cycle (spec §4.10): per lane, per dequeue slot,
// and every event of the cycle, sorted. Entries at or beyond lanes and
// deq_per_cycle are left at their defaults.
struct LaneCycleOut {
  Thresholds thr;  // in effect during the cycle (port 0's queue limits)
  uint64_t s = 0;  // S at the end of the cycle
  std::array<Region, kLanesMax> region{};     // of enqueue slot l
  std::array<bool, kLanesMax> enq_error{};    // enqueue slot l was a protocol error
  std::array<bool, kDeqPerCycleMax> deq_error{};  // dequeue slot k was a protocol error
  std::array<bool, kDeqPerCycleMax> deq_taken{};  // spec §4.8
  unsigned n_errors = 0;                      // erroneous slots this cycle
  unsigned n_events = 0;
  std::array<Event, 4 * kLanesMax> events{};  // sorted; at most 2 queue + 2 port events a lane
  bool error() const { return n_errors != 0; }
};

struct QueueState {
  uint64_t priv = 0, shared = 0, hdrm = 0;
  bool qoff = false;
  uint64_t drops = 0, pauses = 0, resumes = 0;  // wrap modulo 2^cnt_w
  uint64_t total() const { return priv + shared + hdrm; }
};

struct PortState {
  uint64_t shared = 0, hdrm = 0;
  bool poff = false;
  uint64_t pauses = 0, resumes = 0;  // port-level events (DSH)
};

class Mmu {
 public:
  // Validates the configuration (throws ConfigError) against the RTL widths.
  explicit Mmu(const Config& cfg, const RtlWidths& widths = RtlWidths{});

  void reset();
  const CycleOut& step(const CycleIn& in);
  // The multi-event cycle (spec §4.7–§4.10). Throws std::invalid_argument
  // for a valid slot at or beyond lanes or deq_per_cycle (a caller's bug,
  // not a protocol error).
  const LaneCycleOut& step(const LaneCycleIn& in);
  const CycleOut& idle() { return step(CycleIn{}); }
  // Quiet: the last L + 1 cycles had no input, so S and the thresholds have
  // settled and an idle cycle changes nothing but the cycle count.
  bool quiet() const { return idle_run_ > cfg_.thresh_latency; }
  // n cycles without input: stepped until quiet, the rest only counted
  // (O(1) for any n). Returns the last cycle's results.
  const CycleOut& skip_idle(uint64_t n);

  // Thresholds from a shared occupancy S (spec §3.1), without delay, with
  // the queue limits of port `port` (they use its eta under DSH).
  Thresholds thresholds_for(uint64_t s, uint32_t port = 0) const;

  const Config& config() const { return cfg_; }
  uint64_t shared_cells() const { return bs_; }  // B_s
  uint64_t cycle() const { return cycle_; }      // cycles stepped since reset
  uint64_t s() const { return s_; }
  bool error_sticky() const { return error_sticky_; }
  uint64_t errors() const { return errors_; }
  const QueueState& queue(uint32_t p, uint32_t q) const { return queues_[p * cfg_.n_queues + q]; }
  const PortState& port(uint32_t p) const { return ports_[p]; }
  uint64_t buffered_cells() const { return buffered_; }
  const CycleOut& last() const { return out_; }           // of the last step(CycleIn)
  const LaneCycleOut& last_lanes() const { return lane_out_; }  // of the last step(LaneCycleIn)

  // spec §8; returns one line per violated invariant, empty when all hold.
  std::vector<std::string> check_invariants() const;

 private:
  bool bad_index(const Op& op) const;
  const Thresholds& cycle_thresholds();  // of S_{c-L} (spec §3.2)
  // S history, the lanes' pool base, cycle and idle counts; s_start is S
  // before the cycle, enq_cells its A_c (spec §4.9).
  void end_cycle(bool idle, uint64_t s_start, uint64_t enq_cells);
  void dequeue(uint32_t port, uint32_t queue, uint64_t cells);
  // Admits op (spec §4.3) with `pool` as the S of the shared row's pool
  // term (spec §4.9); returns its region.
  Region enqueue(const Op& op, const Thresholds& thr, uint64_t pool);
  void run_queue_fsm(uint32_t p, uint32_t q, const Thresholds& thr);
  Thresholds for_port(const Thresholds& thr, uint32_t p) const;  // thr with port p's X_qoff, X_qon
  void run_port_fsm(uint32_t p, const Thresholds& thr);
  void emit(Event::Kind k, uint32_t p, uint32_t q);  // into events_, counting it
  uint64_t wrap(uint64_t v) const { return v & cnt_mask_; }

  Config cfg_;
  uint64_t bs_;
  uint64_t cnt_mask_;
  std::vector<QueueState> queues_;
  std::vector<PortState> ports_;
  // S at the end of the last L cycles: a ring of L entries, the oldest at
  // s_head_ (L <= kThreshLatencyMax).
  std::array<uint64_t, kThreshLatencyMax> s_hist_{};
  unsigned s_head_ = 0;
  // thresholds_for(thr_s_), the last thresholds computed (a pure function of
  // S: step() recomputes them only when S_{c-L} changes).
  uint64_t thr_s_ = 0;
  Thresholds thr_;
  uint64_t s_ = 0;
  // With lanes: S_{c-2} + A_{c-1} for the pool rule of the coming cycle c
  // (spec §4.9): S before the last cycle plus the sizes that cycle's valid,
  // error-free enqueues carried.
  uint64_t pool_base_ = 0;
  uint64_t buffered_ = 0;
  uint64_t errors_ = 0;
  bool error_sticky_ = false;
  uint64_t cycle_ = 0;
  uint64_t idle_run_ = 0;  // cycles since the last input
  CycleOut out_;
  LaneCycleOut lane_out_;
  // Where emit() writes the cycle's events, out_'s or lane_out_'s: set by
  // each step before its first event (so a copied Mmu never uses another's).
  Event* events_ = nullptr;
  unsigned* n_events_ = nullptr;
};

}  // namespace dsh
