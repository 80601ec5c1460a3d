// SPDX-License-Identifier: Apache-2.0
#include "pfc_storm.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>

#include "child_process.h"
#include "cli_common.h"
#include "net_points.h"
#include "output.h"

namespace dsh::net {

void declare_pfc_storm_keys(KeyStore& k) {
  declare_network_keys(k);
  using P = PfcStormKeys;
  k.bind(uint_key("traffic.class", 0, 6, "0", "lossless class of every flow"), &P::cls);
  k.bind(list_key("traffic.flows", "H0>H48,H1>H49", "endless flows SRC>DST from t = 0; a flow to or from storm.host is a "
                                                    "victim, every other one innocent"),
         &P::flows);
  k.bind(list_key("run.watchdog", "off,on", "the runs without and with the watchdog (watchdog.*)", nullptr, {"off", "on"}),
         &P::watchdog);
  k.bind(real_key("pfc_storm.duration_us", 1, 1e7, false, "1200", "a run's length"), &P::duration_us);
  k.bind(real_key("pfc_storm.bin_us", 1, 1e4, false, "5", "throughput bin (whole microseconds)"), &P::bin_us);
  k.bind(real_key("pfc_storm.before_us", 1, 1e6, false, "100", "the innocent flows' pre-storm throughput: this long "
                                                               "before storm.start_us"),
         &P::before_us);
  k.bind(real_key("pfc_storm.recovered_frac", 0, 1, true, "0.9",
                  "recovered: a bin back at this fraction of the pre-storm throughput, and the mean from it to the storm's stop"),
         &P::recovered_frac);
}

namespace {

struct FlowEnds {
  int src, dst;
};

FlowEnds parse_flow(const Topology& t, const std::string& item) {
  const auto gt = item.find('>');
  if (gt == std::string::npos) throw ConfigError("traffic.flows: " + quoted(item) + " is not SRC>DST");
  const int a = t.host(item.substr(0, gt)), b = t.host(item.substr(gt + 1));
  if (a < 0 || b < 0) throw ConfigError("traffic.flows: " + quoted(item) + " names an unknown host");
  if (a == b) throw ConfigError("traffic.flows: " + quoted(item) + " sends to itself");
  return {a, b};
}

double gbps(uint64_t bytes, double us) { return us > 0 ? double(bytes) * 8.0 / (us * 1000.0) : 0; }

bool any_lossless_paused(const Port& p) {
  for (unsigned c = 0; c < kControlClass; ++c)
    if (p.tx_pause(c)) return true;
  return false;
}

// The innocent and victim flows' throughput per bin (bytes delivered per
// microsecond in `inno` and `vict`), the pre-storm mean and the recovery.
void throughput_and_recovery(PfcStormRun& r, const std::vector<uint64_t>& inno, const std::vector<uint64_t>& vict,
                             const PfcStormKeys& c, const NetSetup& s) {
  const size_t bin = std::max<size_t>(1, size_t(c.bin_us));
  auto bytes_in = [](const std::vector<uint64_t>& v, size_t a, size_t b) {
    uint64_t sum = 0;
    for (size_t i = a; i < b && i < v.size(); ++i) sum += v[i];
    return sum;
  };
  const size_t end_us = size_t(r.sim_us);
  for (size_t x = 0; x + bin <= end_us; x += bin) {
    r.innocent_gbps.push_back(gbps(bytes_in(inno, x, x + bin), double(bin)));
    r.victim_gbps.push_back(gbps(bytes_in(vict, x, x + bin), double(bin)));
  }
  const uint64_t storm_ps = s.fp.storm.start_ps;
  const size_t start_us = size_t(storm_ps / 1000000);
  r.storm_start_us = double(storm_ps) / 1e6;
  r.bound_us = double(s.fp.watchdog.detect_polls) * double(s.fp.watchdog.poll_ps) / 1e6 + double(s.fp.watchdog.poll_ps) / 1e6;
  const size_t before = size_t(c.before_us);
  r.pre_gbps = gbps(bytes_in(inno, start_us - before, start_us), double(before));
  // Bins from the storm's start until it stops (or the run ends):
  // recovered at the start of the first bin, after the first one below
  // recovered_frac of pre_gbps, that is at the fraction again with the
  // mean of every bin from it on (the backlog a storm leaves drains in
  // bursts above and below the mean).
  const size_t stop_us = s.fp.storm.stop_ps == kNoTime ? end_us : std::min(end_us, size_t(s.fp.storm.stop_ps / 1000000));
  const double floor = c.recovered_frac * r.pre_gbps;
  std::vector<double> g;
  for (size_t x = start_us; x + bin <= stop_us; x += bin) g.push_back(gbps(bytes_in(inno, x, x + bin), double(bin)));
  r.min_gbps = g.empty() ? 0 : *std::min_element(g.begin(), g.end());
  size_t i = 0;
  while (i < g.size() && g[i] >= floor) ++i;
  if (i == g.size()) {
    r.recovered_us = 0;  // never below
  } else {
    std::vector<double> tail_sum(g.size() + 1, 0);
    for (size_t b = g.size(); b-- > 0;) tail_sum[b] = tail_sum[b + 1] + g[b];
    for (; i < g.size(); ++i)
      if (g[i] >= floor && tail_sum[i] / double(g.size() - i) >= floor) break;
    r.recovered_us = i == g.size() ? -1 : double(start_us + i * bin) - r.storm_start_us;
  }
}

}  // namespace

void validate_pfc_storm(const KeyStore& k, const NetSetup& s) {
  PfcStormKeys c;
  k.fill(c);
  if (c.flows.empty()) k.refuse("traffic.flows", "empty");
  for (const auto& f : c.flows) {
    try {
      parse_flow(*s.topo, f);
    } catch (const ConfigError& e) {
      k.refuse("traffic.flows", e.what());
    }
  }
  if (c.watchdog.empty()) k.refuse("run.watchdog", "empty");
  if (s.fp.storm.host < 0) k.refuse("storm.host", "empty: the scenario needs a storming host");
  const double start_us = double(s.fp.storm.start_ps) / 1e6;
  if (start_us < c.before_us)
    k.refuse("storm.start_us", "= " + k.text("storm.start_us") + " is below pfc_storm.before_us = " + k.text("pfc_storm.before_us") +
                                   ": the pre-storm window must fit before the storm");
  if (start_us >= c.duration_us)
    k.refuse("storm.start_us", "= " + k.text("storm.start_us") + " is not below pfc_storm.duration_us = " + k.text("pfc_storm.duration_us"));
  if (std::find(c.watchdog.begin(), c.watchdog.end(), "on") != c.watchdog.end() &&
      s.fp.flow_control != FlowControlMode::Frames)
    k.refuse("run.watchdog", "runs the watchdog, which needs link.flow_control = frames" + k.where("link.flow_control"));
  if (s.fp.storm.cls != c.cls)
    k.refuse("storm.class", "= " + k.text("storm.class") + ", the flows' traffic.class is " + k.text("traffic.class") +
                                ": the storm must pause the flows' class");
}

PfcStormRun run_pfc_storm(const KeyStore& k, NetSetup& s, Scheme scheme, const std::string& cc, bool watchdog) {
  PfcStormRun r;
  r.scheme = lower_name(scheme);
  r.watchdog = watchdog;
  configure_run(s, k, scheme, cc);
  s.fp.watchdog.enable = watchdog;
  const Topology& t = *s.topo;
  PfcStormKeys c;
  k.fill(c);
  RunFabric run(s);
  Fabric& fab = run.fab;
  const int storm_host = s.fp.storm.host;
  std::vector<bool> innocent;  // by flow index
  for (const auto& item : c.flows) {
    const FlowEnds e = parse_flow(t, item);
    fab.add_flow(uint32_t(e.src), uint32_t(e.dst), uint8_t(c.cls), 0, 0, 0);
    innocent.push_back(e.src != storm_host && e.dst != storm_host);
  }
  const size_t n_us = size_t(c.duration_us) + 1;
  std::vector<uint64_t> inno(n_us, 0), vict(n_us, 0);
  EventQueue& ev = fab.events();
  fab.on_deliver = [&](int32_t f, uint32_t bytes) {
    const size_t us = size_t(ev.now() / 1000000);
    if (us < n_us) (innocent[size_t(f)] ? inno : vict)[us] += bytes;
  };
  // Every microsecond: the switches and hosts with a lossless class paused,
  // and the ports whose watchdog detected or restored a storm since the
  // last sample.
  const uint64_t storm_ps = s.fp.storm.start_ps;
  std::set<std::string> paused_sw;
  std::vector<std::vector<WatchdogStats>> seen(t.n_nodes());
  for (size_t n = 0; n < t.n_nodes(); ++n) seen[n].resize(t.ports(int(n)).size());
  std::function<void()> sample = [&] {
    unsigned sw = 0, hosts = 0;
    uint64_t storms = 0;
    for (size_t n = 0; n < t.n_nodes(); ++n) {
      bool any = false;
      for (size_t p = 0; p < t.ports(int(n)).size(); ++p) {
        const Port& port = fab.tx(int(n), int(p));
        if (!port.connected()) continue;
        any |= any_lossless_paused(port);
        const WatchdogStats w = port.flow_control().watchdog();
        storms += w.storms;
        const auto event = [&](const char* what) {
          r.watchdog_events.push_back({t.name(int(n)) + ">" + t.name(t.ports(int(n))[p].peer), what, double(ev.now()) / 1e6});
        };
        if (w.storms != seen[n][p].storms) event("storm");
        if (w.restores != seen[n][p].restores) event("restore");
        seen[n][p] = w;
      }
      if (!any) continue;
      if (t.is_switch(int(n))) {
        ++sw;
        if (ev.now() >= storm_ps) paused_sw.insert(t.name(int(n)));
      } else {
        ++hosts;
      }
    }
    r.sw_paused_per_us.push_back(sw);
    r.hosts_paused_per_us.push_back(hosts);
    if (storms && r.detected_us < 0) r.detected_us = (double(ev.now()) - double(storm_ps)) / 1e6;
    ev.after(1000000, sample);
  };
  ev.at(0, sample);
  fab.run(uint64_t(c.duration_us * 1e6));
  r.wall_s = run.wall_s();
  r.cpu_s = run.cpu_s();
  r.sim_us = double(ev.now()) / 1e6;
  r.error = run.end_error();
  r.lossless_drops = fab.lossless_drops();
  for (size_t sw = 0; sw < t.n_switches(); ++sw)
    for (size_t p = 0; p < t.ports(int(sw)).size(); ++p) {
      const Port& port = fab.tx(int(sw), int(p));
      if (!port.connected()) continue;
      const WatchdogStats w = port.flow_control().watchdog();
      r.storms += w.storms;
      r.restores += w.restores;
      r.pauses_ignored += w.pauses_ignored;
      r.wd_dropped += port.discarded;
    }
  r.switches_paused.assign(paused_sw.begin(), paused_sw.end());
  for (unsigned n : r.sw_paused_per_us) r.max_switches_paused = std::max(r.max_switches_paused, n);
  for (unsigned n : r.hosts_paused_per_us) r.max_hosts_paused = std::max(r.max_hosts_paused, n);
  const size_t storm_us = size_t(storm_ps / 1000000);
  for (size_t u = storm_us; u < r.sw_paused_per_us.size(); ++u) {
    const double since = double(u) - double(storm_ps) / 1e6;
    if (r.all_switches_paused_us < 0 && r.sw_paused_per_us[u] == t.n_switches()) r.all_switches_paused_us = since;
    if (r.first_host_paused_us < 0 && r.hosts_paused_per_us[u] > 0) r.first_host_paused_us = since;
  }

  throughput_and_recovery(r, inno, vict, c, s);
  return r;
}

// Every scheme x cc x watchdog as one point of the harness.
int pfc_storm_main(const KeyStore& k, const NetSweepOptions& o) {
  NetSetup s = build_setup(k);
  PfcStormKeys c;
  k.fill(c);
  NetSweep sw;
  const std::string name = k.text("scenario.name");
  for (const auto& sch : s.schemes)
    for (const auto& cc : s.ccs)
      for (const auto& w : c.watchdog) sw.points.push_back({net_point_id(name, sch, cc, nullptr, "", {{"watchdog", w}}), sch, cc, 0, "", {{"watchdog", w}}});
  sw.params = net_point_params(k, {"run.schemes", "run.cc", "run.watchdog", "run.mismatch_dir", "run.kernel"}, {});
  sw.jobs = unsigned(k.u64("run.jobs"));
  const auto watchdog_on = [&sw](size_t i) { return sw.points[i].extra.at(0).second == "on"; };
  sw.run_point = [&](size_t i) {
    const NetPoint& pt = sw.points[i];
    return nlohmann::ordered_json(run_pfc_storm(k, s, scheme_from_string(pt.scheme), pt.cc, watchdog_on(i)));
  };
  sw.failed_point = [&](size_t i, const std::string& why) {
    PfcStormRun r;
    r.scheme = sw.points[i].scheme;
    r.watchdog = watchdog_on(i);
    r.error = why;
    return nlohmann::ordered_json(r);
  };
  sw.report = [&](size_t i, const nlohmann::ordered_json& m) {
    const PfcStormRun r = m.get<PfcStormRun>();
    std::fprintf(stderr,
                 "%s %s watchdog %s: innocent %.1f Gb/s before the storm, min %.1f; recovered %.1f us after its "
                 "start (bound %.1f); paused at most %u switches, %u hosts; storms %llu restores %llu dropped "
                 "%llu pauses ignored %llu%s%s\n",
                 r.scheme.c_str(), sw.points[i].cc.c_str(), r.watchdog ? "on" : "off", r.pre_gbps, r.min_gbps, r.recovered_us,
                 r.bound_us, r.max_switches_paused, r.max_hosts_paused, (unsigned long long)r.storms,
                 (unsigned long long)r.restores, (unsigned long long)r.wd_dropped, (unsigned long long)r.pauses_ignored,
                 r.error.empty() ? "" : "; ERROR ", r.error.c_str());
  };
  sw.point_status = [](const nlohmann::json& m) {
    if (!m.at("error").get<std::string>().empty() || m.at("lossless_drops").get<uint64_t>()) return int(kExitCheckFailed);
    return int(kExitOk);
  };
  sw.write_outputs = [&](const std::vector<nlohmann::json>& ms) {
    std::vector<PfcStormRun> runs;
    for (const auto& m : ms) runs.push_back(m.get<PfcStormRun>());
    return write_pfc_storm_outputs(k, runs, o);
  };
  return run_net_sweep(sw, o);
}

int write_pfc_storm_outputs(const KeyStore& k, const std::vector<PfcStormRun>& runs, const NetSweepOptions& o) {
  const std::string& out_dir = o.out_dir;
  PfcStormKeys c;
  k.fill(c);
  const size_t bin = std::max<size_t>(1, size_t(c.bin_us));
  // storm.csv: per run and bin, the innocent and victim throughput and the
  // most switches and hosts paused in the bin.
  std::ostringstream csv;
  csv << "scheme,watchdog,t_us,innocent_gbps,victim_gbps,switches_paused,hosts_paused\n";
  for (const auto& r : runs)
    for (size_t b = 0; b < r.innocent_gbps.size(); ++b) {
      unsigned sw = 0, h = 0;
      for (size_t u = b * bin; u < (b + 1) * bin && u < r.sw_paused_per_us.size(); ++u) {
        sw = std::max(sw, r.sw_paused_per_us[u]);
        h = std::max(h, r.hosts_paused_per_us[u]);
      }
      char line[200];
      std::snprintf(line, sizeof line, "%s,%s,%zu,%.3f,%.3f,%u,%u\n", r.scheme.c_str(), r.watchdog ? "on" : "off", b * bin,
                    r.innocent_gbps[b], r.victim_gbps[b], sw, h);
      csv << line;
    }
  nlohmann::ordered_json j;
  j["scenario"] = k.text("scenario.name");
  j["kind"] = "pfc-storm";
  j["backend"] = k.text("run.backend");
  bool errors = false, drops = false;
  nlohmann::ordered_json targets;
  for (const auto& r : runs) {
    nlohmann::ordered_json x;
    for (const char* f : {"storm_start_us", "bound_us", "pre_gbps", "min_gbps", "recovered_us", "detected_us",
                          "max_switches_paused", "max_hosts_paused", "all_switches_paused_us", "first_host_paused_us", "switches_paused", "storms", "restores",
                          "pauses_ignored", "wd_dropped", "lossless_drops", "watchdog_events", "sim_us", "wall_s", "cpu_s"})
      x[f] = nlohmann::ordered_json(r)[f];
    if (o.reproducible) x["wall_s"] = x["cpu_s"] = nullptr;
    if (!r.error.empty()) x["error"] = r.error;
    j["results"][r.scheme][r.watchdog ? "watchdog_on" : "watchdog_off"] = x;
    errors |= !r.error.empty();
    drops |= r.lossless_drops != 0;
    if (r.watchdog)
      targets[r.scheme]["recovered_within_detect_plus_poll"] = r.recovered_us >= 0 && r.recovered_us <= r.bound_us;
  }
  targets["zero_lossless_drops"] = !drops;
  j["targets"] = targets;
  std::ostringstream txt;
  txt << "S6 PFC storm (" << k.text("scenario.name") << "), storm host " << k.text("storm.host") << " class "
      << k.text("storm.class") << " from " << k.text("storm.start_us") << " us, backend " << k.text("run.backend") << "\n";
  txt << "innocent flows' throughput, Gb/s; recovered = us from the storm's start to the first bin back at "
      << k.text("pfc_storm.recovered_frac") << " of pre, with the mean from it on (-1 never); bound = detection + one poll\n";
  txt << "all-sw / first-host = us from the storm's start until every switch / a host had a class paused (-1 never)\n";
  txt << "scheme watchdog   pre    min  detected  recovered  bound  max-sw  max-hosts  all-sw  first-host  storms restores  "
         "dropped  ignored  switches paused\n";
  for (const auto& r : runs) {
    char b[300];
    std::snprintf(b, sizeof b, "%-6s %-8s %6.1f %6.1f  %8.1f  %9.1f  %5.1f  %6u  %9u  %6.0f  %10.0f  %6llu %8llu %8llu %8llu  ",
                  r.scheme.c_str(), r.watchdog ? "on" : "off", r.pre_gbps, r.min_gbps, r.detected_us, r.recovered_us, r.bound_us,
                  r.max_switches_paused, r.max_hosts_paused, r.all_switches_paused_us, r.first_host_paused_us,
                  (unsigned long long)r.storms, (unsigned long long)r.restores,
                  (unsigned long long)r.wd_dropped, (unsigned long long)r.pauses_ignored);
    txt << b;
    for (const auto& n : r.switches_paused) txt << n << " ";
    txt << "\n";
  }
  for (const auto& r : runs)
    if (!r.watchdog_events.empty()) {
      txt << r.scheme << " watchdog events, us:";
      for (const auto& e : r.watchdog_events) txt << " " << e.port << " " << e.event << " " << e.at_us << ";";
      txt << "\n";
    }
  txt << "targets: " << targets.dump() << "\n";
  write_file_atomically(out_dir + "/storm.csv", csv.str());
  write_file_atomically(out_dir + "/summary.json", j.dump(2) + "\n");
  write_file_atomically(out_dir + "/summary.txt", txt.str());
  std::fprintf(stderr, "%s", txt.str().c_str());
  const bool png = o.plot && plot_net(o, "--storm '" + out_dir + "/storm.csv' '" + out_dir + "/pfc_storm.png' " + k.text("storm.start_us"));
  std::fprintf(stderr, "wrote %s/storm.csv, summary.txt, summary.json%s\n", out_dir.c_str(), png ? ", pfc_storm.png" : "");
  if (errors || drops) return kExitCheckFailed;
  return kExitOk;
}

}  // namespace dsh::net
