// SPDX-License-Identifier: Apache-2.0
// GTKWave save files (.gtkw) for dsh_mmu's FST traces: the signals grouped
// by pipeline stage (README "Reading a waveform"), a marker at the failing
// edge, the record of the entry in question, and the region encodings shown
// by name through translate filter files written beside the save file.
// docs/guide/debugging.md says how to read them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mmu_model.h"

namespace dsh {

// An entry of dsh_mmu's memories whose record a save file shows.
struct TraceEntry {
  enum Kind { Queue, Port } kind = Queue;
  uint32_t port = 0, queue = 0;
  bool operator==(const TraceEntry& o) const { return kind == o.kind && port == o.port && queue == o.queue; }
};

struct GtkwView {
  std::string fst_path;              // the trace the save file opens
  uint64_t marker_ps = 0;            // the primary marker (the failing edge)
  int64_t since_ps = -1;             // named marker A (e.g. the last matched full compare), -1 none
  uint64_t start_ps = 0;             // left edge of the view
  std::vector<TraceEntry> entries;   // records to show
  bool stats = true;                 // the RTL has the statistics counters (Stats = 1): entries show counts
};

// The names the save file displays, as GTKWave spells them
// ("tb.dsh_mmu.u_store.occ_h_q[37][19:0]", "(37)tb.dsh_mmu.u_store.qoff_q[223:0]");
// stats: the RTL has the statistics counters (an entry's count is shown).
std::vector<std::string> gtkw_signals(const Config& c, const RtlWidths& w, const std::vector<TraceEntry>& entries,
                                      bool stats = true);

// Writes `gtkw_path` and its filter files (<stem>.region.txt,
// <stem>.onehot.txt) beside it. Throws std::runtime_error when a file cannot
// be written.
void write_gtkw(const std::string& gtkw_path, const Config& c, const RtlWidths& w, const GtkwView& v);

}  // namespace dsh
