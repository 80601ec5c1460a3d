// SPDX-License-Identifier: Apache-2.0
// Network layer (issue 16): routing, ECMP, DCQCN's rate response, the CDF
// sampler, the deadlock detector and a short S2 run. Expected values are
// worked by hand (in the comments), never read from the code under test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include "collateral.h"
#include "deadlock.h"
#include "dcqcn.h"
#include "deadlock_detector.h"
#include "net_setup.h"
#include "mmu_model.h"
#include "powertcp.h"
#include "topology.h"
#include "workload.h"

using namespace dsh;
using namespace dsh::net;

namespace {

// Leaf-spine: spines S0, S1; leaves L0..L3; hosts A0 (L0), A1 (L1), A2 (L2), A3 (L3).
Topology leaf_spine(const std::vector<std::string>& failed, const std::vector<Route>& routes) {
  std::vector<LinkSpec> links;
  for (int l = 0; l < 4; ++l)
    for (int s = 0; s < 2; ++s) {
      LinkSpec k{"S" + std::to_string(s), "L" + std::to_string(l), 400, 2000, false};
      for (const auto& f : failed) k.failed |= f == k.a + "-" + k.b;
      links.push_back(k);
    }
  for (int l = 0; l < 4; ++l) links.push_back({"A" + std::to_string(l), "L" + std::to_string(l), 100, 2000, false});
  return Topology({"S0", "S1", "L0", "L1", "L2", "L3"}, {"A0", "A1", "A2", "A3"}, links, routes);
}

std::vector<std::string> names(const Topology& t, const std::vector<std::pair<int, int>>& path) {
  std::vector<std::string> v;
  for (const auto& [sw, port] : path) v.push_back(t.name(sw));
  return v;
}

}  // namespace

// The event queue's order, worked by hand: time, then phase, then the order
// of scheduling; a lane's events keep theirs among the rest; a reserved
// place (reserve_key) is taken by an event scheduled later, and one never
// taken leaves no trace.
TEST(NetEvents, OrderLanesAndReservedPlaces) {
  EventQueue ev;
  std::string log;
  auto mark = [&log](const char* what) { return [&log, what] { log += what; }; };
  const EventQueue::Handler h = [](void* l, void* what) { *static_cast<std::string*>(l) += static_cast<const char*>(what); };
  const uint32_t lane = ev.add_lane(h, &log);
  static const char a[] = "a", b[] = "b", c[] = "c", r[] = "R", x[] = "x";
  ev.at(2000, mark("M"), kPhaseMmu);    // phase MMU: after every normal event at 2000
  const uint64_t key = ev.reserve_key(kPhaseMmu);  // a place after M, before N
  ev.at(2000, mark("N"), kPhaseMmu);
  ev.lane_at(lane, 1000, const_cast<char*>(a));
  ev.lane_at(lane, 2000, const_cast<char*>(b));  // at 2000, scheduled after "1"
  ev.at(2000, mark("1"));
  ev.lane_at(lane, 3000, const_cast<char*>(c));
  ev.reserve_key();  // never taken: nothing runs in its place
  ev.at(1000, mark("0"));
  ev.call_at_key(2000, key, h, &log, const_cast<char*>(r));
  ev.call_at(3000, h, &log, const_cast<char*>(x));
  ev.run(~uint64_t(0));
  // 1000: lane a (scheduled first), then 0; 2000: lane b (scheduled before
  // 1), then 1, then the MMU phase: M, R in the place reserved before N was
  // scheduled, N; 3000: lane c (scheduled before x), then x.
  EXPECT_EQ(log, "a0b1MRNcx");
  EXPECT_EQ(ev.now(), 3000u);
}

TEST(NetRouting, ShortestPathsAndFailedLinks) {
  const Topology t = leaf_spine({}, {});
  // L0 (node 2) reaches A1 over either spine: its ports 0 (S0) and 1 (S1).
  EXPECT_EQ(t.next_ports(t.node("L0"), t.host("A1")), (std::vector<int>{0, 1}));
  // A spine reaches A1 only through L1 (its port 1: links are listed L0, L1, ...).
  EXPECT_EQ(t.next_ports(t.node("S0"), t.host("A1")), (std::vector<int>{1}));
  // The leaf of the destination goes straight down (port 2: after two uplinks).
  EXPECT_EQ(t.next_ports(t.node("L1"), t.host("A1")), (std::vector<int>{2}));
  const Topology f = leaf_spine({"S0-L3", "S1-L0"}, {});
  // L0 has lost S1, so everything leaves through S0 (port 0).
  EXPECT_EQ(f.next_ports(f.node("L0"), f.host("A3")), (std::vector<int>{0}));
  // S0 has lost L3: shortest ways S0 -> L1 -> S1 -> L3 and S0 -> L2 -> S1 -> L3.
  EXPECT_EQ(f.next_ports(f.node("S0"), f.host("A3")), (std::vector<int>{1, 2}));
}

TEST(NetRouting, ExplicitRouteMakesThePapersCycle) {
  const Topology t = leaf_spine({"S0-L3", "S1-L0"}, {{"S0", "L3", "L1"}, {"S1", "L0", "L2"}});
  EXPECT_EQ(names(t, t.path(t.host("A0"), t.host("A3"), 7)), (std::vector<std::string>{"L0", "S0", "L1", "S1", "L3"}));
  EXPECT_EQ(names(t, t.path(t.host("A3"), t.host("A0"), 7)), (std::vector<std::string>{"L3", "S1", "L2", "S0", "L0"}));
  EXPECT_THROW(leaf_spine({}, {{"S0", "L3", "L9"}}), ConfigError);  // NEXT is not a node
  EXPECT_THROW(leaf_spine({"S0-L3"}, {{"S0", "L3", "L3"}}), ConfigError);  // NEXT over a failed link
}

TEST(NetRouting, EcmpSpreadsFlowsOverEqualPaths) {
  const Topology t = leaf_spine({}, {});
  std::map<int, int> count;
  const int l0 = t.node("L0");
  const uint32_t a0 = uint32_t(t.host("A0")), a1 = uint32_t(t.host("A1"));
  for (uint32_t f = 0; f < 2000; ++f) ++count[t.route(l0, FlowTuple{a0, a1, f})];
  // Two uplinks, a fair hash: each share binomial(2000, 1/2), sd = 22; +-150 is ~7 sd.
  ASSERT_EQ(count.size(), 2u);
  EXPECT_NEAR(count[0], 1000, 150);
  EXPECT_NEAR(count[1], 1000, 150);
  // A flow keeps its path (per-flow hash, no reordering).
  EXPECT_EQ(t.route(l0, FlowTuple{a0, a1, 42}), t.route(l0, FlowTuple{a0, a1, 42}));
  // Every field of the tuple counts: with the flow id fixed, the source
  // alone spreads too (A0..A3 and 500 flow ids: about half change sides).
  int moved = 0;
  for (uint32_t f = 0; f < 500; ++f)
    moved += t.route(l0, FlowTuple{a0, a1, f}) != t.route(l0, FlowTuple{uint32_t(t.host("A2")), a1, f});
  EXPECT_NEAR(moved, 250, 60);  // binomial(500, 1/2): sd 11
}

// Two ECMP stages in series, worked by hand:
//
//        +- M0 -+        +- N0 -+
//   A - S           X -          - Z - B        (S, X, Z, M*, N* switches)
//        +- M1 -+        +- N1 -+
//
// plus a longer way S - P - Q - X that is never a candidate (3 hops to X
// against 2). S reaches B by M0 or M1 (ports 1, 2: its links are listed
// A, M0, M1, P), X by N0 or N1. Four equal paths; with a seed per switch
// the two choices are independent and each path takes a quarter of the
// flows. Had S and X hashed with the same seed they would pick the same
// side every time (hash polarisation) and two paths would carry nothing.
TEST(NetRouting, EcmpHandWorkedTwoStages) {
  std::vector<LinkSpec> links = {{"A", "S"},  {"S", "M0"}, {"S", "M1"}, {"S", "P"},  {"P", "Q"},  {"Q", "X"},
                                 {"M0", "X"}, {"M1", "X"}, {"X", "N0"}, {"X", "N1"}, {"N0", "Z"}, {"N1", "Z"},
                                 {"Z", "B"}};
  const Topology t({"S", "M0", "M1", "P", "Q", "X", "N0", "N1", "Z"}, {"A", "B"}, links, {});
  const int b = t.host("B");
  EXPECT_EQ(t.next_ports(t.node("S"), b), (std::vector<int>{1, 2}));   // M0, M1; not P
  EXPECT_EQ(t.next_ports(t.node("M0"), b), (std::vector<int>{1}));     // X
  // X's links: Q, M0, M1, N0, N1: toward B by N0 (3) or N1 (4).
  EXPECT_EQ(t.next_ports(t.node("X"), b), (std::vector<int>{3, 4}));
  EXPECT_EQ(t.next_ports(t.node("X"), t.host("A")), (std::vector<int>{1, 2}));  // back by M0 or M1, not Q
  std::map<std::vector<std::string>, int> paths;
  for (uint32_t f = 0; f < 4000; ++f) ++paths[names(t, t.path(t.host("A"), b, f))];
  ASSERT_EQ(paths.size(), 4u);
  // Each binomial(4000, 1/4): sd 27; +-150 is ~5.5 sd.
  for (const auto& [p, n] : paths) {
    EXPECT_EQ(p.size(), 5u);  // S, M?, X, N?, Z
    EXPECT_NEAR(n, 1000, 150) << p[1] << " " << p[3];
  }
  // Per-switch seeds: two switches, seeded from their own index, differ.
  EXPECT_NE(t.switch_seed(t.node("S")), t.switch_seed(t.node("X")));
}

// A failed link leaves the graph and the routes go around it. A square
// S0 - S1 - S2 - S3 - S0, host A on S0, host C on S2 (each switch's links
// in the order listed: S0: S1, S3, A; S1: S0, S2; ...).
TEST(NetRouting, FailedLinkChangesTheRoutes) {
  auto square = [](bool fail_s0s1, const std::vector<Route>& routes) {
    std::vector<LinkSpec> links = {{"S0", "S1"}, {"S1", "S2"}, {"S2", "S3"}, {"S3", "S0"}, {"A", "S0"}, {"C", "S2"}};
    links[0].failed = fail_s0s1;
    return Topology({"S0", "S1", "S2", "S3"}, {"A", "C"}, links, routes);
  };
  const Topology up = square(false, {});
  const int c = up.host("C"), a = up.host("A");
  // S0 reaches C in two hops either way: by S1 (port 0) or S3 (port 1).
  EXPECT_EQ(up.next_ports(up.node("S0"), c), (std::vector<int>{0, 1}));
  EXPECT_EQ(up.next_ports(up.node("S1"), a), (std::vector<int>{0}));  // straight to S0
  const Topology down = square(true, {});
  // S0-S1 failed: S0 has one way left (S3), and S1 reaches A the long way,
  // S1 -> S2 -> S3 -> S0 (its port 1).
  EXPECT_EQ(down.next_ports(down.node("S0"), c), (std::vector<int>{1}));
  EXPECT_EQ(down.next_ports(down.node("S1"), a), (std::vector<int>{1}));
  for (uint32_t f = 0; f < 50; ++f)
    EXPECT_EQ(names(down, down.path(a, c, f)), (std::vector<std::string>{"S0", "S3", "S2"}));
  EXPECT_EQ(names(down, down.path(c, a, 7)), (std::vector<std::string>{"S2", "S3", "S0"}));
  // A pinned route over the failed link is refused.
  EXPECT_THROW(square(true, {{"S0", "C", "S1"}}), ConfigError);
}

// A pinned route that closes a loop is refused, naming the route, its
// switch and the loop: in the square, S1 -> S0 toward C while S0 may send
// C's packets to S1 (one of its two equal ways).
TEST(NetRouting, LoopingPinnedRouteIsRefused) {
  std::vector<LinkSpec> links = {{"S0", "S1"}, {"S1", "S2"}, {"S2", "S3"}, {"S3", "S0"}, {"A", "S0"}, {"C", "S2"}};
  const std::vector<std::string> sw = {"S0", "S1", "S2", "S3"}, hosts = {"A", "C"};
  try {
    Topology(sw, hosts, links, {{"S1", "C", "S0"}});
    FAIL() << "a looping pinned route was accepted";
  } catch (const ConfigError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("net.routes"), std::string::npos) << m;
    EXPECT_NE(m.find("S1:C:S0"), std::string::npos) << m;
    EXPECT_NE(m.find("at switch S1"), std::string::npos) << m;
    EXPECT_NE(m.find("loop toward C: S0 -> S1 -> S0"), std::string::npos) << m;
  }
  // Pinning S0 to S3 as well removes the loop: S1 -> S0 -> S3 -> S2.
  const Topology ok(sw, hosts, links, {{"S1", "C", "S0"}, {"S0", "C", "S3"}});
  EXPECT_EQ(ok.next_ports(ok.node("S1"), ok.host("C")), (std::vector<int>{0}));
  // Two pinned routes that point at each other: named too.
  EXPECT_THROW(Topology(sw, hosts, links, {{"S0", "S2", "S3"}, {"S3", "S2", "S0"}}), ConfigError);
}

TEST(NetRouting, BadTopologiesAreRefused) {
  EXPECT_THROW(Topology({"S0"}, {"H0"}, {{"H0", "S9"}}, {}), ConfigError);                // unknown node
  EXPECT_THROW(Topology({"S0"}, {"H0", "H1"}, {{"H0", "S0"}}, {}), ConfigError);          // H1 has no link
  EXPECT_THROW(Topology({"S0"}, {"H0", "H1"}, {{"H0", "H1"}, {"H0", "S0"}}, {}), ConfigError);  // host-host
  EXPECT_THROW(parse_link("H0S0", 100, 2000, "net.links"), ConfigError);
  const LinkSpec l = parse_link("S0-L1:400:1000", 100, 2000, "net.links");
  EXPECT_EQ(l.gbps, 400);
  EXPECT_EQ(l.delay_ns, 1000);
}

// HPCC defaults (g = 1/256, alpha every 1 us, cuts at most every 4 us,
// increase timer 300 us, one fast-recovery step, AI 20 Mb/s), worked by hand:
//   t=0: first CNP: alpha = 1, rate = 100 * (1 - 1/2) = 50, target stays 100.
//   t=300 us: stage 0 < 1: fast recovery, rate = (50 + 100) / 2 = 75.
//   t=600 us: stage 1 = 1: additive, target = min(100, 100.02) = 100, rate = 87.5.
//   t=700 us: CNP. alpha: the interval ending at 1 us had the first CNP:
//     (1-g)*1 + g = 1; 699 intervals without: (255/256)^699 = 0.0648411;
//     target = 87.5 (an increase happened), rate = 87.5 * (1 - 0.0648411/2) = 84.6632.
//   t=702 us: CNP within 4 us of the cut: no cut now, one due at 704 us.
TEST(NetDcqcn, RateResponseToMarkedPackets) {
  DcqcnParams p;
  Dcqcn d(p);
  EXPECT_DOUBLE_EQ(d.rate_gbps(), 100);
  EXPECT_TRUE(d.on_cnp(0));
  EXPECT_DOUBLE_EQ(d.rate_gbps(), 50);
  EXPECT_DOUBLE_EQ(d.target_gbps(), 100);
  EXPECT_EQ(d.increase_due_ps(), 300'000'000u);
  d.on_increase_timer(300'000'000);
  EXPECT_DOUBLE_EQ(d.rate_gbps(), 75);
  EXPECT_EQ(d.increase_due_ps(), 600'000'000u);
  d.on_increase_timer(600'000'000);
  EXPECT_DOUBLE_EQ(d.target_gbps(), 100);
  EXPECT_DOUBLE_EQ(d.rate_gbps(), 87.5);
  EXPECT_TRUE(d.on_cnp(700'000'000));
  EXPECT_NEAR(d.alpha_at(700'000'000), 0.0648411, 1e-6);
  EXPECT_NEAR(d.rate_gbps(), 84.6632, 1e-3);
  EXPECT_DOUBLE_EQ(d.target_gbps(), 87.5);
  EXPECT_FALSE(d.on_cnp(702'000'000));
  EXPECT_EQ(d.decrease_due_ps(), 704'000'000u);
  // Hyper increase after the additive step: stage 0 FR, 1 AI, 2 HAI (+0.2).
  Dcqcn h(p);
  h.on_cnp(0);  // 50 / 100
  h.on_increase_timer(1);  // FR 75
  h.on_increase_timer(2);  // AI: target 100, rate 87.5
  h.on_increase_timer(3);  // HAI: target 100 (capped), rate 93.75
  EXPECT_DOUBLE_EQ(h.rate_gbps(), 93.75);
  // The floor: many cuts at alpha = 1 never go below min_rate (1 Gb/s).
  Dcqcn m(p);
  for (int i = 0; i < 20; ++i) m.on_cnp(uint64_t(i) * 5'000'000);
  EXPECT_GE(m.rate_gbps(), 1.0);
  EXPECT_LT(m.rate_gbps(), 1.2);
}

TEST(NetDcqcn, EcnMarkingIsRedLike) {
  // Kmin 400 KB, Kmax 1600 KB, Pmax 0.2 (HPCC, 100 Gb/s).
  EXPECT_EQ(ecn_mark_probability(400'000, 400'000, 1'600'000, 0.2), 0);
  EXPECT_NEAR(ecn_mark_probability(1'000'000, 400'000, 1'600'000, 0.2), 0.1, 1e-12);  // 0.2 * 600/1200
  EXPECT_EQ(ecn_mark_probability(1'600'001, 400'000, 1'600'000, 0.2), 1);
}

// PowerTCP's window update (powertcp.h), worked by hand. tau = 10 us, one
// 100 Gb/s hop: BDP b*tau = 125,000 B; beta*tau = 150 Mb/s * 10 us = 187.5 B;
// gamma 0.9, target 0.95; the first window is one BDP, u starts at 1.
//   ACK 1 (acks 1,500 B; 125,000 B sent): hop at 10 us, 125,000 B entered,
//     queue 0; previous INT zero: current = 125,000 B / 10 us = 100 Gb/s,
//     Gamma = (100/100) * (0 + 125,000) / 125,000 = 1, dt = 10 us = tau, u = 1;
//     cwnd = 0.9 * (125,000 / (1/0.95) + 187.5) + 0.1 * 125,000
//          = 0.9 * 118,937.5 + 12,500 = 119,543.75 B (95.635 Gb/s);
//     1,500 > 0 acknowledged at the last update: committed, cwnd_old = 119,543.75.
//   ACK 2 (acks 3,000 B, within the RTT): hop at 12 us, 175,000 B, queue
//     62,500 B: current = 50,000 B / 2 us = 200 Gb/s,
//     Gamma = 2 * (62,500 + 125,000) / 125,000 = 3, u = (1*8 + 3*2) / 10 = 1.4;
//     cwnd = 0.9 * (119,543.75 * 0.95 / 1.4 + 187.5) + 0.1 * 119,543.75
//          = 0.9 * (81,118.97321 + 187.5) + 11,954.375 = 85,130.20089 B;
//     3,000 <= 125,000: not committed, cwnd_old stays 119,543.75.
//   ACK 3 (acks 126,500 B; 240,000 B sent): hop at 14 us, 180,000 B, queue
//     0: 5,000 B / 2 us = 20 Gb/s, below the floor 0.5 * 100: current 50,
//     Gamma = 0.5, u = (1.4*8 + 0.5*2) / 10 = 1.22;
//     cwnd = 0.9 * (113,566.5625 / 1.22 + 187.5) + 11,954.375 = 95,901.73668 B;
//     committed (126,500 > 125,000).
TEST(NetPowerTcp, WindowUpdateByHand) {
  PowerTcpParams p;
  p.base_rtt_us = 10;
  PowerTcp w(p);
  EXPECT_DOUBLE_EQ(w.cwnd_bytes(), 125000);
  EXPECT_DOUBLE_EQ(w.rate_gbps(), 100);
  IntStack a;
  a.push({10'000'000, 125'000, 0, 100});
  a.ack_bytes = 1500;
  EXPECT_TRUE(w.on_ack(a, 125'000));
  EXPECT_NEAR(w.power(), 1, 1e-12);
  EXPECT_NEAR(w.cwnd_bytes(), 119543.75, 1e-6);
  EXPECT_NEAR(w.rate_gbps(), 95.635, 1e-9);
  IntStack b;
  b.push({12'000'000, 175'000, 62'500, 100});
  b.ack_bytes = 3000;
  EXPECT_FALSE(w.on_ack(b, 130'000));
  EXPECT_NEAR(w.power(), 1.4, 1e-12);
  EXPECT_NEAR(w.cwnd_bytes(), 85130.20089, 1e-4);
  EXPECT_NEAR(w.cwnd_old_bytes(), 119543.75, 1e-6);
  IntStack c;
  c.push({14'000'000, 180'000, 0, 100});
  c.ack_bytes = 126'500;
  EXPECT_TRUE(w.on_ack(c, 240'000));
  EXPECT_NEAR(w.power(), 1.22, 1e-12);
  EXPECT_NEAR(w.cwnd_bytes(), 95901.73668, 1e-4);
  EXPECT_NEAR(w.cwnd_old_bytes(), 95901.73668, 1e-4);
}

// The bottleneck hop decides: of two hops, the one with the larger power
// (a 400 Gb/s hop at half its rate, queue 0: 0.5; a 100 Gb/s hop at its rate
// with 250,000 B queued: (250,000 + 125,000) / 125,000 = 3), and the window
// stays within [min_rate, line] * tau = [125, 125,000] B (beta = 0 here: with
// beta tau = 187.5 B the window cannot fall below 0.9 * 187.5 B).
TEST(NetPowerTcp, BottleneckHopAndBounds) {
  PowerTcpParams p;
  p.base_rtt_us = 10;
  p.beta_mbps = 0;
  PowerTcp w(p);
  IntStack t;
  t.push({10'000'000, 250'000, 0, 400});
  t.push({10'000'000, 125'000, 250'000, 100});
  uint64_t dt = 0;
  EXPECT_NEAR(w.norm_power(t, &dt), 3, 1e-12);
  EXPECT_EQ(dt, 10'000'000u);
  IntStack idle;  // nothing arrived: the floor (0.5) everywhere, the window grows to the line rate
  idle.push({10'000'000, 0, 0, 100});
  for (int i = 1; i < 50; ++i) {
    idle.hop[0].ts_ps = uint64_t(i) * 10'000'000;
    idle.ack_bytes = uint64_t(i) * 1'000'000;
    w.on_ack(idle, uint64_t(i) * 1'000'000);
  }
  EXPECT_DOUBLE_EQ(w.cwnd_bytes(), 125000);
  IntStack jam;  // 10 MB queued at the hop: Gamma = 81, the window shrinks ~9x per update to its floor
  jam.push({0, 0, 10'000'000, 100});
  for (int i = 50; i < 200; ++i) {
    jam.hop[0].ts_ps = uint64_t(i) * 10'000'000;
    jam.hop[0].rx_bytes = uint64_t(i) * 125'000;
    jam.ack_bytes = uint64_t(i) * 1'000'000;
    w.on_ack(jam, uint64_t(i) * 1'000'000);
  }
  EXPECT_DOUBLE_EQ(w.cwnd_bytes(), 125);
}

// tau for the S2 network: every host pair is 2 or 3 links of 2 us at
// 100 Gb/s; 3 links: 2 * 6 us + 3 * 1,500 B * 8 / 100 Gb/s = 12.36 us.
TEST(NetPowerTcp, BaseRttOfTheLongestPath) {
  KeyStore k;
  declare_collateral_keys(k);
  k.load_toml(DSH_SCENARIO_DIR "/collateral-damage.toml");
  NetSetup s = build_setup(k);
  EXPECT_NEAR(s.fp.powertcp_params.base_rtt_us, 12.36, 1e-9);
  k.set("powertcp.base_rtt_us", "20");
  EXPECT_DOUBLE_EQ(build_setup(k).fp.powertcp_params.base_rtt_us, 20);
}

// A 2:1 incast under PowerTCP: A and B send without end to R through one
// switch (100 Gb/s, 2 us links; tau = 2 * 4 us + 2 * 0.12 us = 8.24 us,
// BDP 103,000 B). At PowerTCP's fixed point each window w satisfies
// w = w / (Gamma / 0.95) + beta tau, and the queue q = 2w - BDP when
// positive, Gamma = 1 + q / BDP; so q = 2 beta tau - 0.05 BDP
// = 2 * 154.5 - 5,150 < 0: the target is an empty queue, the link at
// (0.95 + 2 * 0.0015) = 95.3 % (Gamma = 2w / BDP = 0.953). The first RTT at
// line rate queues up to about one BDP, far below the PFC threshold of
// either scheme; from 0.5 ms the queue stays within a few packets, R
// receives 90-100 Gb/s, and no switch sends PAUSE.
TEST(NetPowerTcp, IncastTwoToOneHoldsTheQueueWithoutPause) {
  for (Scheme scheme : {Scheme::DSH, Scheme::SIH}) {
    KeyStore k;
    declare_collateral_keys(k);
    k.load_toml(DSH_SCENARIO_DIR "/collateral-damage.toml");
    k.set("net.switches", "S0");
    k.set("net.hosts", "A,B,R");
    k.set("net.links", "A-S0,B-S0,R-S0");
    NetSetup s = build_setup(k);
    EXPECT_NEAR(s.fp.powertcp_params.base_rtt_us, 8.24, 1e-9);
    configure_run(s, k, scheme, "powertcp");
    Fabric fab(*s.topo, s.chips, s.fp);
    const uint32_t a = uint32_t(s.topo->host("A")), b = uint32_t(s.topo->host("B")), r = uint32_t(s.topo->host("R"));
    fab.add_flow(a, r, 0, 0, 0, 0);
    fab.add_flow(b, r, 0, 0, 0, 0);
    const int sw = s.topo->node("S0");
    const Port& down = fab.tx(sw, 2);  // S0 -> R
    EventQueue& ev = fab.events();
    uint64_t peak_first_rtt = 0, peak = 0, samples = 0, rx = 0;
    double sum = 0;
    fab.on_deliver = [&](int32_t, uint32_t bytes) {
      if (ev.now() >= 500'000'000) rx += bytes;
    };
    std::function<void()> sample = [&] {
      const uint64_t q = down.qbytes[0];
      if (ev.now() < 500'000'000) {
        peak_first_rtt = std::max(peak_first_rtt, q);
      } else {
        peak = std::max(peak, q);
        sum += double(q);
        ++samples;
      }
      ev.after(100'000, sample);  // every 0.1 us
    };
    ev.at(0, sample);
    fab.run(3'000'000'000);  // 3 ms
    ASSERT_TRUE(fab.error.empty()) << fab.error;
    const double mean = sum / double(samples), gbps = double(rx) * 8 / 2.5e6;
    std::printf("%s: queue first 0.5 ms peak %llu B; then mean %.0f B, peak %llu B; R gets %.2f Gb/s; window %.0f B\n",
                scheme == Scheme::DSH ? "dsh" : "sih", (unsigned long long)peak_first_rtt, mean,
                (unsigned long long)peak, gbps, static_cast<const PowerTcpControl&>(*fab.flows()[0].cc).powertcp().cwnd_bytes());
    EXPECT_EQ(fab.stats(sw).pause_frames, 0u);
    EXPECT_EQ(fab.lossless_drops(), 0u);
    EXPECT_LT(peak_first_rtt, 2 * 103'000u);
    EXPECT_LT(mean, 3000);  // within two packets of the empty target on average
    EXPECT_LT(peak, 15'000u);  // ten packets at most
    EXPECT_GT(gbps, 90);
    EXPECT_LE(gbps, 100);
  }
}

TEST(NetWorkload, CdfSampler) {
  // 50 % of flows uniform in [0, 100] B, 50 % in [100, 300] B.
  const SizeCdf c({{0, 0}, {100, 0.5}, {300, 1}}, "test");
  EXPECT_EQ(c.at(0.25), 50u);
  EXPECT_EQ(c.at(0.75), 200u);
  EXPECT_EQ(c.at(1.0), 300u);
  EXPECT_DOUBLE_EQ(c.mean_bytes(), 125);  // 0.5*50 + 0.5*200
  std::mt19937_64 rng(3);
  double sum = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) sum += double(c.sample(rng));
  EXPECT_NEAR(sum / n, 125, 1.5);  // sd of the mean ~0.2
  EXPECT_THROW(SizeCdf({{0, 0}, {100, 0.6}, {50, 1}}, "test"), InputError);   // sizes decrease
  EXPECT_THROW(SizeCdf({{0, 0}, {100, 0.6}}, "test"), InputError);             // does not reach 1
  // The Hadoop file: 50 % of flows at most 700 B; the median is that point.
  const SizeCdf h = SizeCdf::load(DSH_DATA_DIR "/hadoop.cdf");
  EXPECT_EQ(h.at(0.5), 700u);
  EXPECT_EQ(h.at(0.975), 1'000'000u);
  // Poisson gaps: mean = mean_bytes*8/(load*rate): 125 B at 50 % of 100 Gb/s = 20 ns.
  double g = 0;
  for (int i = 0; i < n; ++i) g += double(poisson_gap_ps(rng, 125, 100, 0.5));
  EXPECT_NEAR(g / n, 20000, 200);
}

TEST(NetDeadlock, ConstructedCycleIsFound) {
  // Links 0 -> 1 -> 2 -> 0 all blocked; last moves at 10, 20, 30 us; still for 100 us at 200 us.
  std::vector<WaitLink> g(4);
  for (int i = 0; i < 3; ++i) {
    g[i].blocked = true;
    g[i].last_move_ps = uint64_t(10 * (i + 1)) * 1'000'000;
    g[i].waits_on = {(i + 1) % 3};
  }
  g[3].blocked = true;  // a blocked link that waits on the cycle is not part of it
  g[3].waits_on = {0};
  const auto d = find_deadlock(g, 200'000'000, 100'000'000);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->cycle.size(), 3u);
  EXPECT_EQ(d->onset_ps, 30'000'000u);  // the cycle formed when its last link stopped
}

TEST(NetDeadlock, CongestedButMovingIsNot) {
  std::vector<WaitLink> g(3);
  for (int i = 0; i < 3; ++i) {
    g[i].blocked = true;
    g[i].waits_on = {(i + 1) % 3};
  }
  g[1].last_move_ps = 150'000'000;  // moved 50 us ago: paused on and off, not stuck
  EXPECT_FALSE(find_deadlock(g, 200'000'000, 100'000'000).has_value());
  g[1].last_move_ps = 0;
  g[2].blocked = false;  // one link of the ring can send: no cycle of paused links
  EXPECT_FALSE(find_deadlock(g, 200'000'000, 100'000'000).has_value());
  g[2].blocked = true;
  g[2].waits_on = {};  // a chain, not a cycle
  EXPECT_FALSE(find_deadlock(g, 200'000'000, 100'000'000).has_value());
}

// S2 shortened: no congestion control, the fan-in once the long flows have
// run 100 us at 45 Gb/s or more. DSH keeps the innocent flow near its 50 Gb/s
// (the fan-in is 1.5 MB, far below DSH's pause-free burst, ~38 % of 16 MiB);
// SIH's queue threshold is reached within ~20 us, S1 pauses S0 and F0 stops.
TEST(NetScenario, CollateralDamageShortRun) {
  KeyStore k;
  declare_collateral_keys(k);
  k.load_toml(DSH_SCENARIO_DIR "/collateral-damage.toml");
  k.set("run.cc", "none");
  k.set("traffic.settle_us", "100");
  k.set("traffic.max_run_us", "600");
  k.set("traffic.tail_us", "20");
  NetSetup s = build_setup(k);
  const CollateralRun d = run_collateral(k, s, Scheme::DSH, "none");
  const CollateralRun i = run_collateral(k, s, Scheme::SIH, "none");
  ASSERT_TRUE(d.error.empty()) << d.error;
  ASSERT_TRUE(i.error.empty()) << i.error;
  ASSERT_TRUE(d.fanin_done && i.fanin_done);
  EXPECT_EQ(d.lossless_drops + i.lossless_drops, 0u);
  EXPECT_EQ(d.reordered + i.reordered, 0u);
  EXPECT_GT(d.f0_mean_during, 45);
  EXPECT_LT(i.f0_mean_during, 0.8 * d.f0_mean_during);
  // 24 x 64 KB + F1's share through R1's 100 Gb/s link: at least 24*65536*8/100 ns = 126 us.
  EXPECT_GT(d.fanin_end_us - d.fanin_start_us, 125.8);
}

TEST(NetKeys, UnknownAndBadValuesAreRefusedByName) {
  KeyStore k;
  declare_collateral_keys(k);
  try {
    k.set("net.linkz", "x");
    FAIL() << "unknown key accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("net.linkz"), std::string::npos);
  }
  k.load_toml(DSH_SCENARIO_DIR "/collateral-damage.toml");
  k.set("dcqcn.kmax_kb", "100");  // below kmin 400
  try {
    build_setup(k);
    FAIL() << "kmax below kmin accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("dcqcn.kmax_kb"), std::string::npos);
  }
}

// The detector on a running fabric. The S3 leaf-spine with its two failed
// links, routed by ECMP, at the per-leaf reading of the paper's load 0.5
// (800 Gb/s per leaf pair) offers L0's one working uplink L0->S0 and the
// detour links S0->L1, S0->L2 twice their 400 Gb/s (worked in
// OfferedLoadByHand), so PFC closes one of the two detour cycles within a
// millisecond. The same network without failures routes up-down (no cyclic
// buffer dependency): congested, with PAUSE frames, but it can never
// deadlock.
namespace {
KeyStore deadlock_keys() {
  KeyStore k;
  declare_deadlock_keys(k);
  k.load_toml(DSH_SCENARIO_DIR "/deadlock.toml");
  k.set("traffic.load_unit", "leaf");
  k.set("traffic.load", "0.5");
  k.set("deadlock.still_us", "200");
  return k;
}
}  // namespace

TEST(NetDeadlock, DetectedInTheFailedLinkLeafSpine) {
  KeyStore k = deadlock_keys();
  NetSetup s = build_setup(k);
  const DeadlockRun r = run_deadlock(k, s, Scheme::SIH, "none", 1, 1.5, 0.5);
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_TRUE(r.deadlocked);
  // One of the two detour cycles, as the detector prints it from its first link.
  const std::vector<std::string> cycles = {"S0>L1 L1>S1 S1>L2 L2>S0", "L1>S1 S1>L2 L2>S0 S0>L1",
                                           "S1>L2 L2>S0 S0>L1 L1>S1", "L2>S0 S0>L1 L1>S1 S1>L2",
                                           "S0>L2 L2>S1 S1>L1 L1>S0", "L2>S1 S1>L1 L1>S0 S0>L2",
                                           "S1>L1 L1>S0 S0>L2 L2>S1", "L1>S0 S0>L2 L2>S1 S1>L1"};
  EXPECT_NE(std::find(cycles.begin(), cycles.end(), r.cycle), cycles.end()) << r.cycle;
  EXPECT_LT(r.onset_ms, r.detected_ms);
  EXPECT_GE(r.detected_ms - r.onset_ms, 0.2);  // still for deadlock.still_us before it counts
  EXPECT_EQ(r.lossless_drops, 0u);
}

TEST(NetDeadlock, CongestedUpDownNetworkIsNot) {
  KeyStore k = deadlock_keys();
  k.set("net.failed_links", "");
  k.set("net.routes", "");
  NetSetup s = build_setup(k);
  const DeadlockRun r = run_deadlock(k, s, Scheme::SIH, "none", 1, 1.0, 0.5);
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_GT(r.pause_frames, 0u);  // congested: PFC at work
  EXPECT_FALSE(r.deadlocked) << r.cycle;
  EXPECT_EQ(r.lossless_drops, 0u);
}

// The load's two readings on the S3 network, worked by hand. Per leaf pair:
// leaf = load x 16 x 100 Gb/s, receiver = load x 100 Gb/s. ECMP splits
// evenly: L0 -> S0 carries all of L0->L3 (S1-L0 failed); S0 -> L1 carries
// half of L0->L3 (S0 -> {L1, L2}) plus half of L2->L1 (L2 -> {S0, S1}).
//   leaf 0.25: 400 Gb/s per pair; L0->S0 = 400, S0->L1 = 200 + 200 = 400:
//     both exactly full (1.0): the largest feasible per-leaf load.
//   leaf 0.5: 800 per pair: 2.0, infeasible.
//   receiver 0.5: 50 per pair: L0->S0 = 50 of 400 = 0.125.
// A network's golden switches decide when stepped and the MMU clock holds
// their results, so their state runs kRtlLatency cycles ahead of their
// outputs. The hooks that read state (on_retire, on_mmu_out) make the clock
// feed the model through a delay line instead; that is chosen before the
// MMUs run (refused after), and gives the same packets at the same times.
// One flow of 10 packets H0 -> H20 crosses three switches (L0, a spine,
// L1): at least 10 enqueue cycles each.
TEST(NetFabric, StateHooksTakeTheDelayLineBeforeTheRun) {
  KeyStore k = deadlock_keys();
  NetSetup s = build_setup(k);
  configure_run(s, k, Scheme::DSH, "none");
  uint64_t last[2] = {0, 0};
  for (int hooks = 0; hooks < 2; ++hooks) {
    Fabric fab(*s.topo, s.chips, s.fp);
    uint64_t retired = 0;
    if (hooks) fab.on_retire = [&](int, const Op*, unsigned) { ++retired; };
    fab.on_deliver = [&](int32_t, uint32_t) { last[hooks] = fab.events().now(); };
    fab.add_flow(0, 20, 0, 15000, 0, 0);
    fab.run(100'000'000);
    ASSERT_EQ(fab.error, "");
    EXPECT_EQ(fab.flows()[0].delivered, 15000u);
    if (hooks) {
      EXPECT_GE(retired, 30u);
    }
    if (!hooks) {
      fab.on_mmu_out = [](int, const Thresholds&) {};
      EXPECT_THROW(fab.run(200'000'000), std::logic_error);
    }
  }
  EXPECT_GT(last[0], 0u);
  EXPECT_EQ(last[0], last[1]);
}

TEST(NetDeadlock, OfferedLoadByHand) {
  KeyStore k = deadlock_keys();
  NetSetup s = build_setup(k);
  EXPECT_NEAR(offered_load(k, *s.topo, 0.25).utilisation, 1.0, 1e-9);
  EXPECT_NEAR(offered_load(k, *s.topo, 0.5).utilisation, 2.0, 1e-9);
  EXPECT_NEAR(offered_load(k, *s.topo, 0.5).gbps, 800, 1e-6);
  k.set("traffic.load_unit", "receiver");
  EXPECT_NEAR(offered_load(k, *s.topo, 0.5).utilisation, 0.125, 1e-9);
  // The load list: each once, as point text.
  k.set("traffic.load", "0.1, 0.50, 0.1,0.9");
  EXPECT_EQ(deadlock_loads(k), (std::vector<std::string>{"0.1", "0.5", "0.9"}));
  EXPECT_THROW(k.set("traffic.load", "0.5,0"), ConfigError);
  EXPECT_THROW(k.set("traffic.load", "1.5"), ConfigError);
}

// S2 with four lanes in every switch's MMU at 0.2 GHz (spec §4.7): the
// run completes with no MMU error and no lossless drop, and the switches
// report lane use: the fan-in's packets reach a switch together on ports of
// different lanes, so some cycle decides more than one enqueue (and none
// more than the four lanes).
TEST(NetLanes, CollateralRunsWithFourLanes) {
  KeyStore k;
  declare_collateral_keys(k);
  k.load_toml(DSH_SCENARIO_DIR "/collateral-damage.toml");
  k.set("traffic.settle_us", "100");
  k.set("traffic.max_run_us", "600");
  k.set("traffic.tail_us", "20");
  k.set("run.backend", "golden");
  k.set("chip.lanes", "4");
  k.set("chip.deq_per_cycle", "4");
  k.set("chip.mmu_clock_ghz", "0.2");
  NetSetup s = build_setup(k);
  const CollateralRun r = run_collateral(k, s, Scheme::DSH, "none");
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.lossless_drops, 0u);
  EXPECT_TRUE(r.fanin_done);
  ASSERT_EQ(r.max_enq_per_cycle.size(), s.topo->n_switches());
  unsigned most = 0;
  for (unsigned n : r.max_enq_per_cycle) {
    EXPECT_LE(n, 4u);
    most = std::max(most, n);
  }
  EXPECT_GT(most, 1u);
}

// One switch's MMU as the Verilated RTL in lockstep with the golden model,
// inside a network of golden ones: the same S2 result, no mismatch; and a
// planted RTL fault (spec §9, shared drains before headroom) is caught.
TEST(NetLockstep, OneRtlSwitchGivesTheSameResult) {
  KeyStore k;
  declare_collateral_keys(k);
  k.load_toml(DSH_SCENARIO_DIR "/collateral-damage.toml");
  k.set("traffic.settle_us", "100");
  k.set("traffic.max_run_us", "600");
  k.set("traffic.tail_us", "20");
  // The golden switches hold their results (MmuClock::holds_results), the
  // RTL has the latency itself; with DCQCN too (ECN draws). This small
  // network has too few same-nanosecond MMU cycles to tell a change in
  // their order across switches: net/benchmark_rtl checks that at scale.
  for (const char* cc : {"none", "dcqcn"}) {
    k.set("net.rtl_switches", "");
    k.set("run.backend", "golden");
    NetSetup g = build_setup(k);
    const CollateralRun gold = run_collateral(k, g, Scheme::SIH, cc);
    k.set("net.rtl_switches", "S1");
    k.set("run.backend", "lockstep");
    NetSetup l = build_setup(k);
    const CollateralRun lock = run_collateral(k, l, Scheme::SIH, cc);
    ASSERT_TRUE(lock.error.empty()) << lock.error;
    EXPECT_EQ(lock.forwarded, gold.forwarded) << cc;
    EXPECT_EQ(lock.f0_us, gold.f0_us) << cc;
    EXPECT_EQ(lock.pause_frames, gold.pause_frames) << cc;
    EXPECT_EQ(lock.ecn_marks, gold.ecn_marks) << cc;
    EXPECT_EQ(lock.fanin_us, gold.fanin_us) << cc;
  }
  k.set("run.rtl_fault", "11");
  k.set("run.mismatch_dir", ::testing::TempDir());
  NetSetup f = build_setup(k);
  const CollateralRun bad = run_collateral(k, f, Scheme::SIH, "none");
  EXPECT_TRUE(dsh::is_lockstep_report(bad.error)) << "planted fault not caught: " << bad.error;
}
