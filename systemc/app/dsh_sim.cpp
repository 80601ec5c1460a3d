// SPDX-License-Identifier: Apache-2.0
// dsh-sim: runs a scenario of the switch model. The command line is parsed
// once here; the scenario file's [scenario] kind chooses the runner: the
// single switch below, or the network (net_main.cpp).
//
//   dsh-sim scenarios/pfc-avoidance.toml                 # S1 sweep, both schemes, lockstep MMU
//   dsh-sim scenarios/pfc-avoidance.toml --set burst_pct=10,20 --set chip.alpha_log2=-3
//   dsh-sim scenarios/pfc-avoidance.toml --trace dsh:30  # one point with an FST trace
//   dsh-sim scenarios/link-speeds.toml --list-points     # the sweep's point IDs (systemc/single_switch/points.h)
//   dsh-sim scenarios/link-speeds.toml --point ID -o DIR # one point into DIR/ID.json
//   dsh-sim scenarios/link-speeds.toml --merge DIR -o OUT
//
// Each point runs in its own process (a SystemC kernel runs once per
// process); run.jobs of them at a time.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

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
#include "scenarios.h"
#include "sim_options.h"
#include "switch_keys.h"
#include "sim.h"
#include "sweep.h"

using namespace dsh;
using namespace dsh::sc;

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

// --keys json: the registry as the bad-input table test reads it.
std::string keys_json(const KeyStore& k) {
  static const char* kTypes[] = {"text", "uint", "int", "real", "bool", "choice", "list"};
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (const auto& name : k.keys()) {
    const Key& d = k.decl(name);
    nlohmann::ordered_json j;
    j["name"] = name;
    j["type"] = kTypes[int(d.type)];
    if (d.type == KeyType::Uint || d.type == KeyType::Int || d.type == KeyType::Real) {
      j["lo"] = d.lo;
      j["hi"] = d.hi;
      j["lo_open"] = d.lo_open;
    }
    j["choices"] = d.choices;
    j["checked"] = bool(d.check);
    j["default"] = d.def;
    j["help"] = d.help;
    a.push_back(j);
  }
  return a.dump(1) + "\n";
}

}  // namespace

// The single-switch scenarios (pfc-avoidance, saturate).
int dsh::sc::run_single_switch(const SimOptions& o) {
  std::string out_dir = o.out_dir;
  const std::string& point = o.point;
  const std::string& trace = o.trace;
  const std::string& merge_dir = o.merge_dir;
  const bool list_points = o.list_points, rerun = o.rerun, reproducible = o.reproducible, list = o.list;
  const std::string& scenario = o.scenario;
  // Everything is checked before the first point starts (exit 2).
  Params p;
  PointSpec one;
  const bool point_id = o.has_point && point.find('=') != std::string::npos;  // an ID, not SCHEME:BURST
  const bool single = (o.has_point && !point_id) || o.has_trace;
  std::vector<std::pair<std::string, std::string>> infeasible;
  SweepPoint the_point;  // --point ID
  try {
    if (o.has_pcap && (!o.has_point || point_id))
      throw InputError("--pcap: captures one point: give --point SCHEME:BURST_PCT (e.g. --point dsh:30)");
    if (!scenario.empty()) p.load_toml(scenario);
    for (size_t i = 0; i < o.sets.size(); ++i) p.set(o.sets[i].first, o.sets[i].second, o.set_origins[i]);
    if (p.kind == Kind::Saturate && (list_points || point_id || !merge_dir.empty()))
      throw InputError("scenario.kind = saturate has no point list (one point per scheme): run it whole");
    if (single) {
      one = o.has_trace ? parse_point("--trace", trace) : parse_point("--point", point);
      if (!p.generations.empty()) {  // SCHEME:BURST names a point of one chip
        const auto rows = p.selected_generations();
        if (rows.size() != 1)
          throw InputError(std::string(o.has_trace ? "--trace" : "--point") +
                           ": this scenario sweeps " + std::to_string(rows.size()) +
                           " chip generations; select one with --set sweep.generations=RATE, or name a point by its ID "
                           "(--list-points)");
        p = p.for_generation(rows[0]);
      }
      p.set("sweep.schemes", lower_name(one.scheme));
    }
    p.validate();  // refuses a single-chip run whose every scheme is infeasible
    if (p.generations.empty()) {
      infeasible = p.infeasible();
      std::string feasible;
      for (const auto& sch : p.schemes)
        if (std::none_of(infeasible.begin(), infeasible.end(), [&](const auto& x) { return x.first == sch; }))
          feasible += (feasible.empty() ? "" : ",") + sch;
      p.set("sweep.schemes", feasible);
    }
    if (list_points || point_id) {
      const auto chips = sweep_chips(p, infeasible);
      const auto pts = grid_points(p, chips);
      if (list_points) {
        for (const auto& pt : pts) std::printf("%s\n", pt.id.c_str());
        return kExitOk;
      }
      auto hit = std::find_if(pts.begin(), pts.end(), [&](const SweepPoint& x) { return x.id == point; });
      if (hit == pts.end())
        throw InputError("--point = " + dsh::quoted(point) + ": not a point of this sweep (" +
                         (scenario.empty() ? std::string("dsh-sim") : "dsh-sim " + scenario) +
                         " --list-points lists them, with the same --set options)");
      the_point = *hit;
      if (out_dir.empty() && !o.has_out) out_dir = "out/" + p.name + "/points";
    }
    if (list) {
      std::printf("%s", p.dump().c_str());
      return kExitOk;
    }
    if (out_dir.empty()) out_dir = "out/" + p.name;
    check_output_dir_usable("-o", out_dir);  // created when the run writes: a refused run leaves nothing
    for (const char* f : {"sweep.csv", "sweep.partial.csv", "summary.txt", "summary.json", "sweep.png", "saturate.csv"})
      if (!scenario.empty() && same_file(out_dir + "/" + f, scenario))
        throw InputError("-o = " + out_dir + ": its " + f + " is the scenario file " + scenario + "; it would be overwritten");
    if (single || p.kind == Kind::Saturate) check_output_dir("-o", out_dir);  // the run writes into it at once
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dsh-sim: error: %s\n", e.what());
    if (std::string(e.what()).find("no RTL model") != std::string::npos)
      std::fprintf(stderr, "dsh-sim: the golden model runs any chip: --backend golden\n");
    return kExitBadInput;
  }
  install_interrupt_cleanup("dsh-sim", "no complete output written");  // run_points has its own while points run

  // One point of a sweep by its ID: its result file, or the one already there.
  if (point_id) {
    const Params& cp = *the_point.spec.params;
    const std::string path = out_dir + "/" + the_point.id + ".json";
    Metrics m;
    bool have = false;
    if (!rerun) {
      try {
        const PointFile f = read_point_file(path);
        have = f.id == the_point.id && params_difference(f, cp).empty();
        m = f.m;
      } catch (const std::exception&) {
      }
    }
    if (have) {
      std::fprintf(stderr, "dsh-sim: point %s already done (%s), skipped; --rerun runs it again\n", the_point.id.c_str(),
                   path.c_str());
    } else {
      PointSpec s = the_point.spec;
      s.out_dir = out_dir;
      const PointResult r = run_point_isolated(cp, s);
      if (interrupted()) {
        std::fprintf(stderr, "dsh-sim: interrupted: nothing written\n");
        return pool_interrupted_status();
      }
      if (!r.ok()) {
        std::fprintf(stderr, "dsh-sim: point %s failed:\n%s\n", the_point.id.c_str(), r.error.c_str());
        return r.m.mismatch ? kExitCheckFailed : kExitToolFailed;
      }
      m = r.m;
      try {
        write_file_atomically(path, point_file_text(the_point.id, cp, m));
      } catch (const std::exception& e) {
        std::fprintf(stderr, "dsh-sim: error: %s\n", e.what());
        return kExitToolFailed;
      }
      std::printf("%s\n", the_point.id.c_str());
      print_point(stdout, m);
      std::printf("wrote %s\n", path.c_str());
    }
    const std::string fault = stimulus_fault(cp, m);
    if (!fault.empty()) {
      std::fprintf(stderr, "dsh-sim: invalid point %s: %s\n", the_point.id.c_str(), fault.c_str());
      return kExitInvalidExperiment;
    }
    return m.drops && !cp.lossy() ? kExitCheckFailed : kExitOk;
  }
  const bool lossy = p.lossy();
  const std::string status_ok = lossy ? "lossy" : "ok";
  if (p.generations.empty())
    std::fprintf(stderr, "dsh-sim: %s, backend %s, eta %llu cells, B_s dsh %lld / sih %lld cells, %u jobs, output %s\n",
                 p.name.c_str(), to_string(p.backend), (unsigned long long)p.headroom_cells(),
                 (long long)p.mmu_config(Scheme::DSH).shared_cells(), (long long)p.mmu_config(Scheme::SIH).shared_cells(),
                 p.jobs, out_dir.c_str());
  else
    std::fprintf(stderr, "dsh-sim: %s, backend %s, %zu chip generations, %u jobs, output %s\n", p.name.c_str(),
                 to_string(p.backend), p.selected_generations().size(), p.jobs, out_dir.c_str());
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
    return pool_interrupted_status();
  };

  // One point, optionally traced.
  if (single) {
    PointSpec s = one;
    s.out_dir = out_dir;
    s.pcap = o.pcap;
    if (!trace.empty()) {
      char stem[64];
      std::snprintf(stem, sizeof stem, "/trace_%s_%g", lower_name(s.scheme), s.burst_pct);
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
      std::fprintf(stderr, "dsh-sim: invalid point %s %.2f%%: %s\n", lower_name(s.scheme), s.burst_pct,
                   fault.c_str());
      return kExitInvalidExperiment;
    }
    return r.m.drops && !lossy ? kExitCheckFailed : kExitOk;
  }

  // pfc-avoidance: the sweep's points (systemc/single_switch/sweep.h).
  if (p.kind == Kind::PfcAvoidance) {
    SweepOptions so;
    so.out_dir = out_dir;
    so.points_dir = merge_dir.empty() ? out_dir + "/points" : merge_dir;
    so.merge = !merge_dir.empty();
    so.rerun = rerun;
    so.reproducible = reproducible;
    so.plot = !o.no_plot;
    so.plot_script = o.plot_script;  // "": the shipped one, found when plotting (resources.h)
    so.link_plot_script = o.link_plot_script;
    so.python = o.python.empty() ? DSH_PYTHON : o.python;
    return run_sweep(p, infeasible, so);
  }

  // saturate: one point per scheme.
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
      std::snprintf(b, sizeof b, "%s %.4g%%", lower_name(Scheme(m.scheme)), m.burst_pct);
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

  {
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
      std::printf("%s: peak %s %llu of eta %llu cells, drops %llu -> %s\n", lower_name(Scheme(m.scheme)),
                  Scheme(m.scheme) == Scheme::DSH ? "insurance (per port)" : "headroom (per queue)",
                  (unsigned long long)peak, (unsigned long long)eta, (unsigned long long)m.drops,
                  m.drops == 0 && peak <= eta ? "lossless" : "LOSS");
      clean &= m.drops == 0 && peak <= eta;
    }
    if (lossy) std::printf("%s\n", lossy_note.c_str());
    for (const auto& [sch, why] : infeasible) std::printf("%s infeasible: %s\n", sch.c_str(), why.c_str());
    return clean || lossy ? kExitOk : kExitCheckFailed;
  }

}


int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  CLI::App app{"dsh-sim: scenarios of the switch model (golden, RTL or lockstep MMU): the single switch (S1, S4) and "
               "networks (S2, S3)"};
  SimOptions o;
  std::vector<std::string> sets;
  std::string backend, jobs;
  bool allow_lossy = false;
  app.add_option("scenario", o.scenario,
                 "scenario file (TOML); its [scenario] kind chooses the runner; default: the built-in S1 = "
                 "scenarios/pfc-avoidance.toml");
  app.add_option("--set", sets,
                 "override a scenario key: --set section.key=value (or key=value when the name is unique; "
                 "chip.<SWITCH>.<field> for one switch of a network); lists comma separated, host ranges a..b, number "
                 "ranges lo:hi:step. Repeatable, once per key.")
      ->allow_extra_args(false);
  app.add_option("-b,--backend", backend, "MMU backend golden | rtl | lockstep (= --set run.backend=...)");
  app.add_option("-j,--jobs", jobs, "points in parallel, 1..256 (= --set run.jobs=...)");
  app.add_option("-o,--out", o.out_dir, "output directory (default out/<scenario.name>)");
  app.add_option("--point", o.point,
                 "run one point: an ID from --list-points, its result into <-o>/<ID>.json (default -o "
                 "out/<scenario.name>/points; skipped when a valid result is there, unless --rerun); single switch: "
                 "also SCHEME:BURST_PCT, printed only");
  app.add_flag("--list-points", o.list_points, "print the IDs of the run's points, one per line, then exit");
  app.add_option("--merge", o.merge_dir,
                 "build the outputs in -o from the point results in DIR (and its subdirectories); refuses missing, "
                 "duplicate and foreign points, writing nothing; a single-switch sweep runs the bisection steps not "
                 "there yet");
  app.add_flag("--rerun", o.rerun, "run points again even when a valid result file is there");
  app.add_flag("--reproducible", o.reproducible,
               "leave wall-clock and CPU figures out of the outputs, so that the same points give byte-identical files");
  app.add_option("--trace", o.trace,
                 "single switch: run one point SCHEME:BURST_PCT with an FST trace, a .gtkw and the MMU's stimulus vectors "
                 "(.stim.csv, for dsh-replay) in the output directory");
  app.add_option("--pcap", o.pcap,
                 "one point (single switch: --point SCHEME:BURST_PCT; network: --point ID): every frame on the links of "
                 "capture.links (A-B by node names; empty: all) into this pcap file (Wireshark, tshark), the MMU events "
                 "and frame records beside it in FILE.csv");
  app.add_flag("--full", o.full, "deadlock, benchmark: the paper's scale (deadlock.full_* keys: 100 seeds x 100 ms; bench.full_* keys)");
  app.add_option("--plot-script", o.plot_script, "plot script (default: the scenario's own)");
  app.add_option("--link-plot-script", o.link_plot_script, "single switch: plot script of a generation sweep");
  app.add_option("--python", o.python, "python3 with matplotlib for the plot (default " DSH_PYTHON ")");
  app.add_flag("--no-plot", o.no_plot, "skip the PNG");
  app.add_flag("--allow-lossy", allow_lossy,
               "single switch: run a chip.headroom_cells below what the link needs, labelled lossy (= --set "
               "run.allow_lossy=true)");
  app.add_flag("--list", o.list, "print every key with its value after file and overrides, then exit");
  std::string keys_format;
  app.add_option("--keys", keys_format,
                 "print every key of the scenario's kind with its range and default, then exit; --keys json: as JSON "
                 "(name, type, lo, hi, lo_open, choices, default, help)")
      ->expected(0, 1)
      ->check(CLI::IsMember({"", "text", "json"}));
  app.footer(
      "\nScenario kinds (the file's [scenario] kind):\n" + scenario_kinds_help() +
      "\nScenario keys: dsh-sim [SCENARIO] --keys lists the keys of the file's kind with their ranges and "
           "defaults (single switch: [chip] [link] [switch] [traffic] [sweep] [run] [scenario]; networks also [net] "
           "[dcqcn] [deadlock]); the [[generation]] rows of a single-switch file sweep chip generations "
           "(scenarios/link-speeds.toml).\n"
           "\nOutputs in the output directory: the CSV, summary.txt / summary.json and the PNG; points/<ID>.json, one "
           "result file per point (a rerun skips the valid ones); a single-switch sweep keeps sweep.partial.csv "
           "when interrupted.\n"
           "Exit status: 0 done, 1 drops or a lockstep mismatch, 2 bad input (nothing run, nothing written), 3 a "
           "point process failed, 4 invalid experiment (the stimulus did not happen as the scenario describes), 130 "
      "interrupted (Ctrl-C; 143 for SIGTERM).\n");
  const int parsed = parse_command_line(app, argc, argv, "dsh-sim");
  if (parsed >= 0) return parsed;
  const ScenarioKind* kind = nullptr;
  try {
    o.has_out = app.count("-o") != 0;
    o.has_point = app.count("--point") != 0;
    o.has_trace = app.count("--trace") != 0;
    o.has_pcap = app.count("--pcap") != 0;
    o.has_merge = app.count("--merge") != 0;
    o.keys = app.count("--keys") != 0;
    for (const auto& s : sets) {
      const auto eq = s.find('=');
      if (eq == std::string::npos) throw InputError("--set " + quoted(s) + ": expected key=value");
      const std::string key = s.substr(0, eq);
      if (key == "scenario.kind" || key == "kind")
        throw InputError("--set " + quoted(s) + ": the scenario file's [scenario] kind chooses the scenario; --set "
                         "cannot change it (give another file)");
      o.sets.emplace_back(s.substr(0, eq), s.substr(eq + 1));
      o.set_origins.push_back("--set");
    }
    if (app.count("-b")) o.sets.emplace_back("run.backend", backend), o.set_origins.push_back("-b");
    if (app.count("-j")) o.sets.emplace_back("run.jobs", jobs), o.set_origins.push_back("-j");
    if (allow_lossy) o.sets.emplace_back("run.allow_lossy", "true"), o.set_origins.push_back("--allow-lossy");
    if (o.has_point && o.has_trace) throw InputError("--point and --trace: give one of them");
    if (o.list + o.keys + o.list_points + o.has_merge + o.has_point + o.has_trace > 1)
      throw InputError("--list, --keys, --list-points, --merge, --point and --trace: give one of them");
    if (o.has_merge && o.merge_dir.empty()) throw InputError("--merge = '': expected a directory of point files");
    if (o.has_merge && o.rerun) throw InputError("--merge and --rerun: a merge reads the points, give one of them");
    if (o.has_point && o.point.empty()) throw InputError("--point = '': expected a point ID (--list-points)");
    if (o.has_out && o.out_dir.empty())
      throw InputError("-o = '': expected a directory name (without -o: out/<scenario.name>)");
    kind = &scenario_kind_of(o.scenario);
    if (o.full && !kind->takes_full)
      throw InputError("--full: the " + full_scale_kinds() + " scenarios' option; this scenario is " + kind->name);
    if (o.keys) {
      const KeyStore k = kind->keys();
      std::printf("%s", keys_format == "json" ? keys_json(k).c_str() : k.help().c_str());
      return kExitOk;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dsh-sim: error: %s\n", e.what());
    return kExitBadInput;
  }
  return kind->run(o, *kind);
}
