// SPDX-License-Identifier: Apache-2.0
#include "port.h"

namespace dsh::net {

void PauseGate::settle(uint64_t now) {
  for (unsigned c = 0; c < kClasses; ++c) {
    const bool p = paused(c);
    if (p == seen[c]) continue;
    if (p) paused_since[c] = now;
    else paused_ps[c] += now - paused_since[c];
    seen[c] = p;
  }
}

Port::Port(NetContext& ctx, Node& owner, int node_, int port_, const PortSpec& spec)
    : node(node_),
      port(port_),
      peer(spec.peer),
      peer_port(spec.peer_port),
      ps_per_byte(8000.0 / spec.gbps),
      prop_ps(uint64_t(spec.delay_ns * 1000.0 + 0.5)),
      gbps(spec.gbps),
      arb(ctx.p.dwrr_quantum_bytes),
      ctx_(&ctx),
      owner_(&owner) {}

void Port::connect(Node* peer_node) {
  peer_node_ = peer_node;
  fc_ = make_flow_control(*ctx_, *this);
  // Packets arrive in the order they were sent on a link: one lane.
  lane_ = ctx_->ev.add_lane(
      [](void* port, void* pkt) {
        Port& x = *static_cast<Port*>(port);
        x.peer_node_->receive(x.peer_port, static_cast<Pkt*>(pkt));
      },
      this);
}

void Port::push(Pkt* p) {
  if (discard[p->cls] && p->kind == Pkt::Data) return drop(p);
  auto& cq = q[p->cls];
  if (p->kind == Pkt::Pause) {
    // The MAC sends PFC frames before any queued CNP (their order among
    // themselves kept), so that a CNP burst never delays a pause.
    size_t i = 0;
    while (i < cq.size() && cq[i]->kind == Pkt::Pause) ++i;
    cq.insert(i, p);
  } else {
    cq.push_back(p);
  }
  qbytes[p->cls] += p->bytes;
  rx_bytes += p->bytes;
  try_start();
}

void Port::try_start() {
  if (busy || !connected()) return;
  const int c = arb.pick([this](unsigned k) -> uint64_t { return q[k].empty() ? 0 : q[k].front()->bytes; },
                         [this](unsigned k) { return tx_pause(k); });
  if (c < 0) return;
  EventQueue& ev = ctx_->ev;
  Pkt* p = q[c].front();
  q[c].pop_front();
  qbytes[c] -= p->bytes;
  busy = true;  // before the callbacks: a refill must not start a second packet
  if (unsigned(c) != kControlClass) last_start_ps = ev.now();
  // A host refills a class that ran empty before the arbiter sees it: a
  // flow with more to send keeps its class backlogged (and its deficit).
  if (q[c].empty()) owner_->on_tx_empty(*this, unsigned(c));
  else __builtin_prefetch(q[c].front());  // the class's next packet: the arbiter reads it when this one is out
  arb.popped(unsigned(c), q[c].empty());
  if (p->kind == Pkt::Pause) fc_->frame_starts(*p);
  owner_->on_tx_start(*this, *p);
  if (ctx_->obs.on_wire) ctx_->obs.on_wire(*this, *p);
  const uint64_t ser = ser_ps(p->bytes);
  ev.call_at(
      ev.now() + ser,
      [](void* port, void*) {
        Port& x = *static_cast<Port*>(port);
        x.busy = false;
        x.try_start();
      },
      this, nullptr);
  p->to_node = peer;
  p->to_port = uint16_t(peer_port);
  if (wire) wire(p, ser);
  else ev.lane_at(lane_, ev.now() + ser + prop_ps, p);
}

void Port::set_discard(unsigned cls, bool on) {
  discard[cls] = on;
  if (!on) return;
  auto& cq = q[cls];  // a lossless class: data only
  while (!cq.empty()) {
    Pkt* p = cq.front();
    cq.pop_front();
    qbytes[cls] -= p->bytes;
    drop(p);
  }
}

void Port::drop(Pkt* p) {
  ++discarded;
  owner_->on_discard(*this, *p);
  ctx_->pool.release(p);
}

std::vector<Port> make_ports(NetContext& ctx, Node& owner, int node) {
  const auto& specs = ctx.topo.ports(node);
  std::vector<Port> ports;
  ports.reserve(specs.size());
  for (size_t i = 0; i < specs.size(); ++i) ports.emplace_back(ctx, owner, node, int(i), specs[i]);
  return ports;
}

}  // namespace dsh::net
