// dsh-sim: runs a scenario of the SystemC switch model.
//
//   dsh-sim scenarios/pfc-avoidance.toml                 # S1 sweep, both schemes, lockstep MMU
//   dsh-sim scenarios/pfc-avoidance.toml --set burst_pct=10,20 --set chip.alpha_log2=-3
//   dsh-sim scenarios/pfc-avoidance.toml --trace dsh:30  # one point with an FST trace
//
// Each point runs in its own process (a SystemC kernel runs once per
// process); run.jobs of them at a time.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <unistd.h>

#include "cli_common.h"
#include "net_main.h"
#include "sim.h"

using namespace dsh;
using namespace dsh::sc;

namespace {

const char* scheme_name(int s) { return Scheme(s) == Scheme::DSH ? "dsh" : "sih"; }

double pct_of_buffer_cells(const Params& p, double cells) { return 100.0 * cells / double(p.mmu.buffer_cells); }

std::string csv_header() {
  return "scheme,burst_bytes,burst_pct,burst_cells,fanin_pause_us,fanin_pause_frames,pause_frames,resume_frames,"
         "drops,peak_shared_cells,peak_queue_hdrm_cells,peak_port_hdrm_cells,max_enq_wait_ns,sim_us,wall_s,"
         "mmu_cycles,mmu_busy_cycles,fanin_start_us,refine,status";
}

// status: ok, lossy (run.allow_lossy), or invalid (the stimulus did not happen).
std::string csv_row(const Metrics& m, const std::string& status = "ok") {
  char b[600];
  std::snprintf(b, sizeof b, "%s,%llu,%.4f,%llu,%.4f,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%.1f,%.2f,%.3f,%llu,%llu,%.2f,%d",
                scheme_name(m.scheme), (unsigned long long)m.burst_bytes, m.burst_pct,
                (unsigned long long)m.burst_cells, m.fanin_pause_us, (unsigned long long)m.fanin_pause_frames,
                (unsigned long long)m.pause_frames, (unsigned long long)m.resume_frames, (unsigned long long)m.drops,
                (unsigned long long)m.peak_shared_cells, (unsigned long long)m.peak_queue_hdrm_cells,
                (unsigned long long)m.peak_port_hdrm_cells, m.max_enq_wait_ns, m.sim_us, m.wall_s,
                (unsigned long long)m.mmu_cycles, (unsigned long long)m.mmu_busy_cycles, m.fanin_start_us, m.refine);
  return std::string(b) + "," + status;
}

void print_point(FILE* f, const Metrics& m) {
  std::fprintf(f,
               "%s burst %.2f%% (%llu B): fan-in paused %.2f us, PAUSE frames to fan-in %llu (all %llu), drops %llu, "
               "peak S %llu, peak hdrm queue %llu / port %llu cells, max enqueue wait %.0f ns; fan-in at %.1f us, %.0f us "
               "simulated in %.2f s, %llu MMU cycles\n",
               scheme_name(m.scheme), m.burst_pct, (unsigned long long)m.burst_bytes, m.fanin_pause_us,
               (unsigned long long)m.fanin_pause_frames, (unsigned long long)m.pause_frames,
               (unsigned long long)m.drops, (unsigned long long)m.peak_shared_cells,
               (unsigned long long)m.peak_queue_hdrm_cells, (unsigned long long)m.peak_port_hdrm_cells, m.max_enq_wait_ns,
               m.fanin_start_us, m.sim_us, m.wall_s, (unsigned long long)m.mmu_cycles);
}

// Parses "dsh:30" into a point; the burst range is the sweep's.
PointSpec parse_point(const std::string& opt, const std::string& s) {
  const auto c = s.find(':');
  if (c == std::string::npos) throw ConfigError(opt + " = " + quoted(s) + ": expected SCHEME:BURST_PCT, e.g. dsh:30");
  PointSpec p;
  try {
    p.scheme = scheme_from_string(s.substr(0, c));
    p.burst_pct = parse_real("burst", s.substr(c + 1), -1e300, 1e300);
    check_burst_pct("burst", p.burst_pct);
  } catch (const InputError& e) {
    throw ConfigError(opt + " = " + quoted(s) + ": " + e.what());
  }
  return p;
}

// Per scheme: the grid results, then bisection between the largest
// pause-free grid point (all below it pause-free too) and the next.
struct Edge {
  Scheme scheme;
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
  double mid() const { return std::round((lo + hi) / 2 * 1e4) / 1e4; }
};

}  // namespace

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  // Network scenarios (collateral-damage, deadlock) have their own runner.
  if (const int rc = dsh::net::dispatch(argc, argv); rc != dsh::net::kNotNetScenario) return rc;
  CLI::App app{"dsh-sim: scenarios of the SystemC shared-buffer switch model (golden, RTL or lockstep MMU)"};
  std::string scenario, out_dir, point, trace, plot_script = DSH_PLOT_SCRIPT, python = DSH_PYTHON, backend, jobs_s;
  std::vector<std::string> sets;
  bool list = false, no_plot = false, allow_lossy = false;
  app.add_option("scenario", scenario, "scenario file (TOML); default: the built-in S1 = scenarios/pfc-avoidance.toml");
  app.add_option("--set", sets,
                 "override a scenario key: --set section.key=value (or key=value when the name is unique); "
                 "lists comma separated, host ranges a..b, number ranges lo:hi:step. Repeatable.")
      ->allow_extra_args(false);
  app.add_option("-b,--backend", backend, "MMU backend golden | rtl | lockstep (= --set run.backend=...)");
  app.add_option("-j,--jobs", jobs_s, "points in parallel, 1..256 (= --set run.jobs=...)");
  app.add_option("-o,--out", out_dir, "output directory (default out/<scenario.name>)");
  app.add_option("--point", point, "run one point SCHEME:BURST_PCT and print its metrics");
  app.add_option("--trace", trace, "run one point SCHEME:BURST_PCT with an FST trace and a .gtkw in the output directory");
  app.add_option("--plot-script", plot_script, "plot script");
  app.add_option("--python", python, "python3 with matplotlib for the plot");
  app.add_flag("--no-plot", no_plot, "skip the PNG");
  app.add_flag("--allow-lossy", allow_lossy,
               "run a chip.headroom_cells below what the link needs, labelled lossy (= --set run.allow_lossy=true)");
  app.add_flag("--list", list, "print every key with its value after file and overrides, then exit");
  std::ostringstream keys;
  keys << "\nScenario keys (file sections [chip] [link] [switch] [traffic] [sweep] [run] [scenario]):\n";
  for (const auto& k : param_keys()) keys << "  " << k.key << std::string(k.key.size() < 28 ? 28 - k.key.size() : 1, ' ') << k.help << "\n";
  keys << "\nOutputs in the output directory: sweep.csv (one row per point), summary.txt / summary.json "
          "(largest pause-free burst per scheme, simulated vs Theorem 1/2), sweep.png; sweep.partial.csv while "
          "a sweep runs (kept when it is interrupted).\n"
          "Exit status: 0 done, 1 drops or a lockstep mismatch, 2 bad input (nothing run), 3 a point process failed, "
          "4 invalid experiment (the stimulus did not happen as the scenario describes), 130 interrupted.\n";
  app.footer(keys.str());
  const int parsed = parse_command_line(app, argc, argv, "dsh-sim");
  if (parsed >= 0) return parsed;

  // Everything is checked before the first point starts (exit 2).
  Params p;
  PointSpec one;
  const bool single = app.count("--point") || app.count("--trace");
  std::vector<std::pair<std::string, std::string>> infeasible;
  try {
    if (app.count("--point") && app.count("--trace")) throw InputError("--point and --trace: give one of them");
    if (!scenario.empty()) p.load_toml(scenario);
    for (const auto& s : sets) {
      const auto eq = s.find('=');
      if (eq == std::string::npos) throw ConfigError("--set " + quoted(s) + ": expected key=value");
      p.set(s.substr(0, eq), s.substr(eq + 1));
    }
    if (app.count("-b")) p.set("run.backend", backend);
    if (app.count("-j")) p.jobs = unsigned(parse_uint("-j/--jobs", jobs_s, 1, 256));
    if (allow_lossy) p.allow_lossy = true;
    if (single) {
      one = app.count("--trace") ? parse_point("--trace", trace) : parse_point("--point", point);
      p.schemes = {scheme_name(int(one.scheme))};
    }
    p.validate();  // refuses a run whose every scheme is infeasible
    infeasible = p.infeasible();
    for (const auto& [sch, why] : infeasible) p.schemes.erase(std::find(p.schemes.begin(), p.schemes.end(), sch));
    if (list) {
      std::printf("%s", p.dump().c_str());
      return kExitOk;
    }
    if (app.count("-o") && out_dir.empty())
      throw InputError("-o = '': expected a directory name (without -o: out/<scenario.name>)");
    if (out_dir.empty()) out_dir = "out/" + p.name;
    check_output_dir("-o", out_dir);
    for (const char* f : {"sweep.csv", "sweep.partial.csv", "summary.txt", "summary.json", "sweep.png", "saturate.csv"})
      if (!scenario.empty() && same_file(out_dir + "/" + f, scenario))
        throw InputError("-o = " + out_dir + ": its " + f + " is the scenario file " + scenario + "; it would be overwritten");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dsh-sim: error: %s\n", e.what());
    if (std::string(e.what()).find("no RTL model") != std::string::npos)
      std::fprintf(stderr, "dsh-sim: the golden model runs any chip: --backend golden\n");
    return kExitBadInput;
  }
  install_interrupt_cleanup("dsh-sim", "no complete output written");  // run_points has its own while points run
  const bool lossy = p.lossy();
  const std::string status_ok = lossy ? "lossy" : "ok";
  const std::string cfg_line = p.mmu_config(Scheme::DSH).describe();
  std::fprintf(stderr, "dsh-sim: %s, backend %s, eta %llu cells, B_s dsh %lld / sih %lld cells, %u jobs, output %s\n",
               p.name.c_str(), to_string(p.backend), (unsigned long long)p.headroom_cells(),
               (long long)p.mmu_config(Scheme::DSH).shared_cells(), (long long)p.mmu_config(Scheme::SIH).shared_cells(),
               p.jobs, out_dir.c_str());
  const std::string lossy_note =
      lossy ? "LOSSY by configuration: chip.headroom_cells = " + std::to_string(p.mmu.headroom_cells) +
                  " is below the link's need of " + std::to_string(p.link_headroom_cells()) +
                  " cells (run.allow_lossy); drops are results, not failures"
            : "";
  if (lossy) std::fprintf(stderr, "dsh-sim: %s\n", lossy_note.c_str());
  for (const auto& [sch, why] : infeasible)
    std::fprintf(stderr, "dsh-sim: %s is infeasible on this chip, its points are not run: %s\n", sch.c_str(), why.c_str());

  auto fail = [&](const PointResult& r) {
    std::fprintf(stderr, "dsh-sim: point %s %.2f%% failed:\n%s\n", to_string(r.spec.scheme), r.spec.burst_pct,
                 r.error.c_str());
    return r.m.mismatch ? kExitCheckFailed : kExitToolFailed;
  };
  auto stopped = [&](const std::string& kept) {
    std::fprintf(stderr, "dsh-sim: interrupted: the running points were stopped; %s\n", kept.c_str());
    return kExitInterrupted;
  };

  // One point, optionally traced.
  if (single) {
    PointSpec s = one;
    s.out_dir = out_dir;
    if (!trace.empty()) {
      char stem[64];
      std::snprintf(stem, sizeof stem, "/trace_%s_%g", scheme_name(int(s.scheme)), s.burst_pct);
      s.trace_stem = out_dir + stem;
    }
    const PointResult r = run_point_isolated(p, s);
    if (interrupted()) return stopped("nothing written");
    if (!r.ok()) return fail(r);
    print_point(stdout, r.m);
    if (!r.note.empty()) std::printf("%s\n", r.note.c_str());
    if (lossy) std::printf("%s\n", lossy_note.c_str());
    const std::string fault = stimulus_fault(p, r.m);
    if (!fault.empty()) {
      std::fprintf(stderr, "dsh-sim: invalid point %s %.2f%%: %s\n", scheme_name(int(s.scheme)), s.burst_pct,
                   fault.c_str());
      return kExitInvalidExperiment;
    }
    return r.m.drops && !lossy ? kExitCheckFailed : kExitOk;
  }

  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::pair<Metrics, std::string>> rows;  // every point that ran, with its status
  std::vector<Metrics> all;                           // the valid ones
  std::vector<std::string> invalid;                   // "sih 10%: why"
  double sum_sim_us = 0, sum_wall = 0, sum_cycles = 0;
  // Done points go to sweep.partial.csv as they finish; the complete files
  // are written under temporary names and renamed at the end.
  const std::string partial_path = out_dir + "/" + (p.kind == Kind::Saturate ? "saturate" : "sweep") + ".partial.csv";
  std::ofstream partial(partial_path, std::ios::trunc);
  if (!partial) {
    std::fprintf(stderr, "dsh-sim: error: cannot write %s\n", partial_path.c_str());
    return kExitToolFailed;
  }
  partial << csv_header() << "\n" << std::flush;
  auto account = [&](const Metrics& m, const std::string& fault) {
    const std::string st = fault.empty() ? status_ok : "invalid";
    rows.emplace_back(m, st);
    partial << csv_row(m, st) << "\n" << std::flush;
    if (!fault.empty()) {
      char b[64];
      std::snprintf(b, sizeof b, "%s %.4g%%", scheme_name(m.scheme), m.burst_pct);
      invalid.push_back(std::string(b) + ": " + fault);
      return;
    }
    all.push_back(m);
    sum_sim_us += m.sim_us;
    sum_wall += m.wall_s;
    sum_cycles += double(m.mmu_cycles);
  };
  auto partial_kept = [&]() {
    partial.close();
    if (rows.empty()) {
      std::remove(partial_path.c_str());
      return std::string("no point had finished; nothing kept");
    }
    return std::to_string(rows.size()) + " finished points kept in " + partial_path +
           "; no complete sweep, summary or plot written";
  };
  auto write_csv = [&](const std::string& path) {
    std::ostringstream csv;
    csv << csv_header() << "\n";
    for (const auto& [m, st] : rows) csv << csv_row(m, st) << "\n";
    write_file_atomically(path, csv.str());
  };

  // saturate: one point per scheme.
  if (p.kind == Kind::Saturate) {
    std::vector<PointSpec> todo;
    for (const auto& sch : p.schemes) {
      PointSpec s;
      s.scheme = scheme_from_string(sch);
      s.out_dir = out_dir;
      todo.push_back(s);
    }
    size_t next_i = 0;
    PointResult bad;
    const bool ok = run_points(
        p, p.jobs, [&]() -> std::optional<PointSpec> { return next_i < todo.size() ? std::optional(todo[next_i++]) : std::nullopt; },
        [&](const PointResult& r) {
          if (!r.ok()) bad = r;
          else {
            account(r.m, "");
            print_point(stdout, r.m);
          }
        });
    if (interrupted()) return stopped(partial_kept());
    if (!ok) {
      std::fprintf(stderr, "dsh-sim: %s\n", partial_kept().c_str());
      return fail(bad);
    }
    try {
      write_csv(out_dir + "/saturate.csv");
    } catch (const std::exception& e) {
      std::fprintf(stderr, "dsh-sim: error: %s\n", e.what());
      return kExitToolFailed;
    }
    partial.close();
    std::remove(partial_path.c_str());
    const uint64_t eta = p.headroom_cells();
    bool clean = true;
    for (const auto& m : all) {
      const uint64_t peak = Scheme(m.scheme) == Scheme::DSH ? m.peak_port_hdrm_cells : m.peak_queue_hdrm_cells;
      std::printf("%s: peak %s %llu of eta %llu cells, drops %llu -> %s\n", scheme_name(m.scheme),
                  Scheme(m.scheme) == Scheme::DSH ? "insurance (per port)" : "headroom (per queue)",
                  (unsigned long long)peak, (unsigned long long)eta, (unsigned long long)m.drops,
                  m.drops == 0 && peak <= eta ? "lossless" : "LOSS");
      clean &= m.drops == 0 && peak <= eta;
    }
    if (lossy) std::printf("%s\n", lossy_note.c_str());
    for (const auto& [sch, why] : infeasible) std::printf("%s infeasible: %s\n", sch.c_str(), why.c_str());
    return clean || lossy ? kExitOk : kExitCheckFailed;
  }

  // pfc-avoidance: grid, then bisection of each scheme's pause-free edge.
  std::vector<double> grid = p.burst_pct;
  std::sort(grid.begin(), grid.end());
  grid.erase(std::unique(grid.begin(), grid.end()), grid.end());
  std::vector<Edge> edges;
  std::vector<PointSpec> queue;
  for (const auto& sch : p.schemes) {
    Edge e;
    e.scheme = scheme_from_string(sch);
    e.grid_left = grid.size();
    e.steps_left = p.refine_steps;
    edges.push_back(e);
    for (double g : grid) {
      PointSpec s;
      s.scheme = e.scheme;
      s.burst_pct = g;
      s.out_dir = out_dir;
      queue.push_back(s);
    }
  }
  size_t qi = 0, finished = 0;
  const size_t planned = queue.size() + edges.size() * p.refine_steps;
  auto edge_of = [&](Scheme s) -> Edge& {
    for (auto& e : edges)
      if (e.scheme == s) return e;
    throw std::logic_error("scheme");
  };
  auto next = [&]() -> std::optional<PointSpec> {
    if (qi < queue.size()) return queue[qi++];
    for (auto& e : edges) {
      if (e.grid_left || e.running || !e.steps_left || e.hi < 0 || e.hi - e.lo < 1e-3) continue;
      e.running = true;
      --e.steps_left;
      PointSpec s;
      s.scheme = e.scheme;
      s.burst_pct = e.mid();
      s.refine = true;
      s.out_dir = out_dir;
      return s;
    }
    return std::nullopt;
  };
  PointResult bad;
  const bool ok = run_points(p, p.jobs, next, [&](const PointResult& r) {
    if (!r.ok()) {
      bad = r;
      return;
    }
    const std::string fault = stimulus_fault(p, r.m);
    account(r.m, fault);
    Edge& e = edge_of(r.spec.scheme);
    if (fault.empty()) e.done[r.spec.burst_pct] = r.m;
    if (r.spec.refine) {
      e.running = false;
      if (fault.empty()) (r.m.fanin_pause_frames == 0 ? e.lo : e.hi) = r.spec.burst_pct;
      else e.steps_left = 0;  // no bisection on an invalid point
    } else if (--e.grid_left == 0) {
      e.settle(grid);
    }
    const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!fault.empty()) {
      std::fprintf(stderr, "[%2zu/%zu %5.1f s] %s %6.2f%%%s: INVALID: %s\n", ++finished, planned, el,
                   scheme_name(r.m.scheme), r.m.burst_pct, r.spec.refine ? " (bisect)" : "", fault.c_str());
      return;
    }
    std::fprintf(stderr, "[%2zu/%zu %5.1f s] %s %6.2f%%%s: fan-in paused %9.2f us, PAUSE %4llu, drops %llu (%.0f us sim, %.1f s)\n",
                 ++finished, planned, el, scheme_name(r.m.scheme), r.m.burst_pct, r.spec.refine ? " (bisect)" : "",
                 r.m.fanin_pause_us, (unsigned long long)r.m.fanin_pause_frames, (unsigned long long)r.m.drops,
                 r.m.sim_us, r.m.wall_s);
  });
  if (interrupted()) return stopped(partial_kept());
  if (!ok) {
    std::fprintf(stderr, "dsh-sim: %s\n", partial_kept().c_str());
    return fail(bad);
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  auto order = [](const Metrics& a, const Metrics& b) {
    return a.scheme != b.scheme ? a.scheme > b.scheme : a.burst_pct < b.burst_pct;  // dsh first
  };
  std::sort(all.begin(), all.end(), order);
  std::sort(rows.begin(), rows.end(), [&](const auto& a, const auto& b) { return order(a.first, b.first); });

  // Summary: simulated edge vs Theorem 1 (DSH) / Theorem 2 (SIH).
  const AbsorptionModel am = p.absorption_model();
  AbsorptionModel am0 = am;
  am0.private_per_queue = 0;
  const double k = am.congested ? double(am.bursty) / am.congested : 1.0;  // drain rate, background vs bursty queue
  const double bytes_per_cell = double(p.packet_bytes) / double(p.cells_per_packet());  // wire bytes per buffer cell
  uint64_t drops = 0;
  for (const auto& m : all) drops += m.drops;
  std::ostringstream sum, js;
  char line[512];
  sum << "scenario " << p.name << ", backend " << to_string(p.backend) << ", " << cfg_line << "\n";
  if (lossy) sum << lossy_note << "\n";
  std::snprintf(line, sizeof line,
                "Theorem inputs: N=%u congested, M=%u bursty, R=%g, alpha=%g, B=%g cells, eta=%g cells, "
                "private_per_queue=phi=%g cells\n",
                am.congested, am.bursty, am.load, am.alpha, am.buffer, am.eta, am.private_per_queue);
  sum << line;
  sum << "largest pause-free burst (% of buffer; simulated = bytes sent / buffer bytes, and the cells they occupy):\n";
  sum << "scheme  sim bytes%  sim cells%  theorem(phi)  diff(cells)  theorem(phi=0)  eq.(19) k=" << k
      << "  bracket\n";
  js << "{\n  \"scenario\": \"" << p.name << "\",\n  \"backend\": \"" << to_string(p.backend) << "\",\n  \"lossy\": "
     << (lossy ? "true" : "false") << ",\n  \"schemes\": {";
  std::map<Scheme, double> sim_pct, pred_pct;
  bool first = true, within = true;
  for (auto& e : edges) {
    if (e.done.empty()) {  // every point of this scheme was invalid: no edge to report
      sum << to_string(e.scheme) << "     no valid point (see the invalid points below)\n";
      within = false;
      continue;
    }
    const double pred = pct_of_buffer_cells(p, max_pause_free_burst(am, e.scheme));
    const double pred0 = pct_of_buffer_cells(p, max_pause_free_burst(am0, e.scheme));
    const double predk = pct_of_buffer_cells(p, pause_free_burst_k(am, e.scheme, k));
    const double sim_b = e.lo;
    const double sim_c = e.lo > 0 ? pct_of_buffer_cells(p, double(e.done.at(e.lo).burst_cells)) : 0;
    sim_pct[e.scheme] = sim_c;
    pred_pct[e.scheme] = pred;
    within &= std::fabs(sim_c - pred) <= 3.0 && e.hi >= 0;
    char hi[32] = "none paused";
    if (e.hi >= 0) std::snprintf(hi, sizeof hi, "%.3f%%", e.hi);
    std::snprintf(line, sizeof line, "%-6s  %9.2f%%  %9.2f%%  %11.2f%%  %+10.2f%%  %13.2f%%  %13.2f%%  [%.3f%%, %s)%s\n",
                  to_string(e.scheme), sim_b, sim_c, pred, sim_c - pred, pred0, predk, e.lo, hi,
                  e.non_monotone ? " non-monotone" : "");
    sum << line;
    js << (first ? "" : ",") << "\n    \"" << scheme_name(int(e.scheme)) << "\": {\"sim_pause_free_pct\": " << sim_b
       << ", \"sim_pause_free_cells_pct\": " << sim_c << ", \"first_paused_pct\": " << e.hi
       << ", \"theorem_pct\": " << pred << ", \"theorem_phi0_pct\": " << pred0 << ", \"theorem_k_pct\": " << predk
       << ", \"theorem_bytes_pct\": " << pred * bytes_per_cell / double(p.cell_bytes) << "}";
    first = false;
  }
  js << "\n  },\n";
  for (const auto& [sch, why] : infeasible) sum << sch << ": infeasible on this chip, not run: " << why << "\n";
  for (const auto& v : invalid) sum << "invalid point " << v << "\n";
  js << "  \"infeasible\": [";
  for (size_t i = 0; i < infeasible.size(); ++i) js << (i ? ", " : "") << "\"" << infeasible[i].first << "\"";
  js << "],\n  \"invalid_points\": " << invalid.size() << ",\n";
  if (sim_pct.count(Scheme::DSH) && sim_pct.count(Scheme::SIH) && sim_pct[Scheme::SIH] > 0) {
    std::snprintf(line, sizeof line, "DSH/SIH ratio: simulated %.2f, theorem %.2f\n",
                  sim_pct[Scheme::DSH] / sim_pct[Scheme::SIH], pred_pct[Scheme::DSH] / pred_pct[Scheme::SIH]);
    sum << line;
    js << "  \"ratio_sim\": " << sim_pct[Scheme::DSH] / sim_pct[Scheme::SIH] << ",\n  \"ratio_theorem\": "
       << pred_pct[Scheme::DSH] / pred_pct[Scheme::SIH] << ",\n";
  }
  std::snprintf(line, sizeof line, "drops: %llu in %zu points; simulation within +-3%% of the buffer of the theorems: %s\n",
                (unsigned long long)drops, all.size(), within ? "yes" : "NO");
  sum << line;
  std::snprintf(line, sizeof line,
                "timing: %zu points in %.1f s wall on %u jobs; %.0f us simulated; per process %.0f us simulated / s, "
                "%.2f M MMU cycles / s (%s)\n",
                all.size(), wall, p.jobs, sum_sim_us, sum_wall > 0 ? sum_sim_us / sum_wall : 0.0,
                sum_wall > 0 ? sum_cycles / sum_wall / 1e6 : 0.0, to_string(p.backend));
  sum << line;
  if (p.backend == Backend::Lockstep)
    sum << "lockstep: golden and RTL matched " << uint64_t(sum_cycles) << " cycles ("
        << (p.full_compare ? "every queue and port" : "all outputs, touched queues and ports") << " each cycle)\n";
  js << "  \"drops\": " << drops << ",\n  \"wall_s\": " << wall << "\n}\n";
  std::printf("%s", sum.str().c_str());
  try {
    write_csv(out_dir + "/sweep.csv");
    write_file_atomically(out_dir + "/summary.txt", sum.str());
    write_file_atomically(out_dir + "/summary.json", js.str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dsh-sim: error: %s\n", e.what());
    return kExitToolFailed;
  }
  partial.close();
  std::remove(partial_path.c_str());
  std::printf("wrote %s/sweep.csv, summary.txt, summary.json\n", out_dir.c_str());
  if (!no_plot) {
    const std::string png = out_dir + "/sweep.png", tmp = out_dir + "/.sweep.tmp-" + std::to_string(getpid()) + ".png";
    const std::string cmd = "'" + python + "' '" + plot_script + "' '" + out_dir + "/sweep.csv' '" + out_dir +
                            "/summary.json' '" + tmp + "'";
    if (std::system(cmd.c_str()) == 0 && std::rename(tmp.c_str(), png.c_str()) == 0) {
      std::printf("wrote %s\n", png.c_str());
    } else {
      std::remove(tmp.c_str());
      std::fprintf(stderr, "dsh-sim: plot failed: %s\n", cmd.c_str());
    }
  }
  if (!invalid.empty()) {
    std::fprintf(stderr, "dsh-sim: %zu invalid point%s (the stimulus did not happen as the scenario describes):\n",
                 invalid.size(), invalid.size() == 1 ? "" : "s");
    for (const auto& v : invalid) std::fprintf(stderr, "  %s\n", v.c_str());
    return kExitInvalidExperiment;
  }
  return drops == 0 || lossy ? kExitOk : kExitCheckFailed;
}
