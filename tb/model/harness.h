// SPDX-License-Identifier: Apache-2.0
// A bare network context for one component: the event queue, a packet pool,
// parameters and a small topology (switch S, hosts A, B, R at 100 Gb/s,
// 1 us), and a node that records what reaches it.
#pragma once

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "node.h"
#include "port.h"

namespace dsh::net::test {

struct Bench {
  Topology topo{{"S"}, {"A", "B", "R"}, {{"A", "S", 100, 1000}, {"B", "S", 100, 1000}, {"R", "S", 100, 1000}}, {}};
  EventQueue ev;
  PacketPool pool;
  FabricParams p;
  std::vector<NetFlow> flows;
  Observers obs;
  std::mt19937_64 rng{1};
  std::string error;
  NetContext ctx{ev, pool, p, topo, flows, obs, rng, error};
};

// A node that keeps what arrives (time, packet fields) and owns nothing.
struct Recorder final : Node {
  struct Got {
    uint64_t t;
    Pkt::Kind kind;
    unsigned cls;
    uint32_t seq;
  };
  EventQueue* ev = nullptr;
  PacketPool* pool = nullptr;
  std::vector<Got> got;
  std::vector<std::pair<unsigned, uint64_t>> emptied;  // (class, time) of on_tx_empty
  void receive(int, Pkt* p) override {
    got.push_back({ev->now(), p->kind, p->cls, p->seq});
    pool->release(p);
  }
  void on_tx_start(Port&, Pkt&) override {}
  void on_tx_empty(Port&, unsigned cls) override { emptied.emplace_back(cls, ev->now()); }
};

}  // namespace dsh::net::test
