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

#include <cstdio>
#include <cstdlib>

#include "cli_common.h"
#include "scenarios.h"
#include "sim_options.h"

using namespace dsh;
using namespace dsh::sc;

namespace {

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

// The options that become keys (--set, -b, -j, --allow-lossy) and --keys's format.
struct KeyOptions {
  std::vector<std::string> sets;
  std::string backend, jobs, keys_format;
  bool allow_lossy = false;
};

void add_options(CLI::App& app, SimOptions& o, KeyOptions& x) {
  app.add_option("scenario", o.scenario,
                 "scenario file (TOML); its [scenario] kind chooses the runner; default: the built-in S1 = "
                 "scenarios/pfc-avoidance.toml");
  app.add_option("--set", x.sets,
                 "override a scenario key: --set section.key=value (or key=value when the name is unique; "
                 "chip.<SWITCH>.<field> for one switch of a network); lists comma separated, host ranges a..b, number "
                 "ranges lo:hi:step. Repeatable, once per key.")
      ->allow_extra_args(false);
  app.add_option("-b,--backend", x.backend, "MMU backend golden | rtl | lockstep (= --set run.backend=...)");
  app.add_option("-j,--jobs", x.jobs, "points in parallel, 1..256 (= --set run.jobs=...)");
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
  app.add_flag("--full", o.full,
               "deadlock, benchmark: the paper's scale (deadlock.full_* keys: 100 seeds x 100 ms; bench.full_* keys: "
               "seeds, loads, workloads and the window)");
  app.add_option("--plot-script", o.plot_script, "plot script (default: the scenario's own)");
  app.add_option("--link-plot-script", o.link_plot_script, "single switch: plot script of a generation sweep");
  app.add_option("--python", o.python, "python3 with matplotlib for the plot (default " DSH_PYTHON ")");
  app.add_flag("--no-plot", o.no_plot, "skip the PNG");
  app.add_flag("--allow-lossy", x.allow_lossy,
               "single switch: run a chip.headroom_cells below what the link needs, labelled lossy (= --set "
               "run.allow_lossy=true)");
  app.add_flag("--list", o.list, "print every key with its value after file and overrides, then exit");
  app.add_option("--keys", x.keys_format,
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
}

// The options as SimOptions, checked against each other; throws InputError.
void take_options(const CLI::App& app, const KeyOptions& x, SimOptions& o) {
  o.has_out = app.count("-o") != 0;
  o.has_point = app.count("--point") != 0;
  o.has_trace = app.count("--trace") != 0;
  o.has_pcap = app.count("--pcap") != 0;
  o.has_merge = app.count("--merge") != 0;
  o.keys = app.count("--keys") != 0;
  for (const auto& s : x.sets) {
    const auto eq = s.find('=');
    if (eq == std::string::npos) throw InputError("--set " + quoted(s) + ": expected key=value");
    const std::string key = s.substr(0, eq);
    if (key == "scenario.kind" || key == "kind")
      throw InputError("--set " + quoted(s) + ": the scenario file's [scenario] kind chooses the scenario; --set "
                       "cannot change it (give another file)");
    o.sets.emplace_back(s.substr(0, eq), s.substr(eq + 1));
    o.set_origins.push_back("--set");
  }
  if (app.count("-b")) o.sets.emplace_back("run.backend", x.backend), o.set_origins.push_back("-b");
  if (app.count("-j")) o.sets.emplace_back("run.jobs", x.jobs), o.set_origins.push_back("-j");
  if (x.allow_lossy) o.sets.emplace_back("run.allow_lossy", "true"), o.set_origins.push_back("--allow-lossy");
  if (o.has_point && o.has_trace) throw InputError("--point and --trace: give one of them");
  if (o.list + o.keys + o.list_points + o.has_merge + o.has_point + o.has_trace > 1)
    throw InputError("--list, --keys, --list-points, --merge, --point and --trace: give one of them");
  if (o.has_merge && o.merge_dir.empty()) throw InputError("--merge = '': expected a directory of point files");
  if (o.has_merge && o.rerun) throw InputError("--merge and --rerun: a merge reads the points, give one of them");
  if (o.has_point && o.point.empty()) throw InputError("--point = '': expected a point ID (--list-points)");
  if (o.has_out && o.out_dir.empty())
    throw InputError("-o = '': expected a directory name (without -o: out/<scenario.name>)");
}

}  // namespace

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  CLI::App app{"dsh-sim: scenarios of the switch model (golden, RTL or lockstep MMU): the single switch (S1, S4) and "
               "networks (S2, S3)"};
  SimOptions o;
  KeyOptions x;
  add_options(app, o, x);
  const int parsed = parse_command_line(app, argc, argv, "dsh-sim");
  if (parsed >= 0) return parsed;
  const ScenarioKind* kind = nullptr;
  try {
    take_options(app, x, o);
    kind = &scenario_kind_of(o.scenario);
    if (o.full && !kind->takes_full)
      throw InputError("--full: the " + full_scale_kinds() + " scenarios' option; this scenario is " + kind->name);
    if (o.keys) {
      const KeyStore k = kind->keys();
      std::printf("%s", x.keys_format == "json" ? keys_json(k).c_str() : k.help().c_str());
      return kExitOk;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dsh-sim: error: %s\n", e.what());
    return kExitBadInput;
  }
  return kind->run(o, *kind);
}
