// SPDX-License-Identifier: Apache-2.0
#include "topology.h"

#include <algorithm>
#include <deque>
#include <set>

#include "config.h"
#include "input.h"

namespace dsh::net {

LinkSpec parse_link(const std::string& item, double gbps, double delay_ns, const std::string& what) {
  LinkSpec l;
  l.gbps = gbps;
  l.delay_ns = delay_ns;
  std::string ends = item, rest;
  if (const auto c = item.find(':'); c != std::string::npos) {
    ends = item.substr(0, c);
    rest = item.substr(c + 1);
  }
  const auto dash = ends.find('-');
  if (dash == std::string::npos || dash == 0 || dash + 1 == ends.size())
    throw ConfigError(what + ": " + quoted(item) + " is not a link A-B[:gbps[:delay_ns]]");
  l.a = ends.substr(0, dash);
  l.b = ends.substr(dash + 1);
  if (!rest.empty()) {
    const auto c = rest.find(':');
    l.gbps = parse_real(what + " " + item + " rate", rest.substr(0, c), 0, 1e5, true);
    if (c != std::string::npos) l.delay_ns = parse_real(what + " " + item + " delay", rest.substr(c + 1), 0, 1e9);
  }
  return l;
}

Route parse_route(const std::string& item, const std::string& what) {
  const auto a = item.find(':'), b = item.rfind(':');
  if (a == std::string::npos || a == b) throw ConfigError(what + ": " + quoted(item) + " is not a route SWITCH:DEST:NEXT");
  return Route{item.substr(0, a), item.substr(a + 1, b - a - 1), item.substr(b + 1)};
}

Topology::Topology(std::vector<std::string> switches, std::vector<std::string> hosts, const std::vector<LinkSpec>& links,
                   const std::vector<Route>& routes, uint64_t ecmp_seed)
    : n_sw_(switches.size()) {
  names_ = std::move(switches);
  for (auto& h : hosts) names_.push_back(std::move(h));
  std::set<std::string> seen;
  for (const auto& n : names_)
    if (!seen.insert(n).second) throw ConfigError("net: node " + quoted(n) + " is named twice");
  ports_.resize(names_.size());
  for (const auto& l : links) {
    const int a = node(l.a), b = node(l.b);
    if (a < 0 || b < 0) throw ConfigError("net.links: " + l.a + "-" + l.b + " names an unknown node " + quoted(a < 0 ? l.a : l.b));
    if (a == b) throw ConfigError("net.links: " + l.a + "-" + l.b + " links a node to itself");
    if (!is_switch(a) && !is_switch(b)) throw ConfigError("net.links: " + l.a + "-" + l.b + " links two hosts");
    const int pa = int(ports_[a].size()), pb = int(ports_[b].size());
    // A failed link keeps its port numbers (the switch has the port) but
    // carries nothing: it is left out of routing and never used.
    ports_[a].push_back(PortSpec{l.failed ? -1 : b, l.failed ? -1 : pb, l.gbps, l.delay_ns});
    ports_[b].push_back(PortSpec{l.failed ? -1 : a, l.failed ? -1 : pa, l.gbps, l.delay_ns});
  }
  for (size_t h = 0; h < n_hosts(); ++h) {
    const auto& p = ports_[host_node(int(h))];
    if (p.size() != 1 || p[0].peer < 0)
      throw ConfigError("net.links: host " + names_[host_node(int(h))] + " needs exactly one working link, has " +
                        std::to_string(p.size()));
  }
  // Hop distance of every node to every host (hosts do not forward).
  next_.assign(n_sw_, std::vector<std::vector<int>>(n_hosts()));
  for (size_t h = 0; h < n_hosts(); ++h) {
    std::vector<int> dist(names_.size(), -1);
    std::deque<int> bfs{host_node(int(h))};
    dist[host_node(int(h))] = 0;
    while (!bfs.empty()) {
      const int n = bfs.front();
      bfs.pop_front();
      if (!is_switch(n) && n != host_node(int(h))) continue;
      for (const auto& p : ports_[n])
        if (p.peer >= 0 && dist[p.peer] < 0) {
          dist[p.peer] = dist[n] + 1;
          bfs.push_back(p.peer);
        }
    }
    for (size_t s = 0; s < n_sw_; ++s) {
      if (dist[s] < 0) continue;
      for (size_t i = 0; i < ports_[s].size(); ++i) {
        const int peer = ports_[s][i].peer;
        if (peer >= 0 && dist[peer] == dist[s] - 1 && (is_switch(peer) || peer == host_node(int(h))))
          next_[s][h].push_back(int(i));
      }
    }
  }
  for (const auto& r : routes) {
    const int s = node(r.sw), d = node(r.dest), nx = node(r.next);
    if (s < 0 || !is_switch(s)) throw ConfigError("net.routes: " + quoted(r.text()) + ": " + quoted(r.sw) + " is not a switch");
    if (d < 0) throw ConfigError("net.routes: " + quoted(r.text()) + ": destination " + quoted(r.dest) + " is not a node");
    int port = -1;
    for (size_t i = 0; i < ports_[s].size(); ++i)
      if (ports_[s][i].peer == nx) port = int(i);
    if (nx < 0 || port < 0)
      throw ConfigError("net.routes: " + quoted(r.text()) + ": " + r.next + " is not a working neighbour of " + r.sw);
    for (size_t h = 0; h < n_hosts(); ++h) {
      const int hn = host_node(int(h));
      if (hn != d && !(is_switch(d) && ports_[hn][0].peer == d)) continue;
      if (!is_switch(nx) && nx != hn)
        throw ConfigError("net.routes: " + quoted(r.text()) + " hands packets for " + names_[hn] + " to host " + r.next);
      next_[s][h] = {port};
    }
  }
  // The seed of each switch's hash: its index (HPCC's simulator seeds a
  // switch with its node id), mixed with the scenario's net.ecmp_seed.
  for (size_t s = 0; s < n_sw_; ++s) seed_.push_back(mix64(ecmp_seed * 0x9e3779b97f4a7c15ULL + s));
  if (!routes.empty()) refuse_loops(routes);
  for (size_t sw = 0; sw < n_sw_; ++sw)
    for (const auto& c : next_[sw]) {
      Hop h{0, uint32_t(c.size())};
      if (c.size() == 1) h.first = uint32_t(c[0]);
      if (c.size() > 1) {
        h.first = uint32_t(hop_ports_.size());
        hop_ports_.insert(hop_ports_.end(), c.begin(), c.end());
      }
      hops_.push_back(h);
    }
}

// Shortest-path candidates always lead one hop nearer, so only a pinned
// route can close a loop: for each destination, a depth-first search over
// every candidate of every switch finds a cycle, and the pinned route of a
// switch on it is named.
void Topology::refuse_loops(const std::vector<Route>& routes) const {
  auto pinned_at = [&](int sw, int h) -> const Route* {
    const int hn = host_node(h);
    for (auto it = routes.rbegin(); it != routes.rend(); ++it) {  // the last one given wins
      const int d = node(it->dest);
      if (node(it->sw) == sw && (d == hn || (is_switch(d) && ports_[hn][0].peer == d))) return &*it;
    }
    return nullptr;
  };
  for (size_t h = 0; h < n_hosts(); ++h) {
    std::vector<int> colour(n_sw_, 0), parent(n_sw_, -1);
    for (size_t root = 0; root < n_sw_; ++root) {
      if (colour[root]) continue;
      std::vector<std::pair<int, size_t>> stack{{int(root), 0}};
      colour[root] = 1;
      while (!stack.empty()) {
        auto& [v, i] = stack.back();
        const auto& c = next_[v][h];
        if (i == c.size()) {
          colour[v] = 2;
          stack.pop_back();
          continue;
        }
        const int w = ports_[v][c[i++]].peer;
        if (w < 0 || !is_switch(w)) continue;
        if (colour[w] == 1) {  // back edge: the loop w -> ... -> v -> w
          std::vector<int> loop;
          for (int x = v; x != w; x = parent[x]) loop.push_back(x);
          loop.push_back(w);
          std::reverse(loop.begin(), loop.end());
          const Route* r = nullptr;
          int at = -1;
          for (int x : loop)
            if (!r && (r = pinned_at(x, int(h)))) at = x;
          std::string text;
          for (int x : loop) text += names_[x] + " -> ";
          text += names_[w];
          throw ConfigError("net.routes: " + quoted(r ? r->text() : "?") + " at switch " + (at >= 0 ? names_[at] : "?") +
                            " makes a routing loop toward " + names_[host_node(int(h))] + ": " + text);
        }
        if (colour[w] == 0) {
          colour[w] = 1;
          parent[w] = v;
          stack.push_back({w, 0});
        }
      }
    }
  }
}

int Topology::node(const std::string& name) const {
  const auto it = std::find(names_.begin(), names_.end(), name);
  return it == names_.end() ? -1 : int(it - names_.begin());
}

int Topology::host(const std::string& name) const {
  const int n = node(name);
  return n < 0 || is_switch(n) ? -1 : node_host(n);
}

std::vector<std::pair<int, int>> Topology::path(int src_host, int dst_host, uint32_t flow) const {
  std::vector<std::pair<int, int>> out;
  int n = host_switch(src_host);
  const FlowTuple t{uint32_t(src_host), uint32_t(dst_host), flow};
  for (size_t hop = 0; hop < 4 * names_.size(); ++hop) {
    const int p = route(n, t);
    if (p < 0) return {};
    out.emplace_back(n, p);
    const int peer = ports_[n][p].peer;
    if (peer == host_node(dst_host)) return out;
    if (!is_switch(peer)) return {};
    n = peer;
  }
  return {};  // a routing loop (refused at construction)
}

GeneratedNet leaf_spine(unsigned leaves, unsigned spines, unsigned hosts_per_leaf, double gbps, double delay_ns) {
  GeneratedNet g;
  for (unsigned l = 0; l < leaves; ++l) g.switches.push_back("L" + std::to_string(l));
  for (unsigned s = 0; s < spines; ++s) g.switches.push_back("S" + std::to_string(s));
  auto link = [&](const std::string& a, const std::string& b) { g.links.push_back(LinkSpec{a, b, gbps, delay_ns, false}); };
  for (unsigned l = 0; l < leaves; ++l) {
    for (unsigned i = 0; i < hosts_per_leaf; ++i) {
      g.hosts.push_back("H" + std::to_string(l * hosts_per_leaf + i));
      link(g.hosts.back(), "L" + std::to_string(l));
    }
    for (unsigned s = 0; s < spines; ++s) link("L" + std::to_string(l), "S" + std::to_string(s));
  }
  return g;
}

GeneratedNet fat_tree(unsigned k, double gbps, double delay_ns) {
  if (k < 2 || k % 2) throw ConfigError("net.fat_tree_k = " + std::to_string(k) + ": a fat-tree needs an even k >= 2");
  GeneratedNet g;
  const unsigned half = k / 2;
  auto edge = [](unsigned p, unsigned e) { return "P" + std::to_string(p) + "E" + std::to_string(e); };
  auto agg = [](unsigned p, unsigned a) { return "P" + std::to_string(p) + "A" + std::to_string(a); };
  for (unsigned p = 0; p < k; ++p)
    for (unsigned e = 0; e < half; ++e) g.switches.push_back(edge(p, e));
  for (unsigned p = 0; p < k; ++p)
    for (unsigned a = 0; a < half; ++a) g.switches.push_back(agg(p, a));
  for (unsigned c = 0; c < half * half; ++c) g.switches.push_back("C" + std::to_string(c));
  auto link = [&](const std::string& a, const std::string& b) { g.links.push_back(LinkSpec{a, b, gbps, delay_ns, false}); };
  for (unsigned p = 0; p < k; ++p)
    for (unsigned e = 0; e < half; ++e) {
      for (unsigned i = 0; i < half; ++i) {
        g.hosts.push_back("H" + std::to_string((p * half + e) * half + i));
        link(g.hosts.back(), edge(p, e));
      }
      for (unsigned a = 0; a < half; ++a) link(edge(p, e), agg(p, a));
    }
  for (unsigned p = 0; p < k; ++p)
    for (unsigned a = 0; a < half; ++a)
      for (unsigned j = 0; j < half; ++j) link(agg(p, a), "C" + std::to_string(a * half + j));
  return g;
}

}  // namespace dsh::net
