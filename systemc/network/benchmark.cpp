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

std::string size_text(uint64_t b) {
  if (b % 1000000 == 0) return std::to_string(b / 1000000) + "MB";
  if (b % 1000 == 0) return std::to_string(b / 1000) + "KB";
  return std::to_string(b) + "B";
}

}  // namespace

std::string num_text(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.10g", x);
  return b;
}

std::string cdf_path(const KeyStore& k, const std::string& workload) {
  return k.path("traffic.cdf_dir") + "/" + workload + ".cdf";
}

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
  k.declare(real_key("bench.full_duration_ms", 0, 1e6, true, "5",
                     "bench.duration_ms with --full (docs/results/convergence.md chose it)"));
  k.declare(real_key("bench.full_drain_ms", 0, 1e6, false, "10", "bench.drain_ms with --full"));
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
  // Every buffer of bench.buffer_mb on every switch's chip, as each point
  // sets it (s is const: a setup of its own to configure).
  const auto buffers = real_items(k, "bench.buffer_mb", 0, 1e4);
  if (buffers.empty()) return;
  NetSetup x = build_setup(k);
  for (const auto& sch : x.schemes)
    for (const auto& cc : x.ccs) {
      configure_run(x, k, scheme_from_string(sch), cc);
      for (const auto& buf : buffers) set_buffer(k, x, sch, buf);
    }
}

std::vector<std::string> bucket_names(const std::vector<uint64_t>& edges) {
  std::vector<std::string> v;
  for (size_t i = 0; i <= edges.size(); ++i) {
    if (i == 0) v.push_back(edges.empty() ? "all sizes" : "<" + size_text(edges[0]));
    else if (i == edges.size()) v.push_back(">=" + size_text(edges[i - 1]));
    else v.push_back(size_text(edges[i - 1]) + "-" + size_text(edges[i]));
  }
  return v;
}

namespace {

nlohmann::ordered_json failed_point(const BenchJob& j, const std::string& why) {
  BenchPoint p;
  p.job = j;
  p.error = why;
  return p;
}

std::string flows_path(const std::string& dir, const std::string& id) { return dir + "/" + id + ".flows.csv"; }

void report_benchmark(const std::string& id, const BenchPoint& p) {
  const auto& b = p.kinds["background"];
  const auto& f = p.kinds["fanin"];
  std::fprintf(stderr,
               "%s: %llu+%llu flows (background+fan-in), %llu+%llu unfinished, %llu PAUSE frames (%llu port, %llu of the "
               "fan-in's class), %llu ECN marks, %llu lossless "
               "drops, %.2f ms simulated in %.1f s (CPU %.1f s, %.2f M packets/CPU s, %.0f MiB)\n",
               id.c_str(), (unsigned long long)b["flows"].get<uint64_t>(), (unsigned long long)f["flows"].get<uint64_t>(),
               (unsigned long long)b["unfinished"].get<uint64_t>(), (unsigned long long)f["unfinished"].get<uint64_t>(),
               (unsigned long long)p.pause_frames, (unsigned long long)p.port_pause_frames,
               (unsigned long long)p.fanin_class_pause_frames, (unsigned long long)p.ecn_marked,
               (unsigned long long)p.lossless_drops, p.sim_ms, p.wall_s, p.cpu_s,
               double(p.packets_forwarded) / std::max(1e-9, p.cpu_s) / 1e6, p.max_rss_mb);
}

// --full runs its own window: every point and output reads bench.duration_ms
// and bench.drain_ms, so they are set from the --full keys.
KeyStore window_of_run(const KeyStore& keys, const NetSweepOptions& o) {
  KeyStore k = keys;
  if (!o.full) return k;
  for (const auto& [key, full_key] : {std::pair<std::string, std::string>{"bench.duration_ms", "bench.full_duration_ms"},
                                      {"bench.drain_ms", "bench.full_drain_ms"}}) {
    refuse_beside_full(keys, o, key, full_key);
    k.set(key, keys.text(full_key));
  }
  return k;
}

}  // namespace

int benchmark_main(const KeyStore& keys, const NetSweepOptions& o) {
  const KeyStore k = window_of_run(keys, o);
  NetSetup s = build_setup(k);
  const auto seeds = seeds_of(k, o.full ? "bench.full_seeds" : "bench.seeds");
  const auto loads = real_items(k, o.full ? "bench.full_background_load" : "traffic.background_load", 0, 1);
  refuse_beside_full(keys, o, "bench.seeds", "bench.full_seeds");
  refuse_beside_full(keys, o, "traffic.background_load", "bench.full_background_load");
  BenchKeys b;
  k.fill(b);
  const auto workloads = unique_items(o.full && !b.full_workloads.empty() ? b.full_workloads : b.workloads);
  if (!b.full_workloads.empty()) refuse_beside_full(keys, o, "traffic.workload", "bench.full_workloads");
  std::vector<std::string> buffers = real_items(k, "bench.buffer_mb", 0, 1e4);
  const bool buffer_coord = !buffers.empty();
  if (!buffer_coord) buffers.push_back("");
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
                                "bench.full_background_load", "bench.buffer_mb", "bench.full_workloads",
                                "bench.full_duration_ms", "bench.full_drain_ms"},
                               {});
  sw.jobs = unsigned(k.u64("run.jobs"));
  const std::string dir = sc::run_points_dir(o);
  sw.starting = [&](const std::vector<size_t>& todo) {
    std::fprintf(stderr,
                 "dsh-sim: %s: %zu of %zu points (%zu seeds x %zu loads x %zu workloads x %zu buffers x schemes x cc), "
                 "%s ms of arrivals + %s ms drain each, %u at a time\n",
                 name.c_str(), todo.size(), sw.points.size(), seeds.size(), loads.size(), workloads.size(),
                 buffers.size(), k.text("bench.duration_ms").c_str(), k.text("bench.drain_ms").c_str(), sw.jobs);
    std::filesystem::create_directories(dir);
  };
  sw.run_point = [&](size_t i) {
    NetSetup x = build_setup(k);
    return run_benchmark(k, x, of_point[i], flows_path(dir, sw.points[i].id));
  };
  sw.failed_point = [&](size_t i, const std::string& why) { return failed_point(of_point[i], why); };
  sw.partial_file = [&](size_t i) { return flows_path(dir, sw.points[i].id) + ".part"; };
  sw.report = [&](size_t i, const nlohmann::ordered_json& m) {
    const BenchPoint p = m.get<BenchPoint>();
    if (p.error.empty()) {
      report_benchmark(sw.points[i].id, p);
    } else {
      std::fprintf(stderr, "%s: ERROR %s\n", sw.points[i].id.c_str(), p.error.c_str());
      std::remove(flows_path(dir, sw.points[i].id).c_str());
    }
  };
  sw.point_status = [](const nlohmann::json& m) {
    const BenchPoint p = m.get<BenchPoint>();
    return p.lossless_drops || !p.error.empty() ? kExitCheckFailed : kExitOk;
  };
  sw.write_outputs = [&](const std::vector<nlohmann::json>& ms) {
    std::vector<std::string> ids;
    for (const auto& p : sw.points) ids.push_back(p.id);
    return write_benchmark_outputs(k, s, ms, ids, dir, !o.merge_dir.empty(), seeds, loads, o);
  };
  return run_net_sweep(sw, o);
}

}  // namespace dsh::net
