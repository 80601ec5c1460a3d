// SPDX-License-Identifier: Apache-2.0
#include "comparer.h"

namespace dsh {

std::string events_str(const CycleOut& o) {
  std::string s;
  for (unsigned i = 0; i < o.n_events; ++i) s += (i ? ";" : "") + o.events[i].str();
  return s.empty() ? "none" : s;
}

std::string events_str(const LaneCycleOut& o) {
  std::string s;
  for (unsigned i = 0; i < o.n_events; ++i) s += (i ? ";" : "") + o.events[i].str();
  return s.empty() ? "none" : s;
}

std::string entry_name(const TraceEntry& e) {
  return e.kind == TraceEntry::Queue ? "queue " + std::to_string(e.port) + "." + std::to_string(e.queue)
                                     : "port " + std::to_string(e.port);
}

std::vector<std::string> compare(const MmuModel& rtl, const CycleOut& ro, const MmuModel& gold, const CycleOut& go,
                                 const CycleIn& in, bool full, const std::string& tag) {
  Comparer cmp(rtl, gold, gold.cycle() ? gold.cycle() - 1 : 0, tag);
  cmp.outputs(ro, go);
  if (full) cmp.all();
  else cmp.touched(in);
  return std::move(cmp.lines);
}

}  // namespace dsh
