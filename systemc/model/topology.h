// SPDX-License-Identifier: Apache-2.0
// A network of switches and hosts from the scenario file: nodes, links with
// their own rate and delay, failed links, and routes. Each node numbers its
// ports in the order its links are listed.
//
// Routing is ECMP over all equal-cost shortest paths, per flow, as the RDMA
// simulators built on ns-3 route (HPCC's SwitchNode::GetOutDev: the next
// hops of a switch toward a destination are its neighbours one hop nearer
// to it, found by a breadth-first search from each host; one is picked by
// a hash of source, destination and the flow's port pair with a seed per
// switch, its node id there). Here: the candidate ports of a switch toward a
// host are those whose peer is one hop nearer (hop count over the links
// that have not failed: a failed link is not in the graph, so the routes
// go around it); a packet takes candidates[ecmp_hash(src, dst, flow,
// seed of the switch) % n]. The flow id plays the port pair: every packet of
// a flow takes one path, a CNP (src and dst swapped) its own.
//
// A pinned route "SW:DEST:NEXT" (an explicit option, net.routes) replaces
// that set by the port toward NEXT for every host DEST names (a host, or a
// switch: the hosts attached to it). A pinned route that closes a loop
// toward some destination is refused, naming the route and the loop.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dsh::net {

struct LinkSpec {
  std::string a, b;
  double gbps = 100, delay_ns = 2000;
  bool failed = false;
};

struct PortSpec {
  int peer = -1, peer_port = -1;  // node and its port at the other end
  double gbps = 100, delay_ns = 2000;
};

struct Route {
  std::string sw, dest, next;
  std::string text() const { return sw + ":" + dest + ":" + next; }
};

// What a switch hashes to choose among equal-cost next hops: source and
// destination host and the flow (the transport's port pair).
struct FlowTuple {
  uint32_t src = 0, dst = 0;
  uint32_t flow = 0;
};

class Topology {
 public:
  // Throws dsh::ConfigError naming what is wrong (an unknown node, a host
  // with more than one link, a route whose NEXT is not a working
  // neighbour, a route that makes a loop). `ecmp_seed` is mixed into every
  // switch's hash seed (0: the seed of switch s depends on s alone).
  Topology(std::vector<std::string> switches, std::vector<std::string> hosts, const std::vector<LinkSpec>& links,
           const std::vector<Route>& routes, uint64_t ecmp_seed = 0);

  size_t n_switches() const { return n_sw_; }
  size_t n_hosts() const { return names_.size() - n_sw_; }
  size_t n_nodes() const { return names_.size(); }
  bool is_switch(int node) const { return node < int(n_sw_); }
  int host_node(int host) const { return int(n_sw_) + host; }
  int node_host(int node) const { return node - int(n_sw_); }
  int node(const std::string& name) const;  // -1 when unknown
  int host(const std::string& name) const;  // host index, -1 when unknown or a switch
  const std::string& name(int node) const { return names_[node]; }
  const std::vector<PortSpec>& ports(int node) const { return ports_[node]; }
  // The port a host's NIC uses and the switch it reaches.
  int host_switch(int host) const { return ports_[host_node(host)].at(0).peer; }

  // Candidate egress ports of switch `sw` toward host `dst` (ascending).
  const std::vector<int>& next_ports(int sw, int dst) const { return next_[sw][dst]; }
  // The one a packet takes: candidates[ecmp_hash(t, seed of sw) % n]; -1 none.
  int route(int sw, const FlowTuple& t) const {
    const Hop h = hops_[size_t(sw) * n_hosts() + t.dst];
    if (h.n <= 1) return h.n ? int(h.first) : -1;  // first: the port itself
    return hop_ports_[h.first + ecmp_hash(t, seed_[sw]) % h.n];
  }
  uint64_t switch_seed(int sw) const { return seed_[sw]; }
  // The switches and egress ports a flow's data crosses (for checks and tests).
  std::vector<std::pair<int, int>> path(int src_host, int dst_host, uint32_t flow) const;
  static uint64_t ecmp_hash(const FlowTuple& t, uint64_t seed);

 private:
  size_t n_sw_;
  std::vector<std::string> names_;
  std::vector<std::vector<PortSpec>> ports_;
  std::vector<std::vector<std::vector<int>>> next_;  // [switch][host] -> ports
  std::vector<uint64_t> seed_;                       // [switch] ECMP hash seed
  // next_ flattened for route(), which runs per packet and switch: one
  // entry per (switch, host), the candidates of several in hop_ports_.
  struct Hop {
    uint32_t first;  // one candidate: the port; more: their start in hop_ports_
    uint32_t n;
  };
  std::vector<Hop> hops_;
  std::vector<uint16_t> hop_ports_;
  void refuse_loops(const std::vector<Route>& routes) const;
};

// splitmix64's finaliser: a bijection of 64-bit words whose outputs look
// independent for inputs that differ in any bit (ecmp_hash is built on it).
inline uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The tuple mixed once, then mixed again with the switch's seed: two
// switches with the same candidates choose independently.
inline uint64_t Topology::ecmp_hash(const FlowTuple& t, uint64_t seed) {
  const uint64_t key = (uint64_t(t.src) << 32 | t.dst) ^ (uint64_t(t.flow) * 0xc2b2ae3d27d4eb4fULL);
  return mix64(seed ^ mix64(key));
}

// A generated network (net.generate): its switches, hosts and links in the
// order the Topology constructor takes them, every link at `gbps` and
// `delay_ns`. Port numbers follow the link order: a leaf's (an edge
// switch's) hosts first, then its uplinks.
struct GeneratedNet {
  std::vector<std::string> switches, hosts;
  std::vector<LinkSpec> links;
};
// Leaves L0.., spines S0.. (switch order: leaves, then spines), hosts H0..
// (H[l*hosts_per_leaf + i] on leaf l); every leaf linked to every spine.
GeneratedNet leaf_spine(unsigned leaves, unsigned spines, unsigned hosts_per_leaf, double gbps, double delay_ns);
// The k-ary fat-tree (Al-Fares et al., SIGCOMM 2008; k even): k pods of k/2
// edge switches P<p>E<e> and k/2 aggregation switches P<p>A<a>, (k/2)^2
// cores C<c>, k^3/4 hosts (k/2 per edge switch). Edge e of pod p links to
// every aggregation switch of its pod; aggregation a of every pod links to
// cores a*k/2 .. a*k/2 + k/2 - 1. k = 16: 1,024 hosts, 320 switches.
GeneratedNet fat_tree(unsigned k, double gbps, double delay_ns);

// "A-B", "A-B:400" (Gb/s) or "A-B:400:1000" (Gb/s, ns); defaults otherwise.
LinkSpec parse_link(const std::string& item, double gbps, double delay_ns, const std::string& what);
Route parse_route(const std::string& item, const std::string& what);

}  // namespace dsh::net
