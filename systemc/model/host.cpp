// SPDX-License-Identifier: Apache-2.0
#include "host.h"

#include <algorithm>

namespace dsh::net {

Host::Host(NetContext& ctx, int host, int node) : ctx_(ctx), host_(host), ports_(make_ports(ctx, *this, node)) {
  wake_.fill(~uint64_t(0));
}

void Host::start_flow(int32_t fi) {
  NetFlow& f = ctx_.flows[fi];
  f.started = true;
  f.next_ok_ps = ctx_.ev.now();
  active_[f.cls].push_back(fi);
  if (nic().q[f.cls].empty()) refill(f.cls);
}

void Host::on_tx_start(Port&, Pkt& p) {
  if (p.kind == Pkt::Data) ctx_.flows[p.flow].cc->on_send(p.bytes);
}

void Host::on_tx_empty(Port&, unsigned cls) {
  if (cls != kControlClass) refill(cls);
}

// One packet of the class's next flow that may send (round robin among the
// class's flows); when none may send yet, a wake-up at the earliest time
// one may.
void Host::refill(unsigned cls) {
  Port& port = nic();
  if (!port.q[cls].empty()) return;
  auto& act = active_[cls];
  const uint64_t now = ctx_.ev.now();
  uint64_t earliest = ~uint64_t(0);
  for (size_t i = 0, n = act.size(); i < n; ++i) {
    const int32_t fi = act.front();
    act.pop_front();
    NetFlow& f = ctx_.flows[fi];
    if (f.bytes && f.generated >= f.bytes) continue;  // all sent: leaves the rotation
    act.push_back(fi);
    if (f.next_ok_ps > now) {
      earliest = std::min(earliest, f.next_ok_ps);
      continue;
    }
    // A full window waits for an ACK (ack_arrives refills).
    if (!f.cc->window_open(f.generated - f.acked)) continue;
    Pkt* p = ctx_.pool.alloc();
    p->kind = Pkt::Data;
    p->src = uint32_t(host_);
    p->dst = f.dst;
    p->cls = f.cls;
    p->dscp = ctx_.p.class_dscp[f.cls];
    p->flow = fi;
    p->seq = f.next_seq++;
    const uint64_t size = ctx_.p.packet_bytes;
    p->bytes = uint32_t(f.bytes ? std::min<uint64_t>(size, f.bytes - f.generated) : size);
    f.generated += p->bytes;
    if (f.cc->wants_acks()) ctx_.pool.add_telemetry(*p);
    const double r = f.cc->rate_gbps();
    if (r < port.gbps) f.next_ok_ps = now + uint64_t(double(p->bytes) * 8000.0 / r + 0.5);
    port.push(p);
    return;
  }
  if (earliest != ~uint64_t(0) && earliest < wake_[cls]) {
    wake_[cls] = earliest;
    ctx_.ev.at(earliest, [this, cls, earliest] {
      if (wake_[cls] != earliest) return;  // superseded by an earlier one
      wake_[cls] = ~uint64_t(0);
      refill(cls);
    });
  }
}

void Host::receive(int, Pkt* p) {
  switch (p->kind) {
    case Pkt::Pause: nic().flow_control().frame_arrives(p); return;
    case Pkt::Ack: ack_arrives(p); return;
    case Pkt::Cnp: {
      NetFlow& f = ctx_.flows[p->flow];
      ctx_.pool.release(p);
      f.cnp_rx_ps = ctx_.ev.now();
      f.cc->on_cnp();
      return;
    }
    case Pkt::Data: deliver(p); return;
  }
}

void Host::deliver(Pkt* p) {
  const uint64_t now = ctx_.ev.now();
  const int32_t fi = p->flow;
  NetFlow& f = ctx_.flows[fi];
  if (f.delivered == 0) f.first_rx_ps = now;
  f.delivered += p->bytes;
  if (p->seq != f.expect_seq) ++f.reordered;
  f.expect_seq = p->seq + 1;
  if (ctx_.obs.on_deliver) ctx_.obs.on_deliver(fi, p->bytes);
  if (p->ecn && f.cc->answers_marks() &&
      (!f.cnp_sent || now - f.last_cnp_ps >= uint64_t(ctx_.p.cnp_interval_us * 1e6))) {
    f.cnp_sent = true;
    f.last_cnp_ps = now;
    Pkt* c = ctx_.pool.control(Pkt::Cnp, ctx_.p.cnp_bytes);
    c->src = uint32_t(host_);
    c->dst = f.src;
    c->flow = fi;
    nic().push(c);
  }
  if (f.cc->wants_acks()) send_ack(*p);
  ctx_.pool.release(p);
  if (f.bytes && f.delivered >= f.bytes && !f.done) {
    f.done = true;
    f.done_ps = now;
    if (ctx_.obs.on_flow_done) ctx_.obs.on_flow_done(fi);
  }
}

// The receiver answers every data packet with an ACK of the bytes it has in
// order, carrying the data packet's telemetry (the ACK takes it over).
void Host::send_ack(Pkt& d) {
  const NetFlow& f = ctx_.flows[d.flow];
  Pkt* a = ctx_.pool.control(Pkt::Ack, ctx_.p.ack_bytes);
  a->src = uint32_t(host_);
  a->dst = f.src;
  a->flow = d.flow;
  a->seq = d.seq;
  a->tel = d.tel;
  d.tel = -1;
  ctx_.pool.telemetry(*a).ack_bytes = f.delivered;
  nic().push(a);
}

void Host::ack_arrives(Pkt* a) {
  NetFlow& f = ctx_.flows[a->flow];
  const IntStack& tel = ctx_.pool.telemetry(*a);
  f.acked = std::max(f.acked, tel.ack_bytes);
  f.cc->on_ack(tel, f.generated);
  ctx_.pool.release(a);
  // The window may have opened: a class with nothing queued takes a packet.
  if (nic().q[f.cls].empty()) refill(f.cls);
}

}  // namespace dsh::net
