// SPDX-License-Identifier: Apache-2.0
#include "mmu_model.h"

#include "gtkw.h"
#include "rtl_ondemand.h"
#include "vectors.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <set>
#include <sstream>

namespace dsh {

Backend backend_from_string(const std::string& s) {
  std::string l = s;
  std::transform(l.begin(), l.end(), l.begin(), [](unsigned char c) { return std::tolower(c); });
  if (l == "golden") return Backend::Golden;
  if (l == "rtl") return Backend::Rtl;
  if (l == "lockstep" || l == "both") return Backend::Lockstep;
  throw ConfigError("backend = '" + s + "': must be golden, rtl or lockstep");
}

const char* to_string(Backend b) {
  switch (b) {
    case Backend::Golden: return "golden";
    case Backend::Rtl: return "rtl";
    default: return "lockstep";
  }
}

const RtlVariant& find_rtl_variant(const Config& c, const RtlOptions& o) {
  // DSH_RTL_DIR names other RTL sources (rtl_ondemand.cpp): the built-in
  // variants were built from this checkout's, so only on-demand models apply.
  const char* rtl_dir = std::getenv("DSH_RTL_DIR");
  const bool light = o.light && o.fst_path.empty();
  if (!rtl_dir || !*rtl_dir) {
    const RtlVariant* found = nullptr;
    for (const auto* list : {&rtl_variants(), &rtl_lane_variants()})
      for (const auto& v : *list)
        if (v.matches(c) && (!found || v.light == light)) found = &v;
    if (found) return *found;
  }
  std::string why;
  if (rtl_ondemand_supported(c, &why)) return ondemand_rtl_variant(c);  // built once into the cache
  std::ostringstream m;
  m << "no RTL model for n_ports=" << c.n_ports << " n_queues=" << c.n_queues << " scheme=" << to_string(c.scheme)
    << " thresh_latency=" << c.thresh_latency;
  if (c.lanes != 1 || c.deq_per_cycle != 1) m << " lanes=" << c.lanes << " deq_per_cycle=" << c.deq_per_cycle;
  m << ": " << why;
  if (c.lanes != 1 || c.deq_per_cycle != 1) {  // the chips that take them
    m << "; the chips with lanes in this build:";
    std::set<std::string> chips;  // a light build is the same chip as its checked one
    for (const auto& v : rtl_lane_variants()) {
      std::ostringstream chip;
      chip << "n_ports " << v.ports << ", n_queues " << v.queues << ", " << to_string(v.scheme) << ", thresh_latency "
           << v.latency << ", lanes " << v.lanes << ", deq_per_cycle " << v.deq;
      if (chips.insert(chip.str()).second) m << (chips.size() > 1 ? "; " : " ") << chip.str();
    }
    if (chips.empty()) m << " none";
  }
  throw ConfigError(m.str());
}

RtlWidths widths_for(const Config& c, Backend b) {
  return b == Backend::Golden ? RtlWidths{} : find_rtl_variant(c).widths;
}

namespace {

class GoldenModel final : public MmuModel {
 public:
  GoldenModel(const Config& c, const RtlWidths& w) : m_(c, w), one_lane_(c.lanes == 1 && c.deq_per_cycle == 1) {}
  const CycleOut& step(const CycleIn& in) override { return m_.step(in); }
  // One lane and one dequeue slot: the cycle of step() (spec §4.7), as the
  // base takes it, at a tenth of the multi-event step's cost.
  const LaneCycleOut& step_lanes(const LaneCycleIn& in) override {
    if (!one_lane_) return m_.step(in);
    to_lane_out(m_.step(CycleIn{in.deq[0], in.enq[0]}), in.deq[0].valid, lane_out_);
    return lane_out_;
  }
  bool quiet() const override { return m_.quiet(); }
  const CycleOut& skip_idle(uint64_t n) override { return m_.skip_idle(n); }
  const Config& config() const override { return m_.config(); }
  uint64_t cycle() const override { return m_.cycle(); }
  uint64_t s() const override { return m_.s(); }
  uint64_t errors() const override { return m_.errors(); }
  bool error_sticky() const override { return m_.error_sticky(); }
  QueueState queue(uint32_t p, uint32_t q) const override { return m_.queue(p, q); }
  PortState port(uint32_t p) const override { return m_.port(p); }
  const char* name() const override { return "golden"; }
  const Mmu& mmu() const { return m_; }

 private:
  Mmu m_;
  bool one_lane_;
};

bool all_idle(const std::deque<CycleIn>& q) {
  return std::all_of(q.begin(), q.end(), [](const CycleIn& i) { return i.idle(); });
}

std::string events_str(const CycleOut& o) {
  std::string s;
  for (unsigned i = 0; i < o.n_events; ++i) s += (i ? ";" : "") + o.events[i].str();
  return s.empty() ? "none" : s;
}

std::string events_str(const LaneCycleOut& o) {
  std::string s;
  for (unsigned i = 0; i < o.n_events; ++i) s += (i ? ";" : "") + o.events[i].str();
  return s.empty() ? "none" : s;
}

std::string entry_name(const TraceEntry& e) {
  return e.kind == TraceEntry::Queue ? "queue " + std::to_string(e.port) + "." + std::to_string(e.queue)
                                     : "port " + std::to_string(e.port);
}

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

class Lockstep final : public MmuModel {
 public:
  Lockstep(const RtlVariant& v, const Config& c, const LockstepOptions& o, const RtlOptions& ro)
      : variant_(v), gold_(c, variant_.widths), behind_(c, variant_.widths), rtl_(variant_.make(c, ro)), opt_(o),
        fault_(ro.fault) {
    if (opt_.full_compare_every == 0) throw ConfigError("full_compare_every = 0: must be at least 1 cycle");
    lane_mode_ = c.lanes > 1 || c.deq_per_cycle > 1;
  }

  // The caller gets the golden results now; the RTL's results for the same
  // input come rtl_->latency() steps later and are compared with `behind_`,
  // a second golden model fed the same inputs that much later.
  const CycleOut& step(const CycleIn& in) override {
    if (lane_mode_) {  // one enqueue and one dequeue as a multi-event cycle (spec §4.7)
      lane_cycle_out_ = to_cycle_out(step_lanes(to_lane_in(in, gold_.config().lanes)), gold_.config().lanes);
      return lane_cycle_out_;
    }
    log_.push_back({in, 0});
    pending_.push_back(in);
    const CycleOut& go = gold_.step(in);
    check(rtl_step(in));
    return go;
  }
  // The multi-event cycle: deq_taken compared at once (it belongs to this
  // input), the rest with `behind_` as step() does. No trace of a
  // mismatch: the stimulus is not logged (a lane chip's cycles are large).
  const LaneCycleOut& step_lanes(const LaneCycleIn& in) override {
    if (!lane_mode_) return MmuModel::step_lanes(in);
    pending_lanes_.push_back(in);
    const LaneCycleOut& go = gold_.step_lanes(in);
    const LaneCycleOut& ro = rtl_step_lanes(in);
    Comparer cmp(*rtl_, gold_, gold_.cycle() - 1, opt_.tag);
    cmp.deq_taken(ro, go);
    if (!cmp.ok()) fail_lanes(cmp, gold_.cycle() - 1);
    check_lanes(ro);
    return go;
  }
  // The cycles still in the RTL's pipeline, then the whole state.
  void finish() override {
    if (lane_mode_) {
      while (behind_.cycle() < gold_.cycle()) check_lanes(rtl_step_lanes(LaneCycleIn{}));
      if (behind_.cycle()) {
        Comparer cmp(*rtl_, behind_, behind_.cycle() - 1, opt_.tag);
        cmp.all();
        if (!cmp.ok()) fail_lanes(cmp, behind_.cycle() - 1);
      }
      return;
    }
    while (behind_.cycle() < gold_.cycle()) check(rtl_step(CycleIn{}));
    if (behind_.cycle() && last_full_ != int64_t(behind_.cycle() - 1)) full_check(behind_.cycle() - 1);
  }
  bool quiet() const override {
    return gold_.quiet() && behind_.quiet() && rtl_->quiet() && all_idle(pending_) &&
           std::all_of(pending_lanes_.begin(), pending_lanes_.end(), [](const LaneCycleIn& i) {
             return std::none_of(i.enq.begin(), i.enq.end(), [](const Op& o) { return o.valid; }) &&
                    std::none_of(i.deq.begin(), i.deq.end(), [](const Op& o) { return o.valid; });
           });
  }
  // Stepped, every cycle compared, until the RTL and both golden models are
  // quiet; then all three skip the rest and their whole state is compared.
  // (A lane chip steps every idle cycle.)
  const CycleOut& skip_idle(uint64_t n) override {
    if (lane_mode_) {
      for (; n; --n) step(CycleIn{});
      return lane_cycle_out_;
    }
    for (; n && !quiet(); --n) step(CycleIn{});
    if (!n) return gold_.mmu().last();
    log_.push_back({CycleIn{}, n});
    const CycleOut& go = gold_.skip_idle(n);
    const CycleOut& ro = rtl_->skip_idle(n);
    const CycleOut& bo = behind_.skip_idle(n);
    const uint64_t c = behind_.cycle() - 1;
    Comparer cmp(*rtl_, behind_, c, opt_.tag);
    cmp.outputs(ro, bo);
    cmp.all();
    if (!cmp.ok()) fail(cmp, c, false);
    last_full_ = int64_t(c);
    return go;
  }
  const Config& config() const override { return gold_.config(); }
  uint64_t cycle() const override { return gold_.cycle(); }
  uint64_t s() const override { return gold_.s(); }
  uint64_t errors() const override { return gold_.errors(); }
  bool error_sticky() const override { return gold_.error_sticky(); }
  QueueState queue(uint32_t p, uint32_t q) const override { return gold_.queue(p, q); }
  PortState port(uint32_t p) const override { return gold_.port(p); }
  const char* name() const override { return "lockstep"; }

 private:
  // An RTL assertion fails the run like a mismatch, at the input cycle
  // whose stage W writes at that edge.
  const CycleOut& rtl_step(const CycleIn& in) {
    try {
      return rtl_->step(in);
    } catch (const RtlAssertionError& e) {
      // The RTL's cycle counts the cycles skipped while idle, as the
      // golden models' do: rtl_steps_ would not.
      const uint64_t edge = rtl_->cycle() - 1, lat = rtl_->latency(), c = edge > lat ? edge - lat : 0;
      Comparer cmp(*rtl_, behind_, c, opt_.tag);
      cmp.lines.push_back("cycle " + std::to_string(c) + " dsh_mmu assertion: " + e.what() + " " + opt_.tag);
      fail(cmp, c, false);
    }
  }

  const LaneCycleOut& rtl_step_lanes(const LaneCycleIn& in) {
    try {
      return rtl_->step_lanes(in);
    } catch (const RtlAssertionError& e) {
      const uint64_t edge = rtl_->cycle() - 1, lat = rtl_->latency(), c = edge > lat ? edge - lat : 0;
      Comparer cmp(*rtl_, behind_, c, opt_.tag);
      cmp.lines.push_back("cycle " + std::to_string(c) + " dsh_mmu assertion: " + e.what() + " " + opt_.tag);
      fail_lanes(cmp, c);
    }
  }

  void check_lanes(const LaneCycleOut& ro) {
    ++rtl_steps_;
    if (rtl_steps_ <= rtl_->latency()) {  // the pipeline is filling: idle results
      bool idle = ro.s == 0 && ro.n_events == 0 && ro.n_errors == 0;
      for (unsigned l = 0; l < gold_.config().lanes; ++l) idle = idle && ro.region[l] == Region::None;
      if (!idle) {
        Comparer cmp(*rtl_, behind_, 0, opt_.tag);
        cmp.lines.push_back("cycle -" + std::to_string(rtl_->latency() - rtl_steps_ + 1) +
                            " dsh_mmu pipeline fill: rtl results not idle " + opt_.tag);
        fail_lanes(cmp, 0);
      }
      return;
    }
    const LaneCycleIn in = pending_lanes_.front();
    pending_lanes_.pop_front();
    const LaneCycleOut& go = behind_.step_lanes(in);
    const uint64_t c = behind_.cycle() - 1;
    Comparer cmp(*rtl_, behind_, c, opt_.tag);
    cmp.lane_outputs(ro, go);
    cmp.touched(in);
    if (opt_.full_compare || (c + 1) % opt_.full_compare_every == 0) cmp.all();
    if (!cmp.ok()) fail_lanes(cmp, c);
    ++matched_;
  }

  [[noreturn]] void fail_lanes(const Comparer& cmp, uint64_t c) {
    std::ostringstream m;
    for (const auto& l : cmp.lines) m << l << '\n';
    m << "mismatch after " << matched_ << " matched cycles: cycle " << c << " (input), written by stage W at t="
      << rtl_edge_ps(c + rtl_->latency()) / 1000 << " ns (no trace: a lane chip's stimulus is not logged)";
    throw MismatchError(m.str(), cmp.lines, c, "");
  }

  void check(const CycleOut& ro) {
    ++rtl_steps_;
    if (rtl_steps_ <= rtl_->latency()) {  // the pipeline is filling: idle results
      if (ro.region != Region::None || ro.n_events || ro.error() || ro.s) {
        Comparer cmp(*rtl_, behind_, 0, opt_.tag);
        cmp.lines.push_back("cycle -" + std::to_string(rtl_->latency() - rtl_steps_ + 1) +
                            " dsh_mmu pipeline fill: rtl results not idle " + opt_.tag);
        fail(cmp, 0, false);
      }
      return;
    }
    const CycleIn in = pending_.front();
    pending_.pop_front();
    const CycleOut& go = behind_.step(in);
    const uint64_t c = behind_.cycle() - 1;
    Comparer cmp(*rtl_, behind_, c, opt_.tag);
    cmp.outputs(ro, go);
    cmp.touched(in);
    if (!cmp.ok()) fail(cmp, c, false);
    if (opt_.full_compare || (c + 1) % opt_.full_compare_every == 0) full_check(c);
    ++matched_;
  }

  // Every queue and port after cycle c; a difference here lies in an entry
  // the cycle did not touch, so it arose after the last full compare.
  void full_check(uint64_t c) {
    Comparer cmp(*rtl_, behind_, c, opt_.tag);
    cmp.all();
    if (!cmp.ok()) fail(cmp, c, !opt_.full_compare);
    last_full_ = int64_t(c);
  }

  // Replays the whole stimulus into a fresh RTL model that dumps the window
  // around the failing cycle c (from the last matched full compare when
  // `at_full` says the difference was found there), writes a GTKWave save
  // file for it, then throws the report.
  [[noreturn]] void fail(const Comparer& cmp, uint64_t c, bool at_full) {
    const uint64_t lat = rtl_->latency();
    const uint64_t since = last_full_ < 0 ? 0 : uint64_t(last_full_);  // the window (since, c]
    RtlOptions ro;
    ro.fault = fault_;
    const std::string base = opt_.fst_dir + "/" + opt_.fst_stem + "_cycle" + std::to_string(c);
    ro.fst_path = base + ".fst";
    ro.trace_from = c > opt_.window ? c - opt_.window : 0;
    if (at_full) ro.trace_from = std::min(ro.trace_from, since);
    ro.trace_to = c + lat + 4;
    std::string fst = ro.fst_path, gtkw = base + ".gtkw";
    try {
      auto replay = variant_.make(gold_.config(), ro);
      auto step = [&](const Step& st) {
        try {
          st.skipped ? replay->skip_idle(st.skipped) : replay->step(st.in);
        } catch (const RtlAssertionError&) {  // the one we report: trace on
        }
      };
      for (const auto& st : log_) step(st);
      for (uint64_t i = 0; i < lat + 4; ++i) step(Step{CycleIn{}, 0});
    } catch (const std::exception& e) {
      fst = "(not written: " + std::string(e.what()) + ")";
      gtkw.clear();
    }
    const uint64_t written = c + lat;  // the edge at which stage W writes cycle c's results
    if (!gtkw.empty()) {
      try {
        GtkwView v;
        v.fst_path = ro.fst_path;
        v.marker_ps = rtl_edge_ps(written);
        if (at_full) v.since_ps = int64_t(rtl_edge_ps(since + lat));
        v.start_ps = rtl_edge_ps(std::max(ro.trace_from, written > 60 ? written - 60 : 0));
        v.entries = cmp.entries;
        v.stats = variant_.stats;
        write_gtkw(gtkw, gold_.config(), variant_.widths, v);
      } catch (const std::exception& e) {
        gtkw = "(not written: " + std::string(e.what()) + ")";
      }
    }
    auto ns = [](uint64_t cycle) { return std::to_string(rtl_edge_ps(cycle) / 1000) + " ns"; };
    std::ostringstream m;
    for (const auto& l : cmp.lines) m << l << '\n';
    if (at_full) {
      for (size_t i = 0; i < cmp.entries.size(); ++i) m << (i ? ", " : "") << entry_name(cmp.entries[i]);
      m << (cmp.entries.size() > 1 ? " differ" : " differs") << " at full compare of cycle " << c << "; ";
      if (last_full_ < 0)
        m << "no full compare before it: the fault lies in [0, " << c << "]";
      else
        m << "last matched full compare at cycle " << since << ": the fault lies in (" << since << ", " << c << "]";
      m << ", written by stage W at t in (" << (last_full_ < 0 ? std::string("0 ns") : ns(since + lat)) << ", "
        << ns(written) << "]";
    } else {
      m << "mismatch after " << matched_ << " matched cycles: cycle " << c << " (input), written by stage W at t="
        << ns(written);
    }
    m << " in " << fst << " (trace of cycles " << ro.trace_from << ".." << ro.trace_to << ", t=" << ns(ro.trace_from)
      << ".." << ns(ro.trace_to) << "; " << (gtkw.rfind('(', 0) == 0 || gtkw.empty() ? "view " : "view: gtkwave ")
      << (gtkw.empty() ? "not written" : gtkw) << ")";
    throw MismatchError(m.str(), cmp.lines, c, fst);
  }

  const RtlVariant& variant_;
  GoldenModel gold_;    // what the caller sees
  GoldenModel behind_;  // compared with the RTL
  std::unique_ptr<MmuModel> rtl_;
  LockstepOptions opt_;
  unsigned fault_;  // the RTL's planted fault, for the replay
  struct Step {
    CycleIn in;
    uint64_t skipped;  // > 0: skip_idle(skipped) instead of step(in)
  };
  std::vector<Step> log_;        // the whole stimulus, for the trace of a mismatch
  std::deque<CycleIn> pending_;  // given to the RTL, not yet to `behind_`
  // A chip with lanes or several dequeue slots runs every cycle as a
  // multi-event one (step_lanes), its inputs pending here.
  bool lane_mode_ = false;
  std::deque<LaneCycleIn> pending_lanes_;
  CycleOut lane_cycle_out_;
  uint64_t rtl_steps_ = 0;
  uint64_t matched_ = 0;
  int64_t last_full_ = -1;  // the last cycle after which every entry matched, -1 none yet
};

// A model wrapped around another: every query goes to the inner one;
// Delayed and Recording override what they change.
class Wrapped : public MmuModel {
 public:
  explicit Wrapped(std::unique_ptr<MmuModel> inner) : inner_(std::move(inner)) {}
  const CycleOut& step(const CycleIn& in) override { return inner_->step(in); }
  const LaneCycleOut& step_lanes(const LaneCycleIn& in) override { return inner_->step_lanes(in); }
  const CycleOut& skip_idle(uint64_t n) override { return inner_->skip_idle(n); }
  void finish() override { inner_->finish(); }
  bool quiet() const override { return inner_->quiet(); }
  unsigned latency() const override { return inner_->latency(); }
  const Config& config() const override { return inner_->config(); }
  uint64_t cycle() const override { return inner_->cycle(); }
  uint64_t s() const override { return inner_->s(); }
  uint64_t errors() const override { return inner_->errors(); }
  bool error_sticky() const override { return inner_->error_sticky(); }
  QueueState queue(uint32_t p, uint32_t q) const override { return inner_->queue(p, q); }
  PortState port(uint32_t p) const override { return inner_->port(p); }
  const char* name() const override { return inner_->name(); }
  bool has_stats() const override { return inner_->has_stats(); }

 protected:
  std::unique_ptr<MmuModel> inner_;
};

class Delayed final : public Wrapped {
 public:
  Delayed(std::unique_ptr<MmuModel> inner, unsigned d) : Wrapped(std::move(inner)), d_(d), pending_(d) {}
  // pending_ is a ring of the last d inputs (idle before the first d
  // cycles); next_ is the oldest, the one the inner model takes now.
  const CycleOut& step(const CycleIn& in) override {
    ++cycle_;
    if (d_ == 0) return inner_->step(in);
    const CycleIn next = pending_[next_];
    pending_[next_] = in;
    if (++next_ == d_) next_ = 0;
    if (filled_ < d_) {
      ++filled_;
      return idle_;
    }
    return inner_->step(next);
  }
  bool quiet() const override {
    return inner_->quiet() && std::all_of(pending_.begin(), pending_.end(), [](const CycleIn& i) { return i.idle(); });
  }
  const CycleOut& skip_idle(uint64_t n) override {
    const CycleOut* o = &idle_;
    for (; n && !quiet(); --n) o = &step(CycleIn{});
    if (!n) return *o;
    cycle_ += n;
    return inner_->skip_idle(n);
  }
  unsigned latency() const override { return d_ + inner_->latency(); }
  uint64_t cycle() const override { return cycle_; }
  // One lane through step() above; a lane chip is refused, naming the backend.
  const LaneCycleOut& step_lanes(const LaneCycleIn& in) override { return MmuModel::step_lanes(in); }

 private:
  unsigned d_;
  std::vector<CycleIn> pending_;
  unsigned next_ = 0, filled_ = 0;
  CycleOut idle_;
  uint64_t cycle_ = 0;
};

// Writes every input that is not idle as a stimulus row at the cycle it is
// given (idle cycles, stepped or skipped, are the rows' gaps): format 2 for
// one lane and one dequeue slot, format 3 for a lane chip.
class Recording final : public Wrapped {
 public:
  Recording(std::unique_ptr<MmuModel> inner, std::ostream& out)
      : Wrapped(std::move(inner)), out_(out), multi_(config().lanes > 1 || config().deq_per_cycle > 1) {
    if (multi_) write_lane_stimulus_header(out_, config());
    else write_stimulus_header(out_, config());
  }
  const CycleOut& step(const CycleIn& in) override {
    if (!in.idle()) write_stimulus_row(out_, inner_->cycle(), in);
    return inner_->step(in);
  }
  const LaneCycleOut& step_lanes(const LaneCycleIn& in) override {
    if (!multi_) return MmuModel::step_lanes(in);  // through step() above
    const Config& c = config();
    const bool busy = std::any_of(in.enq.begin(), in.enq.begin() + c.lanes, [](const Op& o) { return o.valid; }) ||
                      std::any_of(in.deq.begin(), in.deq.begin() + c.deq_per_cycle, [](const Op& o) { return o.valid; });
    if (busy) write_lane_stimulus_row(out_, inner_->cycle(), in, c);
    return inner_->step_lanes(in);
  }
  void finish() override {
    out_.flush();
    inner_->finish();
  }

 private:
  std::ostream& out_;
  bool multi_;
};

}  // namespace

std::vector<std::string> compare(const MmuModel& rtl, const CycleOut& ro, const MmuModel& gold, const CycleOut& go,
                                 const CycleIn& in, bool full, const std::string& tag) {
  Comparer cmp(rtl, gold, gold.cycle() ? gold.cycle() - 1 : 0, tag);
  cmp.outputs(ro, go);
  if (full) cmp.all();
  else cmp.touched(in);
  return std::move(cmp.lines);
}

std::unique_ptr<MmuModel> make_golden(const Config& c, const RtlWidths& w) {
  return std::make_unique<GoldenModel>(c, w);
}

std::unique_ptr<MmuModel> make_rtl(const Config& c, const RtlOptions& o) { return find_rtl_variant(c, o).make(c, o); }

std::unique_ptr<MmuModel> make_lockstep(const Config& c, const LockstepOptions& o, const RtlOptions& ro) {
  return std::make_unique<Lockstep>(find_rtl_variant(c, ro), c, o, ro);
}

std::unique_ptr<MmuModel> make_lockstep(const RtlVariant& v, const Config& c, const LockstepOptions& o,
                                        const RtlOptions& ro) {
  return std::make_unique<Lockstep>(v, c, o, ro);
}

std::unique_ptr<MmuModel> make_recording(std::unique_ptr<MmuModel> inner, std::ostream& out) {
  return std::make_unique<Recording>(std::move(inner), out);
}

std::unique_ptr<MmuModel> make_delayed(std::unique_ptr<MmuModel> inner, unsigned d) {
  if (d == 0) return inner;
  return std::make_unique<Delayed>(std::move(inner), d);
}

std::unique_ptr<MmuModel> make_model(Backend b, const Config& c, const LockstepOptions& lo, const RtlOptions& ro) {
  switch (b) {
    case Backend::Golden: return make_golden(c);
    case Backend::Rtl: return make_rtl(c, ro);
    default: return make_lockstep(c, lo, ro);
  }
}

}  // namespace dsh
