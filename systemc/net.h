// Transaction-level model of one shared-buffer switch and its hosts.
//
// Packets are transactions handed from a transmitter to its peer through a
// payload event queue (tlm_utils::peq_with_get) that delivers them when their
// last bit arrives: serialization (bytes at the link rate) + propagation.
//
//   Host h --uplink--> Switch ingress port h --MMU admission--> egress port d --downlink--> Host d
//
// The MMU (golden, Verilated RTL or both in lockstep) is stepped from C++
// through MmuModel::step(): one cycle of the MMU clock per step, one enqueue
// and one dequeue per cycle at most. Requests are queued and served one per
// cycle in arrival order. A packet is enqueued in the first cycle that starts
// at or after its last bit arrived; a departing packet is dequeued in the
// first free cycle at or after the start of its transmission. The results of
// a cycle (admission, PAUSE/RESUME events) come out MmuModel::latency()
// cycles later and act at the end of that cycle. Cycles are stepped at their
// SystemC time while a request waits or results are in flight; the idle
// cycles between are skipped (MmuModel::skip_idle: stepped until the MMU is
// quiet, the rest counted).
//
// Flow control (spec §6, level mode): every MMU event becomes a 64 B
// control frame at strict priority (class 7) on the switch egress port toward
// the upstream host, so it waits for the packet in transmission (spec §7.1 item 1),
// then propagates (2) and is processed for processing_bytes at link rate,
// counted from its first bit (3); the upstream host then finishes its current
// packet (4), whose last bit propagates (5). A class may start a packet only
// while tx_pause[j] = q_paused[j] | port_paused is 0.
#pragma once

#include <systemc>
#include <tlm_utils/peq_with_get.h>

#include <array>
#include <cmath>
#include <deque>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "class_arbiter.h"
#include "mmu_model.h"
#include "params.h"

namespace dsh::sc {

constexpr unsigned kClasses = 8;
constexpr unsigned kControlClass = 7;

struct Packet {
  uint32_t src = 0, dst = 0;  // hosts = switch ports
  uint32_t bytes = 0, cells = 0;
  uint8_t cls = 0;
  int32_t flow = -1;          // index into Network::flows(), -1 for control frames
  bool control = false;
  Event fc{};                 // control frames: the MMU event they carry
};

struct Flow {
  uint32_t src, dst;
  uint8_t cls;
  uint64_t bytes;  // 0: endless
  double start_ns;  // < 0: started by the network when the background has settled
  bool fanin;
  uint64_t generated = 0, sent = 0, admitted = 0, dropped = 0, delivered = 0;  // bytes
};

// Times of one link direction, in SystemC time.
struct LinkTiming {
  double ps_per_byte;
  sc_core::sc_time prop;
  sc_core::sc_time ser(uint64_t bytes) const {
    return sc_core::sc_time::from_value(sc_core::sc_time::value_type(std::llround(double(bytes) * ps_per_byte)));
  }
};

// The egress side of a host NIC or a switch port: 8 class FIFOs, class 7 at
// strict priority (never paused), DWRR over the lossless classes, the OR gate
// of upstream pause states. Accumulates how long each class was paused.
class Transmitter : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Transmitter);
  Transmitter(sc_core::sc_module_name n, const LinkTiming& t, uint64_t quantum_bytes);

  void push(Packet* p);
  void set_pause(const Event& e);  // level mode: PAUSE/RESUME of a class, PORT_PAUSE/RESUME of all
  bool tx_pause(unsigned cls) const { return cls != kControlClass && (q_paused_[cls] || port_paused_); }
  size_t queued(unsigned cls) const { return q_[cls].size(); }
  uint64_t paused_ps(unsigned cls) const;  // up to now

  std::function<void(Packet&)> on_start;                 // a packet starts on the wire
  std::function<void(unsigned cls)> on_empty;            // its class queue ran empty
  std::function<void(Packet*, const sc_core::sc_time&)> deliver;  // to the peer, after the delay

  std::array<bool, kClasses> traced_pause{};  // tx_pause per class, for sc_trace

 private:
  void run();
  int pick();
  void update_pause();

  LinkTiming t_;
  ClassArbiter arbiter_;
  std::array<std::deque<Packet*>, kClasses> q_;
  std::array<bool, kClasses> q_paused_{};
  bool port_paused_ = false;
  std::array<uint64_t, kClasses> paused_ps_{}, paused_since_{};
  sc_core::sc_event wake_;
};

struct Stats {
  uint64_t pause_frames = 0, resume_frames = 0;  // every frame sent (queue + port level)
  uint64_t fanin_pause_frames = 0;               // PAUSE / PORT_PAUSE toward fan-in hosts
  uint64_t drops = 0;
  uint64_t peak_s = 0, peak_queue_hdrm = 0, peak_port_hdrm = 0;
  uint64_t mmu_cycles = 0, mmu_busy_cycles = 0;
  uint64_t max_enq_wait_ps = 0, max_deq_wait_ps = 0;
};

class Network;

class Host : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Host);
  Host(sc_core::sc_module_name n, Network& net, uint32_t id);
  void add_flow(int32_t flow);
  void activate(int32_t flow);  // starts sending it now
  void receive(Packet* p, const sc_core::sc_time& delay) { rx_.notify(*p, delay); }
  Transmitter nic;

 private:
  void rx_thread();
  void fc_thread();
  void start_thread();
  void refill(unsigned cls);

  Network& net_;
  uint32_t id_;
  std::vector<int32_t> flows_;                          // by start time
  std::array<std::deque<int32_t>, kClasses> active_;    // started flows per class
  tlm_utils::peq_with_get<Packet> rx_, fc_;
};

class Switch : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Switch);
  Switch(sc_core::sc_module_name n, Network& net);
  void receive(Packet* p, const sc_core::sc_time& delay) { ingress_.notify(*p, delay); }
  Transmitter& egress(unsigned port) { return *egress_[port]; }

  // Mirrors for sc_trace, updated at the cycles that touch them; per port,
  // the queue of the class that port's traced flow uses.
  struct Trace {
    uint64_t s = 0, t = 0, x_qoff = 0, x_qon = 0, x_poff = 0, x_pon = 0;
    std::unique_ptr<uint64_t[]> q_cells, q_shared, q_hdrm, port_shared, port_hdrm;
    std::unique_ptr<bool[]> qoff, poff;
    std::vector<int> cls;  // per port: traced class, -1 = not traced
  } trace;

 private:
  void ingress_thread();
  void mmu_thread();
  std::pair<CycleOut, Packet*> step(const CycleIn& in, Packet* enq_pkt);
  void skip_idle(uint64_t n);
  void trace_thresholds(const Thresholds& t);
  void apply(const CycleOut& out, Packet* enq_pkt);
  void observe(const CycleIn& in);
  void send_control(const Event& e);

  Network& net_;
  std::vector<std::unique_ptr<Transmitter>> egress_;
  tlm_utils::peq_with_get<Packet> ingress_;
  struct Req {
    Packet* pkt;
    Op op;
    sc_core::sc_time at;
  };
  std::deque<Req> enq_, deq_;
  struct InFlight {  // a stepped cycle whose results have not come out yet
    CycleIn in;
    Packet* pkt;  // enqueued in it, nullptr if none
  };
  std::deque<InFlight> in_flight_;
  size_t real_in_flight_ = 0;  // entries with an enqueue or a dequeue
  sc_core::sc_event mmu_wake_;
  uint64_t period_ps_;
  uint64_t next_cycle_ = 0;  // cycles stepped so far
};

// The whole testbench for one point: hosts, switch, MMU, flows, the stop rule.
class Network : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Network);
  // `flows` in the order hosts should start them; the MMU model is owned.
  Network(sc_core::sc_module_name n, const Params& p, std::vector<Flow> flows,
          std::unique_ptr<MmuModel> mmu);
  ~Network() override;

  const Params& params() const { return p_; }
  MmuModel& mmu() { return *mmu_; }
  std::vector<Flow>& flows() { return flows_; }
  Stats& stats() { return stats_; }
  Host& host(unsigned h) { return *hosts_[h]; }
  Switch& sw() { return *sw_; }
  const LinkTiming& timing(unsigned port) const { return timing_[port]; }  // both directions of a port's link
  bool is_fanin_host(uint32_t h) const { return fanin_host_[h]; }
  void note_pause(const Event& e);  // every PAUSE / PORT_PAUSE the switch sends
  double fanin_start_us() const { return fanin_start_ps_ / 1e6; }

  Packet* alloc();
  void release(Packet* p);

  double fanin_paused_us();  // sum over fan-in hosts of the time their flow's class was paused
  std::string error;         // a lockstep mismatch or an MMU protocol error stops the run
  void trace_to(sc_core::sc_trace_file* tf, const std::vector<unsigned>& ports);

 private:
  void watchdog();
  void starter();  // starts the deferred (fan-in) flows once the background has settled
  bool finished() const;

  Params p_;
  std::vector<Flow> flows_;
  std::unique_ptr<MmuModel> mmu_;
  std::vector<LinkTiming> timing_;
  Stats stats_;
  std::vector<bool> fanin_host_;
  std::vector<bool> bg_unpaused_;  // background source ports that have not paused yet
  size_t bg_unpaused_n_ = 0;
  sc_core::sc_event bg_settled_;
  uint64_t fanin_start_ps_ = 0;
  std::vector<std::unique_ptr<Host>> hosts_;
  std::unique_ptr<Switch> sw_;
  std::vector<std::unique_ptr<Packet>> pool_;
  std::vector<Packet*> free_;
};

// Flows of a scenario point: background, fan-in (total burst_bytes, split
// evenly over hosts and classes; endless for Kind::Saturate), reverse-link loaders.
std::vector<Flow> make_flows(const Params& p, uint64_t burst_bytes);

}  // namespace dsh::sc
