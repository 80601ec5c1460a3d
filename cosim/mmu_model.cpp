#include "mmu_model.h"

#include "rtl_ondemand.h"

#include <algorithm>
#include <cctype>
#include <deque>
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

const RtlVariant& find_rtl_variant(const Config& c) {
  for (const auto& v : rtl_variants())
    if (v.matches(c)) return v;
  std::string why;
  if (rtl_ondemand_supported(c, &why)) return ondemand_rtl_variant(c);  // built once into the cache
  std::ostringstream m;
  m << "no RTL model for n_ports=" << c.n_ports << " n_queues=" << c.n_queues << " scheme=" << to_string(c.scheme)
    << " thresh_latency=" << c.thresh_latency << ": " << why;
  throw ConfigError(m.str());
}

RtlWidths widths_for(const Config& c, Backend b) {
  return b == Backend::Golden ? RtlWidths{} : find_rtl_variant(c).widths;
}

namespace {

class GoldenModel final : public MmuModel {
 public:
  GoldenModel(const Config& c, const RtlWidths& w) : m_(c, w) {}
  const CycleOut& step(const CycleIn& in) override { return m_.step(in); }
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
};

bool all_idle(const std::deque<CycleIn>& q) {
  return std::all_of(q.begin(), q.end(), [](const CycleIn& i) { return i.idle(); });
}

std::string events_str(const CycleOut& o) {
  std::string s;
  for (unsigned i = 0; i < o.n_events; ++i) s += (i ? ";" : "") + o.events[i].str();
  return s.empty() ? "none" : s;
}

class Lockstep final : public MmuModel {
 public:
  Lockstep(const RtlVariant& v, const Config& c, const LockstepOptions& o, const RtlOptions& ro)
      : variant_(v), gold_(c, variant_.widths), behind_(c, variant_.widths), rtl_(variant_.make(c, ro)), opt_(o),
        fault_(ro.fault) {}

  // The caller gets the golden results now; the RTL's results for the same
  // input come rtl_->latency() steps later and are compared with `behind_`,
  // a second golden model fed the same inputs that much later.
  const CycleOut& step(const CycleIn& in) override {
    log_.push_back({in, 0});
    pending_.push_back(in);
    const CycleOut& go = gold_.step(in);
    check(rtl_step(in));
    return go;
  }
  void finish() override {
    while (behind_.cycle() < gold_.cycle()) check(rtl_step(CycleIn{}));
  }
  bool quiet() const override {
    return gold_.quiet() && behind_.quiet() && rtl_->quiet() && all_idle(pending_);
  }
  // Stepped, every cycle compared, until the RTL and both golden models are
  // quiet; then all three skip the rest and their whole state is compared.
  const CycleOut& skip_idle(uint64_t n) override {
    for (; n && !quiet(); --n) step(CycleIn{});
    if (!n) return gold_.mmu().last();
    log_.push_back({CycleIn{}, n});
    const CycleOut& go = gold_.skip_idle(n);
    const CycleOut& ro = rtl_->skip_idle(n);
    const CycleOut& bo = behind_.skip_idle(n);
    auto lines = compare(*rtl_, ro, behind_, bo, CycleIn{}, true, opt_.tag);
    if (!lines.empty()) fail(std::move(lines));
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
  // The RTL's step; a failed RTL assertion is reported as a mismatch at the
  // RTL's cycle whose rising edge failed (the input that caused it entered
  // up to the RTL's latency before).
  const CycleOut& rtl_step(const CycleIn& in) {
    try {
      return rtl_->step(in);
    } catch (const RtlAssertionError& e) {
      const uint64_t c = e.cycle();
      fail({"cycle " + std::to_string(c) + " dsh_mmu assertion: rtl=failed golden=- " + opt_.tag + " (" +
            e.what() + ")"},
           c);
    }
  }

  void check(const CycleOut& ro) {
    ++rtl_steps_;
    if (rtl_steps_ <= rtl_->latency()) {  // the pipeline is filling: idle results
      if (ro.region != Region::None || ro.n_events || ro.error() || ro.s)
        fail({"cycle -" + std::to_string(rtl_->latency() - rtl_steps_ + 1) +
              " dsh_mmu pipeline fill: rtl results not idle " + opt_.tag});
      return;
    }
    const CycleIn in = pending_.front();
    pending_.pop_front();
    const CycleOut& go = behind_.step(in);
    auto lines = compare(*rtl_, ro, behind_, go, in, opt_.full_compare, opt_.tag);
    if (!lines.empty()) fail(std::move(lines));
    ++matched_;
  }

  // Replays the whole stimulus into a fresh RTL model that dumps the window
  // around the failing cycle, then throws the report.
  [[noreturn]] void fail(std::vector<std::string> lines) { fail(std::move(lines), behind_.cycle() ? behind_.cycle() - 1 : 0); }
  // c: the input cycle that failed.
  [[noreturn]] void fail(std::vector<std::string> lines, uint64_t c) {
    const uint64_t lat = rtl_->latency();
    RtlOptions ro;
    ro.fault = fault_;
    ro.fst_path = opt_.fst_dir + "/" + opt_.fst_stem + "_cycle" + std::to_string(c) + ".fst";
    ro.trace_from = c > opt_.window ? c - opt_.window : 0;
    ro.trace_to = c + lat + 4;
    std::string fst = ro.fst_path;
    try {
      auto replay = variant_.make(gold_.config(), ro);
      for (const auto& st : log_) st.skipped ? replay->skip_idle(st.skipped) : replay->step(st.in);
      for (uint64_t i = 0; i < lat + 4; ++i) replay->step(CycleIn{});
    } catch (const RtlAssertionError&) {
      // the trace ends at the assertion's cycle
    } catch (const std::exception& e) {
      fst = "(not written: " + std::string(e.what()) + ")";
    }
    std::ostringstream m;
    for (const auto& l : lines) m << l << '\n';
    m << "mismatch after " << matched_ << " matched cycles; trace of cycles " << ro.trace_from << ".." << ro.trace_to
      << " (the RTL's results of cycle " << c << " appear in cycle " << c + lat << "): " << fst;
    throw MismatchError(m.str(), std::move(lines), c, fst);
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
  uint64_t rtl_steps_ = 0;
  uint64_t matched_ = 0;
};

class Delayed final : public MmuModel {
 public:
  Delayed(std::unique_ptr<MmuModel> inner, unsigned d) : inner_(std::move(inner)), d_(d) {}
  const CycleOut& step(const CycleIn& in) override {
    ++cycle_;
    pending_.push_back(in);
    if (pending_.size() <= d_) return idle_;
    const CycleIn next = pending_.front();
    pending_.pop_front();
    return inner_->step(next);
  }
  void finish() override { inner_->finish(); }
  bool quiet() const override {
    return inner_->quiet() && all_idle(pending_);
  }
  const CycleOut& skip_idle(uint64_t n) override {
    const CycleOut* o = &idle_;
    for (; n && !quiet(); --n) o = &step(CycleIn{});
    if (!n) return *o;
    cycle_ += n;
    return inner_->skip_idle(n);
  }
  unsigned latency() const override { return d_ + inner_->latency(); }
  const Config& config() const override { return inner_->config(); }
  uint64_t cycle() const override { return cycle_; }
  uint64_t s() const override { return inner_->s(); }
  uint64_t errors() const override { return inner_->errors(); }
  bool error_sticky() const override { return inner_->error_sticky(); }
  QueueState queue(uint32_t p, uint32_t q) const override { return inner_->queue(p, q); }
  PortState port(uint32_t p) const override { return inner_->port(p); }
  const char* name() const override { return inner_->name(); }

 private:
  std::unique_ptr<MmuModel> inner_;
  unsigned d_;
  std::deque<CycleIn> pending_;
  CycleOut idle_;
  uint64_t cycle_ = 0;
};

}  // namespace

std::vector<std::string> compare(const MmuModel& rtl, const CycleOut& ro, const MmuModel& gold, const CycleOut& go,
                                 const CycleIn& in, bool full, const std::string& tag) {
  std::vector<std::string> out;
  const uint64_t c = gold.cycle() - 1;
  auto diff = [&](const std::string& where, const char* field, auto r, auto g) {
    if (r == g) return;
    std::ostringstream m;
    m << "cycle " << c << ' ' << where << ' ' << field << ": rtl=" << r << " golden=" << g;
    if (!tag.empty()) m << ' ' << tag;
    out.push_back(m.str());
  };
  diff("dsh_mmu", "region", region_letter(ro.region), region_letter(go.region));
  diff("dsh_mmu", "T", ro.thr.t, go.thr.t);
  diff("dsh_mmu", "S", ro.s, go.s);
  diff("dsh_mmu", "deq_error", ro.deq_error, go.deq_error);
  diff("dsh_mmu", "enq_error", ro.enq_error, go.enq_error);
  diff("dsh_mmu", "events", events_str(ro), events_str(go));
  diff("dsh_mmu", "error_count", rtl.errors(), gold.errors());
  diff("dsh_mmu", "error_sticky", rtl.error_sticky(), gold.error_sticky());
  const Config& cfg = gold.config();
  auto cmp_queue = [&](uint32_t p, uint32_t q) {
    const QueueState r = rtl.queue(p, q), g = gold.queue(p, q);
    const std::string at = "queue " + std::to_string(p) + "." + std::to_string(q);
    diff(at, "priv", r.priv, g.priv);
    diff(at, "shared", r.shared, g.shared);
    diff(at, "hdrm", r.hdrm, g.hdrm);
    diff(at, "qoff", r.qoff, g.qoff);
    diff(at, "drops", r.drops, g.drops);
    diff(at, "pauses", r.pauses, g.pauses);
    diff(at, "resumes", r.resumes, g.resumes);
  };
  auto cmp_port = [&](uint32_t p) {
    const PortState r = rtl.port(p), g = gold.port(p);
    const std::string at = "port " + std::to_string(p);
    diff(at, "port_shared", r.shared, g.shared);
    diff(at, "port_hdrm", r.hdrm, g.hdrm);
    diff(at, "poff", r.poff, g.poff);
    diff(at, "port_pauses", r.pauses, g.pauses);
    diff(at, "port_resumes", r.resumes, g.resumes);
  };
  if (full) {
    for (uint32_t p = 0; p < cfg.n_ports; ++p) {
      for (uint32_t q = 0; q < cfg.n_queues; ++q) cmp_queue(p, q);
      cmp_port(p);
    }
  } else {
    for (const Op* op : {&in.deq, &in.enq}) {
      if (!op->valid || op->port >= cfg.n_ports || op->queue >= cfg.n_queues) continue;
      cmp_queue(op->port, op->queue);
      cmp_port(op->port);
    }
  }
  return out;
}

std::unique_ptr<MmuModel> make_golden(const Config& c, const RtlWidths& w) {
  return std::make_unique<GoldenModel>(c, w);
}

std::unique_ptr<MmuModel> make_rtl(const Config& c, const RtlOptions& o) { return find_rtl_variant(c).make(c, o); }

std::unique_ptr<MmuModel> make_lockstep(const Config& c, const LockstepOptions& o, const RtlOptions& ro) {
  return std::make_unique<Lockstep>(find_rtl_variant(c), c, o, ro);
}

std::unique_ptr<MmuModel> make_lockstep(const RtlVariant& v, const Config& c, const LockstepOptions& o,
                                        const RtlOptions& ro) {
  return std::make_unique<Lockstep>(v, c, o, ro);
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
