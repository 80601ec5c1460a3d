#include "net_main.h"

#include <CLI/CLI.hpp>
#include <toml++/toml.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "cli_common.h"
#include "collateral.h"
#include "deadlock.h"
#include "net_points.h"
#include "net_setup.h"

namespace dsh::net {

namespace {

// The [scenario] kind of a TOML file, "" when it has none or does not parse
// (dsh-sim's own runner then reports the file).
std::string kind_of(const std::string& path) {
  std::ifstream in(path);
  if (!in) return "";
  std::stringstream s;
  s << in.rdbuf();
  try {
    const toml::table t = toml::parse(s.str(), path);
    if (auto k = t["scenario"]["kind"].value<std::string>()) return *k;
  } catch (...) {
  }
  return "";
}

bool is_net_kind(const std::string& k) { return k == "collateral-damage" || k == "deadlock"; }

}  // namespace

int dispatch(int argc, char** argv) {
  std::string kind;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.size() > 5 && a.compare(a.size() - 5, 5, ".toml") == 0 && (i == 1 || std::string(argv[i - 1]) != "--set")) {
      kind = kind_of(a);
      break;
    }
  }
  if (!is_net_kind(kind)) return kNotNetScenario;

  CLI::App app{"dsh-sim (network scenarios): switches and hosts with golden, RTL or lockstep MMUs per switch"};
  std::string scenario, out_dir, backend, python = DSH_PYTHON, plot_script = DSH_PLOT_NET_SCRIPT, jobs;
  std::vector<std::string> sets;
  bool list = false, no_plot = false, full = false, reproducible = false;
  NetSweepOptions so;
  app.add_option("scenario", scenario, "scenario file (TOML) of kind collateral-damage or deadlock")->required();
  app.add_option("--set", sets, "override a key: --set section.key=value (chip.<SWITCH>.<field> per switch). Repeatable.")
      ->allow_extra_args(false);
  app.add_option("-b,--backend", backend, "MMU of the switches in net.rtl_switches (= --set run.backend=...)");
  app.add_option("-o,--out", out_dir, "output directory (default out/<scenario.name>)");
  app.add_option("--python", python, "python3 with matplotlib for the plot");
  app.add_option("--plot-script", plot_script, "plot script");
  app.add_flag("--no-plot", no_plot, "skip the PNG");
  app.add_flag("--full", full, "deadlock: the paper's scale (deadlock.full_* keys: 100 seeds x 100 ms)");
  app.add_flag("--list", list, "print every key with its value after file and overrides, then exit");
  app.add_option("-j,--jobs", jobs,
                 "deadlock: runs in parallel, 1..256 (= --set run.jobs=...); collateral-damage runs its points in turn "
                 "and accepts -j for scripts that pass it to every scenario (scripts/sweep-slurm.sh)");
  app.add_flag("--list-points", so.list_points,
               "print the IDs of the run's points (S2: scheme x cc; S3: scheme x cc x seed), one per line, then exit");
  app.add_option("--point", so.point,
                 "run one point (an ID from --list-points, with the same --set and --full options) into <-o>/<ID>.json "
                 "(default -o out/<scenario.name>/points); skipped when a valid result is there, unless --rerun");
  app.add_option("--merge", so.merge_dir,
                 "build the outputs in -o from the point results in DIR and its subdirectories; refuses missing, "
                 "duplicate and foreign points, writing nothing");
  app.add_flag("--rerun", so.rerun, "run points again even when a valid result file is there");
  app.add_flag("--reproducible", reproducible,
               "leave CPU and wall-clock figures out of the outputs, so that the same points give byte-identical files");
  KeyStore k;
  if (kind == "collateral-damage") declare_collateral_keys(k);
  else declare_deadlock_keys(k);
  app.footer("\nScenario keys (" + kind + "):\n" + k.help() +
             "\nOutputs in -o: the CSV, summary.json, summary.txt and the PNG; points/<ID>.json, one result file per "
             "point (a default run that is repeated skips the points whose file is valid).\n"
             "\nExit status: 0 done, 1 lossless drops, an error or a lockstep mismatch, 2 bad input, "
             "4 the stimulus did not happen as described.\n");
  const int parsed = parse_command_line(app, argc, argv, "dsh-sim");
  if (parsed >= 0) return parsed;
  try {
    k.load_toml(scenario);
    for (const auto& s : sets) {
      const auto eq = s.find('=');
      if (eq == std::string::npos) throw ConfigError("--set " + quoted(s) + ": expected key=value");
      k.set(s.substr(0, eq), s.substr(eq + 1), "--set");
    }
    if (app.count("-b")) k.set("run.backend", backend, "-b");
    if (app.count("-j")) k.set("run.jobs", jobs, "-j");
    if (so.list_points + !so.merge_dir.empty() + app.count("--point") + list > 1)
      throw InputError("--list, --list-points, --merge and --point: give one of them");
    if (app.count("--merge") && so.merge_dir.empty()) throw InputError("--merge = '': expected a directory of point files");
    if (app.count("--merge") && so.rerun) throw InputError("--merge and --rerun: a merge reads the points, give one of them");
    if (app.count("--point") && so.point.empty()) throw InputError("--point = '': expected a point ID (--list-points)");
    NetSetup probe = build_setup(k);  // refuses bad keys before any run
    for (const auto& sch : probe.schemes)
      for (const auto& cc : probe.ccs) configure_run(probe, k, sch == "dsh" ? Scheme::DSH : Scheme::SIH, cc);
    if (kind == "collateral-damage") validate_collateral(k, probe);
    else validate_deadlock(k, probe);
    if (list) {
      std::printf("%s", k.dump().c_str());
      return kExitOk;
    }
    if (so.list_points) out_dir = ".";  // nothing is written
    if (out_dir.empty()) out_dir = "out/" + k.text("scenario.name") + (so.point.empty() ? "" : "/points");
    if (!so.list_points) check_output_dir("-o", out_dir);
    so.out_dir = out_dir;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dsh-sim: error: %s\n", e.what());
    return kExitBadInput;
  }
  try {
    if (kind == "collateral-damage") return collateral_main(k, so, !no_plot, python, plot_script, reproducible);
    return deadlock_main(k, so, !no_plot, python, plot_script, full, reproducible);
  } catch (const ConfigError& e) {
    std::fprintf(stderr, "dsh-sim: error: %s\n", e.what());
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dsh-sim: error: %s\n", e.what());
    return kExitToolFailed;
  }
}

}  // namespace dsh::net
