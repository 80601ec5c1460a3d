// SPDX-License-Identifier: Apache-2.0
#include "switch.h"

namespace dsh::net {

Switch::Switch(NetContext& ctx, int sw, SwitchChip chip)
    : ctx_(ctx),
      id_(sw),
      cell_bytes_(chip.cell_bytes),
      ports_(make_ports(ctx, *this, sw)),
      clock_(ctx, *this, sw, ctx.topo.name(sw), std::move(chip.mmu), chip.mmu_clock_ghz, st_) {}

void Switch::receive(int port, Pkt* p) {
  if (p->kind == Pkt::Pause) {
    ports_[port].flow_control().frame_arrives(p);
    return;
  }
  // ECMP (topology.h): a CNP carries its flow's id from receiver to sender.
  const int out = ctx_.topo.route(id_, FlowTuple{p->src, p->dst, uint32_t(p->flow)});
  if (out < 0) {
    ctx_.fail("switch " + ctx_.topo.name(id_) + " has no route to " + ctx_.topo.name(ctx_.topo.host_node(int(p->dst))));
    ctx_.pool.release(p);
    return;
  }
  if (p->kind != Pkt::Data) {  // CNP, ACK: class 7, outside the lossless accounting
    ports_[out].push(p);
    return;
  }
  p->cls = ctx_.p.dscp_queue[p->dscp & 63];  // DSCP-based PFC: the packet's DSCP names its queue
  p->in_port = uint16_t(port);
  p->out_port = uint16_t(out);
  p->cells = uint32_t(cells_of(p->bytes, cell_bytes_));
  clock_.enqueue(p, Op{true, uint32_t(port), p->cls, p->cells});
}

void Switch::on_tx_start(Port& port, Pkt& p) {
  if (p.kind != Pkt::Data) return;
  ++st_.forwarded;
  clock_.dequeue(Op{true, p.in_port, p.cls, p.cells});
  // PowerTCP: the packet has left the queue, the bytes behind it are the
  // queue length.
  if (p.tel >= 0) ctx_.pool.telemetry(p).push(IntHop{ctx_.ev.now(), port.rx_bytes, port.queued_bytes(), port.gbps});
  if (ctx_.p.dcqcn && !p.ecn) mark_ecn(port, p);
}

// The PFC watchdog drops an admitted packet: it leaves the buffer as a
// dequeue does.
void Switch::on_discard(Port&, const Pkt& p) { clock_.dequeue(Op{true, p.in_port, p.cls, p.cells}); }

void Switch::mark_ecn(const Port& port, Pkt& p) {
  const FabricParams& fp = ctx_.p;
  const double scale = port.gbps / 100.0;
  const double prob = ecn_mark_probability(port.qbytes[p.cls], uint64_t(fp.kmin_kb_100g * 1000 * scale),
                                           uint64_t(fp.kmax_kb_100g * 1000 * scale), fp.pmax);
  if (prob > 0 && std::uniform_real_distribution<double>(0, 1)(ctx_.rng) < prob) {
    p.ecn = true;
    ++st_.ecn_marked;
  }
}

void Switch::mmu_decided(Pkt* p, Region region) {
  NetFlow& f = ctx_.flows[p->flow];
  const bool first = ctx_.topo.host_switch(int(p->src)) == id_;
  if (region == Region::Drop) {
    ++st_.drops;
    if (first) f.dropped += p->bytes;
    ctx_.pool.release(p);
  } else {
    if (first) f.admitted += p->bytes;
    ports_[p->out_port].push(p);
  }
}

void Switch::mmu_event(const Event& e) {
  const bool pause = e.kind == Event::Pause || e.kind == Event::PortPause;
  ++(pause ? st_.pause_frames : st_.resume_frames);
  if (ctx_.obs.on_control) ctx_.obs.on_control(id_, e);
  if (size_t(e.port) < ports_.size()) ports_[e.port].flow_control().send(e);
}

}  // namespace dsh::net
