// SPDX-License-Identifier: Apache-2.0
#include "single_switch.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace dsh::sc {

using net::Fabric;

std::unique_ptr<net::Topology> star_topology(const Params& p) {
  std::vector<std::string> hosts;
  std::vector<net::LinkSpec> links;
  for (unsigned i = 0; i < p.mmu.n_ports; ++i) {
    hosts.push_back("host" + std::to_string(i));
    links.push_back(net::LinkSpec{"switch", hosts.back(), p.rate_gbps(i), p.prop_delay_ns, false});
  }
  return std::make_unique<net::Topology>(std::vector<std::string>{"switch"}, hosts, links, std::vector<net::Route>{});
}

namespace {

net::FabricParams fabric_params(const Params& p) {
  net::FabricParams f;
  f.mtu_bytes = p.mtu_bytes;
  f.packet_bytes = p.packet_bytes;
  f.processing_bytes = p.processing_bytes;
  f.pause_frame_bytes = p.pause_frame_bytes;
  f.dwrr_quantum_bytes = p.dwrr_quantum_bytes;
  set_wire(f, p.wire);
  return f;
}

uint64_t ps_of_ns(double ns) { return uint64_t(std::llround(ns * 1000.0)); }

}  // namespace

SingleSwitch::SingleSwitch(const Params& p, std::unique_ptr<MmuModel> mmu) : p_(p), topo_(star_topology(p)) {
  std::vector<net::SwitchChip> chips;
  chips.push_back(net::SwitchChip{p.cell_bytes, p.mmu_clock_ghz, std::move(mmu)});
  fab_ = std::make_unique<Fabric>(*topo_, std::move(chips), fabric_params(p));
  fab_->on_control = [this](int, const Event& e) { on_control(e); };
  fab_->on_retire = [this](int, const Op* slots, unsigned n) {
    MmuModel& m = fab_->mmu(0);
    if (tracing_) trace_.s = m.s();
    for (const Op* op = slots; op != slots + n; ++op) {
      const QueueState q = m.queue(op->port, op->queue);
      const PortState ps = m.port(op->port);
      st_.peak_queue_hdrm = std::max(st_.peak_queue_hdrm, q.hdrm);
      st_.peak_port_hdrm = std::max(st_.peak_port_hdrm, ps.hdrm);
      if (!tracing_) continue;
      const unsigned pt = op->port;
      if (trace_.cls[pt] == int(op->queue)) {
        trace_.q_cells[pt] = q.total();
        trace_.q_shared[pt] = q.shared;
        trace_.q_hdrm[pt] = q.hdrm;
        trace_.qoff[pt] = q.qoff;
      }
      if (trace_.cls[pt] >= 0) {
        trace_.port_shared[pt] = ps.shared;
        trace_.port_hdrm[pt] = ps.hdrm;
        trace_.poff[pt] = ps.poff;
      }
    }
  };
  fanin_host_.assign(p.mmu.n_ports, false);
  bg_unpaused_.assign(p.mmu.n_ports, false);
}

SingleSwitch::~SingleSwitch() = default;

void SingleSwitch::add_scenario_flows(uint64_t burst_bytes) {
  const Params& p = p_;
  auto add = [&](int src, int dst, unsigned cls, uint64_t bytes, double base_ns, int group) {
    const uint64_t at = base_ns < 0 ? Fabric::kNever : ps_of_ns(base_ns + p.start_stagger_ns * p.port_of(src));
    fab_->add_flow(p.port_of(src), p.port_of(dst), uint8_t(cls), bytes, at, group);
  };
  for (int h : p.background_srcs) add(h, p.background_dst, p.background_class, 0, 0, kBackground);
  const bool sat = p.kind == Kind::Saturate;
  const uint64_t each = sat ? 0 : std::max<uint64_t>(1, burst_bytes / (p.fanin_srcs.size() * p.fanin_classes.size()));
  for (int h : p.fanin_srcs)
    for (int c : p.fanin_classes) add(h, p.fanin_dst, unsigned(c), each, sat ? 0 : -1.0, kFanin);
  for (size_t k = 0; k < p.reverse_srcs.size(); ++k)
    add(p.reverse_srcs[k], p.fanin_srcs[k], p.reverse_class, 0, 0, kReverse);
}

void SingleSwitch::trace_ports(const std::vector<unsigned>& ports) {
  const unsigned np = p_.mmu.n_ports;
  for (auto* v : {&trace_.q_cells, &trace_.q_shared, &trace_.q_hdrm, &trace_.port_shared, &trace_.port_hdrm})
    v->assign(np, 0);
  trace_.qoff.assign(np, false);
  trace_.poff.assign(np, false);
  trace_.cls.assign(np, -1);
  for (unsigned pt : ports)
    for (const auto& f : fab_->flows())
      if (f.src == pt && trace_.cls[pt] < 0) trace_.cls[pt] = f.cls;
  tracing_ = true;
  fab_->on_mmu_out = [this](int, const Thresholds& thr) {
    trace_.t = thr.t;
    trace_.x_qoff = thr.x_qoff;
    trace_.x_qon = thr.x_qon;
    trace_.x_poff = thr.x_poff;
    trace_.x_pon = thr.x_pon;
  };
}

void SingleSwitch::on_control(const Event& e) {
  const bool pause = e.kind == Event::Pause || e.kind == Event::PortPause;
  if (!pause || e.port >= fanin_host_.size()) return;
  if (fanin_host_[e.port]) ++st_.fanin_pause_frames;
  if (!bg_unpaused_[e.port]) return;
  bg_unpaused_[e.port] = false;
  if (--bg_unpaused_n_ == 0 && waiting_for_bg_) {
    waiting_for_bg_ = false;
    events().after(ps_of_ns(p_.settle_after_pause_us * 1000.0), [this] { start_fanin(); });
  }
}

void SingleSwitch::arm() {
  net::EventQueue& ev = events();
  bool deferred = false;
  for (const auto& f : fab_->flows()) {
    if (f.group == kFanin) fanin_host_[f.src] = true;
    deferred |= f.start_ps == Fabric::kNever;
    if (f.group == kFanin || f.start_ps == Fabric::kNever || p_.kind != Kind::PfcAvoidance) continue;
    bool bg = false;
    for (int h : p_.background_srcs) bg |= p_.port_of(h) == f.src;
    if (bg && !bg_unpaused_[f.src]) {
      bg_unpaused_[f.src] = true;
      ++bg_unpaused_n_;
    }
  }
  // The fan-in starts at settle_us, or once every background source has
  // been paused once plus settle_after_pause_us.
  if (deferred)
    ev.at(ps_of_ns(p_.settle_us * 1000.0), [this] {
      if (bg_unpaused_n_) waiting_for_bg_ = true;
      else start_fanin();
    });
  // The stop rule, every 2 us: at max_run_us (saturate: run_us), or once
  // the fan-in has finished and stayed so for 10 us.
  const double end_us = p_.kind == Kind::Saturate ? std::min(p_.run_us, p_.max_run_us) : p_.max_run_us;
  const uint64_t end_ps = uint64_t(end_us * 1e6);
  watch_ = [this, end_ps] {
    const uint64_t grace = 10'000'000;
    const uint64_t now = events().now();
    if (now >= end_ps) return fab_->stop();
    if (p_.kind == Kind::PfcAvoidance) {
      if (!finished()) {
        done_ = false;
      } else if (!done_) {
        done_ = true;
        done_since_ = now;
      } else if (now - done_since_ >= grace) {
        return fab_->stop();
      }
    }
    events().after(kWatchTick, [this] { watch_(); });
  };
  ev.at(kWatchTick, [this] { watch_(); });
}

void SingleSwitch::start_fanin() {
  std::vector<std::pair<uint64_t, int32_t>> todo;  // stagger offset, flow
  const auto& fl = fab_->flows();
  for (size_t i = 0; i < fl.size(); ++i)
    if (fl[i].start_ps == Fabric::kNever)
      todo.emplace_back(uint64_t(std::llround(p_.start_stagger_ns * 1000.0 * fl[i].src)), int32_t(i));
  std::stable_sort(todo.begin(), todo.end());
  fanin_start_ps_ = events().now();
  for (const auto& [off, fi] : todo) fab_->start_flow_at(fi, fanin_start_ps_ + off);
}

bool SingleSwitch::finished() const {
  MmuModel& m = fab_->mmu(0);
  for (const auto& f : fab_->flows()) {
    if (f.group != kFanin) continue;
    if (!f.bytes || f.admitted + f.dropped < f.bytes) return false;
    if (nic(f.src).tx_pause(f.cls) || m.queue(f.src, f.cls).qoff || m.port(f.src).poff) return false;
  }
  return true;
}

double SingleSwitch::fanin_paused_us() const {
  std::set<std::pair<uint32_t, uint8_t>> seen;
  uint64_t total = 0;
  const uint64_t now = fab_->events().now();
  for (const auto& f : fab_->flows())
    if (f.group == kFanin && seen.insert({f.src, f.cls}).second) total += nic(f.src).paused_total_ps(f.cls, now);
  return double(total) / 1e6;
}

}  // namespace dsh::sc
