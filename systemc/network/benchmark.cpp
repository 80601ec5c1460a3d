// SPDX-License-Identifier: Apache-2.0
#include "benchmark.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include "child_process.h"
#include "cli_common.h"
#include "input.h"
#include "net_points.h"
#include "output.h"
#include "stats.h"
#include "tlm_netlist.h"
#include "workload.h"

namespace dsh::net {

namespace {

const std::vector<std::string> kWorkloads = {"websearch", "datamining", "cache", "hadoop"};
const char* const kKinds[] = {"background", "fanin"};
enum Group { kBackground = 1, kFanin = 2 };

std::string num_text(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.10g", x);
  return b;
}

// A list key's items as point text, each once, in order.
std::vector<std::string> real_items(const KeyStore& k, const std::string& key, double lo, double hi) {
  std::vector<std::string> out;
  for (const auto& x : sc::list_items(k.text(key))) {
    const std::string t = num_text(parse_real(key, x, lo, hi, true));
    if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  }
  return out;
}

std::vector<std::string> unique_items(const std::vector<std::string>& v) {
  std::vector<std::string> out;
  for (const auto& x : v)
    if (std::find(out.begin(), out.end(), x) == out.end()) out.push_back(x);
  return out;
}

std::vector<uint64_t> seeds_of(const KeyStore& k, const std::string& key) {
  std::vector<uint64_t> seeds;
  for (const auto& x : k.list(key)) {
    const uint64_t seed = parse_uint(key, x, 0, ~uint64_t(0) >> 11);
    if (std::find(seeds.begin(), seeds.end(), seed) == seeds.end()) seeds.push_back(seed);
  }
  if (seeds.empty()) k.refuse(key, "empty");
  return seeds;
}

std::string cdf_path(const KeyStore& k, const std::string& workload) {
  return k.path("traffic.cdf_dir") + "/" + workload + ".cdf";
}

std::string size_text(uint64_t b) {
  if (b % 1000000 == 0) return std::to_string(b / 1000000) + "MB";
  if (b % 1000 == 0) return std::to_string(b / 1000) + "KB";
  return std::to_string(b) + "B";
}

}  // namespace

void declare_benchmark_keys(KeyStore& k) {
  declare_network_keys(k);
  declare_generator_keys(k);
  const auto loads = [](const std::string& key) {
    return [key](const std::string& v) {
      const auto items = sc::list_items(v);
      if (items.empty()) throw ConfigError(key + " = " + quoted(v) + ": empty");
      for (const auto& x : items) parse_real(key, x, 0, 1, true);
    };
  };
  const auto seeds = [](const std::string& key) {
    return [key](const std::string& v) {
      for (const auto& x : expand_list(v, key)) parse_uint(key, x, 0, ~uint64_t(0) >> 11);
      if (expand_list(v, key).empty()) throw ConfigError(key + " = " + quoted(v) + ": empty");
    };
  };
  using B = BenchKeys;
  k.bind(list_key("traffic.workload", "websearch",
                  "background flow sizes, each a point coordinate: websearch (DCTCP, SIGCOMM 2010), datamining "
                  "(VL2, SIGCOMM 2009), cache, hadoop (Roy et al., SIGCOMM 2015): traffic.cdf_dir/<name>.cdf",
                  nullptr, kWorkloads),
         &B::workloads);
  k.bind(list_key("bench.full_workloads", "",
                  "traffic.workload with --full; empty: traffic.workload (a default run may cut workloads to fit)",
                  nullptr, kWorkloads),
         &B::full_workloads);
  k.declare(text_key("traffic.cdf_dir", "../data", "folder of the workloads' CDF files (relative to the scenario file)"));
  k.bind(real_key("traffic.total_load", 0, 1, true, "0.9",
                  "offered load of background and fan-in together, a fraction of the hosts' link capacity"),
         &B::total_load);
  k.declare(list_key("traffic.background_load", "0.5",
                     "the background's share of it (Fig. 14's x-axis), each in (0, traffic.total_load]; the fan-in "
                     "offers the rest; a list runs each (a point coordinate)",
                     loads("traffic.background_load")));
  k.bind(uint_key("traffic.fanin_class", 0, 6, "0", "the fan-in's lossless class; background flows take the others"),
         &B::fanin_class);
  k.bind(uint_key("traffic.fanin_senders", 1, 4096, "16", "senders per fan-in, in racks other than the receiver's"),
         &B::fanin_senders);
  k.bind(uint_key("traffic.fanin_bytes", 1, uint64_t(1) << 32, "65536", "bytes each fan-in sender sends (64 KB)"),
         &B::fanin_bytes);
  k.bind(bool_key("traffic.whole_packets", "true",
                  "round every flow up to whole packets: the headroom (spec §1.3) counts cells of full packets"),
         &B::whole_packets);
  k.bind(real_key("bench.duration_ms", 0, 1e6, true, "5", "flows arrive during this (simulated time)"), &B::duration_ms);
  k.bind(real_key("bench.drain_ms", 0, 1e6, false, "5",
                  "then the run goes on at most this long for the flows to finish; those still running are "
                  "counted as unfinished"),
         &B::drain_ms);
  k.declare(list_key("bench.seeds", "1", "seeds of the default run", seeds("bench.seeds")));
  k.declare(list_key("bench.full_seeds", "1..5", "seeds with --full", seeds("bench.full_seeds")));
  k.declare(list_key("bench.full_background_load", "0.5,0.6,0.7,0.8",
                     "traffic.background_load with --full (the paper's x-axis)", loads("bench.full_background_load")));
  k.declare(list_key("bench.buffer_mb", "",
                     "chip buffer per point in MiB (each a point coordinate, Fig. 5); empty: chip.buffer_cells",
                     [](const std::string& v) {
                       for (const auto& x : sc::list_items(v)) parse_real("bench.buffer_mb", x, 0, 1e4, true);
                     }));
  k.bind(list_key("bench.size_buckets", "100000,1000000,10000000",
                  "upper edges (bytes) of the flow-size buckets of summary.json, increasing",
                  [](const std::string& v) {
                    uint64_t last = 0;
                    for (const auto& x : sc::list_items(v)) {
                      const uint64_t e = parse_uint("bench.size_buckets", x, 1, uint64_t(1) << 40);
                      if (e <= last) throw ConfigError("bench.size_buckets = " + quoted(v) + ": edges must increase");
                      last = e;
                    }
                  }),
         &B::size_buckets, [](const std::string& v) {
           std::vector<uint64_t> e;
           for (const auto& x : expand_list(v, "bench.size_buckets")) e.push_back(std::stoull(x));
           return e;
         });
}

void validate_benchmark(const KeyStore& k, const NetSetup& s) {
  const Topology& t = *s.topo;
  BenchKeys b;
  k.fill(b);
  auto all = b.workloads;
  for (const auto& w : b.full_workloads) all.push_back(w);
  for (const auto& w : unique_items(all)) try {
      SizeCdf::load(cdf_path(k, w));
    } catch (const InputError& e) {
      k.refuse("traffic.workload", e.what());
    }
  if (b.workloads.empty()) k.refuse("traffic.workload", "empty");
  const double total = b.total_load;
  for (const std::string key : {"traffic.background_load", "bench.full_background_load"})
    for (const auto& l : real_items(k, key, 0, 1))
      if (std::stod(l) > total + 1e-12)
        k.refuse(key, l + " is above traffic.total_load = " + k.text("traffic.total_load") + k.where("traffic.total_load"));
  seeds_of(k, "bench.seeds");
  seeds_of(k, "bench.full_seeds");
  if (t.n_hosts() < 2) k.refuse("net.generate", "fewer than 2 hosts");
  // A fan-in's senders are in racks other than the receiver's: the
  // smallest such pool must hold them.
  const uint64_t n = b.fanin_senders;
  std::map<int, size_t> per_rack;
  for (size_t h = 0; h < t.n_hosts(); ++h) ++per_rack[t.host_switch(int(h))];
  size_t largest = 0;
  for (const auto& [sw, c] : per_rack) largest = std::max(largest, c);
  if (t.n_hosts() - largest < n)
    k.refuse("traffic.fanin_senders", "only " + std::to_string(t.n_hosts() - largest) +
                                          " hosts are outside the largest rack");
  if (b.fanin_class >= uint64_t(k.i64("chip.n_queues")))
    k.refuse("traffic.fanin_class", "not a lossless class of the chip (chip.n_queues = " + k.text("chip.n_queues") + ")");
}

// ------------------------------------------------------------------ stats

int FctStats::bin(double v) { return int(std::floor(std::log(std::max(v, 1e-9)) / std::log(1.01))); }

void FctStats::add(double fct_us, double slowdown) {
  ++n;
  sum_fct_us += fct_us;
  sum_slowdown += slowdown;
  ++fct_bins[bin(fct_us)];
  ++slowdown_bins[bin(slowdown)];
}

void FctStats::merge(const FctStats& o) {
  n += o.n;
  sum_fct_us += o.sum_fct_us;
  sum_slowdown += o.sum_slowdown;
  for (const auto& [b, c] : o.fct_bins) fct_bins[b] += c;
  for (const auto& [b, c] : o.slowdown_bins) slowdown_bins[b] += c;
}

double FctStats::quantile(const std::map<int, uint64_t>& bins, uint64_t n, double q) {
  if (n == 0) return 0;
  const uint64_t rank = std::max<uint64_t>(1, uint64_t(std::ceil(q * double(n) - 1e-9)));
  uint64_t seen = 0;
  for (const auto& [b, c] : bins) {
    seen += c;
    if (seen >= rank) return std::pow(1.01, double(b) + 0.5);
  }
  return std::pow(1.01, double(bins.rbegin()->first) + 0.5);
}

nlohmann::ordered_json FctStats::to_json() const {
  nlohmann::ordered_json j{{"n", n}, {"sum_fct_us", sum_fct_us}, {"sum_slowdown", sum_slowdown}};
  j["fct_bins"] = nlohmann::ordered_json::object();
  j["slowdown_bins"] = nlohmann::ordered_json::object();
  for (const auto& [b, c] : fct_bins) j["fct_bins"][std::to_string(b)] = c;
  for (const auto& [b, c] : slowdown_bins) j["slowdown_bins"][std::to_string(b)] = c;
  return j;
}

FctStats FctStats::from_json(const nlohmann::json& j) {
  FctStats s;
  s.n = j.at("n");
  s.sum_fct_us = j.at("sum_fct_us");
  s.sum_slowdown = j.at("sum_slowdown");
  for (const auto& [b, c] : j.at("fct_bins").items()) s.fct_bins[std::stoi(b)] = c.get<uint64_t>();
  for (const auto& [b, c] : j.at("slowdown_bins").items()) s.slowdown_bins[std::stoi(b)] = c.get<uint64_t>();
  return s;
}

nlohmann::ordered_json fct_figures(const FctStats& s) {
  auto r = [](double x) { return std::round(x * 1000) / 1000; };
  if (s.n == 0) return {{"n", 0}};
  return {{"n", s.n},
          {"mean_fct_us", r(s.sum_fct_us / double(s.n))},
          {"p50_fct_us", r(FctStats::quantile(s.fct_bins, s.n, 0.5))},
          {"p95_fct_us", r(FctStats::quantile(s.fct_bins, s.n, 0.95))},
          {"p99_fct_us", r(FctStats::quantile(s.fct_bins, s.n, 0.99))},
          {"mean_slowdown", r(s.sum_slowdown / double(s.n))},
          {"p50_slowdown", r(FctStats::quantile(s.slowdown_bins, s.n, 0.5))},
          {"p95_slowdown", r(FctStats::quantile(s.slowdown_bins, s.n, 0.95))},
          {"p99_slowdown", r(FctStats::quantile(s.slowdown_bins, s.n, 0.99))}};
}

FctStats counting_unfinished(const FctStats& finished, const FctStats& censored) {
  FctStats s = finished;
  s.merge(censored);
  return s;
}

namespace {

const std::vector<std::string> kRatioMetrics = {"mean_fct", "mean_fct_with_unfinished", "p99_fct",
                                                "p99_fct_with_unfinished"};

nlohmann::ordered_json interval_json(const MeanInterval& mi) {
  auto r = [](double x) { return std::round(x * 10000) / 10000; };
  nlohmann::ordered_json j{{"n", mi.n}, {"mean", r(mi.mean)}};
  if (mi.has_interval()) j.update({{"lo", r(mi.lo)}, {"hi", r(mi.hi)}});
  return j;
}

}  // namespace

std::vector<std::string> bucket_names(const std::vector<uint64_t>& edges) {
  std::vector<std::string> v;
  for (size_t i = 0; i <= edges.size(); ++i) {
    if (i == 0) v.push_back(edges.empty() ? "all sizes" : "<" + size_text(edges[0]));
    else if (i == edges.size()) v.push_back(">=" + size_text(edges[i - 1]));
    else v.push_back(size_text(edges[i - 1]) + "-" + size_text(edges[i]));
  }
  return v;
}

uint64_t ideal_fct_ps(const Topology& t, const std::vector<double>& mmu_clock_ghz, uint32_t src, uint32_t dst,
                      uint32_t flow, uint64_t bytes, uint64_t packet_bytes) {
  const auto path = t.path(int(src), int(dst), flow);
  const double first = double(std::min(bytes, packet_bytes));
  const PortSpec& nic = t.ports(t.host_node(int(src)))[0];
  double ps = nic.delay_ns * 1000 + first * 8000.0 / nic.gbps;
  double slowest = nic.gbps;
  for (const auto& [sw, port] : path) {
    const PortSpec& p = t.ports(sw)[size_t(port)];
    ps += p.delay_ns * 1000 + first * 8000.0 / p.gbps;
    ps += double(kRtlLatency + 1) * std::round(1000.0 / mmu_clock_ghz[size_t(sw)]);
    slowest = std::min(slowest, p.gbps);
  }
  ps += (double(bytes) - first) * 8000.0 / slowest;
  return uint64_t(ps + 0.5);
}

// ------------------------------------------------------------------ one point

nlohmann::ordered_json run_benchmark(const KeyStore& k, NetSetup& s, const BenchJob& j, const std::string& flows_csv) {
  const Scheme scheme = scheme_from_string(j.scheme);
  configure_run(s, k, scheme, j.cc);
  if (!j.buffer_mb.empty())  // Fig. 5: the chip's buffer for this point
    for (size_t sw = 0; sw < s.chips.size(); ++sw) {
      ChipSpec& c = s.chips[sw];
      c.mmu.buffer_cells = uint64_t(std::stod(j.buffer_mb) * 1048576.0 / double(c.cell_bytes));
      try {
        c.mmu.validate(widths_for(c.mmu, c.backend));
      } catch (const ConfigError& e) {
        throw ConfigError("bench.buffer_mb = " + j.buffer_mb + ": " + j.scheme + " on switch " + s.topo->name(int(sw)) +
                          ": " + e.what());
      }
    }
  s.fp.seed = j.seed;
  const Topology& t = *s.topo;
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t cpu0 = std::clock();
  Fabric fab(t, s.chips, s.fp);
  const std::unique_ptr<Capture> capture = attach_capture(fab, s);
  std::unique_ptr<tlmnet::Netlist> netlist;  // run.kernel = systemc (each point is its own process)
  if (s.kernel == Kernel::SystemC) netlist = std::make_unique<tlmnet::Netlist>(fab);
  std::vector<double> clocks;
  for (const auto& c : s.chips) clocks.push_back(c.mmu_clock_ghz);

  const SizeCdf cdf = SizeCdf::load(cdf_path(k, j.workload));
  const uint64_t pkt = s.fp.packet_bytes;
  BenchKeys bk;
  k.fill(bk);
  const bool whole = bk.whole_packets;
  auto size_of = [&](uint64_t b) { return whole ? whole_packets(b, pkt) : b; };
  const double bg_mean = whole ? mean_whole_packets(cdf, pkt, j.seed) : cdf.mean_bytes();
  const double bg_load = std::stod(j.load), fi_load = std::max(0.0, bk.total_load - bg_load);
  const uint64_t fi_n = bk.fanin_senders, fi_bytes = size_of(bk.fanin_bytes);
  const uint8_t fi_cls = uint8_t(bk.fanin_class);
  std::vector<uint8_t> bg_classes;
  for (unsigned c = 0; c < unsigned(uint64_t(k.i64("chip.n_queues"))) && c < kControlClass; ++c)
    if (c != fi_cls) bg_classes.push_back(uint8_t(c));
  if (bg_classes.empty()) bg_classes.push_back(fi_cls);
  double cap_gbps = 0;  // the hosts' link capacity together
  std::vector<int> hosts;
  for (size_t h = 0; h < t.n_hosts(); ++h) {
    cap_gbps += t.ports(t.host_node(int(h)))[0].gbps;
    hosts.push_back(int(h));
  }
  const uint64_t end_ps = uint64_t(bk.duration_ms * 1e9);
  const uint64_t stop_ps = end_ps + uint64_t(bk.drain_ms * 1e9);
  const auto& edges = bk.size_buckets;
  const auto bnames = bucket_names(edges);
  auto bucket_of = [&](uint64_t bytes) {
    size_t i = 0;
    while (i < edges.size() && bytes >= edges[i]) ++i;
    return i;
  };

  // Per kind: started, finished, their stats (all sizes, per bucket); the
  // unfinished flows' elapsed times and slowdowns so far (right-censored).
  struct Kind {
    uint64_t flows = 0, finished = 0;
    FctStats all, censored;
    std::vector<FctStats> buckets, censored_buckets;
  };
  Kind kinds[2];
  for (auto& x : kinds) x.buckets.resize(bnames.size()), x.censored_buckets.resize(bnames.size());

  const std::string part = flows_csv.empty() ? "" : flows_csv + ".part";
  FILE* out = nullptr;
  if (!part.empty()) {
    out = std::fopen(part.c_str(), "w");
    if (!out) throw InputError("cannot write " + part);
    std::fputs("id,src,dst,class,kind,size,start_us,fct_us,ideal_fct_us,slowdown,finished,delivered\n", out);
  }
  auto row = [&](int32_t fi, const NetFlow& f, bool done) {
    const double start_us = double(f.start_ps) / 1e6;
    if (!done) {
      if (out)
        std::fprintf(out, "%d,%u,%u,%u,%s,%llu,%.6f,,,,0,%llu\n", fi, f.src, f.dst, unsigned(f.cls),
                     kKinds[f.group - 1], (unsigned long long)f.bytes, start_us, (unsigned long long)f.delivered);
      return;
    }
    const double fct_us = double(f.done_ps - f.start_ps) / 1e6;
    const double ideal_us = double(ideal_fct_ps(t, clocks, f.src, f.dst, uint32_t(fi), f.bytes, pkt)) / 1e6;
    const double sd = fct_us / ideal_us;
    Kind& x = kinds[f.group - 1];
    ++x.finished;
    x.all.add(fct_us, sd);
    x.buckets[bucket_of(f.bytes)].add(fct_us, sd);
    if (out)
      std::fprintf(out, "%d,%u,%u,%u,%s,%llu,%.6f,%.6f,%.6f,%.6f,1,%llu\n", fi, f.src, f.dst, unsigned(f.cls),
                   kKinds[f.group - 1], (unsigned long long)f.bytes, start_us, fct_us, ideal_us, sd,
                   (unsigned long long)f.delivered);
  };

  // Arrivals: one Poisson stream per kind, each with its own generator, so
  // the background of a seed is the same whatever the fan-in does.
  EventQueue& ev = fab.events();
  std::mt19937_64 bg_rng(mix64(j.seed * 0x9e3779b97f4a7c15ULL + 1)), fi_rng(mix64(j.seed * 0x9e3779b97f4a7c15ULL + 2));
  uint64_t running = 0;
  bool arrivals_open = true;
  unsigned open_streams = 0;
  auto add = [&](uint32_t src, uint32_t dst, uint8_t cls, uint64_t bytes, int group) {
    fab.add_flow(src, dst, cls, bytes, ev.now(), group);
    ++kinds[group - 1].flows;
    ++running;
  };
  std::function<void()> next_bg = [&] {
    if (ev.now() >= end_ps) {
      if (--open_streams == 0) arrivals_open = false;
      if (!arrivals_open && running == 0) fab.stop();
      return;
    }
    const auto pair = pick_distinct(bg_rng, hosts, 2);
    const uint8_t cls = bg_classes[std::uniform_int_distribution<size_t>(0, bg_classes.size() - 1)(bg_rng)];
    add(uint32_t(pair[0]), uint32_t(pair[1]), cls, size_of(cdf.sample(bg_rng)), kBackground);
    ev.after(poisson_gap_ps(bg_rng, bg_mean, cap_gbps, bg_load), next_bg);
  };
  std::function<void()> next_fi = [&] {
    if (ev.now() >= end_ps) {
      if (--open_streams == 0) arrivals_open = false;
      if (!arrivals_open && running == 0) fab.stop();
      return;
    }
    const int rx = hosts[std::uniform_int_distribution<size_t>(0, hosts.size() - 1)(fi_rng)];
    std::vector<int> pool;
    for (int h : hosts)
      if (t.host_switch(h) != t.host_switch(rx)) pool.push_back(h);
    for (int tx : pick_distinct(fi_rng, pool, fi_n)) add(uint32_t(tx), uint32_t(rx), fi_cls, fi_bytes, kFanin);
    ev.after(poisson_gap_ps(fi_rng, double(fi_n * fi_bytes), cap_gbps, fi_load), next_fi);
  };
  if (bg_load > 0) {
    ++open_streams;
    ev.at(poisson_gap_ps(bg_rng, bg_mean, cap_gbps, bg_load), next_bg);
  }
  if (fi_load > 1e-12) {
    ++open_streams;
    ev.at(poisson_gap_ps(fi_rng, double(fi_n * fi_bytes), cap_gbps, fi_load), next_fi);
  }
  // PAUSE frames by kind: a queue's (its class only) or DSH's port pause
  // (every lossless class of the port, background classes too).
  uint64_t port_pauses = 0, queue_pauses = 0, fanin_class_pauses = 0;
  fab.on_control = [&](int, const Event& e) {
    port_pauses += e.kind == Event::PortPause;
    queue_pauses += e.kind == Event::Pause;
    fanin_class_pauses += e.kind == Event::Pause && e.queue == fi_cls;
  };
  fab.on_flow_done = [&](int32_t fi) {
    row(fi, fab.flows()[size_t(fi)], true);
    --running;
    if (!arrivals_open && running == 0) fab.stop();
  };
  fab.run(stop_ps);

  nlohmann::ordered_json m;
  m["scheme"] = j.scheme;
  m["cc"] = j.cc;
  m["workload"] = j.workload;
  m["buffer_mb"] = j.buffer_mb;
  m["load"] = j.load;
  m["seed"] = j.seed;
  std::string error = fab.error;
  if (error.empty())
    for (size_t sw = 0; sw < t.n_switches(); ++sw) try {
        fab.mmu(int(sw)).finish();
      } catch (const std::exception& e) {
        error = e.what();
      }
  // The flows still running are written and counted, with what they
  // delivered; each has run from its start to the run's end without
  // finishing, so that elapsed time is a lower bound of its FCT.
  uint64_t unfinished[2] = {0, 0}, unfinished_bytes[2] = {0, 0}, unfinished_delivered[2] = {0, 0};
  const uint64_t run_end_ps = ev.now();
  for (size_t fi = 0; fi < fab.flows().size(); ++fi) {
    const NetFlow& f = fab.flows()[fi];
    if (f.done) continue;
    row(int32_t(fi), f, false);
    ++unfinished[f.group - 1];
    const double elapsed_us = double(run_end_ps - std::min(run_end_ps, f.start_ps)) / 1e6;
    const double ideal_us = double(ideal_fct_ps(t, clocks, f.src, f.dst, uint32_t(fi), f.bytes, pkt)) / 1e6;
    Kind& x = kinds[f.group - 1];
    x.censored.add(elapsed_us, elapsed_us / ideal_us);
    x.censored_buckets[bucket_of(f.bytes)].add(elapsed_us, elapsed_us / ideal_us);
    unfinished_bytes[f.group - 1] += f.bytes;
    unfinished_delivered[f.group - 1] += f.delivered;
  }
  if (out) {
    const bool ok = std::fflush(out) == 0;
    std::fclose(out);
    if (!ok) throw InputError("cannot write " + part);
    std::filesystem::rename(part, flows_csv);
  }
  for (int i = 0; i < 2; ++i) {
    auto& x = m["kinds"][kKinds[i]];
    x["flows"] = kinds[i].flows;
    x["finished"] = kinds[i].finished;
    x["unfinished"] = unfinished[i];
    x["unfinished_bytes"] = unfinished_bytes[i];
    x["unfinished_delivered_bytes"] = unfinished_delivered[i];
    x["all"] = kinds[i].all.to_json();
    for (size_t b = 0; b < bnames.size(); ++b) x["buckets"][bnames[b]] = kinds[i].buckets[b].to_json();
    x["censored"]["all"] = kinds[i].censored.to_json();
    for (size_t b = 0; b < bnames.size(); ++b)
      x["censored"]["buckets"][bnames[b]] = kinds[i].censored_buckets[b].to_json();
  }
  uint64_t pauses = 0, ecn = 0;
  for (size_t sw = 0; sw < t.n_switches(); ++sw) {
    pauses += fab.stats(int(sw)).pause_frames;
    ecn += fab.stats(int(sw)).ecn_marked;
  }
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  m["fanin_load"] = num_text(fi_load);
  m["lossless_drops"] = fab.lossless_drops();
  m["pause_frames"] = pauses;
  m["queue_pause_frames"] = queue_pauses;
  m["port_pause_frames"] = port_pauses;
  m["fanin_class_pause_frames"] = fanin_class_pauses;  // queue pauses of the fan-in's class (the rest: background classes)
  m["ecn_marked"] = ecn;                                // DCQCN: packets the switches marked
  m["packets_forwarded"] = fab.forwarded();
  m["sim_ms"] = double(ev.now()) / 1e9;
  m["wall_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  m["cpu_s"] = double(std::clock() - cpu0) / CLOCKS_PER_SEC;
  m["max_rss_mb"] = double(ru.ru_maxrss) / 1024.0;
  m["error"] = error;
  return m;
}

// ------------------------------------------------------------------ the sweep

namespace {

nlohmann::ordered_json failed_point(const BenchJob& j, const std::string& why) {
  return {{"scheme", j.scheme}, {"cc", j.cc}, {"workload", j.workload}, {"buffer_mb", j.buffer_mb},
          {"load", j.load},     {"seed", j.seed}, {"error", why}};
}

std::string flows_path(const std::string& dir, const std::string& id) { return dir + "/" + id + ".flows.csv"; }

// The merged summary of one (workload, buffer, cc, load, scheme) over seeds.
struct Cell {
  uint64_t flows[2] = {0, 0}, finished[2] = {0, 0}, unfinished[2] = {0, 0}, unfinished_bytes[2] = {0, 0};
  FctStats all[2], censored[2];
  std::map<std::string, FctStats> buckets[2], censored_buckets[2];
  uint64_t drops = 0, pauses = 0, port_pauses = 0, fanin_class_pauses = 0, ecn = 0, runs = 0;
  // Per seed: the average FCT of all flows, finished only and with the
  // unfinished counted (Fig. 5's y-axis).
  std::vector<double> mean_all, mean_all_with_unfinished;
};

// A set of flows' figures with the unfinished ones counted (a lower bound
// of each figure), and how many of them are unfinished.
nlohmann::ordered_json with_unfinished_json(const FctStats& finished, const FctStats& censored) {
  nlohmann::ordered_json j = fct_figures(counting_unfinished(finished, censored));
  j["censored"] = censored.n;
  return j;
}

// A metric of one kind in one point's result (see seed_ratios).
double point_metric(const nlohmann::json& kind, const std::string& metric) {
  const FctStats fin = FctStats::from_json(kind.at("all"));
  const bool lb = metric.size() > 16 && metric.compare(metric.size() - 16, 16, "_with_unfinished") == 0;
  const FctStats s = lb && kind.contains("censored") ? counting_unfinished(fin, FctStats::from_json(kind["censored"]["all"])) : fin;
  if (s.n == 0) return 0;
  if (metric.rfind("mean_fct", 0) == 0) return s.sum_fct_us / double(s.n);
  return FctStats::quantile(s.fct_bins, s.n, 0.99);
}

}  // namespace

nlohmann::ordered_json seed_ratios(const std::vector<nlohmann::json>& points) {
  // (workload, buffer, cc, load) -> seed -> scheme -> its result
  std::map<std::vector<std::string>, std::map<uint64_t, std::map<std::string, const nlohmann::json*>>> by;
  for (const auto& m : points) {
    if (!m.value("error", std::string()).empty()) continue;
    const std::string buf = m["buffer_mb"].get<std::string>();
    by[{m["workload"].get<std::string>(), buf.empty() ? "chip" : buf, m["cc"].get<std::string>(),
        m["load"].get<std::string>()}][m["seed"].get<uint64_t>()][m["scheme"].get<std::string>()] = &m;
  }
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& [c, by_seed] : by)
    for (const char* kind : kKinds)
      for (const auto& metric : kRatioMetrics) {
        std::vector<double> xs;
        nlohmann::ordered_json per_seed = nlohmann::ordered_json::object();
        for (const auto& [seed, by_scheme] : by_seed) {
          if (!by_scheme.count("dsh") || !by_scheme.count("sih")) continue;
          const double d = point_metric(by_scheme.at("dsh")->at("kinds").at(kind), metric);
          const double si = point_metric(by_scheme.at("sih")->at("kinds").at(kind), metric);
          if (d <= 0 || si <= 0) continue;  // a kind with no flow in one of them
          xs.push_back(d / si);
          per_seed[std::to_string(seed)] = std::round(d / si * 10000) / 10000;
        }
        if (xs.empty()) continue;
        auto& y = j[c[0]][c[1]][c[2]][c[3]][kind][metric];
        y = interval_json(t_interval(xs));
        y["per_seed"] = per_seed;
      }
  return j;
}

namespace {

int write_benchmark_outputs(const KeyStore& k, const NetSetup& s, const std::vector<nlohmann::json>& ms,
                            const std::vector<std::string>& ids, const std::string& points_dir, bool merge,
                            const std::vector<uint64_t>& seeds, const std::vector<std::string>& loads, bool full,
                            const std::string& out_dir, bool plot, const std::string& python,
                            const std::string& plot_script, bool reproducible) {
  const Topology& t = *s.topo;
  // flows.csv: every point's rows, streamed from its file, its coordinates first.
  std::map<std::string, std::string> flow_files;  // ID -> path
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(points_dir, ec)) {
    auto take = [&](const fs::directory_entry& e) {
      const std::string n = e.path().filename().string();
      if (e.is_regular_file() && n.size() > 10 && n.compare(n.size() - 10, 10, ".flows.csv") == 0)
        flow_files.emplace(n.substr(0, n.size() - 10), e.path().string());
    };
    if (merge) {
      for (const auto& e : fs::recursive_directory_iterator(points_dir)) take(e);
    } else {
      for (const auto& e : fs::directory_iterator(points_dir)) take(e);
    }
  }
  fs::create_directories(out_dir);
  const std::string csv_path = out_dir + "/flows.csv", csv_part = csv_path + ".part";
  size_t missing_rows = 0;
  {
    std::ofstream csv(csv_part);
    csv << "scheme,cc,workload,buffer_mb,load,seed,id,src,dst,class,kind,size,start_us,fct_us,ideal_fct_us,slowdown,"
           "finished,delivered\n";
    for (size_t i = 0; i < ms.size(); ++i) {
      const auto it = flow_files.find(ids[i]);
      if (it == flow_files.end()) {
        ++missing_rows;
        continue;
      }
      const auto& m = ms[i];
      const std::string prefix = m["scheme"].get<std::string>() + "," + m["cc"].get<std::string>() + "," +
                                 m["workload"].get<std::string>() + "," + m["buffer_mb"].get<std::string>() + "," +
                                 m["load"].get<std::string>() + "," + std::to_string(m["seed"].get<uint64_t>()) + ",";
      std::ifstream in(it->second);
      std::string line;
      std::getline(in, line);  // its header
      while (std::getline(in, line)) csv << prefix << line << "\n";
    }
    csv.flush();
    if (!csv) throw InputError("cannot write " + csv_part);
  }
  fs::rename(csv_part, csv_path);

  std::map<std::string, Cell> cells;  // "workload|buffer|cc|load|scheme"
  std::vector<std::string> errors;
  uint64_t fwd = 0;
  double cpu = 0, wall = 0, rss = 0;
  auto key = [](const nlohmann::json& m) {
    return m["workload"].get<std::string>() + "|" + m["buffer_mb"].get<std::string>() + "|" +
           m["cc"].get<std::string>() + "|" + m["load"].get<std::string>() + "|" + m["scheme"].get<std::string>();
  };
  for (const auto& m : ms) {
    if (!m.value("error", std::string()).empty()) {
      errors.push_back(m["scheme"].get<std::string>() + " " + m["cc"].get<std::string>() + " " +
                       m["workload"].get<std::string>() + " load " + m["load"].get<std::string>() + " seed " +
                       std::to_string(m["seed"].get<uint64_t>()) + ": " + m["error"].get<std::string>());
      continue;
    }
    Cell& c = cells[key(m)];
    ++c.runs;
    c.drops += m["lossless_drops"].get<uint64_t>();
    c.pauses += m["pause_frames"].get<uint64_t>();
    c.port_pauses += m.value("port_pause_frames", uint64_t(0));
    c.fanin_class_pauses += m.value("fanin_class_pause_frames", uint64_t(0));
    c.ecn += m.value("ecn_marked", uint64_t(0));
    FctStats fin, lb;
    for (int i = 0; i < 2; ++i) {
      const auto& x = m["kinds"][kKinds[i]];
      fin.merge(FctStats::from_json(x["all"]));
      lb.merge(FctStats::from_json(x["all"]));
      if (x.contains("censored")) lb.merge(FctStats::from_json(x["censored"]["all"]));
    }
    if (fin.n) c.mean_all.push_back(fin.sum_fct_us / double(fin.n));
    if (lb.n) c.mean_all_with_unfinished.push_back(lb.sum_fct_us / double(lb.n));
    for (int i = 0; i < 2; ++i) {
      const auto& x = m["kinds"][kKinds[i]];
      if (x.contains("censored")) {
        c.censored[i].merge(FctStats::from_json(x["censored"]["all"]));
        for (const auto& [b, st] : x["censored"]["buckets"].items()) c.censored_buckets[i][b].merge(FctStats::from_json(st));
      }
      c.flows[i] += x["flows"].get<uint64_t>();
      c.finished[i] += x["finished"].get<uint64_t>();
      c.unfinished[i] += x["unfinished"].get<uint64_t>();
      c.unfinished_bytes[i] += x["unfinished_bytes"].get<uint64_t>();
      c.all[i].merge(FctStats::from_json(x["all"]));
      for (const auto& [b, st] : x["buckets"].items()) c.buckets[i][b].merge(FctStats::from_json(st));
    }
    fwd += m["packets_forwarded"].get<uint64_t>();
    cpu += m["cpu_s"].get<double>();
    wall += m["wall_s"].get<double>();
    rss = std::max(rss, m["max_rss_mb"].get<double>());
  }

  nlohmann::ordered_json j;
  j["scenario"] = k.text("scenario.name");
  j["kind"] = "benchmark";
  j["backend"] = k.text("run.backend");
  j["rtl_switches"] = k.list("net.rtl_switches");
  NetKeys n;
  k.fill(n);
  BenchKeys b;
  k.fill(b);
  j["topology"] = {{"generate", n.generate}, {"switches", t.n_switches()}, {"hosts", t.n_hosts()}};
  if (n.generate == "leaf-spine")
    j["topology"].update({{"leaves", n.leaves}, {"spines", n.spines}, {"hosts_per_leaf", n.hosts_per_leaf}});
  if (n.generate == "fat-tree") j["topology"]["k"] = n.fat_tree_k;
  j["traffic"] = {{"total_load", b.total_load},
                  {"background_loads", loads},
                  {"fanin_senders", b.fanin_senders},
                  {"fanin_bytes", b.fanin_bytes},
                  {"fanin_class", b.fanin_class}};
  j["duration_ms"] = b.duration_ms;
  j["drain_ms"] = b.drain_ms;
  j["seeds"] = seeds;
  j["full"] = full;
  if (!full)
    j["shrunk"] = "default run: seeds (bench.seeds) and background loads (traffic.background_load) cut from --full's "
                  "(bench.full_seeds, bench.full_background_load) to fit a 2-core machine; topology and window as --full";
  j["quantiles"] = "from 1 % log bins (within 0.5 %); means exact";
  j["paper"] = {{"fig14_max_reduction_pct",
                 {{"dcqcn", {{"background", 10.1}, {"fanin", 43.3}}}, {"powertcp", {{"background", 31.1}, {"fanin", 57.7}}}}},
                {"fig5", "average FCT with a 14 MB buffer 78.1 % above 30 MB (PowerTCP, web search, load 0.9)"}};
  const auto bnames = bucket_names(b.size_buckets);
  uint64_t drops = 0;
  for (const auto& [kk, c] : cells) {
    std::vector<std::string> f;
    std::stringstream in(kk);
    std::string item;
    while (std::getline(in, item, '|')) f.push_back(item);
    const std::string buf = f[1].empty() ? "chip" : f[1];
    auto& x = j["results"][f[0]][buf][f[2]][f[3]][f[4]];
    x["runs"] = c.runs;
    x["lossless_drops"] = c.drops;
    x["pause_frames"] = c.pauses;
    x["port_pause_frames"] = c.port_pauses;
    x["fanin_class_pause_frames"] = c.fanin_class_pauses;
    x["ecn_marked"] = c.ecn;
    x["over_seeds"] = {{"mean_fct_us_all", interval_json(t_interval(c.mean_all))},
                       {"mean_fct_us_all_with_unfinished", interval_json(t_interval(c.mean_all_with_unfinished))}};
    drops += c.drops;
    for (int i = 0; i < 2; ++i) {
      auto& y = x[kKinds[i]];
      y["flows"] = c.flows[i];
      y["finished"] = c.finished[i];
      y["unfinished"] = c.unfinished[i];
      y["unfinished_bytes"] = c.unfinished_bytes[i];
      y["all"] = fct_figures(c.all[i]);
      for (const auto& b : bnames)
        if (c.buckets[i].count(b)) y["buckets"][b] = fct_figures(c.buckets[i].at(b));
      auto& w = y["with_unfinished"];
      w["all"] = with_unfinished_json(c.all[i], c.censored[i]);
      for (const auto& b : bnames)
        if (c.buckets[i].count(b) || c.censored_buckets[i].count(b))
          w["buckets"][b] = with_unfinished_json(c.buckets[i].count(b) ? c.buckets[i].at(b) : FctStats(),
                                                 c.censored_buckets[i].count(b) ? c.censored_buckets[i].at(b) : FctStats());
    }
  }
  // Average FCT normalised to SIH (the paper's Fig. 14/15 y-axis).
  std::ostringstream txt;
  txt << "benchmark (" << k.text("scenario.name") << "): " << k.text("net.generate") << " " << t.n_switches()
      << " switches, " << t.n_hosts() << " hosts; total load " << k.text("traffic.total_load") << ", flows arriving for "
      << k.text("bench.duration_ms") << " ms (+" << k.text("bench.drain_ms") << " ms drain), " << seeds.size()
      << " seed(s)" << (full ? " (--full)" : "; default run shrunk: seeds and loads cut, not the topology or window")
      << "\n";
  txt << "workload    buffer cc       bgload kind        SIH mean us  DSH mean us  DSH/SIH  reduction  p99 SIH/DSH us   "
         "unfinished SIH/DSH\n";
  if (j.contains("results"))
    for (auto& [wl, by_buf] : j["results"].items())
      for (auto& [buf, by_cc] : by_buf.items())
        for (auto& [cc, by_load] : by_cc.items())
          for (auto& [load, by_scheme] : by_load.items()) {
            if (!by_scheme.contains("sih") || !by_scheme.contains("dsh")) continue;
            for (const char* kind : kKinds) {
              const auto& a = by_scheme["sih"][kind];
              const auto& b = by_scheme["dsh"][kind];
              if (a["all"]["n"].get<uint64_t>() == 0 || b["all"]["n"].get<uint64_t>() == 0) continue;
              const double sm = a["all"]["mean_fct_us"], dm = b["all"]["mean_fct_us"];
              j["normalised"][wl][buf][cc][load][kind] = std::round(dm / sm * 10000) / 10000;
              const double sl = a["with_unfinished"]["all"]["mean_fct_us"], dl = b["with_unfinished"]["all"]["mean_fct_us"];
              j["normalised_with_unfinished"][wl][buf][cc][load][kind] = std::round(dl / sl * 10000) / 10000;
              char line[400];
              std::snprintf(line, sizeof line, "%-11s %-6s %-8s %-6s %-10s %12.2f %12.2f %8.3f %9.1f%% %8.1f/%-8.1f %6llu/%llu\n",
                            wl.c_str(), buf.c_str(), cc.c_str(), load.c_str(), kind, sm, dm, dm / sm,
                            100 * (1 - dm / sm), a["all"]["p99_fct_us"].get<double>(),
                            b["all"]["p99_fct_us"].get<double>(),
                            (unsigned long long)a["unfinished"].get<uint64_t>(),
                            (unsigned long long)b["unfinished"].get<uint64_t>());
              txt << line;
            }
          }
  // The same with each unfinished flow counted at its elapsed time (a lower
  // bound of its FCT), and the DSH/SIH ratios of each seed's pair of runs
  // with their mean and 95 % t interval over the seeds.
  j["ratios_over_seeds"] = seed_ratios(ms);
  if (j.contains("results")) {
    txt << "with the unfinished flows counted at their elapsed time (lower bounds):\n"
           "workload    buffer cc       bgload kind        SIH mean us  DSH mean us  DSH/SIH  p99 SIH/DSH us   censored "
           "SIH/DSH\n";
    for (auto& [wl, by_buf] : j["results"].items())
      for (auto& [buf, by_cc] : by_buf.items())
        for (auto& [cc, by_load] : by_cc.items())
          for (auto& [load, by_scheme] : by_load.items()) {
            if (!by_scheme.contains("sih") || !by_scheme.contains("dsh")) continue;
            for (const char* kind : kKinds) {
              const auto& a = by_scheme["sih"][kind]["with_unfinished"]["all"];
              const auto& b = by_scheme["dsh"][kind]["with_unfinished"]["all"];
              if (a["n"].get<uint64_t>() == 0 || b["n"].get<uint64_t>() == 0) continue;
              const double sm = a["mean_fct_us"], dm = b["mean_fct_us"];
              char line[400];
              std::snprintf(line, sizeof line, "%-11s %-6s %-8s %-6s %-10s %12.2f %12.2f %8.3f %8.1f/%-8.1f %6llu/%llu\n",
                            wl.c_str(), buf.c_str(), cc.c_str(), load.c_str(), kind, sm, dm, dm / sm,
                            a["p99_fct_us"].get<double>(), b["p99_fct_us"].get<double>(),
                            (unsigned long long)a["censored"].get<uint64_t>(),
                            (unsigned long long)b["censored"].get<uint64_t>());
              txt << line;
            }
          }
    txt << "DSH/SIH per seed pair: mean [95 % t interval] over n seeds\n"
           "workload    buffer cc       bgload kind        metric                    mean   [lo, hi]          n\n";
    for (auto& [wl, by_buf] : j["ratios_over_seeds"].items())
      for (auto& [buf, by_cc] : by_buf.items())
        for (auto& [cc, by_load] : by_cc.items())
          for (auto& [load, by_kind] : by_load.items())
            for (auto& [kind, by_metric] : by_kind.items())
              for (auto& [metric, r] : by_metric.items()) {
                char iv[64] = "(one seed)";
                if (r.contains("lo"))
                  std::snprintf(iv, sizeof iv, "[%.3f, %.3f]", r["lo"].get<double>(), r["hi"].get<double>());
                char line[400];
                std::snprintf(line, sizeof line, "%-11s %-6s %-8s %-6s %-10s %-24s %6.3f  %-17s %llu\n", wl.c_str(),
                              buf.c_str(), cc.c_str(), load.c_str(), kind.c_str(), metric.c_str(),
                              r["mean"].get<double>(), iv, (unsigned long long)r["n"].get<uint64_t>());
                txt << line;
              }
  }
  // Fig. 5's form: mean background FCT per buffer (one scheme at a time).
  if (j.contains("results"))
    for (auto& [wl, by_buf] : j["results"].items()) {
      if (by_buf.size() < 2) continue;
      txt << "average FCT (all flows) against the buffer, " << wl << ":\n";
      for (auto& [buf, by_cc] : by_buf.items())
        for (auto& [cc, by_load] : by_cc.items())
          for (auto& [load, by_scheme] : by_load.items())
            for (auto& [sch, x] : by_scheme.items()) {
              const uint64_t n = x["background"]["all"]["n"].get<uint64_t>() + x["fanin"]["all"]["n"].get<uint64_t>();
              double sum = 0;
              for (const char* kind : kKinds)
                if (x[kind]["all"]["n"].get<uint64_t>())
                  sum += x[kind]["all"]["mean_fct_us"].get<double>() * x[kind]["all"]["n"].get<double>();
              x["mean_fct_us_all"] = n ? std::round(sum / double(n) * 1000) / 1000 : 0.0;
              uint64_t nl = 0;
              double suml = 0;
              for (const char* kind : kKinds) {
                const auto& w = x[kind]["with_unfinished"]["all"];
                if (w["n"].get<uint64_t>() == 0) continue;
                nl += w["n"].get<uint64_t>();
                suml += w["mean_fct_us"].get<double>() * w["n"].get<double>();
              }
              x["mean_fct_us_all_with_unfinished"] = nl ? std::round(suml / double(nl) * 1000) / 1000 : 0.0;
              char line[200];
              std::snprintf(line, sizeof line, "  %6s MiB %-8s load %-5s %s: %10.2f us over %llu flows\n", buf.c_str(),
                            cc.c_str(), load.c_str(), sch.c_str(), n ? sum / double(n) : 0.0, (unsigned long long)n);
              txt << line;
              std::snprintf(line, sizeof line, "  %6s     %-8s      %-5s %s: %10.2f us with the %llu unfinished (lower bound)\n",
                            "", "", "", sch.c_str(), x["mean_fct_us_all_with_unfinished"].get<double>(),
                            (unsigned long long)(nl - n));
              txt << line;
            }
    }
  txt << "paper: Fig. 14 up to 10.1 % (background) / 43.3 % (fan-in) lower average FCT with DCQCN, 31.1 % / 57.7 % "
         "with PowerTCP; Fig. 5: 14 MB 78.1 % worse than 30 MB\n";
  for (const auto& e : errors) txt << "ERROR " << e << "\n";
  if (missing_rows)
    txt << missing_rows << " point(s) without their .flows.csv beside the result file: their rows are not in flows.csv\n";
  j["errors"] = errors;
  j["points_without_flow_rows"] = missing_rows;
  j["speed"] = {{"packets_forwarded", fwd},
                {"cpu_s", cpu},
                {"wall_s_sum", wall},
                {"packets_per_cpu_s", cpu > 0 ? double(fwd) / cpu : 0},
                {"max_rss_mb", rss}};
  if (reproducible) j["speed"]["cpu_s"] = j["speed"]["wall_s_sum"] = j["speed"]["packets_per_cpu_s"] = j["speed"]["max_rss_mb"] = nullptr;
  else {
    char b[200];
    std::snprintf(b, sizeof b, "speed: %.3g packets forwarded in %.1f CPU s (%.2f M/CPU s), peak memory of a point %.0f MiB\n",
                  double(fwd), cpu, cpu > 0 ? double(fwd) / cpu / 1e6 : 0, rss);
    txt << b;
  }
  write_file_atomically(out_dir + "/summary.json", j.dump(2) + "\n");
  write_file_atomically(out_dir + "/summary.txt", txt.str());
  std::fprintf(stderr, "%s", txt.str().c_str());
  if (plot) plot_net(python, plot_script, "--benchmark '" + out_dir + "/summary.json' '" + out_dir + "/benchmark.png'");
  std::fprintf(stderr, "wrote %s/flows.csv, summary.txt, summary.json%s\n", out_dir.c_str(), plot ? ", benchmark.png" : "");
  return errors.empty() && drops == 0 ? kExitOk : kExitCheckFailed;
}

}  // namespace

int benchmark_main(const KeyStore& k, const NetSweepOptions& o, bool plot, const std::string& python,
                   const std::string& plot_script, bool full, bool reproducible) {
  NetSetup s = build_setup(k);
  const auto seeds = seeds_of(k, full ? "bench.full_seeds" : "bench.seeds");
  const auto loads = real_items(k, full ? "bench.full_background_load" : "traffic.background_load", 0, 1);
  BenchKeys b;
  k.fill(b);
  const auto workloads = unique_items(full && !b.full_workloads.empty() ? b.full_workloads : b.workloads);
  std::vector<std::string> buffers = real_items(k, "bench.buffer_mb", 0, 1e4);
  const bool buffer_coord = !buffers.empty();
  if (!buffer_coord) buffers.push_back("");
  const unsigned jobs = unsigned(k.u64("run.jobs"));
  const std::string name = k.text("scenario.name");
  NetSweep sw;
  std::vector<BenchJob> of_point;
  for (const auto& sch : s.schemes)
    for (const auto& cc : s.ccs)
      for (const auto& wl : workloads)
        for (const auto& buf : buffers)
          for (const auto& load : loads)
            for (uint64_t seed : seeds) {
              KeyValues extra{{"workload", wl}};
              if (buffer_coord) extra.emplace_back("buffer_mb", buf);
              NetPoint p{net_point_id(name, sch, cc, &seed, load, extra), sch, cc, seed, load, extra};
              sw.points.push_back(p);
              of_point.push_back({sch, cc, wl, buf, load, seed});
            }
  // A point's result depends on its coordinates and every other key, not
  // on which lists chose it.
  sw.params = net_point_params(k,
                               {"run.jobs", "run.kernel", "run.schemes", "run.cc", "run.mismatch_dir", "traffic.workload",
                                "traffic.background_load", "bench.seeds", "bench.full_seeds",
                                "bench.full_background_load", "bench.buffer_mb", "bench.full_workloads"},
                               {});
  const std::string dir = net_points_dir(o);
  sw.run = [&](const std::vector<size_t>& todo, const NetPointDone& done) {
    std::fprintf(stderr,
                 "dsh-sim: %s: %zu of %zu points (%zu seeds x %zu loads x %zu workloads x %zu buffers x schemes x cc), "
                 "%s ms of arrivals + %s ms drain each, %u at a time\n",
                 name.c_str(), todo.size(), sw.points.size(), seeds.size(), loads.size(), workloads.size(),
                 buffers.size(), k.text("bench.duration_ms").c_str(), k.text("bench.drain_ms").c_str(), jobs);
    std::filesystem::create_directories(dir);
    size_t next = 0;
    run_pool(
        jobs,
        [&]() -> std::optional<PoolTask> {
          if (next == todo.size()) return std::nullopt;
          const size_t i = todo[next++];
          const BenchJob j = of_point[i];
          const std::string fp = flows_path(dir, sw.points[i].id);
          return PoolTask{[&k, j, fp] {
                            try {
                              NetSetup x = build_setup(k);
                              return run_benchmark(k, x, j, fp).dump();
                            } catch (const std::exception& e) {
                              return failed_point(j, e.what()).dump();
                            }
                          },
                          fp + ".part"};
        },
        [&](size_t task, const std::string& out, int st) {
          const size_t i = todo[task];
          nlohmann::ordered_json m;
          try {
            m = nlohmann::ordered_json::parse(out);
          } catch (...) {
            m = failed_point(of_point[i], "point process ended without a result (status " + std::to_string(st) + ")");
          }
          const std::string err = m.value("error", std::string());
          if (err.empty()) {
            const auto& b = m["kinds"]["background"];
            const auto& f = m["kinds"]["fanin"];
            std::fprintf(stderr,
                         "%s: %llu+%llu flows (background+fan-in), %llu+%llu unfinished, %llu PAUSE frames (%llu port, %llu of the "
                         "fan-in's class), %llu ECN marks, %llu lossless "
                         "drops, %.2f ms simulated in %.1f s (CPU %.1f s, %.2f M packets/CPU s, %.0f MiB)\n",
                         sw.points[i].id.c_str(), (unsigned long long)b["flows"].get<uint64_t>(),
                         (unsigned long long)f["flows"].get<uint64_t>(), (unsigned long long)b["unfinished"].get<uint64_t>(),
                         (unsigned long long)f["unfinished"].get<uint64_t>(), (unsigned long long)m["pause_frames"].get<uint64_t>(),
                         (unsigned long long)m["port_pause_frames"].get<uint64_t>(),
                         (unsigned long long)m["fanin_class_pause_frames"].get<uint64_t>(),
                         (unsigned long long)m["ecn_marked"].get<uint64_t>(),
                         (unsigned long long)m["lossless_drops"].get<uint64_t>(), m["sim_ms"].get<double>(),
                         m["wall_s"].get<double>(), m["cpu_s"].get<double>(),
                         m["packets_forwarded"].get<double>() / std::max(1e-9, m["cpu_s"].get<double>()) / 1e6,
                         m["max_rss_mb"].get<double>());
          } else {
            std::fprintf(stderr, "%s: ERROR %s\n", sw.points[i].id.c_str(), err.c_str());
            std::remove(flows_path(dir, sw.points[i].id).c_str());
          }
          done(i, m, err);
          return true;
        });
  };
  sw.point_status = [](const nlohmann::json& m) {
    return m.at("lossless_drops").get<uint64_t>() || !m.at("error").get<std::string>().empty() ? kExitCheckFailed : kExitOk;
  };
  sw.write_outputs = [&](const std::vector<nlohmann::json>& ms) {
    std::vector<std::string> ids;
    for (const auto& p : sw.points) ids.push_back(p.id);
    return write_benchmark_outputs(k, s, ms, ids, dir, !o.merge_dir.empty(), seeds, loads, full, o.out_dir, plot,
                                   python, plot_script, reproducible);
  };
  return run_net_sweep(sw, o);
}

}  // namespace dsh::net
