// SPDX-License-Identifier: Apache-2.0
// Routing (systemc/model/topology.h): shortest paths, failed links, pinned
// routes, ECMP's spread, refused topologies. Expected ports and paths are
// worked by hand from the link lists.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "config.h"
#include "topology.h"

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
