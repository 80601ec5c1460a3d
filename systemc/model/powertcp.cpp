// SPDX-License-Identifier: Apache-2.0
#include "powertcp.h"

#include <algorithm>
#include <deque>
#include <vector>

#include "topology.h"

namespace dsh::net {

PowerTcp::PowerTcp(const PowerTcpParams& p) : p_(p), tau_ps_(p.base_rtt_us * 1e6) {
  // The first window: one BDP at the line rate (HAS_WIN 1: the window is
  // maxBdp and the rate the NIC's, rdma-hw.cc:257-259).
  cwnd_ = cwnd_old_ = p_.line_gbps * tau_ps_ / 8000.0;
}

double PowerTcp::norm_power(const IntStack& tel, uint64_t* dt_ps) const {
  double gamma = 0;
  uint64_t dt = 0;
  for (unsigned i = 0; i < tel.n; ++i) {
    const IntHop& h = tel.hop[i];
    const IntHop& o = prev_[i];
    const uint64_t span = h.ts_ps > o.ts_ps ? h.ts_ps - o.ts_ps : 0;
    const uint64_t bytes = h.rx_bytes > o.rx_bytes ? h.rx_bytes - o.rx_bytes : 0;
    // Gb/s = bytes * 8 / ps * 1000; two stamps at one time: no gradient seen, the floor.
    double current = span ? double(bytes) * 8000.0 / double(span) : 0;
    current = std::max(current, p_.current_floor * h.gbps);
    const double bdp_bytes = h.gbps * tau_ps_ / 8000.0;  // b * tau
    const double g = current / h.gbps * (double(h.qlen_bytes) + bdp_bytes) / bdp_bytes;
    if (g > gamma) {
      gamma = g;
      dt = span;
    }
  }
  if (dt_ps) *dt_ps = dt;
  return gamma;
}

bool PowerTcp::on_ack(const IntStack& tel, uint64_t snd_nxt_bytes) {
  if (tel.n == 0) return false;  // no switch on the path: nothing to learn
  uint64_t dt = 0;
  const double g = norm_power(tel, &dt);
  for (unsigned i = 0; i < tel.n; ++i) prev_[i] = tel.hop[i];
  const double d = std::min(double(dt), tau_ps_);
  u_ = (u_ * (tau_ps_ - d) + g * d) / tau_ps_;
  const double c = u_ / p_.target_util;
  const double beta_bytes = p_.beta_mbps * tau_ps_ / 8e6;
  double w = p_.gamma * (cwnd_old_ / c + beta_bytes) + (1 - p_.gamma) * cwnd_old_;
  // The floor, then the line rate (which wins should min_rate exceed it).
  w = std::min(std::max(w, p_.min_rate_mbps * tau_ps_ / 8e6), p_.line_gbps * tau_ps_ / 8000.0);
  cwnd_ = w;
  if (tel.ack_bytes <= last_update_) return false;  // within the RTT: from cwnd_old
  cwnd_old_ = w;
  last_update_ = std::max(last_update_, snd_nxt_bytes);
  return true;
}

double max_base_rtt_us(const Topology& t, uint64_t packet_bytes) {
  double worst_ps = 0;
  const size_t n = t.n_nodes();
  for (size_t h = 0; h < t.n_hosts(); ++h) {
    // BFS by links from the host; among a node's fewest-link paths, the
    // slowest (propagation doubled for the round trip, serialisation once).
    std::vector<int> hops(n, -1);
    std::vector<double> cost(n, 0);
    std::deque<int> q;
    const int src = t.host_node(int(h));
    hops[size_t(src)] = 0;
    q.push_back(src);
    while (!q.empty()) {
      const int a = q.front();
      q.pop_front();
      if (a != src && !t.is_switch(a)) continue;  // hosts do not forward
      for (const PortSpec& p : t.ports(a)) {
        if (p.peer < 0) continue;
        const double c = cost[size_t(a)] + 2 * p.delay_ns * 1000 + double(packet_bytes) * 8000.0 / p.gbps;
        int& hb = hops[size_t(p.peer)];
        if (hb < 0) {
          hb = hops[size_t(a)] + 1;
          cost[size_t(p.peer)] = c;
          q.push_back(p.peer);
        } else if (hb == hops[size_t(a)] + 1) {
          cost[size_t(p.peer)] = std::max(cost[size_t(p.peer)], c);
        }
      }
    }
    for (size_t d = 0; d < t.n_hosts(); ++d)
      if (d != h && hops[size_t(t.host_node(int(d)))] > 0)
        worst_ps = std::max(worst_ps, cost[size_t(t.host_node(int(d)))]);
  }
  return worst_ps / 1e6;
}

}  // namespace dsh::net
