// SPDX-License-Identifier: Apache-2.0
// A host on its own: its NIC's peer is a recorder. 100 Gb/s NIC, 1 us
// link; 1000 B packets take 80 ns on the wire.
#include <gtest/gtest.h>

#include "harness.h"
#include "host.h"

namespace dsh::net::test {
namespace {

// A congestion control with a fixed pacing rate and window.
struct Fixed final : CongestionControl {
  double rate = 0;
  uint64_t window = ~uint64_t(0);
  double rate_gbps() const override { return rate; }
  bool window_open(uint64_t unacked) const override { return unacked < window; }
  bool wants_acks() const override { return window != ~uint64_t(0); }
};

struct HostBench : Bench {
  Recorder peer;
  Host host{ctx, 0, 1};  // host A, topology node 1 (after switch S)
  HostBench() {
    peer.ev = &ev;
    peer.pool = &pool;
    host.nic().connect(&peer);
    p.packet_bytes = 1000;
  }
  void flow(uint64_t bytes, std::unique_ptr<CongestionControl> cc) {
    NetFlow f;
    f.src = 0;
    f.dst = 2;
    f.bytes = bytes;
    f.cc = std::move(cc);
    flows.push_back(std::move(f));
    ev.at(0, [this] { host.start_flow(0); });
  }
  std::vector<uint64_t> arrivals() const {
    std::vector<uint64_t> t;
    for (const auto& g : peer.got) t.push_back(g.t);
    return t;
  }
};

// No congestion control: back to back, one packet every 80 ns, each
// arriving 80 ns + 1 us after it starts.
TEST(Host, LineRateWithoutCongestionControl) {
  HostBench b;
  b.flow(3000, std::make_unique<CongestionControl>());
  b.ev.run(~uint64_t(0));
  EXPECT_EQ(b.arrivals(), (std::vector<uint64_t>{1'080'000, 1'160'000, 1'240'000}));
  EXPECT_EQ(b.flows[0].generated, 3000u);
}

// Paced at 25 Gb/s: a 1000 B packet holds the next one 1000 * 8 / 25 =
// 320 ns; the last packet is the flow's remaining 500 B.
TEST(Host, RateLimiterPacesBelowLineRate) {
  HostBench b;
  auto cc = std::make_unique<Fixed>();
  cc->rate = 25;
  b.flow(2500, std::move(cc));
  b.ev.run(~uint64_t(0));
  EXPECT_EQ(b.arrivals(), (std::vector<uint64_t>{1'080'000, 1'400'000, 1'680'000}));  // the last: 640 + 40 ns + 1 us
}

// A 2000 B window: two packets go, the third waits for an ACK of the first
// 1000 B, which arrives at 5 us; it starts then.
TEST(Host, WindowWaitsForAck) {
  HostBench b;
  auto cc = std::make_unique<Fixed>();
  cc->rate = 1e9;
  cc->window = 2000;
  b.flow(3000, std::move(cc));
  b.ev.at(5'000'000, [&] {
    Pkt* a = b.pool.control(Pkt::Ack, 64);
    b.pool.add_telemetry(*a);
    b.pool.telemetry(*a).ack_bytes = 1000;
    a->flow = 0;
    b.host.receive(0, a);
  });
  b.ev.run(~uint64_t(0));
  EXPECT_EQ(b.arrivals(), (std::vector<uint64_t>{1'080'000, 1'160'000, 6'080'000}));
  EXPECT_EQ(b.flows[0].acked, 1000u);
}

}  // namespace
}  // namespace dsh::net::test
