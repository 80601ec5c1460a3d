// SPDX-License-Identifier: Apache-2.0
// The lockstep's comparison of an RTL model with a golden one, field by
// field, into report lines (compare() in mmu_model.h is its one-cycle form).
#pragma once

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "gtkw.h"
#include "mmu_model.h"

namespace dsh {

// A cycle's events as the report prints them, "none" for none.
std::string events_str(const CycleOut& o);
std::string events_str(const LaneCycleOut& o);
// "queue P.Q" or "port P".
std::string entry_name(const TraceEntry& e);

// Compares RTL and golden model field by field; builds text only for the
// fields that differ (it runs every cycle). The statistics counters only
// when the RTL has them (Stats = 1): without them it reads 0, and nothing
// else changes (the error count is not one of them).
class Comparer {
 public:
  Comparer(const MmuModel& rtl, const MmuModel& gold, uint64_t cycle, const std::string& tag)
      : rtl_(rtl), gold_(gold), cycle_(cycle), tag_(tag), cfg_(gold.config()),
        stats_(rtl.has_stats() && gold.has_stats()) {}

  void outputs(const CycleOut& ro, const CycleOut& go) {
    diff(nullptr, "region", region_letter(ro.region), region_letter(go.region));
    diff(nullptr, "T", ro.thr.t, go.thr.t);
    diff(nullptr, "S", ro.s, go.s);
    diff(nullptr, "deq_error", ro.deq_error, go.deq_error);
    diff(nullptr, "enq_error", ro.enq_error, go.enq_error);
    bool same_events = ro.n_events == go.n_events;
    for (unsigned i = 0; same_events && i < ro.n_events; ++i) same_events = ro.events[i] == go.events[i];
    if (!same_events) add(nullptr, "events", events_str(ro), events_str(go));
    diff(nullptr, "error_count", rtl_.errors(), gold_.errors());
    diff(nullptr, "error_sticky", rtl_.error_sticky(), gold_.error_sticky());
  }
  // A multi-event cycle's results (spec §4.10); deq_taken is compared
  // where it is known, in the cycle of its input (deq_taken()).
  void lane_outputs(const LaneCycleOut& ro, const LaneCycleOut& go) {
    diff(nullptr, "T", ro.thr.t, go.thr.t);
    diff(nullptr, "S", ro.s, go.s);
    for (unsigned l = 0; l < cfg_.lanes; ++l) {
      if (ro.region[l] != go.region[l])
        add(nullptr, ("region[" + std::to_string(l) + "]").c_str(), region_letter(ro.region[l]),
            region_letter(go.region[l]));
      if (ro.enq_error[l] != go.enq_error[l])
        add(nullptr, ("enq_error[" + std::to_string(l) + "]").c_str(), ro.enq_error[l], go.enq_error[l]);
    }
    for (unsigned k = 0; k < cfg_.deq_per_cycle; ++k)
      if (ro.deq_error[k] != go.deq_error[k])
        add(nullptr, ("deq_error[" + std::to_string(k) + "]").c_str(), ro.deq_error[k], go.deq_error[k]);
    diff(nullptr, "n_errors", ro.n_errors, go.n_errors);
    bool same_events = ro.n_events == go.n_events;
    for (unsigned i = 0; same_events && i < ro.n_events; ++i) same_events = ro.events[i] == go.events[i];
    if (!same_events) add(nullptr, "events", events_str(ro), events_str(go));
    diff(nullptr, "error_count", rtl_.errors(), gold_.errors());
    diff(nullptr, "error_sticky", rtl_.error_sticky(), gold_.error_sticky());
  }
  void deq_taken(const LaneCycleOut& ro, const LaneCycleOut& go) {
    for (unsigned k = 0; k < cfg_.deq_per_cycle; ++k)
      if (ro.deq_taken[k] != go.deq_taken[k])
        add(nullptr, ("deq_taken[" + std::to_string(k) + "]").c_str(), ro.deq_taken[k], go.deq_taken[k]);
  }
  // The queues and ports a multi-event cycle's taken dequeues and its
  // enqueues touched.
  void touched(const LaneCycleIn& in) {
    const DeqRouting r = route_dequeues(cfg_, in);
    auto ok = [&](const Op& op) { return op.valid && op.port < cfg_.n_ports && op.queue < cfg_.n_queues; };
    for (unsigned l = 0; l < cfg_.lanes; ++l)
      if (ok(in.enq[l])) {
        queue(in.enq[l].port, in.enq[l].queue);
        port(in.enq[l].port);
      }
    for (unsigned k = 0; k < cfg_.deq_per_cycle; ++k)
      if (r.taken[k] && !r.own_error[k] && ok(in.deq[k])) {
        queue(in.deq[k].port, in.deq[k].queue);
        port(in.deq[k].port);
      }
  }
  // The queues and ports the cycle's dequeue and enqueue touched.
  void touched(const CycleIn& in) {
    auto ok = [&](const Op& op) { return op.valid && op.port < cfg_.n_ports && op.queue < cfg_.n_queues; };
    const bool deq = ok(in.deq), enq = ok(in.enq);
    if (deq) {
      queue(in.deq.port, in.deq.queue);
      port(in.deq.port);
    }
    if (enq) {
      if (!deq || in.enq.queue != in.deq.queue || in.enq.port != in.deq.port) queue(in.enq.port, in.enq.queue);
      if (!deq || in.enq.port != in.deq.port) port(in.enq.port);
    }
  }
  void all() {
    for (uint32_t p = 0; p < cfg_.n_ports; ++p) {
      for (uint32_t q = 0; q < cfg_.n_queues; ++q) queue(p, q);
      port(p);
    }
  }
  void queue(uint32_t p, uint32_t q) {
    const QueueState r = rtl_.queue(p, q), g = gold_.queue(p, q);
    const TraceEntry e{TraceEntry::Queue, p, q};
    diff(&e, "priv", r.priv, g.priv);
    diff(&e, "shared", r.shared, g.shared);
    diff(&e, "hdrm", r.hdrm, g.hdrm);
    diff(&e, "qoff", r.qoff, g.qoff);
    if (!stats_) return;
    diff(&e, "drops", r.drops, g.drops);
    diff(&e, "pauses", r.pauses, g.pauses);
    diff(&e, "resumes", r.resumes, g.resumes);
  }
  void port(uint32_t p) {
    const PortState r = rtl_.port(p), g = gold_.port(p);
    const TraceEntry e{TraceEntry::Port, p, 0};
    diff(&e, "port_shared", r.shared, g.shared);
    diff(&e, "port_hdrm", r.hdrm, g.hdrm);
    diff(&e, "poff", r.poff, g.poff);
    if (!stats_) return;
    diff(&e, "port_pauses", r.pauses, g.pauses);
    diff(&e, "port_resumes", r.resumes, g.resumes);
  }

  bool ok() const { return lines.empty(); }
  std::vector<std::string> lines;
  std::vector<TraceEntry> entries;  // the queues and ports that differ, each once

 private:
  template <class T>
  void diff(const TraceEntry* e, const char* field, const T& r, const T& g) {
    if (!(r == g)) add(e, field, r, g);
  }
  template <class T>
  void add(const TraceEntry* e, const char* field, const T& r, const T& g) {
    std::ostringstream m;
    m << "cycle " << cycle_ << ' ' << (e ? entry_name(*e) : std::string("dsh_mmu")) << ' ' << field << ": rtl=" << +r
      << " golden=" << +g;
    if (!tag_.empty()) m << ' ' << tag_;
    lines.push_back(m.str());
    if (e && std::find(entries.begin(), entries.end(), *e) == entries.end()) entries.push_back(*e);
  }
  void add(const TraceEntry* e, const char* field, const std::string& r, const std::string& g) {
    add(e, field, r.c_str(), g.c_str());
  }
  void add(const TraceEntry* e, const char* field, char r, char g) {
    const char rs[2] = {r, 0}, gs[2] = {g, 0};
    add(e, field, static_cast<const char*>(rs), static_cast<const char*>(gs));
  }

  const MmuModel& rtl_;
  const MmuModel& gold_;
  uint64_t cycle_;
  const std::string& tag_;
  const Config& cfg_;
  bool stats_;
};

}  // namespace dsh
