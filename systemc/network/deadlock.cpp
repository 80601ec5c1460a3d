#include "deadlock.h"

#include <nlohmann/json.hpp>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <deque>
#include <sstream>

#include "child_process.h"
#include "cli_common.h"
#include "deadlock_detector.h"
#include "net_points.h"
#include "tlm_netlist.h"
#include "output.h"
#include "resources.h"
#include "workload.h"

namespace dsh::net {

void declare_deadlock_keys(KeyStore& k) {
  declare_network_keys(k);
  k.declare(uint_key("traffic.class", 0, 6, "0", "lossless class of every flow"));
  k.declare(list_key("traffic.pairs", "L0>L3,L3>L0,L1>L2,L2>L1", "fan-in leaf pairs SRC_LEAF>DST_LEAF"));
  k.declare(uint_key("traffic.fanin_min", 1, 1000, "1", "senders per burst, at least"));
  k.declare(uint_key("traffic.fanin_max", 1, 1000, "15", "senders per burst, at most (uniform)"));
  k.declare(text_key("traffic.cdf", "../data/hadoop.cdf", "flow-size CDF file (relative to the scenario file)"));
  k.declare(real_key("traffic.load", 0, 1, true, "0.5", "offered load of the destination leaf's downlinks"));
  k.declare(bool_key("traffic.whole_packets", "true",
                     "round every flow up to whole packets: the headroom (spec §1.3) counts cells of full packets"));
  const auto seeds = [](const std::string& key) {
    return [key](const std::string& v) {
      for (const auto& x : expand_list(v, key)) parse_uint(key, x, 0, ~uint64_t(0) >> 11);
      if (expand_list(v, key).empty()) throw ConfigError(key + " = " + quoted(v) + ": empty");
    };
  };
  k.declare(list_key("deadlock.seeds", "1..8", "seeds of the default run (one run per scheme, cc and seed)",
                     seeds("deadlock.seeds")));
  k.declare(real_key("deadlock.duration_ms", 0, 1e6, true, "5", "simulated time of a default run"));
  k.declare(list_key("deadlock.full_seeds", "1..100", "seeds with --full (the paper: 100 runs)",
                     seeds("deadlock.full_seeds")));
  k.declare(real_key("deadlock.full_duration_ms", 0, 1e6, true, "100", "duration with --full (the paper: 100 ms)"));
  k.declare(real_key("deadlock.still_us", 1, 1e7, false, "1000",
                     "a cycle of paused links counts as deadlocked once none moved for this"));
  k.declare(real_key("deadlock.check_us", 1, 1e7, false, "50", "detector period"));
}

namespace {
std::vector<int> hosts_of(const Topology& t, int leaf);
}

void validate_deadlock(const KeyStore& k, const NetSetup& s) {
  const Topology& t = *s.topo;
  try {
    SizeCdf::load(k.path("traffic.cdf"));
  } catch (const InputError& e) {
    k.refuse("traffic.cdf", e.what());
  }
  const uint64_t nmin = k.u64("traffic.fanin_min"), nmax = k.u64("traffic.fanin_max");
  if (nmax < nmin) k.refuse("traffic.fanin_max", "below traffic.fanin_min = " + k.text("traffic.fanin_min"));
  const auto pairs = k.list("traffic.pairs");
  if (pairs.empty()) k.refuse("traffic.pairs", "empty");
  for (const auto& pair : pairs) {
    const auto gt = pair.find('>');
    const int a = gt == std::string::npos ? -1 : t.node(pair.substr(0, gt));
    const int b = gt == std::string::npos ? -1 : t.node(pair.substr(gt + 1));
    if (a < 0 || b < 0 || !t.is_switch(a) || !t.is_switch(b))
      k.refuse("traffic.pairs", quoted(pair) + " is not SRC_LEAF>DST_LEAF of two switches");
    if (hosts_of(t, a).size() < nmax)
      k.refuse("traffic.fanin_max", "leaf " + t.name(a) + " has only " + std::to_string(hosts_of(t, a).size()) + " hosts");
    if (hosts_of(t, b).empty()) k.refuse("traffic.pairs", "leaf " + t.name(b) + " has no hosts");
  }
}

namespace {

std::vector<int> hosts_of(const Topology& t, int leaf) {
  std::vector<int> v;
  for (size_t h = 0; h < t.n_hosts(); ++h)
    if (t.host_switch(int(h)) == leaf) v.push_back(int(h));
  return v;
}

}  // namespace

DeadlockRun run_deadlock(const KeyStore& k, NetSetup& s, Scheme scheme, const std::string& cc, uint64_t seed,
                         double duration_ms) {
  DeadlockRun r;
  r.scheme = scheme == Scheme::DSH ? "dsh" : "sih";
  r.cc = cc;
  r.seed = seed;
  configure_run(s, k, scheme, cc);
  s.fp.seed = seed;
  const Topology& t = *s.topo;
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t cpu0 = std::clock();
  Fabric fab(t, s.chips, s.fp);
  std::unique_ptr<tlmnet::Netlist> netlist;  // run.kernel = systemc (each run is its own process)
  if (s.kernel == Kernel::SystemC) netlist = std::make_unique<tlmnet::Netlist>(fab);
  const SizeCdf cdf = SizeCdf::load(k.path("traffic.cdf"));
  const uint8_t cls = uint8_t(k.u64("traffic.class"));
  const uint64_t nmin = k.u64("traffic.fanin_min"), nmax = k.u64("traffic.fanin_max");
  const double load = k.num("traffic.load");
  const uint64_t end_ps = uint64_t(duration_ms * 1e9);
  // A port is lossless for the packet size its headroom was computed for
  // (spec §1.3: 1500 B packets of 6 cells); a shorter last packet wastes
  // more of its cells, so flows are rounded up to whole packets. The load
  // uses the mean of the rounded sizes (sampled once per run).
  const bool whole = k.flag("traffic.whole_packets");
  const uint64_t pkt = s.fp.packet_bytes;
  auto size_of = [&](uint64_t b) { return whole ? (b + pkt - 1) / pkt * pkt : b; };
  double mean_size = cdf.mean_bytes();
  if (whole) {
    std::mt19937_64 m(seed);
    double sum = 0;
    for (int i = 0; i < 200000; ++i) sum += double(size_of(cdf.sample(m)));
    mean_size = sum / 200000;
  }
  struct Spec {
    uint64_t at;
    uint32_t src, dst;
    uint64_t bytes;
  };
  std::vector<Spec> specs;
  uint64_t pair_index = 0;
  for (const auto& pair : k.list("traffic.pairs")) {
    // One generator per pair: a run's first milliseconds are the same
    // whatever its duration (a short lockstep window repeats a long run's start).
    std::mt19937_64 rng(mix64(seed * 0x9e3779b97f4a7c15ULL + ++pair_index));
    const auto gt = pair.find('>');
    const int a = gt == std::string::npos ? -1 : t.node(pair.substr(0, gt));
    const int b = gt == std::string::npos ? -1 : t.node(pair.substr(gt + 1));
    if (a < 0 || b < 0 || !t.is_switch(a) || !t.is_switch(b))
      throw ConfigError("traffic.pairs: " + quoted(pair) + " is not SRC_LEAF>DST_LEAF of two switches");
    const auto src = hosts_of(t, a), dst = hosts_of(t, b);
    if (src.size() < nmax) throw ConfigError("traffic.fanin_max = " + std::to_string(nmax) + ": leaf " + t.name(a) +
                                             " has only " + std::to_string(src.size()) + " hosts");
    if (dst.empty()) throw ConfigError("traffic.pairs: leaf " + t.name(b) + " has no hosts");
    double down_gbps = 0;
    for (int h : dst) down_gbps += t.ports(t.host_node(h))[0].gbps;
    const double burst_bytes = mean_size * double(nmin + nmax) / 2;
    for (uint64_t at = poisson_gap_ps(rng, burst_bytes, down_gbps, load); at < end_ps;
         at += poisson_gap_ps(rng, burst_bytes, down_gbps, load)) {
      const size_t n = size_t(std::uniform_int_distribution<uint64_t>(nmin, nmax)(rng));
      const int rx = dst[std::uniform_int_distribution<size_t>(0, dst.size() - 1)(rng)];
      for (int tx : pick_distinct(rng, src, n)) specs.push_back({at, uint32_t(tx), uint32_t(rx), size_of(cdf.sample(rng))});
    }
  }
  // Flows numbered by start time: the ECMP hash of a flow (its number) is
  // then the same in a run of any duration.
  std::stable_sort(specs.begin(), specs.end(), [](const Spec& a, const Spec& b) { return a.at < b.at; });
  for (const Spec& f : specs) fab.add_flow(f.src, f.dst, cls, f.bytes, f.at, 1);
  r.flows = fab.flows().size();
  const uint64_t still_ps = uint64_t(k.num("deadlock.still_us") * 1e6);
  const uint64_t check_ps = uint64_t(k.num("deadlock.check_us") * 1e6);
  EventQueue& ev = fab.events();
  std::function<void()> check = [&] {
    std::vector<std::pair<int, int>> ids;
    const auto g = wait_graph(fab, &ids);
    if (const auto d = find_deadlock(g, ev.now(), still_ps)) {
      r.deadlocked = true;
      r.onset_ms = double(d->onset_ps) / 1e9;
      r.detected_ms = double(ev.now()) / 1e9;
      for (int x : d->cycle) {
        const auto [sw, port] = ids[size_t(x)];
        r.cycle += (r.cycle.empty() ? "" : " ") + t.name(sw) + ">" + t.name(t.ports(sw)[size_t(port)].peer);
      }
      fab.stop();
      return;
    }
    ev.after(check_ps, check);
  };
  ev.at(check_ps, check);
  fab.run(end_ps);
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.cpu_s = double(std::clock() - cpu0) / CLOCKS_PER_SEC;
  r.sim_ms = double(ev.now()) / 1e9;
  r.error = fab.error;
  if (r.error.empty())
    for (size_t sw = 0; sw < t.n_switches(); ++sw) try {
        fab.mmu(int(sw)).finish();
      } catch (const std::exception& e) {
        r.error = e.what();
      }
  r.lossless_drops = fab.lossless_drops();
  r.forwarded = fab.forwarded();
  for (const auto& f : fab.flows()) r.flows_done += f.done;
  for (size_t sw = 0; sw < t.n_switches(); ++sw) r.pause_frames += fab.stats(int(sw)).pause_frames;
  return r;
}

namespace {

nlohmann::ordered_json to_json(const DeadlockRun& r) {
  return {{"scheme", r.scheme},   {"cc", r.cc},           {"seed", r.seed},         {"deadlocked", r.deadlocked},
          {"onset_ms", r.onset_ms}, {"detected_ms", r.detected_ms}, {"sim_ms", r.sim_ms}, {"cycle", r.cycle},
          {"lossless_drops", r.lossless_drops}, {"packets_forwarded", r.forwarded}, {"flows", r.flows},
          {"flows_done", r.flows_done}, {"pause_frames", r.pause_frames}, {"wall_s", r.wall_s}, {"cpu_s", r.cpu_s},
          {"error", r.error}};
}

DeadlockRun from_json(const nlohmann::json& j) {
  DeadlockRun r;
  r.scheme = j.at("scheme");
  r.cc = j.at("cc");
  r.seed = j.at("seed");
  r.deadlocked = j.at("deadlocked");
  r.onset_ms = j.at("onset_ms");
  r.detected_ms = j.at("detected_ms");
  r.sim_ms = j.at("sim_ms");
  r.cycle = j.at("cycle");
  r.lossless_drops = j.at("lossless_drops");
  r.forwarded = j.at("packets_forwarded");
  r.flows = j.at("flows");
  r.flows_done = j.at("flows_done");
  r.pause_frames = j.at("pause_frames");
  r.wall_s = j.at("wall_s");
  r.cpu_s = j.at("cpu_s");
  r.error = j.at("error");
  return r;
}

struct Job {
  std::string scheme, cc;
  uint64_t seed;
  size_t point;  // index into the sweep's points
};

// One process per run, `jobs` at a time (the one pool, child_process.h);
// each sends its result as JSON.
void run_all(const KeyStore& k, const std::vector<Job>& todo, unsigned jobs, double duration_ms,
             const NetPointDone& done) {
  size_t next = 0;
  run_pool(
      jobs,
      [&]() -> std::optional<PoolTask> {
        if (next == todo.size()) return std::nullopt;
        const Job j = todo[next++];
        return PoolTask{[&k, j, duration_ms] {
                          try {
                            NetSetup s = build_setup(k);
                            const Scheme sch = j.scheme == "dsh" ? Scheme::DSH : Scheme::SIH;
                            return to_json(run_deadlock(k, s, sch, j.cc, j.seed, duration_ms)).dump();
                          } catch (const std::exception& e) {
                            DeadlockRun r;
                            r.scheme = j.scheme;
                            r.cc = j.cc;
                            r.seed = j.seed;
                            r.error = e.what();
                            return to_json(r).dump();
                          }
                        },
                        ""};
      },
      [&](size_t task, const std::string& out, int st) {
        const Job& j = todo[task];
        DeadlockRun r;
        try {
          r = from_json(nlohmann::json::parse(out));
        } catch (...) {
          r.scheme = j.scheme;
          r.cc = j.cc;
          r.seed = j.seed;
          r.error = "run process ended without a result (status " + std::to_string(st) + ")";
        }
        std::fprintf(stderr, "%s %s seed %llu: %s%s; %llu flows (%llu done), %llu PAUSE frames, %llu lossless drops, "
                             "%.2f ms simulated in %.1f s (CPU %.1f s, %.2f M packets/CPU s)%s%s\n",
                     r.scheme.c_str(), r.cc.c_str(), (unsigned long long)r.seed,
                     r.deadlocked ? "DEADLOCK" : "no deadlock",
                     r.deadlocked ? (" formed at " + std::to_string(r.onset_ms) + " ms (" + r.cycle + ")").c_str() : "",
                     (unsigned long long)r.flows, (unsigned long long)r.flows_done, (unsigned long long)r.pause_frames,
                     (unsigned long long)r.lossless_drops, r.sim_ms, r.wall_s, r.cpu_s,
                     r.cpu_s > 0 ? double(r.forwarded) / r.cpu_s / 1e6 : 0, r.error.empty() ? "" : "; ERROR ",
                     r.error.c_str());
        done(j.point, to_json(r), r.error);
        return true;  // a failed run is reported in the outputs; the others go on
      });
}

}  // namespace

int deadlock_main(const KeyStore& k, const NetSweepOptions& o, bool plot, const std::string& python,
                  const std::string& plot_script, bool full, bool reproducible) {
  NetSetup s = build_setup(k);
  const std::string seeds_key = full ? "deadlock.full_seeds" : "deadlock.seeds";
  std::vector<uint64_t> seeds;
  for (const auto& x : k.list(seeds_key)) {  // a seed given twice is one point
    const uint64_t seed = parse_uint(seeds_key, x, 0, ~uint64_t(0) >> 1);
    if (std::find(seeds.begin(), seeds.end(), seed) == seeds.end()) seeds.push_back(seed);
  }
  if (seeds.empty()) throw ConfigError(seeds_key + ": empty");
  const double duration_ms = k.num(full ? "deadlock.full_duration_ms" : "deadlock.duration_ms");
  const unsigned jobs = unsigned(k.u64("run.jobs"));
  // A point is one run; its result depends on the duration, not on which
  // key gave it nor on the other seeds.
  NetSweep sw;
  std::vector<Job> jobs_of_points;
  const std::string name = k.text("scenario.name");
  for (const auto& sch : s.schemes)
    for (const auto& cc : s.ccs)
      for (uint64_t seed : seeds) {
        sw.points.push_back({net_point_id(name, sch, cc, &seed), sch, cc, seed});
        jobs_of_points.push_back({sch, cc, seed, sw.points.size() - 1});
      }
  char dur[40];
  std::snprintf(dur, sizeof dur, "%.10g", duration_ms);
  sw.params = net_point_params(k,
                               {"run.jobs", "run.kernel", "run.schemes", "run.cc", "run.mismatch_dir", "deadlock.seeds",
                                "deadlock.full_seeds", "deadlock.full_duration_ms"},
                               {{"deadlock.duration_ms", dur}});
  sw.run = [&](const std::vector<size_t>& todo, const NetPointDone& done) {
    std::vector<Job> js;
    for (size_t i : todo) js.push_back(jobs_of_points[i]);
    std::fprintf(stderr, "dsh-sim: %s: %zu of %zu runs (%zu seeds x schemes x cc), %.1f ms each at most, %u at a time\n",
                 name.c_str(), js.size(), sw.points.size(), seeds.size(), duration_ms, jobs);
    run_all(k, js, jobs, duration_ms, done);
  };
  sw.point_status = [](const nlohmann::json& m) {
    return m.at("lossless_drops").get<uint64_t>() || !m.at("error").get<std::string>().empty() ? kExitCheckFailed : kExitOk;
  };
  sw.write_outputs = [&](const std::vector<nlohmann::json>& ms) {
    std::vector<DeadlockRun> runs;
    for (const auto& m : ms) runs.push_back(from_json(m));
    return write_deadlock_outputs(k, runs, seeds, duration_ms, o.out_dir, plot, python, plot_script, reproducible);
  };
  return run_net_sweep(sw, o);
}

int write_deadlock_outputs(const KeyStore& k, std::vector<DeadlockRun> runs, const std::vector<uint64_t>& seeds,
                           double duration_ms, const std::string& out_dir, bool plot, const std::string& python,
                           const std::string& plot_script, bool reproducible) {
  std::sort(runs.begin(), runs.end(), [](const DeadlockRun& a, const DeadlockRun& b) {
    return std::tie(a.scheme, a.cc, a.seed) < std::tie(b.scheme, b.cc, b.seed);
  });
  std::ostringstream csv;
  csv << "scheme,cc,seed,deadlocked,onset_ms,detected_ms,sim_ms,lossless_drops,pause_frames,flows,flows_done,"
         "packets_forwarded,cpu_s,wall_s,cycle,error\n";
  nlohmann::json j;
  j["scenario"] = k.text("scenario.name");
  j["kind"] = "deadlock";
  j["backend"] = k.text("run.backend");
  j["rtl_switches"] = k.list("net.rtl_switches");
  j["duration_ms"] = duration_ms;
  j["seeds"] = seeds;
  j["still_us"] = k.num("deadlock.still_us");
  bool errors = false;
  uint64_t drops = 0, fwd = 0;
  double cpu = 0;
  for (const auto& r : runs) {
    char b[400], times[64] = ",";  // --reproducible: no CPU or wall seconds
    if (!reproducible) std::snprintf(times, sizeof times, "%.2f,%.2f", r.cpu_s, r.wall_s);
    std::snprintf(b, sizeof b, "%s,%s,%llu,%d,%.4f,%.4f,%.4f,%llu,%llu,%llu,%llu,%llu,%s,", r.scheme.c_str(),
                  r.cc.c_str(), (unsigned long long)r.seed, int(r.deadlocked), r.onset_ms, r.detected_ms, r.sim_ms,
                  (unsigned long long)r.lossless_drops, (unsigned long long)r.pause_frames, (unsigned long long)r.flows,
                  (unsigned long long)r.flows_done, (unsigned long long)r.forwarded, times);
    std::string err = r.error;
    std::replace(err.begin(), err.end(), ',', ';');
    std::replace(err.begin(), err.end(), '\n', ' ');
    csv << b << r.cycle << "," << err << "\n";
    auto& x = j["results"][r.scheme][r.cc];
    if (x.is_null()) x = {{"runs", 0}, {"deadlocked_runs", 0}, {"onset_ms", nlohmann::json::array()}, {"lossless_drops", 0}};
    x["runs"] = x["runs"].get<int>() + 1;
    if (r.deadlocked) {
      x["deadlocked_runs"] = x["deadlocked_runs"].get<int>() + 1;
      x["onset_ms"].push_back(r.onset_ms);
    }
    x["lossless_drops"] = x["lossless_drops"].get<uint64_t>() + r.lossless_drops;
    if (!r.error.empty()) x["errors"].push_back("seed " + std::to_string(r.seed) + ": " + r.error);
    errors |= !r.error.empty();
    drops += r.lossless_drops;
    fwd += r.forwarded;
    cpu += r.cpu_s;
  }
  for (auto& [sch, by_cc] : j["results"].items())
    for (auto& [cc, x] : by_cc.items()) {
      auto v = x["onset_ms"].get<std::vector<double>>();
      std::sort(v.begin(), v.end());
      x["onset_ms"] = v;
      x["deadlocked_fraction"] = double(x["deadlocked_runs"].get<int>()) / x["runs"].get<int>();
    }
  nlohmann::json targets;
  if (j["results"].contains("sih") && j["results"]["sih"].contains("dcqcn"))
    targets["sih_dcqcn_deadlocked_ge_80pct"] = j["results"]["sih"]["dcqcn"]["deadlocked_fraction"].get<double>() >= 0.8;
  if (j["results"].contains("dsh") && j["results"]["dsh"].contains("dcqcn"))
    targets["dsh_dcqcn_deadlocked_le_20pct"] = j["results"]["dsh"]["dcqcn"]["deadlocked_fraction"].get<double>() <= 0.2;
  targets["zero_lossless_drops"] = drops == 0;
  j["targets"] = targets;
  j["speed"] = {{"packets_forwarded", fwd}, {"cpu_s", cpu}, {"packets_per_cpu_s", cpu > 0 ? double(fwd) / cpu : 0}};
  if (reproducible) j["speed"]["cpu_s"] = j["speed"]["packets_per_cpu_s"] = nullptr;
  std::ostringstream txt;
  txt << "S3 deadlock (" << k.text("scenario.name") << "): " << seeds.size() << " seeds, " << duration_ms
      << " ms each at most, a deadlock = a cycle of paused links with no packet moving for " << k.text("deadlock.still_us")
      << " us\n";
  txt << "scheme  cc      runs  deadlocked  onset ms (sorted)\n";
  for (auto& [sch, by_cc] : j["results"].items())
    for (auto& [cc, x] : by_cc.items()) {
      char b[200];
      std::snprintf(b, sizeof b, "%-7s %-7s %4d  %10d  ", sch.c_str(), cc.c_str(), x["runs"].get<int>(),
                    x["deadlocked_runs"].get<int>());
      txt << b;
      for (double o : x["onset_ms"].get<std::vector<double>>()) {
        std::snprintf(b, sizeof b, "%.2f ", o);
        txt << b;
      }
      txt << "\n";
    }
  txt << "targets: " << targets.dump() << "\n";
  write_file_atomically(out_dir + "/deadlock.csv", csv.str());
  write_file_atomically(out_dir + "/summary.json", j.dump(2) + "\n");
  write_file_atomically(out_dir + "/summary.txt", txt.str());
  std::fprintf(stderr, "%s", txt.str().c_str());
  if (plot) {
    try {
      const std::string cmd = "'" + python + "' '" + given_or_resource(plot_script, DSH_PLOT_NET_SCRIPT) +
                              "' --deadlock '" + out_dir + "/summary.json' '" + out_dir + "/deadlock.png'";
      if (std::system(cmd.c_str()) != 0) std::fprintf(stderr, "dsh-sim: plot failed: %s\n", cmd.c_str());
    } catch (const ResourceError& e) {
      std::fprintf(stderr, "dsh-sim: plot failed: %s\n", e.what());
    }
  }
  std::fprintf(stderr, "wrote %s/deadlock.csv, summary.txt, summary.json%s\n", out_dir.c_str(), plot ? ", deadlock.png" : "");
  if (errors || drops) return kExitCheckFailed;
  return kExitOk;
}

}  // namespace dsh::net
