// SPDX-License-Identifier: Apache-2.0
// The lockstep backend (make_lockstep): the golden model and the RTL
// stepped together, compared every cycle, and the trace of a mismatch.
#include <algorithm>
#include <deque>
#include <sstream>

#include "comparer.h"
#include "golden_backend.h"
#include "gtkw.h"
#include "mmu_model.h"

namespace dsh {

namespace {

bool all_idle(const std::deque<CycleIn>& q) {
  return std::all_of(q.begin(), q.end(), [](const CycleIn& i) { return i.idle(); });
}

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

}  // namespace

std::unique_ptr<MmuModel> make_lockstep(const Config& c, const LockstepOptions& o, const RtlOptions& ro) {
  return std::make_unique<Lockstep>(find_rtl_variant(c, ro), c, o, ro);
}

std::unique_ptr<MmuModel> make_lockstep(const RtlVariant& v, const Config& c, const LockstepOptions& o,
                                        const RtlOptions& ro) {
  return std::make_unique<Lockstep>(v, c, o, ro);
}

}  // namespace dsh
