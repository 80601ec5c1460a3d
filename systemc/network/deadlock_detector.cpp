// SPDX-License-Identifier: Apache-2.0
#include "deadlock_detector.h"

#include <algorithm>
#include <map>

#include "fabric.h"

namespace dsh::net {

std::optional<Deadlock> find_deadlock(const std::vector<WaitLink>& g, uint64_t now, uint64_t still) {
  const size_t n = g.size();
  auto stuck = [&](size_t i) { return g[i].blocked && now >= g[i].last_move_ps + still; };
  // Iterative DFS with colours: 0 unseen, 1 on the stack, 2 done.
  std::vector<int> colour(n, 0), parent(n, -1);
  for (size_t root = 0; root < n; ++root) {
    if (colour[root] || !stuck(root)) continue;
    std::vector<std::pair<int, size_t>> stack{{int(root), 0}};
    colour[root] = 1;
    while (!stack.empty()) {
      auto& [v, next] = stack.back();
      if (next == g[v].waits_on.size()) {
        colour[v] = 2;
        stack.pop_back();
        continue;
      }
      const int w = g[v].waits_on[next++];
      if (w < 0 || size_t(w) >= n || !stuck(size_t(w))) continue;
      if (colour[w] == 1) {  // a back edge closes a cycle w .. v
        Deadlock d;
        for (int x = v; x != w; x = parent[x]) d.cycle.push_back(x);
        d.cycle.push_back(w);
        std::reverse(d.cycle.begin(), d.cycle.end());
        for (int x : d.cycle) d.onset_ps = std::max(d.onset_ps, g[x].last_move_ps);
        return d;
      }
      if (colour[w] == 0) {
        colour[w] = 1;
        parent[w] = v;
        stack.push_back({w, 0});
      }
    }
  }
  return std::nullopt;
}

std::vector<WaitLink> wait_graph(const Fabric& f, std::vector<std::pair<int, int>>* ids_out) {
  const Topology& t = f.topo();
  std::map<std::pair<int, int>, int> index;
  std::vector<std::pair<int, int>> ids;
  for (size_t s = 0; s < t.n_switches(); ++s)
    for (size_t p = 0; p < t.ports(int(s)).size(); ++p) {
      const int peer = t.ports(int(s))[p].peer;
      if (peer >= 0 && t.is_switch(peer)) {
        index[{int(s), int(p)}] = int(ids.size());
        ids.emplace_back(int(s), int(p));
      }
    }
  std::vector<WaitLink> g(ids.size());
  for (size_t i = 0; i < ids.size(); ++i) {
    const Port& x = f.tx(ids[i].first, ids[i].second);
    WaitLink& w = g[i];
    w.last_move_ps = x.last_start_ps;
    unsigned blocked_mask = 0;
    for (unsigned c = 0; c < kControlClass; ++c)
      if (!x.q[c].empty() && x.tx_pause(c)) blocked_mask |= 1u << c;
    w.blocked = blocked_mask != 0;
    if (!w.blocked) continue;
    // Packets at the peer that came from this link, in a blocked class.
    const int b = x.peer, from = x.peer_port;
    for (size_t p = 0; p < t.ports(b).size(); ++p) {
      const auto it = index.find({b, int(p)});
      if (it == index.end()) continue;
      const Port& y = f.tx(b, int(p));
      bool holds = false;
      for (unsigned c = 0; c < kControlClass && !holds; ++c) {
        if (!(blocked_mask >> c & 1u)) continue;
        for (const Pkt* pk : y.q[c])
          if (pk->in_port == from) {
            holds = true;
            break;
          }
      }
      if (holds) w.waits_on.push_back(it->second);
    }
  }
  if (ids_out) *ids_out = ids;
  return g;
}

}  // namespace dsh::net
