// SPDX-License-Identifier: Apache-2.0
#include "mmu_model.h"

#include "golden_backend.h"
#include "rtl_ondemand.h"
#include "vectors.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
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
    if (!in.idle()) write_lane_stimulus_row(out_, inner_->cycle(), in, config());
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

std::unique_ptr<MmuModel> make_golden(const Config& c, const RtlWidths& w) {
  return std::make_unique<GoldenModel>(c, w);
}

std::unique_ptr<MmuModel> make_rtl(const Config& c, const RtlOptions& o) { return find_rtl_variant(c, o).make(c, o); }

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
