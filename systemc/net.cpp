#include "net.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace dsh::sc {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

namespace {
uint64_t now_ps() { return uint64_t(sc_time_stamp().value()); }
sc_time ps(uint64_t v) { return sc_time::from_value(v); }
}  // namespace

// ---------------------------------------------------------------- Transmitter

Transmitter::Transmitter(sc_core::sc_module_name n, const LinkTiming& t, uint64_t quantum_bytes)
    : sc_module(n), t_(t), arbiter_(quantum_bytes) {
  SC_THREAD(run);
}

void Transmitter::push(Packet* p) {
  q_[p->cls].push_back(p);
  wake_.notify();
}

void Transmitter::set_pause(const Event& e) {
  switch (e.kind) {
    case Event::Pause: q_paused_[e.queue] = true; break;
    case Event::Resume: q_paused_[e.queue] = false; break;
    case Event::PortPause: port_paused_ = true; break;
    case Event::PortResume: port_paused_ = false; break;
  }
  update_pause();
  wake_.notify();
}

void Transmitter::update_pause() {
  for (unsigned c = 0; c < kClasses; ++c) {
    const bool p = tx_pause(c);
    if (p == traced_pause[c]) continue;
    if (p) paused_since_[c] = now_ps();
    else paused_ps_[c] += now_ps() - paused_since_[c];
    traced_pause[c] = p;
  }
}

uint64_t Transmitter::paused_ps(unsigned cls) const {
  return paused_ps_[cls] + (traced_pause[cls] ? now_ps() - paused_since_[cls] : 0);
}

int Transmitter::pick() {
  return arbiter_.pick([this](unsigned c) -> uint64_t { return q_[c].empty() ? 0 : q_[c].front()->bytes; },
                       [this](unsigned c) { return tx_pause(c); });
}

void Transmitter::run() {
  for (;;) {
    const int c = pick();
    if (c < 0) {
      wait(wake_);
      continue;
    }
    Packet* p = q_[c].front();
    q_[c].pop_front();
    if (q_[c].empty() && on_empty) on_empty(unsigned(c));
    arbiter_.popped(unsigned(c), q_[c].empty());
    if (on_start) on_start(*p);
    const sc_time ser = t_.ser(p->bytes);
    deliver(p, ser + t_.prop);
    wait(ser);
  }
}

// ----------------------------------------------------------------------- Host

Host::Host(sc_core::sc_module_name n, Network& net, uint32_t id)
    : sc_module(n),
      nic("nic", net.timing(id), net.params().dwrr_quantum_bytes),
      net_(net),
      id_(id),
      rx_("rx"),
      fc_("fc") {
  nic.deliver = [this](Packet* p, const sc_time& d) { net_.sw().receive(p, d); };
  nic.on_empty = [this](unsigned cls) { refill(cls); };
  nic.on_start = [this](Packet& p) {
    if (p.flow >= 0) net_.flows()[p.flow].sent += p.bytes;
  };
  SC_THREAD(rx_thread);
  SC_THREAD(fc_thread);
  SC_THREAD(start_thread);
}

void Host::add_flow(int32_t flow) { flows_.push_back(flow); }

void Host::activate(int32_t fi) {
  const unsigned cls = net_.flows()[fi].cls;
  active_[cls].push_back(fi);
  if (nic.queued(cls) == 0) refill(cls);
}

void Host::refill(unsigned cls) {
  auto& act = active_[cls];
  while (!act.empty()) {
    const int32_t fi = act.front();
    Flow& f = net_.flows()[fi];
    act.pop_front();
    if (f.bytes && f.generated >= f.bytes) continue;  // finished: drop from the rotation
    act.push_back(fi);                                // round robin among a class's flows
    Packet* p = net_.alloc();
    p->src = id_;
    p->dst = f.dst;
    p->cls = f.cls;
    p->flow = fi;
    p->bytes = uint32_t(f.bytes ? std::min<uint64_t>(net_.params().packet_bytes, f.bytes - f.generated)
                                : net_.params().packet_bytes);
    f.generated += p->bytes;
    nic.push(p);
    return;
  }
}

void Host::start_thread() {
  auto& fl = net_.flows();
  std::stable_sort(flows_.begin(), flows_.end(), [&](int32_t a, int32_t b) { return fl[a].start_ns < fl[b].start_ns; });
  for (int32_t fi : flows_) {
    if (fl[fi].start_ns < 0) continue;  // the network starts it
    const uint64_t at = uint64_t(std::llround(fl[fi].start_ns * 1000.0));
    if (at > now_ps()) wait(ps(at - now_ps()));
    activate(fi);
  }
}

void Host::rx_thread() {
  // A control frame acts processing_bytes after its first bit arrived.
  const LinkTiming& t = net_.timing(id_);
  const sc_time after_last_bit = t.ser(net_.params().processing_bytes) - t.ser(net_.params().pause_frame_bytes);
  for (;;) {
    wait(rx_.get_event());
    while (Packet* p = rx_.get_next_transaction()) {
      if (p->control) {
        fc_.notify(*p, after_last_bit);
        continue;
      }
      net_.flows()[p->flow].delivered += p->bytes;
      net_.release(p);
    }
  }
}

void Host::fc_thread() {
  for (;;) {
    wait(fc_.get_event());
    while (Packet* p = fc_.get_next_transaction()) {
      nic.set_pause(p->fc);
      net_.release(p);
    }
  }
}

// --------------------------------------------------------------------- Switch

Switch::Switch(sc_core::sc_module_name n, Network& net) : sc_module(n), net_(net), ingress_("ingress") {
  const Params& p = net.params();
  period_ps_ = uint64_t(std::llround(1000.0 / p.mmu_clock_ghz));
  const unsigned np = p.mmu.n_ports;
  for (unsigned i = 0; i < np; ++i) {
    egress_.push_back(std::make_unique<Transmitter>(("egress" + std::to_string(i)).c_str(), net.timing(i),
                                                    p.dwrr_quantum_bytes));
    Transmitter& e = *egress_.back();
    e.deliver = [this, i](Packet* pk, const sc_time& d) { net_.host(i).receive(pk, d); };
    e.on_start = [this](Packet& pk) {
      if (pk.control) return;
      deq_.push_back({nullptr, Op{true, pk.src, pk.cls, pk.cells}, sc_time_stamp()});
      mmu_wake_.notify();
    };
  }
  for (auto* a : {&trace.q_cells, &trace.q_shared, &trace.q_hdrm, &trace.port_shared, &trace.port_hdrm})
    a->reset(new uint64_t[np]());
  trace.qoff.reset(new bool[np]());
  trace.poff.reset(new bool[np]());
  trace.cls.assign(np, -1);
  SC_THREAD(ingress_thread);
  SC_THREAD(mmu_thread);
  // A Verilated MMU's evaluation keeps its temporaries on the stack: more
  // than SystemC's default thread stack holds.
  set_stack_size(size_t(16) << 20);
}

void Switch::ingress_thread() {
  const uint64_t cell = net_.params().cell_bytes;
  for (;;) {
    wait(ingress_.get_event());
    while (Packet* p = ingress_.get_next_transaction()) {
      p->cells = uint32_t(cells_of(p->bytes, cell));
      enq_.push_back({p, Op{true, p->src, p->cls, p->cells}, sc_time_stamp()});
      mmu_wake_.notify();
    }
  }
}

void Switch::mmu_thread() {
  Stats& st = net_.stats();
  const sc_time period = ps(period_ps_);
  try {
    for (;;) {
      if (!real_in_flight_) {
        // Nothing real in flight: sleep until a request, then skip the idle
        // cycles before its cycle at once (their results are idle too).
        while (enq_.empty() && deq_.empty()) wait(mmu_wake_);
        // Cycle c starts at c * period: the first one at or after now.
        const uint64_t c = (now_ps() + period_ps_ - 1) / period_ps_;
        if (next_cycle_ < c) skip_idle(c - next_cycle_);
        if (c * period_ps_ > now_ps()) wait(ps(c * period_ps_ - now_ps()));
      }
      // One delta later, so that the requests made at the cycle's start
      // (arrivals, egress starts of packets just admitted) join it.
      wait(sc_core::SC_ZERO_TIME);
      // An idle cycle if nothing waits: earlier results are still coming out.
      CycleIn in;
      Packet* enq_pkt = nullptr;
      if (!enq_.empty()) {
        in.enq = enq_.front().op;
        enq_pkt = enq_.front().pkt;
        st.max_enq_wait_ps = std::max(st.max_enq_wait_ps, uint64_t(now_ps() - enq_.front().at.value()));
        enq_.pop_front();
      }
      if (!deq_.empty()) {
        in.deq = deq_.front().op;
        st.max_deq_wait_ps = std::max(st.max_deq_wait_ps, uint64_t(now_ps() - deq_.front().at.value()));
        deq_.pop_front();
      }
      const auto [out, pkt] = step(in, enq_pkt);
      wait(period);  // registered outputs act at the end of the cycle
      apply(out, pkt);
    }
  } catch (const sc_core::sc_unwind_exception&) {
    throw;
  } catch (const std::exception& e) {
    net_.error = e.what();
    sc_core::sc_stop();
  }
}

// Steps one MMU cycle and retires the one whose results come out now,
// latency() cycles earlier (the state accessors describe that cycle too):
// returns its results and the packet it enqueued.
std::pair<CycleOut, Packet*> Switch::step(const CycleIn& in, Packet* enq_pkt) {
  MmuModel& mmu = net_.mmu();
  Stats& st = net_.stats();
  const CycleOut out = mmu.step(in);
  st.mmu_cycles = ++next_cycle_;
  const bool real = !in.idle();
  st.mmu_busy_cycles += real;
  real_in_flight_ += real;
  in_flight_.push_back({in, enq_pkt});
  if (in_flight_.size() <= mmu.latency()) return {out, nullptr};  // pipeline filling: no results yet
  const InFlight done = in_flight_.front();
  in_flight_.pop_front();
  real_in_flight_ -= !done.in.idle();
  if (out.error())
    throw std::runtime_error("MMU protocol error at cycle " + std::to_string(next_cycle_ - 1 - mmu.latency()) +
                             (out.enq_error ? " (enqueue)" : " (dequeue)"));
  observe(done.in);
  trace_thresholds(out.thr);
  return {out, done.pkt};
}

// n cycles with no input while none with one is in flight: every entry of
// in_flight_ is idle, and stays so (the skipped cycles' own entries would be
// idle too), so only the count and the traced thresholds change.
void Switch::skip_idle(uint64_t n) {
  const CycleOut& out = net_.mmu().skip_idle(n);
  next_cycle_ += n;
  net_.stats().mmu_cycles = next_cycle_;
  trace_thresholds(out.thr);
}

// The RTL backend reports T only; its X_* trace as 0.
void Switch::trace_thresholds(const Thresholds& t) {
  trace.t = t.t;
  trace.x_qoff = t.x_qoff;
  trace.x_qon = t.x_qon;
  trace.x_poff = t.x_poff;
  trace.x_pon = t.x_pon;
}

// Peaks and trace mirrors of the queues and ports this cycle touched.
void Switch::observe(const CycleIn& in) {
  MmuModel& mmu = net_.mmu();
  Stats& st = net_.stats();
  st.peak_s = std::max(st.peak_s, mmu.s());
  trace.s = mmu.s();
  for (const Op* op : {&in.deq, &in.enq}) {
    if (!op->valid) continue;
    const QueueState q = mmu.queue(op->port, op->queue);
    const PortState ps = mmu.port(op->port);
    st.peak_queue_hdrm = std::max(st.peak_queue_hdrm, q.hdrm);
    st.peak_port_hdrm = std::max(st.peak_port_hdrm, ps.hdrm);
    const unsigned p = op->port;
    if (trace.cls[p] == int(op->queue)) {
      trace.q_cells[p] = q.total();
      trace.q_shared[p] = q.shared;
      trace.q_hdrm[p] = q.hdrm;
      trace.qoff[p] = q.qoff;
    }
    if (trace.cls[p] >= 0) {
      trace.port_shared[p] = ps.shared;
      trace.port_hdrm[p] = ps.hdrm;
      trace.poff[p] = ps.poff;
    }
  }
}

void Switch::apply(const CycleOut& out, Packet* pkt) {
  Stats& st = net_.stats();
  if (pkt) {
    Flow& f = net_.flows()[pkt->flow];
    if (out.region == Region::Drop) {
      ++st.drops;
      f.dropped += pkt->bytes;
      net_.release(pkt);
    } else {
      f.admitted += pkt->bytes;
      egress(pkt->dst).push(pkt);
    }
  }
  for (unsigned i = 0; i < out.n_events; ++i) send_control(out.events[i]);
}

void Switch::send_control(const Event& e) {
  Stats& st = net_.stats();
  const bool pause = e.kind == Event::Pause || e.kind == Event::PortPause;
  ++(pause ? st.pause_frames : st.resume_frames);
  if (pause && net_.is_fanin_host(e.port)) ++st.fanin_pause_frames;
  if (pause) net_.note_pause(e);
  Packet* p = net_.alloc();
  p->control = true;
  p->cls = kControlClass;
  p->bytes = uint32_t(net_.params().pause_frame_bytes);
  p->dst = e.port;
  p->fc = e;
  egress(e.port).push(p);
}

// -------------------------------------------------------------------- Network

Network::Network(sc_core::sc_module_name n, const Params& p, std::vector<Flow> flows,
                 std::unique_ptr<MmuModel> mmu)
    : sc_module(n), p_(p), flows_(std::move(flows)), mmu_(std::move(mmu)) {
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);  // "stopped by user"
  for (unsigned i = 0; i < p_.mmu.n_ports; ++i)
    timing_.push_back(LinkTiming{8000.0 / p_.rate_gbps(i), ps(uint64_t(std::llround(p_.prop_delay_ns * 1000.0)))});
  fanin_host_.assign(p_.mmu.n_ports, false);
  for (const Flow& f : flows_)
    if (f.fanin) fanin_host_[f.src] = true;
  for (unsigned h = 0; h < p_.mmu.n_ports; ++h)
    hosts_.push_back(std::make_unique<Host>(("host" + std::to_string(h)).c_str(), *this, h));
  sw_ = std::make_unique<Switch>("switch", *this);
  bg_unpaused_.assign(p_.mmu.n_ports, false);
  for (const Flow& f : flows_)
    if (!f.fanin && f.start_ns >= 0 && p_.kind == Kind::PfcAvoidance) {
      bool bg = false;
      for (int h : p_.background_srcs) bg |= p_.port_of(h) == f.src;
      if (bg && !bg_unpaused_[f.src]) {
        bg_unpaused_[f.src] = true;
        ++bg_unpaused_n_;
      }
    }
  for (size_t i = 0; i < flows_.size(); ++i) hosts_[flows_[i].src]->add_flow(int32_t(i));
  SC_THREAD(watchdog);
  SC_THREAD(starter);
}

void Network::note_pause(const Event& e) {
  if (!bg_unpaused_[e.port]) return;
  bg_unpaused_[e.port] = false;
  if (--bg_unpaused_n_ == 0) bg_settled_.notify();
}

void Network::starter() {
  std::vector<std::pair<uint64_t, int32_t>> todo;  // stagger offset, flow
  for (size_t i = 0; i < flows_.size(); ++i)
    if (flows_[i].start_ns < 0)
      todo.emplace_back(uint64_t(std::llround(p_.start_stagger_ns * 1000.0 * flows_[i].src)), int32_t(i));
  if (todo.empty()) return;
  std::stable_sort(todo.begin(), todo.end());
  wait(ps(uint64_t(std::llround(p_.settle_us * 1e6))));
  if (bg_unpaused_n_) {
    wait(bg_settled_);
    wait(ps(uint64_t(std::llround(p_.settle_after_pause_us * 1e6))));
  }
  fanin_start_ps_ = now_ps();
  for (const auto& [off, fi] : todo) {
    if (fanin_start_ps_ + off > now_ps()) wait(ps(fanin_start_ps_ + off - now_ps()));
    hosts_[flows_[fi].src]->activate(fi);
  }
}

Network::~Network() = default;

Packet* Network::alloc() {
  if (free_.empty()) {
    pool_.push_back(std::make_unique<Packet>());
    return pool_.back().get();
  }
  Packet* p = free_.back();
  free_.pop_back();
  *p = Packet{};
  return p;
}

void Network::release(Packet* p) { free_.push_back(p); }

bool Network::finished() const {
  for (const Flow& f : flows_) {
    if (!f.fanin) continue;
    if (!f.bytes || f.admitted + f.dropped < f.bytes) return false;
    if (hosts_[f.src]->nic.tx_pause(f.cls) || mmu_->queue(f.src, f.cls).qoff || mmu_->port(f.src).poff) return false;
  }
  return true;
}

void Network::watchdog() {
  const sc_time tick = ps(2'000'000);  // 2 us
  const uint64_t grace_ps = 10'000'000;
  const uint64_t end_ps = uint64_t((p_.kind == Kind::Saturate ? std::min(p_.run_us, p_.max_run_us) : p_.max_run_us) * 1e6);
  uint64_t done_since = 0;
  bool done = false;
  for (;;) {
    wait(tick);
    if (now_ps() >= end_ps) break;
    if (p_.kind != Kind::PfcAvoidance) continue;
    if (!finished()) {
      done = false;
    } else if (!done) {
      done = true;
      done_since = now_ps();
    } else if (now_ps() - done_since >= grace_ps) {
      break;
    }
  }
  sc_core::sc_stop();
}

double Network::fanin_paused_us() {
  std::set<std::pair<uint32_t, uint8_t>> seen;
  uint64_t total = 0;
  for (const Flow& f : flows_)
    if (f.fanin && seen.insert({f.src, f.cls}).second) total += hosts_[f.src]->nic.paused_ps(f.cls);
  return double(total) / 1e6;
}

void Network::trace_to(sc_core::sc_trace_file* tf, const std::vector<unsigned>& ports) {
  Switch::Trace& t = sw_->trace;
  sc_core::sc_trace(tf, t.s, "mmu.S");
  sc_core::sc_trace(tf, t.t, "mmu.T");
  sc_core::sc_trace(tf, t.x_qoff, "mmu.X_qoff");
  sc_core::sc_trace(tf, t.x_qon, "mmu.X_qon");
  sc_core::sc_trace(tf, t.x_poff, "mmu.X_poff");
  sc_core::sc_trace(tf, t.x_pon, "mmu.X_pon");
  for (unsigned p : ports) {
    int cls = -1;
    for (const Flow& f : flows_)
      if (f.src == p && cls < 0) cls = f.cls;
    if (cls < 0) continue;
    t.cls[p] = cls;
    char name[16];
    std::snprintf(name, sizeof name, "port%02u", p);
    const std::string n = name;
    sc_core::sc_trace(tf, t.q_cells[p], n + ".q_cells");
    sc_core::sc_trace(tf, t.q_shared[p], n + ".q_shared");
    sc_core::sc_trace(tf, t.q_hdrm[p], n + ".q_hdrm");
    sc_core::sc_trace(tf, t.port_shared[p], n + ".port_shared");
    sc_core::sc_trace(tf, t.port_hdrm[p], n + ".port_hdrm");
    sc_core::sc_trace(tf, t.qoff[p], n + ".qoff");
    sc_core::sc_trace(tf, t.poff[p], n + ".poff");
    sc_core::sc_trace(tf, hosts_[p]->nic.traced_pause[cls], n + ".tx_pause");
  }
}

std::vector<Flow> make_flows(const Params& p, uint64_t burst_bytes) {
  std::vector<Flow> f;
  auto start_ns = [&](int h, double base_ns) { return base_ns < 0 ? base_ns : base_ns + p.start_stagger_ns * p.port_of(h); };
  auto add = [&](int src, int dst, unsigned cls, uint64_t bytes, double at, bool fanin) {
    f.push_back(Flow{p.port_of(src), p.port_of(dst), uint8_t(cls), bytes, start_ns(src, at), fanin});
  };
  for (int h : p.background_srcs) add(h, p.background_dst, p.background_class, 0, 0, false);
  const bool sat = p.kind == Kind::Saturate;
  const uint64_t each = sat ? 0 : std::max<uint64_t>(1, burst_bytes / (p.fanin_srcs.size() * p.fanin_classes.size()));
  for (int h : p.fanin_srcs)
    for (int c : p.fanin_classes) add(h, p.fanin_dst, unsigned(c), each, sat ? 0 : -1.0, true);
  for (size_t k = 0; k < p.reverse_srcs.size(); ++k)
    add(p.reverse_srcs[k], p.fanin_srcs[k], p.reverse_class, 0, 0, false);
  return f;
}

}  // namespace dsh::sc
