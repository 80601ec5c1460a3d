// SPDX-License-Identifier: Apache-2.0
// The benchmark scenario's pieces: the topology
// generators and their ECMP path counts, the workload sampler's mean, the
// ideal FCT on a hand-worked case (and a lone flow measured against it),
// the FCT histograms, the figures with unfinished flows counted, the
// DSH/SIH ratios over seeds, and a tiny run whose unfinished flows are
// counted.
// Expected values are worked by hand in the comments.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>

#include "benchmark.h"
#include "fabric.h"
#include "net_setup.h"
#include "topology.h"
#include "workload.h"

using namespace dsh;
using namespace dsh::net;

namespace {

Topology build(const GeneratedNet& g) { return Topology(g.switches, g.hosts, g.links, {}); }

// Equal-cost paths from host a to host b: the product of the candidate
// counts along the (tree-shaped) shortest-path DAG, summed over branches.
uint64_t paths(const Topology& t, int node, int dst) {
  if (!t.is_switch(node)) return node == t.host_node(dst) ? 1 : 0;
  uint64_t n = 0;
  for (int p : t.next_ports(node, dst)) n += paths(t, t.ports(node)[size_t(p)].peer, dst);
  return n;
}
uint64_t host_paths(const Topology& t, int a, int b) { return paths(t, t.host_switch(a), b); }

// Distinct paths the ECMP hash picks over many flows.
size_t hashed_paths(const Topology& t, int a, int b) {
  std::set<std::vector<std::pair<int, int>>> s;
  for (uint32_t f = 0; f < 2000; ++f) s.insert(t.path(a, b, f));
  return s.size();
}

KeyStore bench_keys() {
  KeyStore k;
  declare_benchmark_keys(k);
  k.load_toml(DSH_SCENARIO_DIR "/benchmark.toml");
  return k;
}

}  // namespace

TEST(benchmark_topology, LeafSpineCountsAndPaths) {
  // 4 leaves x 2 spines x 3 hosts: 6 switches, 12 hosts, 12 host links + 8 uplinks.
  const GeneratedNet g = leaf_spine(4, 2, 3, 100, 2000);
  EXPECT_EQ(g.switches.size(), 6u);
  EXPECT_EQ(g.hosts.size(), 12u);
  EXPECT_EQ(g.links.size(), 20u);
  const Topology t = build(g);
  // H0..H2 on L0 (ports 0..2), uplinks S0, S1 on ports 3, 4.
  EXPECT_EQ(t.host_switch(2), t.node("L0"));
  EXPECT_EQ(t.host_switch(3), t.node("L1"));
  EXPECT_EQ(t.next_ports(t.node("L0"), 3), (std::vector<int>{3, 4}));
  EXPECT_EQ(t.next_ports(t.node("S1"), 3), (std::vector<int>{1}));  // S1's ports: L0, L1, L2, L3
  EXPECT_EQ(host_paths(t, 0, 3), 2u);   // across: one path per spine
  EXPECT_EQ(host_paths(t, 0, 1), 1u);   // same rack: through L0 only
  EXPECT_EQ(hashed_paths(t, 0, 3), 2u);  // the hash uses both
  EXPECT_EQ(t.path(0, 3, 7).size(), 3u);  // L0, a spine, L1
  // The paper's 16 x 16 x 16: 32 switches, 256 hosts, 256 + 256 links; 16 paths across, leaves use all 32 ports.
  const GeneratedNet p = leaf_spine(16, 16, 16, 100, 2000);
  const Topology tp = build(p);
  EXPECT_EQ(tp.n_switches(), 32u);
  EXPECT_EQ(tp.n_hosts(), 256u);
  EXPECT_EQ(p.links.size(), 512u);
  EXPECT_EQ(tp.ports(tp.node("L0")).size(), 32u);
  EXPECT_EQ(tp.ports(tp.node("S15")).size(), 16u);
  EXPECT_EQ(host_paths(tp, 0, 255), 16u);
}

TEST(benchmark_topology, FatTreeK4AndK16) {
  // k = 4: 4 pods x (2 edge + 2 aggregation) + 4 cores = 20 switches, 16
  // hosts; links 16 (hosts) + 16 (edge-aggregation: 4 pods x 2 x 2) + 16
  // (aggregation-core: 8 x 2).
  const GeneratedNet g = fat_tree(4, 100, 2000);
  EXPECT_EQ(g.switches.size(), 20u);
  EXPECT_EQ(g.hosts.size(), 16u);
  EXPECT_EQ(g.links.size(), 48u);
  const Topology t = build(g);
  for (size_t s = 0; s < t.n_switches(); ++s) EXPECT_EQ(t.ports(int(s)).size(), 4u) << t.name(int(s));
  // H0, H1 on P0E0; H2, H3 on P0E1; H4.. in pod 1.
  EXPECT_EQ(host_paths(t, 0, 1), 1u);  // same edge switch
  EXPECT_EQ(host_paths(t, 0, 2), 2u);  // same pod: k/2 aggregation switches
  EXPECT_EQ(host_paths(t, 0, 4), 4u);  // other pod: (k/2)^2 cores
  EXPECT_EQ(hashed_paths(t, 0, 4), 4u);
  EXPECT_EQ(t.path(0, 4, 1).size(), 5u);  // edge, aggregation, core, aggregation, edge
  EXPECT_EQ(t.path(0, 2, 1).size(), 3u);
  // k = 16: 1,024 hosts, 128 + 128 + 64 = 320 switches, 64 paths between pods.
  const GeneratedNet b = fat_tree(16, 100, 2000);
  EXPECT_EQ(b.hosts.size(), 1024u);
  EXPECT_EQ(b.switches.size(), 320u);
  EXPECT_EQ(b.links.size(), 1024u + 1024u + 1024u);
  const Topology tb = build(b);
  EXPECT_EQ(host_paths(tb, 0, 1023), 64u);
  EXPECT_THROW(fat_tree(5, 100, 2000), ConfigError);
}

TEST(benchmark_workload, SampleMeanMatchesTheCdf) {
  // A uniform CDF 0..1000 B has mean 500 B.
  const SizeCdf u({{0, 0}, {1000, 1}}, "uniform");
  EXPECT_DOUBLE_EQ(u.mean_bytes(), 500);
  // Web search: sum over segments of dp x (s0 + s1) / 2 = 1,711,250 B
  // (0.15 x 5 KB + 0.05 x 15 KB + 0.1 x 25 KB + 0.1 x 40 KB + 0.13 x 65 KB +
  // 0.07 x 140 KB + 0.1 x 600 KB + 0.1 x 1.5 MB + 0.1 x 3.5 MB + 0.07 x 7.5 MB + 0.03 x 20 MB).
  const SizeCdf ws = SizeCdf::load(DSH_DATA_DIR "/websearch.cdf");
  EXPECT_NEAR(ws.mean_bytes(), 1711250, 1);
  std::mt19937_64 rng(7);
  double sum = 0;
  const int n = 400000;
  for (int i = 0; i < n; ++i) sum += double(ws.sample(rng));
  EXPECT_NEAR(sum / n, 1711250, 0.02 * 1711250);
  // Rounded up to 1500 B packets: at most 1500 B more, at least the mean.
  const double whole = mean_whole_packets(ws, 1500, 1);
  EXPECT_GT(whole, 0.98 * 1711250);
  EXPECT_LT(whole, 1711250 * 1.02 + 1500);
  // Every shipped workload file parses and has a positive mean.
  for (const char* w : {"websearch", "datamining", "hadoop"})
    EXPECT_GT(SizeCdf::load(std::string(DSH_DATA_DIR "/") + w + ".cdf").mean_bytes(), 0) << w;
}

TEST(benchmark_fct, IdealByHand) {
  // H0 - L0 - S0 - L1 - H1: 4 links of 100 Gb/s and 2 us, 3 switches at 1 GHz.
  const Topology t = build(leaf_spine(2, 1, 1, 100, 2000));
  const std::vector<double> ghz(t.n_switches(), 1.0);
  // 15,000 B = 10 packets of 1,500 B (120 ns each at 100 Gb/s): the first
  // packet crosses 4 links (4 x (2,000 + 120) ns), each switch adds 5 cycles
  // (5 ns), the other 9 packets follow at line rate (9 x 120 ns):
  // 8,480 + 15 + 1,080 = 9,575 ns.
  EXPECT_EQ(ideal_fct_ps(t, ghz, 0, 1, 0, 15000, 1500), 9575000u);
  // One packet of 100 B (8 ns per link): 4 x 2,008 + 15 = 8,047 ns.
  EXPECT_EQ(ideal_fct_ps(t, ghz, 0, 1, 0, 100, 1500), 8047000u);
}

TEST(benchmark_fct, LoneFlowTakesItsIdealTime) {
  KeyStore k = bench_keys();
  k.set("net.leaves", "2");
  k.set("net.spines", "1");
  k.set("net.hosts_per_leaf", "1");
  NetSetup s = build_setup(k);
  configure_run(s, k, Scheme::DSH, "none");
  Fabric fab(*s.topo, s.chips, s.fp);
  fab.add_flow(0, 1, 1, 150000, 0, 1);
  fab.run(uint64_t(1e9));
  const NetFlow& f = fab.flows()[0];
  ASSERT_TRUE(f.done);
  std::vector<double> ghz;
  for (const ChipSpec& c : s.chips) ghz.push_back(c.mmu_clock_ghz);
  const uint64_t ideal = ideal_fct_ps(*s.topo, ghz, 0, 1, 0, 150000, 1500);
  // The model waits for the next MMU cycle boundary at each of the 3
  // switches (less than a cycle each).
  const uint64_t cycle_ps = uint64_t(1000 / ghz[0]);
  EXPECT_GE(f.done_ps - f.start_ps, ideal);
  EXPECT_LE(f.done_ps - f.start_ps, ideal + 3 * cycle_ps);
}

TEST(benchmark_stats, QuantilesWithinHalfAPercentAndMerge) {
  FctStats a, b;
  for (int i = 1; i <= 100; ++i) (i % 2 ? a : b).add(double(i), 1.0 + i / 100.0);
  a.merge(b);
  EXPECT_EQ(a.n, 100u);
  EXPECT_DOUBLE_EQ(a.sum_fct_us, 5050);
  // The 50th and 99th smallest of 1..100.
  EXPECT_NEAR(FctStats::quantile(a.fct_bins, a.n, 0.5), 50, 0.5 * 0.01 * 50 + 1e-9);
  EXPECT_NEAR(FctStats::quantile(a.fct_bins, a.n, 0.99), 99, 0.5 * 0.01 * 99 + 1e-9);
  EXPECT_NEAR(FctStats::quantile(a.slowdown_bins, a.n, 1.0), 2.0, 0.01);
  const FctStats c = FctStats::from_json(nlohmann::json::parse(a.to_json().dump()));
  EXPECT_EQ(c.fct_bins, a.fct_bins);
  EXPECT_EQ(bucket_names({100000, 1000000}), (std::vector<std::string>{"<100KB", "100KB-1MB", ">=1MB"}));
}

// Three finished flows (FCT 10, 20, 30 us; slowdown 1, 2, 3) and two
// unfinished ones (50 and 100 us elapsed at the run's end; slowdown so far
// 5 and 10). Finished only: mean FCT (10+20+30)/3 = 20, mean slowdown 2.
// With the unfinished counted: mean FCT (60+150)/5 = 42, mean slowdown
// (6+15)/5 = 4.2; p50 the 3rd smallest of {10,20,30,50,100} = 30; p99 the
// ceil(4.95) = 5th = 100 (both within the bins' 0.5 %).
TEST(benchmark_stats, UnfinishedFlowsCountedAtTheirElapsedTime) {
  FctStats fin, cen;
  fin.add(10, 1);
  fin.add(20, 2);
  fin.add(30, 3);
  cen.add(100, 10);
  cen.add(50, 5);
  const auto f = fct_figures(fin);
  EXPECT_EQ(f["n"], 3);
  EXPECT_DOUBLE_EQ(f["mean_fct_us"].get<double>(), 20);
  EXPECT_DOUBLE_EQ(f["mean_slowdown"].get<double>(), 2);
  const auto w = fct_figures(counting_unfinished(fin, cen));
  EXPECT_EQ(w["n"], 5);
  EXPECT_DOUBLE_EQ(w["mean_fct_us"].get<double>(), 42);
  EXPECT_DOUBLE_EQ(w["mean_slowdown"].get<double>(), 4.2);
  EXPECT_NEAR(w["p50_fct_us"].get<double>(), 30, 0.005 * 30);
  EXPECT_NEAR(w["p99_fct_us"].get<double>(), 100, 0.005 * 100);
  // No unfinished flow: the same figures as the finished ones.
  EXPECT_EQ(fct_figures(counting_unfinished(fin, FctStats())), f);
}

namespace {

// One point's result as run_benchmark writes it, with the kinds' flows given.
nlohmann::json bench_point(const std::string& scheme, uint64_t seed, const std::vector<double>& bg,
                           const std::vector<double>& bg_unfinished, const std::vector<double>& fanin) {
  auto stats = [](const std::vector<double>& v) {
    FctStats s;
    for (double x : v) s.add(x, 1);
    return s.to_json();
  };
  nlohmann::json m{{"scheme", scheme}, {"cc", "dcqcn"}, {"workload", "websearch"}, {"buffer_mb", ""},
                   {"load", "0.5"},    {"seed", seed},  {"error", ""}};
  m["kinds"]["background"] = {{"all", stats(bg)}, {"censored", {{"all", stats(bg_unfinished)}}}};
  m["kinds"]["fanin"] = {{"all", stats(fanin)}, {"censored", {{"all", stats({})}}}};
  return m;
}

}  // namespace

// Two seeds, background FCTs in us:
//   seed 1: SIH finished {100, 200} + unfinished {1000}; DSH {90, 150}.
//     mean_fct 120/150 = 0.8; with unfinished 120/((300+1000)/3) = 120/433.333
//     = 0.276923; p99 150/200 = 0.75; p99 with unfinished 150/1000 = 0.15.
//   seed 2: SIH {100}; DSH {100, 140}: every ratio 120/100 = 1.2 (p99 140/100 = 1.4).
//   mean_fct over the seeds {0.8, 1.2}: mean 1.0, s = 0.282843, s/sqrt(2) = 0.2,
//     t_{0.975,1} = 12.7062: [1 - 2.54124, 1 + 2.54124] = [-1.5412, 3.5412].
//   with unfinished {0.276923, 1.2}: mean 0.738462 (0.7385).
// Fan-in: seed 1 DSH 32 / SIH 64 = 0.5; seed 2 SIH has none, so that seed
// is left out: n = 1, no interval. A seed whose DSH point failed is left
// out, as is a SIH point without its DSH pair.
TEST(benchmark_stats, RatiosPairedBySeedWithTheirInterval) {
  std::vector<nlohmann::json> ms = {
      bench_point("sih", 1, {100, 200}, {1000}, {64}), bench_point("dsh", 1, {90, 150}, {}, {32}),
      bench_point("sih", 2, {100}, {}, {}),            bench_point("dsh", 2, {100, 140}, {}, {50}),
      bench_point("sih", 3, {100}, {}, {64}),          bench_point("dsh", 3, {500}, {}, {64}),
      bench_point("sih", 4, {100}, {}, {64})};
  ms[5]["error"] = "a failed point";
  const auto r = seed_ratios(ms);
  const auto& bg = r["websearch"]["chip"]["dcqcn"]["0.5"]["background"];
  EXPECT_EQ(bg["mean_fct"]["n"], 2);
  EXPECT_DOUBLE_EQ(bg["mean_fct"]["per_seed"]["1"].get<double>(), 0.8);
  EXPECT_DOUBLE_EQ(bg["mean_fct"]["per_seed"]["2"].get<double>(), 1.2);
  EXPECT_NEAR(bg["mean_fct"]["mean"].get<double>(), 1.0, 1e-4);
  EXPECT_NEAR(bg["mean_fct"]["lo"].get<double>(), -1.5412, 1e-4);
  EXPECT_NEAR(bg["mean_fct"]["hi"].get<double>(), 3.5412, 1e-4);
  EXPECT_NEAR(bg["mean_fct_with_unfinished"]["per_seed"]["1"].get<double>(), 0.2769, 1e-4);
  EXPECT_NEAR(bg["mean_fct_with_unfinished"]["mean"].get<double>(), 0.7385, 1e-4);
  // p99 from the bins: each side within 0.5 %, so the ratio within about 1 %.
  EXPECT_NEAR(bg["p99_fct"]["per_seed"]["1"].get<double>(), 0.75, 0.01 * 0.75);
  EXPECT_NEAR(bg["p99_fct_with_unfinished"]["per_seed"]["1"].get<double>(), 0.15, 0.01 * 0.15);
  EXPECT_NEAR(bg["p99_fct"]["per_seed"]["2"].get<double>(), 1.4, 0.01 * 1.4);
  const auto& fi = r["websearch"]["chip"]["dcqcn"]["0.5"]["fanin"]["mean_fct"];
  EXPECT_EQ(fi["n"], 1);
  EXPECT_DOUBLE_EQ(fi["mean"].get<double>(), 0.5);
  EXPECT_FALSE(fi.contains("lo"));
  EXPECT_EQ(fi["per_seed"].size(), 1u);
}

TEST(benchmark_run, UnfinishedFlowsAreCountedAndWritten) {
  // 2 leaves x 2 spines x 4 hosts; fan-ins of 4 senders; 50 us of arrivals
  // and no drain: the web search flows above a few hundred KB cannot finish.
  KeyStore k = bench_keys();
  k.set("net.leaves", "2");
  k.set("net.spines", "2");
  k.set("net.hosts_per_leaf", "4");
  k.set("traffic.fanin_senders", "4");
  k.set("bench.duration_ms", "0.05");
  k.set("bench.drain_ms", "0");
  NetSetup s = build_setup(k);
  validate_benchmark(k, s);
  const std::string csv = ::testing::TempDir() + "bench_unfinished.flows.csv";
  const auto m = run_benchmark(k, s, BenchJob{"dsh", "dcqcn", "websearch", "", "0.5", 3}, csv);
  ASSERT_EQ(m["error"], "");
  uint64_t flows = 0, unfinished = 0;
  for (const char* kind : {"background", "fanin"}) {
    const auto& x = m["kinds"][kind];
    EXPECT_EQ(x["flows"].get<uint64_t>(), x["finished"].get<uint64_t>() + x["unfinished"].get<uint64_t>()) << kind;
    EXPECT_EQ(x["finished"].get<uint64_t>(), x["all"]["n"].get<uint64_t>()) << kind;
    flows += x["flows"].get<uint64_t>();
    unfinished += x["unfinished"].get<uint64_t>();
  }
  EXPECT_GT(flows, 10u);
  EXPECT_GT(unfinished, 0u);
  // One row per flow, finished or not.
  std::ifstream in(csv);
  std::string line;
  uint64_t rows = 0, open = 0;
  std::getline(in, line);
  EXPECT_EQ(line, "id,src,dst,class,kind,size,start_us,fct_us,ideal_fct_us,slowdown,finished,delivered");
  while (std::getline(in, line)) {
    ++rows;
    open += line.find(",,,,0,") != std::string::npos;
  }
  EXPECT_EQ(rows, flows);
  EXPECT_EQ(open, unfinished);
  // Each unfinished flow counted at its elapsed time, from the rows' start
  // times and the run's end: n and the sum per kind.
  const double end_us = m["sim_ms"].get<double>() * 1000;
  for (const char* kind : {"background", "fanin"}) {
    std::ifstream again(csv);
    std::getline(again, line);
    uint64_t n = 0;
    double sum = 0;
    while (std::getline(again, line)) {
      std::vector<std::string> f;
      std::stringstream in_line(line);
      std::string item;
      while (std::getline(in_line, item, ',')) f.push_back(item);
      if (f[4] != kind || f[10] != "0") continue;
      ++n;
      sum += end_us - std::stod(f[6]);
    }
    const auto& c = m["kinds"][kind]["censored"]["all"];
    EXPECT_EQ(c["n"].get<uint64_t>(), n) << kind;
    EXPECT_EQ(c["n"].get<uint64_t>(), m["kinds"][kind]["unfinished"].get<uint64_t>()) << kind;
    EXPECT_NEAR(c["sum_fct_us"].get<double>(), sum, 1e-3 * (1 + double(n))) << kind;
  }
  std::remove(csv.c_str());
}
