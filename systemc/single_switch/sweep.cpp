// SPDX-License-Identifier: Apache-2.0
#include "sweep.h"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "exit_status.h"
#include "output.h"
#include "resources.h"

namespace dsh::sc {

namespace {

// summary.json keeps the 6 significant digits its numbers always had.
double sig6(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.6g", x);
  return std::strtod(b, nullptr);
}

double pct_of_buffer_cells(const Params& p, double cells) { return 100.0 * cells / double(p.mmu.buffer_cells); }

// One (chip, scheme): the grid results, then bisection between the largest
// pause-free grid point (all below it pause-free too) and the next.
struct Chain {
  size_t chip = 0;
  Scheme scheme = Scheme::DSH;
  std::map<double, Metrics> done;
  size_t grid_left = 0;
  unsigned steps_left = 0;
  bool running = false;
  double lo = 0, hi = -1;  // pause-free up to lo, paused at hi (-1: none paused)
  bool non_monotone = false;

  void settle(const std::vector<double>& grid) {
    lo = 0;
    hi = -1;
    for (double g : grid) {
      if (!done.count(g)) continue;  // an invalid point: no result
      if (done.at(g).fanin_pause_frames == 0) {
        if (hi < 0) lo = g;
        else non_monotone = true;
      } else if (hi < 0) {
        hi = g;
      }
    }
  }
  bool can_step() const { return !grid_left && !running && steps_left && hi >= 0 && hi - lo >= 1e-3; }
  double mid() const { return std::round((lo + hi) / 2 * 1e4) / 1e4; }
};

struct Row {
  size_t chip;
  Metrics m;
  std::string status;
};

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

}  // namespace

std::string csv_header() {
  return "scheme,burst_bytes,burst_pct,burst_cells,fanin_pause_us,fanin_pause_frames,pause_frames,resume_frames,"
         "drops,peak_shared_cells,peak_queue_hdrm_cells,peak_port_hdrm_cells,max_enq_wait_ns,sim_us,wall_s,"
         "mmu_cycles,mmu_busy_cycles,fanin_start_us,refine,status";
}

// status: ok, lossy (run.allow_lossy), or invalid (the stimulus did not happen).
std::string csv_row(const Metrics& m, const std::string& status, bool reproducible) {
  char wall[32] = "";
  if (!reproducible) std::snprintf(wall, sizeof wall, "%.3f", m.wall_s);
  char b[600];
  std::snprintf(b, sizeof b, "%s,%llu,%.4f,%llu,%.4f,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%.1f,%.2f,%s,%llu,%llu,%.2f,%d",
                lower_name(Scheme(m.scheme)), (unsigned long long)m.burst_bytes, m.burst_pct,
                (unsigned long long)m.burst_cells, m.fanin_pause_us, (unsigned long long)m.fanin_pause_frames,
                (unsigned long long)m.pause_frames, (unsigned long long)m.resume_frames, (unsigned long long)m.drops,
                (unsigned long long)m.peak_shared_cells, (unsigned long long)m.peak_queue_hdrm_cells,
                (unsigned long long)m.peak_port_hdrm_cells, m.max_enq_wait_ns, m.sim_us, wall,
                (unsigned long long)m.mmu_cycles, (unsigned long long)m.mmu_busy_cycles, m.fanin_start_us, m.refine);
  return std::string(b) + "," + status;
}

void print_point(FILE* f, const Metrics& m) {
  std::fprintf(f,
               "%s burst %.2f%% (%llu B): fan-in paused %.2f us, PAUSE frames to fan-in %llu (all %llu), drops %llu, "
               "peak S %llu, peak hdrm queue %llu / port %llu cells, max enqueue wait %.0f ns; fan-in at %.1f us, %.0f us "
               "simulated in %.2f s, %llu MMU cycles\n",
               lower_name(Scheme(m.scheme)), m.burst_pct, (unsigned long long)m.burst_bytes, m.fanin_pause_us,
               (unsigned long long)m.fanin_pause_frames, (unsigned long long)m.pause_frames,
               (unsigned long long)m.drops, (unsigned long long)m.peak_shared_cells,
               (unsigned long long)m.peak_queue_hdrm_cells, (unsigned long long)m.peak_port_hdrm_cells, m.max_enq_wait_ns,
               m.fanin_start_us, m.sim_us, m.wall_s, (unsigned long long)m.mmu_cycles);
}

int run_sweep(const Params& p, const KeyValues& infeasible_in, const SweepOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<SweepChip> chips;
  std::vector<SweepPoint> grid_pts;
  try {
    chips = sweep_chips(p, infeasible_in);
    grid_pts = grid_points(p, chips);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dsh-sim: error: %s\n", e.what());
    return kExitBadInput;
  }
  try {
    if (!o.merge) check_output_dir("-o", o.points_dir);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dsh-sim: error: %s\n", e.what());
    return kExitBadInput;
  }
  const std::vector<double> grid = sorted_grid(p);
  const bool gen_sweep = !p.generations.empty();
  std::map<std::string, size_t> grid_index;
  for (size_t i = 0; i < grid_pts.size(); ++i) grid_index[grid_pts[i].id] = i;

  // The chains, and which chain an ID of this sweep belongs to.
  std::vector<Chain> chains;
  std::map<std::string, size_t> chain_of_key;  // "<label>/<scheme>"
  for (size_t c = 0; c < chips.size(); ++c)
    for (const auto& sch : chips[c].params->schemes) {
      Chain ch;
      ch.chip = c;
      ch.scheme = scheme_from_string(sch);
      ch.grid_left = grid.size();
      ch.steps_left = p.refine_steps;
      chain_of_key[chips[c].label + "/" + lower_name(ch.scheme)] = chains.size();
      chains.push_back(ch);
    }
  auto chain_index = [&](const SweepPoint& pt) {
    return chain_of_key.at(chips[pt.chip].label + "/" + lower_name(pt.spec.scheme));
  };

  // Point files already there.
  std::map<std::string, PointFile> cached;  // valid results of this sweep, by ID
  PointScan scan = scan_points(o.points_dir, o.merge, [&](const PointRecord& f) -> std::optional<KeyValues> {
    // Which chip: a grid ID, or a bisection step of one of this sweep's chains.
    const auto key = parse_point_id(f.id);
    const SweepChip* chip = nullptr;
    if (key && key->scenario == p.name)
      for (const auto& c : chips)
        if (c.label == key->generation && chain_of_key.count(c.label + "/" + key->scheme)) chip = &c;
    const bool is_grid = grid_index.count(f.id) != 0;
    bool is_step = false;
    if (chip && key->refine) {
      char* end = nullptr;
      const double b = std::strtod(key->burst.c_str(), &end);
      is_step = end && !*end && b > 0 && b <= kBurstPctMax && format_number(b) == key->burst;
    }
    if (!is_grid && !is_step) return std::nullopt;
    metrics_from_json(f.metrics);  // throws when they are not a pfc-avoidance point's
    return point_params(*chip->params);
  });
  const size_t stale = scan.stale, ignored = scan.ignored;
  if (o.merge) {
    if (scan.no_dir) return refuse_merge(scan, o.points_dir), kExitBadInput;
    std::vector<std::string> ids;
    for (const auto& pt : grid_pts) ids.push_back(pt.id);
    note_missing_points(scan, ids, o.points_dir);
    if (refuse_merge(scan, o.points_dir)) return kExitBadInput;
  } else if (!scan.problems.empty()) {  // duplicates cannot happen in one flat directory; say so if they do
    for (const auto& m : scan.problems) std::fprintf(stderr, "dsh-sim: %s\n", m.c_str());
    return kExitBadInput;
  }
  if (!o.rerun)
    for (auto& [id, r] : scan.valid) {
      PointFile f;
      f.path = r.path;
      f.id = id;
      f.params = r.params;
      f.m = metrics_from_json(r.metrics);
      cached[id] = f;
    }
  size_t cached_grid = 0;
  for (const auto& pt : grid_pts) cached_grid += cached.count(pt.id);
  if (!o.merge && (cached_grid || stale || ignored))
    std::fprintf(stderr, "dsh-sim: %zu of %zu grid points already done (valid result files in %s), skipped%s%s\n",
                 cached_grid, grid_pts.size(), o.points_dir.c_str(),
                 stale ? (", " + std::to_string(stale) + " stale files (other parameters) to be replaced").c_str() : "",
                 ignored ? (", " + std::to_string(ignored) + " other files ignored").c_str() : "");

  // Accounting of every result, run here or read.
  std::vector<Row> rows;
  std::vector<std::pair<std::pair<size_t, std::pair<int, double>>, std::string>> invalid;  // (chip,(scheme,burst)) -> text
  double sum_sim_us = 0, sum_wall = 0, sum_cycles = 0;
  size_t n_valid = 0, finished = 0, from_files = 0;
  uint64_t drops = 0;
  const std::string partial_path = o.out_dir + "/sweep.partial.csv";
  try {
    check_output_dir("-o", o.out_dir);  // a merge reads its points elsewhere: -o may not exist yet
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dsh-sim: error: %s\n", e.what());
    return kExitToolFailed;
  }
  std::ofstream partial(partial_path, std::ios::trunc);
  if (!partial) {
    std::fprintf(stderr, "dsh-sim: error: cannot write %s\n", partial_path.c_str());
    return kExitToolFailed;
  }
  partial << (gen_sweep ? "rate_gbps," : "") << csv_header() << "\n" << std::flush;
  auto take = [&](Chain& e, const Metrics& m, bool refine) {
    const Params& cp = *chips[e.chip].params;
    const std::string fault = stimulus_fault(cp, m);
    const std::string st = fault.empty() ? (cp.lossy() ? "lossy" : "ok") : "invalid";
    rows.push_back({e.chip, m, st});
    partial << (gen_sweep ? chips[e.chip].label + "," : "") << csv_row(m, st, o.reproducible) << "\n" << std::flush;
    if (fault.empty()) {
      e.done[m.burst_pct] = m;
      ++n_valid;
      drops += m.drops;
      sum_sim_us += m.sim_us;
      sum_wall += m.wall_s;
      sum_cycles += double(m.mmu_cycles);
    } else {
      char b[96];
      std::snprintf(b, sizeof b, "%s%s%s %.4g%%", gen_sweep ? chips[e.chip].label.c_str() : "",
                    gen_sweep ? " Gb/s " : "", lower_name(Scheme(m.scheme)), m.burst_pct);
      invalid.push_back({{e.chip, {-m.scheme, m.burst_pct}}, std::string(b) + ": " + fault});
    }
    if (refine) {
      e.running = false;
      if (fault.empty()) (m.fanin_pause_frames == 0 ? e.lo : e.hi) = m.burst_pct;
      else e.steps_left = 0;  // no bisection on an invalid point
    } else if (--e.grid_left == 0) {
      e.settle(grid);
    }
    return fault;
  };
  for (const auto& pt : grid_pts)
    if (cached.count(pt.id)) {
      take(chains[chain_index(pt)], cached[pt.id].m, false);
      ++from_files;
    }

  // Run what is missing: the grid points first, then each chain's bisection
  // steps (a step whose file exists is read instead).
  std::vector<const SweepPoint*> todo;
  for (const auto& pt : grid_pts)
    if (!cached.count(pt.id)) todo.push_back(&pt);
  std::map<std::string, size_t> running_chain;  // id -> chain
  size_t ti = 0;
  const size_t planned = grid_pts.size() + chains.size() * p.refine_steps;
  auto next = [&]() -> std::optional<PointSpec> {
    if (ti < todo.size()) {
      const SweepPoint& pt = *todo[ti++];
      PointSpec s = pt.spec;
      s.out_dir = o.out_dir;
      running_chain[pt.id] = chain_index(pt);
      return s;
    }
    for (size_t ci = 0; ci < chains.size(); ++ci) {
      Chain& e = chains[ci];
      while (e.can_step()) {
        --e.steps_left;
        const double b = e.mid();
        const std::string id = point_id(p, chips[e.chip], e.scheme, b, true);
        if (cached.count(id)) {
          take(e, cached[id].m, true);
          ++from_files;
          continue;
        }
        e.running = true;
        PointSpec s;
        s.scheme = e.scheme;
        s.burst_pct = b;
        s.refine = true;
        s.out_dir = o.out_dir;
        s.params = chips[e.chip].params;
        s.id = id;
        running_chain[id] = ci;
        return s;
      }
    }
    return std::nullopt;
  };
  PointResult bad;
  std::string write_error;
  const bool ok = run_points(p, p.jobs, next, [&](const PointResult& r) {
    if (!r.ok()) {
      bad = r;
      return;
    }
    Chain& e = chains.at(running_chain.at(r.spec.id));
    const Params& cp = *chips[e.chip].params;
    try {
      write_file_atomically(o.points_dir + "/" + r.spec.id + ".json", point_file_text(r.spec.id, cp, r.m));
    } catch (const std::exception& x) {
      write_error = x.what();
    }
    const std::string fault = take(e, r.m, r.spec.refine);
    const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const std::string where = gen_sweep ? chips[e.chip].label + " Gb/s " : "";
    if (!fault.empty()) {
      std::fprintf(stderr, "[%2zu/%zu %5.1f s] %s%s %6.2f%%%s: INVALID: %s\n", ++finished, planned - from_files, el,
                   where.c_str(), lower_name(Scheme(r.m.scheme)), r.m.burst_pct, r.spec.refine ? " (bisect)" : "",
                   fault.c_str());
      return;
    }
    std::fprintf(stderr, "[%2zu/%zu %5.1f s] %s%s %6.2f%%%s: fan-in paused %9.2f us, PAUSE %4llu, drops %llu (%.0f us sim, %.1f s)\n",
                 ++finished, planned - from_files, el, where.c_str(), lower_name(Scheme(r.m.scheme)), r.m.burst_pct,
                 r.spec.refine ? " (bisect)" : "", r.m.fanin_pause_us, (unsigned long long)r.m.fanin_pause_frames,
                 (unsigned long long)r.m.drops, r.m.sim_us, r.m.wall_s);
  });
  auto partial_kept = [&]() {
    partial.close();
    if (rows.empty()) {
      std::remove(partial_path.c_str());
      return std::string("no point had finished; nothing kept");
    }
    return std::to_string(rows.size()) + " finished points kept in " + partial_path + " and as result files in " +
           o.points_dir + " (a rerun skips them); no complete sweep, summary or plot written";
  };
  if (interrupted()) {
    std::fprintf(stderr, "dsh-sim: interrupted: the running points were stopped; %s\n", partial_kept().c_str());
    return pool_interrupted_status();
  }
  if (!ok) {
    std::fprintf(stderr, "dsh-sim: %s\n", partial_kept().c_str());
    std::fprintf(stderr, "dsh-sim: point %s failed:\n%s\n", bad.spec.id.c_str(), bad.error.c_str());
    return bad.m.mismatch ? kExitCheckFailed : kExitToolFailed;
  }
  if (!write_error.empty()) {
    std::fprintf(stderr, "dsh-sim: error: %s\n", write_error.c_str());
    return kExitToolFailed;
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  // Outputs: rows by chip, DSH first, burst ascending; invalid points likewise.
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    if (a.chip != b.chip) return a.chip < b.chip;
    if (a.m.scheme != b.m.scheme) return a.m.scheme > b.m.scheme;
    return a.m.burst_pct < b.m.burst_pct;
  });
  std::sort(invalid.begin(), invalid.end());
  std::ostringstream csv, sum;
  csv << (gen_sweep ? "rate_gbps," : "") << csv_header() << "\n";
  for (const auto& r : rows) csv << (gen_sweep ? chips[r.chip].label + "," : "") << csv_row(r.m, r.status, o.reproducible) << "\n";
  nlohmann::ordered_json js;
  char line[512];
  const bool lossy = p.lossy();
  std::string timing;
  {
    std::snprintf(line, sizeof line,
                  "timing: %zu points in %.1f s wall on %u jobs; %.0f us simulated; per process %.0f us simulated / s, "
                  "%.2f M MMU cycles / s (%s)",
                  n_valid, wall, p.jobs, sum_sim_us, sum_wall > 0 ? sum_sim_us / sum_wall : 0.0,
                  sum_wall > 0 ? sum_cycles / sum_wall / 1e6 : 0.0, to_string(p.backend));
    timing = line;
    if (from_files) timing += "; " + std::to_string(from_files) + " of them from result files in " + o.points_dir;
    if (o.reproducible) timing = "timing: not recorded (--reproducible)";
  }
  bool within = true;

  if (!gen_sweep) {
    // scenarios §S1 on one chip: the report it always had.
    const Params& cp = *chips[0].params;
    const AbsorptionModel am = cp.absorption_model();
    const double k = am.congested ? double(am.bursty) / am.congested : 1.0;
    sum << "scenario " << p.name << ", backend " << to_string(p.backend) << ", " << cp.mmu_config(Scheme::DSH).describe()
        << "\n";
    if (lossy)
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
    js["lossy"] = lossy;
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
    for (const auto& v : invalid) sum << "invalid point " << v.second << "\n";
    js["infeasible"] = nlohmann::ordered_json::array();
    for (const auto& [sch, why] : chips[0].infeasible) js["infeasible"].push_back(sch);
    js["invalid_points"] = invalid.size();
    if (sim_pct.count(Scheme::DSH) && sim_pct.count(Scheme::SIH) && sim_pct[Scheme::SIH] > 0) {
      std::snprintf(line, sizeof line, "DSH/SIH ratio: simulated %.2f, theorem %.2f\n",
                    sim_pct[Scheme::DSH] / sim_pct[Scheme::SIH], pred_pct[Scheme::DSH] / pred_pct[Scheme::SIH]);
      sum << line;
      js["ratio_sim"] = sig6(sim_pct[Scheme::DSH] / sim_pct[Scheme::SIH]);
      js["ratio_theorem"] = sig6(pred_pct[Scheme::DSH] / pred_pct[Scheme::SIH]);
    }
    std::snprintf(line, sizeof line, "drops: %llu in %zu points; simulation within +-3%% of the buffer of the theorems: %s\n",
                  (unsigned long long)drops, n_valid, within ? "yes" : "NO");
    sum << line << timing << "\n";
    if (p.backend == Backend::Lockstep)
      sum << "lockstep: golden and RTL matched " << uint64_t(sum_cycles) << " cycles ("
          << (p.full_compare ? "every queue and port each cycle"
                             : "all outputs, touched queues and ports each cycle, every queue and port every " +
                                   std::to_string(kFullCompareEvery) + " cycles")
          << ")\n";
    js["drops"] = drops;
    if (o.reproducible) js["wall_s"] = nullptr;
    else js["wall_s"] = sig6(wall);
  } else {
    // Generation sweep: per link rate and scheme, the chip, the simulated
    // edge and Theorem 1/2; the check is +-3 % up to 400 Gb/s.
    constexpr double kCheckUpToGbps = 400;
    js["scenario"] = p.name;
    js["backend"] = to_string(p.backend);
    js["lossy"] = lossy;
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
    for (size_t c = 0; c < chips.size(); ++c) {
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
    for (const auto& c : chips)
      for (const auto& [sch, why] : c.infeasible) sum << c.label << " Gb/s " << sch << ": infeasible, not run: " << why << "\n";
    for (const auto& v : invalid) sum << "invalid point " << v.second << "\n";
    std::snprintf(line, sizeof line,
                  "drops: %llu in %zu points; simulation within +-3%% of the buffer of the theorems up to %g Gb/s: %s; "
                  "at every rate: %s\n",
                  (unsigned long long)drops, n_valid, kCheckUpToGbps, within_checked ? "yes" : "NO", within ? "yes" : "NO");
    sum << line << timing << "\n";
    js["invalid_points"] = invalid.size();
    js["within_3pct_up_to_400gbps"] = within_checked;
    js["drops"] = drops;
    if (o.reproducible) js["wall_s"] = nullptr;
    else js["wall_s"] = sig6(wall);
  }

  std::printf("%s", sum.str().c_str());
  try {
    write_file_atomically(o.out_dir + "/sweep.csv", csv.str());
    write_file_atomically(o.out_dir + "/summary.txt", sum.str());
    write_file_atomically(o.out_dir + "/summary.json", json_text(js));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dsh-sim: error: %s\n", e.what());
    return kExitToolFailed;
  }
  partial.close();
  std::remove(partial_path.c_str());
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
