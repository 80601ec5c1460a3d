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
  const Config& c = mmu_->config();
  lane_mask_ = c.lanes - 1;  // a power of two (Config::validate)
  deq_slots_ = c.deq_per_cycle;
  one_event_ = c.lanes == 1 && c.deq_per_cycle == 1;
  enq_.resize(c.lanes);
  cur_ops_.reset(new Op[c.lanes + c.deq_per_cycle]);
  cur_pkts_.reset(new Pkt*[c.lanes]);
  retire_ops_.reset(new Op[c.lanes + c.deq_per_cycle]);
  retire_pkts_.reset(new Pkt*[c.lanes]);
}

void MmuClock::read_state_in_step() {
  if (!held_) return;
  if (last_wanted_ != ~uint64_t(0))
    throw std::logic_error("switch " + name_ + ": on_retire and on_mmu_out must be set before its MMU runs");
  held_ = false;
  line_on_ = true;
  line_out_.reset(new Op[lane_mask_ + 1 + deq_slots_]);
}

// The model stepped with the slots. One lane and one dequeue slot: its
// one-event step (the same cycle, spec §4.7) without the multi-event
// cycle's slot arrays. Otherwise the slots are written into in_ and cleared
// after.
MmuClock::Out MmuClock::model_step(const Op* ops, Slots s) {
  if (one_event_) {
    CycleIn in;
    if (s.n_deq) in.deq = ops[0];
    if (s.n_enq) in.enq = ops[s.n_deq];
    const CycleOut& o = mmu_->step(in);
    return Out{&o.thr, &o.region, o.events.data(), o.n_events, o.error(), o.enq_error};
  }
  for (uint32_t k = 0; k < s.n_deq; ++k) in_.deq[k] = ops[k];
  for (uint32_t i = 0; i < s.n_enq; ++i) in_.enq[ops[s.n_deq + i].port & lane_mask_] = ops[s.n_deq + i];
  const LaneCycleOut& o = mmu_->step_lanes(in_);
  for (uint32_t k = 0; k < s.n_deq; ++k) in_.deq[k].valid = false;
  for (uint32_t i = 0; i < s.n_enq; ++i) in_.enq[ops[s.n_deq + i].port & lane_mask_].valid = false;
  bool enq_error = false;
  if (o.error())
    for (uint32_t l = 0; l <= lane_mask_; ++l) enq_error |= o.enq_error[l];
  return Out{&o.thr, o.region.data(), o.events.data(), o.n_events, o.error(), enq_error};
}

// Through the delay line, if any: the model takes the input of kRtlLatency
// cycles ago (idle while the line fills).
MmuClock::Out MmuClock::step_model(const Op* ops, Slots s) {
  if (!line_on_) return model_step(ops, s);
  line_.push_back(s);
  for (uint32_t i = 0; i < s.n_deq + s.n_enq; ++i) line_ops_.push_back(ops[i]);
  if (line_filled_ < kRtlLatency) {
    ++line_filled_;
    return idle_out_;
  }
  const Slots o = line_.front();
  line_.pop_front();
  for (uint32_t i = 0; i < o.n_deq + o.n_enq; ++i) {
    line_out_[i] = line_ops_.front();
    line_ops_.pop_front();
  }
  return model_step(line_out_.get(), o);
}

bool MmuClock::line_quiet() const { return line_ops_.empty() && mmu_->quiet(); }

// n idle cycles: stepped while the delay line or the model is busy, then
// skipped. Returns the last cycle's thresholds.
Thresholds MmuClock::skip_model(uint64_t n) {
  if (!line_on_) return mmu_->skip_idle(n).thr;
  Thresholds thr = idle_thr_;
  for (; n && !line_quiet(); --n) thr = *step_model(nullptr, Slots{}).thr;
  if (!n) return thr;
  return mmu_->skip_idle(n).thr;
}

std::string MmuClock::error_at(uint64_t cycle, const Out& out) const {
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

// Results to act at the start of cycle `act`: each enqueue's region (its
// lane's) and the events.
void MmuClock::keep_results(uint64_t act, const Out& out, const Op* enq_ops, Pkt* const* pkts,
                            uint32_t n_enq) {
  st_.peak_s = std::max(st_.peak_s, mmu_->s());
  decided_.push_back({act, n_enq, out.n_events});
  for (uint32_t i = 0; i < n_enq; ++i) admits_.push_back({pkts[i], out.region[enq_ops[i].port & lane_mask_]});
  for (unsigned e = 0; e < out.n_events; ++e) events_.push_back(out.events[e]);
}

void MmuClock::act_results() {
  const Decided d = decided_.front();
  decided_.pop_front();
  for (uint32_t i = 0; i < d.n_enq; ++i) {
    const Admit a = admits_.front();
    admits_.pop_front();
    client_.mmu_decided(a.pkt, a.region);
  }
  for (uint32_t e = 0; e < d.n_events; ++e) {
    const Event ev = events_.front();
    events_.pop_front();
    client_.mmu_event(ev);
  }
}

// Steps one cycle; a cycle whose results come out (packets admitted or
// dropped, PAUSE/RESUME events) keeps them to act at its end.
void MmuClock::step(const Op* ops, Slots s, Pkt* const* pkts) {
  const Out out = step_model(ops, s);
  if (ctx_.obs.on_mmu_out) ctx_.obs.on_mmu_out(sw_, *out.thr);
  const uint64_t cycle = next_cycle_;
  st_.mmu_cycles = ++next_cycle_;
  const bool real = !s.idle();
  st_.mmu_busy_cycles += real;
  if (held_) {  // decided now; held until the cycle its results act
    if (out.error) throw std::runtime_error(error_at(cycle, out));
    if (s.n_enq || out.n_events) {
      keep_results(cycle + kRtlLatency + 1, out, ops + s.n_deq, pkts, s.n_enq);
      want(cycle + kRtlLatency + 1);
    } else if (real && cycle + kRtlLatency + 1 != last_wanted_) {
      reserved_.push_back({cycle + kRtlLatency + 1, ctx_.ev.reserve_key(kPhaseMmu), false});
      last_wanted_ = cycle + kRtlLatency + 1;
      last_reserved_ = true;
    }
    return;
  }
  real_in_flight_ += real;
  in_flight_.push_back(s);
  for (uint32_t i = 0; i < s.n_deq + s.n_enq; ++i) flight_ops_.push_back(ops[i]);
  for (uint32_t i = 0; i < s.n_enq; ++i) flight_pkts_.push_back(pkts[i]);
  if (real) want(cycle + kRtlLatency + 1);  // its results act then
  if (in_flight_.size() <= kRtlLatency) return;  // pipeline filling: no results yet
  const Slots done = in_flight_.front();
  in_flight_.pop_front();
  real_in_flight_ -= !done.idle();
  if (out.error) throw std::runtime_error(error_at(cycle - kRtlLatency, out));
  Op* const ops_out = retire_ops_.get();
  for (uint32_t i = 0; i < done.n_deq + done.n_enq; ++i) {
    ops_out[i] = flight_ops_.front();
    flight_ops_.pop_front();
  }
  if (ctx_.obs.on_retire && !done.idle()) ctx_.obs.on_retire(sw_, ops_out, done.n_deq + done.n_enq);
  Pkt** const pkts_out = retire_pkts_.get();
  for (uint32_t i = 0; i < done.n_enq; ++i) {
    pkts_out[i] = flight_pkts_.front();
    flight_pkts_.pop_front();
  }
  if (done.n_enq || out.n_events) keep_results(cycle + 1, out, ops_out + done.n_deq, pkts_out, done.n_enq);
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
    return;
  }
  while (next_cycle_ < c) {
    if (!real_in_flight_) {
      const Thresholds thr = skip_model(c - next_cycle_);
      if (ctx_.obs.on_mmu_out) ctx_.obs.on_mmu_out(sw_, thr);
      next_cycle_ = c;
      st_.mmu_cycles = c;
      break;
    }
    step(nullptr, Slots{}, nullptr);
    if (!decided_.empty() && decided_.front().act < c)
      throw std::logic_error("switch " + name_ + ": MMU results of cycle " + std::to_string(decided_.front().act - 1) +
                             " found late, at cycle " + std::to_string(c));
  }
}

// This cycle's slots: the oldest enqueue of each lane, and the oldest
// dequeues up to deq_per_cycle, of which those route_dequeues does not take
// stay at the front of the ring in their order.
void MmuClock::present(uint64_t now) {
  Op* ops = cur_ops_.get();
  const uint32_t n_deq = uint32_t(std::min<size_t>(deq_.size(), deq_slots_));
  for (uint32_t k = 0; k < n_deq; ++k) ops[k] = deq_[k].op;
  if (n_deq > 1) {  // a lone slot leads its lane and is always taken (spec §4.8)
    for (uint32_t k = 0; k < n_deq; ++k) in_.deq[k] = ops[k];
    const DeqRouting r = route_dequeues(mmu_->config(), in_);
    for (uint32_t k = 0; k < n_deq; ++k) in_.deq[k].valid = false;
    uint32_t keep = n_deq;  // the ones not taken move to the end of the first n_deq, in order
    for (uint32_t k = n_deq; k-- > 0;) {
      if (r.taken[k]) st_.max_deq_wait_ps = std::max(st_.max_deq_wait_ps, now - deq_[k].at);
      else deq_[--keep] = deq_[k];
    }
    for (uint32_t k = 0; k < keep; ++k) deq_.pop_front();
    st_.max_deq_slots = std::max(st_.max_deq_slots, unsigned(keep));
  } else if (n_deq == 1) {
    st_.max_deq_wait_ps = std::max(st_.max_deq_wait_ps, now - deq_.front().at);
    deq_.pop_front();
    if (!st_.max_deq_slots) st_.max_deq_slots = 1;
  }
  uint32_t n_enq = 0;
  if (enq_waiting_)
    for (Ring<Req>& lane : enq_) {
      if (lane.empty()) continue;
      const Req& q = lane.front();
      ops[n_deq + n_enq] = q.op;
      cur_pkts_[n_enq++] = q.pkt;
      st_.max_enq_wait_ps = std::max(st_.max_enq_wait_ps, now - q.at);
      lane.pop_front();
    }
  enq_waiting_ -= n_enq;
  st_.max_enq_slots = std::max(st_.max_enq_slots, unsigned(n_enq));
  cur_ = Slots{n_deq, n_enq};
}

// Cycle c at its start: the cycles before it are stepped; the results of
// cycle c - kRtlLatency - 1 act (they came out at the end of cycle c - 1);
// then cycle c takes its slots (present).
void MmuClock::tick(uint64_t c) {
  if (c < next_cycle_) return;  // already stepped
  try {
    tick_steps(c);
    if (!decided_.empty() && decided_.front().act <= c) {
      if (decided_.front().act < c)
        throw std::logic_error("switch " + name_ + ": MMU results due at cycle " + std::to_string(decided_.front().act) +
                               " found late, at cycle " + std::to_string(c));
      act_results();
    }
    present(ctx_.ev.now());
    step(cur_ops_.get(), cur_, cur_pkts_.get());
    // A model with the latency: what is kept now came out of this step and
    // acts at the start of the next cycle.
    const bool due_next = !held_ && !decided_.empty();
    if (due_next || enq_waiting_ || !deq_.empty()) want(c + 1);
  } catch (const std::exception& e) {
    ctx_.fail(e.what());
  }
}

}  // namespace dsh::net
