// SPDX-License-Identifier: Apache-2.0
// Sweep points: every simulation of a pfc-avoidance sweep has a
// stable textual ID and writes its result to a file of its own, so that the
// points can run in any process on any machine (GNU Parallel, a Slurm job
// array) and a directory of them can be merged or resumed.
//
//   ID = <scenario.name>[,rate_gbps=R],scheme=dsh|sih,burst_pct=P[,refine=1]
//
// rate_gbps names a [[generation]] row; refine=1 marks a bisection step. The
// result file is <ID>.json: the ID, the parameters that decide the result
// (point_params) and the metrics, written atomically (temporary + rename).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "json_record.h"
#include "params.h"
#include "point_files.h"
#include "sim.h"

namespace dsh::sc {

// One chip of a sweep: the scenario itself, or one [[generation]] row.
struct SweepChip {
  int generation = -1;    // row of Params::generations; -1: the scenario's own chip
  std::string label;      // the row's rate_gbps as text ("" for the scenario's own chip)
  std::shared_ptr<const Params> params;  // the chip's scenario (schemes: the feasible ones)
  KeyValues infeasible;   // scheme -> why it cannot be configured on this chip
};

struct SweepPoint {
  std::string id;
  size_t chip = 0;  // index into the sweep's chips
  PointSpec spec;   // scheme, burst_pct, refine, params
};

// The chips of a sweep. `infeasible` lists the schemes of p already known
// infeasible (a single-chip sweep; p.schemes excludes them); a generation
// sweep finds them per chip.
std::vector<SweepChip> sweep_chips(const Params& p, const KeyValues& infeasible);

// Every grid point, chip by chip, scheme by scheme, burst ascending.
std::vector<double> sorted_grid(const Params& p);  // sweep.burst_pct sorted, duplicates dropped
std::vector<SweepPoint> grid_points(const Params& p, const std::vector<SweepChip>& chips);

std::string point_id(const Params& p, const SweepChip& chip, Scheme s, double burst_pct, bool refine);

// The parts of an ID; nullopt when it is not of the form above.
struct PointKey {
  std::string scenario, generation, scheme, burst;
  bool refine = false;
};
std::optional<PointKey> parse_point_id(const std::string& id);

// What decides a point's result: every key of the chip's scenario but the
// sweep's own (sweep.*) and run.jobs.
KeyValues point_params(const Params& chip);

// A point's metrics as its file holds them, field by field in this order
// (the names are the CSV's where it has them).
DSH_JSON_RECORD(Metrics, scheme, refine, burst_pct, burst_bytes, burst_cells, fanin_pause_us, fanin_pause_frames,
                pause_frames, resume_frames, drops, peak_shared_cells, peak_queue_hdrm_cells, peak_port_hdrm_cells,
                fanin_bytes_admitted, fanin_bytes_total, fanin_bytes_generated, fanin_bytes_done, fanin_start_us, sim_us,
                wall_s, mmu_cycles, mmu_busy_cycles, max_enq_wait_ns, max_deq_wait_ns, mismatch)
nlohmann::ordered_json metrics_json(const Metrics& m);
Metrics metrics_from_json(const nlohmann::json& j);  // throws std::runtime_error naming the field

}  // namespace dsh::sc
