// SPDX-License-Identifier: Apache-2.0
#include "net_main.h"

#include <cstdio>
#include <filesystem>

#include "capture.h"
#include "cli_common.h"
#include "output.h"
#include "net_points.h"
#include "net_setup.h"

namespace dsh::net {

int run_network(const sc::SimOptions& o, const sc::ScenarioKind& entry) {
  KeyStore k = entry.keys();
  const std::string kind = entry.name;
  NetSweepOptions so;
  so.point = o.point;
  so.merge_dir = o.merge_dir;
  so.list_points = o.list_points;
  so.rerun = o.rerun;
  so.plot = !o.no_plot;
  so.full = o.full;
  so.reproducible = o.reproducible;
  so.python = o.python.empty() ? DSH_PYTHON : o.python;
  so.plot_script = o.plot_script;
  std::string out_dir = o.out_dir;
  try {
    if (o.has_trace) throw InputError("--trace: a single-switch option (kind pfc-avoidance); this scenario is " + kind);
    if (o.has_pcap && (so.point.empty() || so.list_points))
      throw InputError("--pcap: captures one point: give --point ID (--list-points lists them)");
    if (!o.link_plot_script.empty()) throw InputError("--link-plot-script: a single-switch generation sweep's option");
    k.load_toml(o.scenario);
    for (size_t i = 0; i < o.sets.size(); ++i) k.set(o.sets[i].first, o.sets[i].second, o.set_origins[i]);
    if (k.text("scenario.name").empty()) k.set("scenario.name", kind);
    NetSetup probe = build_setup(k);  // refuses bad keys before any run
    for (const auto& sch : probe.schemes)
      for (const auto& cc : probe.ccs) configure_run(probe, k, scheme_from_string(sch), cc);
    entry.validate(k, probe);
    capture_ports(*probe.topo, probe.capture_links);  // capture.links names links of this network
    if (o.list) {
      std::printf("%s", k.dump().c_str());
      return kExitOk;
    }
    if (so.list_points) out_dir = ".";  // nothing is written
    if (out_dir.empty()) out_dir = "out/" + k.text("scenario.name") + (so.point.empty() ? "" : "/points");
    if (!so.list_points) check_output_dir_usable("-o", out_dir);  // created when the run writes
    if (o.has_pcap) check_output_file("--pcap", o.pcap, {o.scenario});
    so.out_dir = out_dir;
    set_capture_file(o.pcap);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dsh-sim: error: %s\n", e.what());
    return kExitBadInput;
  }
  return sc::exit_status_of([&] {
    if (o.has_pcap) make_output_dirs(std::filesystem::path(o.pcap).parent_path().string(), "--pcap = " + o.pcap);
    return entry.run_points(k, so);
  });
}

}  // namespace dsh::net
