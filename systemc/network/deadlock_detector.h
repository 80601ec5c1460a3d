// SPDX-License-Identifier: Apache-2.0
// PFC deadlock detection. The wait-for graph's vertices are the switch-to-
// switch link directions (Ports). A link X = A->B is blocked when it has
// lossless packets queued in a class it may not send (a queue pause of that
// class, or a port pause, which stops every lossless class: DSH). X waits on
// link Y = B->C when switch B holds, queued for Y, packets of a class X is
// blocked in that arrived from A (they hold the buffer that keeps X paused).
// A deadlock is a cycle of blocked links none of which started a lossless
// packet for still_ps; its onset is when the last of them stopped moving,
// i.e. when the cycle formed.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace dsh::net {

class Fabric;

struct WaitLink {
  bool blocked = false;
  uint64_t last_move_ps = 0;  // last lossless packet start
  std::vector<int> waits_on;  // indices of links
};

struct Deadlock {
  std::vector<int> cycle;  // link indices in wait order
  uint64_t onset_ps = 0;
};

// A cycle among the links that are blocked and have not moved for still_ps.
std::optional<Deadlock> find_deadlock(const std::vector<WaitLink>& g, uint64_t now_ps, uint64_t still_ps);

// The wait-for graph of a running fabric; ids[i] = (switch node, port) of link i.
std::vector<WaitLink> wait_graph(const Fabric& f, std::vector<std::pair<int, int>>* ids = nullptr);

}  // namespace dsh::net
