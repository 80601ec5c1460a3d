// SPDX-License-Identifier: Apache-2.0
// Running scenario points. A SystemC kernel elaborates and runs once per
// process, so every point runs in a child process (fork) that sends its
// metrics back through a pipe; the caller never touches the kernel and can
// run many points, several at a time.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "child_process.h"
#include "params.h"

namespace dsh::sc {

struct PointSpec {
  Scheme scheme = Scheme::DSH;
  double burst_pct = 0;     // pfc-avoidance: total fan-in burst, % of the buffer
  bool refine = false;      // a bisection point (for the report)
  std::string trace_stem;   // non-empty: write <stem>.fst and <stem>.gtkw
  std::string pcap;         // non-empty: capture p.wire.capture_links into this pcap file (capture.h)
  std::string out_dir = ".";  // where a lockstep mismatch writes its FST window
  std::shared_ptr<const Params> params;  // set: run on this scenario, not the caller's (a generation's chip)
  std::string id;                        // the sweep point's ID (for the caller)
};

struct Metrics {
  int scheme = 0;  // int(Scheme)
  int refine = 0;
  double burst_pct = 0;
  uint64_t burst_bytes = 0, burst_cells = 0;  // cells: sum over packets of ceil(bytes / cell)
  double fanin_pause_us = 0;                  // summed over the fan-in senders
  uint64_t fanin_pause_frames = 0;            // PAUSE + PORT_PAUSE toward fan-in hosts
  uint64_t pause_frames = 0, resume_frames = 0, drops = 0;
  uint64_t peak_shared_cells = 0, peak_queue_hdrm_cells = 0, peak_port_hdrm_cells = 0;
  uint64_t fanin_bytes_admitted = 0;
  uint64_t fanin_bytes_total = 0;      // what the scenario's fan-in flows are to send (0: endless)
  uint64_t fanin_bytes_generated = 0;  // what their hosts generated
  uint64_t fanin_bytes_done = 0;       // admitted + dropped
  double fanin_start_us = 0;
  double sim_us = 0, wall_s = 0;
  uint64_t mmu_cycles = 0, mmu_busy_cycles = 0;
  double max_enq_wait_ns = 0, max_deq_wait_ns = 0;
  int mismatch = 0;  // the error is a lockstep mismatch
};

struct PointResult {
  PointSpec spec;
  Metrics m;
  std::string error;  // empty: the point ran
  std::string note;   // e.g. where the trace went
  bool ok() const { return error.empty(); }
};

// Empty when the point's stimulus happened as the scenario describes; else
// why the point is invalid (the fan-in never started: the background flows
// never reached the state the scenario waits for; the burst was not all
// sent by traffic.max_run_us). About the stimulus only: a pause-free point
// or a point with drops is a result.
std::string stimulus_fault(const Params& p, const Metrics& m);

// Set by SIGINT/SIGTERM while run_points runs: the running points are
// stopped (SIGTERM to each child by pid, then waited for) and run_points
// returns false without calling `done` for them.
bool interrupted();

// Runs one point in this process. Call at most once per process.
PointResult run_point(const Params& p, const PointSpec& s);

// Runs one point in a child process.
PointResult run_point_isolated(const Params& p, const PointSpec& s);

// Runs points `jobs` at a time, each in a child process. `next` is asked for
// work whenever a slot is free (nullopt: nothing to start now); `done` gets
// every result, in completion order. Returns when `next` has nothing and no
// point is running, or after the first failed point (the others are stopped
// and their results dropped); returns false then.
bool run_points(const Params& p, unsigned jobs, const std::function<std::optional<PointSpec>()>& next,
                const std::function<void(const PointResult&)>& done);

using dsh::run_in_child;  // child_process.h

// The GTKWave save file for a trace written by run_point.
// end_ps: the trace's length, for the initial zoom.
std::string gtkw_text(const Params& p, const std::string& fst_path, uint64_t end_ps);

}  // namespace dsh::sc
