// SPDX-License-Identifier: Apache-2.0
#include "collateral.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "child_process.h"
#include "cli_common.h"
#include "mmu_model.h"
#include "net_points.h"
#include "output.h"

namespace dsh::net {

void declare_collateral_keys(KeyStore& k) {
  declare_network_keys(k);
  using C = CollateralKeys;
  k.bind(uint_key("traffic.class", 0, 6, "0", "lossless class of every data flow (one class, as the paper)"), &C::cls);
  k.bind(list_key("traffic.long_flows", "H0>R0,H1>R1", "long-lived flows SRC>DST; the first is F0 (innocent), the second F1"),
         &C::long_flows);
  k.bind(list_key("traffic.fanin_srcs", "H2..H25", "fan-in senders",
                  [](const std::string& v) { expand_list(v, "traffic.fanin_srcs"); }),
         &C::fanin_srcs);
  k.bind(text_key("traffic.fanin_dst", "R1", "fan-in receiver"), &C::fanin_dst);
  k.bind(uint_key("traffic.fanin_bytes", 1, uint64_t(1) << 40, "65536", "bytes per fan-in flow (64 KB)"), &C::fanin_bytes);
  k.bind(real_key("traffic.trigger_gbps", 0, 1e5, false, "45",
                  "the fan-in starts once F0 and F1 each carried this in every bin of the trigger window"),
         &C::trigger_gbps);
  k.bind(real_key("traffic.trigger_window_us", 0, 1e7, false, "100",
                  "the window the trigger rate must hold in; with DCQCN neither long flow may have had a CNP in it "
                  "(steady sending rate)"),
         &C::trigger_window_us);
  k.bind(real_key("traffic.settle_us", 0, 1e7, false, "100", "earliest fan-in start"), &C::settle_us);
  k.bind(real_key("traffic.fanin_latest_us", 0, 1e7, false, "2000",
                  "the fan-in starts here at the latest (reported as not triggered)"),
         &C::fanin_latest_us);
  k.bind(real_key("traffic.bin_us", 0.1, 1e4, false, "10", "throughput bin"), &C::bin_us);
  k.bind(real_key("traffic.before_us", 1, 1e7, false, "100", "'before the fan-in' = this long before its start"),
         &C::before_us);
  k.bind(real_key("traffic.tail_us", 0, 1e7, false, "100", "simulated after the last fan-in flow completed"), &C::tail_us);
  k.bind(real_key("traffic.max_run_us", 1, 1e7, false, "5000", "a run stops here at the latest"), &C::max_run_us);
}

FlowEnds parse_flow(const Topology& t, const std::string& item, const std::string& what) {
  const auto gt = item.find('>');
  if (gt == std::string::npos) throw ConfigError(what + ": " + quoted(item) + " is not SRC>DST");
  const int a = t.host(item.substr(0, gt)), b = t.host(item.substr(gt + 1));
  if (a < 0 || b < 0) throw ConfigError(what + ": " + quoted(item) + " names an unknown host");
  return {a, b};
}

double gbps(uint64_t bytes, double us) { return us > 0 ? double(bytes) * 8.0 / (us * 1000.0) : 0; }

// Bytes in [a, b) microseconds of a per-microsecond series.
uint64_t sum_us(const std::vector<uint64_t>& v, long a, long b) {
  uint64_t s = 0;
  for (long i = std::max(0L, a); i < b && i < long(v.size()); ++i) s += v[size_t(i)];
  return s;
}

void validate_collateral(const KeyStore& k, const NetSetup& s) {
  const Topology& t = *s.topo;
  CollateralKeys c;
  k.fill(c);
  check_class_queues(k, s, "traffic.class", c.cls);
  const auto& longs = c.long_flows;
  if (longs.size() != 2) k.refuse("traffic.long_flows", "expected 2 flows (F0, F1), got " + std::to_string(longs.size()));
  for (const auto& x : longs) {
    try {
      parse_flow(t, x, "traffic.long_flows");
    } catch (const ConfigError& e) {
      k.refuse("traffic.long_flows", quoted(x) + " is not SRC>DST of two hosts");
    }
  }
  if (t.host(c.fanin_dst) < 0) k.refuse("traffic.fanin_dst", "not a host of net.hosts");
  if (c.fanin_srcs.empty()) k.refuse("traffic.fanin_srcs", "empty");
  for (const auto& h : c.fanin_srcs)
    if (t.host(h) < 0) k.refuse("traffic.fanin_srcs", quoted(h) + " is not a host of net.hosts");
  if (c.fanin_latest_us < c.settle_us)
    k.refuse("traffic.fanin_latest_us", "below traffic.settle_us = " + k.text("traffic.settle_us"));
  if (c.max_run_us <= c.fanin_latest_us)
    k.refuse("traffic.max_run_us", "must be above traffic.fanin_latest_us = " + k.text("traffic.fanin_latest_us"));
}

namespace {

// The run's counts per switch and F0's throughput before and during the
// fan-in ([start_ps, end_ps)).
void collect_results(CollateralRun& r, Fabric& fab, const NetSetup& s, const CollateralKeys& c, uint64_t start_ps,
                     uint64_t end_ps) {
  const Topology& t = *s.topo;
  const double bin_us = c.bin_us;
  r.lossless_drops = fab.lossless_drops();
  r.packets_forwarded = fab.forwarded();
  r.reordered = fab.reordered();
  const bool lanes = std::any_of(s.chips.begin(), s.chips.end(), [](const ChipSpec& c) { return c.mmu.lanes > 1; });
  for (size_t sw = 0; sw < t.n_switches(); ++sw) {
    r.pause_frames.push_back(fab.stats(int(sw)).pause_frames);
    r.ecn_marks.push_back(fab.stats(int(sw)).ecn_marked);
    if (lanes) r.max_enq_per_cycle.push_back(fab.stats(int(sw)).max_enq_slots);
  }
  r.fanin_start_us = double(start_ps) / 1e6;
  r.fanin_end_us = double(end_ps) / 1e6;
  if (r.fanin_done) {
    // Microsecond resolution: the window [start, end) rounded outwards.
    const long a = long(start_ps / 1000000), b = long((end_ps + 999999) / 1000000);
    r.f0_mean_during = gbps(sum_us(r.f0_bytes_per_us, a, b), double(b - a));
    const long bl = std::max(1L, long(bin_us));
    double mn = 1e300;
    for (long x = a; x < b; x += bl) mn = std::min(mn, gbps(sum_us(r.f0_bytes_per_us, x, std::min(b, x + bl)), double(std::min(b, x + bl) - x)));
    r.f0_min_during = mn;
    const long before = long(c.before_us);
    r.f0_mean_before = gbps(sum_us(r.f0_bytes_per_us, std::max(0L, a - before), a), double(a - std::max(0L, a - before)));
  }
}

}  // namespace

CollateralRun run_collateral(const KeyStore& k, NetSetup& s, Scheme scheme, const std::string& cc) {
  CollateralRun r;
  r.scheme = lower_name(scheme);
  r.cc = cc;
  configure_run(s, k, scheme, cc);
  const Topology& t = *s.topo;
  RunFabric run(s);
  Fabric& fab = run.fab;
  CollateralKeys c;
  k.fill(c);
  const uint8_t cls = uint8_t(c.cls);
  const auto& longs = c.long_flows;
  if (longs.size() != 2) throw ConfigError("traffic.long_flows: expected 2 flows (F0, F1), got " + std::to_string(longs.size()));
  std::vector<int32_t> lf;
  for (const auto& x : longs) {
    const FlowEnds e = parse_flow(t, x, "traffic.long_flows");
    lf.push_back(fab.add_flow(uint32_t(e.src), uint32_t(e.dst), cls, 0, 0, 0));
  }
  const int dst = t.host(c.fanin_dst);
  if (dst < 0) throw ConfigError("traffic.fanin_dst: " + dsh::quoted(c.fanin_dst) + " is not a host");
  const uint64_t fanin_bytes = c.fanin_bytes;
  std::vector<int32_t> fan;
  for (const auto& h : c.fanin_srcs) {
    const int src = t.host(h);
    if (src < 0) throw ConfigError("traffic.fanin_srcs: " + quoted(h) + " is not a host");
    fan.push_back(fab.add_flow(uint32_t(src), uint32_t(dst), cls, fanin_bytes, Fabric::kNever, 1));
  }
  if (fan.empty()) throw ConfigError("traffic.fanin_srcs: empty");
  const double bin_us = c.bin_us, trigger = c.trigger_gbps;
  const double settle_us = c.settle_us, latest_us = c.fanin_latest_us;
  const double tail_us = c.tail_us, max_us = c.max_run_us;
  if (latest_us < settle_us) throw ConfigError("traffic.fanin_latest_us: below traffic.settle_us");
  const uint64_t bin_ps = uint64_t(bin_us * 1e6);

  const size_t n_us = size_t(max_us) + 2;
  r.f0_bytes_per_us.assign(n_us, 0);
  r.f1_bytes_per_us.assign(n_us, 0);
  r.fanin_bytes_per_us.assign(n_us, 0);
  EventQueue& ev = fab.events();
  fab.on_deliver = [&](int32_t f, uint32_t bytes) {
    const size_t us = size_t(ev.now() / 1000000);
    if (us >= n_us) return;
    if (f == lf[0]) r.f0_bytes_per_us[us] += bytes;
    else if (f == lf[1]) r.f1_bytes_per_us[us] += bytes;
    else r.fanin_bytes_per_us[us] += bytes;
  };
  size_t fan_done = 0;
  uint64_t start_ps = 0, end_ps = 0;
  fab.on_flow_done = [&](int32_t f) {
    if (fab.flows()[f].group != 1 || ++fan_done < fan.size()) return;
    end_ps = ev.now();
    r.fanin_done = true;
    ev.at(end_ps + uint64_t(tail_us * 1e6), [&] { fab.stop(); });
  };
  // Every bin from settle_us: start the fan-in once both long flows carried
  // the trigger rate over the last bin (delivered bytes at their receivers).
  const uint64_t window_ps = uint64_t(c.trigger_window_us * 1e6);
  std::function<void()> check = [&] {
    const uint64_t now = ev.now();
    bool both = true;
    for (uint64_t e = now; e + window_ps > now && e >= bin_ps && both; e -= bin_ps) {
      const long b = long(e / 1000000), a = long((e - bin_ps) / 1000000);
      both = gbps(sum_us(r.f0_bytes_per_us, a, b), double(b - a)) >= trigger && gbps(sum_us(r.f1_bytes_per_us, a, b), double(b - a)) >= trigger;
    }
    for (int32_t f : lf) {
      const uint64_t got = fab.flows()[f].cnp_rx_ps;
      if (got != kNoTime && got + window_ps > now) both = false;
    }
    if (both || now >= uint64_t(latest_us * 1e6)) {
      r.triggered = both;
      start_ps = now;
      for (int32_t f : fan) fab.start_flow_at(f, now);
      return;
    }
    ev.after(bin_ps, check);
  };
  ev.at(uint64_t(settle_us * 1e6), check);
  fab.run(uint64_t(max_us * 1e6));
  r.wall_s = run.wall_s();
  r.cpu_s = run.cpu_s();
  r.sim_us = double(ev.now()) / 1e6;
  r.error = run.end_error();
  collect_results(r, fab, s, c, start_ps, end_ps);
  return r;
}

namespace {

// The record, with the lane statistic only when a chip has lanes (so a
// one-lane file is as it was).
nlohmann::ordered_json record(const CollateralRun& r) {
  nlohmann::ordered_json j = r;
  if (!r.max_enq_per_cycle.empty()) j["max_enq_per_cycle"] = r.max_enq_per_cycle;
  return j;
}

CollateralRun run_of(const nlohmann::json& j) {
  CollateralRun r = j.get<CollateralRun>();
  if (j.contains("max_enq_per_cycle")) r.max_enq_per_cycle = j.at("max_enq_per_cycle").get<std::vector<unsigned>>();
  return r;
}

}  // namespace

namespace {

void report_collateral(const CollateralRun& r) {
  std::fprintf(stderr,
               "%s %s: F0 %.1f Gb/s before, during the fan-in (%.1f..%.1f us) mean %.1f min %.1f Gb/s; "
               "lossless drops %llu; PAUSE frames S0..: ",
               r.scheme.c_str(), r.cc.c_str(), r.f0_mean_before, r.fanin_start_us, r.fanin_end_us, r.f0_mean_during,
               r.f0_min_during, (unsigned long long)r.lossless_drops);
  for (auto n : r.pause_frames) std::fprintf(stderr, "%llu ", (unsigned long long)n);
  std::fprintf(stderr, "; ECN marks: ");
  for (auto n : r.ecn_marks) std::fprintf(stderr, "%llu ", (unsigned long long)n);
  std::fprintf(stderr, "; %llu packets forwarded in %.2f s wall (%.2f M/s), %.0f us simulated%s%s\n",
               (unsigned long long)r.packets_forwarded, r.wall_s, double(r.packets_forwarded) / r.wall_s / 1e6, r.sim_us,
               r.triggered ? "" : "; the long flows never reached traffic.trigger_gbps",
               r.error.empty() ? "" : ("; ERROR " + r.error).c_str());
}

}  // namespace

int collateral_main(const KeyStore& k, const NetSweepOptions& o) {
  NetSetup s = build_setup(k);
  NetSweep sw;
  const std::string name = k.text("scenario.name");
  for (const auto& sch : s.schemes)
    for (const auto& cc : s.ccs) sw.points.push_back({net_point_id(name, sch, cc, nullptr), sch, cc, 0, "", {}});
  sw.params = net_point_params(k, {"run.schemes", "run.cc", "run.mismatch_dir", "run.kernel"}, {});
  sw.jobs = unsigned(k.u64("run.jobs"));
  sw.run_point = [&](size_t i) {
    const NetPoint& pt = sw.points[i];
    return record(run_collateral(k, s, scheme_from_string(pt.scheme), pt.cc));
  };
  sw.failed_point = [&](size_t i, const std::string& why) {
    CollateralRun r;
    r.scheme = sw.points[i].scheme;
    r.cc = sw.points[i].cc;
    r.error = why;
    return record(r);
  };
  sw.report = [](size_t, const nlohmann::ordered_json& m) { report_collateral(run_of(m)); };
  sw.point_status = [](const nlohmann::json& m) {
    if (!m.at("error").get<std::string>().empty() || m.at("lossless_drops").get<uint64_t>()) return int(kExitCheckFailed);
    return m.at("fanin_done").get<bool>() ? int(kExitOk) : int(kExitInvalidExperiment);
  };
  sw.write_outputs = [&](const std::vector<nlohmann::json>& ms) {
    std::vector<CollateralRun> runs;
    for (const auto& m : ms) runs.push_back(run_of(m));
    return write_collateral_outputs(k, s, runs, o);
  };
  return run_net_sweep(sw, o);
}

}  // namespace dsh::net
