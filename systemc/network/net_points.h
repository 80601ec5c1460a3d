// SPDX-License-Identifier: Apache-2.0
// The network scenarios as sweeps of points (the single switch's machinery):
// a point of S2 is (scheme, cc), a point of S3 is (scheme, cc, load, seed),
// each with an ID (collateral-damage,scheme=dsh,cc=none;
// deadlock,scheme=sih,cc=dcqcn,load=0.5,seed=3) and a result file of its own
// (point_files.h). One driver gives both scenarios --list-points,
// --point ID -o DIR, --merge DIR and the resume of the default run; the
// scenario runners give it their points, how to run them and how to write
// the outputs from their results.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "net_setup.h"
#include "point_files.h"

namespace dsh::net {

using sc::KeyValues;

struct NetPoint {
  std::string id, scheme, cc;
  uint64_t seed = 0;  // S3 only
  std::string load;   // S3, benchmark: the load as its point text ("0.5")
  KeyValues extra;    // benchmark: further coordinates (workload, buffer_mb)
};

// A point's ID: <scenario.name>,scheme=S,cc=C[,extra...][,load=L][,seed=N].
std::string net_point_id(const std::string& name, const std::string& scheme, const std::string& cc,
                         const uint64_t* seed, const std::string& load = "", const KeyValues& extra = {});

// What decides every point's result: every key of the scenario but those in
// `drop` (the point's own coordinates, the lists that choose points,
// run.jobs) and with `set` replaced or added (S3's effective duration).
KeyValues net_point_params(const KeyStore& k, const std::vector<std::string>& drop, const KeyValues& set);

// A result handed back by a point: the metrics (a JSON object) and, when
// the run failed, why (an error is reported, never kept as a point file).
using NetPointDone = std::function<void(size_t point, const nlohmann::ordered_json& metrics, const std::string& error)>;

// A network scenario as the harness runs it (run_net_sweep): its points and
// what decides their results, its run of one point, its report of a point
// and its outputs. Every point runs in a child process of the one pool
// (child_process.h), run.jobs at a time.
struct NetSweep {
  std::vector<NetPoint> points;  // every point of this run, in output order
  KeyValues params;              // net_point_params of this run
  unsigned jobs = 1;             // run.jobs
  // In the point's own process: its result, a JSON object whose "error"
  // (when there) says why it failed.
  std::function<nlohmann::ordered_json(size_t point)> run_point;
  // The result of a point that threw or whose process ended without one.
  std::function<nlohmann::ordered_json(size_t point, const std::string& why)> failed_point;
  // Optional: a line before the points `todo` (indices into points) start.
  std::function<void(const std::vector<size_t>& todo)> starting;
  // The point's line on stderr as it ends.
  std::function<void(size_t point, const nlohmann::ordered_json& metrics)> report;
  // Optional: a file the point writes as it runs, removed when it is stopped.
  std::function<std::string(size_t point)> partial_file;
  // The exit status one point alone gives (--point): 0, 1 drops, 4 invalid stimulus.
  std::function<int(const nlohmann::json& metrics)> point_status;
  // The outputs (CSV, summary.*, PNG) from every point's metrics, in points
  // order (every point ran); the exit status.
  std::function<int(const std::vector<nlohmann::json>& metrics)> write_outputs;
};

// dsh-sim's options of a network run.
struct NetSweepOptions {
  std::string out_dir;     // outputs (and, for the default run, out_dir/points)
  std::string point;       // --point ID ("" none)
  std::string merge_dir;   // --merge DIR ("" none)
  bool list_points = false, rerun = false;
  bool plot = true, full = false, reproducible = false;
  std::string python, plot_script;
};

// Where the point files of a run go: -o itself for --point, OUT/points for
// the default run (a merge reads its own directory).
std::string net_points_dir(const NetSweepOptions& o);

// --list-points, --point, --merge or the default run with resume. Returns
// dsh-sim's exit status (2 for a refused merge or an unknown point). A run
// with a failed point writes no outputs (its finished points keep their
// files): 1 when a point failed a lockstep check, else 3.
int run_net_sweep(const NetSweep& sweep, const NetSweepOptions& o);

// Runs the network plot script (o.plot_script, or the installed
// plot_net.py) with `args` (already quoted) under o.python; a failure is
// reported on stderr and does not fail the run. True when it wrote the plot.
bool plot_net(const NetSweepOptions& o, const std::string& args);

}  // namespace dsh::net
