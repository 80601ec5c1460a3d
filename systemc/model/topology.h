// A network of switches and hosts from the scenario file: nodes, links with
// their own rate and delay, failed links, and routes. Each node numbers its
// ports in the order its links are listed. Routing per switch and
// destination host: the ports on shortest paths (hop count over the links
// that have not failed), one of them chosen by a flow hash (ECMP); an
// explicit route "SW:DEST:NEXT" replaces that set by the port toward NEXT for
// every host DEST names (a host, or a switch: the hosts attached to it).
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
};

class Topology {
 public:
  // Throws dsh::ConfigError naming what is wrong (an unknown node, a host
  // with more than one link, a destination no path reaches, a route whose
  // NEXT is not a neighbour).
  Topology(std::vector<std::string> switches, std::vector<std::string> hosts, const std::vector<LinkSpec>& links,
           const std::vector<Route>& routes);

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

  // Candidate egress ports of switch `sw` toward host `dst`.
  const std::vector<int>& next_ports(int sw, int dst) const { return next_[sw][dst]; }
  // The chosen one for a flow: candidates[hash(flow_key, sw) % n].
  int route(int sw, int dst, uint64_t flow_key) const;
  // The switches and ports a flow crosses (for checks and tests).
  std::vector<std::pair<int, int>> path(int src_host, int dst_host, uint64_t flow_key) const;

 private:
  size_t n_sw_;
  std::vector<std::string> names_;
  std::vector<std::vector<PortSpec>> ports_;
  std::vector<std::vector<std::vector<int>>> next_;  // [switch][host] -> ports
};

uint64_t mix64(uint64_t x);  // splitmix64 finaliser: the ECMP hash

// "A-B", "A-B:400" (Gb/s) or "A-B:400:1000" (Gb/s, ns); defaults otherwise.
LinkSpec parse_link(const std::string& item, double gbps, double delay_ns, const std::string& what);
Route parse_route(const std::string& item, const std::string& what);

}  // namespace dsh::net
