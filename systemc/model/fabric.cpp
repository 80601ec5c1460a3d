// SPDX-License-Identifier: Apache-2.0
#include "fabric.h"

#include <algorithm>
#include <stdexcept>

namespace dsh::net {

struct Fabric::SwitchNode {
  int id = 0;
  uint64_t cell_bytes = 256;
  std::unique_ptr<MmuModel> mmu;
  uint64_t period_ps = 1000;
  struct Req {
    Pkt* pkt;
    Op op;
    uint64_t at;
  };
  Ring<Req> enq, deq;
  struct InFlight {  // a stepped cycle whose results have not come out yet
    CycleIn in;
    Pkt* pkt;
  };
  Ring<InFlight> in_flight;
  size_t real_in_flight = 0;
  // A model without the decision latency (the golden model in a network,
  // switch_chips): it decides a cycle when stepped, and the fabric holds
  // the results until they would come out of the RTL. Only a cycle with
  // results is kept; idle cycles are skipped in O(1) once it is quiet.
  bool lag = false;
  struct Decided {
    uint64_t act;  // the cycle at whose start the results act
    CycleOut out;
    Pkt* pkt;
  };
  Ring<Decided> decided;
  uint64_t next_cycle = 0;  // cycles stepped so far
  uint64_t last_wanted = ~uint64_t(0);  // the cycle last given an event (or a reserved place)
  // Held results (lag): a cycle that decided nothing to act on (a dequeue
  // without events) needs no tick kRtlLatency + 1 cycles later, but the
  // delayed model's switch had one there; its place in the event order is
  // reserved, and a tick wanted for that cycle later takes it, so that the
  // switches' ticks of a cycle run in the same order as with a delayed
  // model (the RTL's): the results do not depend on which model decides.
  struct Reserved {
    uint64_t cycle, key;
    bool taken;
  };
  Ring<Reserved> reserved;
  bool last_reserved = false;  // last_wanted is a reserved place, not an event
  bool have_result = false;   // results of cycle result_cycle, to act at its end
  uint64_t result_cycle = 0;
  CycleOut result;
  Pkt* result_pkt = nullptr;
  SwitchStats st;
};

struct Fabric::HostNode {
  std::array<std::deque<int32_t>, kClasses> active;  // started flows per class, round robin
  std::array<uint64_t, kClasses> wake{};              // a refill wake-up in the queue, ~0 none
};

std::unique_ptr<MmuModel> make_switch_mmu(const ChipSpec& chip, const FabricParams& p, const std::string& name) {
  LockstepOptions lo;
  lo.full_compare = p.full_compare;
  lo.fst_dir = p.mismatch_dir;
  lo.fst_stem = "mismatch_" + name;
  lo.tag = "switch=" + name;
  std::unique_ptr<MmuModel> m;
  if (chip.backend == Backend::Golden) {
    m = make_model(Backend::Golden, chip.mmu, lo);
  } else {
    RtlOptions ro;
    ro.fault = p.rtl_fault;
    ro.light = true;
    const RtlVariant& v = find_rtl_variant(chip.mmu, ro);
    m = chip.backend == Backend::Rtl ? v.make(chip.mmu, ro) : make_lockstep(v, chip.mmu, lo, ro);
  }
  // Every backend shows the pipelined RTL's decision latency.
  if (m->latency() < kRtlLatency) m = make_delayed(std::move(m), kRtlLatency - m->latency());
  return m;
}

namespace {
std::vector<SwitchChip> switch_chips(const Topology& topo, const std::vector<ChipSpec>& chips, const FabricParams& p) {
  if (chips.size() != topo.n_switches()) throw std::logic_error("Fabric: one chip per switch");
  std::vector<SwitchChip> out;
  for (size_t s = 0; s < chips.size(); ++s) {
    if (topo.ports(int(s)).size() > chips[s].mmu.n_ports)
      throw ConfigError("switch " + topo.name(int(s)) + " has " + std::to_string(topo.ports(int(s)).size()) +
                        " links, its chip n_ports = " + std::to_string(chips[s].mmu.n_ports));
    // The golden model undelayed: the fabric holds its results instead
    // (SwitchNode::lag), which spares the idle cycles of the delay line.
    std::unique_ptr<MmuModel> m = chips[s].backend == Backend::Golden ? make_model(Backend::Golden, chips[s].mmu)
                                                                       : make_switch_mmu(chips[s], p, topo.name(int(s)));
    out.push_back(SwitchChip{chips[s].cell_bytes, chips[s].mmu_clock_ghz, std::move(m)});
  }
  return out;
}
}  // namespace

Fabric::Fabric(const Topology& topo, const std::vector<ChipSpec>& chips, const FabricParams& p)
    : Fabric(topo, switch_chips(topo, chips, p), p) {}

Fabric::Fabric(const Topology& topo, std::vector<SwitchChip> chips, const FabricParams& p)
    : topo_(topo), p_(p), rng_(p.seed) {
  tx_.resize(topo.n_nodes());
  for (size_t n = 0; n < topo.n_nodes(); ++n) {
    const auto& ports = topo.ports(int(n));
    tx_[n].resize(ports.size());
    for (size_t i = 0; i < ports.size(); ++i) {
      TxPort& t = tx_[n][i];
      t.fab = this;
      t.node = int(n);
      t.port = int(i);
      t.peer = ports[i].peer;
      t.peer_port = ports[i].peer_port;
      t.gbps = ports[i].gbps;
      t.ps_per_byte = 8000.0 / ports[i].gbps;
      t.prop_ps = uint64_t(ports[i].delay_ns * 1000.0 + 0.5);
      t.arb = ClassArbiter(p.dwrr_quantum_bytes);
      // Packets arrive in the order they were sent on a link: one lane.
      t.lane = ev_.add_lane(
          [](void* port, void* pkt) {
            TxPort& x = *static_cast<TxPort*>(port);
            x.fab->receive(x.peer, x.peer_port, static_cast<Pkt*>(pkt));
          },
          &t);
    }
  }
  start_lane_ = ev_.add_lane(
      [](void* fab, void* flow) { static_cast<Fabric*>(fab)->start_flow(int32_t(reinterpret_cast<intptr_t>(flow))); },
      this);
  if (chips.size() != topo.n_switches()) throw std::logic_error("Fabric: one chip per switch");
  for (size_t s = 0; s < topo.n_switches(); ++s) {
    if (!chips[s].mmu || (chips[s].mmu->latency() != kRtlLatency && chips[s].mmu->latency() != 0))
      throw std::logic_error("Fabric: a switch's MMU must have the decision latency kRtlLatency, or none");
    auto sw = std::make_unique<SwitchNode>();
    sw->id = int(s);
    sw->cell_bytes = chips[s].cell_bytes;
    sw->period_ps = uint64_t(1000.0 / chips[s].mmu_clock_ghz + 0.5);
    sw->mmu = std::move(chips[s].mmu);
    sw->lag = sw->mmu->latency() == 0;
    held_ |= sw->lag;
    sw_.push_back(std::move(sw));
  }
  for (size_t h = 0; h < topo.n_hosts(); ++h) {
    hosts_.push_back(std::make_unique<HostNode>());
    hosts_.back()->wake.fill(~uint64_t(0));
  }
}

Fabric::~Fabric() = default;

Pkt* Fabric::alloc() {
  if (free_.empty()) {
    pool_.push_back(std::make_unique<Pkt[]>(kPoolBlock));
    for (size_t i = kPoolBlock; i-- > 1;) free_.push_back(&pool_.back()[i]);
    return &pool_.back()[0];
  }
  Pkt* p = free_.back();
  free_.pop_back();
  *p = Pkt{};
  return p;
}

const SwitchStats& Fabric::stats(int sw) const { return sw_.at(sw)->st; }
MmuModel& Fabric::mmu(int sw) { return *sw_.at(sw)->mmu; }
const TxPort& Fabric::tx(int node, int port) const { return tx_.at(node).at(port); }

uint64_t Fabric::forwarded() const {
  uint64_t n = 0;
  for (const auto& s : sw_) n += s->st.forwarded;
  return n;
}

uint64_t Fabric::lossless_drops() const {
  uint64_t n = 0;
  for (const auto& s : sw_) n += s->st.drops;
  return n;
}

uint64_t Fabric::reordered() const {
  uint64_t n = 0;
  for (const auto& f : flows_) n += f.reordered;
  return n;
}

int32_t Fabric::add_flow(uint32_t src, uint32_t dst, uint8_t cls, uint64_t bytes, uint64_t start_ps, int group) {
  if (src == dst) throw ConfigError("a flow from host " + topo_.name(topo_.host_node(int(src))) + " to itself");
  if (cls >= kControlClass) throw ConfigError("flow class " + std::to_string(cls) + ": lossless classes are 0..6");
  NetFlow f;
  f.src = src;
  f.dst = dst;
  f.cls = cls;
  f.bytes = bytes;
  f.start_ps = start_ps;
  f.group = group;
  if (p_.dcqcn) {
    DcqcnParams d = p_.dcqcn_params;
    const double line = topo_.ports(topo_.host_node(int(src)))[0].gbps;
    // HPCC's run.py scales AI and HAI with the NIC rate (ai = 5*bw/25 Mb/s).
    d.ai_gbps *= line / 100.0;
    d.hai_gbps *= line / 100.0;
    d.line_gbps = line;
    f.cc = std::make_unique<Dcqcn>(d);
  }
  if (p_.powertcp) {
    PowerTcpParams w = p_.powertcp_params;
    w.line_gbps = topo_.ports(topo_.host_node(int(src)))[0].gbps;
    f.ptcp = std::make_unique<PowerTcp>(w);
  }
  flows_.push_back(std::move(f));
  const int32_t id = int32_t(flows_.size() - 1);
  if (start_ps != kNever) start_flow_at(id, start_ps);
  return id;
}

void Fabric::start_flow_at(int32_t id, uint64_t t_ps) {
  flows_[id].start_ps = t_ps;
  ev_.lane_at(start_lane_, t_ps, reinterpret_cast<void*>(intptr_t(id)));
}

// ---------------------------------------------------------------- ports

void Fabric::port_push(TxPort& t, Pkt* p) {
  auto& q = t.q[p->cls];
  if (p->kind == Pkt::Pause) {
    // The MAC sends PFC frames before any queued CNP (their order among
    // themselves kept), so that a CNP burst never delays a pause.
    size_t i = 0;
    while (i < q.size() && q[i]->kind == Pkt::Pause) ++i;
    q.insert(i, p);
  } else {
    q.push_back(p);
  }
  t.qbytes[p->cls] += p->bytes;
  t.rx_bytes += p->bytes;
  port_try_start(t);
}

void Fabric::port_try_start(TxPort& t) {
  if (t.busy || !t.connected()) return;
  const int c = t.arb.pick([&t](unsigned k) -> uint64_t { return t.q[k].empty() ? 0 : t.q[k].front()->bytes; },
                           [&t](unsigned k) { return t.tx_pause(k); });
  if (c < 0) return;
  Pkt* p = t.q[c].front();
  t.q[c].pop_front();
  t.qbytes[c] -= p->bytes;
  t.busy = true;  // before the callbacks: a refill must not start a second packet
  if (unsigned(c) != kControlClass) t.last_start_ps = ev_.now();
  // A host refills a class that ran empty before the arbiter sees it: a
  // flow with more to send keeps its class backlogged (and its deficit).
  if (t.q[c].empty()) on_tx_empty(t, unsigned(c));
  else __builtin_prefetch(t.q[c].front());  // the class's next packet: the arbiter reads it when this one is out
  t.arb.popped(unsigned(c), t.q[c].empty());
  on_tx_start(t, *p);
  const uint64_t ser = t.ser_ps(p->bytes);
  ev_.call_at(
      ev_.now() + ser,
      [](void* fab, void* port) {
        TxPort& x = *static_cast<TxPort*>(port);
        x.busy = false;
        static_cast<Fabric*>(fab)->port_try_start(x);
      },
      this, &t);
  p->to_node = t.peer;
  p->to_port = uint16_t(t.peer_port);
  if (t.wire) t.wire(p, ser);
  else ev_.lane_at(t.lane, ev_.now() + ser + t.prop_ps, p);
}

void TxPort::set_pause(const Event& e, uint64_t now) {
  switch (e.kind) {
    case Event::Pause: q_paused[e.queue] = true; break;
    case Event::Resume: q_paused[e.queue] = false; break;
    case Event::PortPause: port_paused = true; break;
    case Event::PortResume: port_paused = false; break;
  }
  for (unsigned c = 0; c < kClasses; ++c) {
    const bool p = tx_pause(c);
    if (p == pause_seen[c]) continue;
    if (p) paused_since[c] = now;
    else paused_ps[c] += now - paused_since[c];
    pause_seen[c] = p;
  }
}

void Fabric::on_tx_start(TxPort& t, Pkt& p) {
  if (p.kind != Pkt::Data) return;
  if (topo_.is_switch(t.node)) {
    SwitchNode& s = *sw_[t.node];
    ++s.st.forwarded;
    s.deq.push_back({nullptr, Op{true, p.in_port, p.cls, p.cells}, ev_.now()});
    mmu_request(t.node);
    if (p.tel >= 0) stamp(t, p);
    if (p_.dcqcn && !p.ecn) {
      const double scale = t.gbps / 100.0;
      const double prob = ecn_mark_probability(t.qbytes[p.cls], uint64_t(p_.kmin_kb_100g * 1000 * scale),
                                               uint64_t(p_.kmax_kb_100g * 1000 * scale), p_.pmax);
      if (prob > 0 && std::uniform_real_distribution<double>(0, 1)(rng_) < prob) {
        p.ecn = true;
        ++s.st.ecn_marked;
      }
    }
  } else {
    NetFlow& f = flows_[p.flow];
    if (f.cc && f.cc->on_sent(p.bytes)) schedule_increase(p.flow);
  }
}

void Fabric::on_tx_empty(TxPort& t, unsigned cls) {
  if (!topo_.is_switch(t.node) && cls != kControlClass) host_refill(topo_.node_host(t.node), cls);
}

void Fabric::receive(int node, int port, Pkt* p) {
  if (topo_.is_switch(node)) switch_receive(node, port, p);
  else host_receive(topo_.node_host(node), p);
}

// A PAUSE frame acts processing_bytes at link rate after its first bit
// arrived (spec §7.1 item 3); its last bit is here now.
void Fabric::control_arrives(TxPort& t, Pkt* p) {
  const uint64_t wait = t.ser_ps(p_.processing_bytes) - t.ser_ps(p_.pause_frame_bytes);
  TxPort* tp = &t;
  const Event e = p->fc;
  release(p);
  ev_.after(wait, [this, tp, e] {
    tp->set_pause(e, ev_.now());
    port_try_start(*tp);
  });
}

// ---------------------------------------------------------------- hosts

void Fabric::start_flow(int32_t fi) {
  NetFlow& f = flows_[fi];
  f.started = true;
  f.next_ok_ps = ev_.now();
  const uint32_t h = f.src;
  hosts_[h]->active[f.cls].push_back(fi);
  if (tx_[topo_.host_node(int(h))][0].q[f.cls].empty()) host_refill(int(h), f.cls);
}

// One packet of the class's next flow whose rate limiter allows it (round
// robin among the class's flows); when none may send yet, a wake-up at the
// earliest time one may.
void Fabric::host_refill(int h, unsigned cls) {
  HostNode& hn = *hosts_[h];
  TxPort& nic = tx_[topo_.host_node(h)][0];
  if (!nic.q[cls].empty()) return;
  auto& act = hn.active[cls];
  const uint64_t now = ev_.now();
  uint64_t earliest = ~uint64_t(0);
  for (size_t i = 0, n = act.size(); i < n; ++i) {
    const int32_t fi = act.front();
    act.pop_front();
    NetFlow& f = flows_[fi];
    if (f.bytes && f.generated >= f.bytes) continue;  // all sent: leaves the rotation
    act.push_back(fi);
    if (f.next_ok_ps > now) {
      earliest = std::min(earliest, f.next_ok_ps);
      continue;
    }
    // PowerTCP: a full window waits for an ACK (ack_arrives refills).
    if (f.ptcp && double(f.generated - f.acked) >= f.ptcp->cwnd_bytes()) continue;
    Pkt* p = alloc();
    p->kind = Pkt::Data;
    p->src = uint32_t(h);
    p->dst = f.dst;
    p->cls = f.cls;
    p->flow = fi;
    p->seq = f.next_seq++;
    p->bytes = uint32_t(f.bytes ? std::min<uint64_t>(p_.packet_bytes, f.bytes - f.generated) : p_.packet_bytes);
    f.generated += p->bytes;
    if (f.cc && f.cc->rate_gbps() < nic.gbps) f.next_ok_ps = now + uint64_t(double(p->bytes) * 8000.0 / f.cc->rate_gbps() + 0.5);
    if (f.ptcp) {
      if (tel_free_.empty()) {
        p->tel = int32_t(tel_.size());
        tel_.emplace_back();
      } else {
        p->tel = tel_free_.back();
        tel_free_.pop_back();
        tel_[size_t(p->tel)] = IntStack{};
      }
      const double r = f.ptcp->rate_gbps();
      if (r < nic.gbps) f.next_ok_ps = now + uint64_t(double(p->bytes) * 8000.0 / r + 0.5);
    }
    port_push(nic, p);
    return;
  }
  if (earliest != ~uint64_t(0) && earliest < hn.wake[cls]) {
    hn.wake[cls] = earliest;
    ev_.at(earliest, [this, h, cls, earliest] {
      HostNode& x = *hosts_[h];
      if (x.wake[cls] != earliest) return;  // superseded by an earlier one
      x.wake[cls] = ~uint64_t(0);
      host_refill(h, cls);
    });
  }
}

void Fabric::schedule_increase(int32_t fi) {
  NetFlow& f = flows_[fi];
  const uint64_t due = f.cc->increase_due_ps();
  if (due == ~uint64_t(0) || due == f.increase_armed_ps) return;
  f.increase_armed_ps = due;
  ev_.at(due, [this, fi, due] {
    NetFlow& x = flows_[fi];
    if (x.cc->increase_due_ps() != due) return;  // re-armed by a cut since
    x.increase_armed_ps = ~uint64_t(0);
    x.cc->on_increase_timer(ev_.now());
    schedule_increase(fi);
  });
}

void Fabric::host_receive(int h, Pkt* p) {
  TxPort& nic = tx_[topo_.host_node(h)][0];
  if (p->kind == Pkt::Pause) {
    control_arrives(nic, p);
    return;
  }
  const uint64_t now = ev_.now();
  if (p->kind == Pkt::Ack) {
    ack_arrives(h, p);
    return;
  }
  if (p->kind == Pkt::Cnp) {
    const int32_t fi = p->flow;
    release(p);
    NetFlow& f = flows_[fi];
    if (!f.cc) return;
    f.cnp_rx_ps = now;
    if (!f.cc->on_cnp(now)) {
      const uint64_t due = f.cc->decrease_due_ps();
      ev_.at(due, [this, fi, due] {
        NetFlow& x = flows_[fi];
        if (x.cc->decrease_due_ps() != due) return;
        x.cc->on_decrease_due(ev_.now());
        schedule_increase(fi);
      });
    }
    schedule_increase(fi);
    return;
  }
  NetFlow& f = flows_[p->flow];
  if (f.delivered == 0) f.first_rx_ps = now;
  f.delivered += p->bytes;
  if (p->seq != f.expect_seq) ++f.reordered;
  f.expect_seq = p->seq + 1;
  if (on_deliver) on_deliver(p->flow, p->bytes);
  if (p->ecn && p_.dcqcn && (!f.cnp_sent || now - f.last_cnp_ps >= uint64_t(p_.cnp_interval_us * 1e6))) {
    f.cnp_sent = true;
    f.last_cnp_ps = now;
    Pkt* c = control(Pkt::Cnp, p_.cnp_bytes);
    c->src = uint32_t(h);
    c->dst = f.src;
    c->flow = p->flow;
    port_push(nic, c);
  }
  const int32_t fi = p->flow;
  if (f.ptcp) send_ack(h, p);
  release(p);
  if (f.bytes && f.delivered >= f.bytes && !f.done) {
    f.done = true;
    f.done_ps = now;
    if (on_flow_done) on_flow_done(fi);
  }
}

Pkt* Fabric::control(Pkt::Kind kind, uint64_t bytes) {
  Pkt* c = alloc();
  c->kind = kind;
  c->cls = kControlClass;
  c->bytes = uint32_t(bytes);
  return c;
}

// ---------------------------------------------------------------- PowerTCP

// A switch egress stamps a PowerTCP packet as it starts on the wire: the
// packet has left the queue, the bytes behind it are the queue length.
void Fabric::stamp(const TxPort& t, Pkt& p) {
  uint64_t q = 0;
  for (unsigned c = 0; c < kClasses; ++c) q += t.qbytes[c];
  telemetry(p).push(IntHop{ev_.now(), t.rx_bytes, q, t.gbps});
}

// The receiver answers every data packet with an ACK of the bytes it has in
// order, carrying the data packet's telemetry (the ACK takes it over).
void Fabric::send_ack(int h, Pkt* d) {
  const NetFlow& f = flows_[d->flow];
  Pkt* a = control(Pkt::Ack, p_.ack_bytes);
  a->src = uint32_t(h);
  a->dst = f.src;
  a->flow = d->flow;
  a->seq = d->seq;
  a->tel = d->tel;
  d->tel = -1;
  telemetry(*a).ack_bytes = f.delivered;
  port_push(tx_[topo_.host_node(h)][0], a);
}

void Fabric::ack_arrives(int h, Pkt* a) {
  NetFlow& f = flows_[a->flow];
  const IntStack& tel = telemetry(*a);
  f.acked = std::max(f.acked, tel.ack_bytes);
  f.ptcp->on_ack(tel, f.generated);
  release(a);
  // The window may have opened: a class with nothing queued takes a packet.
  if (tx_[topo_.host_node(h)][0].q[f.cls].empty()) host_refill(h, f.cls);
}

void Fabric::free_tel(Pkt* p) {
  tel_free_.push_back(p->tel);
  p->tel = -1;
}

// ---------------------------------------------------------------- switches

void Fabric::switch_receive(int s, int port, Pkt* p) {
  if (p->kind == Pkt::Pause) {
    control_arrives(tx_[s][port], p);
    return;
  }
  // ECMP (topology.h): a CNP carries its flow's id from receiver to sender.
  const int out = topo_.route(s, FlowTuple{p->src, p->dst, uint32_t(p->flow)});
  if (out < 0) {
    error = "switch " + topo_.name(s) + " has no route to " + topo_.name(topo_.host_node(int(p->dst)));
    ev_.stop();
    release(p);
    return;
  }
  if (p->kind != Pkt::Data) {  // CNP, ACK: class 7, outside the lossless accounting
    port_push(tx_[s][out], p);
    return;
  }
  SwitchNode& sw = *sw_[s];
  p->in_port = uint16_t(port);
  p->out_port = uint16_t(out);
  p->cells = uint32_t(cells_of(p->bytes, sw.cell_bytes));
  sw.enq.push_back({p, Op{true, uint32_t(port), p->cls, p->cells}, ev_.now()});
  mmu_request(s);
}

void Fabric::mmu_request(int s) {
  SwitchNode& sw = *sw_[s];
  // Cycle c starts at c * period: the first one at or after now.
  mmu_want(s, (ev_.now() + sw.period_ps - 1) / sw.period_ps);
}

// A cycle that must run at its time: one with a request, or the one at whose
// start an earlier cycle's results act. Other cycles are stepped when the
// next such cycle comes (their inputs are idle and they give no results).
void Fabric::mmu_want(int s, uint64_t c) {
  SwitchNode& sw = *sw_[s];
  if (c < sw.next_cycle) c = sw.next_cycle;
  if (c == sw.last_wanted && !sw.last_reserved) return;  // most repeats are of the last one; others run as stale ticks
  sw.last_wanted = c;
  sw.last_reserved = false;
  uint64_t key = ~uint64_t(0);
  while (!sw.reserved.empty() && (sw.reserved.front().taken || sw.reserved.front().cycle < sw.next_cycle))
    sw.reserved.pop_front();
  for (size_t i = 0; i < sw.reserved.size(); ++i)
    if (sw.reserved[i].cycle == c && !sw.reserved[i].taken) {
      key = sw.reserved[i].key;
      sw.reserved[i].taken = true;
      break;
    }
  if (c * sw.period_ps < ev_.now()) {  // (not seen: a cycle is wanted at or after its start)
    ev_.at(c * sw.period_ps, [this, s, c] { mmu_tick(s, c); }, kPhaseMmu);
    return;
  }
  // The cycle is the event's time over the period.
  const EventQueue::Handler tick = [](void* fab, void* node) {
    Fabric& f = *static_cast<Fabric*>(fab);
    const SwitchNode& x = *static_cast<SwitchNode*>(node);
    f.mmu_tick(x.id, f.ev_.now() / x.period_ps);
  };
  if (key != ~uint64_t(0)) ev_.call_at_key(c * sw.period_ps, key, tick, this, &sw);
  else ev_.call_at(c * sw.period_ps, tick, this, &sw, kPhaseMmu);
}

// Steps one cycle; a cycle whose results come out (a packet admitted or
// dropped, PAUSE/RESUME events) leaves them to act at its end.
void Fabric::mmu_step(int s, const CycleIn& in, Pkt* enq_pkt) {
  SwitchNode& sw = *sw_[s];
  const CycleOut& out = sw.mmu->step(in);
  if (on_mmu_out) on_mmu_out(s, out);
  const uint64_t cycle = sw.next_cycle;
  sw.st.mmu_cycles = ++sw.next_cycle;
  const bool real = !in.idle();
  sw.st.mmu_busy_cycles += real;
  if (sw.lag) {  // decided now; held until the cycle its results act
    if (out.error())
      throw std::runtime_error("switch " + topo_.name(s) + ": MMU protocol error at cycle " + std::to_string(cycle) +
                               (out.enq_error ? " (enqueue)" : " (dequeue)"));
    if (enq_pkt || out.n_events) {
      sw.decided.push_back({cycle + kRtlLatency + 1, out, enq_pkt});
      mmu_want(s, cycle + kRtlLatency + 1);
    } else if (real && cycle + kRtlLatency + 1 != sw.last_wanted) {
      sw.reserved.push_back({cycle + kRtlLatency + 1, ev_.reserve_key(kPhaseMmu), false});
      sw.last_wanted = cycle + kRtlLatency + 1;
      sw.last_reserved = true;
    }
    return;
  }
  sw.real_in_flight += real;
  sw.in_flight.push_back({in, enq_pkt});
  if (real) mmu_want(s, cycle + kRtlLatency + 1);  // its results act then
  if (sw.in_flight.size() <= kRtlLatency) return;  // pipeline filling: no results yet
  const SwitchNode::InFlight done = sw.in_flight.front();
  sw.in_flight.pop_front();
  sw.real_in_flight -= !done.in.idle();
  if (out.error())
    throw std::runtime_error("switch " + topo_.name(s) + ": MMU protocol error at cycle " +
                             std::to_string(cycle - kRtlLatency) + (out.enq_error ? " (enqueue)" : " (dequeue)"));
  if (on_retire && !done.in.idle()) on_retire(s, done.in);
  if (done.pkt || out.n_events) {
    sw.st.peak_s = std::max(sw.st.peak_s, sw.mmu->s());
    sw.have_result = true;
    sw.result = out;
    sw.result_pkt = done.pkt;
    sw.result_cycle = cycle;
  }
}

// Cycle c at its start: the cycles since the last one stepped are stepped
// idle (skipped at once while nothing real is in flight); the results of
// cycle c-1 act (they came out at its end); then cycle c takes the oldest
// waiting enqueue and dequeue.
void Fabric::mmu_tick(int s, uint64_t c) {
  SwitchNode& sw = *sw_[s];
  if (c < sw.next_cycle) return;  // already stepped
  try {
    if (sw.lag) {
      if (sw.next_cycle < c) {  // idle cycles: no results (the state machines run only on requests)
        sw.mmu->skip_idle(c - sw.next_cycle);
        sw.next_cycle = c;
        sw.st.mmu_cycles = c;
      }
      if (!sw.decided.empty() && sw.decided.front().act <= c) {
        const SwitchNode::Decided& d = sw.decided.front();
        if (d.act < c)
          throw std::logic_error("switch " + topo_.name(s) + ": MMU results due at cycle " + std::to_string(d.act) +
                                 " found late, at cycle " + std::to_string(c));
        sw.have_result = true;
        sw.result = d.out;
        sw.result_pkt = d.pkt;
        sw.decided.pop_front();
      }
    } else {
      while (sw.next_cycle < c) {
        if (!sw.real_in_flight) {
          const CycleOut& out = sw.mmu->skip_idle(c - sw.next_cycle);
          if (on_mmu_out) on_mmu_out(s, out);
          sw.next_cycle = c;
          sw.st.mmu_cycles = c;
          break;
        }
        mmu_step(s, CycleIn{}, nullptr);
        if (sw.have_result && sw.result_cycle + 1 < c)
          throw std::logic_error("switch " + topo_.name(s) + ": MMU results of cycle " +
                                 std::to_string(sw.result_cycle) + " found late, at cycle " + std::to_string(c));
      }
    }
    if (sw.have_result) mmu_apply(s);
    const uint64_t now = ev_.now();
    CycleIn in;
    Pkt* enq_pkt = nullptr;
    if (!sw.enq.empty()) {
      in.enq = sw.enq.front().op;
      enq_pkt = sw.enq.front().pkt;
      sw.st.max_enq_wait_ps = std::max(sw.st.max_enq_wait_ps, now - sw.enq.front().at);
      sw.enq.pop_front();
    }
    if (!sw.deq.empty()) {
      in.deq = sw.deq.front().op;
      sw.st.max_deq_wait_ps = std::max(sw.st.max_deq_wait_ps, now - sw.deq.front().at);
      sw.deq.pop_front();
    }
    mmu_step(s, in, enq_pkt);
    if (sw.have_result || !sw.enq.empty() || !sw.deq.empty()) mmu_want(s, c + 1);
  } catch (const std::exception& e) {
    error = e.what();
    ev_.stop();
  }
}

void Fabric::mmu_apply(int s) {
  SwitchNode& sw = *sw_[s];
  sw.have_result = false;
  if (Pkt* p = sw.result_pkt) {
    sw.result_pkt = nullptr;
    NetFlow& f = flows_[p->flow];
    if (sw.result.region == Region::Drop) {
      ++sw.st.drops;
      if (topo_.host_switch(int(p->src)) == s) f.dropped += p->bytes;
      release(p);
    } else {
      if (topo_.host_switch(int(p->src)) == s) f.admitted += p->bytes;
      port_push(tx_[s][p->out_port], p);
    }
  }
  for (unsigned i = 0; i < sw.result.n_events; ++i) {
    const Event& e = sw.result.events[i];
    const bool pause = e.kind == Event::Pause || e.kind == Event::PortPause;
    ++(pause ? sw.st.pause_frames : sw.st.resume_frames);
    if (on_control) on_control(s, e);
    Pkt* f = control(Pkt::Pause, p_.pause_frame_bytes);
    f->fc = e;
    if (size_t(e.port) < tx_[s].size()) port_push(tx_[s][e.port], f);
    else release(f);
  }
}

}  // namespace dsh::net
