// SPDX-License-Identifier: Apache-2.0
// The switch model (issue 22: one model for every scenario, S1 to S4): a
// network of shared-buffer switches and hosts whose timed actions are
// callbacks in one event queue ordered by (time, phase, sequence number)
// (event_queue.h), so that the model, not a simulation kernel, orders
// same-time events. The single-switch scenarios (S1, worst case) are the
// one-switch topology (single_switch.h); S2/S3 are networks. The queue is
// run either directly (run.kernel = events) or by the SystemC kernel through
// TLM-2.0 sockets (tlm_netlist.h); both give the same results.
//
// Each switch steps its own MMU (golden, RTL or lockstep behind
// dsh::MmuModel): one enqueue and one dequeue per MMU cycle in request
// order, an enqueue in the first cycle starting at or after the packet's
// last bit arrived, a dequeue when the packet starts on the wire, results
// after kRtlLatency cycles at the end of the cycle they come out in; cycles
// without a request or a result are skipped once the MMU is quiet
// (MmuModel::skip_idle). The RTL has that latency itself; the golden model
// of a network switch (ChipSpec) decides when stepped and the fabric holds
// its results for kRtlLatency cycles, which gives the same results without
// stepping the delay line's idle cycles. A model given as SwitchChip (the
// single switch's) has the latency from its maker, so that the hooks
// (on_retire, on_mmu_out) read its state in step with its outputs. PAUSE/RESUME frames (level mode, spec §6.2)
// are 64 B class-7 frames toward the peer of the paused ingress port, sent
// before any queued CNP; they act processing_bytes at link rate after their
// first bit arrived (spec §7.1 item 3) and stop the peer's class (or, for a
// DSH port pause, every lossless class) between packets. Class 7 (PAUSE,
// CNP) bypasses the MMU: it is not lossless traffic and the paper's model
// keeps one queue for it.
//
// Hosts send flows as packets with per-flow sequence numbers through a
// per-flow rate limiter (DCQCN's rate when congestion control is on); the
// receiver counts bytes, checks order, records completion and answers an
// ECN-marked packet with a CNP at most once per cnp_interval per flow.
// With PowerTCP (powertcp.h) a flow's packets carry in-band telemetry that
// each switch egress stamps as the packet starts on the wire; the receiver
// answers every data packet with an ACK (class 7, like a CNP) echoing it,
// and the sender keeps at most its window unacknowledged, paced at
// window / base RTT. Without PowerTCP no packet carries telemetry and no
// ACK is sent.
// Scenario knowledge stays outside: a scenario watches through the hooks
// (on_control, on_retire, on_deliver, ...).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "class_arbiter.h"
#include "config.h"
#include "dcqcn.h"
#include "event_queue.h"
#include "mmu_model.h"
#include "powertcp.h"
#include "ring.h"
#include "topology.h"

namespace dsh::net {

// One cache line each (alignas): a packet is read at each hop after long
// waits in queues, so one miss, not two, brings it in.
struct alignas(64) Pkt {
  enum Kind : uint8_t { Data, Cnp, Pause, Ack };
  Kind kind = Data;
  uint8_t cls = 0;
  bool ecn = false;
  uint16_t in_port = 0, out_port = 0;  // at the switch holding it
  uint16_t to_port = 0;                // on the wire: where it arrives
  int32_t to_node = -1;
  uint32_t src = 0, dst = 0;  // hosts
  uint32_t bytes = 0, cells = 0;
  int32_t flow = -1;
  uint32_t seq = 0;
  int32_t tel = -1;  // PowerTCP: its telemetry (Fabric::telemetry), -1 none
  Event fc{};  // PAUSE frames
};

inline constexpr uint64_t kNoTime = ~uint64_t(0);

struct NetFlow {
  uint32_t src = 0, dst = 0;
  uint8_t cls = 0;
  uint64_t bytes = 0;     // 0: endless
  uint64_t start_ps = 0;
  int group = 0;          // the scenario's label (long-lived, fan-in, background)
  // state
  bool started = false, done = false;
  uint64_t generated = 0, delivered = 0;
  uint64_t admitted = 0, dropped = 0;  // bytes, at the first switch that admitted or dropped them
  uint32_t next_seq = 0, expect_seq = 0;
  uint64_t first_rx_ps = 0, done_ps = 0;
  uint64_t next_ok_ps = 0;     // rate limiter: earliest start of its next packet
  uint64_t last_cnp_ps = 0;    // receiver: last CNP it sent
  uint64_t cnp_rx_ps = kNoTime; // sender: last CNP it got
  bool cnp_sent = false;
  uint64_t reordered = 0;
  uint64_t increase_armed_ps = ~uint64_t(0);  // the increase-timer event in the queue
  std::unique_ptr<Dcqcn> cc;   // null: line rate
  std::unique_ptr<PowerTcp> ptcp;  // PowerTCP's sender; null: not a PowerTCP flow
  uint64_t acked = 0;          // PowerTCP: bytes the receiver has acknowledged
};

struct ChipSpec {
  Config mmu;                  // headroom_cells set per switch
  uint64_t cell_bytes = 256;
  double mmu_clock_ghz = 1.0;
  Backend backend = Backend::Golden;  // golden, rtl or lockstep for this switch
};

struct FabricParams {
  uint64_t mtu_bytes = 1500, packet_bytes = 1500;
  uint64_t processing_bytes = 3840, pause_frame_bytes = 64, cnp_bytes = 64;
  uint64_t dwrr_quantum_bytes = 1600;
  bool dcqcn = false;
  DcqcnParams dcqcn_params;     // line_gbps set per host
  bool powertcp = false;
  PowerTcpParams powertcp_params;  // line_gbps set per host
  uint64_t ack_bytes = 64;      // PowerTCP's ACK frame (class 7)
  double kmin_kb_100g = 400, kmax_kb_100g = 1600, pmax = 0.2;  // KB = 1000 B, scaled by link rate
  double cnp_interval_us = 4;
  uint64_t seed = 1;
  bool full_compare = false;
  unsigned rtl_fault = 0;  // rtl/lockstep: a planted fault of tb/faults/dsh_faults.sv (the checker's self-test)
  std::string mismatch_dir = ".";
};

class Fabric;

// One direction of a link: 8 class FIFOs, the class arbiter, the pause
// state set by the peer's PAUSE frames.
struct TxPort {
  Fabric* fab = nullptr;
  int node = -1, port = -1, peer = -1, peer_port = -1;
  double ps_per_byte = 80;
  uint64_t prop_ps = 0;
  double gbps = 100;
  std::array<Ring<Pkt*>, kClasses> q;
  std::array<uint64_t, kClasses> qbytes{};
  uint64_t rx_bytes = 0;  // bytes that entered the queues so far (PowerTCP's INT)
  ClassArbiter arb{1600};
  bool busy = false;
  std::array<bool, kClasses> q_paused{};
  bool port_paused = false;
  std::array<bool, kClasses> pause_seen{};  // tx_pause per class as last accounted (and traced)
  std::array<uint64_t, kClasses> paused_ps{}, paused_since{};
  uint64_t last_start_ps = 0;  // when a lossless packet last started (deadlock detector)
  uint32_t lane = 0;           // the event-queue lane of its packets in flight (fabric delivers them)
  // Hands a packet that starts now to the link, `ser` ps of serialization;
  // empty: the fabric delivers it itself after ser + prop_ps.
  std::function<void(Pkt*, uint64_t ser)> wire;
  uint64_t ser_ps(uint64_t bytes) const { return uint64_t(double(bytes) * ps_per_byte + 0.5); }
  bool tx_pause(unsigned c) const { return c != kControlClass && (q_paused[c] || port_paused); }
  // Level-mode PAUSE/RESUME of a class, PORT_PAUSE/RESUME of all, at `now`.
  void set_pause(const Event& e, uint64_t now);
  uint64_t paused_total_ps(unsigned c, uint64_t now) const {
    return paused_ps[c] + (pause_seen[c] ? now - paused_since[c] : 0);
  }
  bool connected() const { return peer >= 0; }
  size_t lossless_queued() const {
    size_t n = 0;
    for (unsigned c = 0; c < kControlClass; ++c) n += q[c].size();
    return n;
  }
};

struct SwitchStats {
  uint64_t forwarded = 0, drops = 0, pause_frames = 0, resume_frames = 0;
  uint64_t mmu_cycles = 0, mmu_busy_cycles = 0, peak_s = 0;
  uint64_t max_enq_wait_ps = 0, max_deq_wait_ps = 0, ecn_marked = 0;
};

// A switch's MMU from its chip: golden, or the built RTL parameter set for
// the chip (rtl, lockstep), delayed to kRtlLatency. `name` tags a mismatch.
std::unique_ptr<MmuModel> make_switch_mmu(const ChipSpec& chip, const FabricParams& p, const std::string& name);

// What the fabric needs of a switch: its cell size, MMU clock and MMU
// (which has the pipelined RTL's decision latency, kRtlLatency).
struct SwitchChip {
  uint64_t cell_bytes = 256;
  double mmu_clock_ghz = 1.0;
  std::unique_ptr<MmuModel> mmu;
};

class Fabric {
 public:
  // chips[s]: the chip of switch s (its headroom_cells already set).
  Fabric(const Topology& topo, const std::vector<ChipSpec>& chips, const FabricParams& p);
  Fabric(const Topology& topo, std::vector<SwitchChip> chips, const FabricParams& p);
  ~Fabric();

  EventQueue& events() { return ev_; }
  const Topology& topo() const { return topo_; }
  const FabricParams& params() const { return p_; }
  std::vector<NetFlow>& flows() { return flows_; }
  // Adds a flow; it starts at start_ps (kNever: when start_flow_at says).
  // Returns its index. Flows are added before the run.
  static constexpr uint64_t kNever = ~uint64_t(0);
  int32_t add_flow(uint32_t src, uint32_t dst, uint8_t cls, uint64_t bytes, uint64_t start_ps, int group);
  void start_flow_at(int32_t flow, uint64_t t_ps);
  // Runs the events up to until_ps (or until stop()): on the event queue
  // itself, or through `kernel` when one is set (the SystemC netlist).
  void run(uint64_t until_ps) {
    if (held_ && (on_retire || on_mmu_out))
      throw std::logic_error("Fabric: on_retire and on_mmu_out need MMUs with the decision latency (SwitchChip)");
    if (kernel) kernel(until_ps);
    else ev_.run(until_ps);
  }
  void stop() { ev_.stop(); }
  std::function<void(uint64_t until_ps)> kernel;

  // Hooks for the scenarios (unset: nothing is called).
  std::function<void(int32_t flow, uint32_t bytes)> on_deliver;  // a receiver takes a data packet
  std::function<void(int32_t flow)> on_flow_done;
  std::function<void(int sw, const Event& e)> on_control;     // a PAUSE/RESUME frame leaves for e.port
  std::function<void(int sw, const CycleIn& in)> on_retire;   // a cycle with input gives its results
  std::function<void(int sw, const CycleOut& out)> on_mmu_out;  // every stepped (or skipped) cycle's outputs

  const SwitchStats& stats(int sw) const;
  uint64_t forwarded() const;  // packets all switches started on an egress link
  uint64_t lossless_drops() const;
  MmuModel& mmu(int sw);
  const TxPort& tx(int node, int port) const;
  std::string error;  // a lockstep mismatch or protocol error stops the run
  uint64_t reordered() const;

  // A packet whose last bit reaches `port` of `node` now.
  void receive(int node, int port, Pkt* p);
  TxPort& tx_port(int node, int port) { return tx_.at(node).at(port); }

  // internal, for the ports and nodes
  void port_push(TxPort& t, Pkt* p);
  void port_try_start(TxPort& t);
  Pkt* alloc();
  Pkt* control(Pkt::Kind kind, uint64_t bytes);  // a class-7 frame (CNP, ACK, PAUSE) from the pool
  void release(Pkt* p) {
    if (p->tel >= 0) free_tel(p);
    free_.push_back(p);
  }
  IntStack& telemetry(const Pkt& p) { return tel_[size_t(p.tel)]; }
  size_t telemetry_slots() const { return tel_.size(); }  // a valid Pkt::tel is below this

 private:
  struct SwitchNode;
  struct HostNode;
  void on_tx_start(TxPort& t, Pkt& p);
  void on_tx_empty(TxPort& t, unsigned cls);
  void host_refill(int host, unsigned cls);
  void host_receive(int host, Pkt* p);
  void start_flow(int32_t f);
  void schedule_increase(int32_t f);
  void stamp(const TxPort& t, Pkt& p);
  void send_ack(int host, Pkt* data);
  void ack_arrives(int host, Pkt* ack);
  void free_tel(Pkt* p);
  void control_arrives(TxPort& t, Pkt* p);
  void switch_receive(int sw, int port, Pkt* p);
  void mmu_request(int sw);
  void mmu_want(int sw, uint64_t cycle);
  void mmu_step(int sw, const CycleIn& in, Pkt* enq_pkt);
  void mmu_tick(int sw, uint64_t cycle);
  void mmu_apply(int sw);

  const Topology& topo_;
  FabricParams p_;
  EventQueue ev_;
  std::vector<std::vector<TxPort>> tx_;  // [node][port]
  std::vector<std::unique_ptr<SwitchNode>> sw_;
  std::vector<std::unique_ptr<HostNode>> hosts_;
  std::vector<NetFlow> flows_;
  std::vector<std::unique_ptr<Pkt[]>> pool_;  // blocks of kPoolBlock packets
  static constexpr size_t kPoolBlock = 1024;
  std::vector<Pkt*> free_;
  std::vector<IntStack> tel_;     // PowerTCP telemetry, one per packet carrying it
  std::vector<int32_t> tel_free_;
  std::mt19937_64 rng_;
  uint32_t start_lane_ = 0;  // flow starts, scheduled in time order by most scenarios
  bool held_ = false;        // some switch's results are held by the fabric (SwitchNode::lag)
};

}  // namespace dsh::net
