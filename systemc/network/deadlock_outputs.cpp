// SPDX-License-Identifier: Apache-2.0
// S3's outputs from its runs: deadlock.csv, summary.json, summary.txt and
// deadlock.png (deadlock.h).
#include <algorithm>
#include <cstdio>
#include <sstream>
#include <tuple>

#include "deadlock.h"
#include "exit_status.h"
#include "net_points.h"
#include "output.h"
#include "stats.h"

namespace dsh::net {

namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// summary.json's description of the runs, before their results.
nlohmann::json runs_json(const KeyStore& k, const Topology& topo, const std::vector<uint64_t>& seeds, double duration_ms,
                         const std::vector<std::string>& loads) {
  const std::string unit = k.text("traffic.load_unit");
  nlohmann::json j;
  j["scenario"] = k.text("scenario.name");
  j["kind"] = "deadlock";
  j["backend"] = k.text("run.backend");
  j["rtl_switches"] = k.list("net.rtl_switches");
  j["routes"] = k.list("net.routes").empty() ? "ecmp" : "pinned";
  j["duration_ms"] = duration_ms;
  j["seeds"] = seeds;
  DeadlockKeys d;
  k.fill(d);
  j["still_us"] = d.still_us;
  j["load_unit"] = unit;
  j["loads"] = loads;
  // The paper's Fig. 12: fraction of 100 runs of 100 ms that deadlocked.
  j["paper"] = {{"sih", {{"dcqcn", 1.0}, {"powertcp", 1.0}}}, {"dsh", {{"dcqcn", 0.04}, {"powertcp", 0.0}}}};
  for (const auto& l : loads) {
    const OfferedLoad ol = offered_load(k, topo, std::stod(l));
    j["offered"][l] = {{"busiest_link", ol.link}, {"gbps", ol.gbps}, {"utilisation", ol.utilisation}};
  }
  return j;
}

// deadlock.csv's rows and each (scheme, cc, load)'s counts in j["results"];
// whether a run failed, and the runs' drops, packets and CPU seconds.
struct RunTotals {
  bool errors = false;
  uint64_t drops = 0, fwd = 0;
  double cpu = 0;
};

RunTotals add_runs(const std::vector<DeadlockRun>& runs, bool reproducible, std::ostringstream& csv, nlohmann::json& j) {
  RunTotals tot;
  bool& errors = tot.errors;
  uint64_t& drops = tot.drops;
  uint64_t& fwd = tot.fwd;
  double& cpu = tot.cpu;
  for (const auto& r : runs) {
    char b[400], times[64] = ",";  // --reproducible: no CPU or wall seconds
    if (!reproducible) std::snprintf(times, sizeof times, "%.2f,%.2f", r.cpu_s, r.wall_s);
    std::snprintf(b, sizeof b, "%s,%s,%s,%llu,%d,%.4f,%.4f,%.4f,%llu,%llu,%llu,%llu,%llu,%s,", r.scheme.c_str(),
                  r.cc.c_str(), r.load.c_str(), (unsigned long long)r.seed, int(r.deadlocked), r.onset_ms, r.detected_ms,
                  r.sim_ms, (unsigned long long)r.lossless_drops, (unsigned long long)r.pause_frames,
                  (unsigned long long)r.flows, (unsigned long long)r.flows_done, (unsigned long long)r.packets_forwarded, times);
    std::string err = r.error;
    std::replace(err.begin(), err.end(), ',', ';');
    std::replace(err.begin(), err.end(), '\n', ' ');
    csv << b << r.cycle << "," << err << "\n";
    auto& x = j["results"][r.scheme][r.cc][r.load];
    if (x.is_null())
      x = {{"runs", 0}, {"deadlocked_runs", 0}, {"onset_ms", nlohmann::json::array()}, {"lossless_drops", 0}};
    x["runs"] = x["runs"].get<int>() + 1;
    if (r.deadlocked) {
      x["deadlocked_runs"] = x["deadlocked_runs"].get<int>() + 1;
      x["onset_ms"].push_back(r.onset_ms);
    }
    x["lossless_drops"] = x["lossless_drops"].get<uint64_t>() + r.lossless_drops;
    if (!r.error.empty()) x["errors"].push_back("seed " + std::to_string(r.seed) + ": " + r.error);
    errors |= !r.error.empty();
    drops += r.lossless_drops;
    fwd += r.packets_forwarded;
    cpu += r.cpu_s;
  }
  return tot;
}

// Each result's fraction, Wilson interval and median onset; the targets.
nlohmann::json add_fractions(nlohmann::json& j, uint64_t drops) {
  nlohmann::json targets;
  for (auto& [sch, by_cc] : j["results"].items())
    for (auto& [cc, by_load] : by_cc.items())
      for (auto& [load, x] : by_load.items()) {
        auto v = x["onset_ms"].get<std::vector<double>>();
        std::sort(v.begin(), v.end());
        x["onset_ms"] = v;
        const uint64_t n = x["runs"].get<uint64_t>(), d = x["deadlocked_runs"].get<uint64_t>();
        const Interval ci = wilson_interval(d, n);
        x["deadlocked_fraction"] = double(d) / double(n);
        x["ci95"] = {ci.lo, ci.hi};
        x["median_onset_ms"] = v.empty() ? nlohmann::json(nullptr) : nlohmann::json(median(v));
        // Does the 95 % interval hold the paper's fraction (DCQCN: SIH 100 %, DSH 4 %)?
        if (cc == "dcqcn") {
          const double paper = sch == "sih" ? 1.0 : 0.04;
          targets["load=" + load][sch + "_dcqcn_ci_holds_paper_" + (sch == "sih" ? "100pct" : "4pct")] =
              paper >= ci.lo - 1e-12 && paper <= ci.hi + 1e-12;
        }
      }
  targets["zero_lossless_drops"] = drops == 0;
  return targets;
}

// summary.txt.
std::string summary_text(const KeyStore& k, nlohmann::json& j, const std::vector<uint64_t>& seeds,
                         double duration_ms, const std::vector<std::string>& loads, const nlohmann::json& targets) {
  const std::string unit = k.text("traffic.load_unit");
  std::ostringstream txt;
  txt << "S3 deadlock (" << k.text("scenario.name") << "): " << seeds.size() << " seeds, " << duration_ms
      << " ms each at most, routes " << j["routes"].get<std::string>() << "; load = a fraction of "
      << (unit == "receiver" ? "one receiver's downlink per leaf pair" : "the destination leaf's downlinks together")
      << "; a deadlock = a cycle of paused links with no packet moving for " << k.text("deadlock.still_us") << " us\n";
  for (const auto& l : loads) {
    const auto& of = j["offered"][l];
    char b[200];
    std::snprintf(b, sizeof b, "load %s: busiest switch-to-switch link %s offered %.0f Gb/s, %.2f of its rate%s\n", l.c_str(),
                  of["busiest_link"].get<std::string>().c_str(), of["gbps"].get<double>(),
                  of["utilisation"].get<double>(), of["utilisation"].get<double>() > 1 ? " (OVERLOADED)" : "");
    txt << b;
  }
  txt << "scheme  cc      load    runs  deadlocked  fraction  95 % CI (Wilson)  onset ms: median (min..max)\n";
  for (auto& [sch, by_cc] : j["results"].items())
    for (auto& [cc, by_load] : by_cc.items())
      for (const auto& l : loads) {
        if (!by_load.contains(l)) continue;
        const auto& x = by_load[l];
        const auto v = x["onset_ms"].get<std::vector<double>>();
        char b[300];
        std::snprintf(b, sizeof b, "%-7s %-7s %-7s %4d  %10d  %7.1f %%  [%5.1f, %5.1f] %%  ", sch.c_str(), cc.c_str(),
                      l.c_str(), x["runs"].get<int>(), x["deadlocked_runs"].get<int>(),
                      100 * x["deadlocked_fraction"].get<double>(), 100 * x["ci95"][0].get<double>(),
                      100 * x["ci95"][1].get<double>());
        txt << b;
        if (v.empty()) txt << "-";
        else {
          std::snprintf(b, sizeof b, "%.2f (%.2f..%.2f)", median(v), v.front(), v.back());
          txt << b;
        }
        txt << "\n";
      }
  txt << "paper (Fig. 12, 100 runs x 100 ms): SIH 100 % with DCQCN and PowerTCP; DSH 4 % with DCQCN, 0 % with "
         "PowerTCP\n";
  txt << "targets: " << targets.dump() << "\n";
  return txt.str();
}

}  // namespace

int write_deadlock_outputs(const KeyStore& k, const Topology& topo, std::vector<DeadlockRun> runs,
                           const std::vector<uint64_t>& seeds, double duration_ms, const NetSweepOptions& o) {
  const std::string& out_dir = o.out_dir;
  std::sort(runs.begin(), runs.end(), [](const DeadlockRun& a, const DeadlockRun& b) {
    const double la = std::stod(a.load), lb = std::stod(b.load);
    return std::tie(a.scheme, a.cc, la, a.seed) < std::tie(b.scheme, b.cc, lb, b.seed);
  });
  const auto loads = deadlock_loads(k);
  std::ostringstream csv;
  csv << "scheme,cc,load,seed,deadlocked,onset_ms,detected_ms,sim_ms,lossless_drops,pause_frames,flows,flows_done,"
         "packets_forwarded,cpu_s,wall_s,cycle,error\n";
  nlohmann::json j = runs_json(k, topo, seeds, duration_ms, loads);
  const RunTotals tot = add_runs(runs, o.reproducible, csv, j);
  const uint64_t drops = tot.drops, fwd = tot.fwd;
  const double cpu = tot.cpu;
  const nlohmann::json targets = add_fractions(j, drops);
  j["targets"] = targets;
  j["speed"] = {{"packets_forwarded", fwd}, {"cpu_s", cpu}, {"packets_per_cpu_s", cpu > 0 ? double(fwd) / cpu : 0}};
  if (o.reproducible) j["speed"]["cpu_s"] = j["speed"]["packets_per_cpu_s"] = nullptr;
  const std::string txt = summary_text(k, j, seeds, duration_ms, loads, targets);
  write_file_atomically(out_dir + "/deadlock.csv", csv.str());
  write_file_atomically(out_dir + "/summary.json", j.dump(2) + "\n");
  write_file_atomically(out_dir + "/summary.txt", txt);
  std::fprintf(stderr, "%s", txt.c_str());
  const bool png = o.plot && plot_net(o, "--deadlock '" + out_dir + "/summary.json' '" + out_dir + "/deadlock.png'");
  std::fprintf(stderr, "wrote %s/deadlock.csv, summary.txt, summary.json%s\n", out_dir.c_str(), png ? ", deadlock.png" : "");
  if (tot.errors || drops) return kExitCheckFailed;
  return kExitOk;
}

}  // namespace dsh::net
