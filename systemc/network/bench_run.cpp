// SPDX-License-Identifier: Apache-2.0
// One benchmark point: its flows' arrivals, their FCTs and the run's
// counts (benchmark.h).
#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>

#include "benchmark.h"
#include "input.h"
#include "workload.h"

namespace dsh::net {

namespace {

enum Group { kBackground = 1, kFanin = 2 };

// The flows of a point as they end: per kind the started and finished
// flows and their FCT statistics (all sizes, per size bucket), the
// unfinished flows' elapsed times and slowdowns (right-censored), and, with
// a file, one CSV row per flow (written under a temporary name, renamed by
// close()).
class FlowLog {
 public:
  FlowLog(const Topology& t, const std::vector<double>& clocks, uint64_t pkt, const std::vector<uint64_t>& edges,
          const std::string& flows_csv)
      : t_(t), clocks_(clocks), pkt_(pkt), edges_(edges), bnames_(bucket_names(edges)), csv_(flows_csv) {
    for (auto& x : kinds_) x.buckets.resize(bnames_.size()), x.censored_buckets.resize(bnames_.size());
    part_ = csv_.empty() ? "" : csv_ + ".part";
    if (part_.empty()) return;
    out_ = std::fopen(part_.c_str(), "w");
    if (!out_) throw InputError("cannot write " + part_);
    std::fputs("id,src,dst,class,kind,size,start_us,fct_us,ideal_fct_us,slowdown,finished,delivered\n", out_);
  }
  ~FlowLog() {
    if (out_) std::fclose(out_);
  }

  void started(int group) { ++kinds_[group - 1].flows; }

  void finished(int32_t fi, const NetFlow& f) {
    const double start_us = double(f.start_ps) / 1e6;
    const double fct_us = double(f.done_ps - f.start_ps) / 1e6;
    const double ideal_us = ideal_us_of(fi, f);
    const double sd = fct_us / ideal_us;
    Kind& x = kinds_[f.group - 1];
    ++x.finished;
    x.all.add(fct_us, sd);
    x.buckets[bucket_of(f.bytes)].add(fct_us, sd);
    if (out_)
      std::fprintf(out_, "%d,%u,%u,%u,%s,%llu,%.6f,%.6f,%.6f,%.6f,1,%llu\n", fi, f.src, f.dst, unsigned(f.cls),
                   kBenchKinds[f.group - 1], (unsigned long long)f.bytes, start_us, fct_us, ideal_us, sd,
                   (unsigned long long)f.delivered);
  }

  // A flow still running at the run's end: written and counted with what
  // it delivered; it ran from its start to the end without finishing, so
  // that elapsed time is a lower bound of its FCT.
  void unfinished(int32_t fi, const NetFlow& f, uint64_t run_end_ps) {
    if (out_)
      std::fprintf(out_, "%d,%u,%u,%u,%s,%llu,%.6f,,,,0,%llu\n", fi, f.src, f.dst, unsigned(f.cls),
                   kBenchKinds[f.group - 1], (unsigned long long)f.bytes, double(f.start_ps) / 1e6,
                   (unsigned long long)f.delivered);
    Kind& x = kinds_[f.group - 1];
    ++x.unfinished;
    const double elapsed_us = double(run_end_ps - std::min(run_end_ps, f.start_ps)) / 1e6;
    const double ideal_us = ideal_us_of(fi, f);
    x.censored.add(elapsed_us, elapsed_us / ideal_us);
    x.censored_buckets[bucket_of(f.bytes)].add(elapsed_us, elapsed_us / ideal_us);
    x.unfinished_bytes += f.bytes;
    x.unfinished_delivered += f.delivered;
  }

  void close() {
    if (!out_) return;
    const bool ok = std::fflush(out_) == 0;
    std::fclose(out_);
    out_ = nullptr;
    if (!ok) throw InputError("cannot write " + part_);
    std::filesystem::rename(part_, csv_);
  }

  void to_json(nlohmann::ordered_json& kinds) const {
    for (int i = 0; i < 2; ++i) {
      const Kind& k = kinds_[i];
      auto& x = kinds[kBenchKinds[i]];
      x["flows"] = k.flows;
      x["finished"] = k.finished;
      x["unfinished"] = k.unfinished;
      x["unfinished_bytes"] = k.unfinished_bytes;
      x["unfinished_delivered_bytes"] = k.unfinished_delivered;
      x["all"] = k.all.to_json();
      for (size_t b = 0; b < bnames_.size(); ++b) x["buckets"][bnames_[b]] = k.buckets[b].to_json();
      x["censored"]["all"] = k.censored.to_json();
      for (size_t b = 0; b < bnames_.size(); ++b) x["censored"]["buckets"][bnames_[b]] = k.censored_buckets[b].to_json();
    }
  }

 private:
  struct Kind {
    uint64_t flows = 0, finished = 0, unfinished = 0, unfinished_bytes = 0, unfinished_delivered = 0;
    FctStats all, censored;
    std::vector<FctStats> buckets, censored_buckets;
  };

  double ideal_us_of(int32_t fi, const NetFlow& f) const {
    return double(ideal_fct_ps(t_, clocks_, f.src, f.dst, uint32_t(fi), f.bytes, pkt_)) / 1e6;
  }
  size_t bucket_of(uint64_t bytes) const {
    size_t i = 0;
    while (i < edges_.size() && bytes >= edges_[i]) ++i;
    return i;
  }

  const Topology& t_;
  const std::vector<double>& clocks_;
  const uint64_t pkt_;
  const std::vector<uint64_t>& edges_;
  const std::vector<std::string> bnames_;
  const std::string csv_;
  std::string part_;
  FILE* out_ = nullptr;
  Kind kinds_[2];
};

// The point's traffic: one Poisson stream per kind, each with its own
// generator, so the background of a seed is the same whatever the fan-in
// does; the fabric stops once the arrivals ended and every flow finished.
class Arrivals {
 public:
  Arrivals(const KeyStore& k, Fabric& fab, uint64_t pkt, const BenchJob& j, const BenchKeys& bk, FlowLog& log)
      : fab_(fab), ev_(fab.events()), log_(log), cdf_(SizeCdf::load(cdf_path(k, j.workload))), pkt_(pkt) {
    const Topology& t = fab.topo();
    whole_ = bk.whole_packets;
    bg_mean_ = whole_ ? mean_whole_packets(cdf_, pkt_, j.seed) : cdf_.mean_bytes();
    bg_load_ = std::stod(j.load);
    fi_load_ = std::max(0.0, bk.total_load - bg_load_);
    fi_n_ = bk.fanin_senders;
    fi_bytes_ = size_of(bk.fanin_bytes);
    fi_cls_ = uint8_t(bk.fanin_class);
    for (unsigned c = 0; c < unsigned(uint64_t(k.i64("chip.n_queues"))) && c < kControlClass; ++c)
      if (c != fi_cls_) bg_classes_.push_back(uint8_t(c));
    if (bg_classes_.empty()) bg_classes_.push_back(fi_cls_);
    for (size_t h = 0; h < t.n_hosts(); ++h) {
      cap_gbps_ += t.ports(t.host_node(int(h)))[0].gbps;
      hosts_.push_back(int(h));
    }
    end_ps_ = uint64_t(bk.duration_ms * 1e9);
    bg_rng_.seed(mix64(j.seed * 0x9e3779b97f4a7c15ULL + 1));
    fi_rng_.seed(mix64(j.seed * 0x9e3779b97f4a7c15ULL + 2));
  }

  double fanin_load() const { return fi_load_; }
  uint8_t fanin_class() const { return fi_cls_; }

  void start() {
    if (bg_load_ > 0) {
      ++open_streams_;
      ev_.at(poisson_gap_ps(bg_rng_, bg_mean_, cap_gbps_, bg_load_), [this] { next_background(); });
    }
    if (fi_load_ > 1e-12) {
      ++open_streams_;
      ev_.at(poisson_gap_ps(fi_rng_, double(fi_n_ * fi_bytes_), cap_gbps_, fi_load_), [this] { next_fanin(); });
    }
  }

  void flow_done() {
    --running_;
    if (!arrivals_open_ && running_ == 0) fab_.stop();
  }

 private:
  uint64_t size_of(uint64_t b) const { return whole_ ? whole_packets(b, pkt_) : b; }

  void add(uint32_t src, uint32_t dst, uint8_t cls, uint64_t bytes, int group) {
    fab_.add_flow(src, dst, cls, bytes, ev_.now(), group);
    log_.started(group);
    ++running_;
  }
  bool stream_ended() {
    if (ev_.now() < end_ps_) return false;
    if (--open_streams_ == 0) arrivals_open_ = false;
    if (!arrivals_open_ && running_ == 0) fab_.stop();
    return true;
  }
  void next_background() {
    if (stream_ended()) return;
    const auto pair = pick_distinct(bg_rng_, hosts_, 2);
    const uint8_t cls = bg_classes_[std::uniform_int_distribution<size_t>(0, bg_classes_.size() - 1)(bg_rng_)];
    add(uint32_t(pair[0]), uint32_t(pair[1]), cls, size_of(cdf_.sample(bg_rng_)), kBackground);
    ev_.after(poisson_gap_ps(bg_rng_, bg_mean_, cap_gbps_, bg_load_), [this] { next_background(); });
  }
  void next_fanin() {
    if (stream_ended()) return;
    const Topology& t = fab_.topo();
    const int rx = hosts_[std::uniform_int_distribution<size_t>(0, hosts_.size() - 1)(fi_rng_)];
    std::vector<int> pool;
    for (int h : hosts_)
      if (t.host_switch(h) != t.host_switch(rx)) pool.push_back(h);
    for (int tx : pick_distinct(fi_rng_, pool, fi_n_)) add(uint32_t(tx), uint32_t(rx), fi_cls_, fi_bytes_, kFanin);
    ev_.after(poisson_gap_ps(fi_rng_, double(fi_n_ * fi_bytes_), cap_gbps_, fi_load_), [this] { next_fanin(); });
  }

  Fabric& fab_;
  EventQueue& ev_;
  FlowLog& log_;
  const SizeCdf cdf_;
  const uint64_t pkt_;
  bool whole_ = true;
  double bg_mean_ = 0, bg_load_ = 0, fi_load_ = 0, cap_gbps_ = 0;
  uint64_t fi_n_ = 0, fi_bytes_ = 0, end_ps_ = 0;
  uint8_t fi_cls_ = 0;
  std::vector<uint8_t> bg_classes_;
  std::vector<int> hosts_;
  std::mt19937_64 bg_rng_, fi_rng_;
  uint64_t running_ = 0;
  bool arrivals_open_ = true;
  unsigned open_streams_ = 0;
};

}  // namespace

void set_buffer(const KeyStore& k, NetSetup& s, const std::string& scheme, const std::string& buffer_mb) {
  for (size_t sw = 0; sw < s.chips.size(); ++sw) {
    ChipSpec& c = s.chips[sw];
    c.mmu.buffer_cells = uint64_t(std::stod(buffer_mb) * 1048576.0 / double(c.cell_bytes));
    try {
      c.mmu.validate(widths_for(c.mmu, c.backend));
    } catch (const ConfigError& e) {
      throw ConfigError("bench.buffer_mb = " + buffer_mb + k.where("bench.buffer_mb") + ": " + scheme + " on switch " +
                        s.topo->name(int(sw)) + ": " + e.what());
    }
  }
}

nlohmann::ordered_json run_benchmark(const KeyStore& k, NetSetup& s, const BenchJob& j, const std::string& flows_csv) {
  configure_run(s, k, scheme_from_string(j.scheme), j.cc);
  if (!j.buffer_mb.empty()) set_buffer(k, s, j.scheme, j.buffer_mb);
  s.fp.seed = j.seed;
  const Topology& t = *s.topo;
  RunFabric run(s);
  Fabric& fab = run.fab;
  std::vector<double> clocks;
  for (const auto& c : s.chips) clocks.push_back(c.mmu_clock_ghz);
  BenchKeys bk;
  k.fill(bk);
  FlowLog log(t, clocks, s.fp.packet_bytes, bk.size_buckets, flows_csv);
  Arrivals arrivals(k, fab, s.fp.packet_bytes, j, bk, log);
  arrivals.start();
  // PAUSE frames by kind: a queue's (its class only) or DSH's port pause
  // (every lossless class of the port, background classes too).
  uint64_t port_pauses = 0, queue_pauses = 0, fanin_class_pauses = 0;
  const uint8_t fi_cls = arrivals.fanin_class();
  fab.on_control = [&](int, const Event& e) {
    port_pauses += e.kind == Event::PortPause;
    queue_pauses += e.kind == Event::Pause;
    fanin_class_pauses += e.kind == Event::Pause && e.queue == fi_cls;
  };
  fab.on_flow_done = [&](int32_t fi) {
    log.finished(fi, fab.flows()[size_t(fi)]);
    arrivals.flow_done();
  };
  fab.run(uint64_t(bk.duration_ms * 1e9) + uint64_t(bk.drain_ms * 1e9));

  BenchPoint p;
  p.job = j;
  p.error = run.end_error();
  const uint64_t run_end_ps = fab.events().now();
  for (size_t fi = 0; fi < fab.flows().size(); ++fi)
    if (!fab.flows()[fi].done) log.unfinished(int32_t(fi), fab.flows()[fi], run_end_ps);
  log.close();
  log.to_json(p.kinds);
  for (size_t sw = 0; sw < t.n_switches(); ++sw) {
    p.pause_frames += fab.stats(int(sw)).pause_frames;
    p.ecn_marked += fab.stats(int(sw)).ecn_marked;
  }
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  p.fanin_load = num_text(arrivals.fanin_load());
  p.lossless_drops = fab.lossless_drops();
  p.queue_pause_frames = queue_pauses;
  p.port_pause_frames = port_pauses;
  p.fanin_class_pause_frames = fanin_class_pauses;
  p.packets_forwarded = fab.forwarded();
  p.sim_ms = double(fab.events().now()) / 1e9;
  p.wall_s = run.wall_s();
  p.cpu_s = run.cpu_s();
  p.max_rss_mb = double(ru.ru_maxrss) / 1024.0;
  return p;
}

}  // namespace dsh::net
