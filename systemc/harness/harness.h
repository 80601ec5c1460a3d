// SPDX-License-Identifier: Apache-2.0
// The run harness of every scenario: a run is a sweep of points, each with
// an ID and a result file of its own (point_files.h), run in the one process
// pool (child_process.h) run.jobs at a time. The harness gives every
// scenario --list-points, --point ID -o DIR, --merge DIR and the resume of
// the default run; a scenario supplies its points, its run of one point,
// its report line and its outputs.
//
// A scenario whose points are a fixed list (the networks) hands the harness
// a FixedSweep and run_fixed_sweep does the rest. A scenario whose later
// points depend on earlier results (S1's bisection) drives the pool itself
// and takes the rest from here: list_points, point_already_done for --point
// ID, scan_run_points for the merge's refusals and the resume.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "point_files.h"

namespace dsh::sc {

// dsh-sim's options that every sweep takes.
struct HarnessOptions {
  std::string out_dir;    // outputs (and, for the default run, out_dir/points)
  std::string point;      // --point ID ("" none)
  std::string merge_dir;  // --merge DIR ("" none)
  bool list_points = false, rerun = false, reproducible = false;
};

// Where the point files of a run go: -o itself for --point, OUT/points for
// the default run (a merge reads its own directory).
std::string run_points_dir(const HarnessOptions& o);

// --list-points: the IDs, one a line on stdout. Exit 0.
int list_points(const std::vector<std::string>& ids);

// --point ID without --rerun: the metrics of a valid result file at `path`
// (its ID `id`, run with `params`; `check` may throw when the metrics are
// not this scenario's), said on stderr; nullopt when the point must run.
std::optional<nlohmann::json> point_already_done(const std::string& path, const std::string& id,
                                                 const KeyValues& params, bool rerun,
                                                 const std::function<void(const nlohmann::json&)>& check = {});

// The point files of a merge (dir and its subdirectories) or of the default
// run's resume (dir), checked against the sweep: `ids` are the points that
// must all have a file for a merge; `expected` as scan_points'. Fills scan
// (no valid files with `rerun`) and says on stderr how many of `ids` are
// done ("N of M <noun> already done ..."). Returns exit 2 when a merge is
// refused or the directory has problems, else nullopt.
std::optional<int> scan_run_points(PointScan& scan, const std::string& dir, bool merge, bool rerun,
                                   const std::vector<std::string>& ids, const char* noun,
                                   const std::function<std::optional<KeyValues>(const PointRecord&)>& expected);

// A sweep with a fixed point list, as run_fixed_sweep runs it. Every point
// runs in a child process of the pool.
struct FixedSweep {
  std::vector<std::string> ids;  // every point of this run, in output order
  KeyValues params;              // what decides every point's result (the point files' params)
  unsigned jobs = 1;             // run.jobs
  // In the point's own process: its result, a JSON object whose "error"
  // (when there) says why it failed.
  std::function<nlohmann::ordered_json(size_t point)> run_point;
  // The result of a point that threw or whose process ended without one.
  std::function<nlohmann::ordered_json(size_t point, const std::string& why)> failed_point;
  // Optional: a line before the points `todo` (indices into ids) start.
  std::function<void(const std::vector<size_t>& todo)> starting;
  // The point's line on stderr as it ends.
  std::function<void(size_t point, const nlohmann::ordered_json& metrics)> report;
  // Optional: a file the point writes as it runs, removed when it is stopped.
  std::function<std::string(size_t point)> partial_file;
  // The exit status one point alone gives (--point): 0, 1 drops, 4 invalid stimulus.
  std::function<int(const nlohmann::json& metrics)> point_status;
  // The outputs (CSV, summary.*, PNG) from every point's metrics, in ids
  // order (every point ran); the exit status.
  std::function<int(const std::vector<nlohmann::json>& metrics)> write_outputs;
};

// --list-points, --point, --merge or the default run with resume. Returns
// dsh-sim's exit status (2 for a refused merge or an unknown point). A run
// with a failed point writes no outputs (its finished points keep their
// files): 1 when a point failed a lockstep check, else 3.
int run_fixed_sweep(const FixedSweep& sweep, const HarnessOptions& o);

}  // namespace dsh::sc
