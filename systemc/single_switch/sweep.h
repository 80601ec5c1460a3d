// SPDX-License-Identifier: Apache-2.0
// The pfc-avoidance sweep (scenarios §S1, and its generation sweep
// scenarios/link-speeds.toml) as points: the grid points are independent and
// may run anywhere; each (chip, scheme)'s bisection of the pause-free edge
// runs after its grid, in the process that builds the outputs (it is a chain:
// every step depends on the one before). Every result is a point file, so a
// sweep that stopped resumes, and a directory of points from other processes
// or machines merges into the same outputs as one process.
#pragma once

#include <string>

#include "harness.h"
#include "points.h"

namespace dsh::sc {

// The harness's options (out_dir: sweep.csv, summary.txt, summary.json,
// sweep.png) and the plot's.
struct SweepOptions : HarnessOptions {
  bool plot = true;
  std::string plot_script, link_plot_script, python;  // a script "": the shipped one (resources.h)
};

// The sweep on the run harness (harness.h run_rounds_sweep): --list-points,
// --point ID, or the whole sweep run or merged, with its outputs.
// `infeasible`: the schemes of a single-chip scenario that cannot be
// configured (p.schemes already without them). Returns the exit status of
// dsh-sim; throws InputError when the points directory cannot be made.
int run_sweep(const Params& p, const KeyValues& infeasible, const SweepOptions& o);

// The line printed for a point (stdout of --point).
void print_point(FILE* f, const Metrics& m);

// The CSV of a sweep; wall_s empty when `reproducible`.
std::string csv_header();
std::string csv_row(const Metrics& m, const std::string& status, bool reproducible = false);

}  // namespace dsh::sc
