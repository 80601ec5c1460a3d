// SPDX-License-Identifier: Apache-2.0
// A pfc-avoidance sweep's state, shared by its run (sweep.cpp) and its
// outputs (sweep_report.cpp).
#pragma once

#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "points.h"
#include "sweep.h"

namespace dsh::sc {

// One (chip, scheme): the grid results, then bisection between the largest
// pause-free grid point (all below it pause-free too) and the next. The
// sweep replays it from the results so far (sweep.cpp).
struct Chain {
  size_t chip = 0;
  Scheme scheme = Scheme::DSH;
  std::map<double, Metrics> done;  // the valid results by burst
  size_t grid_left = 0;            // grid points without a result
  unsigned steps_left = 0;
  double lo = 0, hi = -1;  // pause-free up to lo, paused at hi (-1: none paused)
  bool non_monotone = false;

  void settle(const std::vector<double>& grid) {
    lo = 0;
    hi = -1;
    for (double g : grid) {
      if (!done.count(g)) continue;  // an invalid point: no result
      if (done.at(g).fanin_pause_frames == 0) {
        if (hi < 0) lo = g;
        else non_monotone = true;
      } else if (hi < 0) {
        hi = g;
      }
    }
  }
  bool can_step() const { return !grid_left && steps_left && hi >= 0 && hi - lo >= 1e-3; }
  double mid() const { return std::round((lo + hi) / 2 * 1e4) / 1e4; }
};

struct SweepRow {
  size_t chip;
  Metrics m;
  std::string status;
};

// Every result of the sweep, run here or read from its file.
struct SweepTally {
  std::vector<SweepRow> rows;
  // ((chip, (-scheme, burst)), "what: why") of the invalid points, sortable.
  std::vector<std::pair<std::pair<size_t, std::pair<int, double>>, std::string>> invalid;
  double sum_sim_us = 0, sum_wall = 0, sum_cycles = 0;
  size_t n_valid = 0, from_files = 0;
  uint64_t drops = 0;
};

// sweep.csv, summary.txt, summary.json and sweep.png from the tally
// (sorted here), the summary printed; `wall`: the sweep's seconds. The exit
// status.
int write_sweep_outputs(const Params& p, const std::vector<SweepChip>& chips, const std::vector<Chain>& chains,
                        SweepTally& t, double wall, const SweepOptions& o);

}  // namespace dsh::sc
