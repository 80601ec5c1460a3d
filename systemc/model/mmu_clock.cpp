// SPDX-License-Identifier: Apache-2.0
#include "mmu_clock.h"

#include <algorithm>
#include <stdexcept>

namespace dsh::net {

MmuClock::MmuClock(NetContext& ctx, MmuClient& client, int sw, std::string name, std::unique_ptr<MmuModel> mmu,
                   double clock_ghz, MmuStats& stats)
    : ctx_(ctx), client_(client), sw_(sw), name_(std::move(name)), mmu_(std::move(mmu)), st_(stats) {
  if (!mmu_ || (mmu_->latency() != kRtlLatency && mmu_->latency() != 0))
    throw std::logic_error("switch " + name_ + ": its MMU must have the decision latency kRtlLatency, or none");
  period_ps_ = uint64_t(1000.0 / clock_ghz + 0.5);
  held_ = mmu_->latency() == 0;
}

void MmuClock::read_state_in_step() {
  if (!held_) return;
  if (last_wanted_ != ~uint64_t(0))
    throw std::logic_error("switch " + name_ + ": on_retire and on_mmu_out must be set before its MMU runs");
  held_ = false;
  line_.assign(kRtlLatency, CycleIn{});
}

// Through the delay line, if any: the model takes the input of kRtlLatency
// cycles ago (idle while the line fills).
const CycleOut& MmuClock::step_model(const CycleIn& in) {
  if (line_.empty()) return mmu_->step(in);
  const CycleIn next = line_[line_next_];
  line_[line_next_] = in;
  if (++line_next_ == line_.size()) line_next_ = 0;
  if (line_filled_ < line_.size()) {
    ++line_filled_;
    return idle_out_;
  }
  return mmu_->step(next);
}

bool MmuClock::line_quiet() const {
  for (const CycleIn& i : line_)
    if (!i.idle()) return false;
  return mmu_->quiet();
}

// n idle cycles: stepped while the delay line or the model is busy, then
// skipped.
const CycleOut& MmuClock::skip_model(uint64_t n) {
  if (line_.empty()) return mmu_->skip_idle(n);
  const CycleOut* o = &idle_out_;
  for (; n && !line_quiet(); --n) o = &step_model(CycleIn{});
  if (!n) return *o;
  return mmu_->skip_idle(n);
}

std::string MmuClock::error_at(uint64_t cycle, const CycleOut& out) const {
  return "switch " + name_ + ": MMU protocol error at cycle " + std::to_string(cycle) +
         (out.enq_error ? " (enqueue)" : " (dequeue)");
}

// Cycle c starts at c * period: the first one at or after now.
void MmuClock::request() { want((ctx_.ev.now() + period_ps_ - 1) / period_ps_); }

// A cycle that must run at its time: one with a request, or the one at whose
// start an earlier cycle's results act. Other cycles are stepped when the
// next such cycle comes (their inputs are idle and they give no results).
void MmuClock::want(uint64_t c) {
  EventQueue& ev = ctx_.ev;
  if (c < next_cycle_) c = next_cycle_;
  if (c == last_wanted_ && !last_reserved_) return;  // most repeats are of the last one; others run as stale ticks
  last_wanted_ = c;
  last_reserved_ = false;
  uint64_t key = ~uint64_t(0);
  while (!reserved_.empty() && (reserved_.front().taken || reserved_.front().cycle < next_cycle_))
    reserved_.pop_front();
  for (size_t i = 0; i < reserved_.size(); ++i)
    if (reserved_[i].cycle == c && !reserved_[i].taken) {
      key = reserved_[i].key;
      reserved_[i].taken = true;
      break;
    }
  if (c * period_ps_ < ev.now()) {  // (not seen: a cycle is wanted at or after its start)
    ev.at(c * period_ps_, [this, c] { tick(c); }, kPhaseMmu);
    return;
  }
  // The cycle is the event's time over the period.
  const EventQueue::Handler handler = [](void* clock, void*) {
    MmuClock& x = *static_cast<MmuClock*>(clock);
    x.tick(x.ctx_.ev.now() / x.period_ps_);
  };
  if (key != ~uint64_t(0)) ev.call_at_key(c * period_ps_, key, handler, this, nullptr);
  else ev.call_at(c * period_ps_, handler, this, nullptr, kPhaseMmu);
}

// Results that come out: they act at the start of the next cycle (held
// results: at the start of the cycle they would come out after).
void MmuClock::result_out(const CycleOut& out, Pkt* pkt) {
  st_.peak_s = std::max(st_.peak_s, mmu_->s());
  have_result_ = true;
  result_ = out;
  result_pkt_ = pkt;
}

// Steps one cycle; a cycle whose results come out (a packet admitted or
// dropped, PAUSE/RESUME events) leaves them to act at its end.
void MmuClock::step(const CycleIn& in, Pkt* enq_pkt) {
  const CycleOut& out = step_model(in);
  if (ctx_.obs.on_mmu_out) ctx_.obs.on_mmu_out(sw_, out);
  const uint64_t cycle = next_cycle_;
  st_.mmu_cycles = ++next_cycle_;
  const bool real = !in.idle();
  st_.mmu_busy_cycles += real;
  if (held_) {  // decided now; held until the cycle its results act
    if (out.error()) throw std::runtime_error(error_at(cycle, out));
    if (enq_pkt || out.n_events) {
      st_.peak_s = std::max(st_.peak_s, mmu_->s());
      decided_.push_back({cycle + kRtlLatency + 1, out, enq_pkt});
      want(cycle + kRtlLatency + 1);
    } else if (real && cycle + kRtlLatency + 1 != last_wanted_) {
      reserved_.push_back({cycle + kRtlLatency + 1, ctx_.ev.reserve_key(kPhaseMmu), false});
      last_wanted_ = cycle + kRtlLatency + 1;
      last_reserved_ = true;
    }
    return;
  }
  real_in_flight_ += real;
  in_flight_.push_back({in, enq_pkt});
  if (real) want(cycle + kRtlLatency + 1);  // its results act then
  if (in_flight_.size() <= kRtlLatency) return;  // pipeline filling: no results yet
  const InFlight done = in_flight_.front();
  in_flight_.pop_front();
  real_in_flight_ -= !done.in.idle();
  if (out.error()) throw std::runtime_error(error_at(cycle - kRtlLatency, out));
  if (ctx_.obs.on_retire && !done.in.idle()) ctx_.obs.on_retire(sw_, done.in);
  if (done.pkt || out.n_events) {
    result_out(out, done.pkt);
    result_cycle_ = cycle;
  }
}

// The cycles since the last one stepped, up to c: stepped idle (skipped at
// once while nothing real is in flight), or, with held results, skipped.
void MmuClock::tick_steps(uint64_t c) {
  if (held_) {
    if (next_cycle_ < c) {  // idle cycles: no results (the state machines run only on requests)
      mmu_->skip_idle(c - next_cycle_);
      next_cycle_ = c;
      st_.mmu_cycles = c;
    }
    if (!decided_.empty() && decided_.front().act <= c) {
      const Decided& d = decided_.front();
      if (d.act < c)
        throw std::logic_error("switch " + name_ + ": MMU results due at cycle " + std::to_string(d.act) +
                               " found late, at cycle " + std::to_string(c));
      have_result_ = true;
      result_ = d.out;
      result_pkt_ = d.pkt;
      decided_.pop_front();
    }
    return;
  }
  while (next_cycle_ < c) {
    if (!real_in_flight_) {
      const CycleOut& out = skip_model(c - next_cycle_);
      if (ctx_.obs.on_mmu_out) ctx_.obs.on_mmu_out(sw_, out);
      next_cycle_ = c;
      st_.mmu_cycles = c;
      break;
    }
    step(CycleIn{}, nullptr);
    if (have_result_ && result_cycle_ + 1 < c)
      throw std::logic_error("switch " + name_ + ": MMU results of cycle " + std::to_string(result_cycle_) +
                             " found late, at cycle " + std::to_string(c));
  }
}

// Cycle c at its start: the cycles before it are stepped; the results of
// cycle c-1 act (they came out at its end); then cycle c takes the oldest
// waiting enqueue and dequeue.
void MmuClock::tick(uint64_t c) {
  if (c < next_cycle_) return;  // already stepped
  try {
    tick_steps(c);
    if (have_result_) {
      have_result_ = false;
      Pkt* p = result_pkt_;
      result_pkt_ = nullptr;
      client_.mmu_results(result_, p);
    }
    const uint64_t now = ctx_.ev.now();
    CycleIn in;
    Pkt* enq_pkt = nullptr;
    if (!enq_.empty()) {
      in.enq = enq_.front().op;
      enq_pkt = enq_.front().pkt;
      st_.max_enq_wait_ps = std::max(st_.max_enq_wait_ps, now - enq_.front().at);
      enq_.pop_front();
    }
    if (!deq_.empty()) {
      in.deq = deq_.front().op;
      st_.max_deq_wait_ps = std::max(st_.max_deq_wait_ps, now - deq_.front().at);
      deq_.pop_front();
    }
    step(in, enq_pkt);
    if (have_result_ || !enq_.empty() || !deq_.empty()) want(c + 1);
  } catch (const std::exception& e) {
    ctx_.fail(e.what());
  }
}

}  // namespace dsh::net
