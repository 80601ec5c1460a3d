// SPDX-License-Identifier: Apache-2.0
// Golden reference of the MMU threshold pipeline (spec §2–§5, §8).
// One step() is one MMU clock cycle. Plain C++17, no simulator dependency.
#pragma once

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

struct CycleIn {
  Op deq;
  Op enq;
  bool idle() const { return !deq.valid && !enq.valid; }  // neither a dequeue nor an enqueue
};

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
  const CycleOut& last() const { return out_; }

  // spec §8; returns one line per violated invariant, empty when all hold.
  std::vector<std::string> check_invariants() const;

 private:
  bool bad_index(const Op& op) const;
  void dequeue(const Op& op);
  void enqueue(const Op& op, const Thresholds& thr);
  void run_queue_fsm(uint32_t p, uint32_t q, const Thresholds& thr);
  Thresholds for_port(const Thresholds& thr, uint32_t p) const;  // thr with port p's X_qoff, X_qon
  void run_port_fsm(uint32_t p, const Thresholds& thr);
  void emit(Event::Kind k, uint32_t p, uint32_t q);
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
  uint64_t buffered_ = 0;
  uint64_t errors_ = 0;
  bool error_sticky_ = false;
  uint64_t cycle_ = 0;
  uint64_t idle_run_ = 0;  // cycles since the last input
  CycleOut out_;
};

}  // namespace dsh
