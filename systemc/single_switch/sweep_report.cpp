// SPDX-License-Identifier: Apache-2.0
// The pfc-avoidance sweep's outputs: sweep.csv, summary.txt, summary.json
// and sweep.png (sweep_state.h).
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>

#include "exit_status.h"
#include "output.h"
#include "resources.h"
#include "sweep_state.h"

namespace dsh::sc {

namespace {

constexpr double kCheckUpToGbps = 400;  // a generation sweep's +-3 % check holds up to this rate

// summary.json keeps the 6 significant digits its numbers always had.
double sig6(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.6g", x);
  return std::strtod(b, nullptr);
}

double pct_of_buffer_cells(const Params& p, double cells) { return 100.0 * cells / double(p.mmu.buffer_cells); }

// Theorem 1/2 against the simulated edge of one chain.
struct Edge {
  bool valid = false;  // some valid point
  double sim_b = 0, sim_c = 0, pred = 0, pred0 = 0, predk = 0, bytes_pct = 0;
  bool within = false;
};

Edge edge_of(const Chain& e, const Params& p) {
  Edge r;
  const AbsorptionModel am = p.absorption_model();
  AbsorptionModel am0 = am;
  am0.private_per_queue = 0;
  const double k = am.congested ? double(am.bursty) / am.congested : 1.0;
  const double bytes_per_cell = double(p.packet_bytes) / double(p.cells_per_packet());
  r.pred = pct_of_buffer_cells(p, max_pause_free_burst(am, e.scheme));
  r.pred0 = pct_of_buffer_cells(p, max_pause_free_burst(am0, e.scheme));
  r.predk = pct_of_buffer_cells(p, pause_free_burst_k(am, e.scheme, k));
  r.bytes_pct = r.pred * bytes_per_cell / double(p.cell_bytes);
  if (e.done.empty()) return r;
  r.valid = true;
  r.sim_b = e.lo;
  r.sim_c = e.lo > 0 ? pct_of_buffer_cells(p, double(e.done.at(e.lo).burst_cells)) : 0;
  r.within = std::fabs(r.sim_c - r.pred) <= 3.0 && e.hi >= 0;
  return r;
}

double theorem_pct(const Params& p, Scheme s) {
  return pct_of_buffer_cells(p, max_pause_free_burst(p.absorption_model(), s));
}

std::string json_text(const nlohmann::ordered_json& j) { return j.dump(2) + "\n"; }


// The summary's timing line (a constant one with --reproducible).
std::string timing_line(const Params& p, const SweepTally& t, double wall, const SweepOptions& o) {
  if (o.reproducible) return "timing: not recorded (--reproducible)";
  char line[512];
  std::snprintf(line, sizeof line,
                "timing: %zu points in %.1f s wall on %u jobs; %.0f us simulated; per process %.0f us simulated / s, "
                "%.2f M MMU cycles / s (%s)",
                t.n_valid, wall, p.jobs, t.sum_sim_us, t.sum_wall > 0 ? t.sum_sim_us / t.sum_wall : 0.0,
                t.sum_wall > 0 ? t.sum_cycles / t.sum_wall / 1e6 : 0.0, to_string(p.backend));
  std::string timing = line;
  if (t.from_files) timing += "; " + std::to_string(t.from_files) + " of them from result files in " + run_points_dir(o);
  return timing;
}

// scenarios §S1 on one chip: the report it always had.
void single_chip_summary(const Params& p, const std::vector<SweepChip>& chips, const std::vector<Chain>& chains,
                         const SweepTally& t, const std::string& timing, double wall, const SweepOptions& o,
                         nlohmann::ordered_json& js, std::ostringstream& sum) {
  char line[512];
  bool within = true;
  const double sum_cycles = t.sum_cycles;
  const Params& cp = *chips[0].params;
  const AbsorptionModel am = cp.absorption_model();
  const double k = am.congested ? double(am.bursty) / am.congested : 1.0;
  sum << "scenario " << p.name << ", backend " << to_string(p.backend) << ", " << cp.mmu_config(Scheme::DSH).describe()
      << "\n";
  if (p.lossy())
    sum << "LOSSY by configuration: chip.headroom_cells = " << p.mmu.headroom_cells << " is below the link's need of "
        << p.link_headroom_cells() << " cells (run.allow_lossy); drops are results, not failures\n";
  std::snprintf(line, sizeof line,
                "Theorem inputs: N=%u congested, M=%u bursty, R=%g, alpha=%g, B=%g cells, eta=%g cells, "
                "private_per_queue=phi=%g cells\n",
                am.congested, am.bursty, am.load, am.alpha, am.buffer, am.eta, am.private_per_queue);
  sum << line;
  sum << "largest pause-free burst (% of buffer; simulated = bytes sent / buffer bytes, and the cells they occupy):\n";
  sum << "scheme  sim bytes%  sim cells%  theorem(phi)  diff(cells)  theorem(phi=0)  eq.(19) k=" << k << "  bracket\n";
  js["scenario"] = p.name;
  js["backend"] = to_string(p.backend);
  js["lossy"] = p.lossy();
  js["schemes"] = nlohmann::ordered_json::object();
  std::map<Scheme, double> sim_pct, pred_pct;
  for (const auto& e : chains) {
    const Edge r = edge_of(e, cp);
    if (!r.valid) {
      sum << to_string(e.scheme) << "     no valid point (see the invalid points below)\n";
      within = false;
      continue;
    }
    sim_pct[e.scheme] = r.sim_c;
    pred_pct[e.scheme] = r.pred;
    within &= r.within;
    char hi[32] = "none paused";
    if (e.hi >= 0) std::snprintf(hi, sizeof hi, "%.3f%%", e.hi);
    std::snprintf(line, sizeof line, "%-6s  %9.2f%%  %9.2f%%  %11.2f%%  %+10.2f%%  %13.2f%%  %13.2f%%  [%.3f%%, %s)%s\n",
                  to_string(e.scheme), r.sim_b, r.sim_c, r.pred, r.sim_c - r.pred, r.pred0, r.predk, e.lo, hi,
                  e.non_monotone ? " non-monotone" : "");
    sum << line;
    js["schemes"][lower_name(e.scheme)] = {{"sim_pause_free_pct", sig6(r.sim_b)},
                                                 {"sim_pause_free_cells_pct", sig6(r.sim_c)},
                                                 {"first_paused_pct", sig6(e.hi)},
                                                 {"theorem_pct", sig6(r.pred)},
                                                 {"theorem_phi0_pct", sig6(r.pred0)},
                                                 {"theorem_k_pct", sig6(r.predk)},
                                                 {"theorem_bytes_pct", sig6(r.bytes_pct)}};
  }
  for (const auto& [sch, why] : chips[0].infeasible) sum << sch << ": infeasible on this chip, not run: " << why << "\n";
  for (const auto& v : t.invalid) sum << "invalid point " << v.second << "\n";
  js["infeasible"] = nlohmann::ordered_json::array();
  for (const auto& [sch, why] : chips[0].infeasible) js["infeasible"].push_back(sch);
  js["invalid_points"] = t.invalid.size();
  if (sim_pct.count(Scheme::DSH) && sim_pct.count(Scheme::SIH) && sim_pct[Scheme::SIH] > 0) {
    std::snprintf(line, sizeof line, "DSH/SIH ratio: simulated %.2f, theorem %.2f\n",
                  sim_pct[Scheme::DSH] / sim_pct[Scheme::SIH], pred_pct[Scheme::DSH] / pred_pct[Scheme::SIH]);
    sum << line;
    js["ratio_sim"] = sig6(sim_pct[Scheme::DSH] / sim_pct[Scheme::SIH]);
    js["ratio_theorem"] = sig6(pred_pct[Scheme::DSH] / pred_pct[Scheme::SIH]);
  }
  std::snprintf(line, sizeof line, "drops: %llu in %zu points; simulation within +-3%% of the buffer of the theorems: %s\n",
                (unsigned long long)t.drops, t.n_valid, within ? "yes" : "NO");
  sum << line << timing << "\n";
  if (p.backend == Backend::Lockstep)
    sum << "lockstep: golden and RTL matched " << uint64_t(sum_cycles) << " cycles ("
        << (p.full_compare ? "every queue and port each cycle"
                           : "all outputs, touched queues and ports each cycle, every queue and port every " +
                                 std::to_string(kFullCompareEvery) + " cycles")
        << ")\n";
  js["drops"] = t.drops;
  if (o.reproducible) js["wall_s"] = nullptr;
  else js["wall_s"] = sig6(wall);
}

// One chip generation's row of the summary and its results in summary.json.
void generation_row(const Params& p, const std::vector<SweepChip>& chips, const std::vector<Chain>& chains, size_t c,
                    nlohmann::ordered_json& js, std::ostringstream& sum, bool& within, bool& within_checked) {
  char line[512];
  const SweepChip& chip = chips[c];
  const Params& cp = *chip.params;
  const Generation& g = p.generations[size_t(chip.generation)];
  const double hdrm_share = 100.0 * double(cp.mmu.n_ports) * cp.mmu.n_queues * double(cp.headroom_cells()) /
                            double(cp.mmu.buffer_cells);
  nlohmann::ordered_json chip_json = {{"n_ports", cp.mmu.n_ports},
                                      {"n_queues", cp.mmu.n_queues},
                                      {"buffer_cells", cp.mmu.buffer_cells},
                                      {"private_cells", cp.mmu.private_cells},
                                      {"headroom_cells", cp.headroom_cells()},
                                      {"alpha_log2", cp.mmu.alpha_log2},
                                      {"prop_delay_ns", cp.prop_delay_ns},
                                      {"mmu_clock_ghz", cp.mmu_clock_ghz}};
  nlohmann::ordered_json per = nlohmann::ordered_json::object();
  std::map<Scheme, std::string> cell;
  std::map<Scheme, double> sim, thm;
  for (Scheme s : {Scheme::DSH, Scheme::SIH}) {
    const std::string sn = lower_name(s);
    const auto inf = std::find_if(chip.infeasible.begin(), chip.infeasible.end(),
                                  [&](const auto& x) { return x.first == sn; });
    auto ch = std::find_if(chains.begin(), chains.end(), [&](const Chain& e) { return e.chip == c && e.scheme == s; });
    nlohmann::ordered_json r;
    if (inf != chip.infeasible.end()) {
      r["infeasible"] = true;
      r["reason"] = inf->second;
      r["theorem_pct"] = sig6(theorem_pct(cp, s));
      cell[s] = "infeasible                ";
    } else if (ch != chains.end()) {
      const Edge e = edge_of(*ch, cp);
      if (!e.valid) {
        r["sim_pause_free_cells_pct"] = nullptr;
        r["theorem_pct"] = sig6(e.pred);
        cell[s] = "no valid point            ";
        within = false;
        if (g.rate_gbps <= kCheckUpToGbps) within_checked = false;
      } else {
        r["sim_pause_free_cells_pct"] = sig6(e.sim_c);
        r["sim_pause_free_pct"] = sig6(e.sim_b);
        r["first_paused_pct"] = sig6(ch->hi);
        r["theorem_pct"] = sig6(e.pred);
        r["diff_pct"] = sig6(e.sim_c - e.pred);
        r["within_3pct"] = e.within;
        within &= e.within;
        if (g.rate_gbps <= kCheckUpToGbps) within_checked &= e.within;
        sim[s] = e.sim_c;
        thm[s] = e.pred;
        std::snprintf(line, sizeof line, "%6.2f%%  %6.2f%%  %+6.2f%%", e.sim_c, e.pred, e.sim_c - e.pred);
        cell[s] = line;
      }
    } else {
      continue;  // not in sweep.schemes
    }
    for (const auto& [k, v] : chip_json.items()) r[k] = v;
    per[sn] = r;
  }
  js["results"][chip.label] = per;
  nlohmann::ordered_json gj = {{"chip", g.chip},
                               {"source", g.source},
                               {"chip_buffer_mb", g.chip_buffer_mb},
                               {"chip_capacity_gbps", g.chip_capacity_gbps},
                               {"buffer_us", sig6(g.chip_buffer_mb * 1048576.0 * 8 / (g.chip_capacity_gbps * 1e3))},
                               {"headroom_share_sih_pct", sig6(hdrm_share)}};
  std::string ratio = "  -";
  if (sim.count(Scheme::DSH) && sim.count(Scheme::SIH) && sim[Scheme::SIH] > 0) {
    gj["ratio_sim"] = sig6(sim[Scheme::DSH] / sim[Scheme::SIH]);
    gj["ratio_theorem"] = sig6(thm[Scheme::DSH] / thm[Scheme::SIH]);
    std::snprintf(line, sizeof line, "%5.2f / %5.2f", sim[Scheme::DSH] / sim[Scheme::SIH],
                  thm[Scheme::DSH] / thm[Scheme::SIH]);
    ratio = line;
  }
  js["generations"][chip.label] = gj;
  std::snprintf(line, sizeof line, "%6s  %12llu  %4llu  %9.3g  %8.1f%%  %-26s  %-26s  %-13s  %s\n", chip.label.c_str(),
                (unsigned long long)cp.mmu.buffer_cells, (unsigned long long)cp.headroom_cells(), cp.mmu_clock_ghz,
                hdrm_share, cell.count(Scheme::DSH) ? cell[Scheme::DSH].c_str() : "-",
                cell.count(Scheme::SIH) ? cell[Scheme::SIH].c_str() : "-", ratio.c_str(), g.chip.c_str());
  sum << line;
}

// Generation sweep: per link rate and scheme, the chip, the simulated edge
// and Theorem 1/2; the check is +-3 % up to kCheckUpToGbps.
void generation_summary(const Params& p, const std::vector<SweepChip>& chips, const std::vector<Chain>& chains,
                        const SweepTally& t, const std::string& timing, double wall, const SweepOptions& o,
                        nlohmann::ordered_json& js, std::ostringstream& sum) {
  char line[512];
  bool within = true;
  js["scenario"] = p.name;
  js["backend"] = to_string(p.backend);
  js["lossy"] = p.lossy();
  js["basis"] = {{"n_ports", p.mmu.n_ports},
                 {"n_queues", p.mmu.n_queues},
                 {"prop_delay_ns", p.prop_delay_ns},
                 {"cell_bytes", p.cell_bytes},
                 {"packet_bytes", p.packet_bytes},
                 {"mmu_ghz_per_100gbps", p.mmu_ghz_per_100gbps},
                 {"buffer_rule", "chip_buffer_mb * 2^20 B * n_ports * rate_gbps / chip_capacity_gbps"},
                 {"checked_up_to_gbps", kCheckUpToGbps}};
  js["results"] = nlohmann::ordered_json::object();
  js["generations"] = nlohmann::ordered_json::object();
  sum << "scenario " << p.name << ", backend " << to_string(p.backend) << ": S1 on " << chips.size()
      << " chip generations; " << p.mmu.n_ports << " ports, " << p.mmu.n_queues << " lossless queues per port, D_prop "
      << p.prop_delay_ns << " ns, buffer time of each chip kept, MMU clock " << p.mmu_ghz_per_100gbps
      << " GHz per 100 Gb/s\n";
  sum << "largest pause-free burst, % of the buffer's cells (simulated vs Theorem 1 / Theorem 2):\n";
  sum << "rate G  buffer cells  eta  clock GHz  SIH hdrm%  DSH sim  DSH thm  diff    SIH sim  SIH thm  diff    "
         "ratio sim/thm  chip\n";
  bool within_checked = true;
  for (size_t c = 0; c < chips.size(); ++c) generation_row(p, chips, chains, c, js, sum, within, within_checked);
  for (const auto& c : chips)
    for (const auto& [sch, why] : c.infeasible) sum << c.label << " Gb/s " << sch << ": infeasible, not run: " << why << "\n";
  for (const auto& v : t.invalid) sum << "invalid point " << v.second << "\n";
  std::snprintf(line, sizeof line,
                "drops: %llu in %zu points; simulation within +-3%% of the buffer of the theorems up to %g Gb/s: %s; "
                "at every rate: %s\n",
                (unsigned long long)t.drops, t.n_valid, kCheckUpToGbps, within_checked ? "yes" : "NO",
                within ? "yes" : "NO");
  sum << line << timing << "\n";
  js["invalid_points"] = t.invalid.size();
  js["within_3pct_up_to_400gbps"] = within_checked;
  js["drops"] = t.drops;
  if (o.reproducible) js["wall_s"] = nullptr;
  else js["wall_s"] = sig6(wall);
}

}  // namespace

int write_sweep_outputs(const Params& p, const std::vector<SweepChip>& chips, const std::vector<Chain>& chains,
                        SweepTally& t, double wall, const SweepOptions& o) {
  const bool gen_sweep = !p.generations.empty();
  // Outputs: rows by chip, DSH first, burst ascending; invalid points likewise.
  std::sort(t.rows.begin(), t.rows.end(), [](const SweepRow& a, const SweepRow& b) {
    if (a.chip != b.chip) return a.chip < b.chip;
    if (a.m.scheme != b.m.scheme) return a.m.scheme > b.m.scheme;
    return a.m.burst_pct < b.m.burst_pct;
  });
  std::sort(t.invalid.begin(), t.invalid.end());
  std::ostringstream csv, sum;
  csv << (gen_sweep ? "rate_gbps," : "") << csv_header() << "\n";
  for (const auto& r : t.rows)
    csv << (gen_sweep ? chips[r.chip].label + "," : "") << csv_row(r.m, r.status, o.reproducible) << "\n";
  nlohmann::ordered_json js;
  const std::string timing = timing_line(p, t, wall, o);
  if (!gen_sweep) single_chip_summary(p, chips, chains, t, timing, wall, o, js, sum);
  else generation_summary(p, chips, chains, t, timing, wall, o, js, sum);
  const auto& invalid = t.invalid;
  const bool lossy = p.lossy();
  const uint64_t drops = t.drops;
  std::printf("%s", sum.str().c_str());
  try {
    write_file_atomically(o.out_dir + "/sweep.csv", csv.str());
    write_file_atomically(o.out_dir + "/summary.txt", sum.str());
    write_file_atomically(o.out_dir + "/summary.json", json_text(js));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dsh-sim: error: %s\n", e.what());
    return kExitToolFailed;
  }
  std::printf("wrote %s/sweep.csv, summary.txt, summary.json\n", o.out_dir.c_str());
  if (o.plot) {
    const std::string png = o.out_dir + "/sweep.png", tmp = o.out_dir + "/.sweep.tmp-" + std::to_string(getpid()) + ".png";
    std::string script;
    try {
      script = gen_sweep ? given_or_resource(o.link_plot_script, DSH_LINK_PLOT_SCRIPT)
                         : given_or_resource(o.plot_script, DSH_PLOT_SCRIPT);
    } catch (const ResourceError& e) {
      std::fprintf(stderr, "dsh-sim: plot failed: %s\n", e.what());
    }
    if (!script.empty()) {
      const std::string cmd = gen_sweep ? "'" + o.python + "' '" + script + "' '" + o.out_dir + "/summary.json' '" + tmp + "'"
                                        : "'" + o.python + "' '" + script + "' '" + o.out_dir + "/sweep.csv' '" +
                                              o.out_dir + "/summary.json' '" + tmp + "'";
      if (std::system(cmd.c_str()) == 0 && std::rename(tmp.c_str(), png.c_str()) == 0) {
        std::printf("wrote %s\n", png.c_str());
      } else {
        std::remove(tmp.c_str());
        std::fprintf(stderr, "dsh-sim: plot failed: %s\n", cmd.c_str());
      }
    }
  }
  if (!invalid.empty()) {
    std::fprintf(stderr, "dsh-sim: %zu invalid point%s (the stimulus did not happen as the scenario describes):\n",
                 invalid.size(), invalid.size() == 1 ? "" : "s");
    for (const auto& v : invalid) std::fprintf(stderr, "  %s\n", v.second.c_str());
    return kExitInvalidExperiment;
  }
  return drops == 0 || lossy ? kExitOk : kExitCheckFailed;
}

}  // namespace dsh::sc
