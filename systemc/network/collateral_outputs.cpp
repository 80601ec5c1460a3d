// SPDX-License-Identifier: Apache-2.0
// S2's outputs from its runs: throughput.csv, summary.json, summary.txt
// and collateral.png (collateral.h).
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "collateral.h"
#include "exit_status.h"
#include "mmu_model.h"
#include "net_points.h"
#include "output.h"

namespace dsh::net {

namespace {

// throughput.csv: per run, 10 us bins from before_us ahead of the fan-in to the end.
std::string throughput_csv(const CollateralKeys& c, const std::vector<CollateralRun>& runs) {
  const double bin_us = c.bin_us;
  std::ostringstream csv;
  csv << "scheme,cc,t_us,f0_gbps,f1_gbps,fanin_gbps\n";
  for (const auto& r : runs) {
    const long bl = std::max(1L, long(bin_us));
    const long a0 = long(r.fanin_start_us) - long(c.before_us);
    const long end = long(r.sim_us);
    for (long x = std::max(0L, a0 - (a0 % bl + bl) % bl); x + bl <= end; x += bl) {
      char b[200];
      std::snprintf(b, sizeof b, "%s,%s,%.1f,%.3f,%.3f,%.3f\n", r.scheme.c_str(), r.cc.c_str(), double(x) - r.fanin_start_us,
                    gbps(sum_us(r.f0_bytes_per_us, x, x + bl), double(bl)), gbps(sum_us(r.f1_bytes_per_us, x, x + bl), double(bl)),
                    gbps(sum_us(r.fanin_bytes_per_us, x, x + bl), double(bl)));
      csv << b;
    }
  }
  return csv.str();
}

// summary.json: each run's figures, the speed and the targets; `totals`
// gets the packets forwarded, drops, wall and CPU seconds.
struct RunTotals {
  uint64_t fwd = 0, drops = 0;
  double wall = 0, cpu = 0;
  bool errors = false, all_done = true;
};

nlohmann::json summary_json(const KeyStore& k, const NetSetup& s, const std::vector<CollateralRun>& runs,
                            bool reproducible, RunTotals& tot) {
  nlohmann::json j;
  j["scenario"] = k.text("scenario.name");
  j["kind"] = "collateral-damage";
  j["backend"] = k.text("run.backend");
  j["rtl_switches"] = k.list("net.rtl_switches");
  for (const auto& r : runs) {
    nlohmann::json x;
    x["f0_mean_gbps_during_fanin"] = r.f0_mean_during;
    x["f0_min_gbps_during_fanin"] = r.f0_min_during;
    x["f0_mean_gbps_before_fanin"] = r.f0_mean_before;
    x["lossless_drops"] = r.lossless_drops;
    x["fanin_start_us"] = r.fanin_start_us;
    x["fanin_end_us"] = r.fanin_end_us;
    x["fanin_completed"] = r.fanin_done;
    x["triggered_at_trigger_gbps"] = r.triggered;
    x["pause_frames_per_switch"] = r.pause_frames;
    x["packets_forwarded"] = r.packets_forwarded;
    x["reordered_packets"] = r.reordered;
    x["sim_us"] = r.sim_us;
    x["wall_s"] = r.wall_s;
    x["cpu_s"] = r.cpu_s;
    if (reproducible) x["wall_s"] = x["cpu_s"] = nullptr;
    if (!r.error.empty()) x["error"] = r.error;
    x["lockstep_mismatch"] = dsh::is_lockstep_report(r.error);
    j["results"][r.scheme][r.cc] = x;
    tot.fwd += r.packets_forwarded;
    tot.drops += r.lossless_drops;
    tot.wall += r.wall_s;
    tot.cpu += r.cpu_s;
    tot.errors |= !r.error.empty();
    tot.all_done &= r.fanin_done;
  }
  j["speed"] = {{"packets_forwarded", tot.fwd},
                {"wall_s", tot.wall},
                {"cpu_s", tot.cpu},
                {"packets_per_wall_s", tot.wall > 0 ? double(tot.fwd) / tot.wall : 0},
                {"packets_per_cpu_s", tot.cpu > 0 ? double(tot.fwd) / tot.cpu : 0}};
  if (reproducible)
    for (const char* f : {"wall_s", "cpu_s", "packets_per_wall_s", "packets_per_cpu_s"}) j["speed"][f] = nullptr;
  nlohmann::json targets;
  for (const auto& cc : s.ccs) {
    const CollateralRun *d = nullptr, *si = nullptr;
    for (const auto& r : runs) {
      if (r.cc != cc) continue;
      (r.scheme == "dsh" ? d : si) = &r;
    }
    if (d) targets[cc]["dsh_f0_mean_during_ge_45"] = d->f0_mean_during >= 45;
    if (d && si) targets[cc]["sih_f0_mean_during_le_80pct_of_dsh"] = si->f0_mean_during <= 0.8 * d->f0_mean_during;
  }
  targets["zero_lossless_drops"] = tot.drops == 0;
  j["targets"] = targets;
  return j;
}

// summary.txt.
std::string summary_text(const KeyStore& k, const std::vector<CollateralRun>& runs, const RunTotals& tot,
                         const nlohmann::json& targets, bool reproducible) {
  const uint64_t fwd = tot.fwd;
  const double wall = tot.wall, cpu = tot.cpu;
  std::ostringstream txt;
  txt << "S2 collateral damage (" << k.text("scenario.name") << "), backend " << k.text("run.backend");
  if (!k.list("net.rtl_switches").empty()) txt << " on " << k.text("net.rtl_switches");
  txt << "\nF0 throughput, Gb/s (during = from the fan-in's first packet until its last flow completed)\n";
  txt << "scheme  cc      before  during-mean  during-min  fan-in us      drops  PAUSE frames per switch\n";
  for (const auto& r : runs) {
    char b[300];
    std::snprintf(b, sizeof b, "%-7s %-7s %6.1f  %11.1f  %10.1f  %6.1f..%-6.1f %5llu  ", r.scheme.c_str(), r.cc.c_str(),
                  r.f0_mean_before, r.f0_mean_during, r.f0_min_during, r.fanin_start_us, r.fanin_end_us,
                  (unsigned long long)r.lossless_drops);
    txt << b;
    for (auto n : r.pause_frames) txt << n << " ";
    txt << "\n";
  }
  char b[200];
  std::snprintf(b, sizeof b,
                "speed: %llu packets forwarded (all switches) in %.2f s wall = %.2f M packets/s (CPU time %.2f s = %.2f M/s; "
                "wall > CPU when other processes share the cores)\n",
                (unsigned long long)fwd, wall, wall > 0 ? double(fwd) / wall / 1e6 : 0, cpu, cpu > 0 ? double(fwd) / cpu / 1e6 : 0);
  if (!reproducible) txt << b;
  txt << "targets: " << targets.dump() << "\n";
  return txt.str();
}

}  // namespace

int write_collateral_outputs(const KeyStore& k, const NetSetup& s, const std::vector<CollateralRun>& runs,
                             const NetSweepOptions& o) {
  const std::string& out_dir = o.out_dir;
  CollateralKeys c;
  k.fill(c);
  const std::string csv = throughput_csv(c, runs);
  RunTotals tot;
  const nlohmann::json j = summary_json(k, s, runs, o.reproducible, tot);
  const std::string txt = summary_text(k, runs, tot, j["targets"], o.reproducible);
  write_file_atomically(out_dir + "/throughput.csv", csv);
  write_file_atomically(out_dir + "/summary.json", j.dump(2) + "\n");
  write_file_atomically(out_dir + "/summary.txt", txt);
  std::fprintf(stderr, "%s", txt.c_str());
  bool png = false;
  if (o.plot) {
    // The plot's y-axis ends a little above F0's own link rate (its sender's NIC).
    const Topology& t = *s.topo;
    const FlowEnds f0 = parse_flow(t, c.long_flows.at(0), "traffic.long_flows");
    char rate[32];
    std::snprintf(rate, sizeof rate, "%g", t.ports(t.host_node(f0.src)).at(0).gbps);
    png = plot_net(o, "'" + out_dir + "/throughput.csv' '" + out_dir + "/collateral.png' " + rate);
  }
  std::fprintf(stderr, "wrote %s/throughput.csv, summary.txt, summary.json%s\n", out_dir.c_str(), png ? ", collateral.png" : "");
  if (tot.errors) return kExitCheckFailed;
  if (tot.drops) return kExitCheckFailed;
  if (!tot.all_done) return kExitInvalidExperiment;
  return kExitOk;
}

}  // namespace dsh::net
