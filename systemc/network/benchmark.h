// SPDX-License-Identifier: Apache-2.0
// Benchmark traffic (DSH paper §V-B, Fig. 14 and 15; §III, Fig. 5): a
// generated leaf-spine or fat-tree (net.generate) of the paper's chip,
// ECMP, background one-to-one flows of a published size distribution
// between random hosts in random classes, and fan-in bursts (16 senders in
// other racks, 64 KB each, one class) to a random receiver; both Poisson.
// traffic.total_load (0.9) of the hosts' link capacity is offered, the
// background taking traffic.background_load of it (the x-axis of Fig. 14)
// and the fan-in the rest. Flows arrive for bench.duration_ms; the run then
// goes on at most bench.drain_ms for them to finish, and the flows still
// running at its end are counted and written, never dropped.
//
// A point is (scheme, cc, workload[, buffer_mb], background load, seed).
// Each point streams one CSV row per flow as it finishes
// (<ID>.flows.csv beside its result file) and keeps per traffic kind and
// size bucket the count, the sums and log-binned histograms (1 % bins) of
// FCT and slowdown, so memory grows with the flows in flight (and the
// model's flow records), not with the rows written. A flow still running
// at the run's end is right-censored: its elapsed time (run end - start) is
// a lower bound of its FCT, and the point keeps those times in histograms
// of their own ("censored"), so that every figure also exists with the
// unfinished flows counted ("with_unfinished": a lower bound of the figure
// the finished-only average underestimates by leaving out the largest
// flows). The merge adds the histograms of the seeds, and pairs each
// seed's DSH and SIH runs for the DSH/SIH ratios' mean and 95 % t interval
// over the seeds.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "net_setup.h"

namespace dsh::net {

// The benchmark's own keys, each filled by its declaration.
struct BenchKeys {
  std::vector<std::string> workloads, full_workloads;  // traffic.workload, bench.full_workloads
  double total_load = 0;
  unsigned fanin_class = 0;
  uint64_t fanin_senders = 0, fanin_bytes = 0;
  bool whole_packets = true;
  double duration_ms = 0, drain_ms = 0;
  std::vector<uint64_t> size_buckets;  // upper edges, bytes
};

void declare_benchmark_keys(KeyStore& k);
// Every traffic and bench key against the topology, before any run.
void validate_benchmark(const KeyStore& k, const NetSetup& s);

// FCT and slowdown of a set of flows: count, sums, and histograms with
// bins of 1 % (bin i holds values in [1.01^i, 1.01^(i+1))), mergeable.
struct FctStats {
  uint64_t n = 0;
  double sum_fct_us = 0, sum_slowdown = 0;
  std::map<int, uint64_t> fct_bins, slowdown_bins;
  void add(double fct_us, double slowdown);
  void merge(const FctStats& o);
  // The q-quantile (0 < q <= 1): the geometric middle of the bin holding
  // the ceil(q n)-th smallest value (within 0.5 % of it); 0 when empty.
  static double quantile(const std::map<int, uint64_t>& bins, uint64_t n, double q);
  static int bin(double v);
  nlohmann::ordered_json to_json() const;
  static FctStats from_json(const nlohmann::json& j);
};

// The figures of summary.json of a set of flows: n, mean, p50/p95/p99 of
// FCT (us) and slowdown.
nlohmann::ordered_json fct_figures(const FctStats& s);
// The finished flows with the unfinished ones counted at their elapsed
// times: every figure of it is a lower bound of the true one.
FctStats counting_unfinished(const FctStats& finished, const FctStats& censored);

// The DSH/SIH ratio of each seed (a DSH and a SIH point of the same cc,
// workload, buffer, load and seed) of each kind's mean_fct, p99_fct and
// both "_with_unfinished", with their mean and 95 % t interval over the
// seeds: [workload][buffer or "chip"][cc][load][kind][metric] =
// {n, mean, lo, hi (n >= 2), per_seed: {seed: ratio}}. Points with an
// error, and pairs where a side has no flow of the kind, are left out.
nlohmann::ordered_json seed_ratios(const std::vector<nlohmann::json>& points);

// The ideal FCT of `bytes` from host src to host dst along the flow's ECMP
// path, alone in the network: the first packet (min(bytes, packet_bytes))
// serialised on every link and each link's propagation, each switch's
// decision latency (kRtlLatency + 1 MMU cycles: the admission cycle and
// the pipeline), and the rest of the flow at the slowest link's rate.
// Picoseconds.
uint64_t ideal_fct_ps(const Topology& t, const std::vector<double>& mmu_clock_ghz, uint32_t src, uint32_t dst,
                      uint32_t flow, uint64_t bytes, uint64_t packet_bytes);

// Size buckets from their upper edges (bytes): "<100KB", "100KB-1MB", ...
std::vector<std::string> bucket_names(const std::vector<uint64_t>& edges);

struct BenchJob {
  std::string scheme, cc, workload, buffer_mb, load;  // buffer_mb "" = chip.buffer_cells
  uint64_t seed = 0;
};

// A point's record, its point file: the job, what the run measured, and
// the error ("" when it ran clean). A point that did not run has no kinds
// and its record only the job and the error.
struct BenchPoint {
  BenchJob job;
  nlohmann::ordered_json kinds;  // per kBenchKinds: the flows and their FCT statistics
  std::string fanin_load;
  uint64_t lossless_drops = 0, pause_frames = 0, queue_pause_frames = 0, port_pause_frames = 0;
  uint64_t fanin_class_pause_frames = 0;  // queue pauses of the fan-in's class (the rest: background classes)
  uint64_t ecn_marked = 0;                // DCQCN: packets the switches marked
  uint64_t packets_forwarded = 0;
  double sim_ms = 0, wall_s = 0, cpu_s = 0, max_rss_mb = 0;
  std::string error;
  bool ran() const { return !kinds.is_null(); }
};

// The record's one field list, in the file's order: f(key, member).
template <class P, class F>
void bench_point_fields(P& p, F&& f) {
  f("scheme", p.job.scheme);
  f("cc", p.job.cc);
  f("workload", p.job.workload);
  f("buffer_mb", p.job.buffer_mb);
  f("load", p.job.load);
  f("seed", p.job.seed);
  if (p.ran()) {
    f("kinds", p.kinds);
    f("fanin_load", p.fanin_load);
    f("lossless_drops", p.lossless_drops);
    f("pause_frames", p.pause_frames);
    f("queue_pause_frames", p.queue_pause_frames);
    f("port_pause_frames", p.port_pause_frames);
    f("fanin_class_pause_frames", p.fanin_class_pause_frames);
    f("ecn_marked", p.ecn_marked);
    f("packets_forwarded", p.packets_forwarded);
    f("sim_ms", p.sim_ms);
    f("wall_s", p.wall_s);
    f("cpu_s", p.cpu_s);
    f("max_rss_mb", p.max_rss_mb);
  }
  f("error", p.error);
}

inline void to_json(nlohmann::ordered_json& j, const BenchPoint& p) {
  bench_point_fields(p, [&](const char* key, const auto& v) { j[key] = v; });
}

// A key the record lacks keeps its default.
template <class Json>
void from_json(const Json& j, BenchPoint& p) {
  if (j.contains("kinds")) p.kinds = nlohmann::ordered_json(j.at("kinds"));
  bench_point_fields(p, [&](const char* key, auto& v) {
    if constexpr (!std::is_same_v<std::decay_t<decltype(v)>, nlohmann::ordered_json>)
      if (j.contains(key)) j.at(key).get_to(v);
  });
}

// Fig. 5: every chip of `s`, as configure_run left it for `scheme`, given a
// buffer of `buffer_mb` MiB; a ConfigError naming bench.buffer_mb when a
// chip cannot take it.
void set_buffer(const KeyStore& k, NetSetup& s, const std::string& scheme, const std::string& buffer_mb);

// One point: flows streamed to flows_csv (written under a temporary name,
// renamed when the run ends; "" writes none); its record as JSON.
nlohmann::ordered_json run_benchmark(const KeyStore& k, NetSetup& s, const BenchJob& j, const std::string& flows_csv);

struct NetSweepOptions;

// --list-points, --point, --merge, or every point not yet done in
// OUT/points; then flows.csv, summary.json, summary.txt and benchmark.png.
int benchmark_main(const KeyStore& k, const NetSweepOptions& o);

// Shared by the benchmark's files: benchmark.cpp (keys, points),
// bench_run.cpp (one point), bench_stats.cpp (FCT statistics) and
// bench_outputs.cpp (the outputs).
inline const char* const kBenchKinds[] = {"background", "fanin"};  // a point's "kinds": flow groups 1 and 2
std::string num_text(double x);                                     // "%.10g"
std::string cdf_path(const KeyStore& k, const std::string& workload);
struct MeanInterval;
nlohmann::ordered_json interval_json(const MeanInterval& mi);  // n, mean[, lo, hi], 4 decimals
// The outputs from every point's metrics (ids: the points' IDs, in the same
// order; their .flows.csv files in points_dir, and its subdirectories for
// a merge). The exit status.
int write_benchmark_outputs(const KeyStore& k, const NetSetup& s, const std::vector<nlohmann::json>& ms,
                            const std::vector<std::string>& ids, const std::string& points_dir, bool merge,
                            const std::vector<uint64_t>& seeds, const std::vector<std::string>& loads,
                            const NetSweepOptions& o);

}  // namespace dsh::net
