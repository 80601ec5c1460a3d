// SPDX-License-Identifier: Apache-2.0
// The run harness of every scenario: a run is a sweep of points, each with
// an ID and a result file of its own (point_files.h), run in the one process
// pool (child_process.h) run.jobs at a time. The harness gives every
// scenario --list-points, --point ID -o DIR, --merge DIR, the resume of the
// default run, failed points and the interrupt; a scenario supplies its
// points, its run of one point, its report line and its outputs.
//
// A sweep's points come in rounds (RoundsSweep, run_rounds_sweep): the
// scenario gives its point list from the results so far, and the harness
// runs the points without a result and asks again as each point ends (S1:
// the grid, then each chain's bisection steps). A fixed point list (the
// networks: FixedSweep, run_fixed_sweep) is the one-round case.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
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

// Every result of a finished sweep, as its outputs get them.
struct SweepResults {
  std::vector<std::string> ids;         // the sweep's points, in the order its point list gives them
  std::vector<nlohmann::json> metrics;  // by ids
  size_t from_files = 0;                // how many of them were read from point files, not run here
};

// A CSV of the finished points, kept in place of the outputs when a run
// stops short (a point failed, an interrupt) and removed once the outputs
// are written.
struct PartialCsv {
  std::string path;  // "" none
  std::string header;
  std::function<std::string(const std::string& id, const nlohmann::json& metrics)> row;  // a line, no newline
};

// The results so far, by point ID: the valid point files and the points
// that ran here without an error.
using PointResults = std::map<std::string, nlohmann::json>;

// A sweep whose points come in rounds. Every point runs in a child process
// of the pool.
struct RoundsSweep {
  // The sweep's points given the results so far, in output order. Given no
  // results it is the first round: what --list-points lists, --point
  // accepts and --merge requires. The harness runs every listed point that
  // has no result and asks again as each point ends; the sweep is done when
  // every listed point has one.
  std::function<std::vector<std::string>(const PointResults& results)> points;
  // What decides a point's result (its file's params); nullopt when the ID
  // is not a point of this sweep.
  std::function<std::optional<KeyValues>(const std::string& id)> params;
  // Optional: throws std::runtime_error when a file's metrics are not this sweep's.
  std::function<void(const nlohmann::json& metrics)> check_metrics;
  std::string first_round_noun = "points";  // the resume's "N of M <noun> already done"
  unsigned jobs = 1;                        // run.jobs
  bool stop_at_failure = false;             // the first failed point stops the running ones
  // In the point's own process: its result, a JSON object whose "error"
  // (when there) says why it failed.
  std::function<nlohmann::ordered_json(const std::string& id)> run_point;
  // The result of a point that threw or whose process ended without one.
  std::function<nlohmann::ordered_json(const std::string& id, const std::string& why)> failed_point;
  // Optional: a line before the points `todo` start; `done` points of the
  // list already have a result file.
  std::function<void(const std::vector<std::string>& todo, size_t done)> starting;
  // The point's line as it ends (a failed point's too).
  std::function<void(const std::string& id, const nlohmann::ordered_json& metrics)> report;
  // Optional: a file the point writes as it runs, removed when it is stopped.
  std::function<std::string(const std::string& id)> partial_file;
  // The exit status one point alone gives (--point): 0, 1 drops, 4 invalid stimulus.
  std::function<int(const std::string& id, const nlohmann::json& metrics)> point_status;
  PartialCsv partial;
  // The outputs (CSV, summary.*, PNG) from every point's result (every
  // point ran); the exit status.
  std::function<int(const SweepResults& results)> write_outputs;
};

// --list-points, --point, --merge or the default run with resume. Returns
// dsh-sim's exit status (2 for a refused merge or an unknown point). A run
// with a failed point writes no outputs (its finished points keep their
// files, and the partial CSV its rows): 1 when a point failed a lockstep
// check, else 3. Throws InputError when the points directory cannot be made.
int run_rounds_sweep(const RoundsSweep& sweep, const HarnessOptions& o);

// A sweep with a fixed point list: one round. The members are
// RoundsSweep's, a point named by its index in ids.
struct FixedSweep {
  std::vector<std::string> ids;  // every point of this run, in output order
  KeyValues params;              // what decides every point's result (the point files' params)
  unsigned jobs = 1;             // run.jobs
  std::function<nlohmann::ordered_json(size_t point)> run_point;
  std::function<nlohmann::ordered_json(size_t point, const std::string& why)> failed_point;
  std::function<void(const std::vector<size_t>& todo)> starting;  // optional
  std::function<void(size_t point, const nlohmann::ordered_json& metrics)> report;
  std::function<std::string(size_t point)> partial_file;  // optional
  std::function<int(const nlohmann::json& metrics)> point_status;
  // The outputs from every point's metrics, in ids order; the exit status.
  std::function<int(const std::vector<nlohmann::json>& metrics)> write_outputs;
};

// run_rounds_sweep of the fixed list (points by their index in ids).
int run_fixed_sweep(const FixedSweep& sweep, const HarnessOptions& o);

}  // namespace dsh::sc
