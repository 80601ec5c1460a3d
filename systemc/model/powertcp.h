// SPDX-License-Identifier: Apache-2.0
// PowerTCP's sender (Addanki, Michel, Schmid, NSDI 2022, Algorithm 1), as
// its authors' ns-3 simulation runs it (github.com/inet-tub/ns3-datacenter,
// simulator/ns-3.39; files below are under src/point-to-point/model/ unless
// named otherwise), and the in-band telemetry (INT) it reads. Plain C++: the
// owner (switch.cpp, host.cpp, congestion_control.h) stamps the telemetry,
// echoes it in ACKs and calls on_ack.
//
//   INT: each switch egress stamps, when a data packet starts on the wire,
//        its time, the bytes that have entered the egress queue so far (all
//        classes), the bytes queued behind it (all classes) and the link
//        rate (switch-node.cc:272 with PowerEnabled: GetNBytesRxTotal, the
//        enqueued-bytes counter of broadcom-egress-queue.cc:87, and
//        GetNBytesTotal). The receiver ACKs every data packet (run scripts'
//        L2_ACK_INTERVAL 1, examples/PowerTCP/config-burst.txt:29) with the
//        data packet's INT (rdma-hw.cc ReceiveUdp: SetIntHeader).
//   ACK:  per hop i, with the hop's previous INT (zero before the first):
//           current  lambda = (bytes_i - prev bytes_i) / (ts_i - prev ts_i),
//                    the arrival rate = queue gradient + transmit rate,
//                    floored at current_floor * b_i (rdma-hw.cc:1020-1022);
//           voltage  q_i + b_i * tau;
//           Gamma_i = lambda * (q_i + b_i tau) / (b_i * b_i tau), the power
//                    normalised by the base power b^2 tau (rdma-hw.cc:1025-1026).
//         Gamma = max_i Gamma_i, dt = that hop's ts_i - prev ts_i capped at
//         tau; smoothed u = (u (tau - dt) + Gamma dt) / tau, u starting at 1
//         (rdma-hw.cc:1007-1062; rdma-queue-pair.cc:50);
//         cwnd = gamma (cwnd_old / (u / target_util) + beta tau)
//                + (1 - gamma) cwnd_old                    (rdma-hw.cc:1064-1065)
//         bounded to [min_rate tau, line tau] (rdma-hw.cc:1072-1075).
//         cwnd_old is the window committed at the last once-per-RTT update:
//         an ACK acknowledging beyond the bytes sent at that update commits
//         the new window and marks the bytes sent now (rdma-hw.cc:782,
//         1082-1089); the ACKs between recompute the window from cwnd_old
//         (FAST_REACT 1, config-burst.txt:35). ns-3 writes the window as a rate:
//         cwnd = rate * tau (rdma-queue-pair.cc:129-130, VAR_WIN 1).
//   Sending: at most cwnd bytes unacknowledged, paced at cwnd / tau.
//
// Differences from the ns-3 code, none of them in the window update: INT
// values are exact (ns-3 packs bytes in 128 B and queue lengths in 80 B
// units, time in 24 bits of ns) and not counted in the packet's size; a
// stack holds kMaxIntHops hops (ns-3: 5, int-header.h:84); the first ACK's
// previous INT is zero as in ns-3 but in ps since the start of the run; a
// new rate paces from the next packet on (ns-3's ChangeRate, rdma-hw.cc:636,
// also moves the pending send time); ACKs travel in class 7, the highest (the
// run script's ACK_HIGH_PRIO 0 leaves them in the data's priority). The
// paper's Algorithm 1 writes (1 - gamma) times the current window where the
// code (and this model) uses cwnd_old.
#pragma once

#include <array>
#include <cstdint>

namespace dsh::net {

class Topology;

struct IntHop {
  uint64_t ts_ps = 0;       // when the packet started on the egress link
  uint64_t rx_bytes = 0;    // bytes that entered that egress queue so far
  uint64_t qlen_bytes = 0;  // bytes queued there behind the packet
  double gbps = 0;          // the egress link's rate
};

inline constexpr unsigned kMaxIntHops = 8;

// The telemetry a data packet collects and its ACK carries back.
struct IntStack {
  uint64_t ack_bytes = 0;  // in the ACK: bytes the receiver has in order
  unsigned n = 0;
  std::array<IntHop, kMaxIntHops> hop{};
  void push(const IntHop& h) {
    if (n < kMaxIntHops) hop[n++] = h;
  }
};

struct PowerTcpParams {
  double line_gbps = 100;        // the NIC rate (set per host)
  double base_rtt_us = 12.36;    // tau
  double gamma = 0.9;            // EWMA of the window update
  double beta_mbps = 150;        // additive increase, as a rate: beta tau bytes per update
  double target_util = 0.95;
  double min_rate_mbps = 100;
  double current_floor = 0.5;    // a hop's current is at least this fraction of its rate
};

class PowerTcp {
 public:
  explicit PowerTcp(const PowerTcpParams& p);
  double cwnd_bytes() const { return cwnd_; }
  double cwnd_old_bytes() const { return cwnd_old_; }
  double rate_gbps() const { return cwnd_ * 8000.0 / tau_ps_; }  // pacing: cwnd / tau
  double power() const { return u_; }                              // the smoothed normalised power
  // Gamma of the hops of `tel` against the previous INT, without changing any state.
  double norm_power(const IntStack& tel, uint64_t* dt_ps = nullptr) const;
  // An ACK with its telemetry; snd_nxt_bytes = bytes sent so far. Returns
  // true when it committed a once-per-RTT update.
  bool on_ack(const IntStack& tel, uint64_t snd_nxt_bytes);

 private:
  PowerTcpParams p_;
  double tau_ps_;
  double cwnd_, cwnd_old_;
  double u_ = 1;
  uint64_t last_update_ = 0;  // bytes sent at the last committed update
  std::array<IntHop, kMaxIntHops> prev_{};
};

// tau when powertcp.base_rtt_us = 0: the largest, over pairs of hosts, of
// twice the propagation delay plus one packet's serialisation per link, along
// a path with the fewest links (examples/PowerTCP/powertcp-evaluation-burst.cc
// :1017-1042, maxRtt with GLOBAL_T 1; ns-3 takes its hop-count BFS tree's path,
// this the slowest of the fewest-link paths).
double max_base_rtt_us(const Topology& t, uint64_t packet_bytes);

}  // namespace dsh::net
