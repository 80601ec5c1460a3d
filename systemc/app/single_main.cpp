// SPDX-License-Identifier: Apache-2.0
// dsh-sim's runner of the single-switch scenarios (pfc-avoidance,
// saturate): the whole setup checked first (exit 2, nothing written), then
// one point (--point, --trace), the sweep (sweep.h) or saturate's point per
// scheme.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "capture.h"
#include "cli_common.h"
#include "harness.h"
#include "scenarios.h"
#include "sim.h"
#include "single_switch.h"
#include "sweep.h"

namespace dsh::sc {

namespace {

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

// What the command line and the scenario ask for, checked whole.
struct SingleRun {
  Params p;
  PointSpec one;          // --point SCHEME:BURST or --trace
  bool point_id = false;  // --point ID
  bool single = false;    // one point, printed only
  KeyValues infeasible;   // schemes this chip cannot configure
  std::string out_dir;
};

// --point SCHEME:BURST or --trace: p for that point's chip and scheme.
void select_one_point(const SimOptions& o, SingleRun& r) {
  r.one = o.has_trace ? parse_point("--trace", o.trace) : parse_point("--point", o.point);
  if (!r.p.generations.empty()) {  // SCHEME:BURST names a point of one chip
    const auto rows = r.p.selected_generations();
    if (rows.size() != 1)
      throw InputError(std::string(o.has_trace ? "--trace" : "--point") + ": this scenario sweeps " +
                       std::to_string(rows.size()) +
                       " chip generations; select one with --set sweep.generations=RATE, or name a point by its ID "
                       "(--list-points)");
    r.p = r.p.for_generation(rows[0]);
  }
  r.p.set("sweep.schemes", lower_name(r.one.scheme));
}

// Refuses a single-chip run whose every scheme is infeasible; keeps the
// feasible ones in sweep.schemes and the others in r.infeasible.
void check_schemes(SingleRun& r) {
  r.p.validate();
  if (!r.p.generations.empty()) return;
  r.infeasible = r.p.infeasible();
  std::string feasible;
  for (const auto& sch : r.p.schemes)
    if (std::none_of(r.infeasible.begin(), r.infeasible.end(), [&](const auto& x) { return x.first == sch; }))
      feasible += (feasible.empty() ? "" : ",") + sch;
  r.p.set("sweep.schemes", feasible);
}

// Everything is checked before the first point starts. Returns an exit
// status when the command ends here (--list), else nullopt; throws on bad
// input.
std::optional<int> check_single_run(const SimOptions& o, SingleRun& r) {
  const std::string& scenario = o.scenario;
  r.out_dir = o.out_dir;
  r.point_id = o.has_point && o.point.find('=') != std::string::npos;  // an ID, not SCHEME:BURST
  r.single = (o.has_point && !r.point_id) || o.has_trace;
  if (o.has_pcap && (!o.has_point || r.point_id))
    throw InputError("--pcap: captures one point: give --point SCHEME:BURST_PCT (e.g. --point dsh:30)");
  if (!scenario.empty()) r.p.load_toml(scenario);
  for (size_t i = 0; i < o.sets.size(); ++i) r.p.set(o.sets[i].first, o.sets[i].second, o.set_origins[i]);
  if (r.p.kind == Kind::Saturate && (o.list_points || r.point_id || !o.merge_dir.empty()))
    throw InputError("scenario.kind = saturate has no point list (one point per scheme): run it whole");
  if (r.single) select_one_point(o, r);
  check_schemes(r);
  net::capture_ports(*star_topology(r.p), r.p.wire.capture_links);  // capture.links names links of this switch
  if (o.list_points) return std::nullopt;  // the sweep lists its points
  if (r.point_id) {
    const auto pts = grid_points(r.p, sweep_chips(r.p, r.infeasible));
    if (std::none_of(pts.begin(), pts.end(), [&](const SweepPoint& x) { return x.id == o.point; }))
      throw InputError("--point = " + dsh::quoted(o.point) + ": not a point of this sweep (" +
                       (scenario.empty() ? std::string("dsh-sim") : "dsh-sim " + scenario) +
                       " --list-points lists them, with the same --set options)");
    if (r.out_dir.empty() && !o.has_out) r.out_dir = "out/" + r.p.name + "/points";
  }
  if (o.list) {
    std::printf("%s", r.p.dump().c_str());
    return kExitOk;
  }
  if (r.out_dir.empty()) r.out_dir = "out/" + r.p.name;
  check_output_dir_usable("-o", r.out_dir);  // created when the run writes: a refused run leaves nothing
  for (const char* f : {"sweep.csv", "sweep.partial.csv", "summary.txt", "summary.json", "sweep.png", "saturate.csv"})
    if (!scenario.empty() && same_file(r.out_dir + "/" + f, scenario))
      throw InputError("-o = " + r.out_dir + ": its " + f + " is the scenario file " + scenario + "; it would be overwritten");
  if (o.has_pcap) check_output_file("--pcap", o.pcap, {scenario});
  if (r.single || r.p.kind == Kind::Saturate) check_output_dir("-o", r.out_dir);  // the run writes into it at once
  return std::nullopt;
}

int point_failed(const PointResult& r) {
  std::fprintf(stderr, "dsh-sim: point %s %.2f%% failed:\n%s\n", to_string(r.spec.scheme), r.spec.burst_pct,
               r.error.c_str());
  return r.m.mismatch ? kExitCheckFailed : kExitToolFailed;
}

int stopped(const std::string& kept) {
  std::fprintf(stderr, "dsh-sim: interrupted: the running points were stopped; %s\n", kept.c_str());
  return pool_interrupted_status();
}

std::string lossy_note(const Params& p) {
  return p.lossy() ? "LOSSY by configuration: chip.headroom_cells = " + std::to_string(p.mmu.headroom_cells) +
                         " is below the link's need of " + std::to_string(p.link_headroom_cells()) +
                         " cells (run.allow_lossy); drops are results, not failures"
                   : "";
}

// One point SCHEME:BURST, optionally traced or captured, printed only.
int run_single_point(const SingleRun& r, const SimOptions& o) {
  const Params& p = r.p;
  PointSpec s = r.one;
  s.out_dir = r.out_dir;
  s.pcap = o.pcap;
  if (!o.trace.empty()) {
    char stem[64];
    std::snprintf(stem, sizeof stem, "/trace_%s_%g", lower_name(s.scheme), s.burst_pct);
    s.trace_stem = r.out_dir + stem;
  }
  const PointResult res = run_point_isolated(p, s);
  if (interrupted()) return stopped("nothing written");
  if (!res.ok()) return point_failed(res);
  print_point(stdout, res.m);
  if (!res.note.empty()) std::printf("%s\n", res.note.c_str());
  if (p.lossy()) std::printf("%s\n", lossy_note(p).c_str());
  const std::string fault = stimulus_fault(p, res.m);
  if (!fault.empty()) {
    std::fprintf(stderr, "dsh-sim: invalid point %s %.2f%%: %s\n", lower_name(s.scheme), s.burst_pct, fault.c_str());
    return kExitInvalidExperiment;
  }
  return res.m.drops && !p.lossy() ? kExitCheckFailed : kExitOk;
}

// saturate: one point per scheme, each scheme's peak headroom against eta.
// Done points go to saturate.partial.csv as they finish; saturate.csv is
// written under a temporary name and renamed at the end.
int run_saturate(const SingleRun& r) {
  const Params& p = r.p;
  std::vector<std::pair<Metrics, std::string>> rows;  // every point that ran, with its status
  const std::string partial_path = r.out_dir + "/saturate.partial.csv";
  std::ofstream partial(partial_path, std::ios::trunc);
  if (!partial) {
    std::fprintf(stderr, "dsh-sim: error: cannot write %s\n", partial_path.c_str());
    return kExitToolFailed;
  }
  partial << csv_header() << "\n" << std::flush;
  auto partial_kept = [&]() {
    partial.close();
    if (rows.empty()) {
      std::remove(partial_path.c_str());
      return std::string("no point had finished; nothing kept");
    }
    return std::to_string(rows.size()) + " finished points kept in " + partial_path +
           "; no complete sweep, summary or plot written";
  };
  std::vector<PointSpec> todo;
  for (const auto& sch : p.schemes) {
    PointSpec s;
    s.scheme = scheme_from_string(sch);
    s.out_dir = r.out_dir;
    todo.push_back(s);
  }
  size_t next_i = 0;
  PointResult bad;
  const bool ok = run_points(
      p, p.jobs, [&]() -> std::optional<PointSpec> { return next_i < todo.size() ? std::optional(todo[next_i++]) : std::nullopt; },
      [&](const PointResult& res) {
        if (!res.ok()) {
          bad = res;
          return;
        }
        rows.emplace_back(res.m, p.lossy() ? "lossy" : "ok");
        partial << csv_row(res.m, rows.back().second) << "\n" << std::flush;
        print_point(stdout, res.m);
      });
  if (interrupted()) return stopped(partial_kept());
  if (!ok) {
    std::fprintf(stderr, "dsh-sim: %s\n", partial_kept().c_str());
    return point_failed(bad);
  }
  try {
    std::ostringstream csv;
    csv << csv_header() << "\n";
    for (const auto& [m, st] : rows) csv << csv_row(m, st) << "\n";
    write_file_atomically(r.out_dir + "/saturate.csv", csv.str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dsh-sim: error: %s\n", e.what());
    return kExitToolFailed;
  }
  partial.close();
  std::remove(partial_path.c_str());
  const uint64_t eta = p.headroom_cells();
  bool clean = true;
  for (const auto& [m, st] : rows) {
    const uint64_t peak = Scheme(m.scheme) == Scheme::DSH ? m.peak_port_hdrm_cells : m.peak_queue_hdrm_cells;
    std::printf("%s: peak %s %llu of eta %llu cells, drops %llu -> %s\n", lower_name(Scheme(m.scheme)),
                Scheme(m.scheme) == Scheme::DSH ? "insurance (per port)" : "headroom (per queue)",
                (unsigned long long)peak, (unsigned long long)eta, (unsigned long long)m.drops,
                m.drops == 0 && peak <= eta ? "lossless" : "LOSS");
    clean &= m.drops == 0 && peak <= eta;
  }
  if (p.lossy()) std::printf("%s\n", lossy_note(p).c_str());
  for (const auto& [sch, why] : r.infeasible) std::printf("%s infeasible: %s\n", sch.c_str(), why.c_str());
  return clean || p.lossy() ? kExitOk : kExitCheckFailed;
}

// The run's line on stderr: the chip (or generations), jobs and output.
void announce(const SingleRun& r) {
  const Params& p = r.p;
  if (p.generations.empty())
    std::fprintf(stderr, "dsh-sim: %s, backend %s, eta %llu cells, B_s dsh %lld / sih %lld cells, %u jobs, output %s\n",
                 p.name.c_str(), to_string(p.backend), (unsigned long long)p.headroom_cells(),
                 (long long)p.mmu_config(Scheme::DSH).shared_cells(), (long long)p.mmu_config(Scheme::SIH).shared_cells(),
                 p.jobs, r.out_dir.c_str());
  else
    std::fprintf(stderr, "dsh-sim: %s, backend %s, %zu chip generations, %u jobs, output %s\n", p.name.c_str(),
                 to_string(p.backend), p.selected_generations().size(), p.jobs, r.out_dir.c_str());
  if (p.lossy()) std::fprintf(stderr, "dsh-sim: %s\n", lossy_note(p).c_str());
  for (const auto& [sch, why] : r.infeasible)
    std::fprintf(stderr, "dsh-sim: %s is infeasible on this chip, its points are not run: %s\n", sch.c_str(), why.c_str());
}

// pfc-avoidance: the sweep's points on the harness (sweep.h): the list,
// one point by its ID, or the sweep run or merged.
int run_pfc_sweep(const SingleRun& r, const SimOptions& o) {
  SweepOptions so;
  so.out_dir = r.out_dir;
  so.point = r.point_id ? o.point : "";
  so.merge_dir = o.merge_dir;
  so.list_points = o.list_points;
  so.rerun = o.rerun;
  so.reproducible = o.reproducible;
  so.plot = !o.no_plot;
  so.plot_script = o.plot_script;  // "": the shipped one, found when plotting (resources.h)
  so.link_plot_script = o.link_plot_script;
  so.python = o.python.empty() ? DSH_PYTHON : o.python;
  return exit_status_of([&] { return run_sweep(r.p, r.infeasible, so); });
}

}  // namespace

int run_single_switch(const SimOptions& o) {
  SingleRun r;
  try {
    if (const auto done = check_single_run(o, r)) return *done;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dsh-sim: error: %s\n", e.what());
    if (std::string(e.what()).find("no RTL model") != std::string::npos)
      std::fprintf(stderr, "dsh-sim: the golden model runs any chip: --backend golden\n");
    return kExitBadInput;
  }
  install_interrupt_cleanup("dsh-sim", "no complete output written");  // the pool has its own while points run
  if (o.list_points || r.point_id) return run_pfc_sweep(r, o);
  announce(r);
  if (r.single) {
    try {
      if (o.has_pcap) make_output_dirs(std::filesystem::path(o.pcap).parent_path().string(), "--pcap = " + o.pcap);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "dsh-sim: error: %s\n", e.what());
      return kExitToolFailed;
    }
    return run_single_point(r, o);
  }
  if (r.p.kind == Kind::Saturate) return run_saturate(r);
  return run_pfc_sweep(r, o);
}

}  // namespace dsh::sc
