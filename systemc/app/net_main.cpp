// SPDX-License-Identifier: Apache-2.0
#include "net_main.h"

#include <cstdio>

#include "cli_common.h"
#include "output.h"
#include "collateral.h"
#include "benchmark.h"
#include "deadlock.h"
#include "net_points.h"
#include "net_setup.h"

namespace dsh::net {

KeyStore network_keys(const std::string& kind) {
  KeyStore k;
  if (kind == "collateral-damage") declare_collateral_keys(k);
  else if (kind == "benchmark") declare_benchmark_keys(k);
  else declare_deadlock_keys(k);
  return k;
}

int run_network(const sc::SimOptions& o, const std::string& kind) {
  KeyStore k = network_keys(kind);
  NetSweepOptions so;
  so.point = o.point;
  so.merge_dir = o.merge_dir;
  so.list_points = o.list_points;
  so.rerun = o.rerun;
  const std::string python = o.python.empty() ? DSH_PYTHON : o.python;
  const std::string& plot_script = o.plot_script;  // "": the shipped one, found when plotting (resources.h)
  std::string out_dir = o.out_dir;
  try {
    if (o.has_trace) throw InputError("--trace: a single-switch option (kind pfc-avoidance); this scenario is " + kind);
    if (o.has_pcap && (so.point.empty() || so.list_points))
      throw InputError("--pcap: captures one point: give --point ID (--list-points lists them)");
    if (!o.link_plot_script.empty()) throw InputError("--link-plot-script: a single-switch generation sweep's option");
    if (o.full && kind == "collateral-damage")
      throw InputError("--full: the deadlock and benchmark scenarios' option; this scenario is " + kind);
    k.load_toml(o.scenario);
    for (size_t i = 0; i < o.sets.size(); ++i) k.set(o.sets[i].first, o.sets[i].second, o.set_origins[i]);
    if (k.text("scenario.name").empty()) k.set("scenario.name", kind);
    NetSetup probe = build_setup(k);  // refuses bad keys before any run
    for (const auto& sch : probe.schemes)
      for (const auto& cc : probe.ccs) configure_run(probe, k, sch == "dsh" ? Scheme::DSH : Scheme::SIH, cc);
    if (kind == "collateral-damage") validate_collateral(k, probe);
    else if (kind == "benchmark") validate_benchmark(k, probe);
    else validate_deadlock(k, probe);
    if (o.list) {
      std::printf("%s", k.dump().c_str());
      return kExitOk;
    }
    if (so.list_points) out_dir = ".";  // nothing is written
    if (out_dir.empty()) out_dir = "out/" + k.text("scenario.name") + (so.point.empty() ? "" : "/points");
    if (!so.list_points) check_output_dir_usable("-o", out_dir);  // created when the run writes
    so.out_dir = out_dir;
    set_capture_file(o.pcap);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dsh-sim: error: %s\n", e.what());
    return kExitBadInput;
  }
  try {
    if (kind == "collateral-damage") return collateral_main(k, so, !o.no_plot, python, plot_script, o.reproducible);
    if (kind == "benchmark") return benchmark_main(k, so, !o.no_plot, python, plot_script, o.full, o.reproducible);
    return deadlock_main(k, so, !o.no_plot, python, plot_script, o.full, o.reproducible);
  } catch (const InputError& e) {
    std::fprintf(stderr, "dsh-sim: error: %s\n", e.what());
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dsh-sim: error: %s\n", e.what());
    return kExitToolFailed;
  }
}

}  // namespace dsh::net
