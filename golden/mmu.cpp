// SPDX-License-Identifier: Apache-2.0
#include "mmu.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace dsh {

namespace {
uint64_t sat0(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }
const char* kind_name(Event::Kind k) {
  switch (k) {
    case Event::Pause: return "PAUSE";
    case Event::Resume: return "RESUME";
    case Event::PortPause: return "PORT_PAUSE";
    default: return "PORT_RESUME";
  }
}
}  // namespace

char region_letter(Region r) {
  switch (r) {
    case Region::Private: return 'P';
    case Region::Shared: return 'S';
    case Region::Headroom: return 'H';
    case Region::Drop: return 'D';
    default: return '-';
  }
}

bool Event::operator<(const Event& o) const {
  if (kind != o.kind) return kind < o.kind;
  if (port != o.port) return port < o.port;
  return queue < o.queue;
}

std::string Event::str() const {
  std::ostringstream m;
  m << kind_name(kind) << ' ' << port;
  if (kind == Pause || kind == Resume) m << '.' << queue;
  return m.str();
}

Mmu::Mmu(const Config& cfg, const RtlWidths& widths) : cfg_(cfg) {
  cfg_.validate(widths);
  bs_ = uint64_t(cfg_.shared_cells());
  cnt_mask_ = widths.cnt_w >= 64 ? ~uint64_t(0) : (uint64_t(1) << widths.cnt_w) - 1;
  reset();
}

void Mmu::reset() {
  queues_.assign(size_t(cfg_.n_ports) * cfg_.n_queues, QueueState{});
  ports_.assign(cfg_.n_ports, PortState{});
  s_hist_.fill(0);
  s_head_ = 0;
  thr_s_ = 0;
  thr_ = thresholds_for(0);
  s_ = pool_base_ = buffered_ = errors_ = cycle_ = idle_run_ = 0;
  error_sticky_ = false;
  out_ = CycleOut{};
}

Thresholds Mmu::thresholds_for(uint64_t s, uint32_t port) const {
  Thresholds t;
  const uint64_t free = bs_ - std::min(s, bs_);
  t.t = cfg_.alpha_log2 < 0 ? free >> -cfg_.alpha_log2 : free << cfg_.alpha_log2;
  if (cfg_.scheme == Scheme::SIH) {
    t.x_qoff = t.t;
    t.x_qon = sat0(t.t, cfg_.delta_q);
  } else {
    t.x_poff = t.t << cfg_.port_mult_log2;
    t.x_pon = sat0(t.x_poff, cfg_.delta_p);
  }
  return for_port(t, port);
}

Thresholds Mmu::for_port(const Thresholds& thr, uint32_t p) const {
  if (cfg_.scheme == Scheme::SIH) return thr;  // X_off and X_on do not use eta
  Thresholds t = thr;
  t.x_qoff = sat0(t.t, cfg_.headroom_of(p));  // the port's own eta (spec §3.1)
  t.x_qon = sat0(t.x_qoff, cfg_.delta_q);
  return t;
}

bool Mmu::bad_index(const Op& op) const {
  return op.port >= cfg_.n_ports || op.queue >= cfg_.n_queues || op.cells == 0;
}

void Mmu::emit(Event::Kind k, uint32_t p, uint32_t q) {
  events_[(*n_events_)++] = Event{k, p, k == Event::Pause || k == Event::Resume ? q : 0};
  switch (k) {
    case Event::Pause: queues_[p * cfg_.n_queues + q].pauses = wrap(queues_[p * cfg_.n_queues + q].pauses + 1); break;
    case Event::Resume: queues_[p * cfg_.n_queues + q].resumes = wrap(queues_[p * cfg_.n_queues + q].resumes + 1); break;
    case Event::PortPause: ports_[p].pauses = wrap(ports_[p].pauses + 1); break;
    case Event::PortResume: ports_[p].resumes = wrap(ports_[p].resumes + 1); break;
  }
}

// Headroom first, then shared, then private (spec §4.2).
inline void Mmu::dequeue(uint32_t port, uint32_t queue, uint64_t cells) {
  QueueState& q = queues_[port * cfg_.n_queues + queue];
  PortState& p = ports_[port];
  uint64_t left = cells;
  const uint64_t from_h = std::min(left, q.hdrm);
  left -= from_h;
  const uint64_t from_s = std::min(left, q.shared);
  left -= from_s;
  q.hdrm -= from_h;
  q.shared -= from_s;
  q.priv -= left;
  p.hdrm -= from_h;
  p.shared -= from_s;
  s_ -= from_s;
  buffered_ -= cells;
}

inline Region Mmu::enqueue(const Op& op, const Thresholds& thr, uint64_t pool) {
  QueueState& q = queues_[op.port * cfg_.n_queues + op.queue];
  PortState& p = ports_[op.port];
  const uint64_t s = op.cells;
  const bool dsh = cfg_.scheme == Scheme::DSH;
  Region r;
  if (q.priv + s <= cfg_.private_cells) {
    q.priv += s;
    r = Region::Private;
  } else if (dsh ? (!p.poff && p.shared + s <= thr.x_poff && pool + s <= bs_)
                 : (!q.qoff && q.shared + s <= thr.x_qoff && pool + s <= bs_)) {
    q.shared += s;
    p.shared += s;
    s_ += s;
    r = Region::Shared;
  } else if ((dsh ? p.hdrm : q.hdrm) + s <= cfg_.headroom_of(op.port)) {
    q.hdrm += s;
    p.hdrm += s;
    r = Region::Headroom;
    if (dsh && !p.poff) {
      p.poff = true;
      emit(Event::PortPause, op.port, 0);
    } else if (!dsh && !q.qoff) {
      q.qoff = true;
      emit(Event::Pause, op.port, op.queue);
    }
  } else {
    q.drops = wrap(q.drops + 1);
    return Region::Drop;
  }
  buffered_ += s;
  return r;
}

void Mmu::run_queue_fsm(uint32_t p, uint32_t qi, const Thresholds& chip_thr) {
  QueueState& q = queues_[p * cfg_.n_queues + qi];
  const Thresholds thr = for_port(chip_thr, p);
  if (cfg_.scheme == Scheme::SIH) {
    if (q.qoff && q.hdrm == 0 && q.shared <= thr.x_qon) {
      q.qoff = false;
      emit(Event::Resume, p, qi);
    }
  } else if (!q.qoff && q.shared > thr.x_qoff) {
    q.qoff = true;
    emit(Event::Pause, p, qi);
  } else if (q.qoff && q.shared <= thr.x_qon) {
    q.qoff = false;
    emit(Event::Resume, p, qi);
  }
}

void Mmu::run_port_fsm(uint32_t p, const Thresholds& thr) {
  PortState& ps = ports_[p];
  if (cfg_.scheme == Scheme::DSH && ps.poff && ps.hdrm == 0 && ps.shared <= thr.x_pon) {
    ps.poff = false;
    emit(Event::PortResume, p, 0);
  }
}

const CycleOut& Mmu::step(const CycleIn& in) {
  // An idle cycle of a quiet model: the last L + 1 cycles were idle, so S_{c-L}
  // = S and the results are those of the last cycle, itself idle; only the
  // cycle count moves (as in skip_idle).
  if (in.idle() && quiet()) {
    ++cycle_;
    return out_;
  }
  out_ = CycleOut{};
  events_ = out_.events.data();
  n_events_ = &out_.n_events;
  const Thresholds thr = cycle_thresholds();  // port 0's queue limits
  out_.thr = thr;
  const uint64_t s_start = s_;

  const bool deq_ok = in.deq.valid && !bad_index(in.deq) &&
                      queues_[in.deq.port * cfg_.n_queues + in.deq.queue].total() >= in.deq.cells;
  out_.deq_error = in.deq.valid && !deq_ok;
  if (deq_ok) dequeue(in.deq.port, in.deq.queue, in.deq.cells);

  const bool enq_ok = in.enq.valid && !bad_index(in.enq);
  out_.enq_error = in.enq.valid && !enq_ok;
  // Its pool term: S' with one lane, S_{c-2} + A_{c-1} with lanes (P_l = 0:
  // the only enqueue). spec §4.9.
  if (enq_ok) out_.region = enqueue(in.enq, thr, cfg_.lanes > 1 ? pool_base_ : s_);

  // State machines of every queue and port touched, each once (spec §4.5).
  if (deq_ok) run_queue_fsm(in.deq.port, in.deq.queue, thr);
  if (enq_ok && !(deq_ok && in.deq.port == in.enq.port && in.deq.queue == in.enq.queue))
    run_queue_fsm(in.enq.port, in.enq.queue, thr);
  if (deq_ok) run_port_fsm(in.deq.port, thr);
  if (enq_ok && !(deq_ok && in.deq.port == in.enq.port)) run_port_fsm(in.enq.port, thr);

  const unsigned nerr = unsigned(out_.deq_error) + unsigned(out_.enq_error);
  if (nerr) {
    errors_ = wrap(errors_ + nerr);
    error_sticky_ = true;
  }
  std::sort(out_.events.begin(), out_.events.begin() + out_.n_events);
  out_.s = s_;
  end_cycle(in.idle(), s_start, enq_ok ? in.enq.cells : 0);
  return out_;
}

const Thresholds& Mmu::cycle_thresholds() {
  const uint64_t s_old = s_hist_[s_head_];  // S_{c-L}
  if (s_old != thr_s_) {
    thr_s_ = s_old;
    thr_ = thresholds_for(s_old);
  }
  return thr_;
}

void Mmu::end_cycle(bool idle, uint64_t s_start, uint64_t enq_cells) {
  pool_base_ = s_start + enq_cells;
  s_hist_[s_head_] = s_;
  if (++s_head_ == cfg_.thresh_latency) s_head_ = 0;
  ++cycle_;
  idle_run_ = idle ? idle_run_ + 1 : 0;
}

DeqRouting route_dequeues(const Config& cfg, const LaneCycleIn& in) {
  DeqRouting r;
  std::array<int, kLanesMax> leader;  // per lane: its leading slot, or -1
  std::fill_n(leader.begin(), cfg.lanes, -1);
  const uint32_t lane_mask = cfg.lanes - 1;  // lanes is a power of two
  for (unsigned k = 0; k < cfg.deq_per_cycle; ++k) {
    const Op& d = in.deq[k];
    if (!d.valid) continue;
    if (d.cells == 0 || d.port >= cfg.n_ports || d.queue >= cfg.n_queues) {
      r.taken[k] = r.own_error[k] = true;  // rule 1: not routed, an error
      continue;
    }
    int& lead = leader[d.port & lane_mask];
    if (lead < 0) lead = int(k);  // rule 3: the lowest slot of its lane leads
    const Op& l = in.deq[unsigned(lead)];
    if (l.port == d.port && l.queue == d.queue) {  // the leader, or merged into it
      r.taken[k] = true;
      r.leader[k] = uint8_t(lead);
    }  // else rule 4: not taken
  }
  return r;
}

// The multi-event cycle's three steps in the spec's order (spec §4.8
// dequeues, spec §4.9 enqueues, spec §4.10 state machines), in one place
// because they read best together.
const LaneCycleOut& Mmu::step(const LaneCycleIn& in) {
  const unsigned n_lanes = cfg_.lanes, n_deq = cfg_.deq_per_cycle;
  for (unsigned l = n_lanes; l < kLanesMax; ++l)
    if (in.enq[l].valid)
      throw std::invalid_argument("LaneCycleIn: enqueue slot " + std::to_string(l) + " is valid, but lanes = " +
                                  std::to_string(n_lanes));
  for (unsigned k = n_deq; k < kDeqPerCycleMax; ++k)
    if (in.deq[k].valid)
      throw std::invalid_argument("LaneCycleIn: dequeue slot " + std::to_string(k) +
                                  " is valid, but deq_per_cycle = " + std::to_string(n_deq));
  const bool idle = in.idle();

  LaneCycleOut& o = lane_out_;
  std::fill_n(o.region.begin(), n_lanes, Region::None);
  std::fill_n(o.enq_error.begin(), n_lanes, false);
  std::fill_n(o.deq_error.begin(), n_deq, false);
  std::fill_n(o.deq_taken.begin(), n_deq, false);
  o.n_errors = o.n_events = 0;
  if (idle && quiet()) {  // as in step(CycleIn): only the cycle count moves
    o.thr = thr_;
    o.s = s_;
    ++cycle_;
    return o;
  }
  events_ = o.events.data();
  n_events_ = &o.n_events;
  const Thresholds thr = cycle_thresholds();
  o.thr = thr;
  const uint64_t s_start = s_;

  // 1. Dequeues (spec §4.8): each lane's group, summed, checked as one.
  const DeqRouting route = route_dequeues(cfg_, in);
  std::array<uint64_t, kDeqPerCycleMax> group_cells;  // summed size, at a leader's slot
  std::fill_n(group_cells.begin(), n_deq, 0);
  for (unsigned k = 0; k < n_deq; ++k) {
    o.deq_taken[k] = route.taken[k];
    o.deq_error[k] = route.own_error[k];
    if (route.taken[k] && !route.own_error[k]) {
      group_cells[route.leader[k]] += in.deq[k].cells;
    }
  }
  // Per lane: the applied group's leader slot, or -1 (for the state machines).
  std::array<int, kLanesMax> applied;
  std::fill_n(applied.begin(), n_lanes, -1);
  const uint32_t lane_mask = n_lanes - 1;
  for (unsigned k = 0; k < n_deq; ++k) {
    if (!route.taken[k] || route.own_error[k] || route.leader[k] != k) continue;
    const Op& d = in.deq[k];
    if (queue(d.port, d.queue).total() >= group_cells[k]) {
      dequeue(d.port, d.queue, group_cells[k]);
      applied[d.port & lane_mask] = int(k);
    } else {
      for (unsigned m = k; m < n_deq; ++m)  // the whole group errs
        if (route.taken[m] && !route.own_error[m] && route.leader[m] == k) o.deq_error[m] = true;
    }
  }

  // 2. Enqueues (spec §4.9): the pool term of lane l is S' with one lane,
  // S_{c-2} + A_{c-1} + P_l with lanes.
  const uint64_t pool = n_lanes > 1 ? pool_base_ : s_;
  uint64_t prefix = 0;  // P_l; after the loop A_c
  for (unsigned l = 0; l < n_lanes; ++l) {
    const Op& e = in.enq[l];
    if (!e.valid) continue;
    if (bad_index(e) || (e.port & lane_mask) != l) {
      o.enq_error[l] = true;
      continue;
    }
    o.region[l] = enqueue(e, thr, pool + prefix);
    prefix += e.cells;
  }

  // 3. State machines of every queue and port touched, each once (spec §4.10).
  for (unsigned l = 0; l < n_lanes; ++l) {
    const bool deq_ok = applied[l] >= 0, enq_ok = o.region[l] != Region::None;
    const Op& d = in.deq[unsigned(deq_ok ? applied[l] : 0)];
    const Op& e = in.enq[l];
    if (deq_ok) run_queue_fsm(d.port, d.queue, thr);
    if (enq_ok && !(deq_ok && d.port == e.port && d.queue == e.queue)) run_queue_fsm(e.port, e.queue, thr);
    if (deq_ok) run_port_fsm(d.port, thr);
    if (enq_ok && !(deq_ok && d.port == e.port)) run_port_fsm(e.port, thr);
  }

  for (unsigned k = 0; k < n_deq; ++k) o.n_errors += o.deq_error[k];
  for (unsigned l = 0; l < n_lanes; ++l) o.n_errors += o.enq_error[l];
  if (o.n_errors) {
    errors_ = wrap(errors_ + o.n_errors);
    error_sticky_ = true;
  }
  std::sort(o.events.begin(), o.events.begin() + o.n_events);
  o.s = s_;
  if (idle) {  // keep last()'s idle results true for step(CycleIn)'s quiet path
    out_ = CycleOut{};
    out_.thr = thr;
    out_.s = s_;
  }
  end_cycle(idle, s_start, prefix);
  return o;
}

const CycleOut& Mmu::skip_idle(uint64_t n) {
  for (; n && !quiet(); --n) idle();
  cycle_ += n;
  return out_;
}

}  // namespace dsh
