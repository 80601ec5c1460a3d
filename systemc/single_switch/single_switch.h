// SPDX-License-Identifier: Apache-2.0
// The single-switch scenarios (S1 pfc-avoidance, saturate) on the switch
// model (fabric.h): one switch whose port h leads to host h, every link at
// its port's rate (link.rate_gbps, link.port_rate_gbps) and
// link.prop_delay_ns. What is S1's lives here, outside the model: which
// flows, when the fan-in starts (after settle_us, once every background
// source has been paused once, plus settle_after_pause_us), the stop rule,
// and the figures (PAUSE frames toward fan-in hosts, headroom peaks), all
// taken through the model's hooks.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "fabric.h"
#include "params.h"
#include "wire_params.h"

namespace dsh::sc {

// The single switch's topology: node "switch" with one host per port
// ("host0", "host1", ...), each link at its port's rate.
std::unique_ptr<net::Topology> star_topology(const Params& p);

// Flow groups of a single-switch scenario.
inline constexpr int kBackground = 0, kFanin = 1, kReverse = 2;

// Mirrors for a waveform trace (sc_trace), updated by the model's hooks at
// the cycles that touch them; per port, the queue of the class its traced
// flow uses. The RTL backend reports T only: its X_* stay 0.
struct SwitchTrace {
  uint64_t s = 0, t = 0, x_qoff = 0, x_qon = 0, x_poff = 0, x_pon = 0;
  std::vector<uint64_t> q_cells, q_shared, q_hdrm, port_shared, port_hdrm;
  std::deque<bool> qoff, poff;  // addressable, for sc_trace
  std::vector<int> cls;  // per port: traced class, -1 = not traced
};

struct SingleSwitchStats {
  uint64_t fanin_pause_frames = 0;  // PAUSE / PORT_PAUSE toward hosts that send fan-in flows
  uint64_t peak_queue_hdrm = 0, peak_port_hdrm = 0;
};

class SingleSwitch {
 public:
  // The MMU has the decision latency kRtlLatency, or none (mmu_clock.h).
  SingleSwitch(const Params& p, std::unique_ptr<MmuModel> mmu);
  ~SingleSwitch();

  // The scenario's flows: background, fan-in (total burst_bytes, split
  // evenly over hosts and classes; endless for Kind::Saturate), reverse-link
  // loaders. Tests may add their own through fabric().add_flow instead
  // (start_ps kNever with group kFanin: started by the fan-in rule).
  void add_scenario_flows(uint64_t burst_bytes);
  // Registers the stop rule and the fan-in start; call once before run().
  void arm();
  // Mirrors `ports` into trace() (before arm()).
  void trace_ports(const std::vector<unsigned>& ports);

  net::Fabric& fabric() { return *fab_; }
  net::EventQueue& events() { return fab_->events(); }
  const net::Topology& topology() const { return *topo_; }
  const SingleSwitchStats& stats() const { return st_; }
  SwitchTrace& trace() { return trace_; }
  MmuModel& mmu() { return fab_->mmu(0); }
  const net::Port& nic(unsigned host) const { return fab_->tx(topo_->host_node(int(host)), 0); }
  double fanin_start_us() const { return double(fanin_start_ps_) / 1e6; }
  double fanin_paused_us() const;  // sum over fan-in hosts of the time their flow's class was paused
  bool finished() const;           // every fan-in byte admitted or dropped, no fan-in sender paused

 private:
  void on_control(const Event& e);
  void start_fanin();

  Params p_;
  std::unique_ptr<net::Topology> topo_;
  std::unique_ptr<net::Fabric> fab_;
  SingleSwitchStats st_;
  SwitchTrace trace_;
  bool tracing_ = false;
  std::vector<bool> fanin_host_, bg_unpaused_;  // per host; background sources that have not paused yet
  size_t bg_unpaused_n_ = 0;
  bool waiting_for_bg_ = false;  // settle_us passed, the fan-in waits for the background to pause
  uint64_t fanin_start_ps_ = 0;
  static constexpr uint64_t kWatchTick = 2'000'000;  // ps between checks of the stop rule
  std::function<void()> watch_;
  bool done_ = false;       // the fan-in finished at the last check ...
  uint64_t done_since_ = 0;  // ... and since then
};

}  // namespace dsh::sc
