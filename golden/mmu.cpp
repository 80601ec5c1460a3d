// SPDX-License-Identifier: Apache-2.0
#include "mmu.h"

#include <algorithm>
#include <sstream>

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
  s_ = buffered_ = errors_ = cycle_ = idle_run_ = 0;
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
  out_.events[out_.n_events++] = Event{k, p, k == Event::Pause || k == Event::Resume ? q : 0};
  switch (k) {
    case Event::Pause: queues_[p * cfg_.n_queues + q].pauses = wrap(queues_[p * cfg_.n_queues + q].pauses + 1); break;
    case Event::Resume: queues_[p * cfg_.n_queues + q].resumes = wrap(queues_[p * cfg_.n_queues + q].resumes + 1); break;
    case Event::PortPause: ports_[p].pauses = wrap(ports_[p].pauses + 1); break;
    case Event::PortResume: ports_[p].resumes = wrap(ports_[p].resumes + 1); break;
  }
}

// Headroom first, then shared, then private (spec §4.2).
void Mmu::dequeue(const Op& op) {
  QueueState& q = queues_[op.port * cfg_.n_queues + op.queue];
  PortState& p = ports_[op.port];
  uint64_t left = op.cells;
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
  buffered_ -= op.cells;
}

void Mmu::enqueue(const Op& op, const Thresholds& thr) {
  QueueState& q = queues_[op.port * cfg_.n_queues + op.queue];
  PortState& p = ports_[op.port];
  const uint64_t s = op.cells;
  const bool dsh = cfg_.scheme == Scheme::DSH;
  if (q.priv + s <= cfg_.private_cells) {
    q.priv += s;
    out_.region = Region::Private;
  } else if (dsh ? (!p.poff && p.shared + s <= thr.x_poff && s_ + s <= bs_)
                 : (!q.qoff && q.shared + s <= thr.x_qoff && s_ + s <= bs_)) {
    q.shared += s;
    p.shared += s;
    s_ += s;
    out_.region = Region::Shared;
  } else if ((dsh ? p.hdrm : q.hdrm) + s <= cfg_.headroom_of(op.port)) {
    q.hdrm += s;
    p.hdrm += s;
    out_.region = Region::Headroom;
    if (dsh && !p.poff) {
      p.poff = true;
      emit(Event::PortPause, op.port, 0);
    } else if (!dsh && !q.qoff) {
      q.qoff = true;
      emit(Event::Pause, op.port, op.queue);
    }
  } else {
    q.drops = wrap(q.drops + 1);
    out_.region = Region::Drop;
    return;
  }
  buffered_ += s;
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
  const uint64_t s_old = s_hist_[s_head_];  // S_{c-L}
  if (s_old != thr_s_) {
    thr_s_ = s_old;
    thr_ = thresholds_for(s_old);
  }
  const Thresholds thr = thr_;  // port 0's queue limits
  out_.thr = thr;

  const bool deq_ok = in.deq.valid && !bad_index(in.deq) &&
                      queues_[in.deq.port * cfg_.n_queues + in.deq.queue].total() >= in.deq.cells;
  out_.deq_error = in.deq.valid && !deq_ok;
  if (deq_ok) dequeue(in.deq);

  const bool enq_ok = in.enq.valid && !bad_index(in.enq);
  out_.enq_error = in.enq.valid && !enq_ok;
  if (enq_ok) enqueue(in.enq, thr);

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
  s_hist_[s_head_] = s_;
  if (++s_head_ == cfg_.thresh_latency) s_head_ = 0;
  ++cycle_;
  idle_run_ = in.idle() ? idle_run_ + 1 : 0;
  return out_;
}

const CycleOut& Mmu::skip_idle(uint64_t n) {
  for (; n && !quiet(); --n) idle();
  cycle_ += n;
  return out_;
}

std::vector<std::string> Mmu::check_invariants() const {
  std::vector<std::string> bad;
  auto fail = [&](const std::string& what) { bad.push_back("cycle " + std::to_string(cycle_) + ": " + what); };
  uint64_t sum_all = 0, sum_s = 0;
  for (uint32_t p = 0; p < cfg_.n_ports; ++p) {
    uint64_t ps = 0, ph = 0;
    for (uint32_t q = 0; q < cfg_.n_queues; ++q) {
      const QueueState& qs = queue(p, q);
      const std::string at = " at " + std::to_string(p) + "." + std::to_string(q);
      if (qs.priv > cfg_.private_cells) fail("priv " + std::to_string(qs.priv) + " > private_cells" + at);
      if (cfg_.scheme == Scheme::SIH && qs.hdrm > cfg_.headroom_of(p))
        fail("hdrm " + std::to_string(qs.hdrm) + " > its port's eta " + std::to_string(cfg_.headroom_of(p)) + at);
      ps += qs.shared;
      ph += qs.hdrm;
      sum_all += qs.total();
    }
    const std::string at = " at port " + std::to_string(p);
    if (ps != ports_[p].shared) fail("port_shared " + std::to_string(ports_[p].shared) + " != sum " + std::to_string(ps) + at);
    if (ph != ports_[p].hdrm) fail("port_hdrm " + std::to_string(ports_[p].hdrm) + " != sum " + std::to_string(ph) + at);
    if (cfg_.scheme == Scheme::DSH && ph > cfg_.headroom_of(p))
      fail("port_hdrm " + std::to_string(ph) + " > its eta " + std::to_string(cfg_.headroom_of(p)) + at);
    if (cfg_.scheme == Scheme::SIH && ports_[p].poff) fail("poff set under SIH" + at);
    sum_s += ps;
  }
  if (sum_s != s_) fail("S " + std::to_string(s_) + " != sum of shared " + std::to_string(sum_s));
  if (s_ > bs_) fail("S " + std::to_string(s_) + " > B_s " + std::to_string(bs_));
  if (sum_all != buffered_) fail("priv+shared+hdrm " + std::to_string(sum_all) + " != cells buffered " + std::to_string(buffered_));
  return bad;
}

}  // namespace dsh
