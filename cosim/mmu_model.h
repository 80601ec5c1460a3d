// SPDX-License-Identifier: Apache-2.0
// One MMU interface, three backends: the golden model, the Verilated RTL,
// or both in lockstep. Used by the replay tool, the regressions and the
// SystemC switch model.
#pragma once

#include <algorithm>
#include <functional>
#include <iosfwd>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "rtl_facts.h"

#include "mmu.h"

namespace dsh {

class MmuModel {
 public:
  virtual ~MmuModel() = default;
  virtual const CycleOut& step(const CycleIn& in) = 0;
  // The multi-event cycle (spec §4.7–§4.10), with the latency() of step().
  // The base takes it only with lanes = deq_per_cycle = 1, as step()
  // (spec §4.7: the same cycle); a backend with lanes overrides it. Throws
  // ConfigError naming the backend otherwise. The slots beyond the first
  // must be invalid: the base reads slot 0 only and does not check the
  // others (it runs every cycle of a one-lane switch, where a scan of the
  // 126 other slots cost more than the golden model's step).
  virtual const LaneCycleOut& step_lanes(const LaneCycleIn& in);
  virtual const Config& config() const = 0;
  virtual uint64_t cycle() const = 0;
  virtual uint64_t s() const = 0;
  virtual uint64_t errors() const = 0;
  virtual bool error_sticky() const = 0;
  virtual QueueState queue(uint32_t p, uint32_t q) const = 0;
  virtual PortState port(uint32_t p) const = 0;
  virtual const char* name() const = 0;
  // Whether queue() and port() hold the statistics counters (drops, pauses,
  // resumes, port pauses and resumes). An RTL built with Stats = 0 has none
  // (they read 0), and the lockstep compares them only where both have them.
  virtual bool has_stats() const { return true; }
  // Cycles from an input to its results. step(in) returns the results of the
  // input given latency() steps earlier (all zero during the first latency()
  // steps), and the state accessors describe the state after that same
  // cycle. 0 for the golden and lockstep models, kRtlLatency for the RTL.
  virtual unsigned latency() const { return 0; }
  // Call after the last step: a lockstep model checks the cycles still in
  // the RTL's pipeline (throws MismatchError like step()).
  virtual void finish() {}
  // Quiet: nothing in flight and the thresholds settled, so that an idle
  // cycle changes no state and no result.
  virtual bool quiet() const = 0;
  // n cycles without input, with the results of the last: stepped until the
  // model is quiet, the rest counted in O(1) (cycle() includes them all).
  virtual const CycleOut& skip_idle(uint64_t n) = 0;

 protected:
  LaneCycleOut lane_out_;  // step_lanes()'s results in the base
};

// dsh_mmu's counter and port-occupancy read port (stat_rd_*), as the RTL
// backend offers it to tests: read_port() requests (p, q), steps idle cycles
// until the answer comes out (kRtlReadLatency) and returns it. Without
// statistics (Stats = 0) the five counters read 0, the port's sums as ever.
// A one-lane cycle's results in the multi-event form (slot 0 of each);
// deq_valid gives deq_taken[0].
inline void to_lane_out(const CycleOut& o, bool deq_valid, LaneCycleOut& out) {
  out.thr = o.thr;
  out.s = o.s;
  out.region[0] = o.region;
  out.enq_error[0] = o.enq_error;
  out.deq_error[0] = o.deq_error;
  out.deq_taken[0] = deq_valid;  // one slot, one lane: always taken
  out.n_errors = unsigned(o.deq_error) + unsigned(o.enq_error);
  out.n_events = o.n_events;
  std::copy(o.events.begin(), o.events.begin() + o.n_events, out.events.begin());
}

// One cycle as a multi-event cycle (spec §4.7): the enqueue in its port's
// lane's slot, the dequeue in slot 0.
inline LaneCycleIn to_lane_in(const CycleIn& in, unsigned lanes) {
  LaneCycleIn li;
  li.deq[0] = in.deq;
  if (in.enq.valid) li.enq[in.enq.port & (lanes - 1)] = in.enq;
  return li;
}

// A multi-event cycle's results as one cycle's: the region and error of the
// lane that had the enqueue, every event.
inline CycleOut to_cycle_out(const LaneCycleOut& lo, unsigned lanes) {
  CycleOut o;
  o.thr = lo.thr;
  o.s = lo.s;
  for (unsigned l = 0; l < lanes; ++l) {
    if (lo.region[l] != Region::None) o.region = lo.region[l];
    o.enq_error = o.enq_error || lo.enq_error[l];
  }
  o.deq_error = lo.deq_error[0];
  o.n_events = std::min<unsigned>(lo.n_events, unsigned(o.events.size()));
  std::copy(lo.events.begin(), lo.events.begin() + o.n_events, o.events.begin());
  return o;
}

// Inline, as every member of the interface, so that a model built apart
// (the on-demand RTL plugin) needs no object of this library.
inline const LaneCycleOut& MmuModel::step_lanes(const LaneCycleIn& in) {
  const Config& c = config();
  if (c.lanes != 1 || c.deq_per_cycle != 1)
    throw ConfigError(std::string("the ") + name() + " backend has no multi-event cycle (lanes = " +
                      std::to_string(c.lanes) + ", deq_per_cycle = " + std::to_string(c.deq_per_cycle) +
                      "; it takes 1 and 1)");
  const CycleOut& o = step(CycleIn{in.deq[0], in.enq[0]});
  // deq_taken is of this step's input, undelayed (spec §4.8); the rest
  // belongs to the input latency() steps earlier. One slot is always taken;
  // the slots beyond it keep their defaults (to_lane_out writes slot 0).
  to_lane_out(o, in.deq[0].valid, lane_out_);
  return lane_out_;
}

struct CounterRead {
  uint64_t drops = 0, pauses = 0, resumes = 0;             // queue (p, q)
  uint64_t port_pauses = 0, port_resumes = 0, port_shared = 0, port_hdrm = 0;  // port p
};
class RtlReadPort {
 public:
  virtual ~RtlReadPort() = default;
  virtual CounterRead read_port(uint32_t p, uint32_t q) = 0;
};
inline constexpr unsigned kRtlReadLatency = 3;

// One clock period in the RTL's traces: the rising edge that samples the
// inputs of cycle c is at t = c * kRtlCyclePs, the falling edge half a period
// later; a cycle's results (stage W's writes) change at the edge
// kRtlLatency cycles later. Reset happens before t = 0 and is not traced.
inline constexpr uint64_t kRtlCyclePs = 10000;  // 10 ns
inline uint64_t rtl_edge_ps(uint64_t cycle) { return cycle * kRtlCyclePs; }

// Bits of the RTL's index of n entries: $clog2(n), at least 1 (dsh_mmu's
// PortW and QueueW).
inline unsigned rtl_index_bits(unsigned n) {
  unsigned w = 1;
  while ((1u << w) < n) ++w;
  return w;
}

enum class Backend { Golden, Rtl, Lockstep };
Backend backend_from_string(const std::string& s);  // golden | rtl | lockstep
const char* to_string(Backend b);

struct RtlOptions {
  std::string fst_path;  // empty: no trace
  unsigned fault = 0;    // a planted fault of tb/faults/dsh_faults.sv (lockstep self-test), 0 none
  uint64_t trace_from = 0;  // first cycle dumped
  uint64_t trace_to = ~uint64_t(0);  // last cycle dumped
  // The light build of the chip when one exists and no trace is asked for:
  // no assertions, no trace, 1.5 to 1.9 times the cycles per second. The
  // switch and network runs take it; the tests of the RTL itself do not.
  bool light = false;
};

// One Verilated parameter set of dsh_mmu built into this binary.
struct RtlVariant {
  const char* name;
  unsigned ports, queues;
  Scheme scheme;
  unsigned latency;
  RtlWidths widths;
  std::function<std::unique_ptr<MmuModel>(const Config&, const RtlOptions&)> make;
  bool stats = true;  // dsh_mmu's Stats: the statistics counters
  bool light = false;  // built without assertions and trace (RtlOptions::light)
  unsigned lanes = 1, deq = 1;  // dsh_mmu's NumLanes and NumDeq (Config's lanes, deq_per_cycle)
  // A configuration's model: one with statistics (a Config says nothing of
  // them; one without is chosen by name, e.g. dsh-sim's run.rtl_variant).
  bool matches(const Config& c) const {
    return stats && c.n_ports == ports && c.n_queues == queues && c.scheme == scheme &&
           c.thresh_latency == latency && c.lanes == lanes && c.deq_per_cycle == deq;
  }
};
// The one-lane parameter sets (NumLanes = NumDeq = 1), which the regressions
// of the one-lane cycle run, and those with lanes or several dequeue slots
// (tb/lockstep/test_lanes.cpp); find_rtl_variant searches both.
const std::vector<RtlVariant>& rtl_variants();
const std::vector<RtlVariant>& rtl_lane_variants();
// The variant for a configuration (the light build when `o` asks for it
// and one exists, else the checked one); throws ConfigError listing what
// is built.
const RtlVariant& find_rtl_variant(const Config& c, const RtlOptions& o = RtlOptions{});
// The widths a configuration is validated against for a backend.
RtlWidths widths_for(const Config& c, Backend b);

std::unique_ptr<MmuModel> make_golden(const Config& c, const RtlWidths& w = RtlWidths{});
std::unique_ptr<MmuModel> make_rtl(const Config& c, const RtlOptions& o = RtlOptions{});

// A difference between RTL and golden model; what() holds the report lines.
class MismatchError : public std::runtime_error {
 public:
  MismatchError(const std::string& report, std::vector<std::string> lines, uint64_t cycle, std::string fst)
      : std::runtime_error(report), lines_(std::move(lines)), cycle_(cycle), fst_(std::move(fst)) {}
  const std::vector<std::string>& lines() const { return lines_; }
  uint64_t cycle() const { return cycle_; }
  const std::string& fst_path() const { return fst_; }

 private:
  std::vector<std::string> lines_;
  uint64_t cycle_;
  std::string fst_;
};

// What the lockstep compares. Every cycle: the outputs and the entries
// (queue and port records, counters) that the cycle's dequeue and enqueue
// touched, which are the only ones a correct cycle changes. Every
// full_compare_every cycles, after an idle gap and at finish(): every queue
// and port, so that a write to a wrong entry is caught within that many
// cycles and reported with the window it happened in. full_compare: every
// queue and port every cycle (slow: dsh-run --full-compare).
inline constexpr uint64_t kFullCompareEvery = 4096;
// An assertion in the RTL failed (Verilator printed its message); thrown
// by the RTL backend's step() once, at the first failure.
// Whether an error text is a lockstep report: a difference ("rtl=... golden=...")
// or a failed RTL assertion. Either is a failed check, not a tool failure.
inline bool is_lockstep_report(const std::string& error) {
  return error.find(" rtl=") != std::string::npos || error.find(" dsh_mmu assertion: ") != std::string::npos;
}

class RtlAssertionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct LockstepOptions {
  std::string tag;          // appended to every mismatch line, e.g. "seed=42"
  std::string fst_dir = "."; // where the window trace of a mismatch goes
  std::string fst_stem = "mismatch";
  uint64_t window = 64;     // cycles of trace before the mismatch
  bool full_compare = false;
  uint64_t full_compare_every = kFullCompareEvery;  // >= 1
};

// Golden and RTL stepped together; step() throws MismatchError on the first
// cycle with any difference, after writing the FST of a window around it and
// a GTKWave save file (.gtkw) that opens it at the failing edge.
// ro traces the lockstep's own RTL model. step() returns the golden model's
// results at once (latency() 0); a second golden model runs kRtlLatency
// cycles behind and is compared with the RTL, so every cycle is compared
// once finish() has run.
std::unique_ptr<MmuModel> make_lockstep(const Config& c, const LockstepOptions& o = LockstepOptions{},
                                        const RtlOptions& ro = RtlOptions{});
std::unique_ptr<MmuModel> make_lockstep(const RtlVariant& v, const Config& c, const LockstepOptions& o,
                                        const RtlOptions& ro = RtlOptions{});

// `inner` run `d` cycles behind: step(in) steps inner with the input given d
// steps earlier. Gives the golden model the RTL's latency, so that a
// latency-aware user (the SystemC switch) behaves alike with every backend.
std::unique_ptr<MmuModel> make_delayed(std::unique_ptr<MmuModel> inner, unsigned d);

// `inner` with every input that is not idle written to `out` as a stimulus
// row (vector format 2, the chip in its header, written now): the file
// replays the same cycles through any backend (dsh-replay). `out` must
// outlive the model.
std::unique_ptr<MmuModel> make_recording(std::unique_ptr<MmuModel> inner, std::ostream& out);

std::unique_ptr<MmuModel> make_model(Backend b, const Config& c, const LockstepOptions& lo = LockstepOptions{},
                                     const RtlOptions& ro = RtlOptions{});

// Compare two models' outputs of one cycle and their state (every queue and
// port if `full`, else those `in` touched); one line per differing field:
// "cycle C block index field: rtl=X golden=Y tag". The counters only when
// rtl.has_stats().
std::vector<std::string> compare(const MmuModel& rtl, const CycleOut& ro, const MmuModel& gold,
                                 const CycleOut& go, const CycleIn& in, bool full, const std::string& tag);

}  // namespace dsh
