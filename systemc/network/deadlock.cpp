// SPDX-License-Identifier: Apache-2.0
#include "deadlock.h"

#include <nlohmann/json.hpp>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <functional>
#include <sstream>

#include "child_process.h"
#include "cli_common.h"
#include "deadlock_detector.h"
#include "net_points.h"
#include "output.h"
#include "stats.h"
#include "workload.h"

namespace dsh::net {

void declare_deadlock_keys(KeyStore& k) {
  declare_network_keys(k);
  using D = DeadlockKeys;
  k.bind(uint_key("traffic.class", 0, 6, "0", "lossless class of every flow"), &D::cls);
  k.bind(list_key("traffic.pairs", "L0>L3,L3>L0,L1>L2,L2>L1", "fan-in leaf pairs SRC_LEAF>DST_LEAF"), &D::pairs);
  k.bind(uint_key("traffic.fanin_min", 1, 1000, "1", "senders per burst, at least"), &D::fanin_min);
  k.bind(uint_key("traffic.fanin_max", 1, 1000, "15", "senders per burst, at most (uniform)"), &D::fanin_max);
  k.declare(text_key("traffic.cdf", "../data/hadoop.cdf", "flow-size CDF file (relative to the scenario file)"));
  k.bind(choice_key("traffic.load_unit", {"receiver", "leaf"}, "receiver",
                    "what traffic.load is a fraction of: receiver = the downlink of the one host each leaf pair "
                    "sends to (drawn per pair and seed; every burst goes to it); leaf = the destination leaf's "
                    "downlinks together (each burst to a host of the leaf drawn per burst)"),
         &D::per_receiver, [](const std::string& v) { return v == "receiver"; });
  k.declare(list_key("traffic.load", "0.5",
                     "offered load of each leaf pair, a fraction of traffic.load_unit's capacity, each in (0, 1]; "
                     "a list runs each (a point coordinate)",
                     [](const std::string& v) {
                       const auto items = sc::list_items(v);
                       if (items.empty()) throw ConfigError("traffic.load = " + quoted(v) + ": empty");
                       for (const auto& x : items) parse_real("traffic.load", x, 0, 1, true);
                     }));
  k.bind(bool_key("traffic.whole_packets", "true",
                  "round every flow up to whole packets: the headroom (spec §1.3) counts cells of full packets"),
         &D::whole_packets);
  const auto seeds = [](const std::string& key) {
    return [key](const std::string& v) {
      for (const auto& x : expand_list(v, key)) parse_uint(key, x, 0, ~uint64_t(0) >> 11);
      if (expand_list(v, key).empty()) throw ConfigError(key + " = " + quoted(v) + ": empty");
    };
  };
  k.declare(list_key("deadlock.seeds", "1..8", "seeds of the default run (one run per scheme, cc, load and seed)",
                     seeds("deadlock.seeds")));
  k.bind(real_key("deadlock.duration_ms", 0, 1e6, true, "100", "simulated time of a default run (the paper: 100 ms)"),
         &D::duration_ms);
  k.declare(list_key("deadlock.full_seeds", "1..100", "seeds with --full (the paper: 100 runs)",
                     seeds("deadlock.full_seeds")));
  k.bind(real_key("deadlock.full_duration_ms", 0, 1e6, true, "100", "duration with --full (the paper: 100 ms)"),
         &D::full_duration_ms);
  k.bind(real_key("deadlock.still_us", 1, 1e7, false, "1000",
                  "a cycle of paused links counts as deadlocked once none moved for this"),
         &D::still_us);
  k.bind(real_key("deadlock.check_us", 1, 1e7, false, "50", "detector period"), &D::check_us);
}

namespace {

std::vector<int> hosts_of(const Topology& t, int leaf) {
  std::vector<int> v;
  for (size_t h = 0; h < t.n_hosts(); ++h)
    if (t.host_switch(int(h)) == leaf) v.push_back(int(h));
  return v;
}

std::string load_text(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.10g", x);
  return b;
}

// "SRC>DST" of two switches, or (-1, -1).
std::pair<int, int> leaf_pair(const Topology& t, const std::string& pair) {
  const auto gt = pair.find('>');
  const int a = gt == std::string::npos ? -1 : t.node(pair.substr(0, gt));
  const int b = gt == std::string::npos ? -1 : t.node(pair.substr(gt + 1));
  if (a < 0 || b < 0 || !t.is_switch(a) || !t.is_switch(b)) return {-1, -1};
  return {a, b};
}

}  // namespace

std::vector<std::string> deadlock_loads(const KeyStore& k) {
  std::vector<std::string> out;
  for (const auto& x : sc::list_items(k.text("traffic.load"))) {
    const std::string t = load_text(parse_real("traffic.load", x, 0, 1, true));
    if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  }
  return out;
}

void validate_deadlock(const KeyStore& k, const NetSetup& s) {
  const Topology& t = *s.topo;
  try {
    SizeCdf::load(k.path("traffic.cdf"));
  } catch (const InputError& e) {
    k.refuse("traffic.cdf", e.what());
  }
  DeadlockKeys d;
  k.fill(d);
  check_class_queues(k, s, "traffic.class", d.cls);
  const uint64_t nmin = d.fanin_min, nmax = d.fanin_max;
  if (nmax < nmin) k.refuse("traffic.fanin_max", "below traffic.fanin_min = " + k.text("traffic.fanin_min"));
  const auto& pairs = d.pairs;
  if (pairs.empty()) k.refuse("traffic.pairs", "empty");
  for (const auto& pair : pairs) {
    const auto [a, b] = leaf_pair(t, pair);
    if (a < 0) k.refuse("traffic.pairs", quoted(pair) + " is not SRC_LEAF>DST_LEAF of two switches");
    if (hosts_of(t, a).size() < nmax)
      k.refuse("traffic.fanin_max", "leaf " + t.name(a) + " has only " + std::to_string(hosts_of(t, a).size()) + " hosts");
    if (hosts_of(t, b).empty()) k.refuse("traffic.pairs", "leaf " + t.name(b) + " has no hosts");
  }
}

OfferedLoad offered_load(const KeyStore& k, const Topology& t, double load) {
  DeadlockKeys d;
  k.fill(d);
  const bool per_receiver = d.per_receiver;
  // Expected Gb/s per link direction [node][port]: each pair's rate split
  // evenly over the ECMP candidates at every switch (a fair hash over many
  // flows). Every host of a leaf is reached through the same switches, so
  // one receiver stands for the pair's in receiver mode; in leaf mode each
  // host of the destination leaf takes its share.
  std::vector<std::vector<double>> gbps(t.n_nodes());
  for (size_t n = 0; n < t.n_nodes(); ++n) gbps[n].assign(t.ports(int(n)).size(), 0);
  for (const auto& pair : d.pairs) {
    const auto [a, b] = leaf_pair(t, pair);
    const auto dst = hosts_of(t, b);
    if (a < 0 || dst.empty()) continue;
    double cap = 0;
    for (int h : dst) cap += t.ports(t.host_node(h))[0].gbps;
    cap = per_receiver ? cap / double(dst.size()) : cap;  // receiver: a downlink (all alike here)
    const double rate = load * cap;
    const std::vector<int> rx = per_receiver ? std::vector<int>{dst[0]} : dst;
    for (int h : rx) {
      std::function<void(int, double)> go = [&](int n, double m) {
        if (!t.is_switch(n)) return;
        const auto& c = t.next_ports(n, h);
        for (int p : c) {
          gbps[size_t(n)][size_t(p)] += m / double(c.size());
          go(t.ports(n)[size_t(p)].peer, m / double(c.size()));
        }
      };
      go(a, rate / double(rx.size()));
    }
  }
  OfferedLoad o;
  for (size_t n = 0; n < t.n_switches(); ++n)
    for (size_t p = 0; p < gbps[n].size(); ++p) {
      if (t.ports(int(n))[p].peer < 0 || !t.is_switch(t.ports(int(n))[p].peer)) continue;  // downlinks: at `load`
      const double u = gbps[n][p] / t.ports(int(n))[p].gbps;
      if (u > o.utilisation + 1e-12) {
        o.utilisation = u;
        o.gbps = gbps[n][p];
        o.link = t.name(int(n)) + ">" + t.name(t.ports(int(n))[p].peer);
      }
    }
  return o;
}

namespace {

// The run's end: its error (RunFabric::end_error), drops, packets, finished
// flows and PAUSE frames.
void collect_results(DeadlockRun& r, RunFabric& run) {
  Fabric& fab = run.fab;
  const Topology& t = fab.topo();
  r.sim_ms = double(fab.events().now()) / 1e9;
  r.error = run.end_error();
  r.lossless_drops = fab.lossless_drops();
  r.packets_forwarded = fab.forwarded();
  for (const auto& f : fab.flows()) r.flows_done += f.done;
  for (size_t sw = 0; sw < t.n_switches(); ++sw) r.pause_frames += fab.stats(int(sw)).pause_frames;
}

}  // namespace

DeadlockRun run_deadlock(const KeyStore& k, NetSetup& s, Scheme scheme, const std::string& cc, uint64_t seed,
                         double duration_ms, double load) {
  DeadlockRun r;
  r.scheme = lower_name(scheme);
  r.cc = cc;
  r.seed = seed;
  r.load = load_text(load);
  configure_run(s, k, scheme, cc);
  s.fp.seed = seed;
  const Topology& t = *s.topo;
  RunFabric run(s);
  Fabric& fab = run.fab;
  const SizeCdf cdf = SizeCdf::load(k.path("traffic.cdf"));
  DeadlockKeys d;
  k.fill(d);
  const uint8_t cls = uint8_t(d.cls);
  const uint64_t nmin = d.fanin_min, nmax = d.fanin_max;
  const bool per_receiver = d.per_receiver;
  const uint64_t end_ps = uint64_t(duration_ms * 1e9);
  // A port is lossless for the packet size its headroom was computed for
  // (spec §1.3: 1500 B packets of 6 cells); a shorter last packet wastes
  // more of its cells, so flows are rounded up to whole packets. The load
  // uses the mean of the rounded sizes (sampled once per run).
  const bool whole = d.whole_packets;
  const uint64_t pkt = s.fp.packet_bytes;
  auto size_of = [&](uint64_t b) { return whole ? whole_packets(b, pkt) : b; };
  const double mean_size = whole ? mean_whole_packets(cdf, pkt, seed) : cdf.mean_bytes();
  struct Spec {
    uint64_t at;
    uint32_t src, dst;
    uint64_t bytes;
  };
  std::vector<Spec> specs;
  uint64_t pair_index = 0;
  for (const auto& pair : d.pairs) {
    // One generator per pair: a run's first milliseconds are the same
    // whatever its duration (a short lockstep window repeats a long run's
    // start), and a seed's bursts are the same at every load but for their
    // spacing.
    std::mt19937_64 rng(mix64(seed * 0x9e3779b97f4a7c15ULL + ++pair_index));
    const auto [a, b] = leaf_pair(t, pair);
    if (a < 0) throw ConfigError("traffic.pairs: " + quoted(pair) + " is not SRC_LEAF>DST_LEAF of two switches");
    const auto src = hosts_of(t, a), dst = hosts_of(t, b);
    if (src.size() < nmax) throw ConfigError("traffic.fanin_max = " + std::to_string(nmax) + ": leaf " + t.name(a) +
                                             " has only " + std::to_string(src.size()) + " hosts");
    if (dst.empty()) throw ConfigError("traffic.pairs: leaf " + t.name(b) + " has no hosts");
    // receiver: one host of the destination leaf takes every burst of the
    // pair, at `load` of its downlink; leaf: each burst goes to a host drawn
    // for it, at `load` of the leaf's downlinks together.
    const int receiver = per_receiver ? dst[std::uniform_int_distribution<size_t>(0, dst.size() - 1)(rng)] : -1;
    double cap_gbps = 0;
    if (per_receiver) cap_gbps = t.ports(t.host_node(receiver))[0].gbps;
    else
      for (int h : dst) cap_gbps += t.ports(t.host_node(h))[0].gbps;
    const double burst_bytes = mean_size * double(nmin + nmax) / 2;
    for (uint64_t at = poisson_gap_ps(rng, burst_bytes, cap_gbps, load); at < end_ps;
         at += poisson_gap_ps(rng, burst_bytes, cap_gbps, load)) {
      const size_t n = size_t(std::uniform_int_distribution<uint64_t>(nmin, nmax)(rng));
      const int rx = per_receiver ? receiver : dst[std::uniform_int_distribution<size_t>(0, dst.size() - 1)(rng)];
      for (int tx : pick_distinct(rng, src, n)) specs.push_back({at, uint32_t(tx), uint32_t(rx), size_of(cdf.sample(rng))});
    }
  }
  // Flows numbered by start time: a flow's number (its ECMP port pair) is
  // then the same in a run of any duration.
  std::stable_sort(specs.begin(), specs.end(), [](const Spec& a, const Spec& b) { return a.at < b.at; });
  for (const Spec& f : specs) fab.add_flow(f.src, f.dst, cls, f.bytes, f.at, 1);
  r.flows = fab.flows().size();
  const uint64_t still_ps = uint64_t(d.still_us * 1e6);
  const uint64_t check_ps = uint64_t(d.check_us * 1e6);
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
  r.wall_s = run.wall_s();
  r.cpu_s = run.cpu_s();
  collect_results(r, run);
  return r;
}

namespace {

DeadlockRun failed_run(const NetPoint& p, const std::string& why) {
  DeadlockRun r;
  r.scheme = p.scheme;
  r.cc = p.cc;
  r.load = p.load;
  r.seed = p.seed;
  r.error = why;
  return r;
}

void report_deadlock(const DeadlockRun& r) {
  std::fprintf(stderr, "%s %s load %s seed %llu: %s%s; %llu flows (%llu done), %llu PAUSE frames, %llu lossless "
                       "drops, %.2f ms simulated in %.1f s (CPU %.1f s, %.2f M packets/CPU s)%s%s\n",
               r.scheme.c_str(), r.cc.c_str(), r.load.c_str(), (unsigned long long)r.seed,
               r.deadlocked ? "DEADLOCK" : "no deadlock",
               r.deadlocked ? (" formed at " + std::to_string(r.onset_ms) + " ms (" + r.cycle + ")").c_str() : "",
               (unsigned long long)r.flows, (unsigned long long)r.flows_done, (unsigned long long)r.pause_frames,
               (unsigned long long)r.lossless_drops, r.sim_ms, r.wall_s, r.cpu_s,
               r.cpu_s > 0 ? double(r.packets_forwarded) / r.cpu_s / 1e6 : 0, r.error.empty() ? "" : "; ERROR ",
               r.error.c_str());
}
}  // namespace

int deadlock_main(const KeyStore& k, const NetSweepOptions& o) {
  NetSetup s = build_setup(k);
  const std::string seeds_key = o.full ? "deadlock.full_seeds" : "deadlock.seeds";
  std::vector<uint64_t> seeds;
  for (const auto& x : k.list(seeds_key)) {  // a seed given twice is one point
    const uint64_t seed = parse_uint(seeds_key, x, 0, ~uint64_t(0) >> 1);
    if (std::find(seeds.begin(), seeds.end(), seed) == seeds.end()) seeds.push_back(seed);
  }
  if (seeds.empty()) throw ConfigError(seeds_key + ": empty");
  const auto loads = deadlock_loads(k);
  DeadlockKeys d;
  k.fill(d);
  const double duration_ms = o.full ? d.full_duration_ms : d.duration_ms;
  refuse_beside_full(k, o, "deadlock.duration_ms", "deadlock.full_duration_ms");
  refuse_beside_full(k, o, "deadlock.seeds", "deadlock.full_seeds");
  // A point is one run; its result depends on the duration, not on which
  // key gave it nor on the other seeds and loads.
  NetSweep sw;
  const std::string name = k.text("scenario.name");
  for (const auto& sch : s.schemes)
    for (const auto& cc : s.ccs)
      for (const auto& load : loads)
        for (uint64_t seed : seeds) sw.points.push_back({net_point_id(name, sch, cc, &seed, load), sch, cc, seed, load, {}});
  char dur[40];
  std::snprintf(dur, sizeof dur, "%.10g", duration_ms);
  sw.params = net_point_params(k,
                               {"run.jobs", "run.kernel", "run.schemes", "run.cc", "run.mismatch_dir", "traffic.load",
                                "deadlock.seeds", "deadlock.full_seeds", "deadlock.full_duration_ms"},
                               {{"deadlock.duration_ms", dur}});
  sw.jobs = unsigned(k.u64("run.jobs"));
  sw.starting = [&](const std::vector<size_t>& todo) {
    std::fprintf(stderr,
                 "dsh-sim: %s: %zu of %zu runs (%zu seeds x %zu loads x schemes x cc), %.1f ms each at most, %u at a "
                 "time\n",
                 name.c_str(), todo.size(), sw.points.size(), seeds.size(), loads.size(), duration_ms, sw.jobs);
  };
  sw.run_point = [&](size_t i) {
    const NetPoint& p = sw.points[i];
    NetSetup x = build_setup(k);
    return nlohmann::ordered_json(
        run_deadlock(k, x, scheme_from_string(p.scheme), p.cc, p.seed, duration_ms, std::stod(p.load)));
  };
  sw.failed_point = [&](size_t i, const std::string& why) { return nlohmann::ordered_json(failed_run(sw.points[i], why)); };
  sw.report = [](size_t, const nlohmann::ordered_json& m) { report_deadlock(m.get<DeadlockRun>()); };
  sw.point_status = [](const nlohmann::json& m) {
    return m.at("lossless_drops").get<uint64_t>() || !m.at("error").get<std::string>().empty() ? kExitCheckFailed : kExitOk;
  };
  sw.write_outputs = [&](const std::vector<nlohmann::json>& ms) {
    std::vector<DeadlockRun> runs;
    for (const auto& m : ms) runs.push_back(m.get<DeadlockRun>());
    return write_deadlock_outputs(k, *s.topo, runs, seeds, duration_ms, o);
  };
  return run_net_sweep(sw, o);
}

}  // namespace dsh::net
